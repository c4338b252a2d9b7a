// Session verbs about surfaces: each client surface is a host pbuffer
// (docs/ARCHITECTURE-espryt.md). Readback and frame capture go through the
// backend's own internal context so that no client binding or pixel-store
// state is disturbed.
#include <GLES3/gl32.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

#include "backend.h"

namespace mgl::espryt {

namespace {
constexpr GLenum kWindowSurface = 0x3034;
constexpr int kMaxSide = 16384;

EGLSurface make_pbuffer(const HostDisplay& host, EGLConfig config, int w, int h) {
    const EGLint attribs[] = {EGL_WIDTH, std::clamp(w, 1, kMaxSide), EGL_HEIGHT, std::clamp(h, 1, kMaxSide), EGL_NONE};
    return host_egl.CreatePbufferSurface(host.dpy, config, attribs);
}
}  // namespace

void EsprytBackend::destroy_surface(Surface& s) {
    if (s.egl != EGL_NO_SURFACE) host_egl.DestroySurface(host_.dpy, s.egl);
    s.egl = EGL_NO_SURFACE;
}

void EsprytBackend::mglCreateSurface(GLuint surface, GLenum kind, GLint width, GLint height, GLint red, GLint green,
                                     GLint blue, GLint alpha, GLint depth, GLint stencil, GLint samples) {
    if (surface == 0 || surfaces_.count(surface)) {
        session_error("mglCreateSurface", fmt::format("surface name {} is 0 or in use", surface));
        return;
    }
    auto s = std::make_unique<Surface>();
    s->id = surface;
    s->window = kind == kWindowSurface;
    s->config = host_.choose_config(red, green, blue, alpha, depth, stencil, samples);
    if (!s->config) {
        session_error("mglCreateSurface", "host has no pbuffer config for GLES 3");
        return;
    }
    s->egl = make_pbuffer(host_, s->config, width, height);
    if (s->egl == EGL_NO_SURFACE) {
        session_error("mglCreateSurface", std::string("host eglCreatePbufferSurface failed: ") + egl_error_name(host_egl.GetError()));
        return;
    }
    s->width = std::clamp(width, 1, kMaxSide);
    s->height = std::clamp(height, 1, kMaxSide);
    surfaces_[surface] = std::move(s);
}

void EsprytBackend::mglResizeSurface(GLuint surface, GLint width, GLint height) {
    auto it = surfaces_.find(surface);
    if (it == surfaces_.end()) {
        session_error("mglResizeSurface", fmt::format("surface {} does not exist", surface));
        return;
    }
    Surface& s = *it->second;
    const int w = std::clamp(width, 1, kMaxSide), h = std::clamp(height, 1, kMaxSide);
    if (w == s.width && h == s.height) return;
    // A pbuffer has a fixed size: a new one replaces it (its content is
    // undefined after a resize, as a window's is).
    EGLSurface fresh = make_pbuffer(host_, s.config, w, h);
    if (fresh == EGL_NO_SURFACE) {
        session_error("mglResizeSurface", std::string("host eglCreatePbufferSurface failed: ") + egl_error_name(host_egl.GetError()));
        return;
    }
    EGLSurface old = s.egl;
    s.egl = fresh;
    s.width = w;
    s.height = h;
    if (draw_ == &s || read_ == &s) bind(cur_, draw_, read_);  // rebind the new pbuffer
    host_egl.DestroySurface(host_.dpy, old);
}

void EsprytBackend::mglDestroySurface(GLuint surface) {
    auto it = surfaces_.find(surface);
    if (it == surfaces_.end()) {
        session_error("mglDestroySurface", fmt::format("surface {} does not exist", surface));
        return;
    }
    if (draw_ == it->second.get() || read_ == it->second.get()) doomed_surfaces_.push_back(std::move(it->second));
    else destroy_surface(*it->second);
    surfaces_.erase(it);
}

bool EsprytBackend::internal_current(Surface& s) {
    if (internal_ == EGL_NO_CONTEXT) {
        internal_ = host_.create_context(EGL_NO_CONTEXT, false);
        if (internal_ == EGL_NO_CONTEXT) {
            session_error("readback", std::string("cannot create the internal context: ") + egl_error_name(host_egl.GetError()));
            return false;
        }
    }
    if (!make_current(s.egl, s.egl, internal_)) {
        session_error("readback", std::string("cannot bind the internal context: ") + egl_error_name(host_egl.GetError()));
        restore_current();
        return false;
    }
    return true;
}

void EsprytBackend::restore_current() {
    make_current(draw_ ? draw_->egl : EGL_NO_SURFACE, read_ ? read_->egl : EGL_NO_SURFACE,
                 cur_ ? cur_->egl : EGL_NO_CONTEXT);
}

bool EsprytBackend::read_surface_pixels(Surface& s, int x, int y, int w, int h, uint8_t* out) {
    if (!internal_current(s)) return false;
    // The internal context keeps GL's defaults: framebuffer 0, pack
    // alignment 4 (RGBA8 rows are tight), no pack buffer.
    host_gl.glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    restore_current();
    return true;
}

void EsprytBackend::mglSwapBuffers(GLuint surface, GLuint64 frame) {
    auto it = surfaces_.find(surface);
    if (it == surfaces_.end()) {
        session_error("mglSwapBuffers", fmt::format("surface {} does not exist", surface));
        return;
    }
    Surface& s = *it->second;
    if (!s.window) {
        // A pbuffer swap is the host's own eglSwapBuffers, whatever the host
        // makes of it (EGL: no effect; Mesa does nothing, not even a flush),
        // so the host sees what the native program's swap would give it.
        if (cur_ && draw_ == &s && !host_egl.SwapBuffers(host_.dpy, s.egl) && !pbuffer_swap_failed_) {
            pbuffer_swap_failed_ = true;  // said once: it is the same every frame
            session_error("mglSwapBuffers", std::string("host eglSwapBuffers on a pbuffer failed (ignored: it has no "
                                                         "effect on a pbuffer): ") + egl_error_name(host_egl.GetError()));
        }
        return;
    }
    // Keep the finished frame: the back buffer is the next frame's canvas.
    s.front.resize(size_t(s.width) * s.height * 4);
    if (!read_surface_pixels(s, 0, 0, s.width, s.height, s.front.data())) return;
    s.front_width = s.width;
    s.front_height = s.height;
    s.frame = frame;
    if (present_) present_(Frame{s.id, frame, s.width, s.height, s.front.data()});
}

void EsprytBackend::mglReadSurface(GLuint surface, GLint x, GLint y, GLint width, GLint height,
                                   wire::Out<GLubyte> pixels) {
    auto it = surfaces_.find(surface);
    if (it == surfaces_.end()) {
        session_error("mglReadSurface", fmt::format("surface {} does not exist", surface));
        return;
    }
    Surface& s = *it->second;
    if (width <= 0 || height <= 0 || uint64_t(width) * uint64_t(height) * 4 > pixels.size) return;
    // A window shows its last swapped frame; before the first swap, or for a
    // pbuffer, the current content is read.
    const bool front = s.window && !s.front.empty();
    const int sw = front ? s.front_width : s.width, sh = front ? s.front_height : s.height;
    // Only the part inside the surface is read; the rest of the reply stays zero.
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = int(std::min<int64_t>(int64_t(x) + width, sw)), y1 = int(std::min<int64_t>(int64_t(y) + height, sh));
    if (x0 >= x1 || y0 >= y1) return;
    const size_t row = size_t(width) * 4;
    if (front) {
        for (int r = y0; r < y1; ++r)
            std::memcpy(pixels.data + size_t(r - y) * row + size_t(x0 - x) * 4,
                        s.front.data() + (size_t(r) * sw + x0) * 4, size_t(x1 - x0) * 4);
        return;
    }
    if (x0 == x && y0 == y && x1 - x0 == width && y1 - y0 == height) {
        read_surface_pixels(s, x, y, width, height, pixels.data);
        return;
    }
    frame_.resize(size_t(x1 - x0) * (y1 - y0) * 4);
    if (!read_surface_pixels(s, x0, y0, x1 - x0, y1 - y0, frame_.data())) return;
    for (int r = y0; r < y1; ++r)
        std::memcpy(pixels.data + size_t(r - y) * row + size_t(x0 - x) * 4,
                    frame_.data() + size_t(r - y0) * (x1 - x0) * 4, size_t(x1 - x0) * 4);
}

}  // namespace mgl::espryt
