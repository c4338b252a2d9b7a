// glBlitFramebuffer and glReadPixels (the read source and the readback).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "backend.h"
#include "context/texel_convert.h"
#include "context/texel_pack.h"

namespace mgl::magma {

// ---- blits -------------------------------------------------------------------------------------

void MagmaBackend::glBlitFramebuffer(GLint sx0, GLint sy0, GLint sx1, GLint sy1, GLint dx0, GLint dy0, GLint dx1,
                                     GLint dy1, GLbitfield mask, GLenum filter) {
    if (!need_context(gen::Op::glBlitFramebuffer)) return;
    if (mask & ~GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
        return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_VALUE, "mask");
    if ((mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)) && filter != GL_NEAREST)
        return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_OPERATION, "depth/stencil blits need GL_NEAREST");
    Target src, dst;
    if (!resolve_target(src, false) || !resolve_target(dst, true))
        return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_FRAMEBUFFER_OPERATION, "incomplete framebuffer");
    // Color: from the read buffer into every draw buffer; each with its level
    // and layer (surfaces: 0, 0).
    struct Pair {
        Image* s;
        Image* d;
        VkImageAspectFlags aspect;
        uint32_t sl = 0, slayer = 0, dl = 0, dlayer = 0;
    };
    std::vector<Pair> pairs;
    if (mask & GL_COLOR_BUFFER_BIT) {
        Framebuffer* rfb = cur_->read_fb.get();
        Framebuffer* dfb = cur_->draw_fb.get();
        int si = 0;
        if (rfb) si = rfb->read_buffer == GL_NONE ? -1 : int(rfb->read_buffer - GL_COLOR_ATTACHMENT0);
        else if (cur_->surface_read_buffer == GL_NONE) si = -1;
        for (int di = 0; si >= 0 && src.color[si] && di < kMaxColorAttachments; ++di) {
            if (!dst.color[di] || !(dst.draw_mask >> di & 1)) continue;
            Pair p{src.color[si], dst.color[di], VK_IMAGE_ASPECT_COLOR_BIT};
            if (rfb && rfb->color[si].kind == GL_TEXTURE) p.sl = uint32_t(rfb->color[si].level), p.slayer = uint32_t(rfb->color[si].layer);
            if (dfb && dfb->color[di].kind == GL_TEXTURE) p.dl = uint32_t(dfb->color[di].level), p.dlayer = uint32_t(dfb->color[di].layer);
            pairs.push_back(p);
        }
    }
    const VkImageAspectFlags ds = ((mask & GL_DEPTH_BUFFER_BIT) ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                  ((mask & GL_STENCIL_BUFFER_BIT) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
    if (ds && src.ds && dst.ds) {
        if (src.ds->format != dst.ds->format)
            return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_OPERATION, "depth/stencil formats differ");
        pairs.push_back({src.ds, dst.ds, ds & src.ds->aspect});
    }
    for (const Pair& p : pairs)
        if (p.s == p.d) return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_OPERATION, "blit within one image is not supported yet");
    // ES 3.0 4.3.3: a multisampled read framebuffer resolves, only into a
    // single-sampled one, with the same rectangle and the same format.
    const bool resolve = src.key.samples > 1;
    if (dst.key.samples > 1) return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_OPERATION, "multisampled draw framebuffer");
    if (resolve && (sx0 != dx0 || sy0 != dy0 || sx1 != dx1 || sy1 != dy1))
        return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_OPERATION, "multisample resolve with different rectangles");
    for (const Pair& p : pairs)
        if (resolve && p.s->format != p.d->format)
            return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_OPERATION, "multisample resolve between formats");
    // vkCmdResolveImage resolves color only; GL allows depth/stencil (sample 0's values).
    if (resolve && ds && src.ds && dst.ds)
        return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_OPERATION, "multisampled depth/stencil blits are not supported yet");
    if (pairs.empty()) return;
    auto inside = [](GLint a, GLint b, uint32_t size) {
        return std::min(a, b) >= 0 && uint32_t(std::max(a, b)) <= size;
    };
    if (!inside(sx0, sx1, src.width) || !inside(sy0, sy1, src.height) || !inside(dx0, dx1, dst.width) ||
        !inside(dy0, dy1, dst.height))
        return refuse(gen::Op::glBlitFramebuffer, GL_INVALID_OPERATION, "rectangles outside the framebuffers are not clipped yet");
    VkCommandBuffer cb = gpu_->main_outside();
    open_id_ = nullptr;
    for (const Pair& p : pairs) {
        gpu_->transition(cb, *p.s, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        gpu_->transition(cb, *p.d, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        if (resolve) {
            // Same rectangle on both sides: a reversed one is the same pixels.
            VkImageResolve r{};
            r.srcSubresource = {p.aspect, p.sl, p.slayer, 1};
            r.dstSubresource = {p.aspect, p.dl, p.dlayer, 1};
            r.srcOffset = r.dstOffset = {std::min(sx0, sx1), std::min(sy0, sy1), 0};
            r.extent = {uint32_t(std::abs(sx1 - sx0)), uint32_t(std::abs(sy1 - sy0)), 1};
            if (r.extent.width && r.extent.height)
                vkCmdResolveImage(cb, p.s->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, p.d->image,
                                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
            p.s->used_serial = p.d->used_serial = gpu_->serial();
            continue;
        }
        const bool color = p.aspect == VK_IMAGE_ASPECT_COLOR_BIT;
        VkImageBlit b{};
        b.srcSubresource = {p.aspect, p.sl, p.slayer, 1};
        b.srcOffsets[0] = {sx0, sy0, 0};
        b.srcOffsets[1] = {sx1, sy1, 1};
        b.dstSubresource = {p.aspect, p.dl, p.dlayer, 1};
        b.dstOffsets[0] = {dx0, dy0, 0};
        b.dstOffsets[1] = {dx1, dy1, 1};
        // Image rows are GL rows: the rectangles map as they are (reversed ones mirror).
        vkCmdBlitImage(cb, p.s->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, p.d->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       1, &b, color && filter == GL_LINEAR ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
        p.s->used_serial = p.d->used_serial = gpu_->serial();
    }
}

// ---- readback --------------------------------------------------------------------------------

Image* MagmaBackend::read_source(uint32_t& level, uint32_t& layer, uint32_t& w, uint32_t& h) {
    level = layer = 0;
    Framebuffer* fb = cur_->read_fb.get();
    if (!fb) {
        if (!read_ || cur_->surface_read_buffer == GL_NONE) return nullptr;
        w = uint32_t(read_->width);
        h = uint32_t(read_->height);
        resolve_surface(*read_);  // a multisampled surface reads as its resolve, as on a GLES driver
        return &read_->color;
    }
    if (fb->read_buffer == GL_NONE) return nullptr;
    Attachment& a = fb->color[fb->read_buffer - GL_COLOR_ATTACHMENT0];
    return attachment_image(a, level, layer, w, h);
}

// The image an attachment reads from, with its level, layer and that level's size.
Image* MagmaBackend::attachment_image(Attachment& a, uint32_t& level, uint32_t& layer, uint32_t& w, uint32_t& h) {
    if (a.kind == GL_TEXTURE && a.tex && a.tex->img.image) {
        level = uint32_t(a.level);
        layer = uint32_t(a.layer);
        w = std::max(a.tex->img.width >> level, 1u);
        h = std::max(a.tex->img.height >> level, 1u);
        return &a.tex->img;
    }
    if (a.kind == GL_RENDERBUFFER && a.rb && a.rb->img.image) {
        w = a.rb->img.width;
        h = a.rb->img.height;
        return &a.rb->img;
    }
    return nullptr;
}

// Where a read of `need` bytes goes: the reply (*out), or the bound pixel pack
// buffer (*out null: pack_bytes gives it once read_image waited for the GPU,
// when nothing can still read the buffer). False: refused, with the GL error.
bool MagmaBackend::pack_destination(gen::Op verb, const wire::OutOrOffset<uint8_t>& pixels, size_t need, uint8_t** out) {
    *out = nullptr;
    if (pixels.is_offset()) {
        if (!cur_->pixel_pack || pixels.offset > cur_->pixel_pack->size || need > cur_->pixel_pack->size - pixels.offset) {
            refuse(verb, GL_INVALID_OPERATION, "the image does not fit the pixel pack buffer");
            return false;
        }
        return true;
    }
    if (!pixels.data || need > pixels.size) {
        refuse(verb, GL_INVALID_OPERATION, "reply smaller than the image");
        return false;
    }
    *out = pixels.data;
    return true;
}

uint8_t* MagmaBackend::pack_bytes(const wire::OutOrOffset<uint8_t>& pixels, uint8_t* out) {
    return out ? out : host_bytes(*cur_->pixel_pack) + pixels.offset;
}

void MagmaBackend::glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                                wire::OutOrOffset<uint8_t> pixels) {
    if (!need_context(gen::Op::glReadPixels)) return;
    if (width < 0 || height < 0) return refuse(gen::Op::glReadPixels, GL_INVALID_VALUE, "negative size");
    uint32_t bpp;
    if (format == GL_RGBA && type == GL_UNSIGNED_BYTE) bpp = 4;
    else if (format == GL_BGRA_EXT && type == GL_UNSIGNED_BYTE) bpp = 4;
    else if (format == GL_RGB && type == GL_UNSIGNED_BYTE) bpp = 3;
    else if (format == GL_RGBA && type == GL_FLOAT) bpp = 16;
    else if (format == GL_RGBA_INTEGER && (type == GL_INT || type == GL_UNSIGNED_INT)) bpp = 16;
    else if (cur_->desktop()) return desktop_read_pixels(x, y, width, height, format, type, pixels);
    else return refuse(gen::Op::glReadPixels, GL_INVALID_OPERATION, "format/type not supported by Magma yet");
    uint32_t level, layer, sw, sh;
    Image* img = read_source(level, layer, sw, sh);
    if (!img) return refuse(gen::Op::glReadPixels, GL_INVALID_FRAMEBUFFER_OPERATION, "no readable color buffer");
    if (img->samples > 1) return refuse(gen::Op::glReadPixels, GL_INVALID_OPERATION, "multisampled read framebuffer");
    // Integer buffers read only as GL_RGBA_INTEGER with their signedness, others never so.
    if (is_integer_format(img->format) != (format == GL_RGBA_INTEGER) ||
        (format == GL_RGBA_INTEGER && is_signed_integer_format(img->format) != (type == GL_INT)))
        return refuse(gen::Op::glReadPixels, GL_INVALID_OPERATION, "format/type do not match the read buffer");
    const PixelStore& ps = cur_->pack;
    const size_t a = size_t(std::max(ps.alignment, 1));
    const size_t row_pixels = ps.row_length > 0 ? size_t(ps.row_length) : size_t(width);
    const size_t stride = (row_pixels * bpp + a - 1) / a * a;
    if (width == 0 || height == 0) return;
    const size_t need = (size_t(ps.skip_rows) + height - 1) * stride + (size_t(ps.skip_pixels) + width) * bpp;
    uint8_t* out;
    if (!pack_destination(gen::Op::glReadPixels, pixels, need, &out)) return;
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = std::min<int>(x + width, int(sw)), y1 = std::min<int>(y + height, int(sh));
    if (x0 >= x1 || y0 >= y1) return;
    VkFormat f;
    std::vector<uint8_t> px;
    if (!read_image(*img, level, layer, x0, y0, x1 - x0, y1 - y0, f, px)) return;
    out = pack_bytes(pixels, out);
    const uint32_t tb = format_bytes(f);
    for (int r = y0; r < y1; ++r) {
        uint8_t* o = out + (size_t(ps.skip_rows) + (r - y)) * stride + (size_t(ps.skip_pixels) + (x0 - x)) * bpp;
        const uint8_t* s = px.data() + size_t(r - y0) * (x1 - x0) * tb;
        for (int c = 0; c < x1 - x0; ++c, s += tb, o += bpp) {
            if (format == GL_RGBA_INTEGER) {
                int32_t v[4];
                if (!texel_rgba_int(f, s, v)) return refuse(gen::Op::glReadPixels, GL_INVALID_OPERATION, "format");
                std::memcpy(o, v, 16);
                continue;
            }
            if (type == GL_FLOAT) {
                float v[4];
                if (!texel_rgba32f(f, s, v)) return refuse(gen::Op::glReadPixels, GL_INVALID_OPERATION, "format");
                std::memcpy(o, v, 16);
                continue;
            }
            uint8_t v[4];
            if (!texel_rgba8(f, s, v)) return refuse(gen::Op::glReadPixels, GL_INVALID_OPERATION, "format");
            if (format == GL_BGRA_EXT) o[0] = v[2], o[1] = v[1], o[2] = v[0], o[3] = v[3];
            else std::memcpy(o, v, bpp);
        }
    }
}

// Desktop glReadPixels of any other colour pair (GL_RGB/GL_FLOAT, GL_LUMINANCE,
// packed types...): the region read as RGBA and written by the GL front end's
// packer (texel_pack.h), which Espryt's reads use too; pixels outside the read
// buffer are left as they were, as GL says.
void MagmaBackend::desktop_read_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                                       wire::OutOrOffset<uint8_t> pixels) {
    constexpr gen::Op op = gen::Op::glReadPixels;
    if (format == GL_DEPTH_COMPONENT || format == GL_STENCIL_INDEX || format == GL_DEPTH_STENCIL)
        return read_depth_stencil_pixels(x, y, width, height, format, type, pixels);  // depth_stencil_read.cc
    gl::ComponentLayout layout{};
    const PixelStore& ps = cur_->pack;
    const gl::PackState pack{ps.alignment, ps.row_length, ps.skip_pixels, ps.skip_rows};
    const size_t need = gl::packed_image_bytes(format, type, pack, width, height);
    if (!need || !gl::component_layout(format, &layout))
        return refuse(op, GL_INVALID_OPERATION, "format/type not supported by Magma yet (half floats, bitmaps)");
    uint32_t level, layer, sw, sh;
    Image* img = read_source(level, layer, sw, sh);
    if (!img) return refuse(op, GL_INVALID_FRAMEBUFFER_OPERATION, "no readable color buffer");
    if (img->samples > 1) return refuse(op, GL_INVALID_OPERATION, "multisampled read framebuffer");
    if (is_integer_format(img->format) != layout.integer)
        return refuse(op, GL_INVALID_OPERATION, "format/type do not match the read buffer");
    uint8_t* out = nullptr;
    if (!pack_destination(op, pixels, need, &out)) return;
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = std::min<int>(x + width, int(sw)), y1 = std::min<int>(y + height, int(sh));
    if (x0 >= x1 || y0 >= y1) return;
    VkFormat f;
    std::vector<uint8_t> px;
    if (!read_image(*img, level, layer, x0, y0, x1 - x0, y1 - y0, f, px)) return;
    const int w = x1 - x0, h = y1 - y0;
    const uint32_t tb = format_bytes(f);
    std::vector<double> rgba(size_t(w) * size_t(h) * 4);
    const bool sign = is_signed_integer_format(f);
    for (size_t i = 0; i < size_t(w) * size_t(h); ++i) {
        if (layout.integer) {
            int32_t v[4];
            texel_rgba_int(f, px.data() + i * tb, v);
            for (int c = 0; c < 4; ++c) rgba[i * 4 + c] = sign ? double(v[c]) : double(uint32_t(v[c]));
            continue;
        }
        float v[4];
        if (!texel_rgba32f(f, px.data() + i * tb, v))
            return refuse(op, GL_INVALID_OPERATION, "the read buffer's format is not read back by Magma yet");
        for (int c = 0; c < 4; ++c) rgba[i * 4 + c] = v[c];
    }
    out = pack_bytes(pixels, out);
    // The clipped region, where the whole image would have put it.
    gl::PackState sub = pack;
    sub.row_length = ps.row_length > 0 ? ps.row_length : width;
    sub.skip_pixels += x0 - x;
    sub.skip_rows += y0 - y;
    gl::pack_rgba(format, type, sub, w, h, rgba.data(), gl::LuminanceRead::sum, out);
}

}  // namespace mgl::magma
