// The GL front end's GL_DEPTH_TEXTURE_MODE rule (backends/gl/state/
// depth_texture_mode.h): the depth value d read as the mode's base format
// (GL 3.0 compatibility table 3.20 / GL 2.1 table 3.23), then the texture's
// swizzle picking from that (EXT_texture_swizzle, issue 4).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include <array>

#include "depth_texture_mode.h"

using namespace mgl::gl;

namespace {
constexpr uint32_t Z = 0, O = 1, R = 0x1903, G = 0x1904, B = 0x1905, A = 0x1906;
constexpr uint32_t kLuminance = 0x1909, kIntensity = 0x8049, kAlpha = 0x1906, kRed = 0x1903;
using S = std::array<uint32_t, 4>;
constexpr S kIdentity{R, G, B, A};
}  // namespace

TEST_CASE("each mode's base format with the identity swizzle") {
    CHECK(depth_swizzle(kLuminance, kIdentity) == S{R, R, R, O});  // (d, d, d, 1)
    CHECK(depth_swizzle(kIntensity, kIdentity) == S{R, R, R, R});  // (d, d, d, d)
    CHECK(depth_swizzle(kAlpha, kIdentity) == S{Z, Z, Z, R});      // (0, 0, 0, d)
    CHECK(depth_swizzle(kRed, kIdentity) == S{R, Z, Z, O});        // (d, 0, 0, 1)
}

TEST_CASE("the texture's swizzle applies after the mode") {
    CHECK(depth_swizzle(kIntensity, S{O, G, B, A}) == S{O, R, R, R});
    CHECK(depth_swizzle(kLuminance, S{R, A, A, O}) == S{R, O, O, O});
    CHECK(depth_swizzle(kRed, S{B, G, R, A}) == S{Z, Z, R, O});
    CHECK(depth_swizzle(kAlpha, S{O, G, A, Z}) == S{O, Z, R, Z});
}

TEST_CASE("modes and initial values") {
    CHECK(initial_depth_texture_mode(true) == kLuminance);
    CHECK(initial_depth_texture_mode(false) == kRed);
    for (uint32_t m : {kLuminance, kIntensity, kAlpha, kRed}) CHECK(valid_depth_texture_mode(m));
    CHECK(!valid_depth_texture_mode(0x1908));  // GL_RGBA
}

TEST_CASE("the sampled mode: the one set, else the initial one; none with comparison on") {
    CHECK(sampled_depth_texture_mode(0, false, true) == kLuminance);
    CHECK(sampled_depth_texture_mode(0, false, false) == kRed);
    CHECK(sampled_depth_texture_mode(kAlpha, false, true) == kAlpha);
    CHECK(sampled_depth_texture_mode(kAlpha, true, true) == 0);  // fs-texture-sampler2dshadow-11's case
    CHECK(sampled_depth_texture_mode(0, true, false) == 0);
    CHECK(depth_internal_format(0x1902));   // GL_DEPTH_COMPONENT
    CHECK(depth_internal_format(0x88F0));   // GL_DEPTH24_STENCIL8
    CHECK(!depth_internal_format(0x8058));  // GL_RGBA8
}
