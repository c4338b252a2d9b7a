// Desktop texture targets ESSL has no sampler for, lowered in the SPIR-V
// module before SPIRV-Cross writes ESSL (the server gives such textures the
// matching GLES target: backends/gl/context/texture_targets.h):
//   sampler1D*      -> sampler2D* of height 1, sampled at row centre 0.5;
//   sampler1DArray* -> sampler2DArray* of height 1 (layers stay layers, so
//                      mipmaps, derivatives and filtering keep their meaning);
//   sampler2DRect*  -> sampler2D*, coordinates divided by the level-0 size.
// Every texture built-in on them is rewritten: coordinates gain the row
// (texelFetch: row 0), projective ones keep q, gradients and offsets gain a
// 0 component, textureSize drops the row again.
//
// Done on SPIR-V rather than through SPIRV-Cross: SPIRV-Cross's GLSL target
// has no 1D-as-2D option (only its MSL target does) and refuses Rect on ES;
// at the SPIR-V level each built-in is one instruction with typed operands,
// so the rewrite is exact and needs no text matching.
#pragma once

#include <cstdint>
#include <vector>

namespace mgl::gl {

// Rewrites the module in place. False only when the module is malformed
// (left as it was); a module without such samplers is not touched.
bool lower_desktop_textures(std::vector<uint32_t>& spirv);

}  // namespace mgl::gl
