#include "host_egl.h"

#include <GLES3/gl32.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "gen/espryt_host.h"
#include "host_vendor.h"

namespace mgl::espryt {

HostEgl host_egl;

namespace {

// Set by use_host_vendor_library() before the first host_display().
bool g_vendor_mode = false;
const void* g_glvnd_exports = nullptr;
void* g_glvnd_vendor = nullptr;
std::atomic<bool> g_initialised{false};

// The first hardware device of `egl` (with glvnd every vendor enumerates its
// devices, Mesa a software one too), else its first device. `hardware` says
// which.
EGLDeviceEXT pick_device(const HostEgl& egl, bool& hardware) {
    hardware = false;
    if (!egl.QueryDevicesEXT) return EGL_NO_DEVICE_EXT;
    EGLDeviceEXT devices[16];
    EGLint n = 0;
    if (!egl.QueryDevicesEXT(16, devices, &n) || n < 1) return EGL_NO_DEVICE_EXT;
    for (EGLint i = 0; i < n && egl.QueryDeviceStringEXT; ++i) {
        if (!has_word(egl.QueryDeviceStringEXT(devices[i], EGL_EXTENSIONS), "EGL_MESA_device_software")) {
            hardware = true;
            return devices[i];
        }
    }
    return devices[0];
}

// What one source of host EGL offers.
struct Offer {
    const HostEgl* egl = nullptr;
    bool surfaceless = false;
    EGLDeviceEXT device = EGL_NO_DEVICE_EXT;
    bool hardware = false;
};

EGLContext make_context(EGLDisplay dpy, int major, int minor, EGLContext share, bool robust, bool debug) {
    EGLint attribs[16];
    int i = 0;
    attribs[i++] = EGL_CONTEXT_MAJOR_VERSION;
    attribs[i++] = major;
    attribs[i++] = EGL_CONTEXT_MINOR_VERSION;
    attribs[i++] = minor;
    if (robust) {
        // Out-of-bounds buffer reads stay inside the buffer: a client's bad
        // offsets cannot read server memory through the driver.
        attribs[i++] = EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT;
        attribs[i++] = EGL_TRUE;
    }
    if (debug) {
        attribs[i++] = EGL_CONTEXT_OPENGL_DEBUG;
        attribs[i++] = EGL_TRUE;
    }
    attribs[i++] = EGL_NONE;
    // eglCreateContext makes a context of the calling thread's bound API, and
    // on the direct transport this thread is the application's: its
    // eglBindAPI(EGL_OPENGL_API) reached the host vendor as well (glvnd hands
    // eglBindAPI to every vendor), and would give us a host desktop GL context.
    // Espryt takes only GLES contexts (the devices it is for have no desktop
    // GL), so the thread's API is GLES for this call and the application's
    // choice afterwards.
    const EGLenum app_api = host_egl.QueryAPI ? host_egl.QueryAPI() : EGL_OPENGL_ES_API;
    if (app_api != EGL_OPENGL_ES_API) host_egl.BindAPI(EGL_OPENGL_ES_API);
    EGLContext c = host_egl.CreateContext(dpy, EGL_NO_CONFIG_KHR, share, attribs);
    if (app_api != EGL_OPENGL_ES_API) host_egl.BindAPI(app_api);
    return c;
}

struct Init {
    HostDisplay host;
    std::string error;
    bool ok = false;

    Init() { ok = run(); }

    bool fail(std::string why) {
        error = std::move(why);
        return false;
    }

    // The sources to choose from: the process's libEGL, or (inside our glvnd
    // vendor on the direct transport) each host vendor library.
    std::vector<HostEgl> sources() {
        if (!g_vendor_mode) return {libegl_entry_points()};
        std::string why;
        std::vector<HostEgl> v = load_host_vendors(g_glvnd_exports, g_glvnd_vendor, &why);
        if (v.empty()) error = why;
        return v;
    }

