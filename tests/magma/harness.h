// Test harness for the Magma backend: a client side (the generated Encoder
// writing into a MemoryLink) whose records are decoded into a real Magma
// backend (Vulkan; lavapipe here), and a native side (the same GL calls made
// on the host GLES through EGL: llvmpipe here) to compare pixels with.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gen/encoder.h"
#include "gen/replies.h"
#include "mgl/magma/magma.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/memory_link.h"

namespace magma_test {

using namespace mgl;

struct Wire {
    wire::MemoryLink link{1 << 20, 1 << 20};
    gen::Encoder enc{&link};
    std::ostringstream log_text;
    std::shared_ptr<spdlog::logger> logger;
    std::unique_ptr<magma::Magma> backend;
    wire::Dispatch dispatch;
    std::string why;

    Wire() {
        auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log_text);
        sink->set_pattern("%v");
        logger = std::make_shared<spdlog::logger>("magma-test", sink);
        magma::Options o;
        o.logger = logger;
        backend = magma::create(o, &why);
        dispatch.backend = backend.get();
        dispatch.replies = &link.replies;
        link.on_reply = [this](wire::MemoryLink&) { apply(); };
    }
    ~Wire() {
        if (backend) backend->release();
    }
    wire::DecodeResult apply() {
        auto bytes = link.bytes();
        link.clear();
        wire::DecodeResult r = wire::decode_stream(bytes, dispatch);
        if (!r.ok()) ++decode_failures;  // records after the failure were dropped: the test must see it
        return r;
    }
    int decode_failures = 0;
    wire::DecodeResult flush() {
        enc.flush();
        return apply();
    }
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
    std::string get_string(GLenum name) {
        std::vector<char> buf(1 << 16);
        GLint len = 0;
        enc.mglGetString(name, -1, GLsizei(buf.size()), uint32_t(buf.size()));
        if (!gen::read_reply_mglGetString(enc.wait_reply(), &len, reinterpret_cast<mgl::GLchar*>(buf.data()),
                                          uint32_t(buf.size())) || len < 0)
            return "<none>";
        return std::string(buf.data());
    }
    void start(GLuint context = 1, GLuint surface = 1, int w = 64, int h = 64, GLenum kind = 0x3033) {
        enc.mglCreateContext(context, 0, 3, 0, 0, 0x30A0, 0);
        enc.mglCreateSurface(surface, kind, w, h, 8, 8, 8, 8, 24, 8, 0);
        enc.mglMakeCurrent(surface, surface, context);
    }
    // What the backend logged but the line naming the device: warnings, refusals.
    std::string log_without_device() const {
        std::istringstream lines(log_text.str());
        std::string out;
        for (std::string l; std::getline(lines, l);)
            if (l.rfind("magma: Vulkan device", 0) != 0) out += l + "\n";
        return out;
    }
    size_t log_lines(const std::string& needle) const {
        std::string s = log_text.str();
        size_t n = 0;
        for (size_t at = 0; (at = s.find(needle, at)) != std::string::npos; at += needle.size()) ++n;
        return n;
    }
};

inline std::string strings_blob(std::initializer_list<const char*> list) {
    std::string s;
    for (const char* p : list) s.append(p, std::strlen(p) + 1);
    return s;
}

// A GLES 3 context and pbuffer made directly on the host (Mesa surfaceless:
// llvmpipe), current while it lives; `samples`: the config's EGL_SAMPLES.
struct Native {
    EGLDisplay dpy = EGL_NO_DISPLAY;
    EGLContext ctx = EGL_NO_CONTEXT;
    EGLSurface surf = EGL_NO_SURFACE;

    Native(int w, int h, int samples = 0) {
        auto get_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
        dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
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
            if (r == 8 && a == 8 && s == samples) config = configs[i];
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
    }
};

// How two RGBA8 images differ: the largest channel difference and how many
// pixels differ by more than `tolerance` in some channel.
struct Diff {
    int max_channel = 0;
    size_t pixels_over = 0;
    size_t pixels = 0;
};
inline Diff compare(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int tolerance) {
    Diff d;
    if (a.size() != b.size()) {
        d.max_channel = 256;
        return d;
    }
    d.pixels = a.size() / 4;
    for (size_t i = 0; i < a.size(); i += 4) {
        int m = 0;
        for (int c = 0; c < 4; ++c) m = std::max(m, std::abs(int(a[i + c]) - int(b[i + c])));
        d.max_channel = std::max(d.max_channel, m);
        d.pixels_over += m > tolerance;
    }
    return d;
}

// MAGMA_TEST_DUMP=prefix writes both images as PPM files to look at.
inline void dump(const char* name, const std::vector<uint8_t>& px, int w, int h) {
    const char* prefix = std::getenv("MAGMA_TEST_DUMP");
    if (!prefix || px.size() < size_t(w) * h * 4) return;
    std::string path = std::string(prefix) + name + ".ppm";
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fprintf(f, "P6 %d %d 255\n", w, h);
        for (int y = h - 1; y >= 0; --y)
            for (int x = 0; x < w; ++x) std::fwrite(&px[(size_t(y) * w + x) * 4], 1, 3, f);
        std::fclose(f);
    }
}

}  // namespace magma_test
