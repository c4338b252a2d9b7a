// GL rules about desktop contexts that hold whatever device serves them
// (DESIGN.md §11: a GL rule lives once). Espryt and Magma both use these;
// what each *serves* (version, extensions) is the backend's own.
#pragma once

#include <cstdint>
#include <string>

#include "gen/verb_api.h"

namespace mgl::gl {

// mglCreateContext's api: EGL_OPENGL_ES_API or EGL_OPENGL_API (GLX contexts
// arrive as the latter).
constexpr uint32_t kApiEs = 0x30A0, kApiDesktop = 0x30A2;
// Context profile as the wire carries it: 1 core, 2 compatibility (0 for ES).
constexpr uint32_t kProfileCore = 1, kProfileCompat = 2;

// The profile a desktop request gets: core only when asked for (GL 3.2's
// default is core, but a request without a profile bit is a legacy context
// everywhere the client creates one: glXCreateContext, EGL without a mask).
inline uint32_t desktop_profile(uint32_t requested) { return requested == kProfileCore ? kProfileCore : kProfileCompat; }

// The kind the generated profile checks (gen/verb_api.h) test a context
// against. Profiles begin with GL 3.2: a core request served below that is
// the compatibility verb set.
inline gen::ApiKind api_kind(uint32_t api, uint32_t profile, int served) {
    if (api != kApiDesktop) return gen::ApiKind::es;
    return profile == kProfileCore && served >= 32 ? gen::ApiKind::core : gen::ApiKind::compat;
}

// GL_SHADING_LANGUAGE_VERSION of desktop GL `version` (major*10+minor):
// 3.0 -> "1.30", 3.1 -> "1.40", 3.2 -> "1.50", then equal to the GL version.
inline std::string desktop_glsl_version(int version) {
    switch (version) {
        case 30: return "1.30";
        case 31: return "1.40";
        case 32: return "1.50";
        default: return std::to_string(version / 10) + "." + std::to_string(version % 10) + "0";
    }
}

// The default framebuffer of a desktop context, as served here, has one
// colour buffer (a single-buffered, non-stereo surface that GLES and our
// own surfaces call GL_BACK): every desktop name of a left or unqualified
// buffer means it. 0 for the right (stereo) buffers and anything else.
inline uint32_t default_color_buffer(uint32_t b) {
    switch (b) {
        case 0x0404:  // GL_FRONT
        case 0x0405:  // GL_BACK
        case 0x0408:  // GL_FRONT_AND_BACK
        case 0x0400:  // GL_FRONT_LEFT
        case 0x0402:  // GL_BACK_LEFT
        case 0x0406:  // GL_LEFT
            return 0x0405;
        default: return 0;
    }
}
inline bool is_stereo_right(uint32_t b) { return b == 0x0401 || b == 0x0403 || b == 0x0407; }

// glDrawBuffer/glReadBuffer name outside either of the above: a colour
// attachment (valid only on framebuffer objects).
inline bool is_color_attachment(uint32_t b) { return b >= 0x8CE0 && b <= 0x8CFF; }

// GL_DRAW_BUFFER (desktop) is GL_DRAW_BUFFER0 (GLES 3 names only the indexed one);
// GL_MAX_RECTANGLE_TEXTURE_SIZE is GL_MAX_TEXTURE_SIZE (rectangle textures are 2D
// textures on the device: backends/gl/state/texture_targets.h).
inline uint32_t desktop_query_pname(uint32_t pname) {
    if (pname == 0x84F8) return 0x0D33;
    return pname == 0x0C01 ? 0x8825 : pname;
}

}  // namespace mgl::gl