    bool run() {
        const std::vector<HostEgl> all = sources();
        if (all.empty()) return false;
        std::vector<Offer> offers;
        for (const HostEgl& egl : all) {
            if (!egl.GetPlatformDisplay) continue;
            Offer o;
            o.egl = &egl;
            o.surfaceless = has_word(egl.client_extensions.c_str(), "EGL_MESA_platform_surfaceless");
            if (has_word(egl.client_extensions.c_str(), "EGL_EXT_platform_device")) o.device = pick_device(egl, o.hardware);
            offers.push_back(o);
        }
        if (offers.empty()) return fail("host EGL has no client extensions (EGL_EXT_platform_base)");
        const Offer* hardware = nullptr;
        const Offer* device = nullptr;
        const Offer* surfaceless = nullptr;
        for (const Offer& o : offers) {
            if (o.hardware && !hardware) hardware = &o;
            if (o.device != EGL_NO_DEVICE_EXT && !device) device = &o;
            if (o.surfaceless && !surfaceless) surfaceless = &o;
        }
        if (hardware) device = hardware;
        // A GPU when there is one (NVIDIA: device platform); otherwise Mesa's
        // surfaceless platform (llvmpipe); MOBILEGL_ESPRYT_PLATFORM decides.
        std::string want;
        if (const char* env = std::getenv("MOBILEGL_ESPRYT_PLATFORM"); env && *env) {
            want = env;
            if (want != "surfaceless" && want != "device")
                return fail("MOBILEGL_ESPRYT_PLATFORM must be 'surfaceless' or 'device', not '" + want + "'");
        } else {
            want = (hardware || !surfaceless) ? "device" : "surfaceless";
        }
        if (want == "surfaceless" && !surfaceless) return fail("host EGL lacks EGL_MESA_platform_surfaceless");
        if (want == "device" && !device)
            return fail("host EGL has no device (EGL_EXT_platform_device) and no EGL_MESA_platform_surfaceless");
        const Offer& chosen = want == "surfaceless" ? *surfaceless : *device;
        host_egl = *chosen.egl;
        host.platform = want;
        host.dpy = want == "surfaceless" ? host_egl.GetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY)
                                         : host_egl.GetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, chosen.device);
        EGLint major = 0, minor = 0;
        if (host.dpy == EGL_NO_DISPLAY || !host_egl.Initialize(host.dpy, &major, &minor))
            return fail("cannot open the host EGL display (" + want + " platform): " + egl_error_name(host_egl.GetError()));
        const char* ext = host_egl.QueryString(host.dpy, EGL_EXTENSIONS);
        if (!has_word(ext, "EGL_KHR_no_config_context") && !has_word(ext, "EGL_MESA_configless_context"))
            return fail("host EGL lacks EGL_KHR_no_config_context");
        if (!has_word(ext, "EGL_KHR_surfaceless_context")) return fail("host EGL lacks EGL_KHR_surfaceless_context");
        host.robust = has_word(ext, "EGL_EXT_create_context_robustness");
        // The thread's API is the application's on the direct transport: check
        // that GLES is there and give the thread its API back (make_context
        // binds GLES around each creation).
        const EGLenum app_api = host_egl.QueryAPI ? host_egl.QueryAPI() : EGL_OPENGL_ES_API;
        if (!host_egl.BindAPI(EGL_OPENGL_ES_API)) return fail("host EGL has no OpenGL ES API");
        if (app_api != EGL_OPENGL_ES_API) host_egl.BindAPI(app_api);

        // The best GLES 3.x the host offers; one probe context to load entry points.
        static const int versions[][2] = {{3, 2}, {3, 1}, {3, 0}};
        EGLContext probe = EGL_NO_CONTEXT;
        for (auto [ma, mi] : versions) {
            probe = make_context(host.dpy, ma, mi, EGL_NO_CONTEXT, host.robust, false);
            if (probe == EGL_NO_CONTEXT && host.robust) {
                probe = make_context(host.dpy, ma, mi, EGL_NO_CONTEXT, false, false);
                if (probe != EGL_NO_CONTEXT) host.robust = false;
            }
            if (probe != EGL_NO_CONTEXT) {
                host.es_major = ma;
                host.es_minor = mi;
                break;
            }
        }
        if (probe == EGL_NO_CONTEXT) return fail("host EGL cannot create a GLES 3.0+ context");

