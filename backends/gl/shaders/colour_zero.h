// Which variable of a desktop fragment source is its colour 0, read from
// the source text (a backend that compiles desktop GLSL itself needs it
// before glslang runs: Magma's alpha test, driver_uniforms.h). Espryt finds
// it in the ESSL it writes instead (spirv_to_essl.cc, colour_zero_output).
#pragma once

#include <string>

namespace mgl::gl {

// gl_FragData[0] or gl_FragColor where the source writes those; else its
// float vec4 output declared at location 0, or its only output (an array's
// element 0). "" when it has none of these (integer outputs, depth only, a
// colour declared in another shader object or placed by
// glBindFragDataLocation alone).
std::string desktop_colour_zero(const std::string& source);

}  // namespace mgl::gl
