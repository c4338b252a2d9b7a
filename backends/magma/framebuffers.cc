// Renderbuffers, framebuffer objects, render targets and the open render
// pass (kept open across draws to the same attachments), glClear and
// glReadPixels.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "backend.h"
#include "context/desktop_context.h"

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
    TexFormat f;
    if (!tex_format(internalformat, 0, 0, gpu_->dev().depth_stencil_format, f))
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
    auto samples = [](const Attachment& a) { return a.kind == GL_RENDERBUFFER && a.rb ? int(a.rb->img.samples) : 1; };
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
            if (a >= GL_COLOR_ATTACHMENT0 + 4) return refuse(verb, GL_INVALID_OPERATION, "attachment >= GL_MAX_COLOR_ATTACHMENTS");
        } else if (a != GL_DEPTH_ATTACHMENT && a != GL_STENCIL_ATTACHMENT && (ext || a != GL_DEPTH_STENCIL_ATTACHMENT)) {
            return refuse(verb, GL_INVALID_ENUM, "attachment");
        }
    }
}

Attachment* MagmaBackend::attachment_slot(Framebuffer& fb, GLenum attachment, Attachment** second) {
    *second = nullptr;
    if (attachment >= GL_COLOR_ATTACHMENT0 && attachment < GL_COLOR_ATTACHMENT0 + 4)
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
    if (!need_context(gen::Op::glFramebufferTexture2D)) return;
    Framebuffer* fb = fb_for(target);
    if (!fb) return refuse(gen::Op::glFramebufferTexture2D, GL_INVALID_OPERATION, "framebuffer 0 is bound");
    Attachment* second;
    Attachment* a = attachment_slot(*fb, attachment, &second);
    if (!a) return refuse(gen::Op::glFramebufferTexture2D, GL_INVALID_ENUM, "attachment");
    Attachment value;
    if (texture) {
        auto it = cur_->share->textures.find(texture);
        if (it == cur_->share->textures.end() || !it->second)
            return refuse(gen::Op::glFramebufferTexture2D, GL_INVALID_OPERATION, "unknown texture");
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
    if (!need_context(gen::Op::glFramebufferTextureLayer)) return;
    Framebuffer* fb = fb_for(target);
    if (!fb) return refuse(gen::Op::glFramebufferTextureLayer, GL_INVALID_OPERATION, "framebuffer 0 is bound");
    Attachment* second;
    Attachment* a = attachment_slot(*fb, attachment, &second);
    if (!a) return refuse(gen::Op::glFramebufferTextureLayer, GL_INVALID_ENUM, "attachment");
    Attachment value;
    if (texture) {
        auto it = cur_->share->textures.find(texture);
        if (it == cur_->share->textures.end() || !it->second)
            return refuse(gen::Op::glFramebufferTextureLayer, GL_INVALID_OPERATION, "unknown texture");
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
        Framebuffer& fb = *fb_for(target);
        bool any = fb.depth.kind || fb.stencil.kind;
        for (auto& c : fb.color) any = any || c.kind;
        return any ? GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT : GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
    }
    return GL_FRAMEBUFFER_COMPLETE;
}

namespace {
// Channel bits of a Vulkan format, as GL reports them: r, g, b, a, depth, stencil.
void format_bits(VkFormat f, int bits[6]) {
    for (int i = 0; i < 6; ++i) bits[i] = 0;
    switch (f) {
        case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_SRGB: case VK_FORMAT_B8G8R8A8_UNORM:
            bits[0] = bits[1] = bits[2] = bits[3] = 8; break;
        case VK_FORMAT_R8_UNORM: bits[0] = 8; break;
        case VK_FORMAT_R8G8_UNORM: bits[0] = bits[1] = 8; break;
        case VK_FORMAT_R16G16B16A16_SFLOAT: bits[0] = bits[1] = bits[2] = bits[3] = 16; break;
        case VK_FORMAT_R32G32B32A32_SFLOAT: bits[0] = bits[1] = bits[2] = bits[3] = 32; break;
        case VK_FORMAT_D16_UNORM: bits[4] = 16; break;
        case VK_FORMAT_D32_SFLOAT: bits[4] = 32; break;
        case VK_FORMAT_D24_UNORM_S8_UINT: bits[4] = 24, bits[5] = 8; break;
        case VK_FORMAT_D32_SFLOAT_S8_UINT: bits[4] = 32, bits[5] = 8; break;
        default: break;
    }
}
}  // namespace

void MagmaBackend::glGetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment, GLenum pname,
                                                         wire::Out<GLint> params) {
    if (!need_context(gen::Op::glGetFramebufferAttachmentParameteriv) || !params.count()) return;
    Framebuffer* fb = fb_for(target);
    const Image* img = nullptr;
    const Attachment* a = nullptr;
    if (!fb) {
        // The default framebuffer: the surface (GL_BACK, GL_DEPTH, GL_STENCIL).
        Surface* s = target == GL_READ_FRAMEBUFFER ? read_ : draw_;
        if (!s) return refuse(gen::Op::glGetFramebufferAttachmentParameteriv, GL_INVALID_OPERATION, "no surface");
        const bool color = attachment == GL_BACK || attachment == GL_FRONT;
        img = color ? &s->color : s->has_depth ? &s->ds : nullptr;
        if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) {
            params.data[0] = img ? GL_FRAMEBUFFER_DEFAULT : GL_NONE;
            return;
        }
    } else {
        Attachment* second;
        a = attachment_slot(*fb, attachment, &second);
        if (!a) return refuse(gen::Op::glGetFramebufferAttachmentParameteriv, GL_INVALID_ENUM, "attachment");
        if (a->kind == GL_TEXTURE && a->tex) img = &a->tex->img;
        if (a->kind == GL_RENDERBUFFER && a->rb) img = &a->rb->img;
        if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) {
            params.data[0] = a->kind ? GLint(a->kind) : GL_NONE;
            return;
        }
        if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) {
            params.data[0] = GLint(a->name);
            return;
        }
        if (pname == GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL) {
            params.data[0] = a->level;
            return;
        }
        if (pname == GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE) {
            params.data[0] = a->tex && a->tex->target == GL_TEXTURE_CUBE_MAP ? GLint(GL_TEXTURE_CUBE_MAP_POSITIVE_X + a->layer) : 0;
            return;
        }
        if (pname == GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER) {
            params.data[0] = a->layer;
            return;
        }
    }
    if (!img) return refuse(gen::Op::glGetFramebufferAttachmentParameteriv, GL_INVALID_OPERATION, "no attachment");
    int bits[6];
    format_bits(img->format, bits);
    switch (pname) {
        case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE: params.data[0] = bits[0]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE: params.data[0] = bits[1]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE: params.data[0] = bits[2]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE: params.data[0] = bits[3]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE: params.data[0] = bits[4]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE: params.data[0] = bits[5]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE:
            params.data[0] = img->format == VK_FORMAT_R16G16B16A16_SFLOAT || img->format == VK_FORMAT_R32G32B32A32_SFLOAT ||
                                     img->format == VK_FORMAT_D32_SFLOAT
                                 ? GL_FLOAT
                                 : GL_UNSIGNED_NORMALIZED;
            break;
        case GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING:
            params.data[0] = img->format == VK_FORMAT_R8G8B8A8_SRGB ? GL_SRGB : GL_LINEAR;
            break;
        default: refuse(gen::Op::glGetFramebufferAttachmentParameteriv, GL_INVALID_ENUM, "pname");
    }
}

