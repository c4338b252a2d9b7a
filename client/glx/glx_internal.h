// The GLX vendor library's objects. GLX is served on top of this library's
// own EGL implementation (client/egl/): an X Display gets one EGL display of
// the X11 platform, a GLXFBConfig is one of its EGL configs, a GLX context
// is an EGL context of the API and profile GLX asked for, and a GLX drawable
// (an X window, a GLXWindow or a GLXPbuffer) is an EGL surface. So the
// contexts, surfaces, present and the wire are the EGL vendor's, written
// once; this layer only speaks GLX.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glx.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace mgl::glx {

struct FBConfig {
    EGLConfig egl = nullptr;
    int id = 0;
    int red = 8, green = 8, blue = 8, alpha = 8, depth = 0, stencil = 0, samples = 0;
    VisualID visual = 0;
    int buffer_size() const { return red + green + blue + alpha; }
    // Value of a GLX attribute; false: not an FBConfig attribute.
    bool attrib(int name, int* value) const;
};

struct ScreenRec {
    ::Display* x = nullptr;
    int screen = 0;
    EGLDisplay egl = EGL_NO_DISPLAY;
    std::vector<std::unique_ptr<FBConfig>> configs;
};

struct DrawableRec {
    GLXDrawable xid = 0;     // what the application holds
    Window window = 0;       // the X window presented into (0: pbuffer)
    EGLSurface surface = EGL_NO_SURFACE;
    const FBConfig* cfg = nullptr;
    ScreenRec* screen = nullptr;
    bool implicit = false;   // a plain X window made current: owned by this layer
    unsigned long event_mask = 0;
};

struct ContextRec {
    EGLContext egl = EGL_NO_CONTEXT;
    const FBConfig* cfg = nullptr;
    ScreenRec* screen = nullptr;
    int render_type = GLX_RGBA_TYPE;
    bool destroyed = false;  // glXDestroyContext while current: freed when released
};

// Screens, drawables and contexts of this vendor (glx_objects.cc).
ScreenRec* screen_of(::Display* dpy, int screen);
const FBConfig* lookup_config(::Display* dpy, GLXFBConfig c);
ContextRec* lookup_context(GLXContext c);
DrawableRec* lookup_drawable(::Display* dpy, GLXDrawable d);
// The drawable record for `d`; a plain X window becomes an implicit drawable
// of `cfg` the first time it is made current.
DrawableRec* drawable_for_current(::Display* dpy, GLXDrawable d, const FBConfig* cfg);
GLXDrawable add_drawable(std::unique_ptr<DrawableRec> d);
void destroy_drawable(::Display* dpy, GLXDrawable d);
GLXContext add_context(std::unique_ptr<ContextRec> c);
void remove_context(GLXContext c);
// The config of a visual: the first double-buffered one with that visual.
const FBConfig* config_of_visual(ScreenRec* s, VisualID v);

// A fresh X resource id for a GLXWindow or GLXPbuffer (glx_xid.cc).
XID new_xid(::Display* dpy);

// glvnd's side (glx_vendor.cc): mappings that libGLX needs to dispatch.
void map_context(::Display* dpy, GLXContext c);
void unmap_context(::Display* dpy, GLXContext c);
void map_config(::Display* dpy, GLXFBConfig c);
void map_drawable(::Display* dpy, GLXDrawable d);
void unmap_drawable(::Display* dpy, GLXDrawable d);

// The GLX entry points by name (glx_api.cc); nullptr when unknown.
void* glx_proc(const char* name);

// This library's own EGL entry points (client/egl/egl_api.cc), resolved once.
struct Egl {
    PFNEGLINITIALIZEPROC Initialize;
    PFNEGLGETCONFIGATTRIBPROC GetConfigAttrib;
    PFNEGLGETCONFIGSPROC GetConfigs;
    PFNEGLBINDAPIPROC BindAPI;
    PFNEGLQUERYAPIPROC QueryAPI;
    PFNEGLCREATECONTEXTPROC CreateContext;
    PFNEGLDESTROYCONTEXTPROC DestroyContext;
    PFNEGLCREATEWINDOWSURFACEPROC CreateWindowSurface;
    PFNEGLCREATEPBUFFERSURFACEPROC CreatePbufferSurface;
    PFNEGLDESTROYSURFACEPROC DestroySurface;
    PFNEGLQUERYSURFACEPROC QuerySurface;
    PFNEGLMAKECURRENTPROC MakeCurrent;
    PFNEGLSWAPBUFFERSPROC SwapBuffers;
    PFNEGLSWAPINTERVALPROC SwapInterval;
    PFNEGLWAITCLIENTPROC WaitClient;
    PFNEGLGETERRORPROC GetError;
};
const Egl& egl();

}  // namespace mgl::glx
