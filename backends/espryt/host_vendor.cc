#include "host_vendor.h"

#include <dlfcn.h>
#include <glvnd/libeglabi.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace mgl::espryt {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_colons(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, ':');)
        if (!part.empty()) out.push_back(part);
    return out;
}

// The vendor JSON files, as glvnd finds them (libglvnd's
// src/EGL/libeglvendor.c: FILENAMES wins, else the directories in order,
// each sorted by name).
std::vector<std::string> vendor_files() {
    if (const char* f = std::getenv("__EGL_VENDOR_LIBRARY_FILENAMES"); f && *f) return split_colons(f);
    const char* d = std::getenv("__EGL_VENDOR_LIBRARY_DIRS");
    std::vector<std::string> out;
    for (const auto& dir : split_colons(d && *d ? d : "/etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d")) {
        std::vector<std::string> here;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.path().extension() == ".json") here.push_back(e.path().string());
        std::sort(here.begin(), here.end());
        out.insert(out.end(), here.begin(), here.end());
    }
    return out;
}

// ICD.library_path of a vendor JSON. The files are tiny and flat; the first
// string after the key is the value (glvnd's own format, version 1.0.0).
std::string library_path(const std::string& json_file) {
    std::ifstream in(json_file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t k = text.find("\"library_path\"");
    if (k == std::string::npos) return {};
    size_t colon = text.find(':', k + 14);
    size_t open = colon == std::string::npos ? colon : text.find('"', colon);
    size_t close = open == std::string::npos ? open : text.find('"', open + 1);
    if (close == std::string::npos) return {};
    std::string path = text.substr(open + 1, close - open - 1);
    // glvnd: a bare name goes to the dynamic loader's search; a relative path
    // is relative to the JSON file.
    if (path.find('/') != std::string::npos && path[0] != '/')
        path = (fs::path(json_file).parent_path() / path).string();
    return path;
}

// Our own library's handle, to leave it out of the host vendors.
void* own_handle() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&own_handle), &info) || !info.dli_fname) return nullptr;
    void* h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (h) dlclose(h);  // only the address is compared; glvnd keeps it loaded
    return h;
}

template <typename Fn>
void get(Fn& fn, void* (*proc)(const char*), const char* name) {
    fn = reinterpret_cast<Fn>(proc(name));
}

void fill_by_name(HostEgl& e, void* (*proc)(const char*)) {
    get(e.GetError, proc, "eglGetError");
    get(e.QueryString, proc, "eglQueryString");
    get(e.Initialize, proc, "eglInitialize");
    get(e.BindAPI, proc, "eglBindAPI");
    get(e.QueryAPI, proc, "eglQueryAPI");
    get(e.ChooseConfig, proc, "eglChooseConfig");
    get(e.GetConfigAttrib, proc, "eglGetConfigAttrib");
    get(e.CreateContext, proc, "eglCreateContext");
    get(e.DestroyContext, proc, "eglDestroyContext");
    get(e.MakeCurrent, proc, "eglMakeCurrent");
    get(e.GetCurrentContext, proc, "eglGetCurrentContext");
    get(e.GetCurrentDisplay, proc, "eglGetCurrentDisplay");
    get(e.GetCurrentSurface, proc, "eglGetCurrentSurface");
    get(e.CreatePbufferSurface, proc, "eglCreatePbufferSurface");
    get(e.DestroySurface, proc, "eglDestroySurface");
    get(e.SwapBuffers, proc, "eglSwapBuffers");
    get(e.QueryDevicesEXT, proc, "eglQueryDevicesEXT");
    get(e.QueryDeviceStringEXT, proc, "eglQueryDeviceStringEXT");
}

bool complete(const HostEgl& e) {
    return e.GetError && e.QueryString && e.Initialize && e.ChooseConfig && e.GetConfigAttrib && e.CreateContext &&
           e.DestroyContext && e.MakeCurrent && e.CreatePbufferSurface && e.DestroySurface && e.SwapBuffers && e.GetPlatformDisplay &&
           e.GetProcAddress;
}

