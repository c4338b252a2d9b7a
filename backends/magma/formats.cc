// GL pixel formats on Vulkan (formats.h): the VkFormat that holds a GL
// internal format, and client pixels unpacked and converted into its texels.
// Texels read back: format_texels.cc.
#include "formats.h"

#include "etc2.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace mgl::magma {

namespace {

constexpr VkComponentMapping kIdentity{};
constexpr VkComponentSwizzle R = VK_COMPONENT_SWIZZLE_R, G = VK_COMPONENT_SWIZZLE_G, ONE = VK_COMPONENT_SWIZZLE_ONE,
                             ZERO = VK_COMPONENT_SWIZZLE_ZERO;

TexFormat fmt(VkFormat vk, uint32_t src, uint32_t dst, Conv c, uint32_t sized, VkComponentMapping sw = kIdentity) {
    TexFormat f;
    f.vk = vk;
    f.src_bytes = src;
    f.dst_bytes = dst;
    f.conv = c;
    f.sized = sized;
    f.swizzle = sw;
    return f;
}

TexFormat with_one(TexFormat f, uint32_t one) {
    f.one = one;
    return f;
}

// IEEE single to half, rounding to nearest even (denormals, infinities and NaN kept).
uint16_t float_to_half(float v) {
    uint32_t x;
    std::memcpy(&x, &v, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t mag = x & 0x7FFFFFFFu;
    if (mag >= 0x7F800000u) return uint16_t(sign | 0x7C00u | (mag > 0x7F800000u ? 0x200u : 0));
    if (mag >= 0x477FF000u) return uint16_t(sign | 0x7C00u);  // rounds past the largest half
    if (mag < 0x38800000u) {  // a half denormal (or zero)
        const uint32_t m = (mag & 0x7FFFFFu) | 0x800000u;
        const int shift = 113 - int(mag >> 23) + 13;
        if (shift > 24) return uint16_t(sign);
        uint32_t h = m >> shift;
        const uint32_t rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rest > half || (rest == half && (h & 1))) ++h;
        return uint16_t(sign | h);
    }
    uint32_t h = ((mag >> 13) - (112u << 10));
    const uint32_t rest = mag & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;
    return uint16_t(sign | h);
}

}  // namespace

