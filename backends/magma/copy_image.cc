// glCopyImageSubData (GL 4.3, ARB_copy_image) as one vkCmdCopyImage: GL's
// rules are the front end's (backends/gl/state/copy_image_rules.h); this file
// says where a GL image's texels are in Magma's Vulkan image. A 1D array's
// layers, a 2D array's layers and a cube map's faces are array layers (GL
// counts them in z for this verb), a 3D texture's slices are depth, and
// Vulkan copies between the two (VK_KHR_maintenance1, core in 1.1). Vulkan
// copies bits between formats of one texel size, which is what GL's
// compatible formats are.
#include <GLES3/gl32.h>

#include <algorithm>

#include "backend.h"
#include "state/copy_image_rules.h"

#ifndef GL_TEXTURE_CUBE_MAP_ARRAY
#define GL_TEXTURE_CUBE_MAP_ARRAY 0x9009
#endif

namespace mgl::magma {

namespace {

// One side of the copy: the front end's description and Magma's image.
struct CopySide {
    gl::CopyImageSide gl;
    Image* img = nullptr;
    VkFormat vk = VK_FORMAT_UNDEFINED;
};

// Targets whose GL z is a Vulkan array layer (a 3D texture's is its depth).
bool layers_in_z(GLenum target) {
    return target == GL_TEXTURE_1D_ARRAY || target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP ||
           target == GL_TEXTURE_CUBE_MAP_ARRAY || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

CopySide texture_side(const ShareGroup& share, GLuint name, GLenum target, GLint level) {
    CopySide s;
    s.gl.target = target;
    s.gl.level = level;
    const auto it = name ? share.textures.find(name) : share.textures.end();
    s.gl.named = it != share.textures.end();
    Texture* t = s.gl.named ? it->second.get() : nullptr;
    if (!t) return s;
    s.gl.object_target = t->target;
    uint32_t base = 0, count = 0;
    s.gl.complete = t->immutable ? bool(t->img.image) : sampled_levels(*t, t->params.min_filter, base, count);
    const Image& img = t->img;
    const uint32_t levels = t->immutable ? uint32_t(t->immutable_levels) : img.levels;
    s.gl.level_exists = img.image && level >= 0 && uint32_t(level) < std::min(levels, img.levels) &&
                        (t->defined >> level & 1);
    if (!s.gl.level_exists) return s;
    const bool one_d = t->target == GL_TEXTURE_1D || t->target == GL_TEXTURE_1D_ARRAY;
    s.gl.width = int(std::max(img.width >> level, 1u));
    s.gl.height = one_d ? 1 : int(std::max(img.height >> level, 1u));
    s.gl.depth = img.type == VK_IMAGE_TYPE_3D ? int(std::max(img.depth >> level, 1u))
                 : layers_in_z(t->target)      ? int(img.layers)
                                               : 1;
    s.gl.internalformat = t->fmt.sized;
    s.gl.samples = img.samples > 1 ? int(img.samples) : 0;
    s.img = &t->img;
    s.vk = img.format;
    return s;
}

CopySide renderbuffer_side(const ShareGroup& share, GLuint name, GLint level) {
    CopySide s;
    s.gl.target = GL_RENDERBUFFER;
    s.gl.object_target = GL_RENDERBUFFER;
    s.gl.level = level;
    const auto it = name ? share.renderbuffers.find(name) : share.renderbuffers.end();
    s.gl.named = it != share.renderbuffers.end();
    Renderbuffer* rb = s.gl.named ? it->second.get() : nullptr;
    if (!rb || !rb->img.image) return s;
    s.gl.complete = true;
    s.gl.level_exists = level == 0;
    s.gl.width = int(rb->img.width);
    s.gl.height = int(rb->img.height);
    s.gl.depth = 1;
    s.gl.internalformat = rb->fmt.sized;
    s.gl.samples = rb->img.samples > 1 ? int(rb->img.samples) : 0;
    s.img = &rb->img;
    s.vk = rb->img.format;
    return s;
}

// The Vulkan subresource and offset of a side's region start, `d` deep.
void place(const CopySide& s, int d, VkImageSubresourceLayers& sub, VkOffset3D& off) {
    const bool three_d = s.img->type == VK_IMAGE_TYPE_3D;
    sub = {s.img->aspect, uint32_t(s.gl.level), three_d ? 0u : uint32_t(s.gl.z), three_d ? 1u : uint32_t(d)};
    off = {s.gl.x, s.gl.y, three_d ? s.gl.z : 0};
}

}  // namespace

void MagmaBackend::glCopyImageSubData(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY,
                                      GLint srcZ, GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX,
                                      GLint dstY, GLint dstZ, GLsizei w, GLsizei h, GLsizei d) {
    constexpr gen::Op op = gen::Op::glCopyImageSubData;
    if (!need_context(op)) return;
    if (!cur_->desktop()) return refuse(op, GL_INVALID_OPERATION, "image copies are served on desktop contexts only (GL_ARB_copy_image)");
    const ShareGroup& share = *cur_->share;
    auto side = [&](GLuint name, GLenum target, GLint level, GLint x, GLint y, GLint z) {
        CopySide s = target == GL_RENDERBUFFER ? renderbuffer_side(share, name, level) : texture_side(share, name, target, level);
        s.gl.x = x, s.gl.y = y, s.gl.z = z;
        return s;
    };
    CopySide src = side(srcName, srcTarget, srcLevel, srcX, srcY, srcZ);
    CopySide dst = side(dstName, dstTarget, dstLevel, dstX, dstY, dstZ);
    if (const gl::CopyImageVerdict v = gl::check_copy_image(src.gl, dst.gl, w, h, d); v.error) return refuse(op, v.error, v.why);
    if (!w || !h || !d) return;
    // Magma holds compressed images decoded (compressed.cc): only copies
    // between two images of the same compressed format keep their meaning.
    const bool src_compressed = gl::copy_format(src.gl.internalformat).compressed;
    const bool dst_compressed = gl::copy_format(dst.gl.internalformat).compressed;
    if ((src_compressed || dst_compressed) && src.gl.internalformat != dst.gl.internalformat)
        return refuse(op, GL_INVALID_OPERATION,
                      "copies between a compressed format and another one are not served by Magma (it holds compressed images decoded)");
    if (format_bytes(src.vk) != format_bytes(dst.vk) || src.img->aspect != dst.img->aspect)
        return refuse(op, GL_INVALID_OPERATION, "these compatible formats are held in Vulkan formats of different texel sizes by Magma");

    VkImageCopy region{};
    place(src, d, region.srcSubresource, region.srcOffset);
    place(dst, d, region.dstSubresource, region.dstOffset);
    const bool any_3d = src.img->type == VK_IMAGE_TYPE_3D || dst.img->type == VK_IMAGE_TYPE_3D;
    region.extent = {uint32_t(w), uint32_t(h), any_3d ? uint32_t(d) : 1u};

    VkCommandBuffer cb = gpu_->main_outside();
    open_id_ = nullptr;
    // A copy inside one image needs one layout for both ends.
    const VkImageLayout src_layout = src.img == dst.img ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    const VkImageLayout dst_layout = src.img == dst.img ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    gpu_->transition(cb, *src.img, src_layout);
    gpu_->transition(cb, *dst.img, dst_layout);
    vkCmdCopyImage(cb, src.img->image, src_layout, dst.img->image, dst_layout, 1, &region);
    src.img->used_serial = dst.img->used_serial = gpu_->serial();
}

}  // namespace mgl::magma
