// Renderbuffers, framebuffer objects, render targets and the open render
// pass (kept open across draws to the same attachments), draw and read
// buffers. Clears are clears.cc, blits and glReadPixels blit_read.cc, format
// queries framebuffer_queries.cc.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "backend.h"
#include "context/desktop_context.h"
#include "context/sized_formats.h"

namespace mgl::magma {

// ---- renderbuffers ------------------------------------------------------------------------

void MagmaBackend::glGenRenderbuffers(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glGenRenderbuffers)) return;
    for (uint32_t i = 0; i < names.count(); ++i)
        if (names.data[i]) cur_->share->renderbuffers.emplace(names.data[i], nullptr);
}

void MagmaBackend::glDeleteRenderbuffers(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glDeleteRenderbuffers)) return;
    for (uint32_t i = 0; i < names.count(); ++i) {
        auto it = cur_->share->renderbuffers.find(names.data[i]);
        if (it == cur_->share->renderbuffers.end()) continue;
        std::shared_ptr<Renderbuffer> rb = it->second;
        cur_->share->renderbuffers.erase(it);
        if (!rb) continue;
        if (cur_->renderbuffer == rb) cur_->renderbuffer.reset();
    }
}

void MagmaBackend::glBindRenderbuffer(GLenum target, GLuint name) {
    if (!need_context(gen::Op::glBindRenderbuffer)) return;
    if (name == 0) {
        cur_->renderbuffer.reset();
        return;
    }
    auto& rb = cur_->share->renderbuffers[name];
    if (!rb) rb = std::make_shared<Renderbuffer>(gpu_.get());
    cur_->renderbuffer = rb;
}

GLboolean MagmaBackend::glIsRenderbuffer(GLuint name) {
    return need_context(gen::Op::glIsRenderbuffer) && cur_->share->renderbuffers.count(name) &&
           cur_->share->renderbuffers[name];
}

void MagmaBackend::glRenderbufferStorage(GLenum target, GLenum internalformat, GLsizei width, GLsizei height) {
    renderbuffer_storage(gen::Op::glRenderbufferStorage, 0, internalformat, width, height);
}

void MagmaBackend::glRenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat,
                                                    GLsizei width, GLsizei height) {
    renderbuffer_storage(gen::Op::glRenderbufferStorageMultisample, samples, internalformat, width, height);
}

