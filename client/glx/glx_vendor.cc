// The glvnd side of the GLX vendor library libGLX_mobilegl.so.0: __glx_Main
// fills libGLX's import table. libGLX calls the GLX 1.4 functions it knows
// through getProcAddress and finds this vendor for a call by screen (glvnd's
// __GLX_VENDOR_LIBRARY_NAME=mobilegl, which `mgl run` sets), context,
// FBConfig or drawable, through the mappings recorded here. GLX extension
// functions libGLX does not know reach us through dispatch stubs (as in the
// EGL vendor): the stub finds the owning vendor from its arguments.
#include <glvnd/libglxabi.h>

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "connection.h"
#include "gen/client_entry.h"
#include "glx_internal.h"
#include "log.h"
#include "mgl/wire/thread_role.h"

namespace mgl::glx {

namespace {

const __GLXapiExports* g_exports = nullptr;
__GLXvendorInfo* g_vendor = nullptr;

std::mutex g_index_mu;
std::unordered_map<std::string, int>& indices() {
    static std::unordered_map<std::string, int> m;
    return m;
}

template <class Fn>
Fn fetch(__GLXvendorInfo* vendor, const char* name) {
    int idx = -1;
    {
        std::lock_guard<std::mutex> g(g_index_mu);
        auto it = indices().find(name);
        if (it != indices().end()) idx = it->second;
    }
    if (idx < 0 || !vendor) return nullptr;
    return reinterpret_cast<Fn>(g_exports->fetchDispatchEntry(vendor, idx));
}

GLXContext stub_glXCreateContextAttribsARB(::Display* dpy, GLXFBConfig config, GLXContext share, Bool direct,
                                           const int* attribs) {
    auto fn = fetch<GLXContext (*)(::Display*, GLXFBConfig, GLXContext, Bool, const int*)>(
        g_exports->vendorFromFBConfig(dpy, config), "glXCreateContextAttribsARB");
    return fn ? fn(dpy, config, share, direct, attribs) : nullptr;
}
void stub_glXSwapIntervalEXT(::Display* dpy, GLXDrawable d, int interval) {
    auto fn = fetch<void (*)(::Display*, GLXDrawable, int)>(g_exports->vendorFromDrawable(dpy, d), "glXSwapIntervalEXT");
    if (fn) fn(dpy, d, interval);
}
int stub_glXSwapIntervalMESA(unsigned int interval) {
    auto fn = fetch<int (*)(unsigned)>(g_exports->getCurrentDynDispatch(), "glXSwapIntervalMESA");
    return fn ? fn(interval) : GLX_BAD_CONTEXT;
}
int stub_glXGetSwapIntervalMESA() {
    auto fn = fetch<int (*)()>(g_exports->getCurrentDynDispatch(), "glXGetSwapIntervalMESA");
    return fn ? fn() : 0;
}
int stub_glXSwapIntervalSGI(int interval) {
    auto fn = fetch<int (*)(int)>(g_exports->getCurrentDynDispatch(), "glXSwapIntervalSGI");
    return fn ? fn(interval) : GLX_BAD_CONTEXT;
}

struct Stub {
    const char* name;
    void* fn;
};
#define MGL_STUB(n) {#n, reinterpret_cast<void*>(&stub_##n)}
const Stub kStubs[] = {
    MGL_STUB(glXCreateContextAttribsARB), MGL_STUB(glXSwapIntervalEXT), MGL_STUB(glXSwapIntervalMESA),
    MGL_STUB(glXGetSwapIntervalMESA), MGL_STUB(glXSwapIntervalSGI),
};
#undef MGL_STUB

Bool imp_isScreenSupported(::Display*, int) {
    // The embedded server's threads never speak GLX; everyone else who was
    // routed here (by name) is served.
    return wire::t_server_thread ? False : True;
}

void* imp_getProcAddress(const GLubyte* name) {
    const char* n = reinterpret_cast<const char*>(name);
    if (!n) return nullptr;
    if (std::strncmp(n, "glX", 3) == 0) return glx_proc(n);
    return reinterpret_cast<void*>(client::find_proc(n));
}

void* imp_getDispatchAddress(const GLubyte* name) {
    for (const Stub& s : kStubs)
        if (std::strcmp(s.name, reinterpret_cast<const char*>(name)) == 0) return s.fn;
    return nullptr;
}

void imp_setDispatchIndex(const GLubyte* name, int index) {
    std::lock_guard<std::mutex> g(g_index_mu);
    indices()[reinterpret_cast<const char*>(name)] = index;
}

}  // namespace

void map_context(::Display* dpy, GLXContext c) { g_exports->addVendorContextMapping(dpy, c, g_vendor); }
void unmap_context(::Display* dpy, GLXContext c) { g_exports->removeVendorContextMapping(dpy, c); }
void map_config(::Display* dpy, GLXFBConfig c) { g_exports->addVendorFBConfigMapping(dpy, c, g_vendor); }
void map_drawable(::Display* dpy, GLXDrawable d) { g_exports->addVendorDrawableMapping(dpy, d, g_vendor); }
void unmap_drawable(::Display* dpy, GLXDrawable d) { g_exports->removeVendorDrawableMapping(dpy, d); }

}  // namespace mgl::glx

extern "C" __attribute__((visibility("default"))) Bool __glx_Main(uint32_t version, const __GLXapiExports* exports,
                                                                  __GLXvendorInfo* vendor,
                                                                  __GLXapiImports* imports) {
    using namespace mgl::glx;
    if (GLX_VENDOR_ABI_GET_MAJOR_VERSION(version) != GLX_VENDOR_ABI_MAJOR_VERSION) {
        mgl::client::log().error("libGLX vendor ABI {}.{} is not the {}.x this library was built for",
                                 GLX_VENDOR_ABI_GET_MAJOR_VERSION(version), GLX_VENDOR_ABI_GET_MINOR_VERSION(version),
                                 GLX_VENDOR_ABI_MAJOR_VERSION);
        return False;
    }
    g_exports = exports;
    g_vendor = vendor;
    imports->isScreenSupported = imp_isScreenSupported;
    imports->getProcAddress = imp_getProcAddress;
    imports->getDispatchAddress = imp_getDispatchAddress;
    imports->setDispatchIndex = imp_setDispatchIndex;
    return True;
}
