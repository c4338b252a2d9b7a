// COMPSIZE helpers against hand-computed sizes.
#include "compsize.h"
#include "fixture.h"

using namespace mgl::test;
using namespace mgl::client;
namespace gen = mgl::gen;

TEST_CASE("pixel sizes") {
    CHECK(pixel_bytes(GL_RGBA, GL_UNSIGNED_BYTE) == 4);
    CHECK(pixel_bytes(GL_RGB, GL_UNSIGNED_BYTE) == 3);
    CHECK(pixel_bytes(GL_RGB, GL_UNSIGNED_SHORT_5_6_5) == 2);
    CHECK(pixel_bytes(GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4) == 2);
    CHECK(pixel_bytes(GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE) == 2);
    CHECK(pixel_bytes(GL_RGBA, GL_FLOAT) == 16);
    CHECK(pixel_bytes(GL_RG, GL_HALF_FLOAT) == 4);
    CHECK(pixel_bytes(GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8) == 4);
    CHECK(pixel_bytes(GL_RGBA_INTEGER, GL_INT) == 16);
    CHECK(pixel_bytes(GL_RGBA, 0x1234) == kBadEnum);
    CHECK(pixel_bytes(0x1234, GL_UNSIGNED_BYTE) == kBadEnum);
}

TEST_CASE("image sizes follow the pixel store state") {
    ClientFixture fx;
    const Context& c = *fx.ctx;
    // Default unpack alignment 4: RGB8 rows of 3 pixels are 9 bytes, padded to 12.
    CHECK(cs_image(c, false, false, GL_RGBA, GL_UNSIGNED_BYTE, 3, 2, 1) == 24);
    CHECK(cs_image(c, false, false, GL_RGB, GL_UNSIGNED_BYTE, 3, 2, 1) == 12 + 9);
    CHECK(cs_image(c, false, false, GL_RGB, GL_UNSIGNED_BYTE, 0, 2, 1) == 0);
    CHECK(cs_image(c, false, false, GL_RGB, GL_UNSIGNED_BYTE, -1, 2, 1) == kBadValue);
    // 3D: depth images of rows.
    CHECK(cs_image(c, false, true, GL_RGBA, GL_UNSIGNED_BYTE, 2, 2, 3) == 2 * 2 * 4 * 3);
    mgl_glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    CHECK(cs_image(c, false, false, GL_RGB, GL_UNSIGNED_BYTE, 3, 2, 1) == 18);
    mgl_glPixelStorei(GL_UNPACK_ROW_LENGTH, 5);
    mgl_glPixelStorei(GL_UNPACK_SKIP_ROWS, 1);
    mgl_glPixelStorei(GL_UNPACK_SKIP_PIXELS, 2);
    // rows of 5 pixels (15 bytes); skip one row and 2 pixels; then 2 rows of 3 pixels.
    CHECK(cs_image(c, false, false, GL_RGB, GL_UNSIGNED_BYTE, 3, 2, 1) == 15 + 6 + 15 + 9);
    mgl_glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 4);
    CHECK(cs_image(c, false, true, GL_RGB, GL_UNSIGNED_BYTE, 3, 2, 2) == 15 + 6 + 4 * 15 + 15 + 9);
    // Skipped images apply to 3D uploads only: a 2D upload reads the same bytes as before.
    mgl_glPixelStorei(GL_UNPACK_SKIP_IMAGES, 1);
    CHECK(cs_image(c, false, false, GL_RGB, GL_UNSIGNED_BYTE, 3, 2, 1) == 15 + 6 + 15 + 9);
    CHECK(cs_image(c, false, true, GL_RGB, GL_UNSIGNED_BYTE, 3, 2, 1) == 4 * 15 + 15 + 6 + 15 + 9);
    mgl_glPixelStorei(GL_UNPACK_SKIP_IMAGES, 0);
    // Pack state is separate: glReadPixels of RGBA8 with alignment 8.
    mgl_glPixelStorei(GL_PACK_ALIGNMENT, 8);
    CHECK(cs_image(c, true, false, GL_RGBA, GL_UNSIGNED_BYTE, 3, 3, 1) == 16 * 2 + 12);
    CHECK(cs_image(c, true, false, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 4, 1, 1) == 8);
}

TEST_CASE("indices, clear buffers, labels, attributes") {
    CHECK(cs_indices(10, GL_UNSIGNED_BYTE) == 10);
    CHECK(cs_indices(10, GL_UNSIGNED_SHORT) == 20);
    CHECK(cs_indices(10, GL_UNSIGNED_INT) == 40);
    CHECK(cs_indices(10, GL_FLOAT) == kBadEnum);
    CHECK(cs_clear_buffer(GL_COLOR) == 4);
    CHECK(cs_clear_buffer(GL_DEPTH) == 1);
    CHECK(cs_label("abc", -1) == 4);
    CHECK(cs_label("abc", 2) == 2);
    CHECK(attrib_bytes(3, GL_FLOAT) == 12);
    CHECK(attrib_bytes(4, GL_UNSIGNED_BYTE) == 4);
    CHECK(attrib_bytes(4, GL_INT_2_10_10_10_REV) == 4);
}

TEST_CASE("parameter counts per pname") {
    ClientFixture fx;
    const Context& c = *fx.ctx;
    CHECK(cs_pname(c, gen::Op::glGetIntegerv, GL_VIEWPORT) == 4);
    CHECK(cs_pname(c, gen::Op::glGetFloatv, GL_DEPTH_RANGE) == 2);
    CHECK(cs_pname(c, gen::Op::glGetBooleanv, GL_COLOR_WRITEMASK) == 4);
    CHECK(cs_pname(c, gen::Op::glGetIntegerv, GL_MAX_TEXTURE_SIZE) == 1);
    CHECK(cs_pname(c, gen::Op::glGetIntegerv, 0xBEEF) == kBadEnum);
    CHECK(cs_pname(c, gen::Op::glGetIntegerv, GL_COMPRESSED_TEXTURE_FORMATS) == 1);  // = GL_NUM_COMPRESSED_... (fake: 1)
    CHECK(cs_pname(c, gen::Op::glTexParameterfv, GL_TEXTURE_BORDER_COLOR) == 4);
    CHECK(cs_pname(c, gen::Op::glTexParameteriv, GL_TEXTURE_MIN_FILTER) == 1);
    CHECK(cs_pname(c, gen::Op::glSamplerParameteriv, 0xBEEF) == kBadEnum);
    CHECK(cs_pname(c, gen::Op::glGetProgramiv, GL_LINK_STATUS) == 1);
    CHECK(cs_pname(c, gen::Op::glGetProgramiv, GL_COMPUTE_WORK_GROUP_SIZE) == 3);
    // Through an entry point: a bad pname is GL_INVALID_ENUM and sends nothing.
    const size_t m = fx.mark();
    GLint v[4];
    mgl_glTexParameteriv(GL_TEXTURE_2D, 0xBEEF, v);
    CHECK(mgl_glGetError() == GL_INVALID_ENUM);
    CHECK(fx.mark() == m);
}
