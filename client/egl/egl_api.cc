// The EGL 1.5 entry points of the vendor library (what libglvnd's libEGL
// calls for displays this vendor owns), plus the extensions it exposes.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "connection.h"
#include "egl_internal.h"
#include "mgl/wire/thread_role.h"
#include "gen/client_entry.h"
#include "gen/replies.h"
#include "log.h"
#include "runtime.h"

namespace mgl::egl {

namespace {

thread_local EGLint t_error = EGL_SUCCESS;
thread_local ContextRec* t_context = nullptr;  // this vendor's current context on this thread
thread_local EGLenum t_api = EGL_OPENGL_ES_API;  // eglBindAPI's choice for this thread (EGL 1.5 §3.7)

std::mutex g_mu;  // guards the display list
std::vector<std::unique_ptr<Display>>& displays() {
    static std::vector<std::unique_ptr<Display>> d;
    return d;
}
std::atomic<uint32_t> g_next_surface{1};

// One software "device": what EGL_EXT_device_enumeration reports.
struct Device {
    int unused = 0;
} g_device;

const char kClientExtensions[] =
    "EGL_EXT_client_extensions EGL_EXT_platform_base EGL_EXT_device_base EGL_EXT_device_enumeration "
    "EGL_EXT_device_query EGL_EXT_platform_device EGL_KHR_platform_x11 EGL_EXT_platform_x11 "
    "EGL_MESA_platform_surfaceless EGL_KHR_client_get_all_proc_addresses";
const char kPlatformExtensions[] =
    "EGL_EXT_platform_device EGL_KHR_platform_x11 EGL_EXT_platform_x11 EGL_MESA_platform_surfaceless";
const char kDisplayExtensions[] =
    "EGL_KHR_get_all_proc_addresses EGL_KHR_create_context EGL_KHR_create_context_no_error "
    "EGL_KHR_no_config_context EGL_KHR_surfaceless_context EGL_KHR_fence_sync EGL_KHR_wait_sync "
    "EGL_EXT_create_context_robustness EGL_EXT_swap_buffers_with_damage "
    "EGL_KHR_swap_buffers_with_damage EGL_MESA_configless_context EGL_KHR_image_base "
    "EGL_KHR_gl_texture_2D_image EGL_KHR_gl_texture_cubemap_image EGL_KHR_gl_texture_3D_image "
    "EGL_KHR_gl_renderbuffer_image";

template <class T>
T fail(EGLint err, T ret) {
    set_error(err);
    return ret;
}

// Every entry point starts here (or in initialized_display): a call that
// succeeds leaves EGL_SUCCESS as the thread's error (EGL 1.5 §3.1).
Display* lookup_display(EGLDisplay d) {
    t_error = EGL_SUCCESS;
    std::lock_guard<std::mutex> g(g_mu);
    for (auto& p : displays())
        if (p.get() == d) return p.get();
    return nullptr;
}

// A display that exists and is initialized; sets the EGL error otherwise.
Display* initialized_display(EGLDisplay d) {
    Display* dpy = lookup_display(d);
    if (!dpy) return fail<Display*>(EGL_BAD_DISPLAY, nullptr);
    if (!dpy->initialized) return fail<Display*>(EGL_NOT_INITIALIZED, nullptr);
    return dpy;
}

const Config* lookup_config(Display* dpy, EGLConfig c) {
    for (const Config& k : dpy->configs)
        if (&k == c) return &k;
    return nullptr;
}

Surface* lookup_surface(Display* dpy, EGLSurface s) {
    std::lock_guard<std::mutex> g(dpy->mu);
    auto it = dpy->surfaces.find(static_cast<Surface*>(s));
    return it == dpy->surfaces.end() || (*it)->destroy_pending ? nullptr : *it;
}

ContextRec* lookup_context(Display* dpy, EGLContext c) {
    std::lock_guard<std::mutex> g(dpy->mu);
    auto it = dpy->contexts.find(static_cast<ContextRec*>(c));
    return it == dpy->contexts.end() || (*it)->destroy_pending ? nullptr : *it;
}

SyncRec* lookup_sync(Display* dpy, EGLSync s) {
    std::lock_guard<std::mutex> g(dpy->mu);
    auto it = dpy->syncs.find(static_cast<SyncRec*>(s));
    return it == dpy->syncs.end() ? nullptr : *it;
}

void build_configs(Display& d) {
    d.configs.clear();
    EGLint visual = 0;
    if (d.platform == EGL_PLATFORM_X11_KHR && d.native) visual = x11_default_visual(d.native, d.screen);
    struct Shape {
        EGLint r, g, b, a, depth, stencil, samples;
    } const shapes[] = {
        {8, 8, 8, 8, 24, 8, 0}, {8, 8, 8, 8, 24, 0, 0}, {8, 8, 8, 8, 0, 0, 0}, {8, 8, 8, 0, 24, 8, 0},
        {8, 8, 8, 0, 0, 0, 0},  {5, 6, 5, 0, 24, 8, 0}, {5, 6, 5, 0, 0, 0, 0}, {8, 8, 8, 8, 24, 8, 4},
    };
    EGLint id = 1;
    for (const Shape& s : shapes) {
        Config c;
        c.id = id++;
        c.red = s.r, c.green = s.g, c.blue = s.b, c.alpha = s.a;
        c.depth = s.depth, c.stencil = s.stencil, c.samples = s.samples;
        c.native_visual_id = visual;
        c.native_visual_type = visual ? 4 /* TrueColor */ : EGL_NONE;
        c.surface_type = EGL_PBUFFER_BIT | EGL_WINDOW_BIT | EGL_SWAP_BEHAVIOR_PRESERVED_BIT;
        d.configs.push_back(c);
    }
}

Display* get_display(EGLenum platform, void* native, const EGLAttrib* attribs) {
    int screen = 0;
    if (platform == EGL_PLATFORM_X11_KHR)
        for (const EGLAttrib* a = attribs; a && a[0] != EGL_NONE; a += 2)
            if (a[0] == EGL_PLATFORM_X11_SCREEN_KHR) screen = int(a[1]);
    std::lock_guard<std::mutex> g(g_mu);
    for (auto& d : displays())
        if (d->platform == platform && (d->native == native || (d->own_native && !native)) && d->screen == screen)
            return d.get();
    auto d = std::make_unique<Display>();
    d->platform = platform;
    d->native = native;
    d->screen = screen;
    if (platform == EGL_PLATFORM_X11_KHR && !native) {
        d->native = x11_open_default(&d->screen);
        if (!d->native) return nullptr;
        d->own_native = true;
    }
    build_configs(*d);
    displays().push_back(std::move(d));
    return displays().back().get();
}

// Creates the surface in `group`'s session the first time a context of that
// group binds it.
void ensure_surface(client::ShareGroup& group, client::Context& ctx, Surface* s) {
    if (!s) return;
    {
        std::lock_guard<std::mutex> g(group.mu);
        if (!group.server_surfaces.insert(s->id).second) return;
    }
    const Config& c = *s->cfg;
    ctx.enc->mglCreateSurface(s->id, s->kind == EGL_WINDOW_BIT ? 0x3034u : 0x3033u, s->width, s->height, c.red, c.green,
                              c.blue, c.alpha, c.depth, c.stencil, c.samples);
    s->sessions.push_back(ctx.group);
}

void destroy_surface_now(Display* dpy, Surface* s) {
    for (auto& w : s->sessions) {
        if (auto g = w.lock()) {
            // Frames still on their way present into the window before it goes.
            g->deferred().take_until(0, g->enc());
            g->enc().mglDestroySurface(s->id);
            g->enc().flush();
            std::lock_guard<std::mutex> l(g->mu);
            g->server_surfaces.erase(s->id);
        }
    }
    {
        std::lock_guard<std::mutex> g(dpy->mu);
        dpy->surfaces.erase(s);
    }
    delete s;
}

void destroy_context_now(Display* dpy, ContextRec* c) {
    {
        std::lock_guard<std::mutex> g(dpy->mu);
        dpy->contexts.erase(c);
    }
    client::destroy_context(std::move(c->ctx));
    delete c;
}

void unbind_surface(Surface* s) {
    if (!s) return;
    if (--s->bound == 0 && s->destroy_pending) destroy_surface_now(s->dpy, s);
}

EGLint to_egl_wait_result(GLenum r) {
    switch (r) {
        case GL_ALREADY_SIGNALED:
        case GL_CONDITION_SATISFIED: return EGL_CONDITION_SATISFIED;
        case GL_TIMEOUT_EXPIRED: return EGL_TIMEOUT_EXPIRED;
        default: return EGL_FALSE;
    }
}

// Encodes on the sync's session (the current context's when it is the same group).
gen::Encoder* sync_encoder(SyncRec* s, std::shared_ptr<client::ShareGroup>* keep) {
    *keep = s->group.lock();
    return *keep ? &(*keep)->enc() : nullptr;
}

}  // namespace

Display* checked_display(EGLDisplay d) { return initialized_display(d); }
ContextRec* checked_context(Display* dpy, EGLContext c) {
    ContextRec* rec = lookup_context(dpy, c);
    return rec ? rec : fail<ContextRec*>(EGL_BAD_CONTEXT, nullptr);
}
bool group_busy_elsewhere(Display* dpy, const client::ShareGroup* group) {
    std::lock_guard<std::mutex> g(dpy->mu);
    for (ContextRec* c : dpy->contexts)
        if (c->ctx && c->ctx->group.get() == group && c->current && c->thread != std::this_thread::get_id()) return true;
    return false;
}

void set_error(EGLint e) { t_error = e; }
EGLint take_error() {
    const EGLint e = t_error;
    t_error = EGL_SUCCESS;
    return e;
}
const char* client_extensions() { return kClientExtensions; }
const char* platform_extensions() { return kPlatformExtensions; }

bool Config::attrib(EGLint name, EGLint* v) const {
    switch (name) {
        case EGL_BUFFER_SIZE: *v = buffer_size(); return true;
        case EGL_RED_SIZE: *v = red; return true;
        case EGL_GREEN_SIZE: *v = green; return true;
        case EGL_BLUE_SIZE: *v = blue; return true;
        case EGL_ALPHA_SIZE: *v = alpha; return true;
        case EGL_DEPTH_SIZE: *v = depth; return true;
        case EGL_STENCIL_SIZE: *v = stencil; return true;
        case EGL_SAMPLES: *v = samples; return true;
        case EGL_SAMPLE_BUFFERS: *v = samples ? 1 : 0; return true;
        case EGL_CONFIG_ID: *v = id; return true;
        case EGL_CONFIG_CAVEAT: *v = EGL_NONE; return true;
        case EGL_COLOR_BUFFER_TYPE: *v = EGL_RGB_BUFFER; return true;
        case EGL_SURFACE_TYPE: *v = surface_type; return true;
        case EGL_RENDERABLE_TYPE: *v = renderable; return true;
        case EGL_CONFORMANT: *v = renderable; return true;
        case EGL_NATIVE_VISUAL_ID: *v = native_visual_id; return true;
        case EGL_NATIVE_VISUAL_TYPE: *v = native_visual_type; return true;
        case EGL_NATIVE_RENDERABLE: *v = EGL_FALSE; return true;
        case EGL_LEVEL: *v = 0; return true;
        case EGL_ALPHA_MASK_SIZE: *v = 0; return true;
        case EGL_LUMINANCE_SIZE: *v = 0; return true;
        case EGL_BIND_TO_TEXTURE_RGB: *v = EGL_FALSE; return true;
        case EGL_BIND_TO_TEXTURE_RGBA: *v = EGL_FALSE; return true;
        case EGL_MAX_PBUFFER_WIDTH: *v = 16384; return true;
        case EGL_MAX_PBUFFER_HEIGHT: *v = 16384; return true;
        case EGL_MAX_PBUFFER_PIXELS: *v = 16384 * 16384; return true;
        case EGL_MAX_SWAP_INTERVAL: *v = 1; return true;
        case EGL_MIN_SWAP_INTERVAL: *v = 0; return true;
        case EGL_TRANSPARENT_TYPE: *v = EGL_NONE; return true;
        case EGL_TRANSPARENT_RED_VALUE:
        case EGL_TRANSPARENT_GREEN_VALUE:
        case EGL_TRANSPARENT_BLUE_VALUE: *v = 0; return true;
        default: return false;
    }
}

// ---------------------------------------------------------------------------
// Displays
// ---------------------------------------------------------------------------

EGLDisplay get_platform_display(EGLenum platform, void* native, const EGLAttrib* attribs) {
    switch (platform) {
        case EGL_NONE:
            // eglGetDisplay(EGL_DEFAULT_DISPLAY): X11 when there is an X server to talk to.
            if (const char* d = std::getenv("DISPLAY"); d && *d) {
                if (Display* x = get_display(EGL_PLATFORM_X11_KHR, nullptr, nullptr)) return x;
            }
            return get_display(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
        case EGL_PLATFORM_SURFACELESS_MESA:
            if (native) return fail<EGLDisplay>(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
            return get_display(platform, nullptr, attribs);
        case EGL_PLATFORM_DEVICE_EXT:
            if (native && native != &g_device) return fail<EGLDisplay>(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
            return get_display(platform, nullptr, attribs);
        case EGL_PLATFORM_X11_KHR: {
            Display* d = get_display(platform, native, attribs);
            return d ? d : fail<EGLDisplay>(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
        }
        default:
            return fail<EGLDisplay>(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
    }
}

namespace api {

EGLBoolean eglInitialize(EGLDisplay d, EGLint* major, EGLint* minor) {
    Display* dpy = lookup_display(d);
    if (!dpy) return fail(EGL_BAD_DISPLAY, EGL_FALSE);
    if (!dpy->initialized) {
        mgl::client::prepare_connection_from_env();
        // What the piglit runner looks for when a test makes no context (tests/piglit/run_piglit.sh).
        client::log().debug("eglInitialize: MobileGL's EGL display, platform 0x{:x}", dpy->platform);
    }
    dpy->initialized = true;
    if (major) *major = 1;
    if (minor) *minor = 5;
    return EGL_TRUE;
}

EGLBoolean eglTerminate(EGLDisplay d) {
    Display* dpy = lookup_display(d);
    if (!dpy) return fail(EGL_BAD_DISPLAY, EGL_FALSE);
    dpy->initialized = false;
    // Objects current on some thread live until they are released.
    std::vector<Surface*> surfaces;
    std::vector<ContextRec*> contexts;
    {
        std::lock_guard<std::mutex> g(dpy->mu);
        for (Surface* s : dpy->surfaces) s->destroy_pending = true, surfaces.push_back(s);
        for (ContextRec* c : dpy->contexts) c->destroy_pending = true, contexts.push_back(c);
    }
    for (ContextRec* c : contexts)
        if (!c->current) destroy_context_now(dpy, c);
    for (Surface* s : surfaces)
        if (s->bound == 0) destroy_surface_now(dpy, s);
    std::vector<SyncRec*> syncs;
    {
        std::lock_guard<std::mutex> g(dpy->mu);
        syncs.assign(dpy->syncs.begin(), dpy->syncs.end());
        dpy->syncs.clear();
    }
    for (SyncRec* s : syncs) delete s;
    destroy_all_images(dpy);
    return EGL_TRUE;
}

const char* eglQueryString(EGLDisplay d, EGLint name) {
    if (d == EGL_NO_DISPLAY) {
        if (name == EGL_EXTENSIONS) return kClientExtensions;
        if (name == EGL_VERSION) return "1.5 MobileGL " MOBILEGL_VERSION;
        return fail<const char*>(EGL_BAD_DISPLAY, nullptr);
    }
    Display* dpy = initialized_display(d);
    if (!dpy) return nullptr;
    switch (name) {
        case EGL_VENDOR: return "MobileGL";
        case EGL_VERSION: return "1.5 MobileGL " MOBILEGL_VERSION;
        case EGL_CLIENT_APIS: return "OpenGL OpenGL_ES";
        case EGL_EXTENSIONS: return kDisplayExtensions;
        default: return fail<const char*>(EGL_BAD_PARAMETER, nullptr);
    }
}

// ---------------------------------------------------------------------------
// Configs
// ---------------------------------------------------------------------------

EGLBoolean eglGetConfigs(EGLDisplay d, EGLConfig* configs, EGLint size, EGLint* num) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    if (!num) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    if (!configs) {
        *num = EGLint(dpy->configs.size());
        return EGL_TRUE;
    }
    EGLint n = 0;
    for (size_t k = 0; k < dpy->configs.size() && n < size; ++k) configs[n++] = &dpy->configs[k];
    *num = n;
    return EGL_TRUE;
}

EGLBoolean eglChooseConfig(EGLDisplay d, const EGLint* attribs, EGLConfig* configs, EGLint size, EGLint* num) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    if (!num) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    // Requested values; EGL_DONT_CARE entries do not constrain.
    std::map<EGLint, EGLint> req = {{EGL_SURFACE_TYPE, EGL_WINDOW_BIT}};
    for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
        EGLint probe;
        if (!dpy->configs.front().attrib(a[0], &probe) && a[0] != EGL_MATCH_NATIVE_PIXMAP) {
            if (client::first_time("egl-attrib:" + std::to_string(a[0])))
                client::log().info("eglChooseConfig: attribute 0x{:04x} ignored", a[0]);
            continue;
        }
        req[a[0]] = a[1];
    }
    auto want = [&](EGLint k, EGLint* v) {
        auto it = req.find(k);
        if (it == req.end() || it->second == EGL_DONT_CARE) return false;
        *v = it->second;
        return true;
    };
    std::vector<const Config*> out;
    EGLint id;
    if (want(EGL_CONFIG_ID, &id)) {
        for (const Config& c : dpy->configs)
            if (c.id == id) out.push_back(&c);
    } else {
        for (const Config& c : dpy->configs) {
            bool ok = true;
            for (auto& [k, v] : req) {
                if (v == EGL_DONT_CARE) continue;
                EGLint have = 0;
                if (!c.attrib(k, &have)) continue;
                switch (k) {
                    case EGL_BUFFER_SIZE: case EGL_RED_SIZE: case EGL_GREEN_SIZE: case EGL_BLUE_SIZE:
                    case EGL_ALPHA_SIZE: case EGL_DEPTH_SIZE: case EGL_STENCIL_SIZE: case EGL_SAMPLES:
                    case EGL_SAMPLE_BUFFERS: case EGL_ALPHA_MASK_SIZE: case EGL_LUMINANCE_SIZE:
                        ok = have >= v;
                        break;
                    case EGL_SURFACE_TYPE: case EGL_RENDERABLE_TYPE: case EGL_CONFORMANT:
                        ok = (have & v) == v;
                        break;
                    case EGL_MAX_PBUFFER_WIDTH: case EGL_MAX_PBUFFER_HEIGHT: case EGL_MAX_PBUFFER_PIXELS:
                    case EGL_NATIVE_VISUAL_ID:
                        break;  // ignored by eglChooseConfig
                    default:
                        ok = have == v;
                        break;
                }
                if (!ok) break;
            }
            if (ok) out.push_back(&c);
        }
    }
    // EGL 1.5 §3.4.1.2 sort order (caveat and buffer type are equal here).
    auto color_bits = [&](const Config* c) {
        EGLint v = 0, sum = 0;
        if (want(EGL_RED_SIZE, &v) && v) sum += c->red;
        if (want(EGL_GREEN_SIZE, &v) && v) sum += c->green;
        if (want(EGL_BLUE_SIZE, &v) && v) sum += c->blue;
        if (want(EGL_ALPHA_SIZE, &v) && v) sum += c->alpha;
        return sum;
    };
    std::stable_sort(out.begin(), out.end(), [&](const Config* a, const Config* b) {
        if (color_bits(a) != color_bits(b)) return color_bits(a) > color_bits(b);
        if (a->buffer_size() != b->buffer_size()) return a->buffer_size() < b->buffer_size();
        if (a->samples != b->samples) return a->samples < b->samples;
        if (a->depth != b->depth) return a->depth < b->depth;
        if (a->stencil != b->stencil) return a->stencil < b->stencil;
        return a->id < b->id;
    });
    if (!configs) {
        *num = EGLint(out.size());
        return EGL_TRUE;
    }
    EGLint n = 0;
    for (const Config* c : out) {
        if (n >= size) break;
        configs[n++] = const_cast<Config*>(c);
    }
    *num = n;
    return EGL_TRUE;
}

EGLBoolean eglGetConfigAttrib(EGLDisplay d, EGLConfig config, EGLint attribute, EGLint* value) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    const Config* c = lookup_config(dpy, config);
    if (!c) return fail(EGL_BAD_CONFIG, EGL_FALSE);
    EGLint v = 0;
    if (!c->attrib(attribute, &v)) return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
    if (value) *value = v;
    return EGL_TRUE;
}

// ---------------------------------------------------------------------------
// Surfaces
// ---------------------------------------------------------------------------

EGLSurface eglCreatePbufferSurface(EGLDisplay d, EGLConfig config, const EGLint* attribs) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_NO_SURFACE;
    const Config* c = lookup_config(dpy, config);
    if (!c) return fail(EGL_BAD_CONFIG, EGL_NO_SURFACE);
    auto s = std::make_unique<Surface>();
    s->dpy = dpy;
    s->cfg = c;
    s->kind = EGL_PBUFFER_BIT;
    for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
        switch (a[0]) {
            case EGL_WIDTH: s->width = a[1]; break;
            case EGL_HEIGHT: s->height = a[1]; break;
            case EGL_LARGEST_PBUFFER: s->largest_pbuffer = a[1] != EGL_FALSE; break;
            case EGL_TEXTURE_FORMAT: s->texture_format = a[1]; break;
            case EGL_TEXTURE_TARGET: s->texture_target = a[1]; break;
            case EGL_MIPMAP_TEXTURE: case EGL_GL_COLORSPACE: case EGL_VG_ALPHA_FORMAT: case EGL_VG_COLORSPACE: break;
            default: return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SURFACE);
        }
    }
    if (s->width < 0 || s->height < 0) return fail(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
    if (s->texture_format != EGL_NO_TEXTURE) return fail(EGL_BAD_MATCH, EGL_NO_SURFACE);  // no eglBindTexImage
    s->id = g_next_surface.fetch_add(1);
    Surface* r = s.release();
    std::lock_guard<std::mutex> g(dpy->mu);
    dpy->surfaces.insert(r);
    return r;
}

EGLSurface create_window_surface(Display* dpy, EGLConfig config, unsigned long window, const EGLint* attribs) {
    const Config* c = lookup_config(dpy, config);
    if (!c) return fail(EGL_BAD_CONFIG, EGL_NO_SURFACE);
    if (dpy->platform != EGL_PLATFORM_X11_KHR || !dpy->native) return fail(EGL_BAD_NATIVE_WINDOW, EGL_NO_SURFACE);
    for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
        switch (a[0]) {
            case EGL_RENDER_BUFFER:
            case EGL_GL_COLORSPACE:
            case EGL_VG_ALPHA_FORMAT:
            case EGL_VG_COLORSPACE:
            case EGL_POST_SUB_BUFFER_SUPPORTED_NV: break;
            default: return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SURFACE);
        }
    }
    auto s = std::make_unique<Surface>();
    s->dpy = dpy;
    s->cfg = c;
    s->kind = EGL_WINDOW_BIT;
    if (!x11_window_size(dpy->native, window, &s->width, &s->height)) return fail(EGL_BAD_NATIVE_WINDOW, EGL_NO_SURFACE);
    s->window = x11_make_window(dpy->native, dpy->screen, window);
    if (!s->window) return fail(EGL_BAD_NATIVE_WINDOW, EGL_NO_SURFACE);
    s->id = g_next_surface.fetch_add(1);
    Surface* r = s.release();
    std::lock_guard<std::mutex> g(dpy->mu);
    dpy->surfaces.insert(r);
    return r;
}

