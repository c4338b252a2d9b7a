// Vertex arrays and draws.
//
// Client-memory arrays (glVertexAttribPointer with no GL_ARRAY_BUFFER bound)
// and client-memory indices never cost a round trip: at each draw the client
// copies the ranges the draw reads into a stream buffer it owns (a buffer
// name it minted), with glBufferSubData, and points the attributes (or the
// indices) at offsets in it. The stream buffer is a ring: when it wraps it is
// orphaned with glBufferData so that draws still in flight keep their data.
//
// The index range a draw reads is known from glDrawRangeElements, computed
// from client indices, or from the client's copy of an element array buffer
// (buffers bound to GL_ELEMENT_ARRAY_BUFFER keep a shadow of their data).
#include <algorithm>
#include <cstring>
#include <limits>

#include "compat/ff_gate.h"
#include "compat/program_builtins.h"
#include "custom/common.h"

namespace mgl::client {

namespace {

constexpr int64_t kStreamInitialBytes = 1 << 20;

// Space for `bytes` bytes in `s` (bound to `target` on the server), at an
// offset >= min_offset congruent to `phase` modulo 16 (so that data keeps
// the alignment it had in client memory).
int64_t stream_alloc(Context& ctx, StreamBuffer& s, GLenum target, int64_t bytes, int64_t min_offset, uint64_t phase) {
    gen::Encoder& e = *ctx.enc;
    if (!s.name) {
        s.name = mint_one(ctx, MintKind::buffer);
        e.glGenBuffers(1, wire::Blob{&s.name, 4});
    }
    e.glBindBuffer(target, s.name);
    auto place = [&](int64_t from) {
        int64_t off = std::max(from, min_offset);
        const int64_t want = int64_t(phase % 16);
        off += (want - off % 16 + 16) % 16;
        return off;
    };
    int64_t off = place(s.cursor);
    if (off + bytes > s.capacity) {
        int64_t cap = std::max(s.capacity, kStreamInitialBytes);
        while (place(0) + bytes > cap) cap *= 2;
        // Orphan: the draws already encoded keep the old storage.
        e.glBufferData(target, cap, wire::Blob{nullptr, 0}, GL_STREAM_DRAW);  // orphan: no data travels
        s.capacity = cap;
        off = place(0);
    }
    s.cursor = off + bytes;
    return off;
}

bool has_client_arrays(const Context& ctx) {
    for (const VertexAttrib& a : const_cast<Context&>(ctx).st.vao().attribs)
        if (a.enabled && a.buffer == 0) return true;
    return false;
}

struct Piece {
    GLuint index;
    const uint8_t* lo;  // first byte the draw reads
    const uint8_t* hi;  // one past the last
};

// Uploads what the enabled client arrays hold for vertices [first, last] and
// `instances` instances, and repoints them into the vertex stream. Leaves
// GL_ARRAY_BUFFER bound to the stream buffer on the server (the caller
// restores the application's binding after the draw).
bool upload_client_arrays(Context& ctx, int64_t first, int64_t last, int64_t instances) {
    std::vector<Piece> pieces;
    auto& attribs = ctx.st.vao().attribs;
    for (GLuint i = 0; i < attribs.size(); ++i) {
        const VertexAttrib& a = attribs[i];
        if (!a.enabled || a.buffer != 0 || !a.pointer) continue;
        const int64_t elem = attrib_bytes(a.size, a.type);
        if (elem <= 0) continue;
        const int64_t stride = a.stride ? a.stride : elem;
        int64_t lo_v = first, hi_v = last;
        if (a.divisor) {
            lo_v = 0;
            hi_v = instances > 0 ? (instances - 1) / a.divisor : -1;
        }
        if (hi_v < lo_v) continue;
        const uint8_t* p = static_cast<const uint8_t*>(a.pointer);
        pieces.push_back({i, p + lo_v * stride, p + hi_v * stride + elem});
    }
    if (pieces.empty()) return false;
    std::sort(pieces.begin(), pieces.end(), [](const Piece& x, const Piece& y) { return x.lo < y.lo; });
    gen::Encoder& e = *ctx.enc;
    for (size_t g = 0; g < pieces.size();) {
        // Interleaved attributes read overlapping ranges: one upload for all.
        size_t end = g + 1;
        const uint8_t* lo = pieces[g].lo;
        const uint8_t* hi = pieces[g].hi;
        while (end < pieces.size() && pieces[end].lo <= hi + 256) hi = std::max(hi, pieces[end].hi), ++end;
        int64_t min_offset = 0;
        for (size_t k = g; k < end; ++k) {
            const uint8_t* p = static_cast<const uint8_t*>(attribs[pieces[k].index].pointer);
            min_offset = std::max<int64_t>(min_offset, lo - p);
        }
        const int64_t bytes = hi - lo;
        if (bytes > kMaxArrayBytes) {
            gl_error(ctx, GL_OUT_OF_MEMORY, "draw (client arrays)");
            return true;
        }
        const int64_t off = stream_alloc(ctx, ctx.vertex_stream, GL_ARRAY_BUFFER, bytes, min_offset,
                                         uint64_t(reinterpret_cast<uintptr_t>(lo)));
        e.glBufferSubData(GL_ARRAY_BUFFER, off, bytes, wire::Blob{lo, uint32_t(bytes)});
        ctx.counters.client_bytes += uint64_t(bytes);
        for (size_t k = g; k < end; ++k) {
            const VertexAttrib& a = attribs[pieces[k].index];
            const uint64_t at = uint64_t(off + (static_cast<const uint8_t*>(a.pointer) - lo));
            if (a.integer)
                e.glVertexAttribIPointer(pieces[k].index, a.size, a.type, a.stride, wire::OffsetOrBlob{at, nullptr, 0});
            else
                e.glVertexAttribPointer(pieces[k].index, a.size, a.type, a.normalized, a.stride,
                                        wire::OffsetOrBlob{at, nullptr, 0});
        }
        g = end;
    }
    ++ctx.counters.client_uploads;
    return true;
}

template <class T>
void scan(const uint8_t* p, int64_t count, bool restart, T restart_index, int64_t* mn, int64_t* mx) {
    T lo = std::numeric_limits<T>::max(), hi = 0;
    bool any = false;
    for (int64_t k = 0; k < count; ++k) {
        T v;
        std::memcpy(&v, p + k * int64_t(sizeof(T)), sizeof(T));
        if (restart && v == restart_index) continue;
        lo = std::min(lo, v), hi = std::max(hi, v), any = true;
    }
    *mn = any ? int64_t(lo) : 0;
    *mx = any ? int64_t(hi) : -1;
}

// The smallest and largest index a draw reads. false: unknown (logged).
bool index_range(Context& ctx, int64_t count, GLenum type, const void* indices, int64_t* mn, int64_t* mx) {
    const int64_t bytes = cs_indices(count, type);
    const uint8_t* p = static_cast<const uint8_t*>(indices);
    std::vector<uint8_t> fetched;
    const uint32_t ebo = ctx.st.vao().element_buffer;
    if (ebo) {
        const int64_t offset = int64_t(reinterpret_cast<uintptr_t>(indices));
        {
            std::lock_guard<std::mutex> g(ctx.group->mu);
            BufferInfo& b = ctx.group->buffers[ebo];
            if (b.shadow_valid && offset + bytes <= int64_t(b.shadow.size())) {
                fetched.assign(b.shadow.begin() + offset, b.shadow.begin() + offset + bytes);
            }
        }
        if (fetched.empty() && bytes > 0) {
            // No copy of that buffer's data: ask the server (one round trip).
            if (first_time("index-fetch"))
                log().info("draw with client vertex arrays reads indices from a buffer the client has no copy of: "
                           "fetching them (a round trip per such draw)");
            fetched.resize(size_t(bytes));
            ctx.enc->mglReadBufferRange(GL_ELEMENT_ARRAY_BUFFER, offset, bytes, uint32_t(bytes));
            std::span<const uint8_t> rep = wait(ctx);
            if (!gen::read_reply_mglReadBufferRange(rep, fetched.data(), uint32_t(bytes))) {
                reply_failed(ctx, "mglReadBufferRange", rep);
                return false;
            }
        }
        p = fetched.data();
    }
    bool restart = false;
    ctx.st.cap(GL_PRIMITIVE_RESTART_FIXED_INDEX, &restart);
    switch (type) {
        case GL_UNSIGNED_BYTE: scan<uint8_t>(p, count, restart, 0xFF, mn, mx); return true;
        case GL_UNSIGNED_SHORT: scan<uint16_t>(p, count, restart, 0xFFFF, mn, mx); return true;
        case GL_UNSIGNED_INT: scan<uint32_t>(p, count, restart, 0xFFFFFFFFu, mn, mx); return true;
        default: return false;
    }
}

// ARB_draw_instanced: an instanced draw is not compiled into a display list
// but refused (GL_INVALID_OPERATION), as Mesa does.
bool instanced_in_list(Context& ctx, const char* verb) {
    if (!ctx.ff || !compat::top_compile(*ctx.ff)) return false;
    gl_error(ctx, GL_INVALID_OPERATION, verb);
    return true;
}

// Shared by every glDrawElements* hook. `range` (start, end) when the
// application gave one. `encode` writes the draw with the final indices argument.
template <class Encode>
void draw_elements(Context& ctx, const char* verb, GLsizei count, GLenum type, const void* indices,
                   int64_t instances, int64_t basevertex, const int64_t* range, Encode encode) {
    if (count < 0 || instances < 0) {
        gl_error(ctx, GL_INVALID_VALUE, verb);
        return;
    }
    const int64_t bytes = cs_indices(count, type);
    if (bytes < 0) {
        compsize_failed(ctx, verb, "indices", bytes);
        return;
    }
    compat::upload_program_builtins(ctx);  // compatibility: gl_ModelViewMatrix... of the application's program
    bool uploaded_vertices = false;
    if (has_client_arrays(ctx) && count > 0) {
        int64_t mn = 0, mx = -1;
        if (range) mn = range[0], mx = range[1];
        else if (!index_range(ctx, count, type, indices, &mn, &mx)) return;
        uploaded_vertices = upload_client_arrays(ctx, mn + basevertex, mx + basevertex, instances);
    }
    wire::OffsetOrBlob ind{};
    bool uploaded_indices = false;
    if (ctx.st.vao().element_buffer) {
        ind.offset = uint64_t(reinterpret_cast<uintptr_t>(indices));
    } else if (indices && bytes > 0) {
        const int64_t elem = bytes / std::max<int64_t>(count, 1);
        const int64_t off = stream_alloc(ctx, ctx.index_stream, GL_ELEMENT_ARRAY_BUFFER, bytes, 0,
                                         uint64_t(reinterpret_cast<uintptr_t>(indices)) % uint64_t(elem));
        ctx.enc->glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, off, bytes, wire::Blob{indices, uint32_t(bytes)});
        ctx.counters.client_bytes += uint64_t(bytes);
        ind.offset = uint64_t(off);
        uploaded_indices = true;
    }
    encode(ind);
    if (uploaded_vertices) ctx.enc->glBindBuffer(GL_ARRAY_BUFFER, ctx.st.bound_buffer(GL_ARRAY_BUFFER));
    if (uploaded_indices) ctx.enc->glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
}

}  // namespace

