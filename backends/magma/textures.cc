// Textures (2D, cube, 3D, 2D arrays; mipmaps), uploads through the stream
// buffer, mipmap generation by blits, copies from the read framebuffer.
// Texture parameters and sampler objects are samplers.cc.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "backend.h"
#include "context/sized_format_bits.h"
#include "context/texel_convert.h"
#include "etc2.h"

namespace mgl::magma {

namespace {

bool is_cube_face(GLenum t) { return t >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && t <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z; }

GLenum object_target(GLenum t) { return is_cube_face(t) ? GL_TEXTURE_CUBE_MAP : t; }

// Targets whose image is a 2D array: a 1D array's layers are its GL height.
bool layered(GLenum t) { return t == GL_TEXTURE_2D_ARRAY || t == GL_TEXTURE_1D_ARRAY; }

uint32_t mip_count(uint32_t w, uint32_t h, uint32_t d) {
    uint32_t m = std::max({w, h, d, 1u}), n = 1;
    while (m > 1) m >>= 1, ++n;
    return n;
}

}  // namespace

std::shared_ptr<Texture>* MagmaBackend::texture_slot(GLenum target) {
    Context::Unit& u = cur_->units[cur_->active_unit];
    switch (object_target(target)) {
        case GL_TEXTURE_2D: return &u.tex2d;
        case GL_TEXTURE_CUBE_MAP: return &u.cube;
        case GL_TEXTURE_3D: return &u.tex3d;
        case GL_TEXTURE_2D_ARRAY: return &u.array2d;
        case GL_TEXTURE_2D_MULTISAMPLE: return cur_->desktop() ? &u.ms2d : nullptr;
        case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return cur_->desktop() ? &u.ms2darray : nullptr;
        case GL_TEXTURE_1D: return cur_->desktop() ? &u.tex1d : nullptr;
        case GL_TEXTURE_1D_ARRAY: return cur_->desktop() ? &u.array1d : nullptr;
        case GL_TEXTURE_RECTANGLE: return cur_->desktop() ? &u.rect : nullptr;
        default: return nullptr;
    }
}

Texture* MagmaBackend::bound_texture(gen::Op verb, GLenum target) {
    std::shared_ptr<Texture>* slot = texture_slot(target);
    if (!slot) {
        refuse(verb, GL_INVALID_ENUM, "texture target");
        return nullptr;
    }
    if (!*slot) {
        // Texture name 0: the context's default texture of that target.
        auto& d = cur_->default_textures[object_target(target)];
        if (!d) {
            d = std::make_shared<Texture>(gpu_.get());
            d->target = object_target(target);
        }
        *slot = d;
    }
    return slot->get();
}

void MagmaBackend::glGenTextures(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glGenTextures)) return;
    for (uint32_t i = 0; i < names.count(); ++i)
        if (names.data[i]) cur_->share->textures.emplace(names.data[i], nullptr);
}

void MagmaBackend::glDeleteTextures(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glDeleteTextures)) return;
    for (uint32_t i = 0; i < names.count(); ++i) {
        auto it = cur_->share->textures.find(names.data[i]);
        if (it == cur_->share->textures.end()) continue;
        std::shared_ptr<Texture> t = it->second;
        cur_->share->textures.erase(it);
        if (!t) continue;
        for (auto& u : cur_->units)
            for (auto* s : {&u.tex2d, &u.cube, &u.tex3d, &u.array2d, &u.ms2d, &u.ms2darray, &u.tex1d, &u.array1d, &u.rect})
                if (*s == t) s->reset();
        for (auto& u : cur_->image_units)
            if (u.tex == t) u = {};
    }
}

void MagmaBackend::glBindTexture(GLenum target, GLuint name) {
    if (!need_context(gen::Op::glBindTexture)) return;
    std::shared_ptr<Texture>* slot = texture_slot(target);
    if (!slot || is_cube_face(target)) return refuse(gen::Op::glBindTexture, GL_INVALID_ENUM, "target");
    if (name == 0) {
        slot->reset();
        return;
    }
    auto& t = cur_->share->textures[name];
    if (!t) t = std::make_shared<Texture>(gpu_.get());
    if (t->target && t->target != target)
        return refuse(gen::Op::glBindTexture, GL_INVALID_OPERATION, "texture has another target");
    if (!t->target && target == GL_TEXTURE_RECTANGLE) {
        // ARB_texture_rectangle's initial state: no mipmap filter, no repeating wrap.
        t->params.min_filter = GL_LINEAR;
        t->params.wrap_s = t->params.wrap_t = t->params.wrap_r = GL_CLAMP_TO_EDGE;
    }
    t->target = target;
    *slot = t;
}

