// Screens (an X screen and its EGL display), FBConfigs, drawables and
// contexts of the GLX vendor. Every handle an application passes in is
// looked up here before use: an unknown one is an error, never a cast.
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "egl_internal.h"
#include "glx_internal.h"
#include "log.h"


namespace mgl::glx {

const Egl& egl() {
    static const Egl e = [] {
        Egl f{};
        auto get = [](const char* n) {
            void* p = mgl::egl::egl_proc(n);
            if (!p) client::log().critical("GLX: this library's EGL has no {}", n);
            return p;
        };
#define MGL_GET(field, name) f.field = reinterpret_cast<decltype(f.field)>(get(name))
        MGL_GET(Initialize, "eglInitialize");
        MGL_GET(GetConfigAttrib, "eglGetConfigAttrib");
        MGL_GET(GetConfigs, "eglGetConfigs");
        MGL_GET(BindAPI, "eglBindAPI");
        MGL_GET(QueryAPI, "eglQueryAPI");
        MGL_GET(CreateContext, "eglCreateContext");
        MGL_GET(DestroyContext, "eglDestroyContext");
        MGL_GET(CreateWindowSurface, "eglCreateWindowSurface");
        MGL_GET(CreatePbufferSurface, "eglCreatePbufferSurface");
        MGL_GET(DestroySurface, "eglDestroySurface");
        MGL_GET(QuerySurface, "eglQuerySurface");
        MGL_GET(MakeCurrent, "eglMakeCurrent");
        MGL_GET(SwapBuffers, "eglSwapBuffers");
        MGL_GET(SwapInterval, "eglSwapInterval");
        MGL_GET(WaitClient, "eglWaitClient");
        MGL_GET(GetError, "eglGetError");
#undef MGL_GET
        return f;
    }();
    return e;
}

namespace {

std::mutex g_mu;  // guards everything below
std::vector<std::unique_ptr<ScreenRec>> g_screens;
std::map<std::pair<::Display*, GLXDrawable>, std::unique_ptr<DrawableRec>> g_drawables;
std::map<GLXContext, std::unique_ptr<ContextRec>> g_contexts;

// The EGL vendor's surface configs (client/egl/egl_api.cc build_configs)
// with 8-bit channels: the X visual is the screen's 24-bit TrueColor one.
void build_configs(ScreenRec& s) {
    EGLint n = 0;
    const Egl& e = egl();
    if (!e.GetConfigs(s.egl, nullptr, 0, &n) || n <= 0) return;
    std::vector<EGLConfig> list(static_cast<size_t>(n));
    e.GetConfigs(s.egl, list.data(), n, &n);
    int id = 1;
    for (EGLConfig c : list) {
        auto f = std::make_unique<FBConfig>();
        f->egl = c;
        EGLint v = 0;
        auto get = [&](EGLint a) { return e.GetConfigAttrib(s.egl, c, a, &v) ? v : 0; };
        f->red = get(EGL_RED_SIZE), f->green = get(EGL_GREEN_SIZE), f->blue = get(EGL_BLUE_SIZE);
        f->alpha = get(EGL_ALPHA_SIZE), f->depth = get(EGL_DEPTH_SIZE), f->stencil = get(EGL_STENCIL_SIZE);
        f->samples = get(EGL_SAMPLES);
        f->visual = VisualID(get(EGL_NATIVE_VISUAL_ID));
        if (f->red != 8 || f->green != 8 || f->blue != 8) continue;  // no 16-bit visual to show them in
        f->id = id++;
        s.configs.push_back(std::move(f));
    }
}

}  // namespace

bool FBConfig::attrib(int name, int* v) const {
    switch (name) {
        case GLX_FBCONFIG_ID: *v = id; return true;
        case GLX_BUFFER_SIZE: *v = buffer_size(); return true;
        case GLX_LEVEL: *v = 0; return true;
        case GLX_DOUBLEBUFFER: *v = True; return true;
        case GLX_STEREO: *v = False; return true;
        case GLX_AUX_BUFFERS: *v = 0; return true;
        case GLX_RED_SIZE: *v = red; return true;
        case GLX_GREEN_SIZE: *v = green; return true;
        case GLX_BLUE_SIZE: *v = blue; return true;
        case GLX_ALPHA_SIZE: *v = alpha; return true;
        case GLX_DEPTH_SIZE: *v = depth; return true;
        case GLX_STENCIL_SIZE: *v = stencil; return true;
        case GLX_ACCUM_RED_SIZE: case GLX_ACCUM_GREEN_SIZE: case GLX_ACCUM_BLUE_SIZE: case GLX_ACCUM_ALPHA_SIZE:
            *v = 0; return true;
        case GLX_RENDER_TYPE: *v = GLX_RGBA_BIT; return true;
        case GLX_DRAWABLE_TYPE: *v = GLX_WINDOW_BIT | GLX_PBUFFER_BIT; return true;
        case GLX_X_RENDERABLE: *v = visual ? True : False; return true;
        case GLX_VISUAL_ID: *v = int(visual); return true;
        case GLX_X_VISUAL_TYPE: *v = visual ? GLX_TRUE_COLOR : GLX_NONE; return true;
        case GLX_CONFIG_CAVEAT: *v = GLX_NONE; return true;
        case GLX_TRANSPARENT_TYPE: *v = GLX_NONE; return true;
        case GLX_TRANSPARENT_INDEX_VALUE: case GLX_TRANSPARENT_RED_VALUE: case GLX_TRANSPARENT_GREEN_VALUE:
        case GLX_TRANSPARENT_BLUE_VALUE: case GLX_TRANSPARENT_ALPHA_VALUE: *v = 0; return true;
        case GLX_MAX_PBUFFER_WIDTH: case GLX_MAX_PBUFFER_HEIGHT: *v = 16384; return true;
        case GLX_MAX_PBUFFER_PIXELS: *v = 16384 * 16384; return true;
        case GLX_SAMPLE_BUFFERS: *v = samples > 0 ? 1 : 0; return true;
        case GLX_SAMPLES: *v = samples; return true;
        case 0x20B2 /* GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB */: *v = False; return true;
        case 0x20D0 /* GLX_BIND_TO_TEXTURE_RGB_EXT */: case 0x20D1 /* ..._RGBA_EXT */:
        case 0x20D2 /* GLX_BIND_TO_MIPMAP_TEXTURE_EXT */: *v = False; return true;
        case 0x20D3 /* GLX_BIND_TO_TEXTURE_TARGETS_EXT */: *v = 0; return true;
        case 0x20D4 /* GLX_Y_INVERTED_EXT */: *v = GLX_DONT_CARE; return true;
        case 0x8060 /* GLX_SWAP_METHOD_OML */: *v = 0x8063 /* GLX_SWAP_UNDEFINED_OML */; return true;
        default: return false;
    }
}

ScreenRec* screen_of(::Display* dpy, int screen) {
    if (!dpy || screen < 0 || screen >= ScreenCount(dpy)) return nullptr;
    std::lock_guard<std::mutex> g(g_mu);
    for (auto& s : g_screens)
        if (s->x == dpy && s->screen == screen) return s.get();
    auto s = std::make_unique<ScreenRec>();
    s->x = dpy;
    s->screen = screen;
    const EGLAttrib attribs[] = {EGL_PLATFORM_X11_SCREEN_KHR, screen, EGL_NONE};
    s->egl = mgl::egl::get_platform_display(EGL_PLATFORM_X11_KHR, dpy, attribs);
    if (s->egl == EGL_NO_DISPLAY || !egl().Initialize(s->egl, nullptr, nullptr)) {
        client::log().error("GLX: no EGL display for X screen {}", screen);
        return nullptr;
    }
    build_configs(*s);
    g_screens.push_back(std::move(s));
    return g_screens.back().get();
}

const FBConfig* lookup_config(::Display* dpy, GLXFBConfig c) {
    std::lock_guard<std::mutex> g(g_mu);
    for (auto& s : g_screens) {
        if (s->x != dpy) continue;
        for (auto& f : s->configs)
            if (reinterpret_cast<GLXFBConfig>(f.get()) == c) return f.get();
    }
    return nullptr;
}

const FBConfig* config_of_visual(ScreenRec* s, VisualID v) {
    // The most capable config of the visual: what glXCreateContext and
    // glXGetConfig describe for an XVisualInfo (depth and stencil, no MSAA).
    const FBConfig* best = nullptr;
    for (auto& f : s->configs) {
        if (f->visual != v || f->samples) continue;
        if (!best || f->depth + f->stencil + f->alpha > best->depth + best->stencil + best->alpha) best = f.get();
    }
    return best;
}

ContextRec* lookup_context(GLXContext c) {
    std::lock_guard<std::mutex> g(g_mu);
    auto it = g_contexts.find(c);
    return it == g_contexts.end() ? nullptr : it->second.get();
}

GLXContext add_context(std::unique_ptr<ContextRec> c) {
    GLXContext h = reinterpret_cast<GLXContext>(c.get());
    std::lock_guard<std::mutex> g(g_mu);
    g_contexts[h] = std::move(c);
    return h;
}

void remove_context(GLXContext c) {
    std::lock_guard<std::mutex> g(g_mu);
    g_contexts.erase(c);
}

DrawableRec* lookup_drawable(::Display* dpy, GLXDrawable d) {
    std::lock_guard<std::mutex> g(g_mu);
    auto it = g_drawables.find({dpy, d});
    return it == g_drawables.end() ? nullptr : it->second.get();
}

GLXDrawable add_drawable(std::unique_ptr<DrawableRec> d) {
    const GLXDrawable id = d->xid;
    ::Display* dpy = d->screen->x;
    {
        std::lock_guard<std::mutex> g(g_mu);
        g_drawables[{dpy, id}] = std::move(d);
    }
    map_drawable(dpy, id);
    return id;
}

DrawableRec* drawable_for_current(::Display* dpy, GLXDrawable d, const FBConfig* cfg) {
    if (DrawableRec* r = lookup_drawable(dpy, d)) return r;
    // A plain X window (glXMakeCurrent with a Window, GLX 1.0 style).
    XWindowAttributes wa;
    if (!cfg || !XGetWindowAttributes(dpy, Window(d), &wa)) return nullptr;
    ScreenRec* s = screen_of(dpy, XScreenNumberOfScreen(wa.screen));
    if (!s) return nullptr;
    EGLSurface surf = egl().CreateWindowSurface(s->egl, cfg->egl, EGLNativeWindowType(d), nullptr);
    if (surf == EGL_NO_SURFACE) return nullptr;
    auto r = std::make_unique<DrawableRec>();
    r->xid = d;
    r->window = Window(d);
    r->surface = surf;
    r->cfg = cfg;
    r->screen = s;
    r->implicit = true;
    DrawableRec* p = r.get();
    add_drawable(std::move(r));
    return p;
}

void destroy_drawable(::Display* dpy, GLXDrawable d) {
    std::unique_ptr<DrawableRec> r;
    {
        std::lock_guard<std::mutex> g(g_mu);
        auto it = g_drawables.find({dpy, d});
        if (it == g_drawables.end()) return;
        r = std::move(it->second);
        g_drawables.erase(it);
    }
    unmap_drawable(dpy, d);
    // EGL keeps a surface that is still current alive until it is released.
    egl().DestroySurface(r->screen->egl, r->surface);
}

}  // namespace mgl::glx
