// glClear and glClearBuffer* (the masked colour clear is clear_masked.cc).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "backend.h"

namespace mgl::magma {

// ---- clear -----------------------------------------------------------------------------------

// The clear value of one colour buffer: the clear colour as the buffer's
// kind of components takes it (EXT_texture_integer's integer clear colour
// included; the GL front end's rule, backends/gl/state).
VkClearValue MagmaBackend::colour_clear_value(const Image* img) const {
    using Kind = gl::DesktopState::ClearKind;
    const Kind kind = !img || !is_integer_format(img->format) ? Kind::floating
                      : is_signed_integer_format(img->format) ? Kind::signed_int
                                                              : Kind::unsigned_int;
    VkClearValue v{};
    cur_->dstate.clear_words(kind, cur_->st.clear_color, v.color.uint32);
    return v;
}

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
    VkClearValue dv{};
    dv.depthStencil = {s.clear_depth, uint32_t(s.clear_stencil) & 0xFF};
    const bool open_here = gpu_->in_pass() && open_id_ == t.id && open_generation_ == t.generation;
    // A full clear opens the pass with loadOp CLEAR (no separate clear work);
    // inside an open pass, or for a region, vkCmdClearAttachments.
    if (full && !open_here) {
        PassKey k = t.key;
        VkClearValue values[kMaxColorAttachments + 1]{};
        uint32_t n = 0;
        for (int i = 0; i < kMaxColorAttachments; ++i) {
            if (k.color[i] == VK_FORMAT_UNDEFINED) continue;
            if (color && (t.draw_mask >> i & 1)) k.clear_color |= uint8_t(1u << i);
            values[n++] = colour_clear_value(t.color[i]);
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
    VkClearAttachment atts[kMaxColorAttachments + 1]{};
    uint32_t n = 0;
    for (int i = 0; i < kMaxColorAttachments && color; ++i) {
        if (!t.color[i] || !(t.draw_mask >> i & 1)) continue;
        atts[n].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
        atts[n].colorAttachment = uint32_t(i);
        atts[n].clearValue = colour_clear_value(t.color[i]);
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
    if (drawbuffer < 0 || (is_color ? drawbuffer >= max_draw_buffers() : drawbuffer != 0)) return refuse(verb, GL_INVALID_VALUE, "drawbuffer");
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

}  // namespace mgl::magma
