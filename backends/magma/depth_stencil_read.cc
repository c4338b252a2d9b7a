// Depth and stencil values read back (desktop GL): glReadPixels of
// GL_DEPTH_COMPONENT, GL_STENCIL_INDEX and GL_DEPTH_STENCIL from the read
// framebuffer's depth/stencil image, and glGetTexImage of a depth/stencil
// texture's stencil or both. Each aspect is copied out of its image
// (read_image), turned into depth values and stencil indices, and written
// by the GL front end's packer (backends/gl/context/texel_pack.h,
// pack_depth_stencil), the one Espryt's depth reads use.
#include <GLES3/gl32.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "backend.h"
#include "context/texel_pack.h"

namespace mgl::magma {

namespace {
// A depth aspect as copied out: D16 2 bytes, D24 in the low bits of 4, D32 a float.
float depth_value(VkFormat f, const uint8_t* t) {
    if (f == VK_FORMAT_D16_UNORM) {
        uint16_t v;
        std::memcpy(&v, t, 2);
        return float(v) / 65535.0f;
    }
    uint32_t v;
    std::memcpy(&v, t, 4);
    if (f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_X8_D24_UNORM_PACK32)
        return float(double(v & 0xFFFFFF) / 16777215.0);
    float d;
    std::memcpy(&d, &v, 4);
    return d;
}
}  // namespace

bool MagmaBackend::read_depth_stencil(Image& img, uint32_t level, uint32_t layer, int x, int y, int w, int h,
                                      std::vector<float>* depth, std::vector<uint32_t>* stencil) {
    VkFormat f;
    std::vector<uint8_t> raw;
    if (depth) {
        if (!is_depth_format(img.format) || !read_image(img, level, layer, x, y, w, h, f, raw)) return false;
        const size_t tb = f == VK_FORMAT_D16_UNORM ? 2 : 4;
        depth->resize(size_t(w) * size_t(h));
        for (size_t i = 0; i < depth->size(); ++i) (*depth)[i] = depth_value(f, raw.data() + i * tb);
    }
    if (stencil) {
        if (!read_image(img, level, layer, x, y, w, h, f, raw, true)) return false;
        stencil->assign(raw.begin(), raw.end());
    }
    return true;
}

// The read framebuffer's depth or stencil image: the surface's, or the attachment's.
Image* MagmaBackend::read_ds_source(bool stencil, uint32_t& level, uint32_t& layer, uint32_t& w, uint32_t& h) {
    level = layer = 0;
    Framebuffer* fb = cur_->read_fb.get();
    if (!fb) {
        if (!read_ || !read_->has_depth) return nullptr;
        w = uint32_t(read_->width);
        h = uint32_t(read_->height);
        return &read_->ds;
    }
    return attachment_image(stencil ? fb->stencil : fb->depth, level, layer, w, h);
}

void MagmaBackend::read_depth_stencil_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                                             wire::OutOrOffset<uint8_t> pixels) {
    constexpr gen::Op op = gen::Op::glReadPixels;
    const PixelStore& ps = cur_->pack;
    const gl::PackState pack{ps.alignment, ps.row_length, ps.skip_pixels, ps.skip_rows};
    const size_t need = gl::depth_stencil_image_bytes(format, type, pack, width, height);
    if (width == 0 || height == 0) return;
    if (!need) return refuse(op, GL_INVALID_OPERATION, "format/type pair of a depth/stencil read");
    const bool want_depth = format != GL_STENCIL_INDEX, want_stencil = format != GL_DEPTH_COMPONENT;
    uint32_t level = 0, layer = 0, sw = 0, sh = 0, sl = 0, slayer = 0, w2 = 0, h2 = 0;
    Image* dimg = want_depth ? read_ds_source(false, level, layer, sw, sh) : nullptr;
    Image* simg = want_stencil ? read_ds_source(true, sl, slayer, w2, h2) : nullptr;
    if ((want_depth && (!dimg || !is_depth_format(dimg->format))) ||
        (want_stencil && (!simg || !(simg->aspect & VK_IMAGE_ASPECT_STENCIL_BIT))))
        return refuse(op, GL_INVALID_OPERATION, "the read framebuffer has no such depth/stencil buffer");
    if (!want_depth) sw = w2, sh = h2;
    if ((dimg && dimg->samples > 1) || (simg && simg->samples > 1))
        return refuse(op, GL_INVALID_OPERATION, "multisampled read framebuffer");
    uint8_t* out = nullptr;
    if (!pack_destination(op, pixels, need, &out)) return;
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = std::min<int>(x + width, int(sw)), y1 = std::min<int>(y + height, int(sh));
    if (x0 >= x1 || y0 >= y1) return;
    std::vector<float> depth;
    std::vector<uint32_t> stencil;
    if ((dimg && !read_depth_stencil(*dimg, level, layer, x0, y0, x1 - x0, y1 - y0, &depth, nullptr)) ||
        (simg && !read_depth_stencil(*simg, sl, slayer, x0, y0, x1 - x0, y1 - y0, nullptr, &stencil)))
        return refuse(op, GL_INVALID_OPERATION, "the depth/stencil values could not be read back");
    // The clipped region, where the whole image would have put it.
    gl::PackState sub = pack;
    sub.row_length = ps.row_length > 0 ? ps.row_length : width;
    sub.skip_pixels += x0 - x;
    sub.skip_rows += y0 - y;
    gl::pack_depth_stencil(format, type, sub, x1 - x0, y1 - y0, want_depth ? depth.data() : nullptr,
                           want_stencil ? stencil.data() : nullptr, pack_bytes(pixels, out));
}

