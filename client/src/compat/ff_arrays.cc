// Client-state arrays (glVertexPointer, glNormalPointer, glColorPointer,
// glSecondaryColorPointer, glFogCoordPointer, glTexCoordPointer per client
// texture unit) and the application's draws that read them while no program
// is bound. Arrays in client memory go through the client's vertex stream
// buffer (the streaming path of client-memory vertex arrays: one
// glBufferSubData per array and draw, never a blocking create); arrays in
// buffer objects are pointed at in place. The draw runs behind the lowering's
// immediate-mode vertex array object, so the application's vertex arrays on
// the server are untouched.
#include <cstring>

#include "compat/ff.h"
#include "compat/ff_gate.h"
#include "custom/common.h"

namespace mgl::client::compat {

namespace {

int array_of(Context& ctx, GLenum array) {
    FixedFunction& f = *ff(ctx);
    switch (array) {
        case 0x8074: return kPos;      // GL_VERTEX_ARRAY
        case 0x8075: return kNormal;   // GL_NORMAL_ARRAY
        case 0x8076: return kColor;    // GL_COLOR_ARRAY
        case 0x845E: return kColor2;   // GL_SECONDARY_COLOR_ARRAY
        case 0x8457: return kFog;      // GL_FOG_COORD_ARRAY
        case 0x8078: return kTex0 + int(std::min<GLenum>(f.client_active_texture - 0x84C0, kMaxTexUnits - 1));
        case 0x8079: return kEdge;     // GL_EDGE_FLAG_ARRAY
        case 0x8077: return kIndex;    // GL_INDEX_ARRAY
        default: return -1;
    }
}

void set_array(const char* verb, int attr, GLint size, GLenum type, GLsizei stride, const void* pointer, bool normalized) {
    MGL_CTX_OR_RETURN(verb);
    FixedFunction* f = ff(*ctx);
    if (!f) {
        profile_error(*ctx, verb);
        return;
    }
    // GL_ARB_vertex_array_bgra (GL 3.2): colour arrays take GL_BGRA as a
    // size, of unsigned bytes or a packed 2_10_10_10 word (GL 4.6 §10.3.2).
    const bool colour = (attr == kColor || attr == kColor2) && !ctx->es1;  // not in OpenGL ES 1.1
    if (stride < 0 || (size == 0x80E1 ? !colour : size < 1 || size > 4)) {
        gl_error(*ctx, GL_INVALID_VALUE, verb);
        return;
    }
    if (size == 0x80E1 && type != GL_UNSIGNED_BYTE && type != 0x8368 && type != 0x8D9F) {  // 2_10_10_10_REV
        gl_error(*ctx, GL_INVALID_OPERATION, verb);
        return;
    }
    // GL_UNSIGNED_INT_10F_11F_11F_REV is for generic attributes only.
    if (attrib_bytes(size, type) < 0 || type == 0x8C3B) {
        gl_error(*ctx, GL_INVALID_ENUM, verb);
        return;
    }
    if (attr == kTex0) attr += int(std::min<GLenum>(f->client_active_texture - 0x84C0, kMaxTexUnits - 1));
    ClientArray& a = f->arrays[size_t(attr)];
    a.size = size;
    a.type = type;
    a.stride = stride;
    a.pointer = pointer;
    a.normalized = normalized && type != GL_FLOAT && type != 0x140A;  // GL_DOUBLE
    a.buffer = ctx->st.bound_buffer(GL_ARRAY_BUFFER);
}

// Points the lowering's vertex array object at the enabled arrays for
// vertices [first, first + count), rebased so that vertex `first` is 0.
void point_arrays(Context& ctx, FixedFunction& f, int64_t first, int64_t count, Layout* l, int64_t extra_bytes = 0) {
    gen::Encoder& e = *ctx.enc;
    // Every client-memory array of the draw (and `extra_bytes`: its indices)
    // fits in the stream before the first is uploaded.
    int64_t total = extra_bytes + 16;
    for (const ClientArray& arr : f.arrays)
        if (arr.enabled && arr.pointer && !arr.buffer) {
            const int64_t elem = attrib_bytes(arr.size, arr.type);
            total += (count - 1) * (arr.stride ? arr.stride : elem) + elem + 16;
        }
    stream_reserve(ctx, total);
    for (int a = 0; a < kAttrCount; ++a) {
        const ClientArray& arr = f.arrays[size_t(a)];
        const bool on = arr.enabled && (arr.pointer || arr.buffer);
        if (on) {
            const int64_t elem = attrib_bytes(arr.size, arr.type);
            const int64_t stride = arr.stride ? arr.stride : elem;
            uint64_t at;
            if (arr.buffer) {
                e.glBindBuffer(GL_ARRAY_BUFFER, arr.buffer);
                at = uint64_t(reinterpret_cast<uintptr_t>(arr.pointer)) + uint64_t(first * stride);
            } else {
                const uint8_t* p = static_cast<const uint8_t*>(arr.pointer) + first * stride;
                at = uint64_t(stream_upload(ctx, p, (count - 1) * stride + elem));
            }
            // A GL_BGRA size goes as it is: each backend reads it as glVertexAttribPointer's.
            e.glVertexAttribPointer(GLuint(a), arr.size, arr.type, arr.normalized, GLsizei(stride),
                                    wire::OffsetOrBlob{at, nullptr, 0});
            l->size[size_t(a)] = arr.components();
        }
        if (on != bool(f.imm_enabled & (1u << a))) {
            if (on) e.glEnableVertexAttribArray(GLuint(a));
            else e.glDisableVertexAttribArray(GLuint(a));
            f.imm_enabled ^= 1u << a;
        }
    }
}

// Whether this draw reads the client-state arrays: always without a program;
// with the application's program, when one is enabled (its shaders read them
// as gl_Vertex..., lowered to these very locations by the shader front end:
// backends/gl/shaders/compat_builtins.cc). The lowering draws through its own
// vertex array object: the application's generic arrays are mirrored into it
// (mirror_generic_arrays).
bool reads_client_arrays(Context& ctx, const FixedFunction& f, GLenum mode) {
    if (!app_program_bound(ctx)) return true;
    for (const ClientArray& a : f.arrays)
        if (a.enabled) return true;
    // The host has no quads or polygons: the lowering's index patterns draw
    // them, from the application's generic arrays.
    return mode >= 0x0007 && mode <= 0x0009;  // GL_QUADS, GL_QUAD_STRIP, GL_POLYGON
}

// Whether a draw has vertices: the fixed-function stage needs the vertex
// array; an application's program draws whatever its inputs hold (GL 4.6
// compatibility §10.3.2: generic attribute 0 or none at all, as Mesa).
bool has_positions(Context& ctx, const FixedFunction& f) {
    return app_program_bound(ctx) || f.arrays[kPos].enabled;
}

// The generic arrays of the application's vertex array object that a draw
// with its program reads beside the client-state ones, and the rows of each:
// per vertex, vertices [first, first + count) (the lowering draws from
// vertex 0); per instance, the instances' rows.
struct GenericRows {
    GLuint index;
    int64_t lo, n, elem, stride;
};
std::vector<GenericRows> generic_rows(Context& ctx, int64_t first, int64_t count, int64_t instances) {
    std::vector<GenericRows> out;
    if (!app_program_bound(ctx)) return out;
    const auto& attribs = ctx.st.vao().attribs;
    for (GLuint i = 0; i < attribs.size() && i < 32; ++i) {
        const VertexAttrib& a = attribs[i];
        if (!a.enabled || (!a.buffer && !a.pointer)) continue;
        const int64_t elem = attrib_bytes(a.size, a.type);
        if (elem <= 0) continue;
        const int64_t stride = a.stride ? a.stride : elem;
        if (a.divisor) out.push_back({i, 0, instances > 0 ? (instances - 1) / a.divisor + 1 : 0, elem, stride});
        else out.push_back({i, first, count, elem, stride});
    }
    return out;
}

int64_t generic_client_bytes(Context& ctx, const std::vector<GenericRows>& rows) {
    int64_t total = 0;
    for (const GenericRows& r : rows)
        if (!ctx.st.vao().attribs[r.index].buffer && r.n > 0) total += (r.n - 1) * r.stride + r.elem + 16;
    return total;
}

// Points the lowering's vertex array object (bound) at the rows: a buffer
// object's at their offset, client memory uploaded into the stream (room
// reserved by point_arrays). A generic array on a location the lowering
// uses wins, as GL's attribute 0 over gl_Vertex.
void mirror_generic_arrays(Context& ctx, FixedFunction& f, const std::vector<GenericRows>& rows) {
    gen::Encoder& e = *ctx.enc;
    const auto& attribs = ctx.st.vao().attribs;
    for (const GenericRows& r : rows) {
        if (r.n <= 0) continue;
        const VertexAttrib& a = attribs[r.index];
        uint64_t at;
        if (a.buffer) {
            e.glBindBuffer(GL_ARRAY_BUFFER, a.buffer);
            at = uint64_t(reinterpret_cast<uintptr_t>(a.pointer)) + uint64_t(r.lo * r.stride);
        } else {
            at = uint64_t(stream_upload(ctx, static_cast<const uint8_t*>(a.pointer) + r.lo * r.stride,
                                        (r.n - 1) * r.stride + r.elem));
        }
        const wire::OffsetOrBlob ptr{at, nullptr, 0};
        if (a.integer) e.glVertexAttribIPointer(r.index, a.size, a.type, GLsizei(r.stride), ptr);
        else e.glVertexAttribPointer(r.index, a.size, a.type, a.normalized, GLsizei(r.stride), ptr);
        e.glEnableVertexAttribArray(r.index);
        if (a.divisor) e.glVertexAttribDivisor(r.index, a.divisor);
        f.imm_generic |= 1u << r.index;
    }
}

// One component of a client-state array as a float (normalised as GL says).
template <class T>
float component(const uint8_t* p, bool norm) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return norm ? to_float<true>(v) : to_float<false>(v);
}

bool read_component(const uint8_t* p, GLenum type, bool norm, float* out) {
    switch (type) {
        case GL_BYTE: *out = component<GLbyte>(p, norm); return true;
        case GL_UNSIGNED_BYTE: *out = component<GLubyte>(p, norm); return true;
        case GL_SHORT: *out = component<GLshort>(p, norm); return true;
        case GL_UNSIGNED_SHORT: *out = component<GLushort>(p, norm); return true;
        case GL_INT: *out = component<GLint>(p, norm); return true;
        case GL_UNSIGNED_INT: *out = component<GLuint>(p, norm); return true;
        case GL_FLOAT: *out = component<GLfloat>(p, norm); return true;
        case 0x140A: *out = component<GLdouble>(p, norm); return true;  // GL_DOUBLE
        case GL_FIXED: *out = float(component<GLint>(p, false) / 65536.0); return true;  // ES 1.1 arrays
        default: return false;
    }
}

// The bytes of vertices [first, first + count) of array `a` on the client
// (client memory, or the shadow of its buffer object); false: not there.
bool array_bytes(Context& ctx, const ClientArray& a, int64_t first, int64_t count, int64_t elem,
                 std::vector<uint8_t>* out, int64_t* stride) {
    *stride = a.stride ? a.stride : elem;
    const int64_t bytes = (count - 1) * *stride + elem;
    if (!a.buffer) {
        const auto* p = static_cast<const uint8_t*>(a.pointer) + first * *stride;
        out->assign(p, p + bytes);
        return true;
    }
    std::lock_guard<std::mutex> g(ctx.group->mu);
    BufferInfo& b = ctx.group->buffers[a.buffer];
    const int64_t off = int64_t(reinterpret_cast<uintptr_t>(a.pointer)) + first * *stride;
    if (!b.shadow_valid || off + bytes > int64_t(b.shadow.size())) return false;
    out->assign(b.shadow.data() + off, b.shadow.data() + off + bytes);
    return true;
}

// The enabled arrays of vertices [first, first + count), packed as floats the
// way immediate mode packs its vertices (and the edge flags when that array
// is enabled), for the polygon-mode stage (ff_unfilled.cc); false when some
// array is not on the client or has a type it does not read.
bool fetch_arrays(Context& ctx, FixedFunction& f, int64_t first, int64_t count, Layout* l, std::vector<uint8_t>* data,
                  std::vector<uint8_t>* edges) {
    int floats = 0;
    for (int a = 0; a < kAttrCount; ++a) {
        const ClientArray& arr = f.arrays[size_t(a)];
        if (!arr.enabled || (!arr.pointer && !arr.buffer)) continue;
        l->size[size_t(a)] = arr.components();
        l->offset[size_t(a)] = floats * 4;
        floats += arr.components();
    }
    l->stride = floats * 4;
    data->assign(size_t(count) * size_t(l->stride), 0);
    std::vector<uint8_t> src;
    for (int a = 0; a < kAttrCount; ++a) {
        const ClientArray& arr = f.arrays[size_t(a)];
        if (l->size[size_t(a)] == 0) continue;
        const int64_t csize = attrib_bytes(1, arr.type), elem = attrib_bytes(arr.size, arr.type);
        int64_t stride = 0;
        if (csize <= 0 || !array_bytes(ctx, arr, first, count, elem, &src, &stride)) return false;
        for (int64_t v = 0; v < count; ++v)
            for (int c = 0; c < arr.components(); ++c) {
                float x = 0;
                // GL_BGRA: the bytes are B, G, R, A.
                const int from = arr.bgra() && c < 3 ? 2 - c : c;
                if (!read_component(src.data() + v * stride + from * csize, arr.type, arr.normalized, &x)) return false;
                std::memcpy(data->data() + v * l->stride + l->offset[size_t(a)] + c * 4, &x, 4);
            }
    }
    const ClientArray& e = f.edge_array;
    if (e.enabled && (e.pointer || e.buffer)) {
        int64_t stride = 0;
        if (!array_bytes(ctx, e, first, count, 1, &src, &stride)) return false;
        edges->resize(size_t(count));
        for (int64_t v = 0; v < count; ++v) (*edges)[size_t(v)] = src[size_t(v * stride)] != 0;
    }
    return true;
}

// A draw of polygons while glPolygonMode is GL_LINE or GL_POINT: through the
// polygon-mode stage; false when the arrays cannot be read on the client (drawn filled).
bool draw_unfilled_arrays(Context& ctx, FixedFunction& f, GLenum mode, int64_t first, int64_t count,
                          const std::vector<uint32_t>* indices) {
    Layout l;
    std::vector<uint8_t> data, edges;
    if (!fetch_arrays(ctx, f, first, count, &l, &data, &edges)) {
        if (first_time("ff-unfilled-arrays"))
            log().warn("glPolygonMode GL_LINE/GL_POINT: an array the client cannot read (a buffer object it has no "
                       "copy of, or a packed type): drawn filled");
        return false;
    }
    draw_unfilled(ctx, f, mode, l, data.data(), int(count), edges.empty() ? nullptr : edges.data(), indices);
    return true;
}

}  // namespace

