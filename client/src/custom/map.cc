// Buffer mapping (GLES 3 glMapBufferRange, GL_OES_mapbuffer glMapBufferOES).
//
// A mapping is client memory. Its initial contents, when the application may
// read them (GL_MAP_READ_BIT) or when bytes it does not write must survive (a
// write map without GL_MAP_INVALIDATE_*_BIT), come from the client's copy of
// the buffer (BufferInfo::shadow) when it has one, else from the server with
// mglReadBufferRange (one round trip, and the server waits for the GPU's use
// of the buffer). The first such write map of a buffer the server never
// writes fetches the whole buffer and keeps it as the copy, so that the
// pattern of glmark2's buffer scene (glMapBuffer(GL_WRITE_ONLY) of a vertex
// buffer every frame) costs no round trip after the first frame. What the
// application wrote goes back with glBufferSubData at glFlushMappedBufferRange
// (explicit flushes) or at glUnmapBuffer: only the changed spans when the old
// contents are known, the whole range otherwise. Invalidating write maps, the
// usual streaming pattern, cost no round trip either.
//
// Buffers with immutable storage (glBufferStorage) are the exception: they
// map in the server driver's own memory (map_on_host), so that persistent
// and coherent mappings work as GL says.
#include <algorithm>
#include <cstring>

#include "buffer_rules.h"
#include "custom/common.h"

