// The Espryt backend: GL ES 2.0-3.2 served by the host's GLES 3.x driver
// through EGL (surfaceless or device platform, headless).
//
// Threading: one backend per session, used by that session's apply thread
// only. Creating it makes nothing current and may happen on any thread; the
// host EGL contexts are made current on the first thread that applies a
// session verb, and every later call must come from that same thread. Call
// release() on that thread before it exits (the destructor does it too when
// it runs there), so that no host context stays bound to a dead thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "gen/backend.h"

namespace spdlog {
class logger;
}

namespace mgl::espryt {

struct Options {
    // Where the backend logs (unsupported verbs, refused arguments, EGL
    // failures). nullptr: spdlog's default logger.
    std::shared_ptr<spdlog::logger> logger;
};

// A frame of a window surface, presented at mglSwapBuffers: RGBA8, bottom row
// first, tightly packed. Valid during the callback only.
struct Frame {
    uint32_t surface = 0;
    uint64_t frame = 0;  // the client's swap counter
    int width = 0, height = 0;
    const uint8_t* rgba = nullptr;
};
using PresentFn = std::function<void(const Frame&)>;

class Espryt : public Backend {
public:
    // The first GL error of the current context since the last call (GL
    // glGetError semantics: errors the backend raised itself, e.g. refused
    // arguments or unsupported verbs, and the host driver's). Costs one host
    // glGetError, so it is meant to be called when the application asks
    // (session verb mglGetError), never per record. 0 = GL_NO_ERROR.
    virtual uint32_t take_error() = 0;

    // Called at each mglSwapBuffers of a window surface with the finished
    // frame (the presentation seam; runs on the apply thread).
    virtual void set_present(PresentFn fn) = 0;

    // Ends the session on the host: unbinds and destroys every host context
    // and surface. Call it on the apply thread; later verbs find no context.
    virtual void release() = 0;
};

// Whether this machine can run the backend at all (host EGL display, a GLES
// 3.x context). On failure `why` says what is missing. Thread-safe; the
// first call initialises the process-wide host display.
bool host_available(std::string* why = nullptr);

// For Espryt inside our own glvnd EGL vendor library, decoding on the
// application's thread (the direct transport): glvnd's current context on
// that thread is the application's (ours), so the host's vendor libraries are
// loaded beside glvnd and called through their own entry points. Pass what
// glvnd gave our __egl_Main. Call before the first host_available()/create();
// false when the host display was already opened through libEGL.
bool use_host_vendor_library(const void* glvnd_exports, void* glvnd_vendor);

// Sets the calling thread up for the host driver ahead of a session: makes a
// throwaway host context current once and lets it go. NVIDIA's driver takes
// 22-28 ms at a thread's first eglMakeCurrent (H100, 2026-12-05), which a
// session on a fresh thread would pay inside the program's eglMakeCurrent.
// The server runs it on each new session thread (ServerOptions::warm_thread).
// Does nothing when the host is unusable. Not on the application's thread.
void warm_thread();

// A backend for one session; nullptr (and `why`) when the host is unusable.
std::unique_ptr<Espryt> create(const Options& options = {}, std::string* why = nullptr);

}  // namespace mgl::espryt