EGLSurface eglCreateWindowSurface(EGLDisplay d, EGLConfig config, EGLNativeWindowType win, const EGLint* attribs) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_NO_SURFACE;
    return create_window_surface(dpy, config, (unsigned long)win, attribs);
}

EGLSurface eglCreatePlatformWindowSurface(EGLDisplay d, EGLConfig config, void* native_window, const EGLAttrib* attribs) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_NO_SURFACE;
    if (!native_window) return fail(EGL_BAD_NATIVE_WINDOW, EGL_NO_SURFACE);
    std::vector<EGLint> a;
    for (const EGLAttrib* p = attribs; p && p[0] != EGL_NONE; p += 2) a.push_back(EGLint(p[0])), a.push_back(EGLint(p[1]));
    a.push_back(EGL_NONE);
    // EGL_KHR_platform_x11: native_window points to the Window.
    return create_window_surface(dpy, config, *static_cast<unsigned long*>(native_window), a.data());
}

EGLSurface eglCreatePlatformWindowSurfaceEXT(EGLDisplay d, EGLConfig config, void* native_window, const EGLint* attribs) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_NO_SURFACE;
    if (!native_window) return fail(EGL_BAD_NATIVE_WINDOW, EGL_NO_SURFACE);
    return create_window_surface(dpy, config, *static_cast<unsigned long*>(native_window), attribs);
}

