// Transform feedback (ES 3.0) on VK_EXT_transform_feedback: objects, buffer
// bindings, Begin/End/Pause/Resume, glTransformFeedbackVaryings, and what a
// draw does while capturing (draw.cc calls xfb_draw_check/xfb_begin/xfb_end).
//
// ES 3.0 captures glDrawArrays(Instanced) only, in the primitive mode given to
// Begin, and a draw that would overflow a buffer is an error: the CPU knows
// how many vertices each draw writes, so every captured draw binds the
// buffers at the bytes written so far and begins/ends Vulkan's transform
// feedback around itself (no counter buffers), and
// GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN is that CPU count. The render pass
// ends after a captured draw: a later draw may read the buffer as vertices.
// Without the extension, glTransformFeedbackVaryings, Begin and the link of a
// program with varyings fail loudly (GL error and one log line).
#include <GLES3/gl3.h>

#include <cstring>

#include "backend.h"

namespace mgl::magma {

namespace {

// Vertices per captured primitive of Begin's primitive mode.
uint32_t vertices_per_primitive(GLenum begin_mode) {
    return begin_mode == GL_TRIANGLES ? 3 : begin_mode == GL_LINES ? 2 : 1;
}

// Whether a draw mode belongs to Begin's primitive mode (ES 3.0 table 2.9).
bool mode_matches(GLenum begin_mode, GLenum mode) {
    switch (begin_mode) {
        case GL_POINTS: return mode == GL_POINTS;
        case GL_LINES: return mode == GL_LINES || mode == GL_LINE_STRIP || mode == GL_LINE_LOOP;
        case GL_TRIANGLES: return mode == GL_TRIANGLES || mode == GL_TRIANGLE_STRIP || mode == GL_TRIANGLE_FAN;
        default: return false;
    }
}

// Primitives a non-instanced draw of `count` vertices makes in `mode`.
uint64_t primitives(GLenum mode, uint64_t count) {
    switch (mode) {
        case GL_POINTS: return count;
        case GL_LINES: return count / 2;
        case GL_LINE_STRIP: return count >= 2 ? count - 1 : 0;
        case GL_LINE_LOOP: return count >= 2 ? count : 0;
        case GL_TRIANGLES: return count / 3;
        case GL_TRIANGLE_STRIP:
        case GL_TRIANGLE_FAN: return count >= 3 ? count - 2 : 0;
        default: return 0;
    }
}

}  // namespace

void MagmaBackend::xfb_unavailable(gen::Op verb) {
    set_error(GL_INVALID_OPERATION);
    if (first_time(logged_unsupported_, verb))
        log().error("magma: {}: transform feedback needs VK_EXT_transform_feedback, which {} lacks (GL error 0x0502)",
                    gen::verb_name(uint16_t(verb)), gpu_->dev().name);
}

// ---- objects and bindings ---------------------------------------------------------------

void MagmaBackend::glGenTransformFeedbacks(GLsizei n, wire::In<GLuint> ids) {
    if (!need_context(gen::Op::glGenTransformFeedbacks)) return;
    if (n < 0) return refuse(gen::Op::glGenTransformFeedbacks, GL_INVALID_VALUE, "n < 0");
    for (uint32_t i = 0; i < ids.count() && i < uint32_t(n); ++i)
        if (ids.data[i]) cur_->xfbs[ids.data[i]] = std::make_shared<TransformFeedback>();
}

void MagmaBackend::glDeleteTransformFeedbacks(GLsizei n, wire::In<GLuint> ids) {
    if (!need_context(gen::Op::glDeleteTransformFeedbacks)) return;
    if (n < 0) return refuse(gen::Op::glDeleteTransformFeedbacks, GL_INVALID_VALUE, "n < 0");
    Context& c = *cur_;
    for (uint32_t i = 0; i < ids.count() && i < uint32_t(n); ++i) {
        auto it = c.xfbs.find(ids.data[i]);
        if (it == c.xfbs.end()) continue;
        if (it->second->active)
            return refuse(gen::Op::glDeleteTransformFeedbacks, GL_INVALID_OPERATION, "the object is active");
        if (c.xfb == it->second) c.xfb = c.default_xfb;
        c.xfbs.erase(it);
    }
}

GLboolean MagmaBackend::glIsTransformFeedback(GLuint id) {
    if (!need_context(gen::Op::glIsTransformFeedback)) return GL_FALSE;
    auto it = cur_->xfbs.find(id);
    return it != cur_->xfbs.end() && it->second->ever_bound;
}

void MagmaBackend::glBindTransformFeedback(GLenum target, GLuint id) {
    if (!need_context(gen::Op::glBindTransformFeedback)) return;
    Context& c = *cur_;
    if (target != GL_TRANSFORM_FEEDBACK) return refuse(gen::Op::glBindTransformFeedback, GL_INVALID_ENUM, "target");
    if (c.xfb->active && !c.xfb->paused)
        return refuse(gen::Op::glBindTransformFeedback, GL_INVALID_OPERATION, "transform feedback is active");
    if (id == 0) {
        c.xfb = c.default_xfb;
        return;
    }
    auto it = c.xfbs.find(id);
    if (it == c.xfbs.end())
        return refuse(gen::Op::glBindTransformFeedback, GL_INVALID_OPERATION, "not a name from glGenTransformFeedbacks");
    it->second->ever_bound = true;
    c.xfb = it->second;
}

void MagmaBackend::bind_xfb_buffer(GLuint index, GLuint name, GLintptr offset, GLsizeiptr size, bool range) {
    constexpr gen::Op op = gen::Op::glBindBufferRange;
    Context& c = *cur_;
    if (index >= c.xfb->bindings.size()) return refuse(op, GL_INVALID_VALUE, "index >= GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS");
    if (range && name && (size <= 0 || offset < 0 || offset % 4 || size % 4))
        return refuse(op, GL_INVALID_VALUE, "offset and size must be positive multiples of 4");
    if (c.xfb->active) return refuse(op, GL_INVALID_OPERATION, "transform feedback is active");
    auto b = buffer_for_bind(name);
    c.xfb_buffer = b;  // the generic binding too, as GL says
    c.xfb->bindings[index] = {b, range ? uint64_t(offset) : 0, range ? uint64_t(size) : 0};
}

// ---- program varyings -------------------------------------------------------------------

void MagmaBackend::glTransformFeedbackVaryings(GLuint program, GLsizei count, wire::Strings varyings, GLenum bufferMode) {
    constexpr gen::Op op = gen::Op::glTransformFeedbackVaryings;
    if (!need_context(op)) return;
    auto p = program_for(op, program);
    if (!p) return;
    if (bufferMode != GL_INTERLEAVED_ATTRIBS && bufferMode != GL_SEPARATE_ATTRIBS)
        return refuse(op, GL_INVALID_ENUM, "bufferMode");
    if (count < 0) return refuse(op, GL_INVALID_VALUE, "count < 0");
    if (bufferMode == GL_SEPARATE_ATTRIBS && count > 4)
        return refuse(op, GL_INVALID_VALUE, "count > GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS");
    if (count > 0 && !gpu_->dev().xfb) return xfb_unavailable(op);
    XfbRequest r;
    r.interleaved = bufferMode == GL_INTERLEAVED_ATTRIBS;
    for (uint32_t i = 0; i < uint32_t(count) && i < varyings.count; ++i) r.names.emplace_back(varyings.data[i]);
    p->xfb = std::move(r);
}

void MagmaBackend::glGetTransformFeedbackVarying(GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                                                 wire::Out<GLsizei> size, wire::Out<GLenum> type, wire::Out<GLchar> name) {
    constexpr gen::Op op = gen::Op::glGetTransformFeedbackVarying;
    if (!need_context(op)) return;
    auto p = program_for(op, program);
    if (!p) return;
    if (!p->linked || !p->exe || index >= p->exe->linked.xfb.varyings.size())
        return refuse(op, GL_INVALID_VALUE, "index");
    const XfbVarying& v = p->exe->linked.xfb.varyings[index];
    if (size.count()) size.data[0] = v.size;
    if (type.count()) type.data[0] = v.type;
    GLsizei n = 0;
    if (bufSize > 0 && name.size > 0) {
        n = GLsizei(std::min({v.name.size(), size_t(bufSize) - 1, size_t(name.size) - 1}));
        std::memcpy(name.data, v.name.data(), size_t(n));
        name.data[n] = 0;
    }
    if (length.count()) length.data[0] = n;
}

// ---- begin, end, pause, resume ------------------------------------------------------------

void MagmaBackend::glBeginTransformFeedback(GLenum primitiveMode) {
    constexpr gen::Op op = gen::Op::glBeginTransformFeedback;
    if (!need_context(op)) return;
    Context& c = *cur_;
    if (primitiveMode != GL_POINTS && primitiveMode != GL_LINES && primitiveMode != GL_TRIANGLES)
        return refuse(op, GL_INVALID_ENUM, "primitiveMode");
    if (!gpu_->dev().xfb) return xfb_unavailable(op);
    TransformFeedback& x = *c.xfb;
    if (x.active) return refuse(op, GL_INVALID_OPERATION, "transform feedback is already active");
    Program* p = c.program.get();
    if (!p || !p->linked || !p->exe || p->exe->linked.xfb.varyings.empty())
        return refuse(op, GL_INVALID_OPERATION, "the program in use captures no varyings");
    const XfbLayout& l = p->exe->linked.xfb;
    for (int i = 0; i < l.buffers; ++i)
        if (!x.bindings[size_t(i)].buffer || !x.bindings[size_t(i)].buffer->vk.buf)
            return refuse(op, GL_INVALID_OPERATION, "a transform feedback buffer the program writes is not bound");
    x.active = true;
    x.paused = false;
    x.mode = primitiveMode;
    x.exe = p->exe;
    x.written.fill(0);
}

void MagmaBackend::glEndTransformFeedback() {
    constexpr gen::Op op = gen::Op::glEndTransformFeedback;
    if (!need_context(op)) return;
    TransformFeedback& x = *cur_->xfb;
    if (!x.active) return refuse(op, GL_INVALID_OPERATION, "transform feedback is not active");
    x.active = x.paused = false;
    x.exe.reset();
}

void MagmaBackend::glPauseTransformFeedback() {
    constexpr gen::Op op = gen::Op::glPauseTransformFeedback;
    if (!need_context(op)) return;
    TransformFeedback& x = *cur_->xfb;
    if (!x.active || x.paused) return refuse(op, GL_INVALID_OPERATION, "transform feedback is not active or paused");
    x.paused = true;
}

void MagmaBackend::glResumeTransformFeedback() {
    constexpr gen::Op op = gen::Op::glResumeTransformFeedback;
    if (!need_context(op)) return;
    TransformFeedback& x = *cur_->xfb;
    if (!x.active || !x.paused) return refuse(op, GL_INVALID_OPERATION, "transform feedback is not paused");
    if (!cur_->program || cur_->program->exe != x.exe)
        return refuse(op, GL_INVALID_OPERATION, "the program in use is not the one transform feedback began with");
    x.paused = false;
}

bool MagmaBackend::xfb_blocks_program_change() const {
    return cur_ && cur_->xfb->active && !cur_->xfb->paused;
}

// ---- draws -----------------------------------------------------------------------------

bool MagmaBackend::xfb_draw_check(gen::Op verb, GLenum mode, GLsizei count, GLsizei instances, GLenum index_type,
                                  const wire::InOrOffset<uint8_t>& indices, XfbDraw& d) {
    d = {};
    Context& c = *cur_;
    TransformFeedback& x = *c.xfb;
    if (!x.active || x.paused) return true;
    if (index_type && !gl::xfb_captures_indexed_draws(c.desktop())) {
        refuse(verb, GL_INVALID_OPERATION, "ES 3.0 captures glDrawArrays only while transform feedback is active");
        return false;
    }
    if (!mode_matches(x.mode, mode)) {
        refuse(verb, GL_INVALID_OPERATION, "mode differs from glBeginTransformFeedback's primitive mode");
        return false;
    }
    const XfbLayout& l = x.exe->linked.xfb;
    uint64_t prims = primitives(mode, uint64_t(count));
    // An indexed draw with primitive restart: the primitives of each run
    // between restarts (what the device writes, and the offset of the next
    // draw's capture). Indices that cannot be read here are refused by
    // draw_indices after this.
    const uint32_t isz = index_type == GL_UNSIGNED_BYTE ? 1 : index_type == GL_UNSIGNED_SHORT ? 2 : 4;
    const bool fixed = c.st.primitive_restart, desktop_restart = c.desktop() && c.dstate.primitive_restart;
    if (index_type && (fixed || desktop_restart)) {
        const uint64_t bytes = uint64_t(count) * isz;
        const uint8_t* src = nullptr;
        if (indices.is_offset()) {
            Buffer* eb = c.vao->elements.get();
            if (eb && eb->vk.buf && indices.offset <= eb->size && bytes <= eb->size - indices.offset)
                src = host_bytes(*eb) + indices.offset;
        } else if (indices.size >= bytes) {
            src = indices.data;
        }
        if (src) {
            const uint32_t all_ones = isz == 1 ? 0xFFu : isz == 2 ? 0xFFFFu : 0xFFFFFFFFu;
            const uint32_t restart = desktop_restart ? c.dstate.restart_index : all_ones;
            prims = 0;
            for (size_t run : gl::restart_runs(src, isz, size_t(count), restart)) prims += primitives(mode, run);
        }
    }
    prims *= uint64_t(instances);
    // Room in each buffer; an overflow is the front end's rule (xfb_fit:
    // ES's error, or desktop GL's primitives that fit, the device stopping
    // at the end of the range it is given).
    const uint64_t vpp = vertices_per_primitive(x.mode);
    uint64_t at[4] = {};
    for (int i = 0; i < l.buffers; ++i) {
        const TransformFeedback::Binding& b = x.bindings[size_t(i)];
        const uint64_t room_end = b.size ? std::min(b.offset + b.size, b.buffer->size) : b.buffer->size;
        at[i] = b.offset + x.written[size_t(i)];
        const uint64_t room = at[i] > room_end ? 0 : room_end - at[i];
        if (!gl::xfb_fit(c.desktop(), room, vpp * uint64_t(l.strides[i]), &prims)) {
            refuse(verb, GL_INVALID_OPERATION, "the draw would overflow a transform feedback buffer");
            return false;
        }
    }
    const uint64_t verts = prims * vpp;
    for (int i = 0; i < l.buffers; ++i) {
        const TransformFeedback::Binding& b = x.bindings[size_t(i)];
        const uint64_t bytes = verts * uint64_t(l.strides[i]);
        d.buffers[i] = b.buffer->vk.buf;
        d.offsets[i] = at[i];
        d.sizes[i] = bytes ? bytes : VK_WHOLE_SIZE;
        d.bytes[i] = bytes;
    }
    d.count = uint32_t(l.buffers);
    d.primitives = prims;
    d.capture = prims > 0;
    return true;
}

void MagmaBackend::xfb_begin(VkCommandBuffer cb, const XfbDraw& d) {
    const Device& dev = gpu_->dev();
    dev.cmd_bind_xfb(cb, 0, d.count, d.buffers, d.offsets, d.sizes);
    dev.cmd_begin_xfb(cb, 0, 0, nullptr, nullptr);
}

void MagmaBackend::xfb_end(VkCommandBuffer cb, const XfbDraw& d) {
    gpu_->dev().cmd_end_xfb(cb, 0, 0, nullptr, nullptr);
    TransformFeedback& x = *cur_->xfb;
    const uint64_t serial = gpu_->serial();
    for (uint32_t i = 0; i < d.count; ++i) {
        x.written[i] += d.bytes[i];
        // The GPU writes the buffer in this batch's main: host reads wait for
        // it and later host writes are ordered after it (Buffer::write_serial).
        Buffer& b = *x.bindings[i].buffer;
        b.used_serial = b.write_serial = serial;
        b.write_in_main = true;
    }
    if (cur_->xfb_query) cur_->xfb_query->result += GLuint(d.primitives);
    // A later draw may read what was captured (as vertices): the next pass
    // begins after the render pass's dependency on everything before it.
    gpu_->end_pass();
    open_id_ = nullptr;
}

// ---- state queries -------------------------------------------------------------------------

bool MagmaBackend::xfb_get(GLenum pname, int64_t* v) {
    const Context& c = *cur_;
    auto name_of = [&](const std::shared_ptr<Buffer>& b) -> int64_t {
        if (!b) return 0;
        for (auto& [name, obj] : c.share->buffers)
            if (obj == b) return name;
        return 0;
    };
    switch (pname) {
        case GL_TRANSFORM_FEEDBACK_BINDING:
            *v = 0;
            for (auto& [name, obj] : c.xfbs)
                if (obj == c.xfb) *v = name;
            return true;
        case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: *v = name_of(c.xfb_buffer); return true;
        case GL_TRANSFORM_FEEDBACK_ACTIVE: *v = c.xfb->active; return true;
        case GL_TRANSFORM_FEEDBACK_PAUSED: *v = c.xfb->paused; return true;
        case GL_RASTERIZER_DISCARD: *v = c.st.rasterizer_discard; return true;
        default: return false;
    }
}

void MagmaBackend::glGetIntegeri_v(GLenum target, GLuint index, wire::Out<GLint> data) {
    constexpr gen::Op op = gen::Op::glGetIntegeri_v;
    if (!need_context(op) || !data.count()) return;
    const Context& c = *cur_;
    auto name_of = [&](const std::shared_ptr<Buffer>& b) -> GLint {
        if (!b) return 0;
        for (auto& [name, obj] : c.share->buffers)
            if (obj == b) return GLint(name);
        return 0;
    };
    switch (target) {
        case GL_SAMPLE_MASK_VALUE:  // desktop: glSampleMaski's words
            if (!c.desktop()) return refuse(op, GL_INVALID_ENUM, "target");
            if (index >= 1) return refuse(op, GL_INVALID_VALUE, "index >= GL_MAX_SAMPLE_MASK_WORDS");
            data.data[0] = GLint(c.st.sample_mask_value);
            return;
        case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING:
        case GL_TRANSFORM_FEEDBACK_BUFFER_START:
        case GL_TRANSFORM_FEEDBACK_BUFFER_SIZE: {
            if (index >= c.xfb->bindings.size()) return refuse(op, GL_INVALID_VALUE, "index");
            const TransformFeedback::Binding& b = c.xfb->bindings[index];
            data.data[0] = target == GL_TRANSFORM_FEEDBACK_BUFFER_BINDING ? name_of(b.buffer)
                         : target == GL_TRANSFORM_FEEDBACK_BUFFER_START ? GLint(b.offset) : GLint(b.size);
            return;
        }
        case GL_UNIFORM_BUFFER_BINDING:
        case GL_UNIFORM_BUFFER_START:
        case GL_UNIFORM_BUFFER_SIZE: {
            if (index >= c.uniform_bindings.size()) return refuse(op, GL_INVALID_VALUE, "index");
            const Context::Indexed& b = c.uniform_bindings[index];
            data.data[0] = target == GL_UNIFORM_BUFFER_BINDING ? name_of(b.buffer)
                         : target == GL_UNIFORM_BUFFER_START ? GLint(b.offset) : GLint(b.size);
            return;
        }
        case GL_MAX_COMPUTE_WORK_GROUP_COUNT:
        case GL_MAX_COMPUTE_WORK_GROUP_SIZE: {
            if (!c.desktop()) return refuse(op, GL_INVALID_ENUM, "target");
            int64_t v = 0;
            if (!compute_limit(gpu_->dev(), target, index, true, &v)) return refuse(op, GL_INVALID_VALUE, "index");
            data.data[0] = GLint(v);
            return;
        }
        case GL_SHADER_STORAGE_BUFFER_BINDING:
        case GL_SHADER_STORAGE_BUFFER_START:
        case GL_SHADER_STORAGE_BUFFER_SIZE: {
            if (!c.desktop()) return refuse(op, GL_INVALID_ENUM, "target");
            if (index >= c.storage_bindings.size()) return refuse(op, GL_INVALID_VALUE, "index");
            const Context::Indexed& b = c.storage_bindings[index];
            data.data[0] = target == GL_SHADER_STORAGE_BUFFER_BINDING ? name_of(b.buffer)
                         : target == GL_SHADER_STORAGE_BUFFER_START ? GLint(b.offset) : GLint(b.size);
            return;
        }
        case GL_ATOMIC_COUNTER_BUFFER_BINDING:
        case GL_ATOMIC_COUNTER_BUFFER_START:
        case GL_ATOMIC_COUNTER_BUFFER_SIZE: {
            if (!c.desktop() || !counter_limits(gpu_->dev()).bindings) return refuse(op, GL_INVALID_ENUM, "target");
            if (index >= counter_limits(gpu_->dev()).bindings) return refuse(op, GL_INVALID_VALUE, "index");
            const Context::Indexed& b = c.counter_bindings[index];
            data.data[0] = target == GL_ATOMIC_COUNTER_BUFFER_BINDING ? name_of(b.buffer)
                         : target == GL_ATOMIC_COUNTER_BUFFER_START ? GLint(b.offset) : GLint(b.size);
            return;
        }
        default:
            if (image_unit_get(target, index, &data.data[0])) return;
            return refuse(op, GL_INVALID_ENUM, "target");
    }
}

}  // namespace mgl::magma
