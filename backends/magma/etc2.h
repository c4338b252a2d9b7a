// ETC2/EAC compressed textures (GLES 3.0's mandatory compressed formats, and
// ETC1) decoded on upload: lavapipe and desktop GPUs have no
// textureCompressionETC2. Texels come out as RGBA8 (sRGB for the sRGB
// formats), R16/RG16 UNORM or SNORM for the 11-bit EAC formats, which keep
// all their precision.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

namespace mgl::magma::etc2 {

enum class Kind : uint8_t { rgb8, rgb8_a1, rgba8, r11, r11_signed, rg11, rg11_signed };

struct Format {
    Kind kind = Kind::rgb8;
    uint32_t block_bytes = 8;  // per 4x4 block
    VkFormat vk = VK_FORMAT_UNDEFINED;
    uint32_t texel_bytes = 4;  // of vk
};

// The ETC2/EAC (or ETC1) GL internal format; false: not one of them.
bool format(uint32_t gl_internal_format, Format& out);

// Bytes of a w x h (x depth) image: whole 4x4 blocks.
inline size_t image_bytes(const Format& f, uint32_t w, uint32_t h, uint32_t d = 1) {
    return size_t((w + 3) / 4) * ((h + 3) / 4) * d * f.block_bytes;
}

// Decodes a w x h image of blocks (rows of blocks, first row first) into
// tightly packed texels of f.vk, first row first (GL's row order: no flip).
void decode(const Format& f, const uint8_t* blocks, uint32_t w, uint32_t h, uint8_t* texels);

}  // namespace mgl::magma::etc2