// No config has EGL_PIXMAP_BIT (EGL_BAD_MATCH); a display without native
// pixmaps at all (surfaceless, device) says so first (EGL_MESA_platform_surfaceless).
EGLSurface no_pixmap_surface(EGLDisplay d) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_NO_SURFACE;
    return fail(dpy->platform == EGL_PLATFORM_X11_KHR ? EGL_BAD_MATCH : EGL_BAD_NATIVE_PIXMAP, EGL_NO_SURFACE);
}
EGLSurface eglCreatePixmapSurface(EGLDisplay d, EGLConfig, EGLNativePixmapType, const EGLint*) {
    return no_pixmap_surface(d);
}
EGLSurface eglCreatePlatformPixmapSurface(EGLDisplay d, EGLConfig, void*, const EGLAttrib*) {
    return no_pixmap_surface(d);
}
EGLSurface eglCreatePlatformPixmapSurfaceEXT(EGLDisplay d, EGLConfig, void*, const EGLint*) {
    return no_pixmap_surface(d);
}
EGLSurface eglCreatePbufferFromClientBuffer(EGLDisplay d, EGLenum, EGLClientBuffer, EGLConfig, const EGLint*) {
    if (!initialized_display(d)) return EGL_NO_SURFACE;
    return fail(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
}

EGLBoolean eglDestroySurface(EGLDisplay d, EGLSurface surface) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    Surface* s = lookup_surface(dpy, surface);
    if (!s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    s->destroy_pending = true;
    if (s->bound == 0) destroy_surface_now(dpy, s);
    return EGL_TRUE;
}

EGLBoolean eglQuerySurface(EGLDisplay d, EGLSurface surface, EGLint attribute, EGLint* value) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    Surface* s = lookup_surface(dpy, surface);
    if (!s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    EGLint v = 0;
    switch (attribute) {
        case EGL_WIDTH: v = s->width; break;
        case EGL_HEIGHT: v = s->height; break;
        case EGL_CONFIG_ID: v = s->cfg->id; break;
        case EGL_LARGEST_PBUFFER: v = s->largest_pbuffer; break;
        case EGL_RENDER_BUFFER: v = EGL_BACK_BUFFER; break;
        case EGL_SWAP_BEHAVIOR: v = EGL_BUFFER_DESTROYED; break;
        case EGL_MULTISAMPLE_RESOLVE: v = EGL_MULTISAMPLE_RESOLVE_DEFAULT; break;
        case EGL_TEXTURE_FORMAT: v = s->texture_format; break;
        case EGL_TEXTURE_TARGET: v = s->texture_target; break;
        case EGL_MIPMAP_TEXTURE: v = EGL_FALSE; break;
        case EGL_MIPMAP_LEVEL: v = 0; break;
        case EGL_HORIZONTAL_RESOLUTION: case EGL_VERTICAL_RESOLUTION: case EGL_PIXEL_ASPECT_RATIO:
            v = EGL_UNKNOWN;
            break;
        case EGL_GL_COLORSPACE: v = EGL_GL_COLORSPACE_LINEAR; break;
        case EGL_VG_ALPHA_FORMAT: v = EGL_VG_ALPHA_FORMAT_NONPRE; break;
        case EGL_VG_COLORSPACE: v = EGL_VG_COLORSPACE_sRGB; break;
        case EGL_POST_SUB_BUFFER_SUPPORTED_NV: v = EGL_FALSE; break;
        default: return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
    }
    if (value) *value = v;
    return EGL_TRUE;
}

EGLBoolean eglSurfaceAttrib(EGLDisplay d, EGLSurface surface, EGLint attribute, EGLint value) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    Surface* s = lookup_surface(dpy, surface);
    if (!s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    switch (attribute) {
        case EGL_SWAP_BEHAVIOR:
            if (value == EGL_BUFFER_DESTROYED) return EGL_TRUE;
            return fail(EGL_BAD_MATCH, EGL_FALSE);
        case EGL_MULTISAMPLE_RESOLVE:
            if (value == EGL_MULTISAMPLE_RESOLVE_DEFAULT) return EGL_TRUE;
            return fail(EGL_BAD_MATCH, EGL_FALSE);
        case EGL_MIPMAP_LEVEL:
            return EGL_TRUE;
        default:
            return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
    }
}

EGLBoolean eglBindTexImage(EGLDisplay d, EGLSurface surface, EGLint) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    if (!lookup_surface(dpy, surface)) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    return fail(EGL_BAD_MATCH, EGL_FALSE);
}
EGLBoolean eglReleaseTexImage(EGLDisplay d, EGLSurface surface, EGLint b) { return eglBindTexImage(d, surface, b); }
EGLBoolean eglCopyBuffers(EGLDisplay d, EGLSurface surface, EGLNativePixmapType) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    if (!lookup_surface(dpy, surface)) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
}