// samples 0: single-sampled. Otherwise the smallest count the device has for
// the format that is >= samples (GL: "at least samples, no more than the next
// supported count"); above GL_MAX_SAMPLES is GL_INVALID_OPERATION.
void MagmaBackend::renderbuffer_storage(gen::Op verb, GLsizei samples, GLenum internalformat, GLsizei width,
                                        GLsizei height) {
    if (!need_context(verb)) return;
    if (!cur_->renderbuffer) return refuse(verb, GL_INVALID_OPERATION, "no renderbuffer bound");
    if (width < 1 || height < 1 || samples < 0) return refuse(verb, GL_INVALID_VALUE, "size or samples");
    const VkPhysicalDeviceLimits& lim = gpu_->dev().props.limits;
    if (uint32_t(width) > std::min(lim.maxImageDimension2D, lim.maxFramebufferWidth) ||
        uint32_t(height) > std::min(lim.maxImageDimension2D, lim.maxFramebufferHeight))
        return refuse(verb, GL_INVALID_VALUE, "larger than GL_MAX_RENDERBUFFER_SIZE");
    // Desktop GL takes unsized base formats (GL_STENCIL_INDEX...): the sized
    // one a desktop driver allocates (the GL front end's rule).
    if (cur_->desktop()) internalformat = gl::sized_renderable_format(internalformat);
    TexFormat f;
    if (!level_format(internalformat, 0, 0, f))
        return refuse(verb, GL_INVALID_ENUM, "internal format not supported by Magma yet");
    VkSampleCountFlagBits count = VK_SAMPLE_COUNT_1_BIT;
    if (samples > 0) {
        if (samples > gpu_->dev().max_samples()) return refuse(verb, GL_INVALID_OPERATION, "samples > GL_MAX_SAMPLES");
        // ES 3.0 4.4.2.1: integer formats have no multisampled storage.
        if (is_integer_format(f.vk)) return refuse(verb, GL_INVALID_OPERATION, "an integer format with samples");
        const VkSampleCountFlags have = gpu_->dev().msaa_counts(f.vk);
        for (uint32_t n = uint32_t(samples); n <= 64 && count == VK_SAMPLE_COUNT_1_BIT; ++n)
            if ((n & (n - 1)) == 0 && (have & n)) count = VkSampleCountFlagBits(n);
        if (count == VK_SAMPLE_COUNT_1_BIT)
            return refuse(verb, GL_INVALID_OPERATION, "the device has no multisampled storage for this format");
    }
    Renderbuffer& rb = *cur_->renderbuffer;
    if (rb.img.image) {
        if (open_id_) {
            gpu_->end_pass();
            open_id_ = nullptr;
        }
        VkImageView v = rb.view;
        gpu_->defer([v](VkDevice d) { if (v) vkDestroyImageView(d, v, nullptr); });
        gpu_->destroy_image_later(rb.img);
    }
    rb.fmt = f;
    rb.img = {};
    rb.img.format = f.vk;
    rb.img.width = uint32_t(width);
    rb.img.height = uint32_t(height);
    rb.img.samples = count;
    const bool ds = f.depth || f.stencil;
    rb.img.aspect = ds ? VkImageAspectFlags((is_depth_format(f.vk) ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                            (has_stencil(f.vk) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0))
                       : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT);
    const VkImageUsageFlags usage = (ds ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (!gpu_->create_image(rb.img, usage)) return set_error(GL_OUT_OF_MEMORY);
    rb.view = gpu_->create_view(rb.img, VK_IMAGE_VIEW_TYPE_2D, 0, 1, 0, 1);
    ++rb.generation;
}

// GL_NUM_SAMPLE_COUNTS / GL_SAMPLES of a renderable format: the device's
// counts above 1, largest first (none for integer formats, as ES 3.0 says).
void MagmaBackend::glGetInternalformativ(GLenum target, GLenum internalformat, GLenum pname, GLsizei count,
                                         wire::Out<GLint> params) {
    if (!need_context(gen::Op::glGetInternalformativ)) return;
    if (target != GL_RENDERBUFFER) return refuse(gen::Op::glGetInternalformativ, GL_INVALID_ENUM, "target");
    if (pname != GL_NUM_SAMPLE_COUNTS && pname != GL_SAMPLES) return refuse(gen::Op::glGetInternalformativ, GL_INVALID_ENUM, "pname");
    if (count < 0) return refuse(gen::Op::glGetInternalformativ, GL_INVALID_VALUE, "count");
    TexFormat f;
    if (!tex_format(internalformat, 0, 0, gpu_->dev().depth_stencil_format, f) ||
        !gpu_->dev().format_has(f.vk, (f.depth || f.stencil) ? VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT
                                                             : VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
        return refuse(gen::Op::glGetInternalformativ, GL_INVALID_ENUM, "internal format is not renderable");
    std::vector<GLint> counts;
    if (!is_integer_format(f.vk)) {
        const VkSampleCountFlags have = gpu_->dev().msaa_counts(f.vk);
        for (int n = 64; n > 1; n /= 2)
            if ((have & VkSampleCountFlags(n)) && n <= gpu_->dev().max_samples()) counts.push_back(n);
    }
    if (pname == GL_NUM_SAMPLE_COUNTS) {
        if (count > 0 && params.count()) params.data[0] = GLint(counts.size());
        return;
    }
    for (size_t i = 0; i < counts.size() && i < size_t(count) && i < params.count(); ++i) params.data[i] = counts[i];
}

int MagmaBackend::fb_samples(bool draw_fb) {
    Framebuffer* fb = (draw_fb ? cur_->draw_fb : cur_->read_fb).get();
    if (!fb) {  // the surface: its EGL_SAMPLES
        const Surface* sf = draw_fb ? draw_ : read_;
        return sf && sf->samples > 1 ? int(sf->samples) : 0;
    }
    auto samples = [](const Attachment& a) {
        return a.kind == GL_RENDERBUFFER && a.rb ? int(a.rb->img.samples) : a.kind == GL_TEXTURE && a.tex ? int(a.tex->img.samples) : 1;
    };
    for (const Attachment& a : fb->color)
        if (a.kind) return samples(a) > 1 ? samples(a) : 0;
    const Attachment& d = fb->depth.kind ? fb->depth : fb->stencil;
    return d.kind && samples(d) > 1 ? samples(d) : 0;
}

// ---- framebuffer objects ------------------------------------------------------------------

void MagmaBackend::glGenFramebuffers(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glGenFramebuffers)) return;
    for (uint32_t i = 0; i < names.count(); ++i)
        if (names.data[i]) cur_->framebuffers.emplace(names.data[i], nullptr);
}

void MagmaBackend::glDeleteFramebuffers(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glDeleteFramebuffers)) return;
    for (uint32_t i = 0; i < names.count(); ++i) {
        auto it = cur_->framebuffers.find(names.data[i]);
        if (it == cur_->framebuffers.end()) continue;
        std::shared_ptr<Framebuffer> fb = it->second;
        cur_->framebuffers.erase(it);
        if (!fb) continue;
        if (open_id_ == fb.get()) {
            gpu_->end_pass();
            open_id_ = nullptr;
        }
        if (cur_->draw_fb == fb) cur_->draw_fb.reset();
        if (cur_->read_fb == fb) cur_->read_fb.reset();
    }
}

