// The GLX 1.4 entry points of the vendor library (what libglvnd's libGLX
// calls for screens this vendor serves) and the GLX extensions it exposes:
// GLX_ARB_create_context(_profile, _robustness), GLX_EXT_create_context_es2_profile,
// GLX_EXT_swap_control, GLX_MESA_swap_control, GLX_SGI_swap_control,
// GLX_ARB_get_proc_address, GLX_ARB_multisample. Each call is carried out by
// this library's EGL (glx_internal.h says why); what GLX cannot be given
// (pixmaps, glXUseXFont, glXCopyContext) fails with a log line.
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "glx_internal.h"
#include "log.h"

namespace mgl::glx {

namespace {

// GLX_ARB_create_context and friends (not all in every glx.h).
constexpr int kCtxMajor = 0x2091, kCtxMinor = 0x2092, kCtxFlags = 0x2094, kCtxProfileMask = 0x9126;
constexpr int kCtxResetStrategy = 0x8256, kCtxReleaseBehavior = 0x2097, kCtxOpenGLNoError = 0x31B3;
constexpr int kCtxDebugBit = 0x1, kCtxForwardBit = 0x2, kCtxRobustBit = 0x4;
constexpr int kProfileCore = 0x1, kProfileCompat = 0x2, kProfileES = 0x4;
constexpr int kSwapIntervalEXT = 0x20F1, kMaxSwapIntervalEXT = 0x20F2;

const char kExtensions[] =
    "GLX_ARB_create_context GLX_ARB_create_context_profile GLX_ARB_create_context_robustness "
    "GLX_ARB_get_proc_address GLX_ARB_multisample GLX_EXT_create_context_es2_profile "
    "GLX_EXT_create_context_es_profile GLX_EXT_swap_control GLX_EXT_visual_info GLX_MESA_swap_control "
    "GLX_SGI_swap_control";

thread_local GLXContext t_context = nullptr;   // this vendor's current context on this thread
thread_local GLXDrawable t_draw = 0, t_read = 0;
thread_local ::Display* t_display = nullptr;

void unsupported(const char* what) { client::log().error("GLX: {} is not supported by MobileGL", what); }

// GLX 1.3 §3.3.3 matching: attributes and how a config must compare.
enum class Match { at_least, exact, mask, ignore };
Match rule(int a) {
    switch (a) {
        case GLX_BUFFER_SIZE: case GLX_RED_SIZE: case GLX_GREEN_SIZE: case GLX_BLUE_SIZE: case GLX_ALPHA_SIZE:
        case GLX_DEPTH_SIZE: case GLX_STENCIL_SIZE: case GLX_AUX_BUFFERS: case GLX_ACCUM_RED_SIZE:
        case GLX_ACCUM_GREEN_SIZE: case GLX_ACCUM_BLUE_SIZE: case GLX_ACCUM_ALPHA_SIZE: case GLX_SAMPLE_BUFFERS:
        case GLX_SAMPLES:
            return Match::at_least;
        case GLX_RENDER_TYPE: case GLX_DRAWABLE_TYPE: return Match::mask;
        case GLX_MAX_PBUFFER_WIDTH: case GLX_MAX_PBUFFER_HEIGHT: case GLX_MAX_PBUFFER_PIXELS:
        case GLX_VISUAL_ID: return Match::ignore;
        default: return Match::exact;
    }
}

// The configs of `s` that satisfy `req`, in GLX's sort order.
std::vector<const FBConfig*> choose(ScreenRec* s, const std::map<int, int>& req) {
    std::vector<const FBConfig*> out;
    // GLX_FBCONFIG_ID, when given, is the only criterion.
    if (auto id = req.find(GLX_FBCONFIG_ID); id != req.end() && id->second != int(GLX_DONT_CARE)) {
        for (auto& f : s->configs)
            if (f->id == id->second) out.push_back(f.get());
        return out;
    }
    for (auto& f : s->configs) {
        bool ok = true;
        for (auto [a, want] : req) {
            if (want == int(GLX_DONT_CARE)) continue;
            int have = 0;
            if (!f->attrib(a, &have)) continue;
            switch (rule(a)) {
                case Match::at_least: ok = have >= want; break;
                case Match::exact: ok = have == want; break;
                case Match::mask: ok = (have & want) == want; break;
                case Match::ignore: break;
            }
            if (!ok) break;
        }
        if (ok) out.push_back(f.get());
    }
    // Sort keys (GLX 1.4 table 3.4): caveat and visual type are equal here;
    // then more colour bits of the requested channels, smaller buffer,
    // fewer samples, more depth, less stencil.
    auto want = [&](int a) { auto it = req.find(a); return it != req.end() && it->second > 0 && it->second != int(GLX_DONT_CARE); };
    auto color = [&](const FBConfig* f) {
        return (want(GLX_RED_SIZE) ? f->red : 0) + (want(GLX_GREEN_SIZE) ? f->green : 0) +
               (want(GLX_BLUE_SIZE) ? f->blue : 0) + (want(GLX_ALPHA_SIZE) ? f->alpha : 0);
    };
    std::stable_sort(out.begin(), out.end(), [&](const FBConfig* x, const FBConfig* y) {
        if (color(x) != color(y)) return color(x) > color(y);
        if (x->buffer_size() != y->buffer_size()) return x->buffer_size() < y->buffer_size();
        if (x->samples != y->samples) return x->samples < y->samples;
        if (x->depth != y->depth) return x->depth > y->depth;
        return x->stencil < y->stencil;
    });
    return out;
}

XVisualInfo* visual_info(::Display* dpy, int screen, VisualID v) {
    XVisualInfo tmpl{};
    tmpl.visualid = v;
    tmpl.screen = screen;
    int n = 0;
    return XGetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &tmpl, &n);
}

// Creates the EGL context for a GLX one: `attribs` are EGL_KHR_create_context's.
GLXContext create_context(::Display* dpy, const FBConfig* cfg, ScreenRec* s, GLXContext share, EGLenum api,
                          const std::vector<EGLint>& attribs, int render_type) {
    ContextRec* sh = nullptr;
    if (share && !(sh = lookup_context(share))) {
        client::log().error("GLX: the share context is not one of ours");
        return nullptr;
    }
    const Egl& e = egl();
    // The bound API is per thread and shared with the program's own EGL calls
    // (one library serves both): put back what the thread had.
    const EGLenum bound = e.QueryAPI();
    e.BindAPI(api);
    EGLContext c = e.CreateContext(s->egl, cfg->egl, sh ? sh->egl : EGL_NO_CONTEXT, attribs.data());
    const EGLint err = e.GetError();
    e.BindAPI(bound);
    if (c == EGL_NO_CONTEXT) {
        client::log().warn("GLX: context creation failed (EGL error 0x{:x})", err);
        return nullptr;
    }
    auto r = std::make_unique<ContextRec>();
    r->egl = c;
    r->cfg = cfg;
    r->screen = s;
    r->render_type = render_type;
    GLXContext h = add_context(std::move(r));
    map_context(dpy, h);
    return h;
}

// A legacy context (glXCreateContext, glXCreateNewContext): the
// compatibility profile of the highest version served, as Mesa gives.
GLXContext create_legacy(::Display* dpy, const FBConfig* cfg, ScreenRec* s, GLXContext share, int render_type) {
    const std::vector<EGLint> a = {EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                                   EGL_NONE};
    return create_context(dpy, cfg, s, share, EGL_OPENGL_API, a, render_type);
}

ScreenRec* screen_of_config(::Display* dpy, const FBConfig* f) {
    for (int i = 0; i < ScreenCount(dpy); ++i)
        if (ScreenRec* s = screen_of(dpy, i))
            for (auto& c : s->configs)
                if (c.get() == f) return s;
    return nullptr;
}

}  // namespace

