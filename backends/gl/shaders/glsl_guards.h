// Checks made on an application's GLSL before glslang parses it, for source
// glslang (Debian's 11.x) crashes on instead of refusing (a crash there would
// end the whole server, not the session: docs/RELIABILITY.md) or accepts
// though GLSL forbids it. Each check is a GLSL rule, answered with a compile
// error as a driver gives.
#pragma once

#include <string>
#include <vector>

namespace mgl::gl {

// GLSL 1.50 §4.3.7: "it is an error to use a block name at global scope for
// anything other than as a block name". glslang crashes (TParseContext::
// declareBlock) when a function of the block's name was declared first; this
// refuses a block named like any function of the shader. The log line, or
// empty when the sources pass.
std::string block_name_reuse(const std::vector<std::string>& sources);

// GLSL 1.30+ §4.3.4: "fragment shader inputs that are signed or unsigned
// integers or integer vectors must be qualified with the interpolation
// qualifier flat". glslang checks loose inputs but not the members of an
// input block (nor structures of integers inside one); this checks those
// of a fragment shader's sources. The log line, or empty when they pass.
std::string unflat_integer_block_inputs(const std::vector<std::string>& sources);

}  // namespace mgl::gl
