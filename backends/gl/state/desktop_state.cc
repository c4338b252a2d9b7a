#include "desktop_state.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace mgl::gl {

namespace {
// Desktop enums that GLES headers do not carry.
constexpr uint32_t kMultisample = 0x809D, kLineSmooth = 0x0B20, kPolygonSmooth = 0x0B41,
                   kProgramPointSize = 0x8642, kSeamless = 0x884F, kPrimitiveRestart = 0x8F9D,
                   kPrimitiveRestartIndex = 0x8F9E, kPointSize = 0x0B11, kProvokingVertex = 0x8E4F, kDepthClamp = 0x864F,
                   kFramebufferSrgb = 0x8DB9, kClipDistance0 = 0x3000, kClipDistance7 = 0x3007,
                   kLineSmoothHint = 0x0C52, kPolygonSmoothHint = 0x0C53, kTextureCompressionHint = 0x84EF,
                   kSmoothLineWidthRange = 0x0B22, kSmoothLineWidthGranularity = 0x0B23, kPointSizeRange = 0x0B12,
                   kPointSizeGranularity = 0x0B13, kDoublebuffer = 0x0C32, kStereo = 0x0C33,
                   kQuadsFollowProvoking = 0x8E4C, kAuxBuffers = 0x0C00, kPointSpriteCoordOrigin = 0x8CA0,
                   kPointFadeThresholdSize = 0x8128, kLowerLeft = 0x8CA1, kUpperLeft = 0x8CA2;
// DesktopState::clip_serial: unique among every context of the process.
std::atomic<uint64_t> clip_serials{1};
}  // namespace

CapRoute cap_route(uint32_t cap) {
    switch (cap) {
        case kDepthClamp:
        case kFramebufferSrgb: return CapRoute::host;  // EXT_depth_clamp, EXT_sRGB_write_control: same enums
        case kSeamless:
        case kProgramPointSize:
        case kMultisample:
        case kLineSmooth:
        case kPolygonSmooth: return CapRoute::state_only;
        case kPrimitiveRestart: return CapRoute::restart;
        default:
            if (cap >= kClipDistance0 && cap <= kClipDistance7) return CapRoute::host;  // EXT_clip_cull_distance
            return CapRoute::not_desktop;
    }
}

void DesktopState::set_cap(uint32_t cap, bool on) {
    switch (cap) {
        case kSeamless: seamless_cube_map = on; break;
        case kProgramPointSize: program_point_size = on; break;
        case kMultisample: multisample = on; break;
        case kLineSmooth: line_smooth = on; break;
        case kPolygonSmooth: polygon_smooth = on; break;
        case kPrimitiveRestart: primitive_restart = on; break;
        default: break;
    }
}

bool DesktopState::cap(uint32_t c) const {
    switch (c) {
        case kSeamless: return seamless_cube_map;
        case kProgramPointSize: return program_point_size;
        case kMultisample: return multisample;
        case kLineSmooth: return line_smooth;
        case kPolygonSmooth: return polygon_smooth;
        case kPrimitiveRestart: return primitive_restart;
        default: return false;
    }
}

bool DesktopState::set_clip_plane(uint32_t plane, const double equation[4]) {
    constexpr uint32_t kClipPlane0 = 0x3000;
    if (plane < kClipPlane0 || plane >= kClipPlane0 + kMaxClipPlanes) return false;
    for (int i = 0; i < 4; ++i) clip_planes[size_t(4 * (plane - kClipPlane0) + i)] = float(equation[i]);
    clip_serial = ++clip_serials;
    return true;
}

void DesktopState::note_clip_enable(uint32_t cap, bool on) {
    if (cap < kClipDistance0 || cap > kClipDistance7) return;
    const uint8_t bit = uint8_t(1u << (cap - kClipDistance0));
    const uint8_t next = on ? uint8_t(clip_enabled | bit) : uint8_t(clip_enabled & ~bit);
    if (next == clip_enabled) return;
    clip_enabled = next;
    clip_serial = ++clip_serials;
}

std::array<float, 4 * kMaxClipPlanes> DesktopState::clip_uniform() const {
    std::array<float, 4 * kMaxClipPlanes> v{};
    for (int p = 0; p < kMaxClipPlanes; ++p)
        if (clip_enabled & (1u << p))
            for (int i = 0; i < 4; ++i) v[size_t(4 * p + i)] = clip_planes[size_t(4 * p + i)];
    return v;
}

bool DesktopState::restart_is_fixed_for(uint32_t type) const {
    switch (type) {
        case 0x1401: return restart_index == 0xFFu;    // GL_UNSIGNED_BYTE
        case 0x1403: return restart_index == 0xFFFFu;  // GL_UNSIGNED_SHORT
        default: return restart_index == 0xFFFFFFFFu;
    }
}

std::vector<size_t> restart_runs(const void* ids, uint32_t index_size, size_t n, uint32_t restart) {
    std::vector<size_t> runs;
    const auto* b = static_cast<const uint8_t*>(ids);
    size_t run = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t v = 0;
        if (index_size == 1) v = b[i];
        else if (index_size == 2) v = [&] { uint16_t s; std::memcpy(&s, b + 2 * i, 2); return uint32_t(s); }();
        else std::memcpy(&v, b + 4 * i, 4);
        if (v == restart) {
            runs.push_back(run);
            run = 0;
        } else {
            ++run;
        }
    }
    runs.push_back(run);
    return runs;
}

void restart_at_all_ones(uint32_t index, uint32_t* ids, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (ids[i] == index) ids[i] = 0xFFFFFFFFu;
}