// glGetTexImage of GL_STENCIL_INDEX or GL_DEPTH_STENCIL: every layer (or the
// cube face) of the level, from both aspects as the format asks.
void MagmaBackend::get_depth_stencil_image(GLenum target, GLint level, GLenum format, GLenum type,
                                           wire::OutOrOffset<uint8_t> pixels) {
    constexpr gen::Op op = gen::Op::glGetTexImage;
    Texture* t = bound_texture(op, target);
    Image& img = t->img;
    const bool want_depth = format == GL_DEPTH_STENCIL;
    if (!(img.aspect & VK_IMAGE_ASPECT_STENCIL_BIT) || (want_depth && !t->fmt.depth))
        return refuse(op, GL_INVALID_OPERATION, "the texture has no stencil (or depth) to read");
    const bool face = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
    const int32_t w = int32_t(std::max(img.width >> level, 1u)), h = int32_t(std::max(img.height >> level, 1u));
    const uint32_t first = face ? target - GL_TEXTURE_CUBE_MAP_POSITIVE_X : 0;
    const uint32_t layers = face ? 1 : (t->target == GL_TEXTURE_2D_ARRAY || t->target == GL_TEXTURE_1D_ARRAY ? img.layers : 1);
    const PixelStore& p = cur_->pack;
    const gl::PackState ps{p.alignment, p.row_length, p.skip_pixels, p.skip_rows};
    const size_t one = gl::depth_stencil_image_bytes(format, type, ps, w, h);
    if (!one) return refuse(op, GL_INVALID_OPERATION, "format/type pair of a depth/stencil read");
    gl::PackState whole = ps;  // layers follow each other, h rows apart
    whole.skip_rows = 0, whole.skip_pixels = 0;
    const size_t image_stride = gl::depth_stencil_image_bytes(format, type, whole, w, h + 1) -
                                gl::depth_stencil_image_bytes(format, type, whole, w, 1);
    uint8_t* out = nullptr;
    if (!pack_destination(op, pixels, image_stride * (layers - 1) + one, &out)) return;
    for (uint32_t z = 0; z < layers; ++z) {
        std::vector<float> depth;
        std::vector<uint32_t> stencil;
        if (!read_depth_stencil(img, uint32_t(level), first + z, 0, 0, w, h, want_depth ? &depth : nullptr, &stencil))
            return refuse(op, GL_INVALID_OPERATION, "the level could not be read back");
        gl::pack_depth_stencil(format, type, ps, w, h, want_depth ? depth.data() : nullptr, stencil.data(),
                               pack_bytes(pixels, out) + image_stride * z);
    }
}

}  // namespace mgl::magma
