// Desktop GLSL lets a `writeonly` image uniform go without a format layout
// qualifier (GLSL 4.20 §4.4.6.2: stores convert to the image unit's
// format); ESSL 3.10 requires one on every image. Such images get the widest
// format of their sampled type (rgba32f, rgba32i, rgba32ui) in the SPIR-V the
// ESSL is written from: a store writes through the unit's own format on the
// hosts this runs on (Mesa, NVIDIA), whatever the declaration says.
// A readable image without a format (GL_EXT_shader_image_load_formatted) is
// left as it is: the host refuses it, as GL 4.x without that extension does.
#pragma once

#include <cstdint>
#include <vector>

namespace mgl::gl {

// Rewrites the module in place; false when it is malformed (left as it was).
bool format_writeonly_images(std::vector<uint32_t>& spirv);

}  // namespace mgl::gl