bool tex_format(uint32_t ifmt, uint32_t format, uint32_t type, VkFormat ds, TexFormat& o) {
    // Compressed formats, for glTexStorage (format and type 0): their texels
    // are decoded on upload (etc2.h). glTexImage does not take them.
    if (etc2::Format c; format == 0 && type == 0 && etc2::format(ifmt, c)) {
        o = fmt(c.vk, c.texel_bytes, c.texel_bytes, Conv::copy, ifmt);
        return true;
    }
    // Sized internal formats first (ES3 glTexImage with a sized format, glTexStorage, renderbuffers).
    switch (ifmt) {
        case GL_RGBA8:
        case GL_RGBA4:
        case GL_RGB5_A1:
            if (type == GL_UNSIGNED_SHORT_4_4_4_4) { o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 2, 4, Conv::p4444_rgba8, ifmt); return true; }
            if (type == GL_UNSIGNED_SHORT_5_5_5_1) { o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 2, 4, Conv::p5551_rgba8, ifmt); return true; }
            if (type != GL_UNSIGNED_BYTE && type != 0) return false;  // other pairs: the front end converts (desktop)
            o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 4, 4, Conv::copy, ifmt);
            return true;
        case GL_SRGB8_ALPHA8: o = fmt(VK_FORMAT_R8G8B8A8_SRGB, 4, 4, Conv::copy, ifmt); return true;
        case GL_RGB8:
        case GL_RGB565:
            if (type == GL_UNSIGNED_SHORT_5_6_5) { o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 2, 4, Conv::p565_rgba8, ifmt); return true; }
            if (type != GL_UNSIGNED_BYTE && type != 0) return false;
            o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 3, 4, Conv::rgb8_rgba8, ifmt);
            return true;
        case GL_SRGB8: o = fmt(VK_FORMAT_R8G8B8A8_SRGB, 3, 4, Conv::rgb8_rgba8, ifmt); return true;
        case GL_R8: o = fmt(VK_FORMAT_R8_UNORM, 1, 1, Conv::copy, ifmt); return true;
        case GL_RG8: o = fmt(VK_FORMAT_R8G8_UNORM, 2, 2, Conv::copy, ifmt); return true;
        case GL_RGBA32F: o = fmt(VK_FORMAT_R32G32B32A32_SFLOAT, 16, 16, Conv::copy, ifmt); return true;
        case GL_RGB32F: o = fmt(VK_FORMAT_R32G32B32A32_SFLOAT, 12, 16, Conv::rgb32f_rgba32f, ifmt); return true;
        case GL_RG32F: o = fmt(VK_FORMAT_R32G32_SFLOAT, 8, 8, Conv::copy, ifmt); return true;
        case GL_R32F: o = fmt(VK_FORMAT_R32_SFLOAT, 4, 4, Conv::copy, ifmt); return true;
        // 16-bit float formats take halves as they are, or floats (GLES 3.2 table 8.10) converted.
        case GL_RGBA16F:
            o = type == GL_FLOAT ? fmt(VK_FORMAT_R16G16B16A16_SFLOAT, 16, 8, Conv::f32_f16, ifmt)
                                 : fmt(VK_FORMAT_R16G16B16A16_SFLOAT, 8, 8, Conv::copy, ifmt);
            return true;
        case GL_RGB16F:
            o = type == GL_FLOAT ? fmt(VK_FORMAT_R16G16B16A16_SFLOAT, 12, 8, Conv::f32_f16, ifmt)
                                 : fmt(VK_FORMAT_R16G16B16A16_SFLOAT, 6, 8, Conv::rgb16f_rgba16f, ifmt);
            return true;
        case GL_RG16F:
            o = type == GL_FLOAT ? fmt(VK_FORMAT_R16G16_SFLOAT, 8, 4, Conv::f32_f16, ifmt)
                                 : fmt(VK_FORMAT_R16G16_SFLOAT, 4, 4, Conv::copy, ifmt);
            return true;
        case GL_R16F:
            o = type == GL_FLOAT ? fmt(VK_FORMAT_R16_SFLOAT, 4, 2, Conv::f32_f16, ifmt)
                                 : fmt(VK_FORMAT_R16_SFLOAT, 2, 2, Conv::copy, ifmt);
            return true;
        // Packed float formats take their packed type as it is; float and
        // half data go into a half-float image, which holds every value of
        // both exactly (11/10-bit floats, and 9-bit mantissas under a shared
        // exponent, are halves with fewer bits).
        case GL_R11F_G11F_B10F:
        case GL_RGB9_E5:
            if (type == GL_FLOAT) { o = fmt(VK_FORMAT_R16G16B16A16_SFLOAT, 12, 8, Conv::f32_f16, ifmt); return true; }
            if (type == GL_HALF_FLOAT) { o = fmt(VK_FORMAT_R16G16B16A16_SFLOAT, 6, 8, Conv::rgb16f_rgba16f, ifmt); return true; }
            o = fmt(ifmt == GL_RGB9_E5 ? VK_FORMAT_E5B9G9R9_UFLOAT_PACK32 : VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 4,
                    Conv::copy, ifmt);
            return true;
        case GL_RGB10_A2: o = fmt(VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 4, Conv::copy, ifmt); return true;
        case GL_R8UI: o = fmt(VK_FORMAT_R8_UINT, 1, 1, Conv::copy, ifmt); return true;
        case GL_R8I: o = fmt(VK_FORMAT_R8_SINT, 1, 1, Conv::copy, ifmt); return true;
        case GL_RG8UI: o = fmt(VK_FORMAT_R8G8_UINT, 2, 2, Conv::copy, ifmt); return true;
        case GL_RG8I: o = fmt(VK_FORMAT_R8G8_SINT, 2, 2, Conv::copy, ifmt); return true;
        case GL_RGB8UI: o = fmt(VK_FORMAT_R8G8B8A8_UINT, 3, 4, Conv::rgb_rgba_int, ifmt); return true;
        case GL_RGB8I: o = fmt(VK_FORMAT_R8G8B8A8_SINT, 3, 4, Conv::rgb_rgba_int, ifmt); return true;
        case GL_R16UI: o = fmt(VK_FORMAT_R16_UINT, 2, 2, Conv::copy, ifmt); return true;
        case GL_R16I: o = fmt(VK_FORMAT_R16_SINT, 2, 2, Conv::copy, ifmt); return true;
        case GL_RG16UI: o = fmt(VK_FORMAT_R16G16_UINT, 4, 4, Conv::copy, ifmt); return true;
        case GL_RG16I: o = fmt(VK_FORMAT_R16G16_SINT, 4, 4, Conv::copy, ifmt); return true;
        case GL_RGB16UI: o = fmt(VK_FORMAT_R16G16B16A16_UINT, 6, 8, Conv::rgb_rgba_int, ifmt); return true;
        case GL_RGB16I: o = fmt(VK_FORMAT_R16G16B16A16_SINT, 6, 8, Conv::rgb_rgba_int, ifmt); return true;
        case GL_RGBA16UI: o = fmt(VK_FORMAT_R16G16B16A16_UINT, 8, 8, Conv::copy, ifmt); return true;
        case GL_RGBA16I: o = fmt(VK_FORMAT_R16G16B16A16_SINT, 8, 8, Conv::copy, ifmt); return true;
        case GL_RG32UI: o = fmt(VK_FORMAT_R32G32_UINT, 8, 8, Conv::copy, ifmt); return true;
        case GL_RG32I: o = fmt(VK_FORMAT_R32G32_SINT, 8, 8, Conv::copy, ifmt); return true;
        case GL_RGB32UI: o = fmt(VK_FORMAT_R32G32B32A32_UINT, 12, 16, Conv::rgb_rgba_int, ifmt); return true;
        case GL_RGB32I: o = fmt(VK_FORMAT_R32G32B32A32_SINT, 12, 16, Conv::rgb_rgba_int, ifmt); return true;
        case GL_RGBA8UI: o = fmt(VK_FORMAT_R8G8B8A8_UINT, 4, 4, Conv::copy, ifmt); return true;
        case GL_RGBA8I: o = fmt(VK_FORMAT_R8G8B8A8_SINT, 4, 4, Conv::copy, ifmt); return true;
        case GL_R32UI: o = fmt(VK_FORMAT_R32_UINT, 4, 4, Conv::copy, ifmt); return true;
        case GL_RGB10_A2UI: o = fmt(VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, 4, Conv::copy, ifmt); return true;
        // Signed normalized and 16-bit normalized formats (desktop GL; EXT_texture_norm16 on GLES).
        case GL_R8_SNORM: o = fmt(VK_FORMAT_R8_SNORM, 1, 1, Conv::copy, ifmt); return true;
        case GL_RG8_SNORM: o = fmt(VK_FORMAT_R8G8_SNORM, 2, 2, Conv::copy, ifmt); return true;
        case GL_RGB8_SNORM: o = with_one(fmt(VK_FORMAT_R8G8B8A8_SNORM, 3, 4, Conv::rgb_rgba_one, ifmt), 0x7F); return true;
        case GL_RGBA8_SNORM: o = fmt(VK_FORMAT_R8G8B8A8_SNORM, 4, 4, Conv::copy, ifmt); return true;
        case GL_R16_EXT: o = fmt(VK_FORMAT_R16_UNORM, 2, 2, Conv::copy, ifmt); return true;
        case GL_RG16_EXT: o = fmt(VK_FORMAT_R16G16_UNORM, 4, 4, Conv::copy, ifmt); return true;
        case GL_RGB16_EXT: o = with_one(fmt(VK_FORMAT_R16G16B16A16_UNORM, 6, 8, Conv::rgb_rgba_one, ifmt), 0xFFFF); return true;
        case GL_RGBA16_EXT: o = fmt(VK_FORMAT_R16G16B16A16_UNORM, 8, 8, Conv::copy, ifmt); return true;
        case GL_R16_SNORM_EXT: o = fmt(VK_FORMAT_R16_SNORM, 2, 2, Conv::copy, ifmt); return true;
        case GL_RG16_SNORM_EXT: o = fmt(VK_FORMAT_R16G16_SNORM, 4, 4, Conv::copy, ifmt); return true;
        case GL_RGB16_SNORM_EXT: o = with_one(fmt(VK_FORMAT_R16G16B16A16_SNORM, 6, 8, Conv::rgb_rgba_one, ifmt), 0x7FFF); return true;
        case GL_RGBA16_SNORM_EXT: o = fmt(VK_FORMAT_R16G16B16A16_SNORM, 8, 8, Conv::copy, ifmt); return true;
        case GL_R32I: o = fmt(VK_FORMAT_R32_SINT, 4, 4, Conv::copy, ifmt); return true;
        case GL_RGBA32UI: o = fmt(VK_FORMAT_R32G32B32A32_UINT, 16, 16, Conv::copy, ifmt); return true;
        case GL_RGBA32I: o = fmt(VK_FORMAT_R32G32B32A32_SINT, 16, 16, Conv::copy, ifmt); return true;
        // ARB_texture_float's luminance/alpha/intensity formats (desktop GL),
        // on one- and two-channel float formats read through a swizzle.
        case 0x8816: o = fmt(VK_FORMAT_R32_SFLOAT, 4, 4, Conv::copy, ifmt, {ZERO, ZERO, ZERO, R}); return true;  // ALPHA32F
        case 0x8817: o = fmt(VK_FORMAT_R32_SFLOAT, 4, 4, Conv::copy, ifmt, {R, R, R, R}); return true;           // INTENSITY32F
        case 0x8818: o = fmt(VK_FORMAT_R32_SFLOAT, 4, 4, Conv::copy, ifmt, {R, R, R, ONE}); return true;         // LUMINANCE32F
        case 0x8819: o = fmt(VK_FORMAT_R32G32_SFLOAT, 8, 8, Conv::copy, ifmt, {R, R, R, G}); return true;        // LUMINANCE_ALPHA32F
        case 0x881C: o = fmt(VK_FORMAT_R16_SFLOAT, 2, 2, Conv::copy, ifmt, {ZERO, ZERO, ZERO, R}); return true;  // ALPHA16F
        case 0x881D: o = fmt(VK_FORMAT_R16_SFLOAT, 2, 2, Conv::copy, ifmt, {R, R, R, R}); return true;           // INTENSITY16F
        case 0x881E: o = fmt(VK_FORMAT_R16_SFLOAT, 2, 2, Conv::copy, ifmt, {R, R, R, ONE}); return true;         // LUMINANCE16F
        case 0x881F: o = fmt(VK_FORMAT_R16G16_SFLOAT, 4, 4, Conv::copy, ifmt, {R, R, R, G}); return true;        // LUMINANCE_ALPHA16F
        case GL_DEPTH_COMPONENT16:
        case GL_DEPTH_COMPONENT24:
        case GL_DEPTH_COMPONENT32F:
        case GL_DEPTH_COMPONENT32_OES:
            o = fmt(VK_FORMAT_D32_SFLOAT, 4, 4,
                    type == GL_UNSIGNED_SHORT ? Conv::u16_d32f : type == GL_UNSIGNED_INT ? Conv::u32_d32f : Conv::copy, ifmt);
            if (type == GL_UNSIGNED_SHORT) o.src_bytes = 2;
            o.depth = true;
            return true;
        case GL_DEPTH24_STENCIL8:
        case GL_DEPTH32F_STENCIL8:
        case GL_STENCIL_INDEX8:
            // The depth aspect is copied 4 bytes a texel whatever the format.
            o = fmt(ds, 4, 4, Conv::u24s8_d24s8, ifmt);
            if (type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV) o.src_bytes = 8, o.ds_source = 'f';
            else if (type == GL_FLOAT) o.ds_source = 'f';
            else if (type == GL_UNSIGNED_INT) o.ds_source = 'i';
            else if (type == GL_UNSIGNED_SHORT) o.src_bytes = 2, o.ds_source = 's';
            o.depth = ifmt != GL_STENCIL_INDEX8;
            o.stencil = true;
            return true;
        default: break;
    }
    // Unsized (GLES 2) internal formats: the type decides.
    switch (ifmt) {
        case GL_RGBA:
            if (type == GL_UNSIGNED_BYTE || type == 0) { o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 4, 4, Conv::copy, GL_RGBA8); return true; }
            if (type == GL_UNSIGNED_SHORT_4_4_4_4) { o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 2, 4, Conv::p4444_rgba8, GL_RGBA4); return true; }
            if (type == GL_UNSIGNED_SHORT_5_5_5_1) { o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 2, 4, Conv::p5551_rgba8, GL_RGB5_A1); return true; }
            if (type == GL_FLOAT) { o = fmt(VK_FORMAT_R32G32B32A32_SFLOAT, 16, 16, Conv::copy, GL_RGBA32F); return true; }
            if (type == GL_HALF_FLOAT || type == GL_HALF_FLOAT_OES) { o = fmt(VK_FORMAT_R16G16B16A16_SFLOAT, 8, 8, Conv::copy, GL_RGBA16F); return true; }
            return false;
        case GL_RGB:
            if (type == GL_UNSIGNED_BYTE || type == 0) { o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 3, 4, Conv::rgb8_rgba8, GL_RGB8); return true; }
            if (type == GL_UNSIGNED_SHORT_5_6_5) { o = fmt(VK_FORMAT_R8G8B8A8_UNORM, 2, 4, Conv::p565_rgba8, GL_RGB565); return true; }
            if (type == GL_FLOAT) { o = fmt(VK_FORMAT_R32G32B32A32_SFLOAT, 12, 16, Conv::rgb32f_rgba32f, GL_RGB32F); return true; }
            if (type == GL_HALF_FLOAT || type == GL_HALF_FLOAT_OES) { o = fmt(VK_FORMAT_R16G16B16A16_SFLOAT, 6, 8, Conv::rgb16f_rgba16f, GL_RGB16F); return true; }
            return false;
        case GL_BGRA_EXT:
            if (type != GL_UNSIGNED_BYTE && type != 0) return false;
            o = fmt(VK_FORMAT_B8G8R8A8_UNORM, 4, 4, Conv::copy, GL_BGRA8_EXT);
            return true;
        case GL_LUMINANCE:
            if (type == GL_FLOAT) return tex_format(0x8818, format, type, ds, o);
            if (type == GL_HALF_FLOAT) return tex_format(0x881E, format, type, ds, o);
            if (type != GL_UNSIGNED_BYTE && type != 0) return false;
            o = fmt(VK_FORMAT_R8_UNORM, 1, 1, Conv::copy, GL_LUMINANCE8_EXT, {R, R, R, ONE});
            return true;
        case GL_ALPHA:
            if (type == GL_FLOAT) return tex_format(0x8816, format, type, ds, o);
            if (type == GL_HALF_FLOAT) return tex_format(0x881C, format, type, ds, o);
            if (type != GL_UNSIGNED_BYTE && type != 0) return false;
            o = fmt(VK_FORMAT_R8_UNORM, 1, 1, Conv::copy, GL_ALPHA8_EXT, {ZERO, ZERO, ZERO, R});
            return true;
        case GL_LUMINANCE_ALPHA:
            if (type == GL_FLOAT) return tex_format(0x8819, format, type, ds, o);
            if (type == GL_HALF_FLOAT) return tex_format(0x881F, format, type, ds, o);
            if (type != GL_UNSIGNED_BYTE && type != 0) return false;
            o = fmt(VK_FORMAT_R8G8_UNORM, 2, 2, Conv::copy, GL_LUMINANCE8_ALPHA8_EXT, {R, R, R, G});
            return true;
        case GL_RED:
            if (type == GL_FLOAT) return tex_format(GL_R32F, format, type, ds, o);
            return tex_format(GL_R8, format, type, ds, o);
        case GL_RG:
            if (type == GL_FLOAT) return tex_format(GL_RG32F, format, type, ds, o);
            return tex_format(GL_RG8, format, type, ds, o);
        case GL_DEPTH_COMPONENT: return tex_format(GL_DEPTH_COMPONENT24, format, type, ds, o);
        case GL_DEPTH_STENCIL: return tex_format(GL_DEPTH24_STENCIL8, format, type, ds, o);
        default: return false;
    }
}

