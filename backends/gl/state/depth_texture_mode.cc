#include "depth_texture_mode.h"

namespace mgl::gl {

namespace {
constexpr uint32_t kZero = 0, kOne = 1, kRed = 0x1903, kGreen = 0x1904, kBlue = 0x1905, kAlpha = 0x1906;
constexpr uint32_t kLuminance = 0x1909, kIntensity = 0x8049;
}  // namespace

bool valid_depth_texture_mode(uint32_t mode) {
    return mode == kLuminance || mode == kIntensity || mode == kAlpha || mode == kRed;
}

bool depth_internal_format(uint32_t f) {
    switch (f) {
        case 0x1902:                                  // GL_DEPTH_COMPONENT
        case 0x81A5: case 0x81A6: case 0x81A7:        // GL_DEPTH_COMPONENT16/24/32
        case 0x8CAC:                                  // GL_DEPTH_COMPONENT32F
        case 0x84F9: case 0x88F0: case 0x8CAD: return true;  // GL_DEPTH_STENCIL, 24_8, 32F_8
        default: return false;
    }
}

uint32_t initial_depth_texture_mode(bool compatibility) { return compatibility ? kLuminance : kRed; }

uint32_t sampled_depth_texture_mode(uint32_t set, bool compare, bool compatibility) {
    if (compare) return 0;
    return set ? set : initial_depth_texture_mode(compatibility);
}

std::array<uint32_t, 4> depth_swizzle(uint32_t mode, const std::array<uint32_t, 4>& swizzle) {
    std::array<uint32_t, 4> base{kRed, kZero, kZero, kOne};  // GL_RED
    if (mode == kLuminance) base = {kRed, kRed, kRed, kOne};
    else if (mode == kIntensity) base = {kRed, kRed, kRed, kRed};
    else if (mode == kAlpha) base = {kZero, kZero, kZero, kRed};
    std::array<uint32_t, 4> out{};
    for (int c = 0; c < 4; ++c) {
        const uint32_t s = swizzle[size_t(c)];
        out[size_t(c)] = s == kRed ? base[0] : s == kGreen ? base[1] : s == kBlue ? base[2] : s == kAlpha ? base[3] : s;
    }
    return out;
}

}  // namespace mgl::gl