// ---------------------------------------------------------------------------
// Contexts
// ---------------------------------------------------------------------------

EGLContext eglCreateContext(EGLDisplay d, EGLConfig config, EGLContext share, const EGLint* attribs) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_NO_CONTEXT;
    const Config* c = nullptr;
    if (config != EGL_NO_CONFIG_KHR) {
        c = lookup_config(dpy, config);
        if (!c) return fail(EGL_BAD_CONFIG, EGL_NO_CONTEXT);
    }
    ContextRec* sh = nullptr;
    if (share != EGL_NO_CONTEXT) {
        sh = lookup_context(dpy, share);
        if (!sh) return fail(EGL_BAD_CONTEXT, EGL_NO_CONTEXT);
    }
    const EGLenum api = t_api;
    const bool desktop = api == EGL_OPENGL_API;
    EGLint major = 1, minor = 0;
    EGLint profile_mask = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;  // EGL_KHR_create_context's default
    uint32_t flags = 0;
    for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
        switch (a[0]) {
            case EGL_CONTEXT_MAJOR_VERSION: major = a[1]; break;  // == EGL_CONTEXT_CLIENT_VERSION
            case EGL_CONTEXT_MINOR_VERSION: minor = a[1]; break;
            case EGL_CONTEXT_FLAGS_KHR:
                if (a[1] & ~(EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR | EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR |
                             EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR))
                    return fail(EGL_BAD_ATTRIBUTE, EGL_NO_CONTEXT);
                if (a[1] & EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR) flags |= client::kFlagDebug;
                if (a[1] & EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR) flags |= client::kFlagRobust;
                if (a[1] & EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR) flags |= client::kFlagForwardCompatible;
                break;
            case EGL_CONTEXT_OPENGL_DEBUG: if (a[1]) flags |= client::kFlagDebug; break;
            case EGL_CONTEXT_OPENGL_ROBUST_ACCESS:
            case EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT: if (a[1]) flags |= client::kFlagRobust; break;
            case EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE:
                if (a[1]) flags |= client::kFlagForwardCompatible;
                break;
            case EGL_CONTEXT_OPENGL_PROFILE_MASK: profile_mask = a[1]; break;
            case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY:
            case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT:
            case EGL_CONTEXT_OPENGL_NO_ERROR_KHR:
            case 0x3100 /* EGL_CONTEXT_PRIORITY_LEVEL_IMG */:
                break;
            default:
                return fail(EGL_BAD_ATTRIBUTE, EGL_NO_CONTEXT);
        }
    }
    uint32_t profile = 0;
    if (desktop) {
        // GL versions that exist: 1.0-1.5, 2.0-2.1, 3.0-3.3, 4.0-4.6.
        static const int kLastMinor[] = {0, 5, 1, 3, 6};
        if (major < 1 || major > 4 || minor < 0 || minor > kLastMinor[major]) {
            client::log().warn("eglCreateContext: OpenGL {}.{} does not exist", major, minor);
            return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
        }
        // Below 3.2 there are no profiles: such a context (and one that asks
        // for no version at all) is a compatibility context, as Mesa gives.
        if (major * 10 + minor < 32) {
            profile = client::kCompatProfile;
        } else if (profile_mask & EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT) {
            profile = client::kCoreProfile;
        } else if (profile_mask & EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT) {
            profile = client::kCompatProfile;
        } else {
            return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
        }
        if (c && !(c->renderable & EGL_OPENGL_BIT)) return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
    } else {
        const bool ok_version = (major == 1 && (minor == 0 || minor == 1)) || (major == 2 && minor == 0) ||
                                (major == 3 && minor >= 0 && minor <= 2);
        if (!ok_version) {
            client::log().warn("eglCreateContext: OpenGL ES {}.{} is not supported (1.0-1.1, 2.0 and 3.0-3.2 are)",
                               major, minor);
            return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
        }
        const EGLint bit = major == 1 ? EGL_OPENGL_ES_BIT : major == 2 ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_ES3_BIT;
        if (c && !(c->renderable & bit)) return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
    }
    // OpenGL ES 1.x is served as a compatibility context (its fixed function
    // is the compatibility lowering's) and presented as ES-CM 1.1
    // (client/src/es1/es1_context.cc); its share groups hold ES 1.x contexts only.
    const bool es1 = !desktop && major == 1;
    if (sh && (sh->api != api || (sh->major == 1) != es1)) {
        client::log().warn("eglCreateContext: a share context of another API (or of OpenGL ES 1.x with ES 2+)");
        return fail(EGL_BAD_CONTEXT, EGL_NO_CONTEXT);
    }
    std::string error;
    std::unique_ptr<client::Context> ctx =
        es1 ? client::create_context(sh ? sh->ctx.get() : nullptr, client::kApiGL, 1, 5, client::kCompatProfile, flags,
                                     &error)
            : client::create_context(sh ? sh->ctx.get() : nullptr, desktop ? client::kApiGL : client::kApiES, major,
                                     minor, profile, flags, &error);
    if (!ctx) {
        client::log().error("eglCreateContext: {}", error);
        return fail(EGL_BAD_ALLOC, EGL_NO_CONTEXT);
    }
    if (es1) {
        ctx->es1 = true;
        minor = 1;  // 1.0 is served as 1.1, as Mesa does
    }
    if (desktop || es1) {
        // The server says what it serves (one round trip): a version above it,
        // or a backend without desktop GL, is EGL_BAD_MATCH now rather than a
        // context that cannot work later.
        const int served = client::served_version(*ctx);
        if (served == 0 || major * 10 + minor > served) {
            if (served == 0)
                client::log().warn("eglCreateContext: the server's backend does not serve desktop OpenGL "
                                   "(its log says why)");
            else
                client::log().warn("eglCreateContext: OpenGL {}.{} asked, the server serves {}.{} at most", major,
                                   minor, served / 10, served % 10);
            client::destroy_context(std::move(ctx));
            return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
        }
    }
    auto rec = new ContextRec;
    rec->dpy = dpy;
    rec->cfg = c;
    rec->api = api;
    rec->major = major;
    rec->minor = minor;
    rec->ctx = std::move(ctx);
    rec->ctx->egl = rec;
    std::lock_guard<std::mutex> g(dpy->mu);
    dpy->contexts.insert(rec);
    return rec;
}

