// The GL front end's desktop upload converter (backends/gl/context/texel_convert.h).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include <cstring>
#include <vector>

#include "context/texel_convert.h"
#include "context/texel_pack.h"

using namespace mgl::gl;

namespace {

std::vector<uint8_t> convert(uint32_t ifmt, uint32_t format, uint32_t type, const void* src, size_t size,
                             uint32_t w = 1, UnpackState u = {}) {
    HostFormat hf;
    REQUIRE(host_format(ifmt, &hf));
    std::vector<uint8_t> out;
    REQUIRE(convert_texels(u, format, type, hf, w, 1, 1, false, static_cast<const uint8_t*>(src), size, &out));
    return out;
}

}  // namespace

TEST_CASE("luminance, alpha and intensity formats live in R/RG with a swizzle") {
    HostFormat hf;
    REQUIRE(host_format(0x8040, &hf));  // LUMINANCE8
    CHECK(hf.internalformat == 0x8229);
    CHECK(hf.swizzled);
    CHECK(hf.swizzle[3] == 1);  // GL_ONE
    REQUIRE(host_format(0x803C, &hf));  // ALPHA8
    CHECK(hf.swizzle[0] == 0);
    CHECK(hf.swizzle[3] == 0x1903);
    REQUIRE(host_format(0x8D90, &hf));  // ALPHA8I_EXT
    CHECK(hf.internalformat == 0x8231);
    CHECK(hf.integer);
    // RGBA data into ALPHA8 keeps its alpha; into LUMINANCE8 its red.
    const uint8_t rgba[4] = {10, 20, 30, 40};
    CHECK(convert(0x803C, 0x1908, 0x1401, rgba, 4) == std::vector<uint8_t>{40});
    CHECK(convert(0x8040, 0x1908, 0x1401, rgba, 4) == std::vector<uint8_t>{10});
    CHECK(convert(0x8045, 0x1908, 0x1401, rgba, 4) == std::vector<uint8_t>{10, 40});
}

TEST_CASE("packed desktop types unpack by their fields") {
    // BGRA / UNSIGNED_INT_8_8_8_8_REV: B in the low byte.
    const uint32_t px = 0x40302010;  // A=0x40 R=0x30 G=0x20 B=0x10
    CHECK(convert(0x8058, 0x80E1, 0x8367, &px, 4) == std::vector<uint8_t>{0x30, 0x20, 0x10, 0x40});
    // RGB / UNSIGNED_BYTE_3_3_2: R in the top 3 bits.
    const uint8_t p332 = 0xE0;  // R = 7, G = 0, B = 0
    CHECK(convert(0x1907, 0x1907, 0x8032, &p332, 1) == std::vector<uint8_t>{255, 0, 0});
    // ABGR_EXT bytes.
    const uint8_t abgr[4] = {1, 2, 3, 4};
    CHECK(convert(0x8058, 0x8000, 0x1401, abgr, 4) == std::vector<uint8_t>{4, 3, 2, 1});
}

TEST_CASE("normalized and float sources into normalized formats clamp") {
    const float f[4] = {-1.0f, 0.5f, 2.0f, 1.0f};
    CHECK(convert(0x8058, 0x1908, 0x1406, f, 16) == std::vector<uint8_t>{0, 128, 255, 255});
    const int8_t b[3] = {-128, 127, 0};
    CHECK(convert(0x8051, 0x1907, 0x1400, b, 3) == std::vector<uint8_t>{0, 255, 0});
    // GL_FLOAT depth into DEPTH_COMPONENT16: 16-bit normalized.
    const float d = 1.0f;
    const std::vector<uint8_t> d16 = convert(0x81A5, 0x1902, 0x1406, &d, 4);
    REQUIRE(d16.size() == 2);
    uint16_t v;
    std::memcpy(&v, d16.data(), 2);
    CHECK(v == 65535);
}

