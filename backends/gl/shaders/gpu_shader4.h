// GL_EXT_gpu_shader4 in GLSL 1.10/1.20 sources of compatibility contexts:
// GLSL 1.30's integer types, bitwise operators, texel fetches, size queries,
// offset and gradient lookups, under the extension's own spellings. The
// lift compiles such a source as GLSL 3.30 (glsl_lift.h), which has all of
// it under 1.30's names: the spellings are respelled and the extension's
// per-sampler lookup names become 1.30's overloaded ones. glslang knows no
// GL_EXT_gpu_shader4.
#pragma once

#include <string>
#include <vector>

#include "shader_input.h"

namespace mgl::gl {

// `unsigned int` -> uint; a fragment stage's `varying out` -> out (the
// extension's fragment outputs); the shadow lookups, which return a vec4 as
// 1.10's shadow2D does, rewritten where called as 1.30's float ones in a
// vec4 (lines kept). Before the lift, which spells `varying` as in/out.
void respell_gpu_shader4(std::vector<std::string>& sources);

// The preamble's macros that give the extension's other lookup names
// (texelFetch2D, textureSize3D, texture2DGradOffset, ...) 1.30's overloaded
// names, which return what they return.
std::string gpu_shader4_lookups();

}  // namespace mgl::gl
