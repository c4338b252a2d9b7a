// Buffers (host-visible Vulkan buffers, renamed when written while the GPU
// may read them), vertex array objects and vertex attributes.
#include <cmath>
#include <cstring>

#include "backend.h"

namespace mgl::magma {

namespace {
// A partial write to a busy buffer renames it (fresh memory, the whole old
// content copied on the host) only when that is cheap: the host reads the
// memory at memory speed (HOST_CACHED; lavapipe) and the buffer is at most
// this big. Otherwise (larger buffers; write-combined memory such as NVIDIA's
// device-local host-visible heap, where host reads crawl) only the bytes
// written are staged and copied by the GPU (write_buffer).
constexpr uint64_t kRenameBytes = 1 << 20;
constexpr VkBufferUsageFlags kBufferUsage =
    VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
    VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
}  // namespace

VkBufferUsageFlags MagmaBackend::buffer_usage() const {
    // Any buffer may become a transform feedback buffer; the usage exists
    // only with the extension.
    return kBufferUsage | (gpu_->dev().xfb ? VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT : 0);
}

std::shared_ptr<Buffer>* MagmaBackend::buffer_slot(GLenum target) {
    Context& c = *cur_;
    switch (target) {
        case GL_ARRAY_BUFFER: return &c.array_buffer;
        case GL_ELEMENT_ARRAY_BUFFER: return &c.vao->elements;
        case GL_PIXEL_UNPACK_BUFFER: return &c.pixel_unpack;
        case GL_PIXEL_PACK_BUFFER: return &c.pixel_pack;
        case GL_UNIFORM_BUFFER: return &c.uniform_buffer;
        case GL_COPY_READ_BUFFER: return &c.copy_read;
        case GL_COPY_WRITE_BUFFER: return &c.copy_write;
        case GL_TRANSFORM_FEEDBACK_BUFFER: return &c.xfb_buffer;
        // Desktop contexts: GL_ARB_shader_storage_buffer_object, GL_ARB_compute_shader (compute.cc).
        case GL_SHADER_STORAGE_BUFFER: return c.desktop() ? &c.storage_buffer : nullptr;
        case GL_DISPATCH_INDIRECT_BUFFER: return c.desktop() ? &c.dispatch_indirect : nullptr;
        case GL_DRAW_INDIRECT_BUFFER: return c.desktop() ? &c.draw_indirect : nullptr;
        // Desktop contexts where atomic counters are served (atomic_counters.cc).
        case GL_ATOMIC_COUNTER_BUFFER: return c.desktop() && counter_limits(gpu_->dev()).bindings ? &c.counter_buffer : nullptr;
        default: return nullptr;
    }
}

Buffer* MagmaBackend::bound_buffer(gen::Op verb, GLenum target) {
    std::shared_ptr<Buffer>* slot = buffer_slot(target);
    if (!slot) return refuse(verb, GL_INVALID_ENUM, "target"), nullptr;
    if (!*slot) return refuse(verb, GL_INVALID_OPERATION, "no buffer bound"), nullptr;
    return slot->get();
}

std::shared_ptr<Buffer> MagmaBackend::buffer_for_bind(GLuint name) {
    if (name == 0) return nullptr;
    auto& map = cur_->share->buffers;
    auto it = map.find(name);
    if (it != map.end() && it->second) return it->second;
    auto b = std::make_shared<Buffer>(gpu_.get());  // glBind* of a name never generated creates it (GLES)
    map[name] = b;
    return b;
}

void MagmaBackend::glGenBuffers(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glGenBuffers)) return;
    for (uint32_t i = 0; i < names.count(); ++i)
        if (names.data[i]) cur_->share->buffers.emplace(names.data[i], nullptr);  // created at first bind
}