// The import tables stay alive for the process: the vendor libraries are
// never unloaded (glvnd holds them too) and our HostEgl calls through them.
constexpr size_t kMaxVendors = 8;
__EGLapiImports g_imports[kMaxVendors];

// HostEgl's GetPlatformDisplay is a plain function pointer; one trampoline per
// vendor slot forwards to that vendor's getPlatformDisplay.
template <size_t I>
EGLDisplay platform_display(EGLenum platform, void* native) {
    return g_imports[I].getPlatformDisplay(platform, native, nullptr);
}
template <size_t... I>
constexpr auto make_trampolines(std::index_sequence<I...>) {
    return std::array<EGLDisplay (*)(EGLenum, void*), sizeof...(I)>{&platform_display<I>...};
}
constexpr auto kPlatformDisplay = make_trampolines(std::make_index_sequence<kMaxVendors>{});

}  // namespace

HostEgl libegl_entry_points() {
    HostEgl e;
    e.GetProcAddress = [](const char* name) { return reinterpret_cast<void*>(eglGetProcAddress(name)); };
    fill_by_name(e, e.GetProcAddress);
    // libEGL's own eglGetProcAddress returns its dispatching entry points; the
    // core ones are linked anyway.
    e.GetError = eglGetError;
    e.QueryString = eglQueryString;
    e.Initialize = eglInitialize;
    e.BindAPI = eglBindAPI;
    e.QueryAPI = eglQueryAPI;
    e.MakeCurrent = eglMakeCurrent;
    e.SwapBuffers = eglSwapBuffers;
    static PFNEGLGETPLATFORMDISPLAYEXTPROC ext = nullptr;
    ext = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    e.GetPlatformDisplay = [](EGLenum platform, void* native) {
        return ext ? ext(platform, native, nullptr) : EGL_NO_DISPLAY;
    };
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    e.client_extensions = client ? client : "";
    e.source = "libEGL";
    return e;
}

std::vector<HostEgl> load_host_vendors(const void* glvnd_exports, void* glvnd_vendor, std::string* why) {
    std::vector<HostEgl> out;
    std::string skipped;
    void* self = own_handle();
    size_t slot = 0;
    for (const auto& json : vendor_files()) {
        const std::string lib = library_path(json);
        if (lib.empty()) continue;
        void* h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            skipped += " " + lib + " (" + dlerror() + ")";
            continue;
        }
        if (h == self) {  // our own library: only glvnd's reference stays
            dlclose(h);
            continue;
        }
        auto main_fn = reinterpret_cast<__PFNEGLMAINPROC>(dlsym(h, __EGL_MAIN_PROTO_NAME));
        if (slot == kMaxVendors) break;
        __EGLapiImports& imports = g_imports[slot];
        imports = {};
        if (!main_fn || !main_fn(EGL_VENDOR_ABI_VERSION, static_cast<const __EGLapiExports*>(glvnd_exports),
                                 static_cast<__EGLvendorInfo*>(glvnd_vendor), &imports) ||
            !imports.getProcAddress || !imports.getPlatformDisplay) {
            skipped += " " + lib + " (no usable __egl_Main)";
            continue;
        }
        HostEgl e;
        e.GetProcAddress = imports.getProcAddress;
        fill_by_name(e, e.GetProcAddress);
        e.GetPlatformDisplay = kPlatformDisplay[slot];
        // glvnd builds the client extension string from the vendor's own
        // (non-platform) list and its platform list.
        const char* own = e.QueryString ? e.QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS) : nullptr;
        const char* platforms =
            imports.getVendorString ? imports.getVendorString(__EGL_VENDOR_STRING_PLATFORM_EXTENSIONS) : nullptr;
        e.client_extensions = std::string(own ? own : "") + " " + (platforms ? platforms : "");
        e.source = lib;
        if (!complete(e)) {
            skipped += " " + lib + " (entry points missing)";
            continue;
        }
        ++slot;
        out.push_back(std::move(e));
    }
    if (out.empty() && why) *why = "no host EGL vendor library loads beside ours" + (skipped.empty() ? "" : ":" + skipped);
    return out;
}

}  // namespace mgl::espryt
