// gl_FragCoord's layout qualifiers (GLSL 1.50, ARB_fragment_coord_conventions)
// on an ESSL host, which has the lower-left origin and half-integer pixel
// centres only.
#pragma once

#include <string>
#include <vector>

namespace mgl::gl {

// Finds a redeclaration of gl_FragCoord in a fragment shader's sources and
// lowers its qualifiers: pixel_center_integer reads gl_FragCoord.xy - 0.5
// (through a global the lowered main sets before the application's main
// runs). origin_upper_left needs the framebuffer's height, which the front
// end does not carry yet: a compile error that says so. Declarations are
// appended to `preamble`; false with `error` (a log line) when not served.
bool lower_frag_coord_layout(std::vector<std::string>& sources, std::string& preamble, std::string& error);

}  // namespace mgl::gl
