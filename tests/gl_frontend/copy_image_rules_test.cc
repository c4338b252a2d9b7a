// The GL front end's glCopyImageSubData rules (backends/gl/state/
// copy_image_rules.h) against GL 4.6 section 18.3.3: the errors in the order
// a native driver reports them, the view classes of table 8.22 and the
// compressed/uncompressed pairs of table 18.4.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include "copy_image_rules.h"

using namespace mgl::gl;

namespace {

constexpr uint32_t kTex2D = 0x0DE1, kTex3D = 0x806F, kCube = 0x8513, kRenderbuffer = 0x8D41, kTexBuffer = 0x8C2A;
constexpr uint32_t kRGBA8 = 0x8058, kRG16 = 0x822C, kRGB8 = 0x8051, kR32F = 0x822E, kRGBA32UI = 0x8D70,
                   kRGB16UI = 0x8D77, kRGBA16F = 0x881A, kRGB565 = 0x8D62, kDxt1 = 0x83F1, kSrgbDxt1 = 0x8C4D,
                   kDxt3 = 0x83F2, kRgtc1 = 0x8DBB, kEtc2Rgb = 0x9274;
constexpr uint32_t kInvalidEnum = 0x0500, kInvalidValue = 0x0501, kInvalidOperation = 0x0502;

// A complete 32x32 2D texture (level 0) of `format`.
CopyImageSide image(uint32_t format, uint32_t target = kTex2D, int w = 32, int h = 32, int d = 1) {
    CopyImageSide s;
    s.target = s.object_target = target;
    s.named = s.complete = s.level_exists = true;
    s.width = w, s.height = h, s.depth = d;
    s.internalformat = format;
    return s;
}

uint32_t error(const CopyImageSide& src, const CopyImageSide& dst, int w = 8, int h = 8, int d = 1) {
    return check_copy_image(src, dst, w, h, d).error;
}

}  // namespace

TEST_CASE("copy image: targets and names as GL checks them") {
    CopyImageSide src = image(kRGBA8), dst = image(kRGBA8);
    CHECK(error(src, dst) == 0);
    CopyImageSide bad = src;
    bad.target = kTexBuffer;
    CHECK(error(bad, dst) == kInvalidEnum);
    bad = src;
    bad.target = 0x8515;  // a cube face selector
    CHECK(error(bad, dst) == kInvalidEnum);
    bad = src;
    bad.target = kTex3D;  // not the texture's target
    CHECK(error(bad, dst) == kInvalidEnum);
    bad = src;
    bad.named = false;
    CHECK(error(bad, dst) == kInvalidValue);
    bad = src;
    bad.object_target = 0;  // generated, never bound: no images
    CHECK(error(bad, dst) == kInvalidOperation);
    bad = src;
    bad.complete = false;
    CHECK(error(src, bad) == kInvalidOperation);
    bad = src;
    bad.level = 5, bad.level_exists = false;
    CHECK(error(bad, dst) == kInvalidValue);
    CopyImageSide rb = image(kRGBA8, kRenderbuffer);
    CHECK(error(rb, dst) == 0);
    rb.level = 1;
    CHECK(error(rb, dst) == kInvalidValue);
}

TEST_CASE("copy image: the region stays inside both levels; a cube map has 6 faces in z") {
    CopyImageSide src = image(kRGBA8), dst = image(kRGBA8);
    src.x = 7, src.y = 5;
    CHECK(error(src, dst, 25, 27) == 0);
    CHECK(error(src, dst, 26, 27) == kInvalidValue);
    CHECK(error(src, dst, 25, 28) == kInvalidValue);
    CHECK(error(src, dst, 8, 8, 2) == kInvalidValue);  // a 2D level is one deep
    CHECK(error(src, dst, -1, 8) == kInvalidValue);
    CopyImageSide cube = image(kRGBA8, kCube, 32, 32, 6);
    cube.z = 2;
    CHECK(error(cube, image(kRGBA8, kTex3D, 32, 32, 4), 8, 8, 4) == 0);
    CHECK(error(cube, image(kRGBA8, kTex3D, 32, 32, 8), 8, 8, 5) == kInvalidValue);
}

TEST_CASE("copy image: formats of one view class are compatible, others only with themselves") {
    CHECK(error(image(kRGBA8), image(kRG16)) == 0);       // VIEW_CLASS_32_BITS
    CHECK(error(image(kRGBA8), image(kR32F)) == 0);
    CHECK(error(image(kRGBA8), image(kRGB8)) == kInvalidOperation);  // 32 and 24 bits
    CHECK(error(image(kRGB565), image(kRGB565)) == 0);    // in no class: itself only
    CHECK(error(image(kRGB565), image(kRG16)) == kInvalidOperation);
    CopyImageSide ms = image(kRGBA8);
    ms.samples = 4;
    CHECK(error(ms, image(kRGBA8)) == kInvalidOperation);
}

TEST_CASE("copy image: compressed blocks are uncompressed texels of the same size, and aligned") {
    // A 128-bit block is a 128-bit texel: 20x20 texels of DXT3 are 5x5 of RGBA32UI.
    CopyImageSide dxt3 = image(kDxt3, kTex2D, 128, 128);
    CHECK(error(dxt3, image(kRGBA32UI), 20, 20) == 0);
    CHECK(error(dxt3, image(kRGB16UI), 20, 20) == kInvalidOperation);
    CHECK(error(image(kRgtc1, kTex2D, 64, 64), image(kRGBA16F), 16, 16) == 0);  // 64-bit blocks
    CHECK(error(image(kEtc2Rgb, kTex2D, 64, 64), image(kRGBA16F), 16, 16) == 0);
    // Compressed to compressed: one view class only.
    CHECK(error(image(kDxt1, kTex2D, 32, 32), image(kSrgbDxt1, kTex2D, 32, 32), 16, 16) == 0);
    CHECK(error(dxt3, image(kDxt1, kTex2D, 32, 32), 20, 20) == kInvalidOperation);
    // Alignment: offsets on a block, sizes whole blocks unless they reach the edge.
    CHECK(error(dxt3, image(kRGBA32UI), 21, 24) == kInvalidValue);
    CHECK(error(dxt3, image(kRGBA32UI), 20, 22) == kInvalidValue);
    CopyImageSide off = dxt3;
    off.x = 2;
    CHECK(error(off, image(kRGBA32UI), 20, 24) == kInvalidValue);
    CopyImageSide edge = image(kDxt3, kTex2D, 30, 30);
    edge.x = edge.y = 28;
    CHECK(error(edge, image(kRGBA32UI), 2, 2) == 0);  // the last, partial block
    // An uncompressed source region of w texels fills w blocks of a compressed destination.
    CHECK(error(image(kRGBA32UI), image(kDxt3, kTex2D, 32, 32), 8, 8) == 0);
    CHECK(error(image(kRGBA32UI), image(kDxt3, kTex2D, 32, 32), 9, 8) == kInvalidValue);
    int w = 0, h = 0;
    copy_image_dst_extent(kDxt3, kRGBA32UI, 20, 8, &w, &h);
    CHECK((w == 5 && h == 2));
    copy_image_dst_extent(kRGBA32UI, kDxt3, 5, 2, &w, &h);
    CHECK((w == 20 && h == 8));
}