EGLBoolean eglDestroyContext(EGLDisplay d, EGLContext context) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    ContextRec* c = lookup_context(dpy, context);
    if (!c) return fail(EGL_BAD_CONTEXT, EGL_FALSE);
    c->destroy_pending = true;
    if (!c->current) destroy_context_now(dpy, c);
    return EGL_TRUE;
}

EGLBoolean eglQueryContext(EGLDisplay d, EGLContext context, EGLint attribute, EGLint* value) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    ContextRec* c = lookup_context(dpy, context);
    if (!c) return fail(EGL_BAD_CONTEXT, EGL_FALSE);
    EGLint v = 0;
    switch (attribute) {
        case EGL_CONFIG_ID: v = c->cfg ? c->cfg->id : 0; break;
        case EGL_CONTEXT_CLIENT_TYPE: v = EGLint(c->api); break;
        case EGL_CONTEXT_CLIENT_VERSION: v = c->major; break;
        case EGL_CONTEXT_MINOR_VERSION: v = c->minor; break;
        case EGL_RENDER_BUFFER: v = c->draw ? EGL_BACK_BUFFER : EGL_NONE; break;
        default: return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
    }
    if (value) *value = v;
    return EGL_TRUE;
}

EGLBoolean eglMakeCurrent(EGLDisplay d, EGLSurface draw, EGLSurface read, EGLContext context) {
    Display* dpy = lookup_display(d);
    if (!dpy) return fail(EGL_BAD_DISPLAY, EGL_FALSE);
    ContextRec* old = t_context;
    if (context == EGL_NO_CONTEXT) {
        if (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE) return fail(EGL_BAD_MATCH, EGL_FALSE);
        if (!old) return EGL_TRUE;
        client::make_current(nullptr, 0, 0, -1, -1);
        t_context = nullptr;
        old->current = false;
        old->thread = {};
        Surface *od = old->draw, *orr = old->read;
        old->draw = old->read = nullptr;
        unbind_surface(od);
        unbind_surface(orr);
        if (old->destroy_pending) destroy_context_now(old->dpy, old);
        return EGL_TRUE;
    }
    if (!dpy->initialized) return fail(EGL_NOT_INITIALIZED, EGL_FALSE);
    ContextRec* c = lookup_context(dpy, context);
    if (!c) return fail(EGL_BAD_CONTEXT, EGL_FALSE);
    Surface* ds = nullptr;
    Surface* rs = nullptr;
    if (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE) {
        ds = lookup_surface(dpy, draw);
        rs = lookup_surface(dpy, read);
        if (!ds || !rs) return fail(EGL_BAD_SURFACE, EGL_FALSE);
        if (c->cfg && (ds->cfg->red != c->cfg->red || ds->cfg->alpha != c->cfg->alpha))
            client::log().debug("eglMakeCurrent: surface and context configs differ");
    }
    if (c->current && c->thread != std::this_thread::get_id()) return fail(EGL_BAD_ACCESS, EGL_FALSE);
    // Its session ended (the server died): EGL_CONTEXT_LOST, as EGL says for
    // a context that needs to be made again. Releasing it still works.
    if (client::context_lost(*c->ctx, "eglMakeCurrent")) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
    // Contexts of one share group share their session's encoder: one thread at a time.
    {
        std::lock_guard<std::mutex> g(dpy->mu);
        for (ContextRec* o : dpy->contexts)
            if (o != c && o->current && o->thread != std::this_thread::get_id() && o->ctx->group == c->ctx->group) {
                client::log().error("eglMakeCurrent: two contexts of one share group current on two threads is not "
                                    "supported yet");
                return fail(EGL_BAD_ACCESS, EGL_FALSE);
            }
    }
    client::Context& cc = *c->ctx;
    ensure_surface(*cc.group, cc, ds);
    if (rs != ds) ensure_surface(*cc.group, cc, rs);
    client::make_current(&cc, ds ? ds->id : 0, rs ? rs->id : 0, ds ? ds->width : -1, ds ? ds->height : -1);
    // Bookkeeping: bind the new surfaces before releasing the old ones.
    if (ds) ++ds->bound;
    if (rs) ++rs->bound;
    Surface *od = c->draw, *orr = c->read;
    ContextRec* released = (old && old != c) ? old : nullptr;
    Surface *rod = released ? released->draw : nullptr, *ror = released ? released->read : nullptr;
    c->draw = ds;
    c->read = rs;
    c->current = true;
    c->thread = std::this_thread::get_id();
    t_context = c;
    if (old == c) {
        unbind_surface(od);
        unbind_surface(orr);
    }
    if (released) {
        released->current = false;
        released->thread = {};
        released->draw = released->read = nullptr;
        unbind_surface(rod);
        unbind_surface(ror);
        if (released->destroy_pending) destroy_context_now(released->dpy, released);
    }
    return EGL_TRUE;
}

