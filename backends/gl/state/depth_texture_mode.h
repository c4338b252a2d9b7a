// GL_DEPTH_TEXTURE_MODE (GL 1.4 - 3.0, removed from core profiles): what a
// depth texture sampled without comparison returns, as one of the base
// internal formats LUMINANCE (d, d, d, 1), INTENSITY (d, d, d, d), ALPHA
// (0, 0, 0, d) or RED (d, 0, 0, 1). Compatibility contexts start at
// LUMINANCE, core ones have only RED. EXT_texture_swizzle's swizzle applies
// after it (its issue 4), so a device that swizzles in its image view or
// sampler sees one composed swizzle. The rule lives here once (DESIGN §11).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace mgl::gl {

constexpr uint32_t kDepthTextureMode = 0x884B;

bool valid_depth_texture_mode(uint32_t mode);
// A depth or depth-stencil internal format (unsized or sized): the textures
// the mode applies to.
bool depth_internal_format(uint32_t internalformat);
uint32_t initial_depth_texture_mode(bool compatibility);

// The mode a depth texture is sampled with: the one set (`set`, 0: never
// set) or the context's initial one; 0 with GL_TEXTURE_COMPARE_MODE on: a
// lookup returns the comparison, which GLSL 1.30's shadow samplers take
// whatever the mode (as Mesa does; 1.10's shadow2D gets the luminance
// default from the shader lift), so only the texture's swizzle applies.
uint32_t sampled_depth_texture_mode(uint32_t set, bool compare, bool compatibility);

// The swizzle a device applies to a depth texture's (d, ?, ?, ?) texels: the
// texture's GL_TEXTURE_SWIZZLE_R/G/B/A (`swizzle`, GL_RED..GL_ALPHA, GL_ZERO,
// GL_ONE) read from the depth mode's components. Result in the same enums.
std::array<uint32_t, 4> depth_swizzle(uint32_t mode, const std::array<uint32_t, 4>& swizzle);

}  // namespace mgl::gl