bool ff_draw_arrays(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instances) {
    FixedFunction* f = ff(ctx);
    if (!f || !reads_client_arrays(ctx, *f, mode)) return false;
    if (top_compile(*f) && (count <= 0 || !f->arrays[kPos].enabled)) {
        compile_empty_draw(ctx, "glDrawArrays");
        return true;
    }
    if (count <= 0) return true;
    if (!has_positions(ctx, *f)) return true;  // GL: nothing is drawn without a vertex array
    if (top_compile(*f)) {
        if (compile_draw(ctx, mode, first, count, nullptr, "glDrawArrays")) return true;
        if (first_time("ff-compile-draw"))
            log().warn("a draw compiled into a display list reads a buffer object the client keeps no copy of: "
                       "executed now, not compiled");
    }
    if (instances == 1 && !app_program_bound(ctx) && unfilled(*f, mode) &&
        draw_unfilled_arrays(ctx, *f, mode, first, count, nullptr))
        return true;
    Layout l;
    begin_draw(ctx, *f);
    const std::vector<GenericRows> generic = generic_rows(ctx, first, count, instances);
    point_arrays(ctx, *f, first, count, &l, generic_client_bytes(ctx, generic));
    mirror_generic_arrays(ctx, *f, generic);
    finish_draw(ctx, *f, mode, l, count, nullptr, instances);
    return true;
}

