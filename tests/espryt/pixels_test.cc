// Byte counts behind the COMPSIZE checks.
#include <doctest.h>

#include <GLES3/gl32.h>

#include "pixels.h"

using namespace mgl::espryt;

TEST_CASE("image sizes follow the pixel store") {
    PixelStore ps;
    CHECK(image_bytes(ps, GL_RGBA, GL_UNSIGNED_BYTE, 4, 4, 1, false) == 64);
    CHECK(image_bytes(ps, GL_RGB, GL_UNSIGNED_BYTE, 3, 3, 1, false) == 12 * 2 + 9);  // rows padded to 4
    ps.alignment = 1;
    CHECK(image_bytes(ps, GL_RGB, GL_UNSIGNED_BYTE, 3, 3, 1, false) == 27);
    ps.alignment = 8;
    ps.row_length = 10;
    ps.skip_rows = 1;
    ps.skip_pixels = 2;
    CHECK(image_bytes(ps, GL_RGBA, GL_UNSIGNED_BYTE, 4, 2, 1, false) == 2 * 40 + (2 + 4) * 4);
    PixelStore p3;
    p3.image_height = 5;
    p3.skip_images = 1;
    CHECK(image_bytes(p3, GL_RED, GL_FLOAT, 2, 2, 2, true) == (1 + 2 - 1) * 5 * 8 + 8 + 8);
    CHECK(image_bytes(PixelStore{}, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 3, 1, 1, false) == 6);
    CHECK(image_bytes(PixelStore{}, 0x1234, GL_UNSIGNED_BYTE, 1, 1, 1, false) == kUnknownSize);
    CHECK(image_bytes(PixelStore{}, GL_RGBA, GL_UNSIGNED_BYTE, 0, 100, 1, false) == 0);
    CHECK(image_bytes(PixelStore{}, GL_RGBA, GL_FLOAT, 1 << 30, 1 << 30, 1, false) > (uint64_t(1) << 62));
}

TEST_CASE("indices, parameters and pixel store validation") {
    CHECK(index_bytes(3, GL_UNSIGNED_SHORT) == 6);
    CHECK(index_bytes(3, GL_FLOAT) == kUnknownSize);
    CHECK(index_bytes(-1, GL_UNSIGNED_INT) == 0);
    CHECK(parameter_count(GL_TEXTURE_BORDER_COLOR) == 4);
    CHECK(parameter_count(GL_TEXTURE_MIN_FILTER) == 1);
    PixelStore u, p;
    CHECK(pixel_store(u, p, GL_UNPACK_ALIGNMENT, 2));
    CHECK(u.alignment == 2);
    CHECK_FALSE(pixel_store(u, p, GL_UNPACK_ALIGNMENT, 3));
    CHECK(u.alignment == 2);
    CHECK_FALSE(pixel_store(u, p, GL_PACK_ROW_LENGTH, -1));
    CHECK(pixel_store(u, p, GL_PACK_ROW_LENGTH, 7));
    CHECK(p.row_length == 7);
}
