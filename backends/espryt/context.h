// Server-side state of one client context and one client surface.
#pragma once

#include <EGL/egl.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "debug_output.h"
#include "desktop_state.h"
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

// One host image unit's binding (glBindImageTexture's arguments as the
// host answers them: image_unit_state.h reads and binds it).
struct HostImageUnit {
    int32_t name = 0, level = 0, layered = 0, layer = 0;
    int32_t access = 0x88B8, format = 0x8D82;  // GL_READ_ONLY, GL_R32UI (GLES's initial unit)
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
    // Desktop contexts get their shaders translated (desktop_shaders.cc).
    uint32_t api = 0x30A0;
    uint32_t profile = 0;
    int major = 2, minor = 0;
    int served = 0;
    bool desktop() const { return api == 0x30A2; }
    gl::DesktopState dstate;  // desktop-only state the host has no place for (desktop_state.cc)
    bool point_size_said = false;  // glPointSize other than 1 logged once
    // The host's GL_PRIMITIVE_RESTART_FIXED_INDEX, and whether the application
    // enabled it itself (restart_draw.cc).
    bool host_fixed_restart = false, app_fixed_restart = false;
    uint8_t provoking_said = 0;    // provoking_draw.cc: which kind of unrewritten draw was logged
    std::shared_ptr<ShareGroup> share;
    NameMap own[kKindCount - int(Kind::framebuffer)];  // per-context kinds
    NameMap* maps[kKindCount] = {};                     // every kind, shared or own
    bool debug = false;
    bool robust_asked = false;  // the client asked for robust access (the host context may be robust anyway)

    // Filled the first time the context is current (needs the host context).
    bool ready = false;
    // The host clips by 8 gl_ClipDistance outputs (GL_EXT_clip_cull_distance):
    // user clip planes with a shader are lowered onto them (compat_builtins.h).
    bool host_clip_distance = false;
    std::vector<uint8_t> avail;            // hidx -> host has the verb
    std::vector<std::string> extensions;   // what the client is told
    std::string extension_string;

    // The pixel store, mirrored to size inline images without asking the host.
    // Which buffer backs a pointer argument is never mirrored: the host's own
    // bindings decide (Core::bound), so a mirror that drifted from the host
    // cannot turn an offset into a pointer.
    PixelStore unpack, pack;
    // Desktop GL_UNPACK_SWAP_BYTES: not a host state; uploads are converted
    // (desktop_uploads.cc) while it is set.
    bool unpack_swap = false;
    // The current vertex array's enabled attributes were checked against the
    // host since the last verb that can change which buffer one of them reads
    // (the generated pass-through clears it; Core::arrays_safe sets it).
    // Checked at share->buffer_epoch; 0: not since the last change.
    uint64_t arrays_checked = 0;
    int32_t max_attribs = -1;  // GL_MAX_VERTEX_ATTRIBS, asked once
    // Vertex attributes a GLES host cannot read (converted_arrays.cc):
    // GL_DOUBLE ones and GL_BGRA ones, by (host vertex array, index): where the
    // application's data is; the host attribute reads `copy`, its conversion
    // (floats; bytes or packed words in RGBA order), which each draw refreshes.
    struct ConvertedArray {
        uint32_t source = 0;  // host buffer
        uint64_t offset = 0;
        int32_t stride = 0;   // bytes between vertices (never 0)
        int32_t size = 0;     // components, 1-4 (4 for GL_BGRA)
        uint32_t copy = 0;    // host buffer of the converted vertices
        uint32_t type = 0x140A;  // the application's: GL_DOUBLE, or a GL_BGRA array's GL_UNSIGNED_BYTE / 2_10_10_10 type
    };
    std::map<std::pair<uint32_t, uint32_t>, ConvertedArray> converted_arrays;
    bool converted_read_said = false;  // a source that could not be read, logged once
    int32_t max_image_units = -1;  // GL_MAX_IMAGE_UNITS, asked once (unit_routing.cc)
    // Likewise for the indexed buffer ranges shaders read and write (uniform,
    // storage, atomic counter, transform feedback), checked against their
    // buffers' sizes: a buffer re-specified smaller (by any context of the
    // share group) keeps its ranges.
    uint64_t ranges_checked = 0;
    int32_t max_ranges[4] = {-1, -1, -1, -1};  // per indexed target, asked once

    // Host image units and storage buffer bindings a routed draw or dispatch
    // gave another unit's content (unit_routing.cc), with what the
    // application has there: put back before the next draw, query or bind.
    struct DisplacedImage {
        uint32_t unit;
        HostImageUnit was;
    };
    struct DisplacedBuffer {
        uint32_t index;
        int32_t name;
        int64_t start, size;
    };
    std::vector<DisplacedImage> displaced_images;
    std::vector<DisplacedBuffer> displaced_buffers;
    bool displaced = false;  // either list is not empty
    // Image units the application bound: an unbound one reports desktop GL's
    // initial GL_IMAGE_BINDING_FORMAT (GL_R8; GLES's is GL_R32UI).
    std::vector<bool> image_units_bound;

    uint32_t pending_error = 0;  // first error raised by the backend itself
    // The debug messages of errors Espryt raises itself (the host never saw
    // those calls), read before the host's log (queries.cc). Logged while the
    // host's GL_DEBUG_OUTPUT is on; glDebugMessageControl's filter is the host's
    // and does not apply to them.
    gl::DebugOutput own_debug{true};
    uint32_t draw = 0, read = 0; // client surfaces bound by the last make-current
    bool doomed = false;         // destroyed by the client while current

    explicit Context(std::shared_ptr<ShareGroup> group) : share(std::move(group)) {
        for (int k = 0; k < kKindCount; ++k)
            maps[k] = is_shared(Kind(k)) ? &share->shared[k] : &own[k - int(Kind::framebuffer)];
    }
};

}  // namespace mgl::espryt