void MagmaBackend::glGetRenderbufferParameteriv(GLenum target, GLenum pname, wire::Out<GLint> params) {
    if (!need_context(gen::Op::glGetRenderbufferParameteriv) || !params.count()) return;
    if (!cur_->renderbuffer) return refuse(gen::Op::glGetRenderbufferParameteriv, GL_INVALID_OPERATION, "no renderbuffer bound");
    const Renderbuffer& rb = *cur_->renderbuffer;
    int bits[6];
    format_bits(rb.img.format, bits);
    switch (pname) {
        case GL_RENDERBUFFER_WIDTH: params.data[0] = GLint(rb.img.width); break;
        case GL_RENDERBUFFER_HEIGHT: params.data[0] = GLint(rb.img.height); break;
        case GL_RENDERBUFFER_INTERNAL_FORMAT: params.data[0] = rb.img.image ? GLint(rb.fmt.sized) : GL_RGBA4; break;
        case GL_RENDERBUFFER_SAMPLES: params.data[0] = rb.img.samples > 1 ? GLint(rb.img.samples) : 0; break;
        case GL_RENDERBUFFER_RED_SIZE: params.data[0] = bits[0]; break;
        case GL_RENDERBUFFER_GREEN_SIZE: params.data[0] = bits[1]; break;
        case GL_RENDERBUFFER_BLUE_SIZE: params.data[0] = bits[2]; break;
        case GL_RENDERBUFFER_ALPHA_SIZE: params.data[0] = bits[3]; break;
        case GL_RENDERBUFFER_DEPTH_SIZE: params.data[0] = bits[4]; break;
        case GL_RENDERBUFFER_STENCIL_SIZE: params.data[0] = bits[5]; break;
        default: refuse(gen::Op::glGetRenderbufferParameteriv, GL_INVALID_ENUM, "pname");
    }
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
    auto add = [&](Attachment& a, Image*& img, VkImageView& view) -> bool {
        if (a.kind == GL_TEXTURE && a.tex && a.tex->img.image) {
            Texture& tex = *a.tex;
            if (uint32_t(a.level) >= tex.img.levels) return false;
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
    for (int i = 0; i < 4; ++i) {
        if (!add(fb->color[i], t.color[i], t.color_view[i])) return false;
        if (t.color[i]) {
            t.key.color[i] = t.color[i]->format;
            any = true;
        }
    }
    if (draw_fb) {
        t.draw_mask = 0;
        for (int i = 0; i < 4; ++i) t.draw_mask |= uint8_t(fb->draw_buffers[i] != GL_NONE) << i;
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
        VkImageView views[5];
        uint32_t n = 0;
        for (int i = 0; i < 4; ++i)
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

// ---- clear -----------------------------------------------------------------------------------

void MagmaBackend::glClear(GLbitfield mask) {
    if (!need_context(gen::Op::glClear)) return;
    if (mask & ~GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
        return refuse(gen::Op::glClear, GL_INVALID_VALUE, "mask");
    // GL_RASTERIZER_DISCARD discards clears as well as primitives.
    if (cur_->st.rasterizer_discard) return;
    Target t;
    if (!resolve_target(t, true)) return;
    const State& s = cur_->st;
    const bool any_color_mask = s.color_mask[0] || s.color_mask[1] || s.color_mask[2] || s.color_mask[3];
    const bool full_color_mask = s.color_mask[0] && s.color_mask[1] && s.color_mask[2] && s.color_mask[3];
    bool color = (mask & GL_COLOR_BUFFER_BIT) && any_color_mask;
    const bool depth = (mask & GL_DEPTH_BUFFER_BIT) && s.depth_mask && t.has_depth;
    const bool stencil = (mask & GL_STENCIL_BUFFER_BIT) && (s.stencil[0].writemask & 0xFF) && t.has_stencil;
    if (!color && !depth && !stencil) return;
    int x0 = 0, y0 = 0, x1 = int(t.width), y1 = int(t.height);
    if (s.scissor_test) {
        x0 = std::clamp(s.scissor[0], 0, int(t.width));
        y0 = std::clamp(s.scissor[1], 0, int(t.height));
        x1 = std::clamp(s.scissor[0] + s.scissor[2], 0, int(t.width));
        y1 = std::clamp(s.scissor[1] + s.scissor[3], 0, int(t.height));
        if (x0 >= x1 || y0 >= y1) return;
    }
    if (color && !full_color_mask) {
        // Vulkan's clears write every channel: the color is drawn with the mask.
        if (clear_color_masked(t, x0, y0, x1, y1)) color = false;
        else refuse(gen::Op::glClear, GL_NO_ERROR, "partial color masks are not applied to clears of integer buffers");
        if (!color && !depth && !stencil) return;
    }
    const bool full = x0 == 0 && y0 == 0 && x1 == int(t.width) && y1 == int(t.height);
    VkClearValue cv{};
    std::memcpy(cv.color.float32, s.clear_color, sizeof cv.color.float32);
    VkClearValue dv{};
    dv.depthStencil = {s.clear_depth, uint32_t(s.clear_stencil) & 0xFF};
    const bool open_here = gpu_->in_pass() && open_id_ == t.id && open_generation_ == t.generation;
    // A full clear opens the pass with loadOp CLEAR (no separate clear work);
    // inside an open pass, or for a region, vkCmdClearAttachments.
    if (full && !open_here) {
        PassKey k = t.key;
        VkClearValue values[5]{};
        uint32_t n = 0;
        for (int i = 0; i < 4; ++i) {
            if (k.color[i] == VK_FORMAT_UNDEFINED) continue;
            if (color && (t.draw_mask >> i & 1)) k.clear_color |= uint8_t(1u << i);
            values[n++] = cv;
        }
        if (k.depth != VK_FORMAT_UNDEFINED) {
            // Keep what is not cleared: a stencil-less format has nothing to keep.
            k.clear_depth = depth || !is_depth_format(k.depth);
            k.clear_stencil = stencil || !has_stencil(k.depth);
            values[n++] = dv;
        }
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
        gpu_->begin_pass(gpu_->render_pass(k), t.fb, t.width, t.height, values, n);
        const uint64_t serial = gpu_->serial(), pass = gpu_->pass_id();
        for (Image* c : t.color)
            if (c) c->used_serial = serial, c->used_pass = pass;
        if (t.ds) t.ds->used_serial = serial, t.ds->used_pass = pass;
        open_id_ = t.id;
        open_generation_ = t.generation;
        return;
    }
    if (!ensure_pass(t)) return;
    VkClearAttachment atts[5]{};
    uint32_t n = 0;
    for (int i = 0; i < 4 && color; ++i) {
        if (!t.color[i] || !(t.draw_mask >> i & 1)) continue;
        atts[n].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
        atts[n].colorAttachment = uint32_t(i);
        atts[n].clearValue = cv;
        ++n;
    }
    if (depth || stencil) {
        atts[n].aspectMask = (depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
        atts[n].clearValue = dv;
        ++n;
    }
    VkClearRect rect{{{x0, y0}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}}, 0, 1};
    vkCmdClearAttachments(gpu_->main(), n, atts, 1, &rect);
}

// ---- glClearBuffer -------------------------------------------------------------------------------
// Inside the pass with vkCmdClearAttachments; the scissor and write masks
// apply as for glClear. The value's type (float, int, uint) is the buffer's.

void MagmaBackend::clear_buffer(gen::Op verb, GLenum buffer, GLint drawbuffer, const uint32_t color[4], bool depth,
                                float d, bool stencil, GLint s) {
    if (!need_context(verb)) return;
    const bool is_color = buffer == GL_COLOR;
    if (!is_color && buffer != GL_DEPTH && buffer != GL_STENCIL && buffer != GL_DEPTH_STENCIL)
        return refuse(verb, GL_INVALID_ENUM, "buffer");
    if (drawbuffer < 0 || (is_color ? drawbuffer >= 4 : drawbuffer != 0)) return refuse(verb, GL_INVALID_VALUE, "drawbuffer");
    if (cur_->st.rasterizer_discard) return;  // discarded, as glClear
    Target t;
    if (!resolve_target(t, true)) return refuse(verb, GL_INVALID_FRAMEBUFFER_OPERATION, "incomplete framebuffer");
    const State& st = cur_->st;
    VkClearAttachment att{};
    if (is_color) {
        if (!t.color[drawbuffer] || !(t.draw_mask >> drawbuffer & 1)) return;  // GL_NONE or no attachment: nothing
        if (!(st.color_mask[0] || st.color_mask[1] || st.color_mask[2] || st.color_mask[3])) return;
        if (!(st.color_mask[0] && st.color_mask[1] && st.color_mask[2] && st.color_mask[3]))
            refuse(verb, GL_NO_ERROR, "partial color masks are not applied to clears yet");
        att.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
        att.colorAttachment = uint32_t(drawbuffer);
        std::memcpy(att.clearValue.color.uint32, color, 16);
    } else {
        depth = depth && st.depth_mask && t.has_depth;
        stencil = stencil && (st.stencil[0].writemask & 0xFF) && t.has_stencil;
        if (!depth && !stencil) return;
        att.aspectMask = (depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
        att.clearValue.depthStencil = {std::clamp(d, 0.0f, 1.0f), uint32_t(s) & 0xFF};
    }
    int x0 = 0, y0 = 0, x1 = int(t.width), y1 = int(t.height);
    if (st.scissor_test) {
        x0 = std::clamp(st.scissor[0], 0, int(t.width));
        y0 = std::clamp(st.scissor[1], 0, int(t.height));
        x1 = std::clamp(st.scissor[0] + st.scissor[2], 0, int(t.width));
        y1 = std::clamp(st.scissor[1] + st.scissor[3], 0, int(t.height));
        if (x0 >= x1 || y0 >= y1) return;
    }
    if (!ensure_pass(t)) return;
    VkClearRect rect{{{x0, y0}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}}, 0, 1};
    vkCmdClearAttachments(gpu_->main(), 1, &att, 1, &rect);
}

void MagmaBackend::glClearBufferfv(GLenum buffer, GLint drawbuffer, wire::In<GLfloat> value) {
    const uint32_t n = buffer == GL_COLOR ? 4 : 1;
    if (value.count() < n) return refuse(gen::Op::glClearBufferfv, GL_INVALID_VALUE, "value");
    if (buffer == GL_STENCIL || buffer == GL_DEPTH_STENCIL) return refuse(gen::Op::glClearBufferfv, GL_INVALID_ENUM, "buffer");
    uint32_t c[4] = {};
    std::memcpy(c, value.data, 4 * n);
    clear_buffer(gen::Op::glClearBufferfv, buffer, drawbuffer, c, true, value.data[0], false, 0);
}

void MagmaBackend::glClearBufferiv(GLenum buffer, GLint drawbuffer, wire::In<GLint> value) {
    const uint32_t n = buffer == GL_COLOR ? 4 : 1;
    if (value.count() < n) return refuse(gen::Op::glClearBufferiv, GL_INVALID_VALUE, "value");
    if (buffer == GL_DEPTH || buffer == GL_DEPTH_STENCIL) return refuse(gen::Op::glClearBufferiv, GL_INVALID_ENUM, "buffer");
    uint32_t c[4] = {};
    std::memcpy(c, value.data, 4 * n);
    clear_buffer(gen::Op::glClearBufferiv, buffer, drawbuffer, c, false, 0, true, value.data[0]);
}

void MagmaBackend::glClearBufferuiv(GLenum buffer, GLint drawbuffer, wire::In<GLuint> value) {
    if (buffer != GL_COLOR) return refuse(gen::Op::glClearBufferuiv, GL_INVALID_ENUM, "buffer");
    if (value.count() < 4) return refuse(gen::Op::glClearBufferuiv, GL_INVALID_VALUE, "value");
    clear_buffer(gen::Op::glClearBufferuiv, buffer, drawbuffer, value.data, false, 0, false, 0);
}

void MagmaBackend::glClearBufferfi(GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil) {
    if (buffer != GL_DEPTH_STENCIL) return refuse(gen::Op::glClearBufferfi, GL_INVALID_ENUM, "buffer");
    const uint32_t none[4] = {};
    clear_buffer(gen::Op::glClearBufferfi, buffer, drawbuffer, none, true, depth, true, stencil);
}

// ---- draw and read buffers ------------------------------------------------------------------------
// ES 3.0: fragment output i goes to draw buffer i, which is GL_COLOR_ATTACHMENTi
// or GL_NONE for a framebuffer object (GL_BACK or GL_NONE, one buffer, for the
// surface). A GL_NONE buffer is not written: its attachment's color write mask
// is 0 in the pipeline, and clears skip it.

void MagmaBackend::glDrawBuffers(GLsizei n, wire::In<GLenum> bufs) {
    if (!need_context(gen::Op::glDrawBuffers)) return;
    if (n < 0 || n > 4) return refuse(gen::Op::glDrawBuffers, GL_INVALID_VALUE, "n < 0 or > GL_MAX_DRAW_BUFFERS");
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
        for (int i = 0; i < 4; ++i) fb->draw_buffers[i] = i < n ? bufs.data[i] : GL_NONE;
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
        if (attachment && src >= GL_COLOR_ATTACHMENT0 + 4)
            return refuse(gen::Op::glReadBuffer, GL_INVALID_OPERATION, "attachment >= GL_MAX_COLOR_ATTACHMENTS");
        fb->read_buffer = src;
    } else {
        if (attachment) return refuse(gen::Op::glReadBuffer, GL_INVALID_OPERATION, "an attachment for the default framebuffer");
        cur_->surface_read_buffer = src;
    }
}

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
        for (int di = 0; si >= 0 && src.color[si] && di < 4; ++di) {
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
    if (pixels.is_offset()) {
        if (!cur_->pixel_pack || pixels.offset > cur_->pixel_pack->size || need > cur_->pixel_pack->size - pixels.offset)
            return refuse(gen::Op::glReadPixels, GL_INVALID_OPERATION, "outside the pixel pack buffer");
        out = nullptr;  // into the pack buffer once read_image waited for the GPU (nothing can read it then)
    } else {
        if (need > pixels.size) return refuse(gen::Op::glReadPixels, GL_INVALID_OPERATION, "reply too small");
        out = pixels.data;
    }
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = std::min<int>(x + width, int(sw)), y1 = std::min<int>(y + height, int(sh));
    if (x0 >= x1 || y0 >= y1) return;
    VkFormat f;
    std::vector<uint8_t> px;
    if (!read_image(*img, level, layer, x0, y0, x1 - x0, y1 - y0, f, px)) return;
    if (!out) out = host_bytes(*cur_->pixel_pack) + pixels.offset;
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

}  // namespace mgl::magma
