// The glvnd side of the vendor library: __egl_Main fills libEGL's import
// table; libEGL then asks getProcAddress for the EGL 1.5 entry points (the
// static dispatch table) and libGLdispatch asks it for every gl* function
// (the GL dispatch table of this vendor). Extension functions that take a
// display or device are reached through dispatch stubs: libEGL hands out
// the stub (getDispatchAddress), tells us its slot (setDispatchIndex), and
// the stub finds the vendor that owns the handle and calls its function.
#include <glvnd/libeglabi.h>

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "connection.h"
#include "egl_internal.h"
#include "mgl/wire/thread_role.h"
#include "gen/client_entry.h"
#include "log.h"

namespace mgl::egl {

namespace {

const __EGLapiExports* g_exports = nullptr;

std::mutex g_index_mu;
std::unordered_map<std::string, int>& indices() {
    static std::unordered_map<std::string, int> m;
    return m;
}
int dispatch_index(const char* name) {
    std::lock_guard<std::mutex> g(g_index_mu);
    auto it = indices().find(name);
    return it == indices().end() ? -1 : it->second;
}

template <class Fn>
Fn fetch(__EGLvendorInfo* vendor, const char* name) {
    const int idx = dispatch_index(name);
    if (idx < 0 || !vendor) return nullptr;
    return reinterpret_cast<Fn>(g_exports->fetchDispatchEntry(vendor, idx));
}

// A stub for a function whose first argument is an EGLDisplay.
#define MGL_DISPLAY_STUB(ret, name, failret, params, args)                                 \
    ret stub_##name params {                                                              \
        g_exports->threadInit();                                                          \
        __EGLvendorInfo* vendor_ = g_exports->getVendorFromDisplay(dpy);                        \
        auto fn = fetch<ret(*) params>(vendor_, #name);                                         \
        if (!fn) {                                                                        \
            g_exports->setEGLError(vendor_ ? EGL_BAD_PARAMETER : EGL_BAD_DISPLAY);              \
            return failret;                                                               \
        }                                                                                 \
        g_exports->setLastVendor(vendor_);                                                      \
        return fn args;                                                                   \
    }
// ... and an EGLDeviceEXT.
#define MGL_DEVICE_STUB(ret, name, failret, params, args)                                  \
    ret stub_##name params {                                                              \
        g_exports->threadInit();                                                          \
        __EGLvendorInfo* vendor_ = g_exports->getVendorFromDevice(dev);                         \
        auto fn = fetch<ret(*) params>(vendor_, #name);                                         \
        if (!fn) {                                                                        \
            g_exports->setEGLError(vendor_ ? EGL_BAD_PARAMETER : EGL_BAD_DEVICE_EXT);           \
            return failret;                                                               \
        }                                                                                 \
        g_exports->setLastVendor(vendor_);                                                      \
        return fn args;                                                                   \
    }

MGL_DEVICE_STUB(const char*, eglQueryDeviceStringEXT, nullptr, (EGLDeviceEXT dev, EGLint name), (dev, name))
MGL_DEVICE_STUB(EGLBoolean, eglQueryDeviceAttribEXT, EGL_FALSE, (EGLDeviceEXT dev, EGLint a, EGLAttrib* v),
                (dev, a, v))
MGL_DISPLAY_STUB(EGLBoolean, eglQueryDisplayAttribEXT, EGL_FALSE, (EGLDisplay dpy, EGLint a, EGLAttrib* v),
                 (dpy, a, v))
MGL_DISPLAY_STUB(EGLBoolean, eglQueryDisplayAttribKHR, EGL_FALSE, (EGLDisplay dpy, EGLint a, EGLAttrib* v),
                 (dpy, a, v))
MGL_DISPLAY_STUB(EGLSyncKHR, eglCreateSyncKHR, EGL_NO_SYNC_KHR, (EGLDisplay dpy, EGLenum t, const EGLint* a),
                 (dpy, t, a))
MGL_DISPLAY_STUB(EGLBoolean, eglDestroySyncKHR, EGL_FALSE, (EGLDisplay dpy, EGLSyncKHR s), (dpy, s))
MGL_DISPLAY_STUB(EGLint, eglClientWaitSyncKHR, EGL_FALSE, (EGLDisplay dpy, EGLSyncKHR s, EGLint f, EGLTimeKHR t),
                 (dpy, s, f, t))
MGL_DISPLAY_STUB(EGLint, eglWaitSyncKHR, EGL_FALSE, (EGLDisplay dpy, EGLSyncKHR s, EGLint f), (dpy, s, f))
MGL_DISPLAY_STUB(EGLBoolean, eglGetSyncAttribKHR, EGL_FALSE, (EGLDisplay dpy, EGLSyncKHR s, EGLint a, EGLint* v),
                 (dpy, s, a, v))
MGL_DISPLAY_STUB(EGLImageKHR, eglCreateImageKHR, EGL_NO_IMAGE_KHR,
                 (EGLDisplay dpy, EGLContext c, EGLenum t, EGLClientBuffer b, const EGLint* a), (dpy, c, t, b, a))
MGL_DISPLAY_STUB(EGLBoolean, eglDestroyImageKHR, EGL_FALSE, (EGLDisplay dpy, EGLImageKHR i), (dpy, i))
MGL_DISPLAY_STUB(EGLSurface, eglCreatePlatformWindowSurfaceEXT, EGL_NO_SURFACE,
                 (EGLDisplay dpy, EGLConfig c, void* w, const EGLint* a), (dpy, c, w, a))
MGL_DISPLAY_STUB(EGLSurface, eglCreatePlatformPixmapSurfaceEXT, EGL_NO_SURFACE,
                 (EGLDisplay dpy, EGLConfig c, void* p, const EGLint* a), (dpy, c, p, a))
MGL_DISPLAY_STUB(EGLBoolean, eglSwapBuffersWithDamageKHR, EGL_FALSE,
                 (EGLDisplay dpy, EGLSurface s, const EGLint* r, EGLint n), (dpy, s, r, n))
MGL_DISPLAY_STUB(EGLBoolean, eglSwapBuffersWithDamageEXT, EGL_FALSE,
                 (EGLDisplay dpy, EGLSurface s, const EGLint* r, EGLint n), (dpy, s, r, n))

struct Stub {
    const char* name;
    void* fn;
};
#define MGL_STUB(n) {#n, reinterpret_cast<void*>(&stub_##n)}
const Stub kStubs[] = {
    MGL_STUB(eglQueryDeviceStringEXT), MGL_STUB(eglQueryDeviceAttribEXT), MGL_STUB(eglQueryDisplayAttribEXT),
    MGL_STUB(eglQueryDisplayAttribKHR), MGL_STUB(eglCreateSyncKHR), MGL_STUB(eglDestroySyncKHR),
    MGL_STUB(eglClientWaitSyncKHR), MGL_STUB(eglWaitSyncKHR), MGL_STUB(eglGetSyncAttribKHR),
    MGL_STUB(eglCreateImageKHR), MGL_STUB(eglDestroyImageKHR),
    MGL_STUB(eglCreatePlatformWindowSurfaceEXT), MGL_STUB(eglCreatePlatformPixmapSurfaceEXT),
    MGL_STUB(eglSwapBuffersWithDamageKHR), MGL_STUB(eglSwapBuffersWithDamageEXT),
};
#undef MGL_STUB

EGLDisplay imp_getPlatformDisplay(EGLenum platform, void* native, const EGLAttrib* attribs) {
    // The embedded server's own host EGL: let glvnd ask the next vendor.
    if (wire::t_server_thread) return EGL_NO_DISPLAY;
    set_error(EGL_SUCCESS);
    return get_platform_display(platform, native, attribs);
}

EGLBoolean imp_getSupportsAPI(EGLenum api) {
    return api == EGL_OPENGL_ES_API || api == EGL_OPENGL_API ? EGL_TRUE : EGL_FALSE;
}

const char* imp_getVendorString(int name) {
    if (name != __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS) return nullptr;
    // What the piglit runner looks for in client-extension tests (tests/piglit/run_piglit.sh).
    mgl::client::log().debug("getVendorString: MobileGL's EGL client extensions");
    return platform_extensions();
}

void* imp_getProcAddress(const char* name) {
    if (!name) return nullptr;
    if (name[0] == 'e' && name[1] == 'g' && name[2] == 'l') return egl_proc(name);
    return reinterpret_cast<void*>(client::find_proc(name));
}

void* imp_getDispatchAddress(const char* name) {
    for (const Stub& s : kStubs)
        if (std::strcmp(s.name, name) == 0) return s.fn;
    return nullptr;
}

void imp_setDispatchIndex(const char* name, int index) {
    std::lock_guard<std::mutex> g(g_index_mu);
    indices()[name] = index;
}

}  // namespace

}  // namespace mgl::egl