void MagmaBackend::glActiveTexture(GLenum texture) {
    if (!need_context(gen::Op::glActiveTexture)) return;
    const GLuint unit = texture - GL_TEXTURE0;
    if (unit >= cur_->unit_count()) return refuse(gen::Op::glActiveTexture, GL_INVALID_ENUM, "unit");
    cur_->active_unit = unit;
}

GLboolean MagmaBackend::glIsTexture(GLuint name) {
    if (!need_context(gen::Op::glIsTexture)) return GL_FALSE;
    auto it = cur_->share->textures.find(name);
    return it != cur_->share->textures.end() && it->second && it->second->target;
}

// Makes room for `level` of `t` with format f and the given size; replaces
// the image when it cannot hold that level.
bool MagmaBackend::define_image(Texture& t, GLenum target, int level, const TexFormat& f, uint32_t w, uint32_t h,
                                uint32_t d) {
    const GLenum ot = object_target(target);
    const bool three_d = ot == GL_TEXTURE_3D, array = layered(ot), cube = ot == GL_TEXTURE_CUBE_MAP;
    const bool one_d = ot == GL_TEXTURE_1D || ot == GL_TEXTURE_1D_ARRAY;  // height 1 at every level
    const uint32_t bw = std::max(w << level, 1u), bh = one_d ? 1u : std::max(h << level, 1u),
                   bd = three_d ? std::max(d << level, 1u) : 1;
    const uint32_t layers = cube ? 6 : array ? d : 1;
    // Larger than GL_MAX_TEXTURE_SIZE (the device's limits): GL_INVALID_VALUE.
    const VkPhysicalDeviceLimits& lim = gpu_->dev().props.limits;
    const uint32_t max_dim = three_d ? lim.maxImageDimension3D : cube ? lim.maxImageDimensionCube : lim.maxImageDimension2D;
    if (level >= 16 || w > (max_dim >> level) || h > (max_dim >> level) || (three_d && d > (max_dim >> level)) ||
        layers > lim.maxImageArrayLayers) {
        set_error(GL_INVALID_VALUE);
        return false;
    }
    Image& img = t.img;
    const bool fits = img.image && img.format == f.vk && uint32_t(level) < img.levels &&
                      std::max(img.width >> level, 1u) == w && std::max(img.height >> level, 1u) == h &&
                      (!three_d || std::max(img.depth >> level, 1u) == d) && img.layers == layers;
    t.fmt = f;
    t.has_format = true;
    if (fits) return true;
    if (t.immutable) return false;
    // A new image; what the old one held is gone (levels of another size or
    // format are respecified anyway in any sane program).
    if (img.image) {
        if (open_id_) {
            gpu_->end_pass();  // the old image may be an attachment of the open pass
            open_id_ = nullptr;
        }
        VkImageView v = t.view;
        std::vector<VkImageView> views;
        for (auto& [k, av] : t.attach_views) views.push_back(av);
        gpu_->defer([v, views](VkDevice dv) {
            if (v) vkDestroyImageView(dv, v, nullptr);
            for (VkImageView av : views) vkDestroyImageView(dv, av, nullptr);
        });
        t.view = VK_NULL_HANDLE;
        t.attach_views.clear();
        gpu_->destroy_image_later(img);
        t.defined = 0;
    }
    img = {};
    img.format = f.vk;
    img.aspect = f.depth || f.stencil ? VkImageAspectFlags((f.depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                                           (has_stencil(f.vk) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0))
                                      : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT);
    img.width = bw;
    img.height = bh;
    img.depth = bd;
    img.layers = layers;
    img.cube = cube;
    img.type = three_d ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
    img.levels = mip_count(bw, bh, bd);
    VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (f.depth || f.stencil) usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    else if (gpu_->dev().format_has(f.vk, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    // Desktop contexts' textures can be bound to image units (images.cc)
    // where the format can be a storage image.
    t.storage = cur_->desktop() && image_limits(gpu_->dev()).served && !(f.depth || f.stencil) &&
                gpu_->dev().format_has(f.vk, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
    if (t.storage) usage |= VK_IMAGE_USAGE_STORAGE_BIT;
    ++t.generation;
    return gpu_->create_image(img, usage);
}

bool MagmaBackend::upload(gen::Op verb, Texture& t, GLenum target, int level, int x, int y, int z, uint32_t w,
                          uint32_t h, uint32_t d, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    bound_stream();
    if (t.fmt.desktop) return desktop_upload(verb, t, target, level, x, y, z, w, h, d, format, type, pixels);
    // (A 1D array's layers are rows of one 2D image in client memory.)
    const bool three_d = object_target(target) == GL_TEXTURE_3D || object_target(target) == GL_TEXTURE_2D_ARRAY;
    const uint8_t* src = nullptr;
    size_t size = 0;
    if (!unpack_source(verb, pixels, &src, &size)) return false;
    if (!src || !w || !h || !d) return true;
    TexFormat f = t.fmt;
    TexFormat client;
    // The client's (format, type) decides the conversion; the texel format stays.
    if (tex_format(format, format, type, gpu_->dev().depth_stencil_format, client) && client.vk == f.vk) f = client;
    else if (tex_format(f.sized, format, type, gpu_->dev().depth_stencil_format, client) && client.vk == f.vk) f = client;
    return stage_texels(verb, t, target, level, x, y, z, w, h, d, f, cur_->unpack, three_d, src, size);
}

// Client texels (`ps`'s addressing) into the stream as f's VkFormat wants
// them, then copied into the level: every upload path ends here.
bool MagmaBackend::stage_texels(gen::Op verb, Texture& t, GLenum target, int level, int x, int y, int z, uint32_t w,
                                uint32_t h, uint32_t d, const TexFormat& f, const PixelStore& ps, bool three_d,
                                const uint8_t* src, size_t size) {
    Gpu::Slice s = gpu_->stream(size_t(w) * h * d * f.dst_bytes, 16);
    if (!s.ptr) return false;
    if (!convert_upload(f, ps, w, h, d, three_d, src, size, s.ptr)) {
        refuse(verb, GL_INVALID_OPERATION, "pixel data shorter than the image");
        return false;
    }
    copy_texels(t, target, level, x, y, z, w, h, d, s);
    return true;
}

VkCommandBuffer MagmaBackend::image_work(const Image& img) {
    if (img.used_serial != gpu_->serial()) return gpu_->init();
    // Used earlier in this batch but not by the open pass: in front of that
    // pass, after everything before it. Whatever the open pass reads or
    // writes is untouched, so no draw can tell the difference, and the pass
    // is not split (glmark2's terrain mipmaps five textures a frame between
    // draws to one target). Used by the open pass: only in order is right
    // (its earlier draws must see the old contents).
    if (gpu_->in_pass() && img.used_pass != gpu_->pass_id()) return gpu_->prologue();
    open_id_ = nullptr;
    return gpu_->main_outside();
}

void MagmaBackend::copy_texels(Texture& t, GLenum target, int level, int x, int y, int z, uint32_t w, uint32_t h,
                               uint32_t d, const Gpu::Slice& s) {
    Image& img = t.img;
    VkCommandBuffer cb = image_work(img);
    gpu_->transition(cb, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkBufferImageCopy r{};
    r.bufferOffset = s.offset;
    const uint32_t layer = is_cube_face(target) ? target - GL_TEXTURE_CUBE_MAP_POSITIVE_X : 0;
    const bool array = layered(object_target(target));
    VkImageAspectFlags aspect = img.aspect & VK_IMAGE_ASPECT_COLOR_BIT ? VK_IMAGE_ASPECT_COLOR_BIT : VK_IMAGE_ASPECT_DEPTH_BIT;
    r.imageSubresource = {aspect, uint32_t(level), array ? uint32_t(z) : layer, array ? d : 1};
    r.imageOffset = {x, y, array ? 0 : z};
    r.imageExtent = {w, h, array ? 1 : d};
    vkCmdCopyBufferToImage(cb, s.buf, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
    gpu_->transition(cb, img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    gpu_->count_upload();
}

bool MagmaBackend::level_format(uint32_t internalformat, GLenum format, GLenum type, TexFormat& f) {
    const VkFormat ds = gpu_->dev().depth_stencil_format;
    return (cur_->desktop() && desktop_tex_format(internalformat, ds, f)) || tex_format(internalformat, format, type, ds, f);
}

// The verbs' targets: glTex*Image1D take 1D, glTex*Image2D 2D ones (cube
// faces, 1D arrays, rectangles), glTex*Image3D 3D and 2D arrays; another
// target is GL_INVALID_ENUM, and never reaches an image of another shape.
int MagmaBackend::verb_dims(GLenum target) {
    if (is_cube_face(target)) return 2;
    switch (target) {
        case GL_TEXTURE_1D: return 1;
        case GL_TEXTURE_2D: return 2;
        case GL_TEXTURE_1D_ARRAY: case GL_TEXTURE_RECTANGLE: return cur_->desktop() ? 2 : 0;
        case GL_TEXTURE_3D: case GL_TEXTURE_2D_ARRAY: return 3;
        default: return 0;
    }
}

void MagmaBackend::glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                                GLint border, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    if (!need_context(gen::Op::glTexImage2D)) return;
    if (verb_dims(target) != 2) return refuse(gen::Op::glTexImage2D, GL_INVALID_ENUM, "target");
    tex_image_2d(gen::Op::glTexImage2D, target, level, internalformat, width, height, border, format, type, pixels);
}

void MagmaBackend::glTexSubImage2D(GLenum target, GLint level, GLint x, GLint y, GLsizei width, GLsizei height,
                                   GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    if (!need_context(gen::Op::glTexSubImage2D)) return;
    if (verb_dims(target) != 2) return refuse(gen::Op::glTexSubImage2D, GL_INVALID_ENUM, "target");
    tex_sub_image_2d(gen::Op::glTexSubImage2D, target, level, x, y, width, height, format, type, pixels);
}

void MagmaBackend::tex_image_2d(gen::Op verb, GLenum target, GLint level, GLint internalformat, GLsizei width,
                                GLsizei height, GLint border, GLenum format, GLenum type,
                                wire::InOrOffset<uint8_t> pixels) {
    Texture* t = bound_texture(verb, target);
    if (!t) return;
    if (level < 0 || level > 15 || width < 0 || height < 0 || border != 0)
        return refuse(verb, GL_INVALID_VALUE, "level, size or border");
    if (t->immutable) return refuse(verb, GL_INVALID_OPERATION, "immutable texture");
    TexFormat f;
    if (!level_format(uint32_t(internalformat), format, type, f))
        return refuse(verb, GL_INVALID_ENUM, "format/type not supported by Magma yet");
    if (width == 0 || height == 0) return;
    if (target == GL_TEXTURE_RECTANGLE && level != 0) return refuse(verb, GL_INVALID_VALUE, "a rectangle texture has one level");
    // A 1D array's height is its layers: a 2D array image of height 1.
    const bool array1d = target == GL_TEXTURE_1D_ARRAY;
    const uint32_t h = array1d ? 1 : uint32_t(height), d = array1d ? uint32_t(height) : 1;
    if (!define_image(*t, target, level, f, uint32_t(width), h, d)) return set_error(GL_OUT_OF_MEMORY);
    t->defined |= 1u << level;
    upload(verb, *t, target, level, 0, 0, 0, uint32_t(width), h, d, format, type, pixels);
}

void MagmaBackend::tex_sub_image_2d(gen::Op verb, GLenum target, GLint level, GLint x, GLint y, GLsizei width,
                                    GLsizei height, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    Texture* t = bound_texture(verb, target);
    if (!t) return;
    if (etc2::Format cf; etc2::format(t->fmt.sized, cf))
        return refuse(verb, GL_INVALID_OPERATION, "a compressed texture");
    const Image& img = t->img;
    const bool array1d = target == GL_TEXTURE_1D_ARRAY;
    if (!img.image || level < 0 || uint32_t(level) >= img.levels || x < 0 || y < 0 || width < 0 || height < 0)
        return refuse(verb, GL_INVALID_VALUE, "region outside the texture level");
    const uint32_t rows = array1d ? img.layers : std::max(img.height >> level, 1u);
    if (uint32_t(x) + uint32_t(width) > std::max(img.width >> level, 1u) || uint32_t(y) + uint32_t(height) > rows)
        return refuse(verb, GL_INVALID_VALUE, "region outside the texture level");
    if (array1d)  // rows are layers
        upload(verb, *t, target, level, x, 0, y, uint32_t(width), 1, uint32_t(height), format, type, pixels);
    else
        upload(verb, *t, target, level, x, y, 0, uint32_t(width), uint32_t(height), 1, format, type, pixels);
}

void MagmaBackend::glTexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                                GLsizei depth, GLint border, GLenum format, GLenum type,
                                wire::InOrOffset<uint8_t> pixels) {
    if (!need_context(gen::Op::glTexImage3D)) return;
    if (verb_dims(target) != 3) return refuse(gen::Op::glTexImage3D, GL_INVALID_ENUM, "target");
    Texture* t = bound_texture(gen::Op::glTexImage3D, target);
    if (!t) return;
    if (level < 0 || level > 15 || width < 0 || height < 0 || depth < 0 || border != 0)
        return refuse(gen::Op::glTexImage3D, GL_INVALID_VALUE, "level, size or border");
    TexFormat f;
    if (!level_format(uint32_t(internalformat), format, type, f))
        return refuse(gen::Op::glTexImage3D, GL_INVALID_ENUM, "format/type not supported by Magma yet");
    if (!width || !height || !depth) return;
    if (!define_image(*t, target, level, f, uint32_t(width), uint32_t(height), uint32_t(depth))) return set_error(GL_OUT_OF_MEMORY);
    t->defined |= 1u << level;
    upload(gen::Op::glTexImage3D, *t, target, level, 0, 0, 0, uint32_t(width), uint32_t(height), uint32_t(depth),
           format, type, pixels);
}

void MagmaBackend::glTexSubImage3D(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei width,
                                   GLsizei height, GLsizei depth, GLenum format, GLenum type,
                                   wire::InOrOffset<uint8_t> pixels) {
    if (!need_context(gen::Op::glTexSubImage3D)) return;
    if (verb_dims(target) != 3) return refuse(gen::Op::glTexSubImage3D, GL_INVALID_ENUM, "target");
    Texture* t = bound_texture(gen::Op::glTexSubImage3D, target);
    if (!t) return;
    if (etc2::Format cf; etc2::format(t->fmt.sized, cf))
        return refuse(gen::Op::glTexSubImage3D, GL_INVALID_OPERATION, "a compressed texture");
    const Image& img = t->img;
    const uint32_t slices = img.type == VK_IMAGE_TYPE_3D ? std::max(img.depth >> level, 1u) : img.layers;
    if (!img.image || level < 0 || uint32_t(level) >= img.levels || x < 0 || y < 0 || z < 0 || width < 0 ||
        height < 0 || depth < 0 || uint32_t(x) + uint32_t(width) > std::max(img.width >> level, 1u) ||
        uint32_t(y) + uint32_t(height) > std::max(img.height >> level, 1u) || uint32_t(z) + uint32_t(depth) > slices)
        return refuse(gen::Op::glTexSubImage3D, GL_INVALID_VALUE, "region outside the texture level");
    upload(gen::Op::glTexSubImage3D, *t, target, level, x, y, z, uint32_t(width), uint32_t(height), uint32_t(depth),
           format, type, pixels);
}

void MagmaBackend::glTexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height) {
    if (target == GL_TEXTURE_1D_ARRAY) return glTexStorage3D(target, levels, internalformat, width, 1, height);
    glTexStorage3D(target, levels, internalformat, width, height, 1);
}

// 1D textures: 2D images of height 1 (the GL front end's mapping).
void MagmaBackend::glTexImage1D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLint border,
                                GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    if (!need_context(gen::Op::glTexImage1D)) return;
    if (verb_dims(target) != 1) return refuse(gen::Op::glTexImage1D, GL_INVALID_ENUM, "target");
    tex_image_2d(gen::Op::glTexImage1D, target, level, internalformat, width, 1, border, format, type, pixels);
}

void MagmaBackend::glTexSubImage1D(GLenum target, GLint level, GLint x, GLsizei width, GLenum format, GLenum type,
                                   wire::InOrOffset<uint8_t> pixels) {
    if (!need_context(gen::Op::glTexSubImage1D)) return;
    if (verb_dims(target) != 1) return refuse(gen::Op::glTexSubImage1D, GL_INVALID_ENUM, "target");
    tex_sub_image_2d(gen::Op::glTexSubImage1D, target, level, x, 0, width, 1, format, type, pixels);
}

void MagmaBackend::glTexStorage1D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width) {
    if (target != GL_TEXTURE_1D) return refuse(gen::Op::glTexStorage1D, GL_INVALID_ENUM, "target");
    glTexStorage3D(target, levels, internalformat, width, 1, 1);
}

void MagmaBackend::glTexStorage3D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height,
                                  GLsizei depth) {
    if (!need_context(gen::Op::glTexStorage3D)) return;
    Texture* t = bound_texture(gen::Op::glTexStorage3D, target);
    if (!t) return;
    if (t->immutable) return refuse(gen::Op::glTexStorage3D, GL_INVALID_OPERATION, "already immutable");
    if (levels < 1 || width < 1 || height < 1 || depth < 1) return refuse(gen::Op::glTexStorage3D, GL_INVALID_VALUE, "size");
    TexFormat f;
    if (!level_format(internalformat, 0, 0, f))
        return refuse(gen::Op::glTexStorage3D, GL_INVALID_ENUM, "internal format not supported by Magma yet");
    if (!define_image(*t, target, 0, f, uint32_t(width), uint32_t(height), uint32_t(depth))) return set_error(GL_OUT_OF_MEMORY);
    t->immutable = true;
    t->immutable_levels = levels;
    t->defined = (levels >= 32 ? ~0u : (1u << levels) - 1);
    t->max_level = std::min(t->max_level, levels - 1);
}

