// The EGL vendor library's objects. EGLDisplay/EGLConfig/EGLSurface/
// EGLContext/EGLSync handles are pointers to these; every entry point
// validates a handle against its display's sets before using it.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "context.h"

namespace mgl::egl {

struct Display;
struct X11Window;  // egl_x11.cc
struct X11WindowDeleter {
    void operator()(X11Window* w) const;  // egl_x11.cc
};
using X11WindowPtr = std::unique_ptr<X11Window, X11WindowDeleter>;

struct Config {
    EGLint id = 0;
    EGLint red = 8, green = 8, blue = 8, alpha = 8, depth = 0, stencil = 0, samples = 0;
    EGLint surface_type = EGL_PBUFFER_BIT | EGL_WINDOW_BIT;
    EGLint renderable = EGL_OPENGL_ES_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT | EGL_OPENGL_BIT;
    EGLint native_visual_id = 0;
    EGLint native_visual_type = EGL_NONE;
    EGLint buffer_size() const { return red + green + blue + alpha; }
    // Value of a config attribute; false: not an attribute.
    bool attrib(EGLint name, EGLint* value) const;
};

struct Surface {
    Display* dpy = nullptr;
    const Config* cfg = nullptr;
    EGLint kind = EGL_PBUFFER_BIT;  // EGL_PBUFFER_BIT | EGL_WINDOW_BIT
    uint32_t id = 0;                // server surface name (minted by the client)
    int width = 0, height = 0;
    bool largest_pbuffer = false;
    EGLint swap_interval = 1;
    EGLint texture_format = EGL_NO_TEXTURE, texture_target = EGL_NO_TEXTURE;
    uint64_t frames = 0;
    X11WindowPtr window;  // window surfaces
    std::vector<std::weak_ptr<client::ShareGroup>> sessions;  // where mglCreateSurface was sent
    int bound = 0;                       // contexts that have it as draw or read
    bool destroy_pending = false;
    Surface();
    ~Surface();
};

struct ContextRec {
    Display* dpy = nullptr;
    const Config* cfg = nullptr;  // nullptr: EGL_NO_CONFIG_KHR
    std::unique_ptr<client::Context> ctx;
    EGLenum api = EGL_OPENGL_ES_API;  // EGL_OPENGL_ES_API or EGL_OPENGL_API
    EGLint major = 2, minor = 0;
    Surface* draw = nullptr;
    Surface* read = nullptr;
    std::thread::id thread;  // where it is current; default id: nowhere
    bool current = false;
    bool destroy_pending = false;
};

struct SyncRec {
    Display* dpy = nullptr;
    std::weak_ptr<client::ShareGroup> group;
    uint64_t handle = 0;  // the GLsync the client minted (glFenceSync)
};

// An EGLImage: its handle is its id (what glEGLImageTarget*OES carry on the
// wire), minted per process; the server keeps the image in the session of
// the share group whose context created it (egl_images.cc).
struct ImageRec {
    std::weak_ptr<client::ShareGroup> group;
};

struct Display {
    EGLenum platform = EGL_PLATFORM_SURFACELESS_MESA;
    void* native = nullptr;  // X11 Display* for the X11 platform
    bool own_native = false;  // opened by us (EGL_DEFAULT_DISPLAY)
    int screen = 0;
    bool initialized = false;
    std::vector<Config> configs;
    std::mutex mu;
    std::set<Surface*> surfaces;
    std::set<ContextRec*> contexts;
    std::set<SyncRec*> syncs;
    std::map<uint32_t, ImageRec> images;  // by id
};

// Thread-local EGL error of this vendor (libEGL asks through eglGetError).
void set_error(EGLint e);
EGLint take_error();

// For entry points defined outside egl_api.cc: a display that exists and is
// initialized, and a live context of it (both set the EGL error otherwise,
// the context lookup only when it fails).
Display* checked_display(EGLDisplay d);
ContextRec* checked_context(Display* dpy, EGLContext c);
// Whether a context of `group` other than the calling thread's is current on
// another thread (its encoder is in use there).
bool group_busy_elsewhere(Display* dpy, const client::ShareGroup* group);
// eglTerminate: every image of the display goes (egl_images.cc).
void destroy_all_images(Display* dpy);

namespace api {
EGLImage eglCreateImage(EGLDisplay d, EGLContext ctx, EGLenum target, EGLClientBuffer buffer, const EGLAttrib* attribs);
EGLImageKHR eglCreateImageKHR(EGLDisplay d, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                              const EGLint* attribs);
EGLBoolean eglDestroyImage(EGLDisplay d, EGLImage image);
EGLBoolean eglDestroyImageKHR(EGLDisplay d, EGLImageKHR image);
}  // namespace api

// glvnd's getPlatformDisplay (EGL_NONE: the default display).
EGLDisplay get_platform_display(EGLenum platform, void* native, const EGLAttrib* attribs);

// The vendor's implementations, by name (egl_api.cc); nullptr when unknown.
void* egl_proc(const char* name);
// Client and display extension strings.
const char* client_extensions();
const char* platform_extensions();

// X11 (egl_x11.cc). Returns false when the window does not exist.
bool x11_window_size(void* x_display, unsigned long window, int* w, int* h);
X11WindowPtr x11_make_window(void* x_display, int screen, unsigned long window);
// Puts a bottom-up RGBA8 frame of w x h pixels into the window.
void x11_present(X11Window& win, const uint8_t* rgba, int w, int h);
unsigned long x11_window_id(const X11Window& win);
void* x11_open_default(int* screen);
void x11_close(void* x_display);
EGLint x11_default_visual(void* x_display, int screen);

}  // namespace mgl::egl