void MagmaBackend::glDeleteBuffers(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glDeleteBuffers)) return;
    Context& c = *cur_;
    for (uint32_t i = 0; i < names.count(); ++i) {
        auto it = c.share->buffers.find(names.data[i]);
        if (it == c.share->buffers.end()) continue;
        std::shared_ptr<Buffer> b = it->second;
        c.share->buffers.erase(it);
        if (!b) continue;
        // Unbound from the current context's bind points (GL); attachments
        // elsewhere keep the object alive until they let go.
        for (auto* slot : {&c.array_buffer, &c.vao->elements, &c.pixel_unpack, &c.pixel_pack, &c.uniform_buffer,
                           &c.copy_read, &c.copy_write, &c.xfb_buffer, &c.storage_buffer, &c.dispatch_indirect,
                           &c.draw_indirect, &c.counter_buffer})
            if (*slot == b) slot->reset();
        for (auto& a : c.vao->attribs)
            if (a.buffer == b) a.buffer.reset();
        for (auto& u : c.uniform_bindings)
            if (u.buffer == b) u.buffer.reset();
        for (auto& u : c.storage_bindings)
            if (u.buffer == b) u.buffer.reset();
        for (auto& u : c.counter_bindings)
            if (u.buffer == b) u.buffer.reset();
        for (auto& x : c.xfb->bindings)
            if (x.buffer == b) x.buffer.reset();
    }
}

void MagmaBackend::glBindBuffer(GLenum target, GLuint name) {
    if (!need_context(gen::Op::glBindBuffer)) return;
    std::shared_ptr<Buffer>* slot = buffer_slot(target);
    if (!slot) return refuse(gen::Op::glBindBuffer, GL_INVALID_ENUM, "target");
    *slot = buffer_for_bind(name);
}

void MagmaBackend::glBindBufferBase(GLenum target, GLuint index, GLuint name) {
    if (target == GL_TRANSFORM_FEEDBACK_BUFFER) {
        if (need_context(gen::Op::glBindBufferBase)) bind_xfb_buffer(index, name, 0, 0, false);
        return;
    }
    glBindBufferRange(target, index, name, 0, 0);
}

void MagmaBackend::glBindBufferRange(GLenum target, GLuint index, GLuint name, GLintptr offset, GLsizeiptr size) {
    if (!need_context(gen::Op::glBindBufferRange)) return;
    if (target == GL_TRANSFORM_FEEDBACK_BUFFER) return bind_xfb_buffer(index, name, offset, size, true);
    if (target == GL_SHADER_STORAGE_BUFFER && cur_->desktop()) {
        // Base (size 0) or range: GL's rules are the front end's (compute_rules.h).
        if (const gl::RuleError e = gl::check_storage_binding(index, name, size != 0, offset, size, compute_limits()))
            return refuse(gen::Op::glBindBufferRange, e.error, e.why);
        auto b = buffer_for_bind(name);
        cur_->storage_buffer = b;
        cur_->storage_bindings[index] = {b, uint64_t(offset), uint64_t(size)};
        return;
    }
    if (target == GL_ATOMIC_COUNTER_BUFFER && cur_->desktop() && counter_limits(gpu_->dev()).bindings)
        return bind_counter_buffer(index, name, offset, size);
    if (target != GL_UNIFORM_BUFFER) return unsupported(gen::Op::glBindBufferRange);
    if (index >= cur_->uniform_bindings.size()) return refuse(gen::Op::glBindBufferRange, GL_INVALID_VALUE, "index");
    auto b = buffer_for_bind(name);
    cur_->uniform_buffer = b;
    cur_->uniform_bindings[index] = {b, uint64_t(offset), uint64_t(size)};
}

GLboolean MagmaBackend::glIsBuffer(GLuint name) {
    if (!need_context(gen::Op::glIsBuffer)) return GL_FALSE;
    auto it = cur_->share->buffers.find(name);
    return it != cur_->share->buffers.end() && it->second;
}

// A batch that streamed past its limit is submitted here, between verbs
// (gpu.cc: kBatchStreamLimit): the open pass ends, the next draw reopens it.
void MagmaBackend::bound_stream() {
    if (!gpu_->stream_full()) return;
    gpu_->end_pass();
    open_id_ = nullptr;
    gpu_->submit(false);
}

