// The process-wide host EGL display: platform choice, the best GLES version
// the host offers, pbuffer configs, and the loaded host GL entry points.
//
// Initialised once per process and never terminated: eglTerminate would pull
// the display from under every other session of the server.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <string>

namespace mgl::espryt {

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

// EGL error code as text ("EGL_BAD_MATCH").
const char* egl_error_name(EGLint e);

}  // namespace mgl::espryt
