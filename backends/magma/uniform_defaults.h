// Uniform initialisers on Magma. glslang's relaxed Vulkan rules gather the
// loose uniforms into the default block (shaders.h) and drop their
// initialisers there; the GL front end's rule (backends/gl/shaders/
// uniform_init.h: the values read from its OpenGL SPIR-V) gives them, and
// they are written into the block's bytes at link.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shaders.h"

namespace mgl::magma {

// `source`: one desktop GLSL shader of the program (context version
// major.minor); `defaults`: the linked program's default block (std140).
// Returns what could not be written ("" when all was).
std::string write_uniform_initialisers(Stage stage, const std::string& source, int major, int minor,
                                       const LinkedProgram& linked, std::vector<uint8_t>& defaults);

}  // namespace mgl::magma