BufferInfo* buffer_info(Context& ctx, uint32_t name) { return &ctx.group->buffers[name]; }

void stream_reserve(Context& ctx, int64_t bytes) {
    StreamBuffer& s = ctx.vertex_stream;
    s.cursor = stream_alloc(ctx, s, GL_ARRAY_BUFFER, bytes, 0, 0);  // orphans now if it must, then gives the room back
}

int64_t stream_upload(Context& ctx, const void* data, int64_t bytes) {
    const int64_t off = stream_alloc(ctx, ctx.vertex_stream, GL_ARRAY_BUFFER, bytes, 0, 0);
    ctx.enc->glBufferSubData(GL_ARRAY_BUFFER, off, bytes, wire::Blob{data, uint32_t(bytes)});
    ctx.counters.client_bytes += uint64_t(bytes);
    return off;
}

void buffer_data_hook(Context& ctx, GLenum target, GLsizeiptr size, const void* data, GLenum usage) {
    const uint32_t name = ctx.st.bound_buffer(target);
    if (!name) return;
    std::lock_guard<std::mutex> g(ctx.group->mu);
    BufferInfo& b = ctx.group->buffers[name];
    if (b.immutable) return;  // the server refuses it (GL_INVALID_OPERATION): nothing changes
    b.size = size;
    b.usage = usage;
    if (b.map_ptr) {  // glBufferData unmaps
        b.map_ptr = nullptr;
        b.map_storage.clear();
        b.map_snapshot.clear();
        b.map_from_shadow = false;
    }
    const bool first = !b.specified;
    b.specified = true;
    ShareGroup& grp = *ctx.group;
    drop_shadow(grp, b);
    if (size > kMaxShadowBytes || b.server_writes) return;
    if (target == GL_ELEMENT_ARRAY_BUFFER || b.keep_shadow)
        set_shadow(grp, b, data, size, ShareGroup::kShadowBudgetBytes);
    else if (first && data)
        set_shadow(grp, b, data, size, ShareGroup::kAutoShadowBytes);
}