namespace api {

GLXFBConfig* glXGetFBConfigs(::Display* dpy, int screen, int* nelements) {
    ScreenRec* s = screen_of(dpy, screen);
    if (nelements) *nelements = 0;
    if (!s || s->configs.empty()) return nullptr;
    auto* out = static_cast<GLXFBConfig*>(std::malloc(sizeof(GLXFBConfig) * s->configs.size()));  // XFree frees it
    for (size_t i = 0; i < s->configs.size(); ++i) {
        out[i] = reinterpret_cast<GLXFBConfig>(s->configs[i].get());
        map_config(dpy, out[i]);
    }
    if (nelements) *nelements = int(s->configs.size());
    return out;
}

GLXFBConfig* glXChooseFBConfig(::Display* dpy, int screen, const int* attribs, int* nelements) {
    if (nelements) *nelements = 0;
    ScreenRec* s = screen_of(dpy, screen);
    if (!s) return nullptr;
    std::map<int, int> req = {{GLX_RENDER_TYPE, GLX_RGBA_BIT}, {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT},
                              {GLX_X_RENDERABLE, int(GLX_DONT_CARE)}, {GLX_DOUBLEBUFFER, int(GLX_DONT_CARE)}};
    for (const int* a = attribs; a && a[0] != None; a += 2) req[a[0]] = a[1];
    std::vector<const FBConfig*> found = choose(s, req);
    if (found.empty()) return nullptr;
    auto* out = static_cast<GLXFBConfig*>(std::malloc(sizeof(GLXFBConfig) * found.size()));
    for (size_t i = 0; i < found.size(); ++i) {
        out[i] = reinterpret_cast<GLXFBConfig>(const_cast<FBConfig*>(found[i]));
        map_config(dpy, out[i]);
    }
    if (nelements) *nelements = int(found.size());
    return out;
}

int glXGetFBConfigAttrib(::Display* dpy, GLXFBConfig config, int attribute, int* value) {
    const FBConfig* f = lookup_config(dpy, config);
    if (!f) return 9;  // GLXBadFBConfig, as Mesa answers
    int v = 0;
    if (!f->attrib(attribute, &v)) return GLX_BAD_ATTRIBUTE;
    if (value) *value = v;
    return Success;
}

XVisualInfo* glXGetVisualFromFBConfig(::Display* dpy, GLXFBConfig config) {
    const FBConfig* f = lookup_config(dpy, config);
    if (!f || !f->visual) return nullptr;
    ScreenRec* s = screen_of_config(dpy, f);
    return s ? visual_info(dpy, s->screen, f->visual) : nullptr;
}

XVisualInfo* glXChooseVisual(::Display* dpy, int screen, int* attribs) {
    ScreenRec* s = screen_of(dpy, screen);
    if (!s) return nullptr;
    // GLX 1.2 lists: booleans stand alone, the rest take a value.
    std::map<int, int> req = {{GLX_RENDER_TYPE, 0}};
    bool rgba = false, doublebuffer = false;
    for (int* a = attribs; a && a[0] != None; ++a) {
        switch (a[0]) {
            case GLX_RGBA: rgba = true; break;
            case GLX_DOUBLEBUFFER: doublebuffer = true; break;
            case GLX_STEREO: req[GLX_STEREO] = True; break;
            case GLX_USE_GL: break;
            default: req[a[0]] = a[1]; ++a; break;
        }
    }
    if (!rgba) {
        unsupported("a colour-index visual");
        return nullptr;
    }
    req[GLX_RENDER_TYPE] = GLX_RGBA_BIT;
    // Every config is double-buffered: a single-buffered request gets one
    // too, and what it draws reaches the window at glXSwapBuffers only.
    if (!doublebuffer) {
        static bool said = false;
        if (!std::exchange(said, true))
            client::log().warn("GLX: single-buffered visuals are not served; a double-buffered one is given "
                               "(the window shows what is drawn at glXSwapBuffers)");
    }
    std::vector<const FBConfig*> found = choose(s, req);
    for (const FBConfig* f : found)
        if (f->visual) return visual_info(dpy, screen, f->visual);
    return nullptr;
}

int glXGetConfig(::Display* dpy, XVisualInfo* vis, int attrib, int* value) {
    if (!vis) return GLX_BAD_VISUAL;
    ScreenRec* s = screen_of(dpy, vis->screen);
    const FBConfig* f = s ? config_of_visual(s, vis->visualid) : nullptr;
    if (!f) {
        if (attrib == GLX_USE_GL && value) *value = False;
        return attrib == GLX_USE_GL ? Success : GLX_BAD_VISUAL;
    }
    int v = 0;
    switch (attrib) {
        case GLX_USE_GL: v = True; break;
        case GLX_RGBA: v = True; break;
        default:
            if (!f->attrib(attrib, &v)) return GLX_BAD_ATTRIBUTE;
    }
    if (value) *value = v;
    return Success;
}

GLXContext glXCreateNewContext(::Display* dpy, GLXFBConfig config, int render_type, GLXContext share, Bool) {
    const FBConfig* f = lookup_config(dpy, config);
    if (!f) return nullptr;
    if (render_type != GLX_RGBA_TYPE) {
        unsupported("a colour-index context");
        return nullptr;
    }
    ScreenRec* s = screen_of_config(dpy, f);
    return s ? create_legacy(dpy, f, s, share, render_type) : nullptr;
}

GLXContext glXCreateContext(::Display* dpy, XVisualInfo* vis, GLXContext share, Bool) {
    if (!vis) return nullptr;
    ScreenRec* s = screen_of(dpy, vis->screen);
    const FBConfig* f = s ? config_of_visual(s, vis->visualid) : nullptr;
    if (!f) {
        client::log().error("GLX: glXCreateContext: visual 0x{:x} has no config", vis->visualid);
        return nullptr;
    }
    return create_legacy(dpy, f, s, share, GLX_RGBA_TYPE);
}

GLXContext glXCreateContextAttribsARB(::Display* dpy, GLXFBConfig config, GLXContext share, Bool,
                                      const int* attribs) {
    const FBConfig* f = lookup_config(dpy, config);
    if (!f) return nullptr;
    ScreenRec* s = screen_of_config(dpy, f);
    if (!s) return nullptr;
    int major = 1, minor = 0, flags = 0, profile = kProfileCore, render_type = GLX_RGBA_TYPE;
    bool profile_given = false;
    std::vector<EGLint> out;
    for (const int* a = attribs; a && a[0] != None; a += 2) {
        switch (a[0]) {
            case kCtxMajor: major = a[1]; break;
            case kCtxMinor: minor = a[1]; break;
            case kCtxFlags: flags = a[1]; break;
            case kCtxProfileMask: profile = a[1]; profile_given = true; break;
            case GLX_RENDER_TYPE: render_type = a[1]; break;
            case kCtxResetStrategy:
                out.insert(out.end(), {EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, a[1] == 0x8252 /* LOSE_CONTEXT */
                                                                                          ? EGL_LOSE_CONTEXT_ON_RESET
                                                                                          : EGL_NO_RESET_NOTIFICATION});
                break;
            case kCtxReleaseBehavior: case kCtxOpenGLNoError: break;
            default:
                client::log().warn("glXCreateContextAttribsARB: unknown attribute 0x{:x}", a[0]);
                return nullptr;  // GLX says BadValue
        }
    }
    if (render_type != GLX_RGBA_TYPE) {
        unsupported("a colour-index context");
        return nullptr;
    }
    EGLenum api = EGL_OPENGL_API;
    if (profile == kProfileES) {
        api = EGL_OPENGL_ES_API;
    } else {
        // Versions below 3.2 have no profiles: they are compatibility contexts (ARB_create_context_profile).
        if (!profile_given && (major < 3 || (major == 3 && minor < 2))) profile = kProfileCompat;
        if (major < 3 || (major == 3 && minor < 2)) profile = kProfileCompat;
        out.insert(out.end(), {EGL_CONTEXT_OPENGL_PROFILE_MASK, profile == kProfileCompat
                                                                    ? EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT
                                                                    : EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT});
        if (flags & kCtxForwardBit) out.insert(out.end(), {EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE, EGL_TRUE});
    }
    out.insert(out.end(), {EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor});
    if (flags & kCtxDebugBit) out.insert(out.end(), {EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE});
    if (flags & kCtxRobustBit) out.insert(out.end(), {EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_TRUE});
    out.push_back(EGL_NONE);
    return create_context(dpy, f, s, share, api, out, render_type);
}

void glXDestroyContext(::Display* dpy, GLXContext ctx) {
    ContextRec* c = lookup_context(ctx);
    if (!c) return;
    unmap_context(dpy, ctx);
    // EGL defers the destruction of a context that is still current.
    egl().DestroyContext(c->screen->egl, c->egl);
    c->destroyed = true;
    if (t_context == ctx) return;  // the record lives until it is released
    remove_context(ctx);
}

Bool glXMakeContextCurrent(::Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx) {
    const Egl& e = egl();
    GLXContext old = t_context;
    ContextRec* oldrec = old ? lookup_context(old) : nullptr;
    if (!ctx) {
        if (oldrec) e.MakeCurrent(oldrec->screen->egl, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (oldrec && oldrec->destroyed) remove_context(old);
        t_context = nullptr;
        t_draw = t_read = 0;
        t_display = nullptr;
        return True;
    }
    ContextRec* c = lookup_context(ctx);
    if (!c) return False;
    EGLSurface ds = EGL_NO_SURFACE, rs = EGL_NO_SURFACE;
    if (draw || read) {
        DrawableRec* d = drawable_for_current(dpy, draw, c->cfg);
        DrawableRec* r = read == draw ? d : drawable_for_current(dpy, read, c->cfg);
        if (!d || !r) {
            client::log().error("GLX: glXMakeCurrent: drawable 0x{:x} is neither a window nor one of ours", draw);
            return False;
        }
        ds = d->surface, rs = r->surface;
    }
    if (!e.MakeCurrent(c->screen->egl, ds, rs, c->egl)) {
        client::log().error("GLX: glXMakeCurrent failed (EGL error 0x{:x})", e.GetError());
        return False;
    }
    if (oldrec && old != ctx && oldrec->destroyed) remove_context(old);
    t_context = ctx;
    t_draw = draw, t_read = read;
    t_display = dpy;
    return True;
}

Bool glXMakeCurrent(::Display* dpy, GLXDrawable drawable, GLXContext ctx) {
    return api::glXMakeContextCurrent(dpy, drawable, drawable, ctx);
}

void glXSwapBuffers(::Display* dpy, GLXDrawable drawable) {
    DrawableRec* d = lookup_drawable(dpy, drawable);
    if (!d) {
        client::log().error("GLX: glXSwapBuffers: unknown drawable 0x{:x}", drawable);
        return;
    }
    if (!egl().SwapBuffers(d->screen->egl, d->surface))
        client::log().error("GLX: glXSwapBuffers: the drawable is not current on this thread");
}

GLXWindow glXCreateWindow(::Display* dpy, GLXFBConfig config, Window win, const int*) {
    const FBConfig* f = lookup_config(dpy, config);
    ScreenRec* s = f ? screen_of_config(dpy, f) : nullptr;
    if (!s) return None;
    EGLSurface surf = egl().CreateWindowSurface(s->egl, f->egl, EGLNativeWindowType(win), nullptr);
    if (surf == EGL_NO_SURFACE) return None;
    auto r = std::make_unique<DrawableRec>();
    r->xid = new_xid(dpy);  // a GLXWindow is a name of its own
    r->window = win;
    r->surface = surf;
    r->cfg = f;
    r->screen = s;
    return add_drawable(std::move(r));
}

void glXDestroyWindow(::Display* dpy, GLXWindow win) { destroy_drawable(dpy, win); }

GLXPbuffer glXCreatePbuffer(::Display* dpy, GLXFBConfig config, const int* attribs) {
    const FBConfig* f = lookup_config(dpy, config);
    ScreenRec* s = f ? screen_of_config(dpy, f) : nullptr;
    if (!s) return None;
    int w = 0, h = 0;
    bool largest = false;
    for (const int* a = attribs; a && a[0] != None; a += 2) {
        if (a[0] == GLX_PBUFFER_WIDTH) w = a[1];
        else if (a[0] == GLX_PBUFFER_HEIGHT) h = a[1];
        else if (a[0] == GLX_LARGEST_PBUFFER) largest = a[1] != 0;
    }
    const EGLint ea[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_LARGEST_PBUFFER, largest ? EGL_TRUE : EGL_FALSE, EGL_NONE};
    EGLSurface surf = egl().CreatePbufferSurface(s->egl, f->egl, ea);
    if (surf == EGL_NO_SURFACE) return None;
    auto r = std::make_unique<DrawableRec>();
    r->xid = new_xid(dpy);
    r->surface = surf;
    r->cfg = f;
    r->screen = s;
    return add_drawable(std::move(r));
}

void glXDestroyPbuffer(::Display* dpy, GLXPbuffer pbuf) { destroy_drawable(dpy, pbuf); }

GLXPixmap glXCreatePixmap(::Display*, GLXFBConfig, Pixmap, const int*) {
    unsupported("rendering to an X pixmap (glXCreatePixmap)");
    return None;
}
void glXDestroyPixmap(::Display* dpy, GLXPixmap p) { destroy_drawable(dpy, p); }
GLXPixmap glXCreateGLXPixmap(::Display*, XVisualInfo*, Pixmap) {
    unsupported("rendering to an X pixmap (glXCreateGLXPixmap)");
    return None;
}
void glXDestroyGLXPixmap(::Display* dpy, GLXPixmap p) { destroy_drawable(dpy, p); }

void glXQueryDrawable(::Display* dpy, GLXDrawable draw, int attribute, unsigned int* value) {
    DrawableRec* d = lookup_drawable(dpy, draw);
    if (!d || !value) return;
    EGLint v = 0;
    // A window's size is the X server's, as native GLX answers it (a
    // GetDrawableAttributes request): right after XResizeWindow the surface
    // still has its last frame's size (glretrace checks this after resizing).
    if (d->window && (attribute == GLX_WIDTH || attribute == GLX_HEIGHT)) {
        ::Window root = 0;
        int x = 0, y = 0;
        unsigned w = 0, h = 0, border = 0, depth = 0;
        if (XGetGeometry(dpy, d->window, &root, &x, &y, &w, &h, &border, &depth)) {
            *value = attribute == GLX_WIDTH ? w : h;
            return;
        }
    }
    switch (attribute) {
        case GLX_WIDTH: egl().QuerySurface(d->screen->egl, d->surface, EGL_WIDTH, &v); *value = unsigned(v); break;
        case GLX_HEIGHT: egl().QuerySurface(d->screen->egl, d->surface, EGL_HEIGHT, &v); *value = unsigned(v); break;
        case GLX_PRESERVED_CONTENTS: *value = True; break;
        case GLX_LARGEST_PBUFFER: *value = False; break;
        case GLX_FBCONFIG_ID: *value = unsigned(d->cfg->id); break;
        case kSwapIntervalEXT: *value = 1; break;
        case kMaxSwapIntervalEXT: *value = 1; break;
        default: break;
    }
}

int glXQueryContext(::Display*, GLXContext ctx, int attribute, int* value) {
    ContextRec* c = lookup_context(ctx);
    if (!c) return GLX_BAD_CONTEXT;
    switch (attribute) {
        case GLX_FBCONFIG_ID: *value = c->cfg->id; return Success;
        case GLX_RENDER_TYPE: *value = c->render_type; return Success;
        case GLX_SCREEN: *value = c->screen->screen; return Success;
        default: return GLX_BAD_ATTRIBUTE;
    }
}

void glXSelectEvent(::Display* dpy, GLXDrawable draw, unsigned long mask) {
    if (DrawableRec* d = lookup_drawable(dpy, draw)) d->event_mask = mask;
}
void glXGetSelectedEvent(::Display* dpy, GLXDrawable draw, unsigned long* mask) {
    DrawableRec* d = lookup_drawable(dpy, draw);
    if (mask) *mask = d ? d->event_mask : 0;
}

Bool glXIsDirect(::Display*, GLXContext ctx) { return lookup_context(ctx) ? True : False; }
void glXCopyContext(::Display*, GLXContext, GLXContext, unsigned long) { unsupported("glXCopyContext"); }
void glXUseXFont(Font, int, int, int) { unsupported("glXUseXFont"); }
void glXWaitGL() { egl().WaitClient(); }
void glXWaitX() {
    if (t_display) XSync(t_display, False);
}

const char* glXQueryExtensionsString(::Display*, int) { return kExtensions; }
const char* glXGetClientString(::Display*, int name) {
    switch (name) {
        case GLX_VENDOR: return "MobileGL";
        case GLX_VERSION: return "1.4";
        case GLX_EXTENSIONS: return kExtensions;
        default: return nullptr;
    }
}
const char* glXQueryServerString(::Display* dpy, int, int name) { return api::glXGetClientString(dpy, name); }

// Swap control: every interval is presented as 0 or 1 (the EGL vendor's
// present does not wait for a vertical blank; Xvfb has none).
void glXSwapIntervalEXT(::Display*, GLXDrawable, int interval) {
    if (t_context) egl().SwapInterval(lookup_context(t_context)->screen->egl, interval);
}
int glXSwapIntervalMESA(unsigned int interval) {
    if (!t_context) return GLX_BAD_CONTEXT;
    egl().SwapInterval(lookup_context(t_context)->screen->egl, EGLint(interval));
    return 0;
}
int glXSwapIntervalSGI(int interval) {
    if (interval <= 0) return GLX_BAD_VALUE;
    return api::glXSwapIntervalMESA(unsigned(interval));
}
int glXGetSwapIntervalMESA() { return t_context ? 1 : 0; }

}  // namespace api

namespace {
struct Proc {
    const char* name;
    void* fn;
};
#define MGL_PROC(n) {#n, reinterpret_cast<void*>(&api::n)}
const Proc kProcs[] = {
    MGL_PROC(glXChooseFBConfig), MGL_PROC(glXChooseVisual), MGL_PROC(glXCopyContext),
    MGL_PROC(glXCreateContext), MGL_PROC(glXCreateContextAttribsARB), MGL_PROC(glXCreateGLXPixmap),
    MGL_PROC(glXCreateNewContext), MGL_PROC(glXCreatePbuffer), MGL_PROC(glXCreatePixmap), MGL_PROC(glXCreateWindow),
    MGL_PROC(glXDestroyContext), MGL_PROC(glXDestroyGLXPixmap), MGL_PROC(glXDestroyPbuffer),
    MGL_PROC(glXDestroyPixmap), MGL_PROC(glXDestroyWindow), MGL_PROC(glXGetClientString), MGL_PROC(glXGetConfig),
    MGL_PROC(glXGetFBConfigAttrib), MGL_PROC(glXGetFBConfigs), MGL_PROC(glXGetSelectedEvent),
    MGL_PROC(glXGetSwapIntervalMESA), MGL_PROC(glXGetVisualFromFBConfig), MGL_PROC(glXIsDirect),
    MGL_PROC(glXMakeContextCurrent), MGL_PROC(glXMakeCurrent), MGL_PROC(glXQueryContext),
    MGL_PROC(glXQueryDrawable), MGL_PROC(glXQueryExtensionsString), MGL_PROC(glXQueryServerString),
    MGL_PROC(glXSelectEvent), MGL_PROC(glXSwapBuffers), MGL_PROC(glXSwapIntervalEXT), MGL_PROC(glXSwapIntervalMESA),
    MGL_PROC(glXSwapIntervalSGI), MGL_PROC(glXUseXFont), MGL_PROC(glXWaitGL), MGL_PROC(glXWaitX),
};
#undef MGL_PROC
}  // namespace

void* glx_proc(const char* name) {
    if (!name) return nullptr;
    for (const Proc& p : kProcs)
        if (std::strcmp(p.name, name) == 0) return p.fn;
    return nullptr;
}

}  // namespace mgl::glx
