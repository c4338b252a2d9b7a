// Desktop texture formats and uploads on Magma (issues 13 and 14). Desktop
// GL has internal formats Vulkan lacks (luminance, alpha and intensity ones,
// EXT_texture_integer's integer luminance/alpha, RGB12, R3_G3_B2...) and lets
// an upload name any format/type pair for any of them. The GL front end's
// table (backends/gl/context/texel_convert.h, the one Espryt uses) says
// where each desktop format lives: a GLES sized format, the pair its texels
// take and the swizzle that reads them back as desktop GL would. Magma holds
// that GLES format in its VkFormat (tex_format) and converts the program's
// pair with the front end's converter, so both backends convert alike.
// Formats the table does not know (depth, stencil, compressed) keep Magma's
// own path in textures.cc.
#include <GLES3/gl32.h>

#include <vector>

#include "backend.h"
#include "context/texel_convert.h"

namespace mgl::magma {

namespace {

VkComponentSwizzle vk_swizzle(uint32_t gl) {
    switch (gl) {
        case GL_RED: return VK_COMPONENT_SWIZZLE_R;
        case GL_GREEN: return VK_COMPONENT_SWIZZLE_G;
        case GL_BLUE: return VK_COMPONENT_SWIZZLE_B;
        case GL_ALPHA: return VK_COMPONENT_SWIZZLE_A;
        case GL_ONE: return VK_COMPONENT_SWIZZLE_ONE;
        default: return VK_COMPONENT_SWIZZLE_ZERO;
    }
}

}  // namespace

bool desktop_tex_format(uint32_t internalformat, VkFormat depth_stencil, TexFormat& out) {
    gl::HostFormat hf;
    if (!gl::host_format(internalformat, &hf) || hf.depth || hf.stencil) return false;
    TexFormat f;
    if (!tex_format(hf.internalformat, hf.format, hf.type, depth_stencil, f)) return false;
    if (hf.swizzled)
        f.swizzle = {vk_swizzle(hf.swizzle[0]), vk_swizzle(hf.swizzle[1]), vk_swizzle(hf.swizzle[2]),
                     vk_swizzle(hf.swizzle[3])};
    f.sized = internalformat;  // what the program named: GL_TEXTURE_INTERNAL_FORMAT answers it
    f.desktop = true;
    out = f;
    return true;
}

bool MagmaBackend::unpack_source(gen::Op verb, wire::InOrOffset<uint8_t> pixels, const uint8_t** src, size_t* size) {
    *src = pixels.data;
    *size = pixels.size;
    if (!pixels.is_offset()) return true;
    if (!cur_->pixel_unpack) {
        *src = nullptr;  // offset 0 and no buffer: no data, only the definition
        if (pixels.offset == 0) return true;
        refuse(verb, GL_INVALID_OPERATION, "offset while no pixel unpack buffer is bound");
        return false;
    }
    Buffer& b = *cur_->pixel_unpack;
    if (pixels.offset > b.size) {
        refuse(verb, GL_INVALID_OPERATION, "offset outside the pixel unpack buffer");
        return false;
    }
    *src = host_bytes(b) + pixels.offset;
    *size = size_t(b.size - pixels.offset);
    return true;
}

bool MagmaBackend::desktop_upload(gen::Op verb, Texture& t, GLenum target, int level, int x, int y, int z, uint32_t w,
                                  uint32_t h, uint32_t d, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    gl::HostFormat hf;
    if (!gl::host_format(t.fmt.sized, &hf)) return false;
    const uint8_t* src = nullptr;
    size_t size = 0;
    if (!unpack_source(verb, pixels, &src, &size)) return false;
    if (!src || !w || !h || !d) return true;
    const GLenum ot = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z
                          ? GL_TEXTURE_CUBE_MAP
                          : target;
    const bool three_d = ot == GL_TEXTURE_3D || ot == GL_TEXTURE_2D_ARRAY;

    // The device takes the program's pair as it is: one conversion, straight from client memory.
    TexFormat direct;
    if (!cur_->unpack_swap && gl::device_takes(hf, format, type) &&
        tex_format(hf.internalformat, format, type, gpu_->dev().depth_stencil_format, direct) && direct.vk == t.fmt.vk) {
        return stage_texels(verb, t, target, level, x, y, z, w, h, d, direct, cur_->unpack, three_d, src, size);
    }
    if (!gl::convertible(format, type, hf)) {
        refuse(verb, gl::source_pixel_bytes(format, type) ? GL_INVALID_OPERATION : GL_INVALID_ENUM,
               "this format/type pair is not converted into the texture's format "
               "(another class of data: integer for colour, colour for depth...)");
        return false;
    }
    const PixelStore& u = cur_->unpack;
    const gl::UnpackState us{u.alignment, u.row_length, u.image_height, u.skip_pixels, u.skip_rows, u.skip_images,
                             cur_->unpack_swap};
    std::vector<uint8_t> texels;  // the device pair, tightly packed
    if (!gl::convert_texels(us, format, type, hf, w, h, d, three_d, src, size, &texels)) {
        refuse(verb, GL_INVALID_OPERATION, "pixel data shorter than the image");
        return false;
    }
    TexFormat dev;
    if (!tex_format(hf.internalformat, hf.format, hf.type, gpu_->dev().depth_stencil_format, dev) || dev.vk != t.fmt.vk) {
        refuse(verb, GL_INVALID_OPERATION, "the level's image is not in the format its desktop table entry gives");
        return false;
    }
    PixelStore tight;
    tight.alignment = 1;
    return stage_texels(verb, t, target, level, x, y, z, w, h, d, dev, tight, three_d, texels.data(), texels.size());
}

}  // namespace mgl::magma