size_t unpack_row_bytes(const PixelStore& ps, uint32_t width, uint32_t src_bytes) {
    const size_t pixels = ps.row_length > 0 ? size_t(ps.row_length) : width;
    const size_t raw = pixels * src_bytes;
    const size_t a = size_t(std::max(ps.alignment, 1));
    return (raw + a - 1) / a * a;
}

size_t unpack_bytes(const PixelStore& ps, uint32_t w, uint32_t h, uint32_t d, uint32_t src_bytes, bool three_d) {
    if (!w || !h || !d) return 0;
    const size_t row = unpack_row_bytes(ps, w, src_bytes);
    const size_t rows = three_d && ps.image_height > 0 ? size_t(ps.image_height) : h;
    const size_t skip_images = three_d ? size_t(ps.skip_images) : 0;
    return (skip_images + d - 1) * rows * row + (size_t(ps.skip_rows) + h - 1) * row +
           (size_t(ps.skip_pixels) + w) * src_bytes;
}

bool convert_upload(const TexFormat& f, const PixelStore& ps, uint32_t w, uint32_t h, uint32_t d, bool three_d,
                    const uint8_t* src, size_t size, uint8_t* dst) {
    if (unpack_bytes(ps, w, h, d, f.src_bytes, three_d) > size) return false;
    const size_t row = unpack_row_bytes(ps, w, f.src_bytes);
    const size_t rows = three_d && ps.image_height > 0 ? size_t(ps.image_height) : h;
    for (uint32_t z = 0; z < d; ++z) {
        for (uint32_t y = 0; y < h; ++y) {
            const uint8_t* s = src + (size_t(three_d ? ps.skip_images : 0) + z) * rows * row +
                               (size_t(ps.skip_rows) + y) * row + size_t(ps.skip_pixels) * f.src_bytes;
            uint8_t* o = dst + ((size_t(z) * h + y) * w) * f.dst_bytes;
            switch (f.conv) {
                case Conv::copy: std::memcpy(o, s, size_t(w) * f.dst_bytes); break;
                case Conv::rgb8_rgba8:
                    for (uint32_t x = 0; x < w; ++x) {
                        o[4 * x] = s[3 * x];
                        o[4 * x + 1] = s[3 * x + 1];
                        o[4 * x + 2] = s[3 * x + 2];
                        o[4 * x + 3] = 255;
                    }
                    break;
                case Conv::rgb32f_rgba32f:
                    for (uint32_t x = 0; x < w; ++x) {
                        const float one = 1.0f;
                        std::memcpy(o + 16 * x, s + 12 * x, 12);
                        std::memcpy(o + 16 * x + 12, &one, 4);
                    }
                    break;
                case Conv::rgb16f_rgba16f:
                    for (uint32_t x = 0; x < w; ++x) {
                        const uint16_t one = 0x3C00;
                        std::memcpy(o + 8 * x, s + 6 * x, 6);
                        std::memcpy(o + 8 * x + 6, &one, 2);
                    }
                    break;
                case Conv::p565_rgba8:
                case Conv::p4444_rgba8:
                case Conv::p5551_rgba8:
                    for (uint32_t x = 0; x < w; ++x) {
                        uint16_t p;
                        std::memcpy(&p, s + 2 * x, 2);
                        uint8_t* t = o + 4 * x;
                        if (f.conv == Conv::p565_rgba8) {
                            t[0] = uint8_t(((p >> 11) & 31) * 255 / 31);
                            t[1] = uint8_t(((p >> 5) & 63) * 255 / 63);
                            t[2] = uint8_t((p & 31) * 255 / 31);
                            t[3] = 255;
                        } else if (f.conv == Conv::p4444_rgba8) {
                            t[0] = uint8_t(((p >> 12) & 15) * 17);
                            t[1] = uint8_t(((p >> 8) & 15) * 17);
                            t[2] = uint8_t(((p >> 4) & 15) * 17);
                            t[3] = uint8_t((p & 15) * 17);
                        } else {
                            t[0] = uint8_t(((p >> 11) & 31) * 255 / 31);
                            t[1] = uint8_t(((p >> 6) & 31) * 255 / 31);
                            t[2] = uint8_t(((p >> 1) & 31) * 255 / 31);
                            t[3] = (p & 1) ? 255 : 0;
                        }
                    }
                    break;
                case Conv::u16_d32f:
                    for (uint32_t x = 0; x < w; ++x) {
                        uint16_t v;
                        std::memcpy(&v, s + 2 * x, 2);
                        const float fv = float(v) / 65535.0f;
                        std::memcpy(o + 4 * x, &fv, 4);
                    }
                    break;
                case Conv::u32_d32f:
                    for (uint32_t x = 0; x < w; ++x) {
                        uint32_t v;
                        std::memcpy(&v, s + 4 * x, 4);
                        const float fv = float(double(v) / 4294967295.0);
                        std::memcpy(o + 4 * x, &fv, 4);
                    }
                    break;
                case Conv::u24s8_d24s8:
                    for (uint32_t x = 0; x < w; ++x) {
                        const uint8_t* p = s + size_t(x) * f.src_bytes;
                        double d = 0;  // the depth in [0, 1]
                        if (f.ds_source == 'f') {
                            float v;
                            std::memcpy(&v, p, 4);
                            d = v == v ? std::clamp(double(v), 0.0, 1.0) : 0.0;
                        } else if (f.ds_source == 's') {
                            uint16_t v;
                            std::memcpy(&v, p, 2);
                            d = v / 65535.0;
                        } else {
                            uint32_t v;
                            std::memcpy(&v, p, 4);
                            d = f.ds_source == 'i' ? v / 4294967295.0 : (v >> 8) / 16777215.0;
                        }
                        if (f.vk == VK_FORMAT_D24_UNORM_S8_UINT) {
                            const uint32_t u = uint32_t(std::lround(d * 16777215.0));
                            std::memcpy(o + 4 * x, &u, 4);
                        } else {
                            const float v = float(d);
                            std::memcpy(o + 4 * x, &v, 4);
                        }
                    }
                    break;
                case Conv::rgb_rgba_one: {
                    const uint32_t cb = f.src_bytes / 3;  // 1 or 2
                    for (uint32_t x = 0; x < w; ++x) {
                        std::memcpy(o + 4 * cb * x, s + 3 * cb * x, 3 * cb);
                        std::memcpy(o + 4 * cb * x + 3 * cb, &f.one, cb);  // little-endian
                    }
                    break;
                }
                case Conv::f32_f16: {
                    const uint32_t in = f.src_bytes / 4, out = f.dst_bytes / 2;
                    for (uint32_t x = 0; x < w; ++x)
                        for (uint32_t c = 0; c < out; ++c) {
                            float v = 1.0f;
                            if (c < in) std::memcpy(&v, s + (size_t(x) * in + c) * 4, 4);
                            const uint16_t h = float_to_half(v);
                            std::memcpy(o + (size_t(x) * out + c) * 2, &h, 2);
                        }
                    break;
                }
                case Conv::rgb_rgba_int: {
                    const uint32_t cb = f.src_bytes / 3;  // 1, 2 or 4
                    const uint32_t one = 1;
                    for (uint32_t x = 0; x < w; ++x) {
                        std::memcpy(o + 4 * cb * x, s + 3 * cb * x, 3 * cb);
                        std::memcpy(o + 4 * cb * x + 3 * cb, &one, cb);  // little-endian: 1 in any width
                    }
                    break;
                }
            }
        }
    }
    return true;
}

}  // namespace mgl::magma
