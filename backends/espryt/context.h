// Server-side state of one client context and one client surface.
#pragma once

#include <EGL/egl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "names.h"
#include "pixels.h"

namespace mgl::espryt {

// Binding points whose content decides what a pointer argument means: an
// offset into the bound buffer, or client memory. Spelled as the schema's
// `source` annotation so that generated code can name them.
enum class Src : uint8_t {
    array_buffer,
    element_array_buffer,
    pixel_pack_buffer,
    pixel_unpack_buffer,
    draw_indirect_buffer,
    count
};

// A client surface is a host pbuffer (docs/ARCHITECTURE-espryt.md says why).
struct Surface {
    uint32_t id = 0;
    EGLSurface egl = EGL_NO_SURFACE;
    EGLConfig config = nullptr;
    int width = 0, height = 0;
    bool window = false;  // frames are presented at swap
    // Window surfaces: the last swapped frame (RGBA8, bottom row first).
    std::vector<uint8_t> front;
    int front_width = 0, front_height = 0;
    uint64_t frame = 0;
};

struct Context {
    uint32_t id = 0;
    EGLContext egl = EGL_NO_CONTEXT;  // always a host GLES 3.x context, desktop clients included
    // What the client asked for (mglCreateContext): api 0x30A0 EGL_OPENGL_ES_API
    // or 0x30A2 EGL_OPENGL_API; profile 1 core / 2 compatibility (0 for ES);
    // the requested version. `served` is the version it gets (major*10+minor):
    // the host's ES version, or the desktop version desktop_caps.h derives from it.
    uint32_t api = 0x30A0;
    uint32_t profile = 0;
    int major = 2, minor = 0;
    int served = 0;
    bool desktop() const { return api == 0x30A2; }
    std::shared_ptr<ShareGroup> share;
    NameMap own[kKindCount - int(Kind::framebuffer)];  // per-context kinds
    NameMap* maps[kKindCount] = {};                     // every kind, shared or own
    bool debug = false;
    bool robust_asked = false;  // the client asked for robust access (the host context may be robust anyway)

    // Filled the first time the context is current (needs the host context).
    bool ready = false;
    std::vector<uint8_t> avail;            // hidx -> host has the verb
    std::vector<std::string> extensions;   // what the client is told
    std::string extension_string;

    // State mirrored to check pointer arguments without asking the host.
    PixelStore unpack, pack;
    uint32_t bound[int(Src::count)] = {};  // client buffer names (element array: of the current VAO)
    uint32_t vertex_array = 0;             // current client VAO
    std::unordered_map<uint32_t, uint32_t> vao_elements;  // client VAO -> element buffer

    uint32_t pending_error = 0;  // first error raised by the backend itself
    uint32_t draw = 0, read = 0; // client surfaces bound by the last make-current
    bool doomed = false;         // destroyed by the client while current

    explicit Context(std::shared_ptr<ShareGroup> group) : share(std::move(group)) {
        for (int k = 0; k < kKindCount; ++k)
            maps[k] = is_shared(Kind(k)) ? &share->shared[k] : &own[k - int(Kind::framebuffer)];
    }
};

}  // namespace mgl::espryt
