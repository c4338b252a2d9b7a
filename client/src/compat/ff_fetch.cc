// Client-state arrays read on the client, one element at a time:
// glArrayElement, and draws compiled into a display list (GL dereferences
// their arrays at compile time: GL 4.6 compatibility §21.4). Each element
// becomes the immediate-mode calls it stands for (the current attributes,
// then the vertex), so a compiled glDrawArrays/glDrawElements is a
// glBegin/glEnd primitive of the fetched vertices (ff_verbs.cc packs it).
#include <cstring>

#include "compat/ff_verbs.h"

namespace mgl::client::compat {

namespace {

int type_bytes(GLenum type) {
    switch (type) {
        case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
        case GL_SHORT: case GL_UNSIGNED_SHORT: case 0x140B /* GL_HALF_FLOAT */: return 2;
        case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: return 4;
        case 0x140A /* GL_DOUBLE */: return 8;
        default: return 0;
    }
}

float half_to_float(uint16_t h) {
    const uint32_t s = uint32_t(h >> 15) << 31, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    uint32_t bits;
    if (e == 0) {
        if (m == 0) bits = s;
        else {
            float f = float(m) / 1024.0f / 16384.0f;  // subnormal: m * 2^-24
            return s ? -f : f;
        }
    } else if (e == 31) {
        bits = s | 0x7F800000u | (m << 13);
    } else {
        bits = s | ((e + 112) << 23) | (m << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

template <class T>
T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

float component(const uint8_t* p, GLenum type, bool norm) {
    switch (type) {
        case GL_BYTE: return norm ? to_float<true>(GLbyte(load<int8_t>(p))) : float(load<int8_t>(p));
        case GL_UNSIGNED_BYTE: return norm ? to_float<true>(GLubyte(*p)) : float(*p);
        case GL_SHORT: return norm ? to_float<true>(GLshort(load<int16_t>(p))) : float(load<int16_t>(p));
        case GL_UNSIGNED_SHORT: return norm ? to_float<true>(GLushort(load<uint16_t>(p))) : float(load<uint16_t>(p));
        case GL_INT: return norm ? to_float<true>(GLint(load<int32_t>(p))) : float(load<int32_t>(p));
        case GL_UNSIGNED_INT: return norm ? to_float<true>(GLuint(load<uint32_t>(p))) : float(load<uint32_t>(p));
        case GL_FLOAT: return load<float>(p);
        case 0x140A: return float(load<double>(p));
        case 0x140B: return half_to_float(load<uint16_t>(p));
        default: return 0;
    }
}

// Where element 0 of an enabled array lies on the client: client memory, or
// the client's copy of its buffer object; nullptr when there is none.
const uint8_t* array_base(Context& ctx, const ClientArray& a) {
    if (!a.buffer) return static_cast<const uint8_t*>(a.pointer);
    std::lock_guard<std::mutex> g(ctx.group->mu);
    auto it = ctx.group->buffers.find(a.buffer);
    if (it == ctx.group->buffers.end() || !it->second.shadow_valid) return nullptr;
    const uintptr_t off = reinterpret_cast<uintptr_t>(a.pointer);
    return off < it->second.shadow.size() ? it->second.shadow.data() + off : nullptr;
}

// Whether every enabled array can be read here (a buffer object's data only
// when the client keeps a copy of it).
bool fetchable(Context& ctx, const FixedFunction& f) {
    for (const ClientArray& a : f.arrays)
        if (a.enabled && (!array_base(ctx, a) || !type_bytes(a.type))) return false;
    return true;
}

}  // namespace

bool array_element(Context& ctx, int64_t i) {
    FixedFunction& f = *ff(ctx);
    if (!fetchable(ctx, f)) return false;
    // The attributes first; the position (the vertex) last, as GL's ArrayElement.
    auto emit = [&](int a) {
        const ClientArray& arr = f.arrays[size_t(a)];
        if (!arr.enabled) return;
        const int tb = type_bytes(arr.type);
        const int64_t stride = arr.stride ? arr.stride : int64_t(arr.components()) * tb;
        const uint8_t* p = array_base(ctx, arr) + i * stride;
        float v[4] = {0, 0, 0, 1};
        for (int c = 0; c < arr.components(); ++c)  // GL_BGRA: the bytes are B, G, R, A
            v[c] = component(p + (arr.bgra() && c < 3 ? 2 - c : c) * tb, arr.type, arr.normalized);
        imm_attr(ctx, a, arr.components(), v[0], v[1], v[2], v[3]);
    };
    for (int a = 1; a < kAttrCount; ++a) emit(a);
    emit(kPos);
    return true;
}

bool compile_draw(Context& ctx, GLenum mode, int64_t first, int64_t count, const std::vector<uint32_t>* indices,
                  const char* verb) {
    FixedFunction& f = *ff(ctx);
    if (!fetchable(ctx, f)) return false;
    const size_t ops = f.building->ops.size();
    mgl_custom::glBegin(mode);
    if (!f.in_begin) return true;  // a bad mode: compiled as the error
    for (int64_t k = 0; k < count; ++k) array_element(ctx, indices ? int64_t((*indices)[size_t(k)]) : first + k);
    mgl_custom::glEnd();
    // Run by glCallList between glBegin and glEnd, the draw is an error, not a primitive.
    for (size_t i = ops; i < f.building->ops.size(); ++i) f.building->ops[i] = outside_begin(verb, f.building->ops[i]);
    return true;
}

void compile_empty_draw(Context& ctx, const char* verb) {
    FixedFunction& f = *ff(ctx);
    f.building->ops.push_back(outside_begin(verb, [](Context&) {}));
}

void rect(Context& ctx, float x1, float y1, float x2, float y2) {
    FixedFunction& f = *ff(ctx);
    const bool top = top_compile(f);
    const size_t ops = top ? f.building->ops.size() : 0;
    SelfCompile scope(ctx);  // the draw's own entry points execute
    mgl_custom::glBegin(0x0009);  // GL_POLYGON
    imm_attr(ctx, kPos, 2, x1, y1, 0, 1);
    imm_attr(ctx, kPos, 2, x2, y1, 0, 1);
    imm_attr(ctx, kPos, 2, x2, y2, 0, 1);
    imm_attr(ctx, kPos, 2, x1, y2, 0, 1);
    mgl_custom::glEnd();
    if (top)  // run by glCallList between glBegin and glEnd: an error, not a primitive
        for (size_t i = ops; i < f.building->ops.size(); ++i) f.building->ops[i] = outside_begin("glRect", f.building->ops[i]);
}

void dropped_attr(const char* verb) {
    if (first_time(verb))
        log().info("{}: edge flags and colour indices are accepted and dropped (nothing the lowering draws reads them)",
                   verb);
}

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

void glArrayElement(GLint i) {
    FF_OR_RETURN("glArrayElement");
    if (i < 0) return gl_error(*ctx, GL_INVALID_VALUE, "glArrayElement");
    if (!array_element(*ctx, i) && first_time("ff-array-element"))
        log().warn("glArrayElement: an enabled array lies in a buffer object the client keeps no copy of: ignored");
}

}  // namespace mgl_custom