EGLBoolean eglReleaseThread() {
    if (t_context) {
        Display* dpy = t_context->dpy;
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
    t_error = EGL_SUCCESS;
    return EGL_TRUE;
}

EGLBoolean eglBindAPI(EGLenum api) {
    t_error = EGL_SUCCESS;
    if (api != EGL_OPENGL_ES_API && api != EGL_OPENGL_API) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    t_api = api;
    return EGL_TRUE;
}

EGLenum eglQueryAPI() {
    t_error = EGL_SUCCESS;
    return t_api;
}

EGLBoolean eglWaitClient() {
    t_error = EGL_SUCCESS;
    if (client::Context* c = client::current()) {
        mgl_glFinish();
        (void)c;
    }
    return EGL_TRUE;
}
EGLBoolean eglWaitGL() { return eglWaitClient(); }
EGLBoolean eglWaitNative(EGLint engine) {
    t_error = EGL_SUCCESS;
    if (engine != EGL_CORE_NATIVE_ENGINE) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    return EGL_TRUE;
}

// ---------------------------------------------------------------------------
// Swap
// ---------------------------------------------------------------------------

// MOBILEGL_PIPE_STATS=1: one line per frame on stderr with what the frame
// cost on the link (deltas since the previous swap of this share group).
void print_pipe_stats(client::Context& cc, uint64_t frame) {
    static const bool enabled = [] {
        const char* v = std::getenv("MOBILEGL_PIPE_STATS");
        return v && *v && std::strcmp(v, "0") != 0;
    }();
    if (!enabled) return;
    client::PipeStats now;
    if (!cc.group->conn().pipe_stats(&now)) return;
    static thread_local client::PipeStats last;
    static thread_local uint64_t last_round_trips = 0;
    std::fprintf(stderr,
                 "mgl pipe: frame %llu: %llu bytes (%llu staged), %llu publishes, %llu blocking waits (%llu round trips), "
                 "%llu backpressure waits, %llu parks, %llu wake-ups sent\n",
                 (unsigned long long)frame, (unsigned long long)(now.bytes - last.bytes),
                 (unsigned long long)(now.staged - last.staged),
                 (unsigned long long)(now.publishes - last.publishes), (unsigned long long)(now.reply_waits - last.reply_waits),
                 (unsigned long long)(cc.counters.round_trips - last_round_trips),
                 (unsigned long long)(now.space_waits - last.space_waits), (unsigned long long)(now.parks - last.parks),
                 (unsigned long long)(now.wakes_sent - last.wakes_sent));
    last = now;
    last_round_trips = cc.counters.round_trips;
}

EGLBoolean eglSwapBuffers(EGLDisplay d, EGLSurface surface) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    Surface* s = lookup_surface(dpy, surface);
    if (!s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    ContextRec* c = t_context;
    if (!c || c->draw != s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    client::Context& cc = *c->ctx;
    if (client::context_lost(cc, "eglSwapBuffers")) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
    gen::Encoder& e = *cc.enc;
    ++s->frames;
    if (s->kind == EGL_WINDOW_BIT && s->window) {
        // Present, asynchronously: ask for this frame's pixels now and put
        // them into the window when they arrive, at the latest at the next
        // swap. The reply travels in the reply ring (shared memory on inproc
        // and shm, the socket on tcp) and is read from there in place.
        const int w = s->width, h = s->height;
        const uint32_t bytes = uint32_t(size_t(w) * size_t(h) * 4);
        e.mglReadSurface(s->id, 0, 0, w, h, bytes);
        client::ShareGroup* group = cc.group.get();
        group->deferred().defer([s, w, h, bytes](std::span<const uint8_t> rep) {
            // Checked without copying; the pixels are the reply's only output
            // (record.h: outputs start after the 16-byte reply header).
            if (gen::read_reply_mglReadSurface(rep, nullptr, bytes))
                x11_present(*s->window, rep.data() + 16, w, h);
            else if (rep.data())
                client::log().error("eglSwapBuffers: malformed frame reply ({} bytes)", rep.size());
        });
        e.mglSwapBuffers(s->id, s->frames);
        int nw = w, nh = h;
        if (x11_window_size(dpy->native, x11_window_id(*s->window), &nw, &nh) && (nw != w || nh != h)) {
            s->width = nw;
            s->height = nh;
            e.mglResizeSurface(s->id, nw, nh);
        }
    } else {
        e.mglSwapBuffers(s->id, s->frames);
    }
    // The server's debug messages for the app's callback, fetched with the
    // frame and delivered a swap later (client/src/debug_output.h).
    const bool debug_fetched = client::debug_fetch_at_swap(cc);
    e.flush();
    // At most two frames in flight: this one and the one before, which is
    // normally back by now (the server had a whole client frame for it).
    cc.group->deferred().take_until(debug_fetched ? 2 : 1, e);
    client::debug_deliver(cc);
    print_pipe_stats(cc, s->frames);
    if (client::log().should_log(spdlog::level::debug) && s->frames % 100 == 0)
        client::log().debug("frame {}: {} round trips, {} client-array draws ({} bytes), {} local / {} remote queries, "
                            "{} maps filled locally",
                            s->frames, cc.counters.round_trips, cc.counters.client_uploads, cc.counters.client_bytes,
                            cc.counters.local_queries, cc.counters.remote_queries, cc.counters.local_maps);
    return EGL_TRUE;
}

EGLBoolean eglSwapBuffersWithDamageKHR(EGLDisplay d, EGLSurface surface, const EGLint*, EGLint) {
    return eglSwapBuffers(d, surface);
}

EGLBoolean eglSwapInterval(EGLDisplay d, EGLint interval) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    ContextRec* c = t_context;
    if (!c) return fail(EGL_BAD_CONTEXT, EGL_FALSE);
    if (!c->draw) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    c->draw->swap_interval = std::clamp(interval, 0, 1);
    return EGL_TRUE;
}

// ---------------------------------------------------------------------------
// Sync objects: client-minted GL fences on the wire
// ---------------------------------------------------------------------------

EGLSync create_sync(EGLDisplay d, EGLenum type, bool has_attribs) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_NO_SYNC;
    if (type != EGL_SYNC_FENCE) return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SYNC);
    if (has_attribs) return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SYNC);
    ContextRec* c = t_context;
    if (!c || c->dpy != dpy) return fail(EGL_BAD_MATCH, EGL_NO_SYNC);
    ::GLsync gs = mgl_glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    c->ctx->enc->flush();
    auto s = new SyncRec;
    s->dpy = dpy;
    s->group = c->ctx->group;
    s->handle = uint64_t(reinterpret_cast<uintptr_t>(gs));
    std::lock_guard<std::mutex> g(dpy->mu);
    dpy->syncs.insert(s);
    return s;
}