bool MagmaBackend::write_buffer(Buffer& b, uint64_t offset, const void* data, uint64_t size, bool discard) {
    if (!b.vk.buf || !data) return true;
    bound_stream();
    const bool reading = gpu_->busy(b.used_serial);
    const bool writing = gpu_->busy(b.write_serial);
    if (!reading && !writing) {
        std::memcpy(b.vk.map + offset, data, size);
        return true;
    }
    // An immutable store keeps its memory (a client may hold a mapping of it).
    if (!b.immutable && (discard || (!writing && b.vk.cached && b.size <= kRenameBytes))) {
        // Fresh memory; the old one is freed when the batches that use it are
        // done. Unless the whole buffer is replaced, the old bytes come along
        // (the host copy is current: no staged copy into it is pending).
        VkBuf fresh;
        if (!gpu_->create_buffer(b.size, buffer_usage(), fresh)) return false;
        if (!discard) std::memcpy(fresh.map, b.vk.map, b.size);
        gpu_->count_buffer_copy(discard ? 0 : b.size, true);
        gpu_->destroy_buffer_later(b.vk);
        b.vk = fresh;
        b.used_serial = b.write_serial = 0;
        std::memcpy(b.vk.map + offset, data, size);
        return true;
    }
    // A partial write into a large buffer the GPU may still read: the bytes go
    // to the stream and a GPU copy puts them in place, after every earlier use
    // of the buffer and before every later one. In `init` (the open render
    // pass stays open; init starts with a barrier against earlier batches)
    // unless this batch's main already uses the buffer or copied into it: then
    // in order in main, which ends the pass (the next draw reopens it, LOAD).
    Gpu::Slice s = gpu_->stream(size, 4);
    if (!s.ptr) return false;
    std::memcpy(s.ptr, data, size);
    const uint64_t serial = gpu_->serial();
    const bool in_main = b.used_serial == serial || (b.write_serial == serial && b.write_in_main);
    VkCommandBuffer cb;
    if (in_main) {
        cb = gpu_->main_buffer_copy();
        open_id_ = nullptr;
    } else {
        cb = gpu_->init();
    }
    const VkBufferCopy region{s.offset, offset, size};
    vkCmdCopyBuffer(cb, s.buf, b.vk.buf, 1, &region);
    if (!in_main) {
        // A later copy in init may write the same bytes: keep them in order.
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr,
                             0, nullptr);
    }
    b.write_serial = serial;
    b.write_in_main = in_main;
    gpu_->count_buffer_copy(size, false);
    return true;
}

uint8_t* MagmaBackend::host_bytes(Buffer& b) {
    if (gpu_->busy(b.write_serial)) {
        // A staged GPU copy into it is pending: the host copy is stale until it ran.
        gpu_->submit(true);
        open_id_ = nullptr;
    }
    return b.vk.map;
}

void MagmaBackend::glBufferData(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLenum usage) {
    if (!need_context(gen::Op::glBufferData)) return;
    std::shared_ptr<Buffer>* slot = buffer_slot(target);
    if (!slot) return refuse(gen::Op::glBufferData, GL_INVALID_ENUM, "target");
    if (!*slot) return refuse(gen::Op::glBufferData, GL_INVALID_OPERATION, "no buffer bound");
    if (size < 0) return refuse(gen::Op::glBufferData, GL_INVALID_VALUE, "negative size");
    if (data.size && data.size < uint64_t(size)) return refuse(gen::Op::glBufferData, GL_INVALID_VALUE, "data shorter than size");
    Buffer& b = **slot;
    if (gl::RuleError e = gl::check_buffer_data(store_of(b))) return refuse(gen::Op::glBufferData, e.error, e.why);
    b.usage = usage;
    if (uint64_t(size) != b.size || !b.vk.buf || gpu_->busy(b.used_serial) || gpu_->busy(b.write_serial)) {
        // New storage (orphaning): never waits for the GPU.
        gpu_->destroy_buffer_later(b.vk);
        if (!gpu_->create_buffer(uint64_t(size), buffer_usage(), b.vk)) return set_error(GL_OUT_OF_MEMORY);
        b.size = uint64_t(size);
        b.used_serial = b.write_serial = 0;
    }
    if (data.size) std::memcpy(b.vk.map, data.data, size_t(size));
    else std::memset(b.vk.map, 0, size_t(size));
}

