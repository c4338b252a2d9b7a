// The component sizes and types GL reports for a sized internal format
// (glGetTexLevelParameteriv's GL_TEXTURE_RED_SIZE .. GL_TEXTURE_DEPTH_TYPE,
// glGetRenderbufferParameteriv's and glGetFramebufferAttachmentParameteriv's
// sizes): the format's own, whatever wider format a device holds it in (an
// RGB8 texture in an RGBA image still has no alpha bits). GLES 3.2's sized
// formats and EXT_texture_norm16's; the desktop-only ones are the texel
// table's (texel_convert.h: desktop_level_parameter).
#pragma once

#include <cstdint>

namespace mgl::gl {

struct FormatBits {
    uint8_t red = 0, green = 0, blue = 0, alpha = 0, depth = 0, stencil = 0, shared = 0;
    uint32_t type = 0;        // the colour components' GL_*_TYPE (GL_UNSIGNED_NORMALIZED, GL_FLOAT, GL_INT...)
    uint32_t depth_type = 0;  // GL_TEXTURE_DEPTH_TYPE (0: no depth)
};

inline bool sized_format_bits(uint32_t f, FormatBits* out) {
    constexpr uint32_t un = 0x8C17, sn = 0x8F9C, fl = 0x1406, si = 0x1404, ui = 0x1405;
    struct Row {
        uint32_t format;
        uint8_t r, g, b, a, d, s;
        uint32_t type;
    };
    static constexpr Row kRows[] = {
        {0x8229, 8, 0, 0, 0, 0, 0, un},     {0x8F94, 8, 0, 0, 0, 0, 0, sn},     // R8, R8_SNORM
        {0x822A, 16, 0, 0, 0, 0, 0, un},    {0x8F98, 16, 0, 0, 0, 0, 0, sn},    // R16, R16_SNORM
        {0x822D, 16, 0, 0, 0, 0, 0, fl},    {0x822E, 32, 0, 0, 0, 0, 0, fl},    // R16F, R32F
        {0x8232, 8, 0, 0, 0, 0, 0, ui},     {0x8231, 8, 0, 0, 0, 0, 0, si},     // R8UI, R8I
        {0x8234, 16, 0, 0, 0, 0, 0, ui},    {0x8233, 16, 0, 0, 0, 0, 0, si},    // R16UI, R16I
        {0x8236, 32, 0, 0, 0, 0, 0, ui},    {0x8235, 32, 0, 0, 0, 0, 0, si},    // R32UI, R32I
        {0x822B, 8, 8, 0, 0, 0, 0, un},     {0x8F95, 8, 8, 0, 0, 0, 0, sn},     // RG8, RG8_SNORM
        {0x822C, 16, 16, 0, 0, 0, 0, un},   {0x8F99, 16, 16, 0, 0, 0, 0, sn},   // RG16, RG16_SNORM
        {0x822F, 16, 16, 0, 0, 0, 0, fl},   {0x8230, 32, 32, 0, 0, 0, 0, fl},   // RG16F, RG32F
        {0x8238, 8, 8, 0, 0, 0, 0, ui},     {0x8237, 8, 8, 0, 0, 0, 0, si},     // RG8UI, RG8I
        {0x823A, 16, 16, 0, 0, 0, 0, ui},   {0x8239, 16, 16, 0, 0, 0, 0, si},   // RG16UI, RG16I
        {0x823C, 32, 32, 0, 0, 0, 0, ui},   {0x823B, 32, 32, 0, 0, 0, 0, si},   // RG32UI, RG32I
        {0x8051, 8, 8, 8, 0, 0, 0, un},     {0x8C41, 8, 8, 8, 0, 0, 0, un},     // RGB8, SRGB8
        {0x8D62, 5, 6, 5, 0, 0, 0, un},     {0x8F96, 8, 8, 8, 0, 0, 0, sn},     // RGB565, RGB8_SNORM
        {0x8054, 16, 16, 16, 0, 0, 0, un},  {0x8F9A, 16, 16, 16, 0, 0, 0, sn},  // RGB16, RGB16_SNORM
        {0x8C3A, 11, 11, 10, 0, 0, 0, fl},                                      // R11F_G11F_B10F
        {0x881B, 16, 16, 16, 0, 0, 0, fl},  {0x8815, 32, 32, 32, 0, 0, 0, fl},  // RGB16F, RGB32F
        {0x8D7D, 8, 8, 8, 0, 0, 0, ui},     {0x8D8F, 8, 8, 8, 0, 0, 0, si},     // RGB8UI, RGB8I
        {0x8D77, 16, 16, 16, 0, 0, 0, ui},  {0x8D89, 16, 16, 16, 0, 0, 0, si},  // RGB16UI, RGB16I
        {0x8D71, 32, 32, 32, 0, 0, 0, ui},  {0x8D83, 32, 32, 32, 0, 0, 0, si},  // RGB32UI, RGB32I
        {0x8058, 8, 8, 8, 8, 0, 0, un},     {0x8C43, 8, 8, 8, 8, 0, 0, un},     // RGBA8, SRGB8_ALPHA8
        {0x8F97, 8, 8, 8, 8, 0, 0, sn},     {0x8057, 5, 5, 5, 1, 0, 0, un},     // RGBA8_SNORM, RGB5_A1
        {0x8056, 4, 4, 4, 4, 0, 0, un},     {0x8059, 10, 10, 10, 2, 0, 0, un},  // RGBA4, RGB10_A2
        {0x805B, 16, 16, 16, 16, 0, 0, un}, {0x8F9B, 16, 16, 16, 16, 0, 0, sn}, // RGBA16, RGBA16_SNORM
        {0x881A, 16, 16, 16, 16, 0, 0, fl}, {0x8814, 32, 32, 32, 32, 0, 0, fl}, // RGBA16F, RGBA32F
        {0x8D7C, 8, 8, 8, 8, 0, 0, ui},     {0x8D8E, 8, 8, 8, 8, 0, 0, si},     // RGBA8UI, RGBA8I
        {0x906F, 10, 10, 10, 2, 0, 0, ui},                                      // RGB10_A2UI
        {0x8D76, 16, 16, 16, 16, 0, 0, ui}, {0x8D88, 16, 16, 16, 16, 0, 0, si}, // RGBA16UI, RGBA16I
        {0x8D70, 32, 32, 32, 32, 0, 0, ui}, {0x8D82, 32, 32, 32, 32, 0, 0, si}, // RGBA32UI, RGBA32I
        {0x81A5, 0, 0, 0, 0, 16, 0, un},    {0x81A6, 0, 0, 0, 0, 24, 0, un},    // DEPTH_COMPONENT16, 24
        {0x81A7, 0, 0, 0, 0, 32, 0, un},    {0x8CAC, 0, 0, 0, 0, 32, 0, fl},    // DEPTH_COMPONENT32, 32F
        {0x88F0, 0, 0, 0, 0, 24, 8, un},    {0x8CAD, 0, 0, 0, 0, 32, 8, fl},    // DEPTH24_STENCIL8, DEPTH32F_STENCIL8
        {0x8D48, 0, 0, 0, 0, 0, 8, 0},                                          // STENCIL_INDEX8
    };
    for (const Row& r : kRows) {
        if (r.format != f) continue;
        FormatBits b;
        b.red = r.r, b.green = r.g, b.blue = r.b, b.alpha = r.a, b.depth = r.d, b.stencil = r.s;
        if (r.d) b.depth_type = r.type;
        else if (r.r) b.type = r.type;
        *out = b;
        return true;
    }
    if (f == 0x8C3D) {  // RGB9_E5: 9-bit mantissas under a 5-bit shared exponent
        *out = FormatBits{};
        out->red = out->green = out->blue = 9;
        out->shared = 5;
        out->type = fl;
        return true;
    }
    return false;
}

// A level parameter of glGetTexLevelParameteriv from those bits: the sizes
// (RED..ALPHA, LUMINANCE and INTENSITY: 0 for these formats, DEPTH, STENCIL,
// SHARED) and types; false for another pname.
inline bool format_bits_parameter(const FormatBits& b, uint32_t pname, int32_t* value) {
    const uint32_t colour_type = b.type;
    switch (pname) {
        case 0x805C: *value = b.red; return true;     // GL_TEXTURE_RED_SIZE
        case 0x805D: *value = b.green; return true;   // GL_TEXTURE_GREEN_SIZE
        case 0x805E: *value = b.blue; return true;    // GL_TEXTURE_BLUE_SIZE
        case 0x805F: *value = b.alpha; return true;   // GL_TEXTURE_ALPHA_SIZE
        case 0x8060: case 0x8061: *value = 0; return true;  // LUMINANCE, INTENSITY (desktop)
        case 0x884A: *value = b.depth; return true;   // GL_TEXTURE_DEPTH_SIZE
        case 0x88F1: *value = b.stencil; return true; // GL_TEXTURE_STENCIL_SIZE
        case 0x8C3F: *value = b.shared; return true;  // GL_TEXTURE_SHARED_SIZE
        case 0x8C10: *value = int32_t(b.red ? colour_type : 0); return true;    // GL_TEXTURE_RED_TYPE
        case 0x8C11: *value = int32_t(b.green ? colour_type : 0); return true;  // GREEN
        case 0x8C12: *value = int32_t(b.blue ? colour_type : 0); return true;   // BLUE
        case 0x8C13: *value = int32_t(b.alpha ? colour_type : 0); return true;  // ALPHA
        case 0x8C14: case 0x8C15: *value = 0; return true;                      // LUMINANCE, INTENSITY
        case 0x8C16: *value = int32_t(b.depth_type); return true;               // GL_TEXTURE_DEPTH_TYPE
        default: return false;
    }
}

}  // namespace mgl::gl
