// glGetTexImage (desktop GL) on Magma: the level is copied out of its image
// a layer (or 3D slice) at a time, its texels turned into the desktop
// components of the program's format (the GL front end's table: luminance
// to R, alpha to A...) and written as the program's format/type pair by
// the front end's packer (backends/gl/context/texel_pack.h), the one
// Espryt's reads use (stencil reads: depth_stencil_read.cc). Compressed
// levels are refused with GL_INVALID_OPERATION and one log line.
#include <GLES3/gl32.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "backend.h"
#include "context/texel_convert.h"
#include "context/texel_pack.h"
#include "etc2.h"

namespace mgl::magma {

namespace {

// One texel as desktop RGBA: `hf` (a format of the front end's table) maps
// device channels to components; other formats read as they are.
bool texel_rgba(VkFormat f, const uint8_t* texel, const gl::HostFormat* hf, double out[4]) {
    double dev[4];
    if (is_integer_format(f)) {
        int32_t v[4];
        texel_rgba_int(f, texel, v);
        const bool sign = is_signed_integer_format(f);
        for (int i = 0; i < 4; ++i) dev[i] = sign ? double(v[i]) : double(uint32_t(v[i]));
    } else {
        float v[4];
        if (!texel_rgba32f(f, texel, v)) return false;
        for (int i = 0; i < 4; ++i) dev[i] = v[i];
    }
    if (hf) gl::device_to_rgba(*hf, dev, out);
    else std::copy(dev, dev + 4, out);
    return true;
}

}  // namespace

void MagmaBackend::glGetTexImage(GLenum target, GLint level, GLenum format, GLenum type,
                                 wire::OutOrOffset<uint8_t> pixels) {
    constexpr gen::Op op = gen::Op::glGetTexImage;
    if (!need_context(op)) return;
    if (!cur_->desktop()) return refuse(op, GL_INVALID_OPERATION, "glGetTexImage is a desktop GL verb");
    const bool face = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
    if (target != GL_TEXTURE_2D && target != GL_TEXTURE_3D && target != GL_TEXTURE_2D_ARRAY && target != GL_TEXTURE_1D &&
        target != GL_TEXTURE_1D_ARRAY && target != GL_TEXTURE_RECTANGLE && !face)
        return refuse(op, GL_INVALID_ENUM, "target (Magma reads 1D, 2D, 3D, array, rectangle and cube face levels)");
    Texture* t = bound_texture(op, target);
    if (!t) return;
    if (level < 0 || level > 15) return refuse(op, GL_INVALID_VALUE, "level");
    Image& img = t->img;
    if (!img.image || uint32_t(level) >= img.levels || !(t->defined >> level & 1)) return;  // nothing is written
    if (etc2::Format cf; etc2::format(t->fmt.sized, cf))
        return refuse(op, GL_INVALID_OPERATION, "compressed levels are not read back by Magma");
    if (format == GL_STENCIL_INDEX || format == GL_DEPTH_STENCIL)
        return get_depth_stencil_image(target, level, format, type, pixels);  // depth_stencil_read.cc
    if ((format == GL_DEPTH_COMPONENT) != (t->fmt.depth || t->fmt.stencil))
        return refuse(op, GL_INVALID_OPERATION, "format does not match the texture's (depth vs colour)");
    const bool int_tex = is_integer_format(img.format);
    gl::ComponentLayout layout{};
    if (!gl::component_layout(format, &layout) || layout.integer != int_tex)
        return refuse(op, GL_INVALID_OPERATION, "format/type pair not converted from the texture's format");

    const int32_t w = int32_t(std::max(img.width >> level, 1u)), h = int32_t(std::max(img.height >> level, 1u));
    const uint32_t first = face ? target - GL_TEXTURE_CUBE_MAP_POSITIVE_X : 0;
    const uint32_t layers = face                          ? 1
                            : img.type == VK_IMAGE_TYPE_3D ? std::max(img.depth >> level, 1u)
                                                           : (t->target == GL_TEXTURE_2D_ARRAY || t->target == GL_TEXTURE_1D_ARRAY ? img.layers : 1);
    const PixelStore& p = cur_->pack;
    const gl::PackState ps{p.alignment, p.row_length, p.skip_pixels, p.skip_rows};
    const size_t image_stride = gl::packed_row_stride(format, type, ps, w) * size_t(h);
    const size_t one = gl::packed_image_bytes(format, type, ps, w, h);
    if (!one) return refuse(op, GL_INVALID_OPERATION, "format/type pair not written by Magma's reads");
    const size_t need = image_stride * (layers - 1) + one;
    uint8_t* out = nullptr;
    if (!pack_destination(op, pixels, need, &out)) return;

    gl::HostFormat hf;
    const bool mapped = t->fmt.desktop && gl::host_format(t->fmt.sized, &hf);
    std::vector<double> rgba(size_t(w) * size_t(h) * 4);
    for (uint32_t z = 0; z < layers; ++z) {
        VkFormat f;
        std::vector<uint8_t> px;
        if (!read_image(img, uint32_t(level), first + z, 0, 0, w, h, f, px))
            return refuse(op, GL_INVALID_OPERATION, "the level could not be read back");
        const uint32_t tb = f == VK_FORMAT_D32_SFLOAT_S8_UINT ? 4 : format_bytes(f);  // a depth aspect: its 4 bytes
        for (size_t i = 0; i < size_t(w) * size_t(h); ++i)
            if (!texel_rgba(f, px.data() + i * tb, mapped ? &hf : nullptr, &rgba[i * 4]))
                return refuse(op, GL_INVALID_OPERATION, "texels of this format are not read back by Magma yet");
        // Into the pack buffer only once read_image waited for the GPU (nothing can read it then).
        uint8_t* dst = pack_bytes(pixels, out);
        gl::pack_rgba(format, type, ps, w, h, rgba.data(), gl::LuminanceRead::red, dst + image_stride * z);
    }
}

}  // namespace mgl::magma
