// Which parameters a fixed-point verb passes unscaled (es1/fixed.h): the
// enum-, boolean- and integer-valued state of OpenGL ES 1.1 and the
// extensions it lists, as its §2.1.2 and §6.1.2 (and Mesa's ES 1 layer)
// treat them. Every other value is a number scaled by 2^16.
#include <algorithm>
#include <iterator>

#include "es1/fixed.h"

namespace mgl::client::es1 {

namespace {

// Sorted.
constexpr uint32_t kUnscaled[] = {
    0x0B45,  // GL_CULL_FACE_MODE
    0x0B46,  // GL_FRONT_FACE
    0x0B51,  // GL_LIGHT_MODEL_LOCAL_VIEWER
    0x0B52,  // GL_LIGHT_MODEL_TWO_SIDE
    0x0B54,  // GL_SHADE_MODEL
    0x0B55,  // GL_COLOR_MATERIAL_PARAMETER
    0x0B65,  // GL_FOG_MODE
    0x0B74,  // GL_DEPTH_FUNC
    0x0B82,  // GL_COLOR_MATERIAL_FACE
    0x0B92,  // GL_STENCIL_FUNC
    0x0B94,  // GL_STENCIL_FAIL
    0x0B95,  // GL_STENCIL_PASS_DEPTH_FAIL
    0x0B96,  // GL_STENCIL_PASS_DEPTH_PASS
    0x0BA0,  // GL_MATRIX_MODE
    0x0BC1,  // GL_ALPHA_TEST_FUNC
    0x0BE0,  // GL_BLEND_DST
    0x0BE1,  // GL_BLEND_SRC
    0x0BF0,  // GL_LOGIC_OP_MODE
    0x0C50,  // GL_PERSPECTIVE_CORRECTION_HINT
    0x0C51,  // GL_POINT_SMOOTH_HINT
    0x0C52,  // GL_LINE_SMOOTH_HINT
    0x0C54,  // GL_FOG_HINT
    0x2200,  // GL_TEXTURE_ENV_MODE
    0x2500,  // GL_TEXTURE_GEN_MODE
    0x2800,  // GL_TEXTURE_MAG_FILTER
    0x2801,  // GL_TEXTURE_MIN_FILTER
    0x2802,  // GL_TEXTURE_WRAP_S
    0x2803,  // GL_TEXTURE_WRAP_T
    0x8009,  // GL_BLEND_EQUATION
    0x8072,  // GL_TEXTURE_WRAP_R
    0x80C8,  // GL_BLEND_DST_RGB
    0x80C9,  // GL_BLEND_SRC_RGB
    0x80CA,  // GL_BLEND_DST_ALPHA
    0x80CB,  // GL_BLEND_SRC_ALPHA
    0x813C,  // GL_TEXTURE_BASE_LEVEL
    0x813D,  // GL_TEXTURE_MAX_LEVEL
    0x8191,  // GL_GENERATE_MIPMAP
    0x8192,  // GL_GENERATE_MIPMAP_HINT
    0x81F8,  // GL_LIGHT_MODEL_COLOR_CONTROL
    0x84E0,  // GL_ACTIVE_TEXTURE
    0x84E1,  // GL_CLIENT_ACTIVE_TEXTURE
    0x8571,  // GL_COMBINE_RGB
    0x8572,  // GL_COMBINE_ALPHA
    0x8580,  // GL_SRC0_RGB
    0x8581,  // GL_SRC1_RGB
    0x8582,  // GL_SRC2_RGB
    0x8588,  // GL_SRC0_ALPHA
    0x8589,  // GL_SRC1_ALPHA
    0x858A,  // GL_SRC2_ALPHA
    0x8590,  // GL_OPERAND0_RGB
    0x8591,  // GL_OPERAND1_RGB
    0x8592,  // GL_OPERAND2_RGB
    0x8598,  // GL_OPERAND0_ALPHA
    0x8599,  // GL_OPERAND1_ALPHA
    0x859A,  // GL_OPERAND2_ALPHA
    0x86A3,  // GL_COMPRESSED_TEXTURE_FORMATS
    0x883D,  // GL_BLEND_EQUATION_ALPHA
    0x884B,  // GL_DEPTH_TEXTURE_MODE
    0x884C,  // GL_TEXTURE_COMPARE_MODE
    0x884D,  // GL_TEXTURE_COMPARE_FUNC
    0x8862,  // GL_COORD_REPLACE
    0x8B9A,  // GL_IMPLEMENTATION_COLOR_READ_TYPE
    0x8B9B,  // GL_IMPLEMENTATION_COLOR_READ_FORMAT
    0x8B9D,  // GL_TEXTURE_CROP_RECT_OES
    0x8E42,  // GL_TEXTURE_SWIZZLE_R
    0x8E43,  // GL_TEXTURE_SWIZZLE_G
    0x8E44,  // GL_TEXTURE_SWIZZLE_B
    0x8E45,  // GL_TEXTURE_SWIZZLE_A
};

}  // namespace

bool enum_valued(uint32_t pname) { return std::binary_search(std::begin(kUnscaled), std::end(kUnscaled), pname); }

}  // namespace mgl::client::es1
