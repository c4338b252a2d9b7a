// warm_thread (mgl/espryt/espryt.h): the host driver's per-thread set-up,
// paid on a server thread before a session needs it.
#include <EGL/egl.h>

#include <mutex>

#include "host_egl.h"
#include "mgl/espryt/espryt.h"

namespace mgl::espryt {

void warm_thread() {
    const HostDisplay* host = host_display();
    if (!host) return;
    std::unique_lock<std::mutex> serial;
    if (std::mutex* m = host_serialization_lock(*host)) serial = std::unique_lock(*m);
    EGLContext context = host->create_context(EGL_NO_CONTEXT, false);
    if (context == EGL_NO_CONTEXT) return;
    // A pbuffer, not surfaceless: every host EGL has those.
    EGLSurface surface = EGL_NO_SURFACE;
    if (EGLConfig config = host->choose_config(8, 8, 8, 8, 0, 0, 0)) {
        const EGLint size[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        surface = host_egl.CreatePbufferSurface(host->dpy, config, size);
    }
    host_egl.MakeCurrent(host->dpy, surface, surface, context);
    host_egl.MakeCurrent(host->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surface != EGL_NO_SURFACE) host_egl.DestroySurface(host->dpy, surface);
    host_egl.DestroyContext(host->dpy, context);
}

}  // namespace mgl::espryt
