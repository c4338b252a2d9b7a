// The process-wide host EGL display: platform choice, the best GLES version
// the host offers, pbuffer configs, and the loaded host GL entry points.
//
// Initialised once per process and never terminated: eglTerminate would pull
// the display from under every other session of the server.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <mutex>
#include <string>

namespace mgl::espryt {

// The host EGL entry points Espryt calls. Normally the process's libEGL
// (glvnd, linked); on the application's own thread inside our glvnd vendor
// library (the direct transport), the host vendor library's own functions,
// because glvnd keeps one current context per thread and that one is ours
// (host_vendor.h). Filled once by host_display(); read-only after.
struct HostEgl {
    PFNEGLGETERRORPROC GetError = nullptr;
    PFNEGLQUERYSTRINGPROC QueryString = nullptr;
    PFNEGLINITIALIZEPROC Initialize = nullptr;
    PFNEGLBINDAPIPROC BindAPI = nullptr;
    PFNEGLQUERYAPIPROC QueryAPI = nullptr;
    PFNEGLCHOOSECONFIGPROC ChooseConfig = nullptr;
    PFNEGLGETCONFIGATTRIBPROC GetConfigAttrib = nullptr;
    PFNEGLCREATECONTEXTPROC CreateContext = nullptr;
    PFNEGLDESTROYCONTEXTPROC DestroyContext = nullptr;
    PFNEGLMAKECURRENTPROC MakeCurrent = nullptr;
    PFNEGLGETCURRENTCONTEXTPROC GetCurrentContext = nullptr;
    PFNEGLGETCURRENTDISPLAYPROC GetCurrentDisplay = nullptr;
    PFNEGLGETCURRENTSURFACEPROC GetCurrentSurface = nullptr;
    PFNEGLCREATEPBUFFERSURFACEPROC CreatePbufferSurface = nullptr;
    PFNEGLDESTROYSURFACEPROC DestroySurface = nullptr;
    PFNEGLSWAPBUFFERSPROC SwapBuffers = nullptr;
    PFNEGLQUERYDEVICESEXTPROC QueryDevicesEXT = nullptr;            // may be null
    PFNEGLQUERYDEVICESTRINGEXTPROC QueryDeviceStringEXT = nullptr;  // may be null
    // eglGetPlatformDisplay without attributes (glvnd's vendor ABI has its own).
    EGLDisplay (*GetPlatformDisplay)(EGLenum platform, void* native) = nullptr;
    // EGL and GL entry points by name (eglGetProcAddress).
    void* (*GetProcAddress)(const char* name) = nullptr;
    std::string client_extensions;  // EGL_NO_DISPLAY's extensions, platforms included
    std::string source;             // "libEGL" or the vendor library's name, for logs
};

extern HostEgl host_egl;

struct HostDisplay {
    EGLDisplay dpy = EGL_NO_DISPLAY;
    std::string platform;     // "surfaceless" or "device"
    int es_major = 3, es_minor = 0;
    bool robust = false;      // EGL_EXT_create_context_robustness
    std::string renderer;     // host GL_RENDERER, for our own strings
    std::string vendor;       // host GL_VENDOR

    // A pbuffer-capable config for a client surface: exact color channels
    // when the host has them, at least the requested depth/stencil/samples.
    EGLConfig choose_config(int r, int g, int b, int a, int depth, int stencil, int samples) const;

    // A context of the host's best GLES version (no config: any surface fits).
    EGLContext create_context(EGLContext share, bool debug) const;
};

// nullptr with `why` when the host has no usable EGL/GLES 3.x. Thread-safe.
const HostDisplay* host_display(std::string* why = nullptr);

// Mesa's llvmpipe (22.x) crashes a process that renders with contexts on
// several threads at once: in a server of many sessions, a context going
// while another thread renders faulted in swrast_dri.so (dmesg: one address,
// in a loop over a list of pointers), about once per thousand piglit sessions.
// On such a host every session applies its spans, tears its contexts down
// and warms threads (warm_thread) under this one lock; a GPU driver's
// sessions run freely (nullptr). MOBILEGL_SERIALIZE_SESSIONS=1/0 forces it
// either way.
std::mutex* host_serialization_lock(const HostDisplay& host);

// Whether space-separated `list` (an extension string; may be null) holds `word`.
bool has_word(const char* list, const char* word);

// EGL error code as text ("EGL_BAD_MATCH").
const char* egl_error_name(EGLint e);

}  // namespace mgl::espryt