        // Keep whatever the calling thread had current (a test's own context).
        const bool can_keep = host_egl.GetCurrentDisplay && host_egl.GetCurrentContext && host_egl.GetCurrentSurface;
        EGLDisplay prev_dpy = can_keep ? host_egl.GetCurrentDisplay() : EGL_NO_DISPLAY;
        EGLContext prev_ctx = can_keep ? host_egl.GetCurrentContext() : EGL_NO_CONTEXT;
        EGLSurface prev_draw = can_keep ? host_egl.GetCurrentSurface(EGL_DRAW) : EGL_NO_SURFACE;
        EGLSurface prev_read = can_keep ? host_egl.GetCurrentSurface(EGL_READ) : EGL_NO_SURFACE;
        if (!host_egl.MakeCurrent(host.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, probe)) {
            host_egl.DestroyContext(host.dpy, probe);
            return fail(std::string("cannot make the probe context current: ") + egl_error_name(host_egl.GetError()));
        }
        load_host_gl(host_egl.GetProcAddress);
        bool loaded = host_gl.glGetString && host_gl.glGetError && host_gl.glGetIntegerv;
        if (loaded) {
            auto str = [](GLenum n) {
                const void* s = host_gl.glGetString(n);
                return std::string(s ? static_cast<const char*>(s) : "");
            };
            host.renderer = str(GL_RENDERER);
            host.vendor = str(GL_VENDOR);
        }
        host_egl.MakeCurrent(host.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        host_egl.DestroyContext(host.dpy, probe);
        if (prev_ctx != EGL_NO_CONTEXT) host_egl.MakeCurrent(prev_dpy, prev_draw, prev_read, prev_ctx);
        if (!loaded) return fail("host GLES entry points missing (glGetString)");
        return true;
    }
};

Init& init() {
    static Init* once = [] {
        g_initialised = true;
        return new Init();  // never destroyed: see the header
    }();
    return *once;
}

}  // namespace

bool use_host_vendor_library(const void* glvnd_exports, void* glvnd_vendor) {
    if (g_initialised) return g_vendor_mode;
    g_vendor_mode = true;
    g_glvnd_exports = glvnd_exports;
    g_glvnd_vendor = glvnd_vendor;
    return true;
}

const HostDisplay* host_display(std::string* why) {
    Init& i = init();  // C++ guarantees one thread-safe initialisation
    if (!i.ok && why) *why = i.error;
    return i.ok ? &i.host : nullptr;
}

std::mutex* host_serialization_lock(const HostDisplay& host) {
    static std::mutex host_lock;
    static const int forced = [] {
        const char* v = std::getenv("MOBILEGL_SERIALIZE_SESSIONS");
        return v && *v ? (v[0] == '1' ? 1 : 0) : -1;
    }();
    const bool software = host.renderer.find("llvmpipe") != std::string::npos ||
                          host.renderer.find("softpipe") != std::string::npos;
    return (forced == 1 || (forced == -1 && software)) ? &host_lock : nullptr;
}

EGLContext HostDisplay::create_context(EGLContext share, bool debug) const {
    EGLContext c = make_context(dpy, es_major, es_minor, share, robust, debug);
    if (c == EGL_NO_CONTEXT && debug) c = make_context(dpy, es_major, es_minor, share, robust, false);
    return c;
}

EGLConfig HostDisplay::choose_config(int r, int g, int b, int a, int depth, int stencil, int samples) const {
    const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                              EGL_COLOR_BUFFER_TYPE, EGL_RGB_BUFFER, EGL_NONE};
    EGLint n = 0;
    if (!host_egl.ChooseConfig(dpy, attribs, nullptr, 0, &n) || n <= 0) return nullptr;
    std::vector<EGLConfig> configs(n);
    host_egl.ChooseConfig(dpy, attribs, configs.data(), n, &n);
    // EGL sorts deeper color first; we want the client's exact channels, so
    // score every config: missing bits cost most, surplus a little.
    EGLConfig best = nullptr;
    long best_score = 0;
    for (EGLint i = 0; i < n; ++i) {
        auto get = [&](EGLint attr) {
            EGLint v = 0;
            host_egl.GetConfigAttrib(dpy, configs[i], attr, &v);
            return v;
        };
        long score = 0;
        auto cost = [&](int have, int want, long under, long over) {
            if (have < want) score += under * (want - have);
            else score += over * (have - want);
        };
        cost(get(EGL_RED_SIZE), r, 10000, 100);
        cost(get(EGL_GREEN_SIZE), g, 10000, 100);
        cost(get(EGL_BLUE_SIZE), b, 10000, 100);
        cost(get(EGL_ALPHA_SIZE), a, 10000, 100);
        cost(get(EGL_DEPTH_SIZE), depth, 10000, 1);
        cost(get(EGL_STENCIL_SIZE), stencil, 10000, 1);
        cost(get(EGL_SAMPLES), samples, 1000, 10);
        if (!best || score < best_score) {
            best = configs[i];
            best_score = score;
        }
    }
    return best;
}

bool has_word(const char* list, const char* word) {
    if (!list) return false;
    const size_t n = std::strlen(word);
    for (const char* p = list; (p = std::strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

const char* egl_error_name(EGLint e) {
    switch (e) {
        case EGL_SUCCESS: return "EGL_SUCCESS";
        case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
        case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
        case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
        case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
        case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
        case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
        case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
        case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
        case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
        case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
        case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
        case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
        case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
        case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
        default: return "EGL error";
    }
}

}  // namespace mgl::espryt