// ---- mipmaps and copies -------------------------------------------------------------------

void MagmaBackend::glGenerateMipmap(GLenum target) {
    if (!need_context(gen::Op::glGenerateMipmap)) return;
    Texture* t = bound_texture(gen::Op::glGenerateMipmap, target);
    if (!t) return;
    Image& img = t->img;
    const uint32_t base = uint32_t(std::max(t->base_level, 0));
    if (!img.image || !(t->defined & (1u << base)))
        return refuse(gen::Op::glGenerateMipmap, GL_INVALID_OPERATION, "base level undefined");
    if (etc2::Format cf; etc2::format(t->fmt.sized, cf))
        return refuse(gen::Op::glGenerateMipmap, GL_INVALID_OPERATION, "a compressed texture");
    if (img.levels <= base + 1) return;
    if (!gpu_->dev().format_has(img.format, VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                                VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
        return refuse(gen::Op::glGenerateMipmap, GL_INVALID_OPERATION, "the Vulkan format cannot be blitted with filtering");
    VkCommandBuffer cb = image_work(img);
    gpu_->transition(cb, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    for (uint32_t l = base + 1; l < img.levels; ++l) {
        VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = img.image;
        b.subresourceRange = {img.aspect, l - 1, 1, 0, img.layers};
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &b);
        VkImageBlit blit{};
        blit.srcSubresource = {img.aspect, l - 1, 0, img.layers};
        blit.srcOffsets[1] = {int32_t(std::max(img.width >> (l - 1), 1u)), int32_t(std::max(img.height >> (l - 1), 1u)),
                              int32_t(std::max(img.depth >> (l - 1), 1u))};
        blit.dstSubresource = {img.aspect, l, 0, img.layers};
        blit.dstOffsets[1] = {int32_t(std::max(img.width >> l, 1u)), int32_t(std::max(img.height >> l, 1u)),
                              int32_t(std::max(img.depth >> l, 1u))};
        vkCmdBlitImage(cb, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, img.image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
        t->defined |= 1u << l;
    }
    // Levels base..last-1 are TRANSFER_SRC, the last TRANSFER_DST: all to shader reads.
    VkImageMemoryBarrier bs[2]{};
    for (int i = 0; i < 2; ++i) {
        bs[i].sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
        bs[i].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
        bs[i].dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
        bs[i].newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        bs[i].srcQueueFamilyIndex = bs[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        bs[i].image = img.image;
    }
    bs[0].oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    bs[0].subresourceRange = {img.aspect, base, img.levels - 1 - base, 0, img.layers};
    bs[1].oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    bs[1].subresourceRange = {img.aspect, img.levels - 1, 1, 0, img.layers};
    // Levels below base stayed TRANSFER_DST: move them too.
    VkImageMemoryBarrier below = bs[1];
    below.subresourceRange = {img.aspect, 0, base, 0, img.layers};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                         nullptr, 2, bs);
    if (base > 0)
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &below);
    img.layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
}

void MagmaBackend::glCopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
                                    GLsizei width, GLsizei height, GLint border) {
    if (!need_context(gen::Op::glCopyTexImage2D)) return;
    if (verb_dims(target) != 2) return refuse(gen::Op::glCopyTexImage2D, GL_INVALID_ENUM, "target");
    if (target == GL_TEXTURE_1D_ARRAY)
        return refuse(gen::Op::glCopyTexImage2D, GL_INVALID_OPERATION, "copies into 1D array textures are not served by Magma yet");
    Texture* t = bound_texture(gen::Op::glCopyTexImage2D, target);
    if (!t) return;
    if (level < 0 || level > 15 || width < 0 || height < 0 || border != 0)
        return refuse(gen::Op::glCopyTexImage2D, GL_INVALID_VALUE, "level, size or border");
    if (t->immutable) return refuse(gen::Op::glCopyTexImage2D, GL_INVALID_OPERATION, "immutable texture");
    TexFormat f;
    if (!tex_format(internalformat, internalformat, GL_UNSIGNED_BYTE, gpu_->dev().depth_stencil_format, f) || f.depth ||
        f.stencil)
        return refuse(gen::Op::glCopyTexImage2D, GL_INVALID_ENUM, "internal format not supported by Magma yet");
    if (width == 0 || height == 0) return;
    if (!define_image(*t, target, level, f, uint32_t(width), uint32_t(height), 1)) return set_error(GL_OUT_OF_MEMORY);
    t->defined |= 1u << level;
    // The new level's content: what the read framebuffer has (outside it: undefined, as GL says).
    glCopyTexSubImage2D(target, level, 0, 0, x, y, width, height);
}

void MagmaBackend::glCopyTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x, GLint y,
                                       GLsizei width, GLsizei height) {
    if (!need_context(gen::Op::glCopyTexSubImage2D)) return;
    if (verb_dims(target) != 2) return refuse(gen::Op::glCopyTexSubImage2D, GL_INVALID_ENUM, "target");
    if (target == GL_TEXTURE_1D_ARRAY)
        return refuse(gen::Op::glCopyTexSubImage2D, GL_INVALID_OPERATION, "copies into 1D array textures are not served by Magma yet");
    Texture* t = bound_texture(gen::Op::glCopyTexSubImage2D, target);
    if (!t) return;
    // The destination region is the client's: outside the level it would
    // be a blit past the image's end (GL_INVALID_VALUE, as GL says).
    const Image& di = t->img;
    if (!di.image || level < 0 || uint32_t(level) >= di.levels || !(t->defined >> level & 1))
        return refuse(gen::Op::glCopyTexSubImage2D, GL_INVALID_OPERATION, "no such level of the texture");
    if (xoffset < 0 || yoffset < 0 || width < 0 || height < 0 ||
        uint32_t(xoffset) + uint32_t(width) > std::max(di.width >> level, 1u) ||
        uint32_t(yoffset) + uint32_t(height) > std::max(di.height >> level, 1u))
        return refuse(gen::Op::glCopyTexSubImage2D, GL_INVALID_VALUE, "region outside the texture level");
    uint32_t src_level = 0, src_layer = 0, sw = 0, sh = 0;
    if (width == 0 || height == 0) return;
    Image* src = read_source(src_level, src_layer, sw, sh);
    if (!src)
        return refuse(gen::Op::glCopyTexSubImage2D, GL_INVALID_OPERATION, "no source or destination image");
    if (src->samples > 1) return refuse(gen::Op::glCopyTexSubImage2D, GL_INVALID_OPERATION, "multisampled read framebuffer");
    // Clipped to the source, as GL reads nothing outside the framebuffer.
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = std::min<int>(x + width, int(sw)), y1 = std::min<int>(y + height, int(sh));
    if (x0 >= x1 || y0 >= y1) return;
    VkCommandBuffer cb = gpu_->main_outside();
    open_id_ = nullptr;
    Image& dst = t->img;
    if (src == &dst) return refuse(gen::Op::glCopyTexSubImage2D, GL_INVALID_OPERATION, "feedback copy");
    gpu_->transition(cb, *src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    gpu_->transition(cb, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const uint32_t layer = is_cube_face(target) ? target - GL_TEXTURE_CUBE_MAP_POSITIVE_X : 0;
    VkImageBlit b{};
    b.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, src_level, src_layer, 1};
    b.srcOffsets[0] = {x0, y0, 0};
    b.srcOffsets[1] = {x1, y1, 1};
    b.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, uint32_t(level), layer, 1};
    b.dstOffsets[0] = {xoffset + (x0 - x), yoffset + (y0 - y), 0};
    b.dstOffsets[1] = {xoffset + (x1 - x), yoffset + (y1 - y), 1};
    vkCmdBlitImage(cb, src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   1, &b, VK_FILTER_NEAREST);
    src->used_serial = dst.used_serial = gpu_->serial();
}