bool buffer_sub_data_hook(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, const void* data) {
    const uint32_t name = ctx.st.bound_buffer(target);
    if (!name) return true;
    std::lock_guard<std::mutex> g(ctx.group->mu);
    auto it = ctx.group->buffers.find(name);
    if (it == ctx.group->buffers.end()) return true;
    BufferInfo& b = it->second;
    if (mapped_exclusively(b)) return false;
    if (!b.shadow_valid) return true;
    if (offset >= 0 && size >= 0 && offset + size <= int64_t(b.shadow.size())) {
        if (data) std::memcpy(b.shadow.data() + offset, data, size_t(size));
        else std::memset(b.shadow.data() + offset, 0, size_t(size));  // the wire sends zeros
    } else {
        drop_shadow(*ctx.group, b);
    }
    return true;
}

}  // namespace mgl::client

namespace mgl_custom {

void glBufferData(GLenum target, GLsizeiptr size, const void* data, GLenum usage) {
    MGL_CTX_OR_RETURN("glBufferData");
    if (size < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glBufferData");
        return;
    }
    if (size > kMaxArrayBytes) {
        gl_error(*ctx, GL_OUT_OF_MEMORY, "glBufferData");
        return;
    }
    buffer_data_hook(*ctx, target, size, data, usage);
    ctx->enc->glBufferData(target, size, wire::Blob{data, data ? uint32_t(size) : 0u}, usage);  // NULL: storage only
}

void glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void* data) {
    MGL_CTX_OR_RETURN("glBufferSubData");
    if (offset < 0 || size < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glBufferSubData");
        return;
    }
    if (size > kMaxArrayBytes) {
        gl_error(*ctx, GL_OUT_OF_MEMORY, "glBufferSubData");
        return;
    }
    if (!buffer_sub_data_hook(*ctx, target, offset, size, data)) {
        gl_error(*ctx, GL_INVALID_OPERATION, "glBufferSubData");  // mapped
        return;
    }
    ctx->enc->glBufferSubData(target, offset, size, wire::Blob{data ? data : zeros(size), uint32_t(size)});
}