size_t restart_lists(uint32_t restart, uint32_t per_primitive, uint32_t* ids, size_t n) {
    size_t out = 0, start = 0;  // start: where the current primitive began in the output
    for (size_t i = 0; i < n; ++i) {
        if (ids[i] == restart) {
            out = start;  // an incomplete primitive is dropped
            continue;
        }
        ids[out++] = ids[i];
        if (out - start == per_primitive) start = out;
    }
    return start;
}

uint32_t list_vertices_per_primitive(uint32_t mode) {
    switch (mode) {
        case 0x0000: return 1;  // GL_POINTS
        case 0x0001: return 2;  // GL_LINES
        case 0x0004: return 3;  // GL_TRIANGLES
        case 0x000A: return 4;  // GL_LINES_ADJACENCY
        case 0x000C: return 6;  // GL_TRIANGLES_ADJACENCY
        default: return 0;
    }
}

uint32_t DesktopState::set_point_parameter(uint32_t pname, float value, const char** why) {
    switch (pname) {
        case kPointSpriteCoordOrigin:
            if (value != float(kLowerLeft) && value != float(kUpperLeft)) {
                *why = "origin not GL_LOWER_LEFT or GL_UPPER_LEFT";
                return 0x0501;  // GL_INVALID_VALUE
            }
            point_lower_left = value == float(kLowerLeft);
            return 0;
        case kPointFadeThresholdSize:
            if (!(value >= 0)) {
                *why = "negative fade threshold";
                return 0x0501;
            }
            point_fade_threshold = value;
            return 0;
        default:
            *why = "not a point parameter of this context";
            return 0x0500;  // GL_INVALID_ENUM
    }
}

uint32_t DesktopState::set_alpha_func(uint32_t func, float ref) {
    if (func < 0x0200 || func > 0x0207) return 0x0500;  // GL_NEVER..GL_ALWAYS, else GL_INVALID_ENUM
    alpha_func = func;
    alpha_ref = ref > 0 ? std::min(ref, 1.0F) : 0.0F;  // NaN: 0
    return 0;
}

std::array<float, 2> DesktopState::alpha_test_uniform() const {
    return {alpha_func == 0x0207 ? 0.0F : float(alpha_func - 0x0200 + 1), alpha_ref};
}

bool DesktopState::get(uint32_t pname, bool compatibility, const float line[2], const float point[2], double out[4],
                       int* count) const {
    *count = 1;
    switch (pname) {
        case kSeamless:
        case kProgramPointSize:
        case kMultisample:
        case kLineSmooth:
        case kPolygonSmooth:
        case kPrimitiveRestart: out[0] = cap(pname) ? 1 : 0; return true;
        case kPrimitiveRestartIndex: out[0] = restart_index; return true;
        case kPointSize: out[0] = point_size; return true;
        case kPointSpriteCoordOrigin: out[0] = point_lower_left ? kLowerLeft : kUpperLeft; return true;
        case kPointFadeThresholdSize: out[0] = point_fade_threshold; return true;
        case kProvokingVertex: out[0] = provoking_vertex; return true;
        case kQuadsFollowProvoking:
            // Quads exist in compatibility contexts only: a core context's
            // device refuses the pname (GL_INVALID_ENUM), as Mesa does.
            if (!compatibility) return false;
            // True: quads and quad strips follow the convention (the client's
            // lowering picks its patterns so: client/src/compat/ff_draw.cc).
            // GL allows either answer; llvmpipe's compatibility context
            // answers false (measured on LLVM 15 llvmpipe).
            out[0] = 1;
            return true;
        case kLineSmoothHint: out[0] = line_smooth_hint; return true;
        case kPolygonSmoothHint: out[0] = polygon_smooth_hint; return true;
        case kTextureCompressionHint: out[0] = texture_compression_hint; return true;
        case kDoublebuffer: out[0] = 1; return true;  // every surface is presented at swap
        case kStereo: out[0] = 0; return true;
        case kAuxBuffers: out[0] = 0; return true;
        case kSmoothLineWidthRange:
            out[0] = line[0];
            out[1] = line[1];
            *count = 2;
            return true;
        case kPointSizeRange:
            out[0] = point[0];
            out[1] = point[1];
            *count = 2;
            return true;
        case kSmoothLineWidthGranularity:
        case kPointSizeGranularity: out[0] = 0.125; return true;  // what Mesa's drivers report
        default: return false;
    }
}

bool DesktopState::hint(uint32_t target, uint32_t mode) {
    switch (target) {
        case kLineSmoothHint: line_smooth_hint = mode; return true;
        case kPolygonSmoothHint: polygon_smooth_hint = mode; return true;
        case kTextureCompressionHint: texture_compression_hint = mode; return true;
        default: return false;
    }
}

void DesktopState::clear_words(ClearKind buffer, const float clear_color[4], uint32_t out[4]) const {
    for (int k = 0; k < 4; ++k) {
        if (buffer == ClearKind::floating) {
            float v = clear_color[k];
            if (clear_kind == ClearKind::signed_int) v = float(int32_t(clear_int[k]));
            else if (clear_kind == ClearKind::unsigned_int) v = float(clear_int[k]);
            std::memcpy(&out[k], &v, 4);
        } else if (clear_kind != ClearKind::floating) {
            out[k] = clear_int[k];
        } else {
            // GL leaves a floating colour in an integer buffer undefined: the
            // value converted, clamped to the buffer's range (NaN: 0).
            const double v = clear_color[k] == clear_color[k] ? double(clear_color[k]) : 0.0;
            out[k] = buffer == ClearKind::signed_int ? uint32_t(int32_t(std::clamp(v, -2147483648.0, 2147483647.0)))
                                                     : uint32_t(std::clamp(v, 0.0, 4294967295.0));
        }
    }
}

}  // namespace mgl::gl
