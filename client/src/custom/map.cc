// Buffer mapping (GLES 3 glMapBufferRange, GL_OES_mapbuffer glMapBufferOES).
//
// A mapping is client memory. Its initial contents come from the server
// with mglReadBufferRange (one round trip) when the application may read
// them (GL_MAP_READ_BIT) or when bytes it does not write must survive
// (a write map without GL_MAP_INVALIDATE_*_BIT). What the application wrote
// goes back with glBufferSubData at glFlushMappedBufferRange (explicit
// flushes) or at glUnmapBuffer: only the changed spans when the contents
// were fetched, the whole range otherwise. Invalidating write maps, the
// usual streaming pattern, cost no round trip.
#include <algorithm>
#include <cstring>

#include "custom/common.h"

namespace mgl::client {

namespace {

constexpr int64_t kDiffGranule = 64;

// Sends the bytes of [from, to) of the mapping that differ from the
// snapshot (or all of them without one).
void send_range(Context& ctx, GLenum target, BufferInfo& b, int64_t from, int64_t to) {
    from = std::clamp<int64_t>(from, 0, b.map_length);
    to = std::clamp<int64_t>(to, from, b.map_length);
    if (to <= from) return;
    const uint8_t* cur = b.map_ptr;
    if (b.map_snapshot.size() != size_t(b.map_length)) {
        ctx.enc->glBufferSubData(target, b.map_offset + from, to - from, wire::Blob{cur + from, uint32_t(to - from)});
        return;
    }
    const uint8_t* old = b.map_snapshot.data();
    int64_t run_start = -1, run_end = -1;
    auto emit = [&]() {
        if (run_start < 0) return;
        ctx.enc->glBufferSubData(target, b.map_offset + run_start, run_end - run_start,
                                 wire::Blob{cur + run_start, uint32_t(run_end - run_start)});
        std::memcpy(b.map_snapshot.data() + run_start, cur + run_start, size_t(run_end - run_start));
        run_start = run_end = -1;
    };
    for (int64_t at = from; at < to; at += kDiffGranule) {
        const int64_t n = std::min(kDiffGranule, to - at);
        if (std::memcmp(cur + at, old + at, size_t(n)) == 0) continue;
        // Close runs separated by more than a few clean granules.
        if (run_start >= 0 && at - run_end > 4 * kDiffGranule) emit();
        if (run_start < 0) run_start = at;
        run_end = at + n;
    }
    emit();
}

void* map_range(const char* verb, GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
    MGL_CTX_OR_RETURN(verb, nullptr);
    const uint32_t name = ctx->st.bound_buffer(target);
    if (!ctx->st.buffer_slot(target)) {
        gl_error(*ctx, GL_INVALID_ENUM, verb);
        return nullptr;
    }
    if (!name) {
        gl_error(*ctx, GL_INVALID_OPERATION, verb);
        return nullptr;
    }
    const GLbitfield known = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT |
                             GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_FLUSH_EXPLICIT_BIT | GL_MAP_UNSYNCHRONIZED_BIT;
    if (offset < 0 || length < 0 || (access & ~known) || !(access & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT)) ||
        ((access & GL_MAP_READ_BIT) &&
         (access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_UNSYNCHRONIZED_BIT))) ||
        ((access & GL_MAP_FLUSH_EXPLICIT_BIT) && !(access & GL_MAP_WRITE_BIT))) {
        gl_error(*ctx, (offset < 0 || length < 0) ? GL_INVALID_VALUE : GL_INVALID_OPERATION, verb);
        return nullptr;
    }
    if (length > kMaxArrayBytes) {
        gl_error(*ctx, GL_OUT_OF_MEMORY, verb);
        return nullptr;
    }
    std::unique_lock<std::mutex> g(ctx->group->mu);
    BufferInfo& b = ctx->group->buffers[name];
    if (b.map_ptr) {
        gl_error(*ctx, GL_INVALID_OPERATION, verb);
        return nullptr;
    }
    if (b.size >= 0 && offset + length > b.size) {
        gl_error(*ctx, GL_INVALID_VALUE, verb);
        return nullptr;
    }
    b.map_offset = offset;
    b.map_length = length;
    b.map_access = access;
    b.map_storage.assign(size_t(std::max<int64_t>(length, 1)), 0);
    b.map_snapshot.clear();
    const bool invalidate = access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    const bool fetch = length > 0 && ((access & GL_MAP_READ_BIT) || !invalidate);
    g.unlock();
    if (fetch) {
        ctx->enc->mglReadBufferRange(target, offset, length, uint32_t(length));
        std::span<const uint8_t> rep = wait(*ctx);
        g.lock();
        if (!gen::read_reply_mglReadBufferRange(rep, b.map_storage.data(), uint32_t(length))) {
            reply_failed(*ctx, verb, rep);
        } else if (access & GL_MAP_WRITE_BIT) {
            b.map_snapshot = b.map_storage;  // only changed spans go back
        }
    } else {
        g.lock();
    }
    b.map_ptr = b.map_storage.data();
    return b.map_ptr;
}

}  // namespace

}  // namespace mgl::client