namespace {
constexpr GLenum kUnsignedInt10f11f11fRev = 0x8C3B;

void attrib_pointer(const char* verb, GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                    const void* pointer, bool integer) {
    MGL_CTX_OR_RETURN(verb);
    auto& attribs = ctx->st.vao().attribs;
    // GL_BGRA (GL 3.2, ARB_vertex_array_bgra): a desktop size of float attributes.
    const bool bgra = size == GL_BGRA_EXT && !integer && ctx->api_kind != gen::ApiKind::es;
    if (index >= attribs.size() || (!bgra && (size < 1 || size > 4)) || stride < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, verb);
        return;
    }
    const bool packed = type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV;
    const bool packed_float = type == kUnsignedInt10f11f11fRev;  // GL 4.4, desktop float attributes only
    if (attrib_bytes(size, type) < 0 || (integer && (packed || packed_float)) ||
        (packed_float && ctx->api_kind == gen::ApiKind::es)) {
        gl_error(*ctx, GL_INVALID_ENUM, verb);
        return;
    }
    // GL 4.6 §10.3.1's size rules of BGRA and the packed types.
    if ((bgra && ((type != GL_UNSIGNED_BYTE && !packed) || !normalized)) || (packed && size != 4 && !bgra) ||
        (packed_float && size != 3)) {
        gl_error(*ctx, GL_INVALID_OPERATION, verb);
        return;
    }
    const uint32_t buffer = ctx->st.bound_buffer(GL_ARRAY_BUFFER);
    if (!buffer && ctx->st.vao_name() != 0 && pointer) {
        // GL ES 3.0 §2.9.6: no client arrays with a vertex array object bound.
        gl_error(*ctx, GL_INVALID_OPERATION, verb);
        return;
    }
    VertexAttrib& a = attribs[index];
    a.size = size;
    a.type = type;
    a.normalized = normalized != GL_FALSE;
    a.integer = integer;
    a.stride = stride;
    a.pointer = pointer;
    a.buffer = buffer;
    if (!buffer) return;  // client memory: sent with the draws that read it
    const wire::OffsetOrBlob off{uint64_t(reinterpret_cast<uintptr_t>(pointer)), nullptr, 0};
    if (integer) ctx->enc->glVertexAttribIPointer(index, size, type, stride, off);
    else ctx->enc->glVertexAttribPointer(index, size, type, normalized, stride, off);
}
}  // namespace

void glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                           const void* pointer) {
    attrib_pointer("glVertexAttribPointer", index, size, type, normalized, stride, pointer, false);
}

void glVertexAttribIPointer(GLuint index, GLint size, GLenum type, GLsizei stride, const void* pointer) {
    attrib_pointer("glVertexAttribIPointer", index, size, type, GL_FALSE, stride, pointer, true);
}

void glEnableVertexAttribArray(GLuint index) {
    MGL_CTX_OR_RETURN("glEnableVertexAttribArray");
    auto& attribs = ctx->st.vao().attribs;
    if (index >= attribs.size()) {
        gl_error(*ctx, GL_INVALID_VALUE, "glEnableVertexAttribArray");
        return;
    }
    attribs[index].enabled = true;
    ctx->enc->glEnableVertexAttribArray(index);
}

void glDisableVertexAttribArray(GLuint index) {
    MGL_CTX_OR_RETURN("glDisableVertexAttribArray");
    auto& attribs = ctx->st.vao().attribs;
    if (index >= attribs.size()) {
        gl_error(*ctx, GL_INVALID_VALUE, "glDisableVertexAttribArray");
        return;
    }
    attribs[index].enabled = false;
    ctx->enc->glDisableVertexAttribArray(index);
}

void glVertexAttribDivisor(GLuint index, GLuint divisor) {
    MGL_CTX_OR_RETURN("glVertexAttribDivisor");
    auto& attribs = ctx->st.vao().attribs;
    if (index >= attribs.size()) {
        gl_error(*ctx, GL_INVALID_VALUE, "glVertexAttribDivisor");
        return;
    }
    attribs[index].divisor = divisor;
    ctx->enc->glVertexAttribDivisor(index, divisor);
}

// ---- draws ----