void MagmaBackend::glBindFramebuffer(GLenum target, GLuint name) {
    if (!need_context(gen::Op::glBindFramebuffer)) return;
    std::shared_ptr<Framebuffer> fb;
    if (name) {
        auto& slot = cur_->framebuffers[name];
        if (!slot) slot = std::make_shared<Framebuffer>(gpu_.get());
        fb = slot;
    }
    if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER) cur_->draw_fb = fb;
    if (target == GL_FRAMEBUFFER || target == GL_READ_FRAMEBUFFER) cur_->read_fb = fb;
}

GLboolean MagmaBackend::glIsFramebuffer(GLuint name) {
    return need_context(gen::Op::glIsFramebuffer) && cur_->framebuffers.count(name) && cur_->framebuffers[name];
}

Framebuffer* MagmaBackend::fb_for(GLenum target) {
    return (target == GL_READ_FRAMEBUFFER ? cur_->read_fb : cur_->draw_fb).get();
}

void MagmaBackend::check_discard(gen::Op verb, GLenum target, GLsizei n, wire::In<GLenum> attachments) {
    if (!need_context(verb)) return;
    const bool ext = verb == gen::Op::glDiscardFramebufferEXT;  // EXT_discard_framebuffer: GL_FRAMEBUFFER only
    if (target != GL_FRAMEBUFFER && (ext || (target != GL_DRAW_FRAMEBUFFER && target != GL_READ_FRAMEBUFFER)))
        return refuse(verb, GL_INVALID_ENUM, "target");
    if (n < 0) return refuse(verb, GL_INVALID_VALUE, "negative count");
    const bool fbo = fb_for(target) != nullptr;
    for (uint32_t i = 0; i < attachments.count() && i < uint32_t(n); ++i) {
        const GLenum a = attachments.data[i];
        if (!fbo) {
            if (a != GL_COLOR_EXT && a != GL_DEPTH_EXT && a != GL_STENCIL_EXT) return refuse(verb, GL_INVALID_ENUM, "attachment");
        } else if (a >= GL_COLOR_ATTACHMENT0 && a <= GL_COLOR_ATTACHMENT31) {
            if (a >= GLenum(GL_COLOR_ATTACHMENT0 + max_draw_buffers())) return refuse(verb, GL_INVALID_OPERATION, "attachment >= GL_MAX_COLOR_ATTACHMENTS");
        } else if (a != GL_DEPTH_ATTACHMENT && a != GL_STENCIL_ATTACHMENT && (ext || a != GL_DEPTH_STENCIL_ATTACHMENT)) {
            return refuse(verb, GL_INVALID_ENUM, "attachment");
        }
    }
}

