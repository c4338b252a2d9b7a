// Which buffers the client may keep a copy of (BufferInfo::shadow).
//
// A copy is only worth anything while it equals what the server holds, so
// every way the server can change a buffer's data store on its own is
// watched here: a buffer that is ever bound where the GPU writes (transform
// feedback, shader storage, atomic counters, pack and query buffers), backs
// a buffer texture (image stores), is the destination of a copy or a clear,
// or is written by name (direct state access, whose calls the client does
// not shadow) is marked BufferInfo::server_writes and never copied again.
// The check is by binding, not by use: binding a buffer for transform
// feedback and never drawing with it costs that buffer its copy, which only
// means a round trip at its next map, as before copies existed.
#include "buffer_rules.h"
#include "custom/common.h"

namespace mgl::client {

void drop_shadow(ShareGroup& g, BufferInfo& b) {
    g.shadow_bytes -= int64_t(b.shadow.size());
    b.shadow = {};
    b.shadow_valid = false;
}

bool set_shadow(ShareGroup& g, BufferInfo& b, std::vector<uint8_t>&& bytes, int64_t limit) {
    drop_shadow(g, b);
    if (g.shadow_bytes + int64_t(bytes.size()) > limit) return false;
    g.shadow_bytes += int64_t(bytes.size());
    b.shadow = std::move(bytes);
    b.shadow_valid = true;
    return true;
}

bool set_shadow(ShareGroup& g, BufferInfo& b, const void* data, int64_t size, int64_t limit) {
    drop_shadow(g, b);
    if (size < 0 || g.shadow_bytes + size > limit) return false;
    std::vector<uint8_t> bytes;
    if (data) bytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    else bytes.assign(size_t(size), 0);
    return set_shadow(g, b, std::move(bytes), limit);
}

void mark_server_writes(Context& ctx, uint32_t name) {
    if (!name) return;
    std::lock_guard<std::mutex> g(ctx.group->mu);
    BufferInfo& b = ctx.group->buffers[name];
    b.server_writes = true;
    b.keep_shadow = false;
    drop_shadow(*ctx.group, b);
}

bool server_write_target(GLenum target) {
    switch (target) {
        case GL_TRANSFORM_FEEDBACK_BUFFER:
        case GL_SHADER_STORAGE_BUFFER:
        case GL_ATOMIC_COUNTER_BUFFER:
        case GL_PIXEL_PACK_BUFFER:
        case 0x9192 /* GL_QUERY_BUFFER */: return true;
        default: return false;
    }
}

}  // namespace mgl::client

namespace mgl_custom {

// The verbs below are generated (sent as they are); these observers run after.

void observe_glClearBufferData(GLenum target, GLenum, GLenum, GLenum, const void*) {
    if (Context* ctx = current()) mark_server_writes(*ctx, ctx->st.bound_buffer(target));
}

void observe_glClearBufferSubData(GLenum target, GLenum, GLintptr, GLsizeiptr, GLenum, GLenum, const void*) {
    if (Context* ctx = current()) mark_server_writes(*ctx, ctx->st.bound_buffer(target));
}

// glBufferStorage replaces the data store as glBufferData does; its buffers
// are not copied: an immutable store is mapped in the server driver's own
// memory (custom/map.cc), where the application's writes go straight.
void observe_glBufferStorage(GLenum target, GLsizeiptr size, const void*, GLbitfield flags) {
    Context* ctx = current();
    if (!ctx) return;
    const uint32_t name = ctx->st.bound_buffer(target);
    mark_server_writes(*ctx, name);
    if (!name) return;
    std::lock_guard<std::mutex> g(ctx->group->mu);
    BufferInfo& b = ctx->group->buffers[name];
    mgl::gl::BufferStore store;
    store.immutable = b.immutable;
    // A call GL refuses (the front end's rule, as the server applies it) changes nothing.
    if (b.map_ptr || mgl::gl::check_buffer_storage(store, size, flags)) return;
    b.immutable = true;
    b.size = size;
}

void observe_glTexBuffer(GLenum, GLenum, GLuint buffer) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glTexBufferRange(GLenum, GLenum, GLuint buffer, GLintptr, GLsizeiptr) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glBindBufferOffsetEXT(GLenum target, GLuint, GLuint buffer, GLintptr) {
    if (Context* ctx = current(); ctx && server_write_target(target)) mark_server_writes(*ctx, buffer);
}

void observe_glBindBuffersBase(GLenum target, GLuint, GLsizei count, const GLuint* buffers) {
    Context* ctx = current();
    if (!ctx || !buffers || !server_write_target(target)) return;
    for (GLsizei i = 0; i < count; ++i) mark_server_writes(*ctx, buffers[i]);
}

void observe_glBindBuffersRange(GLenum target, GLuint, GLsizei count, const GLuint* buffers, const GLintptr*,
                                const GLsizeiptr*) {
    Context* ctx = current();
    if (!ctx || !buffers || !server_write_target(target)) return;
    for (GLsizei i = 0; i < count; ++i) mark_server_writes(*ctx, buffers[i]);
}

// Direct state access by buffer name.
void observe_glNamedBufferData(GLuint buffer, GLsizeiptr, const void*, GLenum) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glNamedBufferStorage(GLuint buffer, GLsizeiptr, const void*, GLbitfield) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glNamedBufferSubData(GLuint buffer, GLintptr, GLsizeiptr, const void*) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glCopyNamedBufferSubData(GLuint, GLuint writeBuffer, GLintptr, GLintptr, GLsizeiptr) {
    if (Context* ctx = current()) mark_server_writes(*ctx, writeBuffer);
}

void observe_glClearNamedBufferData(GLuint buffer, GLenum, GLenum, GLenum, const void*) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glClearNamedBufferSubData(GLuint buffer, GLenum, GLintptr, GLsizeiptr, GLenum, GLenum, const void*) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glTextureBuffer(GLuint, GLenum, GLuint buffer) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glTextureBufferRange(GLuint, GLenum, GLuint buffer, GLintptr, GLsizeiptr) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glTransformFeedbackBufferBase(GLuint, GLuint, GLuint buffer) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

void observe_glTransformFeedbackBufferRange(GLuint, GLuint, GLuint buffer, GLintptr, GLsizeiptr) {
    if (Context* ctx = current()) mark_server_writes(*ctx, buffer);
}

}  // namespace mgl_custom