// Level parameters from the image (GL 3.0 / ES 3.1): size, samples, the
// internal format and its channel types' sizes as GL reports them.
void MagmaBackend::glGetTexLevelParameteriv(GLenum target, GLint level, GLenum pname, wire::Out<GLint> params) {
    constexpr gen::Op op = gen::Op::glGetTexLevelParameteriv;
    if (!need_context(op) || !params.count()) return;
    // A proxy target answers from the GL front end's ProxyTextures (the
    // multisample proxies Magma records: textures_multisample.cc).
    if (cur_->desktop() && gl::proxy_kind(target) != gl::ProxyKind::none) {
        int32_t v = 0;
        if (const uint32_t e = cur_->dstate.proxies.level_parameter(target, level, pname, &v)) return set_error(e);
        params.data[0] = v;
        return;
    }
    Texture* t = bound_texture(op, target);
    if (!t) return;
    if (level < 0 || level > 15) return refuse(op, GL_INVALID_VALUE, "level");
    const Image& img = t->img;
    const bool has = img.image && uint32_t(level) < img.levels && (t->defined >> level & 1);
    const bool array = t->target == GL_TEXTURE_2D_ARRAY || t->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    if (has && t->target == GL_TEXTURE_1D_ARRAY && (pname == GL_TEXTURE_HEIGHT || pname == GL_TEXTURE_DEPTH)) {
        params.data[0] = pname == GL_TEXTURE_HEIGHT ? GLint(img.layers) : 1;  // layers are a 1D array's height
        return;
    }
    GLint v = 0;
    switch (pname) {
        case GL_TEXTURE_WIDTH: v = has ? GLint(std::max(img.width >> level, 1u)) : 0; break;
        case GL_TEXTURE_HEIGHT: v = has ? GLint(std::max(img.height >> level, 1u)) : 0; break;
        case GL_TEXTURE_DEPTH: v = !has ? 0 : array ? GLint(img.layers) : GLint(std::max(img.depth >> level, 1u)); break;
        case GL_TEXTURE_SAMPLES: v = has && img.samples > 1 ? GLint(img.samples) : 0; break;
        case GL_TEXTURE_FIXED_SAMPLE_LOCATIONS: v = has && img.samples > 1 ? t->fixed_locations : GL_TRUE; break;
        case GL_TEXTURE_INTERNAL_FORMAT: v = has ? GLint(t->fmt.sized) : GL_RGBA; break;
        case GL_TEXTURE_COMPRESSED: v = 0; break;
        default: {
            // Component sizes and types of the desktop formats the front end's table holds.
            int32_t bits = 0;
            if (cur_->desktop() && has && t->fmt.desktop && gl::desktop_level_parameter(t->fmt.sized, pname, &bits)) {
                v = bits;
                break;
            }
            // The sized formats GLES has: their own sizes and types (the
            // front end's table), whatever image holds them. A level not
            // defined, or a format the table lacks (compressed), has none.
            // Luminance and intensity sizes are desktop GL's pnames only.
            gl::FormatBits fb;
            if (has) gl::sized_format_bits(t->fmt.sized, &fb);
            const bool desktop_only = pname == 0x8060 || pname == 0x8061 || pname == 0x8C14 || pname == 0x8C15;
            if ((cur_->desktop() || !desktop_only) && gl::format_bits_parameter(fb, pname, &bits)) {
                v = bits;
                break;
            }
            return refuse(op, GL_INVALID_ENUM, "pname not served by Magma yet");
        }
    }
    params.data[0] = v;
}

void MagmaBackend::glGetTexLevelParameterfv(GLenum target, GLint level, GLenum pname, wire::Out<GLfloat> params) {
    GLint v[4] = {};
    glGetTexLevelParameteriv(target, level, pname, wire::Out<GLint>{v, sizeof v});
    if (params.count()) params.data[0] = GLfloat(v[0]);
}

}  // namespace mgl::magma
