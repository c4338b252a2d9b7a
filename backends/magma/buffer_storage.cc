// Buffers with immutable storage (glBufferStorage: GL_ARB_buffer_storage,
// GL_EXT_buffer_storage), their mappings for a client in this process
// (mglMapBufferHost), and reads of a buffer's contents (glGetBufferSubData). Magma's buffers live in host-visible, coherent memory
// that stays mapped (gpu_resources.cc), so the mapping is that memory: the
// application writes where the GPU reads, and a coherent write reaches the
// next batch with no call. An immutable store is never renamed (buffers.cc
// stages its writes instead) so the address stays valid. GL's rules are the
// front end's (backends/gl/state/buffer_rules.h).
#include <algorithm>
#include <cstring>

#include "backend.h"
#include "buffer_rules.h"

namespace mgl::magma {

void MagmaBackend::glBufferStorage(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLbitfield flags) {
    constexpr gen::Op op = gen::Op::glBufferStorage;
    if (!need_context(op)) return;
    Buffer* bound = bound_buffer(op, target);
    if (!bound) return;
    Buffer& b = *bound;
    if (gl::RuleError e = gl::check_buffer_storage(store_of(b), size, flags)) return refuse(op, e.error, e.why);
    if (data.size && data.size < uint64_t(size)) return refuse(op, GL_INVALID_VALUE, "data shorter than size");
    // Fresh storage, as glBufferData makes: the old one goes when the GPU is done with it.
    gpu_->destroy_buffer_later(b.vk);
    if (!gpu_->create_buffer(uint64_t(size), buffer_usage(), b.vk)) return set_error(GL_OUT_OF_MEMORY);
    b.size = uint64_t(size);
    b.used_serial = b.write_serial = 0;
    b.immutable = true;
    b.storage_flags = flags;
    if (data.size) std::memcpy(b.vk.map, data.data, size_t(size));
    else std::memset(b.vk.map, 0, size_t(size));
}

GLuint64 MagmaBackend::mglMapBufferHost(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
    constexpr gen::Op op = gen::Op::mglMapBufferHost;
    if (!need_context(op)) return 0;
    if (!peer_in_process_) {
        refuse(op, GL_INVALID_OPERATION,
               "a mapping in the device's memory reaches only a client in the server's process (inproc, direct)");
        return 0;
    }
    Buffer* bound = bound_buffer(op, target);
    if (!bound) return 0;
    Buffer& b = *bound;
    if (gl::RuleError e = gl::check_map_range(store_of(b), offset, length, access)) return refuse(op, e.error, e.why), 0;
    // The client maps mutable stores itself; only an immutable one is never
    // renamed, so only its address stays valid.
    if (!b.immutable) return refuse(op, GL_INVALID_OPERATION, "not an immutable store"), 0;
    // A mapping waits for the GPU's use of the buffer unless told not to (a
    // persistent mapping only at its start: afterwards the application syncs).
    if (!(access & GL_MAP_UNSYNCHRONIZED_BIT) && (gpu_->busy(b.used_serial) || gpu_->busy(b.write_serial))) {
        gpu_->submit(true);
        open_id_ = nullptr;
    }
    b.mapped = true;
    b.map_access = access;
    b.map_offset = uint64_t(offset);
    b.map_length = uint64_t(length);
    return GLuint64(reinterpret_cast<uintptr_t>(b.vk.map + offset));
}

void MagmaBackend::mglUnmapBufferHost(GLenum target) {
    constexpr gen::Op op = gen::Op::mglUnmapBufferHost;
    if (!need_context(op)) return;
    Buffer* bound = bound_buffer(op, target);
    if (!bound) return;
    Buffer& b = *bound;
    if (!b.mapped) return refuse(op, GL_INVALID_OPERATION, "the buffer is not mapped");
    b.mapped = false;
    b.map_access = 0;
    b.map_offset = b.map_length = 0;
}

void MagmaBackend::mglFlushBufferHost(GLenum target, GLintptr offset, GLsizeiptr length) {
    constexpr gen::Op op = gen::Op::mglFlushBufferHost;
    if (!need_context(op)) return;
    Buffer* b = bound_buffer(op, target);
    if (!b) return;
    if (!b->mapped || !(b->map_access & gl::kMapFlushExplicit))
        return refuse(op, GL_INVALID_OPERATION, "no mapping with GL_MAP_FLUSH_EXPLICIT_BIT");
    if (!gl::range_within(offset, length, int64_t(b->map_length)))
        return refuse(op, GL_INVALID_VALUE, "range outside the mapping");
    // The memory is host-coherent (Gpu::create_buffer): written bytes need no flush.
}

// glGetBufferSubData (desktop GL): the buffer's own memory, once the GPU's
// work that may write it (copies, transform feedback, storage) has run.
void MagmaBackend::glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, wire::Out<uint8_t> data) {
    constexpr gen::Op op = gen::Op::glGetBufferSubData;
    if (!need_context(op)) return;
    Buffer* bound = bound_buffer(op, target);
    if (!bound) return;
    Buffer& b = *bound;
    if (gl::RuleError e = gl::check_get_buffer_sub_data(store_of(b), offset, size)) return refuse(op, e.error, e.why);
    if (size == 0 || !b.vk.map) return;
    if (gpu_->busy(b.write_serial) || gpu_->busy(b.used_serial)) {
        gpu_->submit(true);
        open_id_ = nullptr;
    }
    std::memcpy(data.data, b.vk.map + offset, std::min<uint64_t>(uint64_t(size), data.size));
}

}  // namespace mgl::magma