// Hints only (contents stay): validated as GL says, nothing else.
void MagmaBackend::glInvalidateFramebuffer(GLenum target, GLsizei n, wire::In<GLenum> attachments) {
    check_discard(gen::Op::glInvalidateFramebuffer, target, n, attachments);
}

void MagmaBackend::glDiscardFramebufferEXT(GLenum target, GLsizei n, wire::In<GLenum> attachments) {
    check_discard(gen::Op::glDiscardFramebufferEXT, target, n, attachments);
}

Attachment* MagmaBackend::attachment_slot(Framebuffer& fb, GLenum attachment, Attachment** second) {
    *second = nullptr;
    if (attachment >= GL_COLOR_ATTACHMENT0 && attachment < GLenum(GL_COLOR_ATTACHMENT0 + max_draw_buffers()))
        return &fb.color[attachment - GL_COLOR_ATTACHMENT0];
    if (attachment == GL_DEPTH_ATTACHMENT) return &fb.depth;
    if (attachment == GL_STENCIL_ATTACHMENT) return &fb.stencil;
    if (attachment == GL_DEPTH_STENCIL_ATTACHMENT) {
        *second = &fb.stencil;
        return &fb.depth;
    }
    return nullptr;
}

void MagmaBackend::glFramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                          GLint level) {
    attach_texture(gen::Op::glFramebufferTexture2D, target, attachment, textarget, texture, level);
}

// glFramebufferTexture1D (desktop): a 1D texture is a 2D image of height 1 here.
void MagmaBackend::glFramebufferTexture1D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                          GLint level) {
    attach_texture(gen::Op::glFramebufferTexture1D, target, attachment, textarget, texture, level);
}

void MagmaBackend::attach_texture(gen::Op verb, GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                  GLint level) {
    if (!need_context(verb)) return;
    Framebuffer* fb = fb_for(target);
    if (!fb) return refuse(verb, GL_INVALID_OPERATION, "framebuffer 0 is bound");
    Attachment* second;
    Attachment* a = attachment_slot(*fb, attachment, &second);
    if (!a) return refuse(verb, GL_INVALID_ENUM, "attachment");
    Attachment value;
    if (texture) {
        auto it = cur_->share->textures.find(texture);
        if (it == cur_->share->textures.end() || !it->second)
            return refuse(verb, GL_INVALID_OPERATION, "unknown texture");
        const bool face = textarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && textarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
        const GLenum want = face ? GLenum(GL_TEXTURE_CUBE_MAP) : textarget;
        if (verb == gen::Op::glFramebufferTexture1D ? textarget != GL_TEXTURE_1D : textarget == GL_TEXTURE_1D)
            return refuse(verb, GL_INVALID_OPERATION, "textarget does not belong to this verb");
        if (it->second->target && it->second->target != want)
            return refuse(verb, GL_INVALID_OPERATION, "textarget does not match the texture's target");
        value.kind = GL_TEXTURE;
        value.tex = it->second;
        value.name = texture;
        value.level = level;
        value.layer = textarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && textarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z
                          ? int(textarget - GL_TEXTURE_CUBE_MAP_POSITIVE_X)
                          : 0;
    }
    *a = value;
    if (second) *second = value;
    ++fb->generation;
}