namespace mgl::client {

namespace {

constexpr int64_t kDiffGranule = 64;
constexpr GLbitfield kMapPersistent = 0x0040, kMapCoherent = 0x0080;  // GL_MAP_PERSISTENT_BIT, GL_MAP_COHERENT_BIT

// The mapping's old contents, to send only what changed: the client's copy
// of the buffer (kept current by send_range) or the snapshot fetched at map
// time; null when unknown (an invalidating map).
uint8_t* map_base(BufferInfo& b) {
    if (b.map_from_shadow && b.shadow_valid && b.map_offset + b.map_length <= int64_t(b.shadow.size()))
        return b.shadow.data() + b.map_offset;
    if (b.map_snapshot.size() == size_t(b.map_length)) return b.map_snapshot.data();
    return nullptr;
}

// Sends the bytes of [from, to) of the mapping that differ from its old
// contents (or all of them when those are unknown), keeping the client's copy
// of the buffer equal to what the server now holds.
void send_range(Context& ctx, GLenum target, BufferInfo& b, int64_t from, int64_t to) {
    from = std::clamp<int64_t>(from, 0, b.map_length);
    to = std::clamp<int64_t>(to, from, b.map_length);
    if (to <= from) return;
    const uint8_t* cur = b.map_ptr;
    uint8_t* old = map_base(b);
    uint8_t* copy = b.shadow_valid && b.map_offset + b.map_length <= int64_t(b.shadow.size())
                        ? b.shadow.data() + b.map_offset
                        : nullptr;
    auto sent = [&](int64_t a, int64_t e) {
        ctx.enc->glBufferSubData(target, b.map_offset + a, e - a, wire::Blob{cur + a, uint32_t(e - a)});
        if (old) std::memcpy(old + a, cur + a, size_t(e - a));
        if (copy && copy != old) std::memcpy(copy + a, cur + a, size_t(e - a));
    };
    if (!old) {
        sent(from, to);
        return;
    }
    int64_t run_start = -1, run_end = -1;
    auto emit = [&]() {
        if (run_start < 0) return;
        sent(run_start, run_end);
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

// Fills the mapping of [offset, offset + length) with the buffer's contents:
// from the client's copy, else from the server (keeping a copy of the whole
// buffer when `keep` allows it). The group's mutex is held on entry and on
// return (released while waiting for the server). false: the server's reply
// was unusable (logged).
bool fill_mapping(Context& ctx, std::unique_lock<std::mutex>& g, const char* verb, GLenum target, BufferInfo& b,
                  bool keep) {
    const int64_t offset = b.map_offset, length = b.map_length;
    if (b.shadow_valid && offset + length <= int64_t(b.shadow.size())) {
        std::memcpy(b.map_storage.data(), b.shadow.data() + offset, size_t(length));
        b.map_from_shadow = true;
        b.keep_shadow = b.keep_shadow || keep;  // a first specification's copy now serves maps: keep it
        ++ctx.counters.local_maps;
        return true;
    }
    keep = keep && !b.server_writes && b.size >= 0 && b.size <= std::min(kMaxShadowBytes, kMaxArrayBytes) &&
           ctx.group->shadow_bytes - int64_t(b.shadow.size()) + b.size <= ShareGroup::kShadowBudgetBytes;
    const int64_t from = keep ? 0 : offset, bytes = keep ? b.size : length;
    std::vector<uint8_t> fetched(static_cast<size_t>(bytes));
    g.unlock();
    ctx.enc->mglReadBufferRange(target, from, bytes, uint32_t(bytes));
    std::span<const uint8_t> rep = wait(ctx);
    const bool ok = gen::read_reply_mglReadBufferRange(rep, fetched.data(), uint32_t(bytes));
    if (!ok) reply_failed(ctx, verb, rep);
    g.lock();
    if (!ok) return false;
    std::memcpy(b.map_storage.data(), fetched.data() + (offset - from), size_t(length));
    if (keep && set_shadow(*ctx.group, b, std::move(fetched), ShareGroup::kShadowBudgetBytes)) {
        b.keep_shadow = true;
        b.map_from_shadow = true;
    } else {
        b.map_snapshot = std::move(fetched);
    }
    return true;
}

// Maps a buffer with immutable storage (glBufferStorage) in the server
// driver's own memory: the server returns the driver's address, which only a
// client in its address space can use (inproc, direct; other sessions are not
// offered buffer storage). A persistent, coherent mapping then behaves as on
// a native driver: the application's writes are where the driver reads. The
// driver checks the request as glMapBufferRange does; a refusal is its GL
// error. The group's mutex is held on entry and on return.
void* map_on_host(Context& ctx, std::unique_lock<std::mutex>& g, const char* verb, GLenum target, uint32_t name,
                  GLintptr offset, GLsizeiptr length, GLbitfield access) {
    g.unlock();
    ctx.enc->mglMapBufferHost(target, offset, length, access);
    std::span<const uint8_t> rep = wait(ctx);
    GLuint64 address = 0;
    const bool ok = gen::read_reply_mglMapBufferHost(rep, &address);
    if (!ok) reply_failed(ctx, verb, rep);
    g.lock();
    if (!ok || !address) return nullptr;
    BufferInfo& b = ctx.group->buffers[name];
    b.map_ptr = reinterpret_cast<uint8_t*>(uintptr_t(address));
    b.map_on_host = true;
    b.map_offset = offset;
    b.map_length = length;
    b.map_access = access;
    return b.map_ptr;
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
    {
        std::unique_lock<std::mutex> g(ctx->group->mu);
        BufferInfo& b = ctx->group->buffers[name];
        if (b.map_ptr) {
            gl_error(*ctx, GL_INVALID_OPERATION, verb);
            return nullptr;
        }
        // Immutable storage, and persistent or coherent access (which only
        // immutable storage allows: the driver says so), map in the driver.
        if (b.immutable || (access & (kMapPersistent | kMapCoherent)))
            return map_on_host(*ctx, g, verb, target, name, offset, length, access);
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
    b.map_from_shadow = false;
    const bool invalidate = access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (length > 0 && ((access & GL_MAP_READ_BIT) || !invalidate)) {
        const bool write = access & GL_MAP_WRITE_BIT;
        if (fill_mapping(*ctx, g, verb, target, b, /*keep=*/write) && !write) b.map_snapshot.clear();
    }
    b.map_ptr = b.map_storage.data();
    return b.map_ptr;
}

}  // namespace

// GL refuses copies, reads and sub-data writes of a buffer mapped other than
// persistently (INVALID_OPERATION). A mapping of the client's own copy is
// known only here: these verbs are checked before they are sent.
bool mapped_exclusively(Context& ctx, GLenum target) {
    const uint32_t name = ctx.st.bound_buffer(target);
    if (!name) return false;
    std::lock_guard<std::mutex> g(ctx.group->mu);
    auto it = ctx.group->buffers.find(name);
    return it != ctx.group->buffers.end() && mapped_exclusively(it->second);
}

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
    if (b.map_on_host) {
        ctx->enc->mglFlushBufferHost(target, offset, length);
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
    if (b.map_on_host) ctx->enc->mglUnmapBufferHost(target);
    else if ((b.map_access & GL_MAP_WRITE_BIT) && !(b.map_access & GL_MAP_FLUSH_EXPLICIT_BIT))
        send_range(*ctx, target, b, 0, b.map_length);
    b.map_on_host = false;
    b.map_ptr = nullptr;
    b.map_from_shadow = false;
    b.map_storage = {};
    b.map_snapshot = {};
    return GL_TRUE;
}

void glCopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset, GLintptr writeOffset,
                         GLsizeiptr size) {
    MGL_CTX_OR_RETURN("glCopyBufferSubData");
    if (mapped_exclusively(*ctx, readTarget) || mapped_exclusively(*ctx, writeTarget)) {
        gl_error(*ctx, GL_INVALID_OPERATION, "glCopyBufferSubData");
        return;
    }
    ctx->enc->glCopyBufferSubData(readTarget, writeTarget, readOffset, writeOffset, size);
    mark_server_writes(*ctx, ctx->st.bound_buffer(writeTarget));  // the destination's copy is stale now
}

void glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void* data) {
    MGL_CTX_OR_RETURN("glGetBufferSubData");
    if (offset < 0 || size < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glGetBufferSubData");
        return;
    }
    if (size > kMaxArrayBytes) {
        gl_error(*ctx, GL_OUT_OF_MEMORY, "glGetBufferSubData");
        return;
    }
    if (mapped_exclusively(*ctx, target)) {
        gl_error(*ctx, GL_INVALID_OPERATION, "glGetBufferSubData");
        return;
    }
    // GL writes nothing into `data` on an error, but the reply always carries
    // `size` bytes: the range is checked here, by the front end's rule, where
    // the client knows the store's size (the server checks it again).
    if (const uint32_t name = ctx->st.bound_buffer(target); name != 0) {
        std::lock_guard<std::mutex> g(ctx->group->mu);
        auto it = ctx->group->buffers.find(name);
        if (it != ctx->group->buffers.end() && it->second.size >= 0) {
            mgl::gl::BufferStore store;
            store.size = it->second.size;
            if (const mgl::gl::RuleError e = mgl::gl::check_get_buffer_sub_data(store, offset, size)) {
                gl_error(*ctx, e.error, "glGetBufferSubData");
                return;
            }
        }
    }
    ctx->enc->glGetBufferSubData(target, offset, size, uint32_t(size));
    ++ctx->counters.round_trips;
    std::span<const uint8_t> rep = wait(*ctx);
    if (!gen::read_reply_glGetBufferSubData(rep, static_cast<uint8_t*>(data), uint32_t(size)))
        reply_failed(*ctx, "glGetBufferSubData", rep);
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