void glDrawArrays(GLenum mode, GLint first, GLsizei count) {
    MGL_CTX_OR_RETURN("glDrawArrays");
    if (first < 0 || count < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glDrawArrays");
        return;
    }
    if (compat::ff_draw_arrays(*ctx, mode, first, count)) return;
    compat::upload_program_builtins(*ctx);
    const bool up = count > 0 && has_client_arrays(*ctx) &&
                    upload_client_arrays(*ctx, first, int64_t(first) + count - 1, 1);
    ctx->enc->glDrawArrays(mode, first, count);
    if (up) ctx->enc->glBindBuffer(GL_ARRAY_BUFFER, ctx->st.bound_buffer(GL_ARRAY_BUFFER));
}

void glDrawArraysInstanced(GLenum mode, GLint first, GLsizei count, GLsizei instancecount) {
    MGL_CTX_OR_RETURN("glDrawArraysInstanced");
    if (instanced_in_list(*ctx, "glDrawArraysInstanced")) return;
    if (first < 0 || count < 0 || instancecount < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glDrawArraysInstanced");
        return;
    }
    if (compat::ff_draw_arrays(*ctx, mode, first, count, instancecount)) return;
    compat::upload_program_builtins(*ctx);
    const bool up = count > 0 && has_client_arrays(*ctx) &&
                    upload_client_arrays(*ctx, first, int64_t(first) + count - 1, instancecount);
    ctx->enc->glDrawArraysInstanced(mode, first, count, instancecount);
    if (up) ctx->enc->glBindBuffer(GL_ARRAY_BUFFER, ctx->st.bound_buffer(GL_ARRAY_BUFFER));
}

void glDrawElements(GLenum mode, GLsizei count, GLenum type, const void* indices) {
    MGL_CTX_OR_RETURN("glDrawElements");
    if (compat::ff_draw_elements(*ctx, mode, count, type, indices)) return;
    draw_elements(*ctx, "glDrawElements", count, type, indices, 1, 0, nullptr,
                  [&](wire::OffsetOrBlob ind) { ctx->enc->glDrawElements(mode, count, type, ind); });
}

// The multi-draws are, by GL's definition (4.6 §10.4), their single draws
// one after another; so they are sent, which gives each one its client
// arrays and indices, the compatibility lowering, and display-list
// compilation (a list records the single draws). A negative count refuses
// the whole call, as Mesa does.
namespace {
// Whether a multi-draw goes on: false for nothing to draw or after raising
// GL_INVALID_VALUE (a negative drawcount or count, a missing array).
bool multi_draw_ok(Context& ctx, const char* verb, GLsizei drawcount, const GLsizei* count, bool arrays) {
    if (drawcount < 0 || (drawcount > 0 && (!count || !arrays))) return gl_error(ctx, GL_INVALID_VALUE, verb), false;
    for (GLsizei i = 0; i < drawcount; ++i)
        if (count[i] < 0) return gl_error(ctx, GL_INVALID_VALUE, verb), false;
    return drawcount > 0;
}
}  // namespace

void glMultiDrawArrays(GLenum mode, const GLint* first, const GLsizei* count, GLsizei drawcount) {
    MGL_CTX_OR_RETURN("glMultiDrawArrays");
    if (!multi_draw_ok(*ctx, "glMultiDrawArrays", drawcount, count, first)) return;
    for (GLsizei i = 0; i < drawcount; ++i) mgl_glDrawArrays(mode, first[i], count[i]);
}

void glMultiDrawElements(GLenum mode, const GLsizei* count, GLenum type, const void* const* indices, GLsizei drawcount) {
    MGL_CTX_OR_RETURN("glMultiDrawElements");
    if (!multi_draw_ok(*ctx, "glMultiDrawElements", drawcount, count, indices)) return;
    for (GLsizei i = 0; i < drawcount; ++i) mgl_glDrawElements(mode, count[i], type, indices[i]);
}

void glMultiDrawElementsBaseVertex(GLenum mode, const GLsizei* count, GLenum type, const void* const* indices,
                                   GLsizei drawcount, const GLint* basevertex) {
    MGL_CTX_OR_RETURN("glMultiDrawElementsBaseVertex");
    if (!multi_draw_ok(*ctx, "glMultiDrawElementsBaseVertex", drawcount, count, indices && basevertex)) return;
    for (GLsizei i = 0; i < drawcount; ++i) mgl_glDrawElementsBaseVertex(mode, count[i], type, indices[i], basevertex[i]);
}

