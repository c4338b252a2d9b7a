// Desktop GL state that a GLES 3.2 or Vulkan device has no place for, kept by
// the GL front end once for every backend (DESIGN §11): caps and values that
// are state only on such a device (GLES cube maps are always seamless), and
// the rules that say what the device must do for the rest (primitive restart
// on a fixed index, the provoking vertex). A backend asks `cap_route` before
// passing a glEnable/glDisable/glIsEnabled on, and `get` before a glGet*.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "proxy_textures.h"
#include "texture_targets.h"

namespace mgl::gl {

// What a desktop glEnable/glDisable of a cap is on a GLES-class device.
enum class CapRoute : uint8_t {
    host,        // the device has the cap under the same enum (GL_DEPTH_CLAMP through EXT_depth_clamp...)
    state_only,  // kept here and answered from here; the device behaves one fixed way (documented per cap)
    restart,     // GL_PRIMITIVE_RESTART: kept here, the device's fixed-index restart follows (restart_on_host)
    not_desktop, // not a desktop cap this front end knows: the device decides (GL_INVALID_ENUM)
};

CapRoute cap_route(uint32_t cap);

// GL_SAMPLES_PASSED: a GLES-class device counts no samples, it has only
// GL_ANY_SAMPLES_PASSED. An occlusion query of that target runs on the device
// as GL_ANY_SAMPLES_PASSED, so its result is 0 or 1 (any sample passed), not
// the count; GL_CURRENT_QUERY and the one-occlusion-query rules answer for the
// desktop target (DesktopState::samples_passed_query). Every other target
// unchanged.
inline constexpr uint32_t kSamplesPassed = 0x8914, kAnySamplesPassed = 0x8C2F,
                          kAnySamplesPassedConservative = 0x8D6A;
inline uint32_t device_query_target(uint32_t target) {
    return target == kSamplesPassed ? kAnySamplesPassed : target;
}
inline bool occlusion_target(uint32_t target) {
    return target == kSamplesPassed || target == kAnySamplesPassed || target == kAnySamplesPassedConservative;
}

inline constexpr int kMaxClipPlanes = 8;

struct DesktopState {
    bool seamless_cube_map = false;    // GL_TEXTURE_CUBE_MAP_SEAMLESS (GLES: always seamless)
    bool program_point_size = false;   // GL_PROGRAM_POINT_SIZE (GLES: the shader's gl_PointSize always)
    bool multisample = true;           // GL_MULTISAMPLE (GLES: on whenever the surface has samples)
    bool line_smooth = false, polygon_smooth = false;  // hints only on every modern driver
    bool primitive_restart = false;    // GL_PRIMITIVE_RESTART
    uint32_t restart_index = 0;        // GL_PRIMITIVE_RESTART_INDEX
    uint32_t provoking_vertex = 0x8E4E;  // GL_LAST_VERTEX_CONVENTION: GLES's only one
    uint32_t line_smooth_hint = 0x1100, polygon_smooth_hint = 0x1100, texture_compression_hint = 0x1100;  // GL_DONT_CARE
    // glPointSize: GLES takes a point's size from the vertex shader's
    // gl_PointSize only. Kept and answered here; a size other than 1 is said
    // once in the log by the device (points keep the shader's size).
    float point_size = 1;
    // GL_POINT_SPRITE_COORD_ORIGIN (GL_LOWER_LEFT: gl_PointCoord's t runs
    // upwards; a driver uniform, driver_uniforms.h) and
    // GL_POINT_FADE_THRESHOLD_SIZE (multisampled points only: state).
    bool point_lower_left = false;
    float point_fade_threshold = 1;
    // glClearColorIiEXT/IuiEXT (EXT_texture_integer): the clear colour as
    // integers, which glClear uses until the next glClearColor. A GLES device
    // clears integer buffers with glClearBuffer only.
    enum class ClearKind : uint8_t { floating, signed_int, unsigned_int };
    ClearKind clear_kind = ClearKind::floating;
    uint32_t clear_int[4] = {};
    // What glClear writes into one colour buffer whose components are
    // `buffer` (the clear colour's kind or the buffer's: a signed or unsigned
    // integer buffer takes the integer colour as it is, a normalized or float
    // buffer takes its values as floats, as Mesa converts; a floating colour
    // is written as floats, or as integers into an integer buffer), given the
    // glClearColor value: 32-bit words as a clear of that kind takes them.
    void clear_words(ClearKind buffer, const float clear_color[4], uint32_t out[4]) const;
    // The desktop bindings of GL_TEXTURE_1D, _1D_ARRAY and _RECTANGLE per unit
    // (texture_targets.h: they share the device's 2D / 2D array binding points).
    LoweredBindings lowered;
    // The query begun on GL_SAMPLES_PASSED (client name; 0: none), which the
    // device runs as GL_ANY_SAMPLES_PASSED (device_query_target). The device's
    // GL_CURRENT_QUERY of that target says whether it is still active (a
    // deleted query ends).
    uint32_t samples_passed_query = 0;
    // GL_PROXY_TEXTURE_* levels (proxy_textures.h): a device has no proxy textures.
    ProxyTextures proxies;
    // The queries first begun on GL_SAMPLES_PASSED: on the device they are
    // GL_ANY_SAMPLES_PASSED ones, yet beginning one on another target is
    // GL_INVALID_OPERATION (a query object keeps its first target), and so is
    // beginning another occlusion query on GL_SAMPLES_PASSED.
    std::set<uint32_t> samples_passed_objects, other_occlusion_objects;