void MagmaBackend::glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, wire::In<uint8_t> data) {
    if (!need_context(gen::Op::glBufferSubData)) return;
    std::shared_ptr<Buffer>* slot = buffer_slot(target);
    if (!slot) return refuse(gen::Op::glBufferSubData, GL_INVALID_ENUM, "target");
    if (!*slot) return refuse(gen::Op::glBufferSubData, GL_INVALID_OPERATION, "no buffer bound");
    Buffer& b = **slot;
    if (offset < 0 || size < 0 || uint64_t(offset) + uint64_t(size) > b.size || data.size < uint64_t(size))
        return refuse(gen::Op::glBufferSubData, GL_INVALID_VALUE, "range outside the buffer");
    if (gl::RuleError e = gl::check_buffer_sub_data(store_of(b))) return refuse(gen::Op::glBufferSubData, e.error, e.why);
    if (!write_buffer(b, uint64_t(offset), data.data, uint64_t(size), offset == 0 && uint64_t(size) == b.size))
        set_error(GL_OUT_OF_MEMORY);
}

// glCopyBufferSubData (GL 3.1, ES 3.0): a GPU copy in order in main, after
// every earlier use of both buffers and before every later one.
void MagmaBackend::glCopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset,
                                       GLintptr writeOffset, GLsizeiptr size) {
    constexpr gen::Op op = gen::Op::glCopyBufferSubData;
    if (!need_context(op)) return;
    Buffer* from = bound_buffer(op, readTarget);
    Buffer* to = from ? bound_buffer(op, writeTarget) : nullptr;
    if (!to) return;
    Buffer& src = *from;
    Buffer& dst = *to;
    if (gl::RuleError e = gl::check_copy_buffer_sub_data(store_of(src), store_of(dst), &src == &dst, readOffset,
                                                          writeOffset, size))
        return refuse(op, e.error, e.why);
    if (size == 0 || !src.vk.buf || !dst.vk.buf) return;
    bound_stream();
    VkCommandBuffer cb = gpu_->main_buffer_copy();
    open_id_ = nullptr;
    const VkBufferCopy region{uint64_t(readOffset), uint64_t(writeOffset), uint64_t(size)};
    vkCmdCopyBuffer(cb, src.vk.buf, dst.vk.buf, 1, &region);
    const uint64_t serial = gpu_->serial();
    src.used_serial = serial;
    dst.used_serial = dst.write_serial = serial;
    dst.write_in_main = true;
    gpu_->count_buffer_copy(uint64_t(size), false);
}

void MagmaBackend::glGetBufferParameteriv(GLenum target, GLenum pname, wire::Out<GLint> params) {
    if (!need_context(gen::Op::glGetBufferParameteriv)) return;
    std::shared_ptr<Buffer>* slot = buffer_slot(target);
    if (!slot || !*slot) return refuse(gen::Op::glGetBufferParameteriv, GL_INVALID_OPERATION, "no buffer bound");
    GLint v = 0;
    switch (pname) {
        case GL_BUFFER_SIZE: v = GLint((*slot)->size); break;
        case GL_BUFFER_USAGE: v = GLint((*slot)->usage); break;
        case 0x821F /* GL_BUFFER_IMMUTABLE_STORAGE */: v = (*slot)->immutable; break;
        case 0x8220 /* GL_BUFFER_STORAGE_FLAGS */: v = GLint(store_of(**slot).flags); break;
        case GL_BUFFER_MAPPED: v = (*slot)->mapped; break;
        case GL_BUFFER_ACCESS_FLAGS: v = GLint((*slot)->map_access); break;
        case GL_BUFFER_MAP_LENGTH: v = GLint((*slot)->map_length); break;
        case GL_BUFFER_MAP_OFFSET: v = GLint((*slot)->map_offset); break;
        default: v = 0;
    }
    if (params.count()) params.data[0] = v;
}

// ---- vertex arrays ----------------------------------------------------------------

void MagmaBackend::glGenVertexArrays(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glGenVertexArrays)) return;
    for (uint32_t i = 0; i < names.count(); ++i)
        if (names.data[i]) cur_->vaos[names.data[i]] = std::make_shared<VertexArray>();
}

