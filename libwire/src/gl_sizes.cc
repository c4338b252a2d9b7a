#include "mgl/wire/gl_sizes.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

namespace mgl::wire {

namespace {

uint32_t components(uint32_t format) {
    switch (format) {
        case GL_RED: case GL_RED_INTEGER: case GL_ALPHA: case GL_LUMINANCE: case GL_DEPTH_COMPONENT:
        case GL_STENCIL_INDEX_OES: case 0x1904 /* GL_GREEN */: case 0x1905 /* GL_BLUE */:
        // desktop integer formats (EXT_texture_integer): GREEN, BLUE, ALPHA, LUMINANCE
        case 0x8D95: case 0x8D96: case 0x8D97: case 0x8D9C:
            return 1;
        case GL_RG: case GL_RG_INTEGER: case GL_LUMINANCE_ALPHA: case GL_DEPTH_STENCIL:
        case 0x8D9D /* GL_LUMINANCE_ALPHA_INTEGER_EXT */:
            return 2;
        case GL_RGB: case GL_RGB_INTEGER: case GL_SRGB_EXT: case 0x80E0 /* GL_BGR */: case 0x8D9A /* GL_BGR_INTEGER */:
            return 3;
        case GL_RGBA: case GL_RGBA_INTEGER: case GL_BGRA_EXT: case GL_SRGB_ALPHA_EXT:
        case 0x8000 /* GL_ABGR_EXT */: case 0x8D9B /* GL_BGRA_INTEGER */:
            return 4;
        default:
            return 0;
    }
}

// Whole-pixel size of packed types, 0 for the others.
uint32_t packed_bytes(uint32_t type) {
    switch (type) {
        // desktop GL's: 3_3_2, 2_3_3_REV
        case 0x8032: case 0x8362:
            return 1;
        case 0x8364 /* GL_UNSIGNED_SHORT_5_6_5_REV */:
            return 2;
        // desktop GL's: 8_8_8_8, 8_8_8_8_REV, 10_10_10_2
        case 0x8035: case 0x8367: case 0x8036:
            return 4;
        case GL_UNSIGNED_SHORT_5_6_5: case GL_UNSIGNED_SHORT_4_4_4_4: case GL_UNSIGNED_SHORT_5_5_5_1:
        case GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT: case GL_UNSIGNED_SHORT_1_5_5_5_REV_EXT:
            return 2;
        case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_10F_11F_11F_REV: case GL_UNSIGNED_INT_5_9_9_9_REV:
        case GL_UNSIGNED_INT_24_8:
            return 4;
        case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
            return 8;
        default:
            return 0;
    }
}

uint32_t component_bytes(uint32_t type) {
    switch (type) {
        case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
        case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2;
        case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT: return 4;
        default: return 0;
    }
}

uint64_t saturate(unsigned __int128 v) { return v > kUnknownSize - 1 ? kUnknownSize - 1 : uint64_t(v); }

}  // namespace

uint32_t pixel_bytes(uint32_t format, uint32_t type) {
    const uint32_t n = components(format);
    if (!n) return 0;
    if (uint32_t p = packed_bytes(type)) return p;
    return n * component_bytes(type);
}

uint64_t image_bytes(const PixelStore& ps, uint32_t format, uint32_t type, int64_t width, int64_t height,
                     int64_t depth, bool three_d) {
    if (width <= 0 || height <= 0 || depth <= 0) return 0;  // nothing read (or a GL error)
    const uint32_t bpp = pixel_bytes(format, type);
    if (!bpp) return kUnknownSize;
    using u128 = unsigned __int128;
    auto nonneg = [](int32_t v) { return u128(v > 0 ? v : 0); };
    const u128 row_pixels = ps.row_length > 0 ? u128(ps.row_length) : u128(width);
    const u128 align = u128(ps.alignment > 0 ? ps.alignment : 1);
    // GL pads each row to the alignment (a no-op when the element is wider).
    const u128 stride = (row_pixels * bpp + align - 1) / align * align;
    // The last byte touched: the far corner of the box, after every skip.
    u128 last = (nonneg(ps.skip_rows) + u128(height) - 1) * stride + (nonneg(ps.skip_pixels) + u128(width)) * bpp;
    if (three_d) {
        const u128 image_rows = ps.image_height > 0 ? u128(ps.image_height) : u128(height);
        last += (nonneg(ps.skip_images) + u128(depth) - 1) * image_rows * stride;
    }
    return saturate(last);
}

uint64_t index_bytes(int64_t count, uint32_t type) {
    if (count <= 0) return 0;
    uint32_t size = 0;
    switch (type) {
        case GL_UNSIGNED_BYTE: size = 1; break;
        case GL_UNSIGNED_SHORT: size = 2; break;
        case GL_UNSIGNED_INT: size = 4; break;
        default: return kUnknownSize;
    }
    return saturate((unsigned __int128)count * size);
}

uint32_t clear_value_count(uint32_t buffer) {
    switch (buffer) {
        case GL_COLOR: return 4;
        case GL_DEPTH: case GL_STENCIL: case GL_DEPTH_STENCIL: return 1;
        default: return 0;
    }
}

}  // namespace mgl::wire