EGLSync eglCreateSync(EGLDisplay d, EGLenum type, const EGLAttrib* attribs) {
    return create_sync(d, type, attribs && attribs[0] != EGL_NONE);
}
EGLSyncKHR eglCreateSyncKHR(EGLDisplay d, EGLenum type, const EGLint* attribs) {
    return create_sync(d, type, attribs && attribs[0] != EGL_NONE);
}

EGLBoolean eglDestroySync(EGLDisplay d, EGLSync sync) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    SyncRec* s = lookup_sync(dpy, sync);
    if (!s) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    std::shared_ptr<client::ShareGroup> keep;
    if (gen::Encoder* e = sync_encoder(s, &keep)) e->glDeleteSync(s->handle);
    {
        std::lock_guard<std::mutex> g(dpy->mu);
        dpy->syncs.erase(s);
    }
    delete s;
    return EGL_TRUE;
}
EGLBoolean eglDestroySyncKHR(EGLDisplay d, EGLSyncKHR sync) { return eglDestroySync(d, sync); }

EGLint eglClientWaitSync(EGLDisplay d, EGLSync sync, EGLint flags, EGLTime timeout) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    SyncRec* s = lookup_sync(dpy, sync);
    if (!s) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    std::shared_ptr<client::ShareGroup> keep;
    gen::Encoder* e = sync_encoder(s, &keep);
    if (!e) return EGL_CONDITION_SATISFIED;  // its session is gone: nothing left to wait for
    e->glClientWaitSync(s->handle, (flags & EGL_SYNC_FLUSH_COMMANDS_BIT) ? GL_SYNC_FLUSH_COMMANDS_BIT : 0, timeout);
    std::span<const uint8_t> rep = e->wait_reply();
    ::mgl::GLenum r = GL_WAIT_FAILED;
    if (!gen::read_reply_glClientWaitSync(rep, &r)) return fail(EGL_BAD_ACCESS, EGL_FALSE);
    const EGLint out = to_egl_wait_result(r);
    return out == EGL_FALSE ? fail(EGL_BAD_ACCESS, EGL_FALSE) : out;
}
EGLint eglClientWaitSyncKHR(EGLDisplay d, EGLSyncKHR sync, EGLint flags, EGLTimeKHR timeout) {
    return eglClientWaitSync(d, sync, flags, timeout);
}

EGLBoolean eglWaitSync(EGLDisplay d, EGLSync sync, EGLint flags) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    SyncRec* s = lookup_sync(dpy, sync);
    if (!s) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    if (flags != 0) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    ContextRec* c = t_context;
    if (!c || c->dpy != dpy) return fail(EGL_BAD_MATCH, EGL_FALSE);
    if (c->ctx->group != s->group.lock()) return fail(EGL_BAD_MATCH, EGL_FALSE);  // another session's fence
    c->ctx->enc->glWaitSync(s->handle, 0, GL_TIMEOUT_IGNORED);
    return EGL_TRUE;
}
EGLint eglWaitSyncKHR(EGLDisplay d, EGLSyncKHR sync, EGLint flags) { return eglWaitSync(d, sync, flags); }