void glDrawElementsInstanced(GLenum mode, GLsizei count, GLenum type, const void* indices, GLsizei instancecount) {
    MGL_CTX_OR_RETURN("glDrawElementsInstanced");
    if (instanced_in_list(*ctx, "glDrawElementsInstanced")) return;
    if (count >= 0 && instancecount >= 0 && compat::ff_draw_elements(*ctx, mode, count, type, indices, 0, instancecount)) return;
    draw_elements(*ctx, "glDrawElementsInstanced", count, type, indices, instancecount, 0, nullptr,
                  [&](wire::OffsetOrBlob ind) { ctx->enc->glDrawElementsInstanced(mode, count, type, ind, instancecount); });
}

void glDrawRangeElements(GLenum mode, GLuint start, GLuint end, GLsizei count, GLenum type, const void* indices) {
    MGL_CTX_OR_RETURN("glDrawRangeElements");
    if (compat::ff_draw_elements(*ctx, mode, count, type, indices)) return;
    if (end < start) {
        gl_error(*ctx, GL_INVALID_VALUE, "glDrawRangeElements");
        return;
    }
    const int64_t range[2] = {start, end};
    draw_elements(*ctx, "glDrawRangeElements", count, type, indices, 1, 0, range,
                  [&](wire::OffsetOrBlob ind) { ctx->enc->glDrawRangeElements(mode, start, end, count, type, ind); });
}

void glDrawElementsBaseVertex(GLenum mode, GLsizei count, GLenum type, const void* indices, GLint basevertex) {
    MGL_CTX_OR_RETURN("glDrawElementsBaseVertex");
    if (compat::ff_draw_elements(*ctx, mode, count, type, indices, basevertex)) return;
    draw_elements(*ctx, "glDrawElementsBaseVertex", count, type, indices, 1, basevertex, nullptr,
                  [&](wire::OffsetOrBlob ind) { ctx->enc->glDrawElementsBaseVertex(mode, count, type, ind, basevertex); });
}

void glDrawRangeElementsBaseVertex(GLenum mode, GLuint start, GLuint end, GLsizei count, GLenum type,
                                   const void* indices, GLint basevertex) {
    MGL_CTX_OR_RETURN("glDrawRangeElementsBaseVertex");
    if (compat::ff_draw_elements(*ctx, mode, count, type, indices, basevertex)) return;
    if (end < start) {
        gl_error(*ctx, GL_INVALID_VALUE, "glDrawRangeElementsBaseVertex");
        return;
    }
    const int64_t range[2] = {start, end};
    draw_elements(*ctx, "glDrawRangeElementsBaseVertex", count, type, indices, 1, basevertex, range,
                  [&](wire::OffsetOrBlob ind) {
                      ctx->enc->glDrawRangeElementsBaseVertex(mode, start, end, count, type, ind, basevertex);
                  });
}

void glDrawElementsInstancedBaseVertex(GLenum mode, GLsizei count, GLenum type, const void* indices,
                                       GLsizei instancecount, GLint basevertex) {
    MGL_CTX_OR_RETURN("glDrawElementsInstancedBaseVertex");
    if (instanced_in_list(*ctx, "glDrawElementsInstancedBaseVertex")) return;
    if (count >= 0 && instancecount >= 0 &&
        compat::ff_draw_elements(*ctx, mode, count, type, indices, basevertex, instancecount))
        return;
    draw_elements(*ctx, "glDrawElementsInstancedBaseVertex", count, type, indices, instancecount, basevertex, nullptr,
                  [&](wire::OffsetOrBlob ind) {
                      ctx->enc->glDrawElementsInstancedBaseVertex(mode, count, type, ind, instancecount, basevertex);
                  });
}

}  // namespace mgl_custom