void MagmaBackend::glDeleteVertexArrays(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glDeleteVertexArrays)) return;
    for (uint32_t i = 0; i < names.count(); ++i) {
        auto it = cur_->vaos.find(names.data[i]);
        if (it == cur_->vaos.end()) continue;
        if (cur_->vao == it->second) cur_->vao = cur_->default_vao;
        cur_->vaos.erase(it);
    }
}

void MagmaBackend::glBindVertexArray(GLuint name) {
    if (!need_context(gen::Op::glBindVertexArray)) return;
    if (name == 0) {
        cur_->vao = cur_->default_vao;
        return;
    }
    auto it = cur_->vaos.find(name);
    if (it == cur_->vaos.end()) return refuse(gen::Op::glBindVertexArray, GL_INVALID_OPERATION, "unknown vertex array");
    cur_->vao = it->second;
    cur_->vao->bound_once = true;
}

GLboolean MagmaBackend::glIsVertexArray(GLuint name) {
    if (!need_context(gen::Op::glIsVertexArray)) return GL_FALSE;
    auto it = cur_->vaos.find(name);
    return it != cur_->vaos.end() && it->second->bound_once;
}

void MagmaBackend::attrib_pointer(gen::Op verb, GLuint index, GLint size, GLenum type, bool normalized, bool integer,
                                  GLsizei stride, wire::InOrOffset<uint8_t> pointer) {
    if (!need_context(verb)) return;
    if (index >= 16) return refuse(verb, GL_INVALID_VALUE, "index >= GL_MAX_VERTEX_ATTRIBS");
    // GL_BGRA (GL 3.2) is a size too. GL's size/type rules are the client's
    // (client/src/custom/arrays.cc); a pair no Vulkan format holds is refused
    // at the draw (vertex_format).
    const bool bgra = size == 0x80E1 && cur_->desktop();
    if ((!bgra && (size < 1 || size > 4)) || stride < 0) return refuse(verb, GL_INVALID_VALUE, "size or stride");
    if (!pointer.is_offset()) return refuse(verb, GL_INVALID_OPERATION, "client memory pointer (the client uploads arrays)");
    if (!cur_->array_buffer && pointer.offset != 0)
        return refuse(verb, GL_INVALID_OPERATION, "offset without a GL_ARRAY_BUFFER");
    Attrib& a = cur_->vao->attribs[index];
    a.size = size;
    a.type = type;
    a.normalized = normalized;
    a.integer = integer;
    a.stride = stride;
    a.offset = pointer.offset;
    a.buffer = cur_->array_buffer;
}

void MagmaBackend::glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                                         wire::InOrOffset<uint8_t> pointer) {
    attrib_pointer(gen::Op::glVertexAttribPointer, index, size, type, normalized, false, stride, pointer);
}

void MagmaBackend::glVertexAttribIPointer(GLuint index, GLint size, GLenum type, GLsizei stride,
                                          wire::InOrOffset<uint8_t> pointer) {
    attrib_pointer(gen::Op::glVertexAttribIPointer, index, size, type, false, true, stride, pointer);
}

void MagmaBackend::glEnableVertexAttribArray(GLuint index) {
    if (!need_context(gen::Op::glEnableVertexAttribArray)) return;
    if (index >= 16) return refuse(gen::Op::glEnableVertexAttribArray, GL_INVALID_VALUE, "index");
    cur_->vao->attribs[index].enabled = true;
}

void MagmaBackend::glDisableVertexAttribArray(GLuint index) {
    if (!need_context(gen::Op::glDisableVertexAttribArray)) return;
    if (index >= 16) return refuse(gen::Op::glDisableVertexAttribArray, GL_INVALID_VALUE, "index");
    cur_->vao->attribs[index].enabled = false;
}

void MagmaBackend::glVertexAttribDivisor(GLuint index, GLuint divisor) {
    if (!need_context(gen::Op::glVertexAttribDivisor)) return;
    if (index >= 16) return refuse(gen::Op::glVertexAttribDivisor, GL_INVALID_VALUE, "index");
    cur_->vao->attribs[index].divisor = divisor;
}