EGLBoolean eglGetSyncAttrib(EGLDisplay d, EGLSync sync, EGLint attribute, EGLAttrib* value) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    SyncRec* s = lookup_sync(dpy, sync);
    if (!s) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    if (!value) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    switch (attribute) {
        case EGL_SYNC_TYPE: *value = EGL_SYNC_FENCE; return EGL_TRUE;
        case EGL_SYNC_CONDITION: *value = EGL_SYNC_PRIOR_COMMANDS_COMPLETE; return EGL_TRUE;
        case EGL_SYNC_STATUS: {
            std::shared_ptr<client::ShareGroup> keep;
            gen::Encoder* e = sync_encoder(s, &keep);
            if (!e) {
                *value = EGL_SIGNALED;
                return EGL_TRUE;
            }
            e->glGetSynciv(s->handle, GL_SYNC_STATUS, 1, 4, 4);
            std::span<const uint8_t> rep = e->wait_reply();
            int32_t len = 0, status = GL_UNSIGNALED;
            if (!gen::read_reply_glGetSynciv(rep, &len, 4, &status, 4)) return fail(EGL_BAD_ACCESS, EGL_FALSE);
            *value = status == GL_SIGNALED ? EGL_SIGNALED : EGL_UNSIGNALED;
            return EGL_TRUE;
        }
        default: return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
    }
}
EGLBoolean eglGetSyncAttribKHR(EGLDisplay d, EGLSyncKHR sync, EGLint attribute, EGLint* value) {
    EGLAttrib v = 0;
    if (!eglGetSyncAttrib(d, sync, attribute, &v)) return EGL_FALSE;
    if (value) *value = EGLint(v);
    return EGL_TRUE;
}

EGLint eglGetError() { return take_error(); }

// ---------------------------------------------------------------------------
// Devices (EGL_EXT_device_enumeration / _query): one software device
// ---------------------------------------------------------------------------

EGLBoolean eglQueryDevicesEXT(EGLint max, EGLDeviceEXT* devices, EGLint* num) {
    t_error = EGL_SUCCESS;
    if (!num || (devices && max <= 0)) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
    if (wire::t_server_thread) {  // the embedded server looks for host devices only
        *num = 0;
        return EGL_TRUE;
    }
    // What the piglit runner looks for in device tests (tests/piglit/run_piglit.sh).
    client::log().debug("eglQueryDevicesEXT: MobileGL's EGL device");
    if (!devices) {
        *num = 1;
        return EGL_TRUE;
    }
    devices[0] = &g_device;
    *num = 1;
    return EGL_TRUE;
}

const char* eglQueryDeviceStringEXT(EGLDeviceEXT dev, EGLint name) {
    t_error = EGL_SUCCESS;
    if (dev != &g_device) return fail<const char*>(EGL_BAD_DEVICE_EXT, nullptr);
    switch (name) {
        case EGL_EXTENSIONS: return "EGL_MESA_device_software";
        // The DRM names too (EGL_DRM_DEVICE_FILE_EXT...): a software device
        // does not list EGL_EXT_device_drm, so they are not its names (as Mesa's).
        default: return fail<const char*>(EGL_BAD_PARAMETER, nullptr);
    }
}

EGLBoolean eglQueryDeviceAttribEXT(EGLDeviceEXT dev, EGLint, EGLAttrib*) {
    t_error = EGL_SUCCESS;
    if (dev != &g_device) return fail(EGL_BAD_DEVICE_EXT, EGL_FALSE);
    return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
}

EGLBoolean eglQueryDisplayAttribEXT(EGLDisplay d, EGLint attribute, EGLAttrib* value) {
    Display* dpy = initialized_display(d);
    if (!dpy) return EGL_FALSE;
    if (attribute != EGL_DEVICE_EXT) return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
    if (value) *value = reinterpret_cast<EGLAttrib>(&g_device);
    return EGL_TRUE;
}

__eglMustCastToProperFunctionPointerType eglGetProcAddress(const char* name);

}  // namespace api

// ---------------------------------------------------------------------------
// Name table
// ---------------------------------------------------------------------------

namespace {
struct Proc {
    const char* name;
    void* fn;
};
#define MGL_PROC(n) {#n, reinterpret_cast<void*>(&api::n)}
#define MGL_PROC_AS(n, f) {#n, reinterpret_cast<void*>(&api::f)}
const Proc kProcs[] = {
    MGL_PROC(eglBindAPI), MGL_PROC(eglQueryAPI), MGL_PROC(eglBindTexImage), MGL_PROC(eglChooseConfig), MGL_PROC(eglClientWaitSync),
    MGL_PROC(eglClientWaitSyncKHR), MGL_PROC(eglCopyBuffers), MGL_PROC(eglCreateContext), MGL_PROC(eglCreateImage),
    MGL_PROC(eglCreatePbufferFromClientBuffer), MGL_PROC(eglCreatePbufferSurface), MGL_PROC(eglCreatePixmapSurface),
    MGL_PROC(eglCreatePlatformPixmapSurface), MGL_PROC(eglCreatePlatformPixmapSurfaceEXT),
    MGL_PROC(eglCreatePlatformWindowSurface), MGL_PROC(eglCreatePlatformWindowSurfaceEXT), MGL_PROC(eglCreateSync),
    MGL_PROC(eglCreateSyncKHR), MGL_PROC(eglCreateWindowSurface), MGL_PROC(eglDestroyContext),
    MGL_PROC(eglDestroyImage), MGL_PROC(eglDestroyImageKHR), MGL_PROC(eglCreateImageKHR), MGL_PROC(eglDestroySurface),
    MGL_PROC(eglDestroySync), MGL_PROC(eglDestroySyncKHR),
    MGL_PROC(eglGetConfigAttrib), MGL_PROC(eglGetConfigs), MGL_PROC(eglGetError), MGL_PROC(eglGetProcAddress),
    MGL_PROC(eglGetSyncAttrib), MGL_PROC(eglGetSyncAttribKHR), MGL_PROC(eglInitialize), MGL_PROC(eglMakeCurrent),
    MGL_PROC(eglQueryContext), MGL_PROC(eglQueryDeviceAttribEXT), MGL_PROC(eglQueryDeviceStringEXT),
    MGL_PROC(eglQueryDevicesEXT), MGL_PROC(eglQueryDisplayAttribEXT),
    MGL_PROC_AS(eglQueryDisplayAttribKHR, eglQueryDisplayAttribEXT), MGL_PROC(eglQueryString),
    MGL_PROC(eglQuerySurface), MGL_PROC(eglReleaseTexImage), MGL_PROC(eglReleaseThread), MGL_PROC(eglSurfaceAttrib),
    MGL_PROC(eglSwapBuffers), MGL_PROC_AS(eglSwapBuffersWithDamageEXT, eglSwapBuffersWithDamageKHR),
    MGL_PROC(eglSwapBuffersWithDamageKHR), MGL_PROC(eglSwapInterval), MGL_PROC(eglTerminate),
    MGL_PROC(eglWaitClient), MGL_PROC(eglWaitGL), MGL_PROC(eglWaitNative), MGL_PROC(eglWaitSync),
    MGL_PROC(eglWaitSyncKHR),
};
#undef MGL_PROC
#undef MGL_PROC_AS
}  // namespace

void* egl_proc(const char* name) {
    if (!name) return nullptr;
    for (const Proc& p : kProcs)
        if (std::strcmp(p.name, name) == 0) return p.fn;
    return nullptr;
}

__eglMustCastToProperFunctionPointerType api::eglGetProcAddress(const char* name) {
    if (void* p = egl_proc(name)) return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(p);
    return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(client::find_proc(name));
}

}  // namespace mgl::egl
