// GL pixel formats on Vulkan: which VkFormat holds a GL internal format, how
// client pixels (format, type, unpack state) become texels of it, and how
// texels come back as RGBA8 for glReadPixels and surface readback.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

namespace mgl::magma {

// GL pixel-store state of one direction (pack or unpack).
struct PixelStore {
    int alignment = 4, row_length = 0, skip_rows = 0, skip_pixels = 0, image_height = 0, skip_images = 0;
};

enum class Conv : uint8_t {
    copy,          // same bytes per texel
    rgb8_rgba8,    // 3 bytes -> 4, alpha 255
    rgb32f_rgba32f,
    rgb16f_rgba16f,
    p565_rgba8,
    p4444_rgba8,
    p5551_rgba8,
    u16_d32f,      // normalized depth
    u32_d32f,
    u24s8_d24s8,   // depth values into a depth/stencil format's depth aspect (4 bytes a texel:
                   // D24 in the low bits, or D32 float): src_bytes and ds_source say what comes
    rgb_rgba_int,  // 3 integer components -> 4, alpha 1 (src_bytes / 3 bytes each)
    rgb_rgba_one,  // 3 components -> 4, alpha TexFormat::one (src_bytes / 3 bytes each): norm16, snorm
    f32_f16,       // src_bytes / 4 floats -> dst_bytes / 2 halves (a missing alpha: 1.0)
};

struct TexFormat {
    VkFormat vk = VK_FORMAT_UNDEFINED;
    VkComponentMapping swizzle{};  // identity unless LUMINANCE/ALPHA
    uint32_t src_bytes = 0;        // client bytes per pixel
    uint32_t dst_bytes = 0;        // texel bytes in the VkFormat
    Conv conv = Conv::copy;
    uint32_t sized = 0;            // the sized GL internal format (GL_RGBA8...)
    uint32_t one = 0;              // rgb_rgba_one's alpha bytes (little-endian)
    // u24s8_d24s8's source: 'p' UNSIGNED_INT_24_8, 'f' float (FLOAT or the
    // float of FLOAT_32_UNSIGNED_INT_24_8_REV), 'i' normalized uint, 's' normalized ushort.
    char ds_source = 'p';
    bool depth = false, stencil = false;
    // Chosen by the GL front end's desktop table (desktop_textures.cc):
    // uploads convert through the front end's converter.
    bool desktop = false;
};

// The texture format for glTexImage*(internalformat, format, type) (format/type
// 0: from a sized internal format alone, as glTexStorage/glRenderbufferStorage).
// false: not supported.
bool tex_format(uint32_t internalformat, uint32_t format, uint32_t type, VkFormat depth_stencil, TexFormat& out);

// A desktop internal format through the GL front end's table
// (desktop_textures.cc); false: one the table does not know, or depth/stencil.
bool desktop_tex_format(uint32_t internalformat, VkFormat depth_stencil, TexFormat& out);

// Bytes per client row and the start of the image inside client memory.
size_t unpack_row_bytes(const PixelStore& ps, uint32_t width, uint32_t src_bytes);
size_t unpack_bytes(const PixelStore& ps, uint32_t w, uint32_t h, uint32_t d, uint32_t src_bytes, bool three_d);

// Writes w*h*d tightly packed texels at dst from client memory src (size bytes).
bool convert_upload(const TexFormat& f, const PixelStore& ps, uint32_t w, uint32_t h, uint32_t d, bool three_d,
                    const uint8_t* src, size_t size, uint8_t* dst);

// RGBA8 of one texel of a color format; false when the format is not readable.
bool texel_rgba8(VkFormat f, const uint8_t* texel, uint8_t out[4]);
bool texel_rgba32f(VkFormat f, const uint8_t* texel, float out[4]);
// Integer texels (GL_RGBA_INTEGER readback): false when f is not an integer format.
bool texel_rgba_int(VkFormat f, const uint8_t* texel, int32_t out[4]);
bool is_integer_format(VkFormat f);
bool is_signed_integer_format(VkFormat f);
uint32_t format_bytes(VkFormat f);
bool is_depth_format(VkFormat f);
bool has_stencil(VkFormat f);

}  // namespace mgl::magma