bool ff_draw_elements(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices, int64_t basevertex,
                      GLsizei instances) {
    FixedFunction* f = ff(ctx);
    if (!f || !reads_client_arrays(ctx, *f, mode)) return false;
    if (count <= 0 || (top_compile(*f) ? !f->arrays[kPos].enabled : !has_positions(ctx, *f))) {
        if (top_compile(*f)) compile_empty_draw(ctx, "glDrawElements");
        return true;
    }
    // The indices on the client (client memory, or the shadow of the element buffer).
    const int64_t isize = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : type == GL_UNSIGNED_INT ? 4 : 0;
    if (!isize) {
        gl_error(ctx, GL_INVALID_ENUM, "glDrawElements");
        return true;
    }
    std::vector<uint8_t> raw(size_t(count * isize));
    if (const uint32_t ebo = ctx.st.vao().element_buffer) {
        std::lock_guard<std::mutex> g(ctx.group->mu);
        BufferInfo& b = ctx.group->buffers[ebo];
        const int64_t off = int64_t(reinterpret_cast<uintptr_t>(indices));
        if (!b.shadow_valid || off + count * isize > int64_t(b.shadow.size())) {
            if (first_time("ff-ebo"))
                log().warn("fixed-function glDrawElements from an element buffer the client has no copy of: not drawn "
                           "(GL_INVALID_OPERATION)");
            gl_error(ctx, GL_INVALID_OPERATION, "glDrawElements");
            return true;
        }
        std::memcpy(raw.data(), b.shadow.data() + off, raw.size());
    } else {
        std::memcpy(raw.data(), indices, raw.size());
    }
    std::vector<uint32_t> idx(static_cast<size_t>(count));
    uint32_t mx = 0;
    for (GLsizei i = 0; i < count; ++i) {
        uint32_t v = 0;
        std::memcpy(&v, raw.data() + i * isize, size_t(isize));
        v = uint32_t(int64_t(v) + basevertex);  // GL: in 32 bits, wrapping (a negative sum is undefined)
        idx[size_t(i)] = v;
        mx = std::max(mx, v);
    }
    if (top_compile(*f)) {
        if (compile_draw(ctx, mode, 0, count, &idx, "glDrawElements")) return true;
        if (first_time("ff-compile-draw"))
            log().warn("a draw compiled into a display list reads a buffer object the client keeps no copy of: "
                       "executed now, not compiled");
    }
    if (instances == 1 && !app_program_bound(ctx) && unfilled(*f, mode) &&
        draw_unfilled_arrays(ctx, *f, mode, 0, int64_t(mx) + 1, &idx))
        return true;
    Layout l;
    begin_draw(ctx, *f);
    const std::vector<GenericRows> generic = generic_rows(ctx, 0, int64_t(mx) + 1, instances);
    // Room for the indices too: quads become up to 1.5x the indices.
    point_arrays(ctx, *f, 0, int64_t(mx) + 1, &l, int64_t(count) * 4 * 2 + generic_client_bytes(ctx, generic));
    mirror_generic_arrays(ctx, *f, generic);
    finish_draw(ctx, *f, mode, l, count, &idx, instances);
    return true;
}

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

void glVertexPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
    set_array("glVertexPointer", kPos, size, type, stride, pointer, false);
}
void glNormalPointer(GLenum type, GLsizei stride, const void* pointer) {
    set_array("glNormalPointer", kNormal, 3, type, stride, pointer, true);
}
void glColorPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
    set_array("glColorPointer", kColor, size, type, stride, pointer, true);
}
void glSecondaryColorPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
    set_array("glSecondaryColorPointer", kColor2, size, type, stride, pointer, true);
}
void glFogCoordPointer(GLenum type, GLsizei stride, const void* pointer) {
    set_array("glFogCoordPointer", kFog, 1, type, stride, pointer, false);
}
void glTexCoordPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
    set_array("glTexCoordPointer", kTex0, size, type, stride, pointer, false);
}

void glClientActiveTexture(GLenum texture) {
    MGL_CTX_OR_RETURN("glClientActiveTexture");
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, "glClientActiveTexture");
    if (texture < 0x84C0 || texture >= 0x84C0 + kMaxTexUnits) {
        gl_error(*ctx, GL_INVALID_ENUM, "glClientActiveTexture");
        return;
    }
    f->client_active_texture = texture;
}

namespace {
void client_state(const char* verb, GLenum array, bool on) {
    MGL_CTX_OR_RETURN(verb);
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, verb);
    const int a = array_of(*ctx, array);
    if (a < 0) {
        if (first_time(std::string(verb) + std::to_string(array)))
            log().warn("{}: array 0x{:04X} is not served by the fixed-function lowering: GL_INVALID_ENUM", verb, array);
        gl_error(*ctx, GL_INVALID_ENUM, verb);
        return;
    }
    f->all_arrays(a).enabled = on;
}