TEST_CASE("unpack state: row length, skips, alignment, byte swapping") {
    UnpackState u;
    u.alignment = 1, u.row_length = 3, u.skip_pixels = 1;
    const uint8_t lum[3] = {0, 77, 0};
    CHECK(convert(0x8229, 0x1909, 0x1401, lum, 3, 1, u) == std::vector<uint8_t>{77});
    UnpackState swap;
    swap.swap_bytes = true;
    const uint8_t us[2] = {0xFF, 0x00};  // 0x00FF swapped: 0xFF00
    const std::vector<uint8_t> r = convert(0x8229, 0x1903, 0x1403, us, 2, 1, swap);
    CHECK(r == std::vector<uint8_t>{254});  // 0xFF00 / 65535 * 255 = 254.0
}

TEST_CASE("the device's own pairs are not converted") {
    HostFormat hf;
    REQUIRE(host_format(0x8058, &hf));
    CHECK(device_takes(hf, 0x1908, 0x1401));
    CHECK(!device_takes(hf, 0x80E1, 0x1401));
    REQUIRE(host_format(0x1908, &hf));  // unsized RGBA: RGBA8
    CHECK(hf.internalformat == 0x8058);
    CHECK(device_takes(hf, 0x1908, 0x1401));
    REQUIRE(host_format(0x803C, &hf));
    CHECK(!device_takes(hf, 0x1903, 0x1401));  // ALPHA8 from RED: alpha 1, not red
}

TEST_CASE("desktop sizes for formats the device holds otherwise") {
    int32_t v = -1;
    CHECK(desktop_level_parameter(0x8040, 0x8060, &v));  // LUMINANCE8: LUMINANCE_SIZE
    CHECK(v == 8);
    CHECK(desktop_level_parameter(0x8040, 0x805C, &v));  // RED_SIZE
    CHECK(v == 0);
    CHECK(desktop_level_parameter(0x8D90, 0x8C13, &v));  // ALPHA8I: ALPHA_TYPE
    CHECK(v == 0x1404);
}

// The read side (texel_pack.h), against GL 4.6 §18.2's conversions.
TEST_CASE("reads: luminance sums for glReadPixels and is R for glGetTexImage") {
    const double px[4] = {0.25, 0.5, 0.5, 1.0};
    uint8_t out[4] = {};
    PackState ps;
    ps.alignment = 1;
    REQUIRE(pack_rgba(0x1909, 0x1401, ps, 1, 1, px, LuminanceRead::sum, out));  // LUMINANCE / UNSIGNED_BYTE
    CHECK(out[0] == 255);                                                       // 0.25 + 0.5 + 0.5 clamped
    REQUIRE(pack_rgba(0x1909, 0x1401, ps, 1, 1, px, LuminanceRead::red, out));
    CHECK(out[0] == 64);  // round(0.25 * 255)
}

TEST_CASE("reads: packed types, BGRA order and integer clamping") {
    const double px[4] = {1.0, 0.0, 0.0, 1.0};
    uint8_t out[8] = {};
    PackState ps;
    REQUIRE(pack_rgba(0x1907, 0x8363, ps, 1, 1, px, LuminanceRead::sum, out));  // RGB / 5_6_5: red in the high bits
    uint16_t v;
    std::memcpy(&v, out, 2);
    CHECK(v == 0xF800);
    REQUIRE(pack_rgba(0x80E1, 0x1401, ps, 1, 1, px, LuminanceRead::sum, out));  // BGRA / UNSIGNED_BYTE
    CHECK((out[0] == 0 && out[1] == 0 && out[2] == 255 && out[3] == 255));
    const double ints[4] = {300, -5, 7, 1};
    REQUIRE(pack_rgba(0x8D99, 0x1401, ps, 1, 1, ints, LuminanceRead::sum, out));  // RGBA_INTEGER / UNSIGNED_BYTE
    CHECK((out[0] == 255 && out[1] == 0 && out[2] == 7 && out[3] == 1));
    CHECK(!pack_rgba(0x8D99, 0x8363, ps, 1, 1, ints, LuminanceRead::sum, out));  // integer data in a packed type: not here
}

