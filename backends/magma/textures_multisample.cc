// Multisample textures (desktop GL 3.2, ARB_texture_multisample): images of
// GL_TEXTURE_2D_MULTISAMPLE(_ARRAY) with glTex{Image,Storage}{2,3}DMultisample,
// sampled by texelFetch on sampler2DMS (a multisampled Vulkan image view),
// rendered into as framebuffer attachments; the sample mask
// (GL_SAMPLE_MASK, glSampleMaski) and sample positions.
#include <GLES3/gl32.h>

#include <algorithm>

#include "backend.h"

namespace mgl::magma {

namespace {
constexpr GLenum kSampleMask = 0x8E51;

// What a proxy multisample texture is checked against (the GL front end's
// ProxyTextures, backends/gl/state/proxy_textures.h): the figures
// glGetIntegerv answers (state_queries.cc).
gl::ProxyLimits proxy_limits(const Device& d) {
    const VkPhysicalDeviceLimits& l = d.props.limits;
    gl::ProxyLimits p;
    p.max_2d = int32_t(std::min<uint32_t>(l.maxImageDimension2D, 16384));
    p.max_3d = int32_t(std::min<uint32_t>(l.maxImageDimension3D, 2048));
    p.max_cube = int32_t(std::min<uint32_t>(l.maxImageDimensionCube, 16384));
    p.max_layers = int32_t(std::min<uint32_t>(l.maxImageArrayLayers, 2048));
    p.max_color_samples = p.max_depth_samples = p.max_integer_samples = d.max_samples();
    return p;
}
}  // namespace

// GL: the smallest count the device has for the format that is >= samples.
VkSampleCountFlagBits MagmaBackend::texture_samples(VkFormat f, GLsizei samples) {
    const Device& d = gpu_->dev();
    const VkPhysicalDeviceLimits& l = d.props.limits;
    const bool ds = is_depth_format(f) || has_stencil(f);
    VkSampleCountFlags have = d.msaa_counts(f) &
                              (ds ? l.sampledImageDepthSampleCounts
                                  : is_integer_format(f) ? l.sampledImageIntegerSampleCounts : l.sampledImageColorSampleCounts);
    for (uint32_t n = uint32_t(std::max(samples, 1)); n <= 64; ++n)
        if ((n & (n - 1)) == 0 && (have & n) && n > 1) return VkSampleCountFlagBits(n);
    return VK_SAMPLE_COUNT_1_BIT;
}

void MagmaBackend::multisample_storage(gen::Op verb, GLenum target, GLsizei samples, GLenum internalformat,
                                       GLsizei width, GLsizei height, GLsizei depth, bool fixed_locations,
                                       bool immutable) {
    if (!need_context(verb)) return;
    if (!cur_->desktop()) return unsupported(verb);
    // GL_PROXY_TEXTURE_2D_MULTISAMPLE(_ARRAY): checked and kept by the GL
    // front end; the device never sees a proxy.
    if (gl::proxy_kind(target) != gl::ProxyKind::none) {
        const bool three = verb == gen::Op::glTexImage3DMultisample || verb == gen::Op::glTexStorage3DMultisample;
        gl::ProxyRequest r{gl::ProxyRequest::Verb::multisample, target, three ? 3 : 2, 0, internalformat,
                           width, height, three ? depth : 1, 0, 0, 0, samples, fixed_locations};
        r.compatibility = cur_->compatibility();
        if (const uint32_t e = cur_->dstate.proxies.specify(r, proxy_limits(gpu_->dev()))) set_error(e);
        return;
    }
    const bool array = target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    if (target != GL_TEXTURE_2D_MULTISAMPLE && !array) return refuse(verb, GL_INVALID_ENUM, "target");
    if ((verb == gen::Op::glTexImage3DMultisample || verb == gen::Op::glTexStorage3DMultisample) != array)
        return refuse(verb, GL_INVALID_ENUM, "target");
    Texture* t = bound_texture(verb, target);
    if (!t) return;
    if (t->immutable) return refuse(verb, GL_INVALID_OPERATION, "immutable texture");
    const VkPhysicalDeviceLimits& l = gpu_->dev().props.limits;
    if (samples < 1 || width < 1 || height < 1 || depth < 1 || uint32_t(width) > l.maxImageDimension2D ||
        uint32_t(height) > l.maxImageDimension2D || uint32_t(depth) > l.maxImageArrayLayers)
        return refuse(verb, GL_INVALID_VALUE, "samples or size");
    TexFormat f;
    // Sized formats, and the unsized colour-renderable ones (GL_RGBA) as their 8-bit forms.
    const VkFormat dsf = gpu_->dev().depth_stencil_format;
    if (!tex_format(internalformat, 0, 0, dsf, f) && !tex_format(internalformat, internalformat, GL_UNSIGNED_BYTE, dsf, f))
        return refuse(verb, GL_INVALID_ENUM, "not a renderable internal format Magma has");
    const bool ds = f.depth || f.stencil;
    if (!gpu_->dev().format_has(f.vk, ds ? VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
        return refuse(verb, GL_INVALID_ENUM, "internal format is not renderable");
    if (samples > gpu_->dev().max_samples()) return refuse(verb, GL_INVALID_OPERATION, "samples > the format's maximum");
    const VkSampleCountFlagBits count = texture_samples(f.vk, samples);
    if (count == VK_SAMPLE_COUNT_1_BIT) return refuse(verb, GL_INVALID_OPERATION, "samples > the format's maximum");
    if (t->img.image) {
        if (open_id_) {
            gpu_->end_pass();
            open_id_ = nullptr;
        }
        VkImageView v = t->view;
        std::vector<VkImageView> views;
        for (auto& [k, av] : t->attach_views) views.push_back(av);
        gpu_->defer([v, views](VkDevice dv) {
            if (v) vkDestroyImageView(dv, v, nullptr);
            for (VkImageView av : views) vkDestroyImageView(dv, av, nullptr);
        });
        t->view = VK_NULL_HANDLE;
        t->attach_views.clear();
        gpu_->destroy_image_later(t->img);
    }
    Image& img = t->img;
    img = {};
    img.format = f.vk;
    img.aspect = ds ? VkImageAspectFlags((is_depth_format(f.vk) ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                         (has_stencil(f.vk) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0))
                    : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT);
    img.width = uint32_t(width);
    img.height = uint32_t(height);
    img.layers = array ? uint32_t(depth) : 1;
    img.samples = count;
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                    (ds ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    ++t->generation;
    t->fmt = f;
    t->has_format = true;
    // As asked (the framebuffer completeness rule compares it); Vulkan's
    // standard locations are fixed either way.
    t->fixed_locations = fixed_locations;
    if (!gpu_->create_image(img, usage)) return set_error(GL_OUT_OF_MEMORY);
    t->defined = 1;  // level 0, contents undefined until drawn
    t->immutable = immutable;
    t->immutable_levels = immutable ? 1 : 0;
}

void MagmaBackend::glTexImage2DMultisample(GLenum target, GLsizei samples, GLenum ifmt, GLsizei w, GLsizei h,
                                           GLboolean fixed) {
    multisample_storage(gen::Op::glTexImage2DMultisample, target, samples, ifmt, w, h, 1, fixed, false);
}

void MagmaBackend::glTexStorage2DMultisample(GLenum target, GLsizei samples, GLenum ifmt, GLsizei w, GLsizei h,
                                             GLboolean fixed) {
    multisample_storage(gen::Op::glTexStorage2DMultisample, target, samples, ifmt, w, h, 1, fixed, true);
}

void MagmaBackend::glTexImage3DMultisample(GLenum target, GLsizei samples, GLenum ifmt, GLsizei w, GLsizei h, GLsizei d,
                                           GLboolean fixed) {
    multisample_storage(gen::Op::glTexImage3DMultisample, target, samples, ifmt, w, h, d, fixed, false);
}

void MagmaBackend::glTexStorage3DMultisample(GLenum target, GLsizei samples, GLenum ifmt, GLsizei w, GLsizei h,
                                             GLsizei d, GLboolean fixed) {
    multisample_storage(gen::Op::glTexStorage3DMultisample, target, samples, ifmt, w, h, d, fixed, true);
}

void MagmaBackend::glSampleMaski(GLuint index, GLbitfield mask) {
    if (!need_context(gen::Op::glSampleMaski)) return;
    if (!cur_->desktop()) return unsupported(gen::Op::glSampleMaski);
    if (index >= 1) return refuse(gen::Op::glSampleMaski, GL_INVALID_VALUE, "index >= GL_MAX_SAMPLE_MASK_WORDS");
    cur_->st.sample_mask_value = mask;
}

// Vulkan's standard sample locations (the device reports standardSampleLocations).
// Image row 0 is GL's bottom row, so Vulkan's y within a pixel is GL's.
void MagmaBackend::glGetMultisamplefv(GLenum pname, GLuint index, wire::Out<GLfloat> val) {
    if (!need_context(gen::Op::glGetMultisamplefv)) return;
    if (pname != GL_SAMPLE_POSITION) return refuse(gen::Op::glGetMultisamplefv, GL_INVALID_ENUM, "pname");
    const int n = std::max(fb_samples(true), 1);
    if (int(index) >= n) return refuse(gen::Op::glGetMultisamplefv, GL_INVALID_VALUE, "index >= GL_SAMPLES");
    static const float k1[] = {0.5f, 0.5f};
    static const float k2[] = {0.75f, 0.75f, 0.25f, 0.25f};
    static const float k4[] = {0.375f, 0.125f, 0.875f, 0.375f, 0.125f, 0.625f, 0.625f, 0.875f};
    static const float k8[] = {0.5625f, 0.3125f, 0.4375f, 0.6875f, 0.8125f, 0.5625f, 0.3125f, 0.1875f,
                               0.1875f, 0.8125f, 0.0625f, 0.4375f, 0.6875f, 0.9375f, 0.9375f, 0.0625f};
    const float* p = n == 1 ? k1 : n == 2 ? k2 : n == 4 ? k4 : n == 8 ? k8 : nullptr;
    if (!p || !gpu_->dev().props.limits.standardSampleLocations)
        return refuse(gen::Op::glGetMultisamplefv, GL_INVALID_OPERATION, "sample locations of this count are not known");
    if (val.count() >= 2) val.data[0] = p[2 * index], val.data[1] = p[2 * index + 1];
}

bool MagmaBackend::sample_mask_cap(GLenum cap, bool on) {
    if (cap != kSampleMask || !cur_->desktop()) return false;
    cur_->st.sample_mask = on;
    return true;
}

}  // namespace mgl::magma
