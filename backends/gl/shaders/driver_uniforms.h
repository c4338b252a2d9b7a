// Uniforms the shader front end adds that a backend sets itself at draw time
// (never the application, never the client): no program query shows them.
// A backend that links a program declaring one hides it from the active
// uniform count and name length, glGetActiveUniform*, glGetUniformIndices,
// glGetUniformLocation and the GL_UNIFORM program interface, renumbering the
// uniforms after it (HiddenUniform).
#pragma once

#include <cstdint>
#include <string_view>

namespace mgl::gl {

// The height of the draw framebuffer, for gl_FragCoord's origin_upper_left
// (frag_coord.h): y becomes height - y.
inline constexpr const char* kDrawHeightUniform = "mgl_DrawHeight";

inline bool is_driver_uniform(std::string_view name) { return name == kDrawHeightUniform; }

// One hidden uniform's place among a linked program's active uniforms
// (index: the host's or device's own numbering, kNone when none is hidden).
struct HiddenUniform {
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    uint32_t index = kNone;

    // The application's index -> the backend's.
    uint32_t to_backend(uint32_t app) const { return index != kNone && app >= index ? app + 1 : app; }
    // The backend's index -> the application's (kNone for the hidden one;
    // GL_INVALID_INDEX stays).
    uint32_t to_app(uint32_t backend) const {
        if (index == kNone || backend == kNone || backend < index) return backend;
        return backend == index ? kNone : backend - 1;
    }
    // An active uniform count as the application sees it.
    int32_t count(int32_t backend_count) const { return index != kNone && backend_count > 0 ? backend_count - 1 : backend_count; }
};

}  // namespace mgl::gl