void MagmaBackend::glFramebufferTextureLayer(GLenum target, GLenum attachment, GLuint texture, GLint level,
                                             GLint layer) {
    attach_layer(gen::Op::glFramebufferTextureLayer, target, attachment, texture, level, layer);
}

// glFramebufferTexture3D (desktop): the zoffset slice, as glFramebufferTextureLayer attaches it.
void MagmaBackend::glFramebufferTexture3D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                          GLint level, GLint zoffset) {
    if (!need_context(gen::Op::glFramebufferTexture3D)) return;
    if (texture && textarget != GL_TEXTURE_3D)
        return refuse(gen::Op::glFramebufferTexture3D, GL_INVALID_OPERATION, "textarget is not GL_TEXTURE_3D");
    if (texture) {
        auto it = cur_->share->textures.find(texture);
        if (it != cur_->share->textures.end() && it->second && it->second->target &&
            it->second->target != GL_TEXTURE_3D)
            return refuse(gen::Op::glFramebufferTexture3D, GL_INVALID_OPERATION, "the texture is not a 3D texture");
    }
    attach_layer(gen::Op::glFramebufferTexture3D, target, attachment, texture, level, zoffset);
}

void MagmaBackend::attach_layer(gen::Op verb, GLenum target, GLenum attachment, GLuint texture, GLint level,
                                GLint layer) {
    if (!need_context(verb)) return;
    Framebuffer* fb = fb_for(target);
    if (!fb) return refuse(verb, GL_INVALID_OPERATION, "framebuffer 0 is bound");
    Attachment* second;
    Attachment* a = attachment_slot(*fb, attachment, &second);
    if (!a) return refuse(verb, GL_INVALID_ENUM, "attachment");
    Attachment value;
    if (texture) {
        auto it = cur_->share->textures.find(texture);
        if (it == cur_->share->textures.end() || !it->second)
            return refuse(verb, GL_INVALID_OPERATION, "unknown texture");
        if (layer < 0) return refuse(verb, GL_INVALID_VALUE, "negative layer");
        value.kind = GL_TEXTURE;
        value.tex = it->second;
        value.name = texture;
        value.level = level;
        value.layer = layer;
    }
    *a = value;
    if (second) *second = value;
    ++fb->generation;
}

void MagmaBackend::glFramebufferRenderbuffer(GLenum target, GLenum attachment, GLenum rbtarget, GLuint renderbuffer) {
    if (!need_context(gen::Op::glFramebufferRenderbuffer)) return;
    Framebuffer* fb = fb_for(target);
    if (!fb) return refuse(gen::Op::glFramebufferRenderbuffer, GL_INVALID_OPERATION, "framebuffer 0 is bound");
    Attachment* second;
    Attachment* a = attachment_slot(*fb, attachment, &second);
    if (!a) return refuse(gen::Op::glFramebufferRenderbuffer, GL_INVALID_ENUM, "attachment");
    Attachment value;
    if (renderbuffer) {
        auto it = cur_->share->renderbuffers.find(renderbuffer);
        if (it == cur_->share->renderbuffers.end() || !it->second)
            return refuse(gen::Op::glFramebufferRenderbuffer, GL_INVALID_OPERATION, "unknown renderbuffer");
        value.kind = GL_RENDERBUFFER;
        value.rb = it->second;
        value.name = renderbuffer;
    }
    *a = value;
    if (second) *second = value;
    ++fb->generation;
}

GLenum MagmaBackend::glCheckFramebufferStatus(GLenum target) {
    if (!need_context(gen::Op::glCheckFramebufferStatus)) return 0;
    if (!fb_for(target)) return (target == GL_READ_FRAMEBUFFER ? read_ : draw_) ? GL_FRAMEBUFFER_COMPLETE
                                                                            : GL_FRAMEBUFFER_UNDEFINED;
    Target t;
    if (!resolve_target(t, target != GL_READ_FRAMEBUFFER)) {
        if (t.mixed_samples) return GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE;
        if (t.split_depth_stencil) return GL_FRAMEBUFFER_UNSUPPORTED;
        Framebuffer& fb = *fb_for(target);
        bool any = fb.depth.kind || fb.stencil.kind;
        for (auto& c : fb.color) any = any || c.kind;
        return any ? GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT : GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
    }
    return GL_FRAMEBUFFER_COMPLETE;
}