namespace mgl_custom {

void* glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
    return map_range("glMapBufferRange", target, offset, length, access);
}

// glMapBuffer / glMapBufferOES: the whole buffer.
void* glMapBuffer(GLenum target, GLenum access) {
    MGL_CTX_OR_RETURN("glMapBuffer", nullptr);
    GLbitfield bits = 0;
    switch (access) {
        case GL_WRITE_ONLY_OES: bits = GL_MAP_WRITE_BIT; break;
        case 0x88B8 /* GL_READ_ONLY */: bits = GL_MAP_READ_BIT; break;
        case 0x88BA /* GL_READ_WRITE */: bits = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT; break;
        default: gl_error(*ctx, GL_INVALID_ENUM, "glMapBuffer"); return nullptr;
    }
    const uint32_t name = ctx->st.bound_buffer(target);
    int64_t size = -1;
    if (name) {
        std::lock_guard<std::mutex> g(ctx->group->mu);
        size = ctx->group->buffers[name].size;
    }
    if (name && size < 0) {
        ctx->enc->glGetBufferParameteriv(target, GL_BUFFER_SIZE, 4);
        std::span<const uint8_t> rep = wait(*ctx);
        int32_t s = 0;
        if (gen::read_reply_glGetBufferParameteriv(rep, &s, 4)) size = s;
        std::lock_guard<std::mutex> g(ctx->group->mu);
        ctx->group->buffers[name].size = size;
    }
    return map_range("glMapBuffer", target, 0, std::max<int64_t>(size, 0), bits);
}

void glFlushMappedBufferRange(GLenum target, GLintptr offset, GLsizeiptr length) {
    MGL_CTX_OR_RETURN("glFlushMappedBufferRange");
    const uint32_t name = ctx->st.bound_buffer(target);
    std::lock_guard<std::mutex> g(ctx->group->mu);
    auto it = ctx->group->buffers.find(name);
    if (!name || it == ctx->group->buffers.end() || !it->second.map_ptr ||
        !(it->second.map_access & GL_MAP_FLUSH_EXPLICIT_BIT)) {
        gl_error(*ctx, GL_INVALID_OPERATION, "glFlushMappedBufferRange");
        return;
    }
    BufferInfo& b = it->second;
    if (offset < 0 || length < 0 || offset + length > b.map_length) {
        gl_error(*ctx, GL_INVALID_VALUE, "glFlushMappedBufferRange");
        return;
    }
    send_range(*ctx, target, b, offset, offset + length);
}

GLboolean glUnmapBuffer(GLenum target) {
    MGL_CTX_OR_RETURN("glUnmapBuffer", GL_FALSE);
    const uint32_t name = ctx->st.bound_buffer(target);
    std::lock_guard<std::mutex> g(ctx->group->mu);
    auto it = ctx->group->buffers.find(name);
    if (!name || it == ctx->group->buffers.end() || !it->second.map_ptr) {
        gl_error(*ctx, GL_INVALID_OPERATION, "glUnmapBuffer");
        return GL_FALSE;
    }
    BufferInfo& b = it->second;
    if ((b.map_access & GL_MAP_WRITE_BIT) && !(b.map_access & GL_MAP_FLUSH_EXPLICIT_BIT))
        send_range(*ctx, target, b, 0, b.map_length);
    if ((b.map_access & GL_MAP_WRITE_BIT) && b.shadow_valid) {
        if (b.map_offset + b.map_length <= int64_t(b.shadow.size()))
            std::memcpy(b.shadow.data() + b.map_offset, b.map_ptr, size_t(b.map_length));
        else
            b.shadow_valid = false;
    }
    b.map_ptr = nullptr;
    b.map_storage = {};
    b.map_snapshot = {};
    return GL_TRUE;
}