void MagmaBackend::glVertexAttrib4f(GLuint i, GLfloat x, GLfloat y, GLfloat z, GLfloat w) {
    if (!need_context(gen::Op::glVertexAttrib4f)) return;
    if (i >= 16) return refuse(gen::Op::glVertexAttrib4f, GL_INVALID_VALUE, "index");
    float* g = cur_->generic[i];
    g[0] = x, g[1] = y, g[2] = z, g[3] = w;
}

void MagmaBackend::attrib_bits(gen::Op verb, GLuint i, const uint32_t v[4]) {
    if (!need_context(verb)) return;
    if (i >= 16) return refuse(verb, GL_INVALID_VALUE, "index");
    std::memcpy(cur_->generic[i], v, 16);
}

// Integer generic values: the bits are kept; the shader input's type picks the format.
void MagmaBackend::glVertexAttribI4i(GLuint i, GLint x, GLint y, GLint z, GLint w) {
    const uint32_t v[4] = {uint32_t(x), uint32_t(y), uint32_t(z), uint32_t(w)};
    attrib_bits(gen::Op::glVertexAttribI4i, i, v);
}

void MagmaBackend::glVertexAttribI4ui(GLuint i, GLuint x, GLuint y, GLuint z, GLuint w) {
    const uint32_t v[4] = {x, y, z, w};
    attrib_bits(gen::Op::glVertexAttribI4ui, i, v);
}

void MagmaBackend::glVertexAttribI4iv(GLuint i, wire::In<GLint> v) {
    if (v.count() >= 4) glVertexAttribI4i(i, v.data[0], v.data[1], v.data[2], v.data[3]);
}

void MagmaBackend::glVertexAttribI4uiv(GLuint i, wire::In<GLuint> v) {
    if (v.count() >= 4) glVertexAttribI4ui(i, v.data[0], v.data[1], v.data[2], v.data[3]);
}

void MagmaBackend::get_attrib(gen::Op verb, GLuint index, GLenum pname, void* out, uint32_t count, char kind) {
    if (!need_context(verb)) return;
    if (index >= 16) return refuse(verb, GL_INVALID_VALUE, "index >= GL_MAX_VERTEX_ATTRIBS");
    const Attrib& a = cur_->vao->attribs[index];
    int64_t v = 0;
    switch (pname) {
        case GL_CURRENT_VERTEX_ATTRIB: {
            if (count < 4) return;
            const float* g = cur_->generic[index];
            for (int c = 0; c < 4; ++c) {
                if (kind == 'f') static_cast<float*>(out)[c] = g[c];
                else if (kind == 'I') std::memcpy(static_cast<uint32_t*>(out) + c, g + c, 4);
                else static_cast<int32_t*>(out)[c] = int32_t(g[c]);  // truncated, as Mesa does
            }
            return;
        }
        case GL_VERTEX_ATTRIB_ARRAY_ENABLED: v = a.enabled; break;
        case GL_VERTEX_ATTRIB_ARRAY_SIZE: v = a.size; break;
        case GL_VERTEX_ATTRIB_ARRAY_STRIDE: v = a.stride; break;
        case GL_VERTEX_ATTRIB_ARRAY_TYPE: v = a.type; break;
        case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED: v = a.normalized; break;
        case GL_VERTEX_ATTRIB_ARRAY_INTEGER: v = a.integer; break;
        case GL_VERTEX_ATTRIB_ARRAY_DIVISOR: v = a.divisor; break;
        case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING: {
            // The client's name of the bound buffer.
            for (auto& [name, b] : cur_->share->buffers)
                if (b && b == a.buffer) v = name;
            break;
        }
        default: return refuse(verb, GL_INVALID_ENUM, "pname");
    }
    if (count < 1) return;
    if (kind == 'f') static_cast<float*>(out)[0] = float(v);
    else static_cast<int32_t*>(out)[0] = int32_t(v);
}

void MagmaBackend::attrib_fv(GLuint i, wire::In<GLfloat> v, int n) {
    float f[4] = {0, 0, 0, 1};
    for (int k = 0; k < n && uint32_t(k) < v.count(); ++k) f[k] = v.data[k];
    glVertexAttrib4f(i, f[0], f[1], f[2], f[3]);
}

}  // namespace mgl::magma
