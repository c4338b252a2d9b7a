// What a framebuffer's attachments are made of, as GL asks: GL_*_BITS of the
// draw framebuffer, glGetFramebufferAttachmentParameteriv and
// glGetRenderbufferParameteriv (from each image's Vulkan format).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include "backend.h"
#include "context/sized_format_bits.h"

namespace mgl::magma {

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
        case VK_FORMAT_X8_D24_UNORM_PACK32: bits[4] = 24; break;
        case VK_FORMAT_D32_SFLOAT_S8_UINT: bits[4] = 32, bits[5] = 8; break;
        default: break;
    }
}
// The sizes GL reports for an image of GL sized format `sized` (the front
// end's table: an RGB8 image held as RGBA has no alpha bits), else from its
// Vulkan format; `type`: GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE.
void gl_bits(uint32_t sized, VkFormat vk, int bits[6], GLint* type) {
    gl::FormatBits b;
    if (sized && gl::sized_format_bits(sized, &b)) {
        const int v[6] = {b.red, b.green, b.blue, b.alpha, b.depth, b.stencil};
        for (int i = 0; i < 6; ++i) bits[i] = v[i];
        *type = GLint(b.type ? b.type : b.depth_type ? b.depth_type : GL_UNSIGNED_NORMALIZED);
        return;
    }
    format_bits(vk, bits);
    *type = vk == VK_FORMAT_R16G16B16A16_SFLOAT || vk == VK_FORMAT_R32G32B32A32_SFLOAT || vk == VK_FORMAT_D32_SFLOAT
                ? GL_FLOAT
                : GL_UNSIGNED_NORMALIZED;
}
}  // namespace

// GL_RED_BITS .. GL_STENCIL_BITS: the draw framebuffer's, from its first
// colour buffer and its depth/stencil image (0 where it has none).
int MagmaBackend::framebuffer_bits(GLenum pname) {
    Target t;
    if (!resolve_target(t, true)) return 0;
    int bits[6] = {}, ds[6] = {};
    for (const Image* c : t.color)
        if (c) {
            format_bits(c->format, bits);
            break;
        }
    if (t.ds) format_bits(t.ds->format, ds);
    switch (pname) {
        case GL_RED_BITS: return bits[0];
        case GL_GREEN_BITS: return bits[1];
        case GL_BLUE_BITS: return bits[2];
        case GL_ALPHA_BITS: return bits[3];
        case GL_DEPTH_BITS: return t.has_depth ? ds[4] : 0;
        default: return t.has_stencil ? ds[5] : 0;  // GL_STENCIL_BITS
    }
}

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
    GLint type = 0;
    const uint32_t sized = a && a->kind == GL_TEXTURE && a->tex ? a->tex->fmt.sized
                         : a && a->kind == GL_RENDERBUFFER && a->rb ? a->rb->fmt.sized : 0;
    gl_bits(sized, img->format, bits, &type);
    switch (pname) {
        case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE: params.data[0] = bits[0]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE: params.data[0] = bits[1]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE: params.data[0] = bits[2]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE: params.data[0] = bits[3]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE: params.data[0] = bits[4]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE: params.data[0] = bits[5]; break;
        case GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE: params.data[0] = type; break;
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
    GLint type = 0;
    gl_bits(rb.img.image ? rb.fmt.sized : 0, rb.img.format, bits, &type);
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

}  // namespace mgl::magma