TEST_CASE("reads: rows padded to the pack alignment, skips applied") {
    const double px[8] = {1, 0, 0, 1, 0, 1, 0, 1};  // two rows of one pixel
    PackState ps;  // alignment 4: a 3-byte RGB row takes 4
    ps.skip_pixels = 1;
    CHECK(packed_image_bytes(0x1907, 0x1401, ps, 1, 2) == 4 + 3 + 3);
    std::vector<uint8_t> out(10, 0xAA);
    REQUIRE(pack_rgba(0x1907, 0x1401, ps, 1, 2, px, LuminanceRead::sum, out.data()));
    CHECK((out[3] == 255 && out[4] == 0 && out[5] == 0));  // row 0 after one skipped pixel
    CHECK(out[6] == 0xAA);                                  // the padding is not written
    CHECK((out[7] == 0 && out[8] == 255 && out[9] == 0));   // row 1 at stride 4
}

// Depth and stencil reads (GL 4.6 §8.4.4, §18.2): pack_depth_stencil.
TEST_CASE("reads: depth as a normalized or float component, stencil indices as integers") {
    const float depth[2] = {0.5f, 1.0f};
    const uint32_t stencil[2] = {0x7A, 0x1FE};  // an index keeps the type's low bits
    PackState ps;
    ps.alignment = 1;
    std::vector<uint8_t> out(8, 0);
    REQUIRE(pack_depth_stencil(0x1902, 0x1403, ps, 2, 1, depth, nullptr, out.data()));  // DEPTH_COMPONENT, USHORT
    uint16_t d16[2];
    std::memcpy(d16, out.data(), 4);
    CHECK(d16[0] == 32768);  // round(0.5 * 65535)
    CHECK(d16[1] == 65535);
    REQUIRE(pack_depth_stencil(0x1902, 0x1406, ps, 2, 1, depth, nullptr, out.data()));  // FLOAT
    float f[2];
    std::memcpy(f, out.data(), 8);
    CHECK((f[0] == 0.5f && f[1] == 1.0f));
    REQUIRE(pack_depth_stencil(0x1901, 0x1401, ps, 2, 1, nullptr, stencil, out.data()));  // STENCIL_INDEX, UBYTE
    CHECK((out[0] == 0x7A && out[1] == 0xFE));
    CHECK(!pack_depth_stencil(0x1901, 0x1401, ps, 2, 1, nullptr, nullptr, out.data()));  // no stencil given
}

TEST_CASE("reads: depth/stencil pairs packed as GL packs them") {
    const float depth[1] = {1.0f};
    const uint32_t stencil[1] = {0x33};
    PackState ps;
    std::vector<uint8_t> out(8, 0);
    REQUIRE(pack_depth_stencil(0x84F9, 0x84FA, ps, 1, 1, depth, stencil, out.data()));  // UNSIGNED_INT_24_8
    uint32_t v;
    std::memcpy(&v, out.data(), 4);
    CHECK(v == (0xFFFFFFu << 8 | 0x33));  // depth in the high 24 bits
    size_t comp = 0;
    CHECK(depth_stencil_pixel_bytes(0x84F9, 0x8DAD, &comp) == 8);
    CHECK(comp == 4);
    REQUIRE(pack_depth_stencil(0x84F9, 0x8DAD, ps, 1, 1, depth, stencil, out.data()));  // FLOAT_32_UNSIGNED_INT_24_8_REV
    float d;
    std::memcpy(&d, out.data(), 4);
    std::memcpy(&v, out.data() + 4, 4);
    CHECK((d == 1.0f && v == 0x33));
    CHECK(depth_stencil_image_bytes(0x84F9, 0x1406, ps, 1, 1) == 0);  // DEPTH_STENCIL takes only its two types
}