    // glClipPlane: the user clip planes in eye space (vec4 each), as the
    // client's compatibility layer, which owns the modelview, sends them.
    // The vertex stages of compatibility programs clip against them through
    // a uniform the backend sets (shaders/driver_uniforms.h); the serial
    // changes with each plane set and is unique among all contexts, so a
    // program shared by two contexts is sent the planes of the one drawing.
    std::array<float, 4 * kMaxClipPlanes> clip_planes{};
    uint8_t clip_enabled = 0;  // GL_CLIP_PLANEi (GL_CLIP_DISTANCEi), which the device also has
    uint64_t clip_serial = 1;
    // False (GL_INVALID_ENUM) for a plane other than GL_CLIP_PLANE0..7.
    bool set_clip_plane(uint32_t plane, const double equation[4]);
    // A glEnable/glDisable of any cap (the backend passes the clip planes' on).
    void note_clip_enable(uint32_t cap, bool on);
    // The uniform's value: a disabled plane is zeros (a distance of 0 is
    // inside), since some devices (llvmpipe's GLES) clip by every distance
    // the shader writes, enabled or not.
    std::array<float, 4 * kMaxClipPlanes> clip_uniform() const;

    // glEnable/glDisable of a cap routed state_only or restart.
    void set_cap(uint32_t cap, bool on);
    // glIsEnabled of a cap routed state_only or restart.
    bool cap(uint32_t cap) const;
    // Whether the device's fixed-index restart (GL_PRIMITIVE_RESTART_FIXED_INDEX)
    // reproduces desktop restart for indices of `type`: the index is the
    // type's all ones. Otherwise a draw's indices are rewritten
    // (restart_at_all_ones) where the backend can read them.
    bool restart_is_fixed_for(uint32_t type) const;
    // glPointParameter* of a core context (the compatibility profile's size
    // limits and attenuation are the client's lowering's): GL's error
    // (GL_INVALID_ENUM / GL_INVALID_VALUE) with the reason, or 0 once set.
    uint32_t set_point_parameter(uint32_t pname, float value, const char** why);

    // The alpha test of a compatibility context, as the client sends it
    // (glAlphaFunc) before the draws of an application's program, which GL
    // alpha-tests too (the client sends GL_ALWAYS while GL_ALPHA_TEST is off;
    // the fixed-function lowering's own programs test alpha themselves).
    uint32_t alpha_func = 0x0207;  // GL_ALWAYS
    float alpha_ref = 0;           // clamped to [0, 1]
    // GL_INVALID_ENUM for a function other than GL_NEVER..GL_ALWAYS, else 0.
    uint32_t set_alpha_func(uint32_t func, float ref);
    // The driver uniform's value (kAlphaTestUniform): the function's code
    // (GL_NEVER 1 .. GL_GEQUAL 7; 0: every fragment passes) and the reference.
    std::array<float, 2> alpha_test_uniform() const;

    // glGet* of desktop-only state and constants that a GLES device does not
    // answer. Writes up to 4 values and their count; false for every other pname
    // (the device answers it). `host_line_range`/`host_point_range` are the
    // device's aliased ranges, which the smooth ranges equal here.
    // `compatibility`: the context's profile (quads' state exists only there).
    bool get(uint32_t pname, bool compatibility, const float host_line_range[2], const float host_point_range[2],
             double out[4], int* count) const;
    // glHint of a desktop-only target: kept here; false for the device's own targets.
    bool hint(uint32_t target, uint32_t mode);
};

// Indices widened to 32 bits: each equal to the desktop restart `index`
// becomes 0xFFFFFFFF, the index a fixed-index restart of 32-bit indices ends
// a primitive at.
void restart_at_all_ones(uint32_t index, uint32_t* ids, size_t n);

// Primitive restart on a list mode (points, lines, triangles and their
// adjacency forms), which Vulkan cannot restart: the `n` indices compacted in
// place to the complete primitives GL draws (each restart index ends the
// current primitive; vertices that did not complete one are dropped).
// `per_primitive`: the mode's vertices per primitive. Returns the count left.
size_t restart_lists(uint32_t restart, uint32_t per_primitive, uint32_t* ids, size_t n);

// The vertices per primitive of a list mode (GL_POINTS 1, GL_LINES 2,
// GL_TRIANGLES 3, GL_LINES_ADJACENCY 4, GL_TRIANGLES_ADJACENCY 6); 0 for
// strips, fans, loops and patches.
uint32_t list_vertices_per_primitive(uint32_t mode);

// The lengths of the runs of `n` indices (`index_size` bytes each) that a
// restart at `restart` separates (the restart indices themselves not
// counted): what a backend that counts captured primitives on the host
// counts each run's primitives of.
std::vector<size_t> restart_runs(const void* ids, uint32_t index_size, size_t n, uint32_t restart);

// Transform feedback: a desktop context captures every draw command while
// transform feedback is active (GL 3.0 2.15); ES 3.0 (2.15.2) only
// glDrawArrays and glDrawArraysInstanced, an indexed draw being
// GL_INVALID_OPERATION (ES 3.2 lifts that with geometry shaders).
inline bool xfb_captures_indexed_draws(bool desktop) { return desktop; }

// A captured draw of `prims` primitives of `per_primitive` bytes each into a
// buffer with `room` bytes left: ES 3.0 (2.15.2) makes an overflow
// GL_INVALID_OPERATION (false); desktop GL (4.6 §13.3.3) records the
// primitives that fit and drops the rest, uncounted by
// GL_PRIMITIVES_WRITTEN (`prims` lowered to them).
inline bool xfb_fit(bool desktop, uint64_t room, uint64_t per_primitive, uint64_t* prims) {
    if (per_primitive == 0 || *prims * per_primitive <= room) return true;
    if (!desktop) return false;
    *prims = room / per_primitive;
    return true;
}

}  // namespace mgl::gl
