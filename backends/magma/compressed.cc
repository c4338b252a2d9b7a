// Compressed textures: ETC2/EAC (GLES 3.0) and ETC1, decoded on upload into
// uncompressed images (etc2.h), since lavapipe and desktop Vulkan drivers do
// not sample ETC2. The texture keeps the compressed internal format for GL's
// rules (sub-image format match, block alignment) and queries.
#include <GLES3/gl3.h>

#include <vector>

#include "backend.h"
#include "etc2.h"

namespace mgl::magma {

namespace {
bool is_cube_face(GLenum t) { return t >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && t <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z; }
}  // namespace

const uint8_t* MagmaBackend::compressed_source(gen::Op verb, wire::InOrOffset<uint8_t> data, size_t need) {
    if (data.is_offset()) {
        if (!cur_->pixel_unpack) {
            // No data: the image is only defined. Any other offset would name
            // an address the client chose.
            if (data.offset != 0) refuse(verb, GL_INVALID_OPERATION, "offset while no pixel unpack buffer is bound");
            return nullptr;
        }
        Buffer& b = *cur_->pixel_unpack;
        if (data.offset > b.size || b.size - data.offset < need) {
            refuse(verb, GL_INVALID_OPERATION, "data outside the pixel unpack buffer");
            return nullptr;
        }
        return host_bytes(b) + data.offset;
    }
    if (data.data && data.size < need) {
        refuse(verb, GL_INVALID_VALUE, "fewer bytes than imageSize");
        return nullptr;
    }
    return data.data;
}

void MagmaBackend::compressed_image(gen::Op verb, GLenum target, GLint level, GLenum ifmt, GLsizei w, GLsizei h,
                                    GLsizei d, GLint border, GLsizei size, wire::InOrOffset<uint8_t> data) {
    if (!need_context(verb)) return;
    Texture* t = bound_texture(verb, target);
    if (!t) return;
    etc2::Format cf;
    if (!etc2::format(ifmt, cf)) return refuse(verb, GL_INVALID_ENUM, "compressed format not supported (Magma decodes ETC2/EAC and ETC1)");
    const bool two_d = target == GL_TEXTURE_2D || is_cube_face(target);
    if (verb == gen::Op::glCompressedTexImage2D ? !two_d : target != GL_TEXTURE_2D_ARRAY)
        return refuse(verb, GL_INVALID_OPERATION, "ETC2/EAC images are 2D, cube faces or 2D arrays");
    if (level < 0 || level > 15 || w < 0 || h < 0 || d < 0 || border != 0 || (is_cube_face(target) && w != h))
        return refuse(verb, GL_INVALID_VALUE, "level, size or border");
    if (t->immutable) return refuse(verb, GL_INVALID_OPERATION, "immutable texture");
    const size_t need = etc2::image_bytes(cf, uint32_t(w), uint32_t(h), uint32_t(d));
    if (size < 0 || size_t(size) != need) return refuse(verb, GL_INVALID_VALUE, "imageSize does not match the size");
    TexFormat f;
    if (!tex_format(ifmt, 0, 0, gpu_->dev().depth_stencil_format, f)) return refuse(verb, GL_INVALID_ENUM, "format");
    if (!w || !h || !d) return;
    if (!define_image(*t, target, level, f, uint32_t(w), uint32_t(h), uint32_t(d))) return set_error(GL_OUT_OF_MEMORY);
    t->defined |= 1u << level;
    compressed_sub_image(verb, target, level, 0, 0, 0, w, h, d, ifmt, size, data);
}

void MagmaBackend::compressed_sub_image(gen::Op verb, GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                                        GLsizei h, GLsizei d, GLenum format, GLsizei size,
                                        wire::InOrOffset<uint8_t> data) {
    if (!need_context(verb)) return;
    Texture* t = bound_texture(verb, target);
    if (!t) return;
    etc2::Format cf;
    if (!etc2::format(format, cf)) return refuse(verb, GL_INVALID_ENUM, "compressed format not supported");
    if (!t->img.image || t->fmt.sized != format) return refuse(verb, GL_INVALID_OPERATION, "format differs from the texture's");
    if (level < 0 || uint32_t(level) >= t->img.levels || x < 0 || y < 0 || z < 0 || w < 0 || h < 0 || d < 0)
        return refuse(verb, GL_INVALID_VALUE, "region");
    const uint32_t lw = std::max(t->img.width >> level, 1u), lh = std::max(t->img.height >> level, 1u);
    const uint32_t layers = target == GL_TEXTURE_2D_ARRAY ? t->img.layers : 1;
    if (uint32_t(x + w) > lw || uint32_t(y + h) > lh || uint32_t(z + d) > layers)
        return refuse(verb, GL_INVALID_VALUE, "region outside the texture level");
    // Whole blocks only, except where the region ends at the level's edge.
    if (x % 4 || y % 4 || (w % 4 && uint32_t(x + w) != lw) || (h % 4 && uint32_t(y + h) != lh))
        return refuse(verb, GL_INVALID_OPERATION, "region not aligned to 4x4 blocks");
    const size_t need = etc2::image_bytes(cf, uint32_t(w), uint32_t(h), uint32_t(d));
    if (size < 0 || size_t(size) != need) return refuse(verb, GL_INVALID_VALUE, "imageSize does not match the region");
    if (!w || !h || !d) return;
    const uint8_t* src = compressed_source(verb, data, need);
    if (!src) return;
    const size_t layer_blocks = etc2::image_bytes(cf, uint32_t(w), uint32_t(h));
    const size_t layer_texels = size_t(w) * h * cf.texel_bytes;
    Gpu::Slice s = gpu_->stream(layer_texels * uint32_t(d), 16);
    if (!s.ptr) return set_error(GL_OUT_OF_MEMORY);
    for (GLsizei i = 0; i < d; ++i)
        etc2::decode(cf, src + layer_blocks * i, uint32_t(w), uint32_t(h), s.ptr + layer_texels * i);
    copy_texels(*t, target, level, x, y, z, uint32_t(w), uint32_t(h), uint32_t(d), s);
}

void MagmaBackend::glCompressedTexImage2D(GLenum target, GLint level, GLenum ifmt, GLsizei w, GLsizei h, GLint border,
                                          GLsizei size, wire::InOrOffset<uint8_t> data) {
    compressed_image(gen::Op::glCompressedTexImage2D, target, level, ifmt, w, h, 1, border, size, data);
}

void MagmaBackend::glCompressedTexSubImage2D(GLenum target, GLint level, GLint x, GLint y, GLsizei w, GLsizei h,
                                             GLenum format, GLsizei size, wire::InOrOffset<uint8_t> data) {
    compressed_sub_image(gen::Op::glCompressedTexSubImage2D, target, level, x, y, 0, w, h, 1, format, size, data);
}

void MagmaBackend::glCompressedTexImage3D(GLenum target, GLint level, GLenum ifmt, GLsizei w, GLsizei h, GLsizei d,
                                          GLint border, GLsizei size, wire::InOrOffset<uint8_t> data) {
    compressed_image(gen::Op::glCompressedTexImage3D, target, level, ifmt, w, h, d, border, size, data);
}

void MagmaBackend::glCompressedTexSubImage3D(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                                             GLsizei h, GLsizei d, GLenum format, GLsizei size,
                                             wire::InOrOffset<uint8_t> data) {
    compressed_sub_image(gen::Op::glCompressedTexSubImage3D, target, level, x, y, z, w, h, d, format, size, data);
}

}  // namespace mgl::magma
