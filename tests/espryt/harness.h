// Test harness for the Espryt backend: a client side (the generated
// Encoder writing into a MemoryLink) whose records are decoded into a real
// Espryt backend on this thread, and a native side (the same GL calls made
// directly on the host GLES through EGL) to compare pixels with.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gen/encoder.h"
#include "gen/replies.h"
#include "mgl/espryt/espryt.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/memory_link.h"

namespace espryt_test {

using namespace mgl;

struct Wire {
    wire::MemoryLink link{1 << 16, 1 << 16};
    gen::Encoder enc{&link};
    std::ostringstream log_text;
    std::shared_ptr<spdlog::logger> logger;
    std::unique_ptr<espryt::Espryt> backend;
    wire::Dispatch dispatch;
    std::string why;

    Wire() {
        auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log_text);
        sink->set_pattern("%v");
        logger = std::make_shared<spdlog::logger>("espryt-test", sink);
        espryt::Options o;
        o.logger = logger;
        backend = espryt::create(o, &why);
        dispatch.backend = backend.get();
        dispatch.replies = &link.replies;
        // A sync verb waits for its reply: apply what the client wrote so far.
        link.on_reply = [this](wire::MemoryLink&) { apply(); };
    }
    ~Wire() {
        if (backend) backend->release();
    }

    // Decodes every published record into the backend.
    wire::DecodeResult apply() {
        auto bytes = link.bytes();
        link.clear();
        backend->begin_span();  // as the server's session does before each span
        return wire::decode_stream(bytes, dispatch);
    }
    wire::DecodeResult flush() {
        enc.flush();
        return apply();
    }

    // The current context's GL error through the session verb.
    GLenum error() {
        enc.mglGetError();
        GLenum e = 0xFFFF;
        if (!gen::read_reply_mglGetError(enc.wait_reply(), &e)) return 0xFFFF;
        return e;
    }

    std::vector<uint8_t> read_surface(GLuint surface, int w, int h) {
        std::vector<uint8_t> px(size_t(w) * h * 4, 0xAB);
        enc.mglReadSurface(surface, 0, 0, w, h, uint32_t(px.size()));
        if (!gen::read_reply_mglReadSurface(enc.wait_reply(), px.data(), uint32_t(px.size()))) px.clear();
        return px;
    }

    std::vector<uint8_t> read_pixels(int w, int h) {
        std::vector<uint8_t> px(size_t(w) * h * 4, 0xAB);
        enc.glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, 0, uint32_t(px.size()));
        if (!gen::read_reply_glReadPixels(enc.wait_reply(), px.data(), uint32_t(px.size()))) px.clear();
        return px;
    }

    GLint get_integer(GLenum pname) {
        GLint v = -1;
        enc.glGetIntegerv(pname, sizeof v);
        if (!gen::read_reply_glGetIntegerv(enc.wait_reply(), &v, sizeof v)) return -12345;
        return v;
    }

    std::string get_string(GLenum name, GLint index = -1) {
        std::vector<char> buf(1 << 16);
        GLint len = 0;
        enc.mglGetString(name, index, GLsizei(buf.size()), uint32_t(buf.size()));
        if (!gen::read_reply_mglGetString(enc.wait_reply(), &len, reinterpret_cast<mgl::GLchar*>(buf.data()),
                                          uint32_t(buf.size())) || len < 0)
            return "<none>";
        return std::string(buf.data());
    }

    // Context + 64x64 RGBA8/D24S8 surface, current.
    void start(GLuint context = 1, GLuint surface = 1, int w = 64, int h = 64, GLenum kind = 0x3033) {
        enc.mglCreateContext(context, 0, 3, 0, 0, 0x30A0, 0);
        enc.mglCreateSurface(surface, kind, w, h, 8, 8, 8, 8, 24, 8, 0);
        enc.mglMakeCurrent(surface, surface, context);
    }

    size_t log_lines(const std::string& needle) const {
        std::string s = log_text.str();
        size_t n = 0;
        for (size_t at = 0; (at = s.find(needle, at)) != std::string::npos; at += needle.size()) ++n;
        return n;
    }
};

// Strings laid back to back, each NUL-terminated: how string lists travel.
inline std::string strings_blob(std::initializer_list<const char*> list) {
    std::string s;
    for (const char* p : list) s.append(p, std::strlen(p) + 1);
    return s;
}

// A GLES 3 context and pbuffer made directly on the host, current while it
// lives; the previous binding (the backend's) comes back afterwards.
struct Native {
    EGLDisplay dpy = EGL_NO_DISPLAY;
    EGLContext ctx = EGL_NO_CONTEXT;
    EGLSurface surf = EGL_NO_SURFACE;
    EGLDisplay prev_dpy;
    EGLContext prev_ctx;
    EGLSurface prev_draw, prev_read;

    Native(int w, int h) {
        prev_dpy = eglGetCurrentDisplay();
        prev_ctx = eglGetCurrentContext();
        prev_draw = eglGetCurrentSurface(EGL_DRAW);
        prev_read = eglGetCurrentSurface(EGL_READ);
        // The backend's display when its context is current (the same host
        // driver, whichever platform it chose), else Mesa surfaceless.
        dpy = prev_dpy;
        if (dpy == EGL_NO_DISPLAY) {
            auto get_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
            dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        }
        eglInitialize(dpy, nullptr, nullptr);
        eglBindAPI(EGL_OPENGL_ES_API);
        const EGLint ca[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_RED_SIZE, 8,
                             EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8,
                             EGL_NONE};
        EGLConfig configs[64];
        EGLint n = 0;
        eglChooseConfig(dpy, ca, configs, 64, &n);
        EGLConfig config = nullptr;
        for (EGLint i = 0; i < n && !config; ++i) {
            EGLint r, a, s;
            eglGetConfigAttrib(dpy, configs[i], EGL_RED_SIZE, &r);
            eglGetConfigAttrib(dpy, configs[i], EGL_ALPHA_SIZE, &a);
            eglGetConfigAttrib(dpy, configs[i], EGL_SAMPLES, &s);
            if (r == 8 && a == 8 && s == 0) config = configs[i];
        }
        const EGLint pa[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
        surf = eglCreatePbufferSurface(dpy, config, pa);
        const EGLint xa[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
        ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, xa);
        eglMakeCurrent(dpy, surf, surf, ctx);
    }
    bool ok() const { return ctx != EGL_NO_CONTEXT && surf != EGL_NO_SURFACE; }
    ~Native() {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        eglDestroySurface(dpy, surf);
        if (prev_ctx != EGL_NO_CONTEXT) eglMakeCurrent(prev_dpy, prev_draw, prev_read, prev_ctx);
    }
};

}  // namespace espryt_test