void glGetBufferPointerv(GLenum target, GLenum pname, void** params) {
    MGL_CTX_OR_RETURN("glGetBufferPointerv");
    if (pname != GL_BUFFER_MAP_POINTER) {
        gl_error(*ctx, GL_INVALID_ENUM, "glGetBufferPointerv");
        return;
    }
    const uint32_t name = ctx->st.bound_buffer(target);
    std::lock_guard<std::mutex> g(ctx->group->mu);
    auto it = ctx->group->buffers.find(name);
    if (params) *params = (name && it != ctx->group->buffers.end()) ? it->second.map_ptr : nullptr;
}

// Desktop-only mapping entry points (direct state access, vendor extensions).
void* glMapNamedBuffer(GLuint, GLenum) { unsized("glMapNamedBuffer", "desktop GL"); return nullptr; }
void* glMapNamedBufferEXT(GLuint, GLenum) { unsized("glMapNamedBufferEXT", "desktop GL"); return nullptr; }
void* glMapNamedBufferRange(GLuint, GLintptr, GLsizeiptr, GLbitfield) {
    unsized("glMapNamedBufferRange", "desktop GL");
    return nullptr;
}
void* glMapNamedBufferRangeEXT(GLuint, GLintptr, GLsizeiptr, GLbitfield) {
    unsized("glMapNamedBufferRangeEXT", "desktop GL");
    return nullptr;
}
void* glMapObjectBufferATI(GLuint) { unsized("glMapObjectBufferATI", "vendor extension"); return nullptr; }
void* glMapTexture2DINTEL(GLuint, GLint, GLbitfield, GLint*, GLenum*) {
    unsized("glMapTexture2DINTEL", "vendor extension");
    return nullptr;
}
GLboolean glUnmapNamedBuffer(GLuint) { unsized("glUnmapNamedBuffer", "desktop GL"); return GL_FALSE; }
GLboolean glUnmapNamedBufferEXT(GLuint) { unsized("glUnmapNamedBufferEXT", "desktop GL"); return GL_FALSE; }
void glUnmapObjectBufferATI(GLuint) { unsized("glUnmapObjectBufferATI", "vendor extension"); }
void glUnmapTexture2DINTEL(GLuint, GLint) { unsized("glUnmapTexture2DINTEL", "vendor extension"); }
void glFlushMappedNamedBufferRange(GLuint, GLintptr, GLsizeiptr) {
    unsized("glFlushMappedNamedBufferRange", "desktop GL");
}
void glFlushMappedNamedBufferRangeEXT(GLuint, GLintptr, GLsizeiptr) {
    unsized("glFlushMappedNamedBufferRangeEXT", "desktop GL");
}
void glGetNamedBufferPointerv(GLuint, GLenum, void**) { unsized("glGetNamedBufferPointerv", "desktop GL"); }
void glGetNamedBufferPointervEXT(GLuint, GLenum, void**) { unsized("glGetNamedBufferPointervEXT", "desktop GL"); }
void glExtGetBufferPointervQCOM(GLenum, void**) { unsized("glExtGetBufferPointervQCOM", "vendor extension"); }

// Other pointer-valued queries of desktop and vendor extensions.
void glGetPointerIndexedvEXT(GLenum, GLuint, void**) { unsized("glGetPointerIndexedvEXT", "desktop GL"); }
void glGetPointeri_vEXT(GLenum, GLuint, void**) { unsized("glGetPointeri_vEXT", "desktop GL"); }
void glGetTexParameterPointervAPPLE(GLenum, GLenum, void**) {
    unsized("glGetTexParameterPointervAPPLE", "vendor extension");
}
void glGetVariantPointervEXT(GLuint, GLenum, void**) { unsized("glGetVariantPointervEXT", "desktop GL"); }
void glGetVertexArrayPointeri_vEXT(GLuint, GLuint, GLenum, void**) {
    unsized("glGetVertexArrayPointeri_vEXT", "desktop GL");
}
void glGetVertexArrayPointervEXT(GLuint, GLenum, void**) { unsized("glGetVertexArrayPointervEXT", "desktop GL"); }
GLsync glCreateSyncFromCLeventARB(struct _cl_context*, struct _cl_event*, GLbitfield) {
    unsized("glCreateSyncFromCLeventARB", "OpenCL handles are client-process pointers");
    return nullptr;
}
GLVULKANPROCNV glGetVkProcAddrNV(const GLchar*) {
    unsized("glGetVkProcAddrNV", "Vulkan functions are client-process pointers");
    return nullptr;
}

}  // namespace mgl_custom