// ---- render targets and passes ----------------------------------------------------------------

bool MagmaBackend::resolve_target(Target& t, bool draw_fb) {
    t = {};
    Framebuffer* fb = draw_fb ? cur_->draw_fb.get() : cur_->read_fb.get();
    if (!fb) {
        Surface* s = draw_fb ? draw_ : read_;
        if (!s || !s->fb) return false;
        t.id = s;
        t.generation = s->generation;
        const bool ms = s->samples > 1;  // draws go to the multisampled image (resolved when observed)
        t.color[0] = ms ? &s->ms_color : &s->color;
        t.color_view[0] = ms ? s->ms_view : s->color_view;
        t.key.color[0] = t.color[0]->format;
        t.key.samples = s->samples;
        if (s->has_depth) {
            t.ds = &s->ds;
            t.ds_view = s->ds_view;
            t.key.depth = s->ds.format;
            t.has_depth = t.has_stencil = true;
        }
        t.width = uint32_t(s->width);
        t.height = uint32_t(s->height);
        t.fb = s->fb;
        if (draw_fb) t.draw_mask = cur_->surface_draw_buffer == GL_BACK ? 1 : 0;
        return true;
    }
    uint32_t w = UINT32_MAX, h = UINT32_MAX;
    std::string key;
    int samples = 0;  // 0 until the first attachment; then all must have as many (GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE)
    int fixed = -1;   // GL_TEXTURE_FIXED_SAMPLE_LOCATIONS of the multisampled attachments (renderbuffers: true), alike too
    auto add = [&](Attachment& a, Image*& img, VkImageView& view) -> bool {
        const bool attached = (a.kind == GL_TEXTURE && a.tex && a.tex->img.image) || (a.kind == GL_RENDERBUFFER && a.rb && a.rb->img.image);
        if (attached && (a.kind == GL_TEXTURE ? a.tex->img.samples : a.rb->img.samples) > 1) {
            const int f = a.kind == GL_TEXTURE ? int(a.tex->fixed_locations) : 1;
            if (fixed >= 0 && fixed != f) {
                t.mixed_samples = true;
                return false;
            }
            fixed = f;
        }
        if (a.kind == GL_TEXTURE && a.tex && a.tex->img.image) {
            Texture& tex = *a.tex;
            if (uint32_t(a.level) >= tex.img.levels) return false;
            // The layer (a 3D level's slice) the application named must be in the
            // image before a view is made of it: GL's incomplete attachment.
            const uint32_t layers = tex.img.type == VK_IMAGE_TYPE_3D ? std::max(tex.img.depth >> a.level, 1u) : tex.img.layers;
            if (a.layer < 0 || uint32_t(a.layer) >= layers) return false;
            img = &tex.img;
            view = attachment_view(tex, a.level, a.layer);
            w = std::min(w, std::max(tex.img.width >> a.level, 1u));
            h = std::min(h, std::max(tex.img.height >> a.level, 1u));
        } else if (a.kind == GL_RENDERBUFFER && a.rb && a.rb->img.image) {
            img = &a.rb->img;
            view = a.rb->view;
            w = std::min(w, a.rb->img.width);
            h = std::min(h, a.rb->img.height);
        } else {
            return a.kind == 0;
        }
        if (samples && samples != int(img->samples)) {
            t.mixed_samples = true;
            return false;
        }
        samples = int(img->samples);
        key += std::to_string(uint64_t(view)) + ",";
        return true;
    };
    bool any = false;
    for (int i = 0; i < kMaxColorAttachments; ++i) {
        if (!add(fb->color[i], t.color[i], t.color_view[i])) return false;
        if (t.color[i]) {
            t.key.color[i] = t.color[i]->format;
            any = true;
        }
    }
    if (draw_fb) {
        t.draw_mask = 0;
        for (int i = 0; i < kMaxColorAttachments; ++i) t.draw_mask |= uint8_t(fb->draw_buffers[i] != GL_NONE) << i;
    }
    // A Vulkan pass has one depth/stencil attachment: depth and stencil in
    // two images is a combination GL lets an implementation leave unsupported.
    auto image_of = [](const Attachment& a) -> const void* {
        return a.kind == GL_TEXTURE ? static_cast<const void*>(a.tex.get()) : static_cast<const void*>(a.rb.get());
    };
    if (fb->depth.kind && fb->stencil.kind && image_of(fb->depth) != image_of(fb->stencil)) {
        t.split_depth_stencil = true;
        return false;
    }
    Attachment& da = fb->depth.kind ? fb->depth : fb->stencil;
    if (!add(da, t.ds, t.ds_view)) return false;
    if (t.ds) {
        t.key.depth = t.ds->format;
        t.has_depth = is_depth_format(t.ds->format) && fb->depth.kind;
        t.has_stencil = has_stencil(t.ds->format) && fb->stencil.kind;
        any = true;
    }
    if (!any) return false;
    t.key.samples = VkSampleCountFlagBits(samples);
    t.width = w;
    t.height = h;
    key += std::to_string(w) + "x" + std::to_string(h);
    if (fb->fb_key != key || !fb->fb) {
        if (fb->fb) {
            if (open_id_ == fb) {
                gpu_->end_pass();
                open_id_ = nullptr;
            }
            VkFramebuffer old = fb->fb;
            gpu_->defer([old](VkDevice d) { vkDestroyFramebuffer(d, old, nullptr); });
        }
        VkImageView views[kMaxColorAttachments + 1];
        uint32_t n = 0;
        for (int i = 0; i < kMaxColorAttachments; ++i)
            if (t.color_view[i]) views[n++] = t.color_view[i];
        if (t.ds_view) views[n++] = t.ds_view;
        VkFramebufferCreateInfo fi{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        fi.renderPass = gpu_->render_pass(t.key);
        fi.attachmentCount = n;
        fi.pAttachments = views;
        fi.width = w;
        fi.height = h;
        fi.layers = 1;
        fb->fb = VK_NULL_HANDLE;
        if (!gpu_->check(vkCreateFramebuffer(gpu_->vk(), &fi, nullptr, &fb->fb), "vkCreateFramebuffer")) return false;
        fb->fb_key = key;
    }
    t.id = fb;
    t.generation = std::hash<std::string>{}(key);
    t.fb = fb->fb;
    return true;
}

bool MagmaBackend::ensure_pass(Target& t) {
    if (gpu_->in_pass() && open_id_ == t.id && open_generation_ == t.generation) return true;
    gpu_->end_pass();
    open_id_ = nullptr;
    bool need_transition = false;
    for (Image* c : t.color)
        if (c && c->layout != VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL) need_transition = true;
    if (t.ds && t.ds->layout != VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL) need_transition = true;
    if (need_transition) {
        VkCommandBuffer cb = gpu_->main_outside();
        for (Image* c : t.color)
            if (c) gpu_->transition(cb, *c, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        if (t.ds) gpu_->transition(cb, *t.ds, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    }
    gpu_->begin_pass(gpu_->render_pass(t.key), t.fb, t.width, t.height, nullptr, 0);
    const uint64_t serial = gpu_->serial(), pass = gpu_->pass_id();
    for (Image* c : t.color)
        if (c) c->used_serial = serial, c->used_pass = pass;
    if (t.ds) t.ds->used_serial = serial, t.ds->used_pass = pass;
    open_id_ = t.id;
    open_generation_ = t.generation;
    return true;
}

// ---- draw and read buffers ------------------------------------------------------------------------
// ES 3.0: fragment output i goes to draw buffer i, which is GL_COLOR_ATTACHMENTi
// or GL_NONE for a framebuffer object (GL_BACK or GL_NONE, one buffer, for the
// surface). A GL_NONE buffer is not written: its attachment's color write mask
// is 0 in the pipeline, and clears skip it.

void MagmaBackend::glDrawBuffers(GLsizei n, wire::In<GLenum> bufs) {
    if (!need_context(gen::Op::glDrawBuffers)) return;
    if (n < 0 || n > max_draw_buffers()) return refuse(gen::Op::glDrawBuffers, GL_INVALID_VALUE, "n < 0 or > GL_MAX_DRAW_BUFFERS");
    if (uint32_t(n) > bufs.count()) return refuse(gen::Op::glDrawBuffers, GL_INVALID_VALUE, "count");
    auto known = [](GLenum b) { return b == GL_NONE || b == GL_BACK || (b >= GL_COLOR_ATTACHMENT0 && b <= GL_COLOR_ATTACHMENT31); };
    Framebuffer* fb = cur_->draw_fb.get();
    // The default framebuffer: a count other than 1 is GL_INVALID_OPERATION
    // before the buffers are looked at (GL_EXT_draw_buffers' error list).
    if (!fb && n != 1) return refuse(gen::Op::glDrawBuffers, GL_INVALID_OPERATION, "the default framebuffer takes one buffer");
    for (GLsizei i = 0; i < n; ++i)
        if (!known(bufs.data[i])) return refuse(gen::Op::glDrawBuffers, GL_INVALID_ENUM, "buffer");
    if (!fb) {
        if (bufs.data[0] != GL_BACK && bufs.data[0] != GL_NONE)
            return refuse(gen::Op::glDrawBuffers, GL_INVALID_OPERATION, "the default framebuffer takes one GL_BACK or GL_NONE");
        cur_->surface_draw_buffer = bufs.data[0];
    } else {
        for (GLsizei i = 0; i < n; ++i)
            if (bufs.data[i] != GL_NONE && bufs.data[i] != GLenum(GL_COLOR_ATTACHMENT0 + i))
                return refuse(gen::Op::glDrawBuffers, GL_INVALID_OPERATION, "buffer i must be GL_COLOR_ATTACHMENTi or GL_NONE");
        for (int i = 0; i < kMaxColorAttachments; ++i) fb->draw_buffers[i] = i < n ? bufs.data[i] : GL_NONE;
    }
}

void MagmaBackend::glReadBuffer(GLenum src) {
    if (!need_context(gen::Op::glReadBuffer)) return;
    // A desktop context may name the default framebuffer's one buffer as
    // front, back or left (backends/gl/context/desktop_context.h).
    if (cur_->desktop() && !cur_->read_fb && src != GL_FRONT_AND_BACK)
        if (const GLenum b = gl::default_color_buffer(src)) src = b;
    const bool attachment = src >= GL_COLOR_ATTACHMENT0 && src <= GL_COLOR_ATTACHMENT31;
    if (src != GL_NONE && src != GL_BACK && !attachment) return refuse(gen::Op::glReadBuffer, GL_INVALID_ENUM, "src");
    if (Framebuffer* fb = cur_->read_fb.get()) {
        if (src == GL_BACK) return refuse(gen::Op::glReadBuffer, GL_INVALID_OPERATION, "GL_BACK for a framebuffer object");
        if (attachment && src >= GLenum(GL_COLOR_ATTACHMENT0 + max_draw_buffers()))
            return refuse(gen::Op::glReadBuffer, GL_INVALID_OPERATION, "attachment >= GL_MAX_COLOR_ATTACHMENTS");
        fb->read_buffer = src;
    } else {
        if (attachment) return refuse(gen::Op::glReadBuffer, GL_INVALID_OPERATION, "an attachment for the default framebuffer");
        cur_->surface_read_buffer = src;
    }
}

}  // namespace mgl::magma