extern "C" __attribute__((visibility("default"))) EGLBoolean __egl_Main(uint32_t version,
                                                                       const __EGLapiExports* exports,
                                                                       __EGLvendorInfo* vendor,
                                                                       __EGLapiImports* imports) {
    using namespace mgl::egl;
    if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != EGL_VENDOR_ABI_MAJOR_VERSION) {
        mgl::client::log().error("libEGL vendor ABI {}.{} is not the {}.x this library was built for",
                                 EGL_VENDOR_ABI_GET_MAJOR_VERSION(version), EGL_VENDOR_ABI_GET_MINOR_VERSION(version),
                                 EGL_VENDOR_ABI_MAJOR_VERSION);
        return EGL_FALSE;
    }
    g_exports = exports;
    mgl::client::set_glvnd_vendor(exports, vendor);
    // libEGL hands us a zeroed table: only the required entries and getVendorString are set.
    imports->getPlatformDisplay = imp_getPlatformDisplay;
    imports->getSupportsAPI = imp_getSupportsAPI;
    imports->getVendorString = imp_getVendorString;
    imports->getProcAddress = imp_getProcAddress;
    imports->getDispatchAddress = imp_getDispatchAddress;
    imports->setDispatchIndex = imp_setDispatchIndex;
    return EGL_TRUE;
}
