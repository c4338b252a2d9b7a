// gl_FragCoord's layout qualifiers (GLSL 1.50, ARB_fragment_coord_conventions)
// on an ESSL host, which has the lower-left origin and half-integer pixel
// centres only.
#pragma once

#include <string>
#include <vector>

namespace mgl::gl {

// Finds the redeclarations of gl_FragCoord in a fragment shader's sources,
// checks GLSL's rules for them (the first one before any use, all of them
// with the same qualifiers, layout qualifiers below 1.50 only under the
// extension) and lowers their qualifiers: the application's main runs after
// a global takes gl_FragCoord with pixel_center_integer's xy - 0.5 and
// origin_upper_left's y mirrored in the draw framebuffer's height
// (kDrawHeightUniform, driver_uniforms.h: set by the backend before each
// draw). Declarations are appended to `preamble`; false with `error` (a log
// line) when the source breaks a rule.
// The checks and the blanking alone (lines kept): what lower_frag_coord_layout
// does before it lowers, for a compile of the source as written (glslang
// has no layout qualifiers in GLSL 1.10-1.40, the extension's included).
bool blank_frag_coord_redeclarations(std::vector<std::string>& sources, int version, bool* upper, bool* integer,
                                     std::string& error);

bool lower_frag_coord_layout(std::vector<std::string>& sources, int version, std::string& preamble, std::string& error);

// GLSL 1.50 §4.3.8.1 across the fragment shader objects of one program
// (each object's sources): once one redeclares gl_FragCoord, every one that
// uses it redeclares it, all with the same layout qualifiers. The link
// error, or "".
std::string frag_coord_link_rule(const std::vector<std::vector<std::string>>& objects);

}  // namespace mgl::gl