// Arrays kept as state only (ff.h says why).
void state_array(const char* verb, int which, GLenum type, GLsizei stride, const void* pointer) {
    MGL_CTX_OR_RETURN(verb);
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, verb);
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, verb);
    if (stride < 0) return gl_error(*ctx, GL_INVALID_VALUE, verb);
    if (which == kIndex && type != GL_UNSIGNED_BYTE && type != GL_SHORT && type != GL_INT && type != GL_FLOAT &&
        type != 0x140A)
        return gl_error(*ctx, GL_INVALID_ENUM, verb);
    ClientArray& a = f->all_arrays(which);
    a.size = 1;
    a.type = type;
    a.stride = stride;
    a.pointer = pointer;
    a.buffer = ctx->st.bound_buffer(GL_ARRAY_BUFFER);
}
}  // namespace

void glEdgeFlagPointer(GLsizei stride, const void* pointer) {
    state_array("glEdgeFlagPointer", kEdge, GL_UNSIGNED_BYTE, stride, pointer);
}
void glIndexPointer(GLenum type, GLsizei stride, const void* pointer) {
    state_array("glIndexPointer", kIndex, type, stride, pointer);
}

void glEnableClientState(GLenum array) { client_state("glEnableClientState", array, true); }
void glDisableClientState(GLenum array) { client_state("glDisableClientState", array, false); }

}  // namespace mgl_custom
