// glGetUniform{f,i,ui}v through the session verb mglGetUniform: the client
// cannot size the answer (it depends on the uniform's type, which only the
// server knows), so it asks for up to 16 values and is told how many there
// are. Magma keeps every default-block uniform in a CPU copy of the block
// (std140), and sampler units beside it, so the values are read from there.
#include <GLES3/gl32.h>

#include <cmath>
#include <cstring>

#include "backend.h"

namespace mgl::magma {

namespace {

enum class Base { f, i, u, b };

struct Shape {
    int cols = 0, rows = 0;  // a vector is 1 column of `rows`
    Base base = Base::f;
};

Shape shape(GLenum t) {
    switch (t) {
        case GL_FLOAT: return {1, 1, Base::f};
        case GL_FLOAT_VEC2: return {1, 2, Base::f};
        case GL_FLOAT_VEC3: return {1, 3, Base::f};
        case GL_FLOAT_VEC4: return {1, 4, Base::f};
        case GL_INT: return {1, 1, Base::i};
        case GL_INT_VEC2: return {1, 2, Base::i};
        case GL_INT_VEC3: return {1, 3, Base::i};
        case GL_INT_VEC4: return {1, 4, Base::i};
        case GL_UNSIGNED_INT: return {1, 1, Base::u};
        case GL_UNSIGNED_INT_VEC2: return {1, 2, Base::u};
        case GL_UNSIGNED_INT_VEC3: return {1, 3, Base::u};
        case GL_UNSIGNED_INT_VEC4: return {1, 4, Base::u};
        case GL_BOOL: return {1, 1, Base::b};
        case GL_BOOL_VEC2: return {1, 2, Base::b};
        case GL_BOOL_VEC3: return {1, 3, Base::b};
        case GL_BOOL_VEC4: return {1, 4, Base::b};
        case GL_FLOAT_MAT2: return {2, 2, Base::f};
        case GL_FLOAT_MAT3: return {3, 3, Base::f};
        case GL_FLOAT_MAT4: return {4, 4, Base::f};
        case GL_FLOAT_MAT2x3: return {2, 3, Base::f};
        case GL_FLOAT_MAT2x4: return {2, 4, Base::f};
        case GL_FLOAT_MAT3x2: return {3, 2, Base::f};
        case GL_FLOAT_MAT3x4: return {3, 4, Base::f};
        case GL_FLOAT_MAT4x2: return {4, 2, Base::f};
        case GL_FLOAT_MAT4x3: return {4, 3, Base::f};
        default: return {};
    }
}

// One stored component (its raw 32 bits, of base `from`) as the caller's type
// (GL_FLOAT, GL_INT or GL_UNSIGNED_INT), converted as glGetUniform* says.
uint32_t convert(uint32_t bits, Base from, GLenum to) {
    float f;
    std::memcpy(&f, &bits, 4);
    const int32_t i = int32_t(bits);
    uint32_t out = 0;
    switch (to) {
        case GL_FLOAT: {
            const float x = from == Base::f ? f : from == Base::i ? float(i) : from == Base::u ? float(bits) : (bits ? 1.0f : 0.0f);
            std::memcpy(&out, &x, 4);
            break;
        }
        case GL_INT: out = uint32_t(from == Base::f ? int32_t(std::lround(f)) : from == Base::b ? int32_t(bits != 0) : i); break;
        default: out = from == Base::f ? uint32_t(std::lround(f)) : from == Base::b ? uint32_t(bits != 0) : bits; break;
    }
    return out;
}

}  // namespace

GLint MagmaBackend::mglGetUniform(GLuint program, GLint location, GLenum type, wire::Out<GLuint> values) {
    constexpr gen::Op op = gen::Op::mglGetUniform;
    if (!need_context(op)) return 0;
    if (type != GL_FLOAT && type != GL_INT && type != GL_UNSIGNED_INT) {
        refuse(op, GL_INVALID_ENUM, "type is not GL_FLOAT, GL_INT or GL_UNSIGNED_INT");
        return 0;
    }
    auto p = program_for(op, program);
    if (!p) return 0;
    if (!p->exe || !p->linked) {
        refuse(op, GL_INVALID_OPERATION, "program not linked");
        return 0;
    }
    const Executable& exe = *p->exe;
    if (location < 0 || size_t(location) >= exe.locations.size()) {
        refuse(op, GL_INVALID_OPERATION, "no active uniform at that location");
        return 0;
    }
    const auto [ui, element] = exe.locations[size_t(location)];
    const UniformInfo& u = exe.linked.uniforms[size_t(ui)];
    uint32_t v[16] = {};
    int n = 0;
    if (u.offset < 0) {  // a sampler: its texture unit
        const auto& units = exe.sampler_units[size_t(ui)];
        const uint32_t unit = size_t(element) < units.size() ? uint32_t(units[size_t(element)]) : 0;
        v[n++] = convert(unit, Base::i, type);
    } else {
        const Shape s = shape(u.type);
        if (s.cols == 0) {
            refuse(op, GL_INVALID_OPERATION, "uniform of an unknown type");
            return 0;
        }
        // std140: an array element starts at offset + element * stride; each
        // matrix column is a vec4-aligned vector.
        const int stride = u.array_stride > 0 ? u.array_stride : s.cols * 16;
        const size_t at = size_t(u.offset) + size_t(element) * size_t(stride);
        for (int c = 0; c < s.cols; ++c)
            for (int r = 0; r < s.rows; ++r) {
                uint32_t bits = 0;
                const size_t off = at + size_t(c) * 16 + size_t(r) * 4;
                if (off + 4 <= exe.defaults.size()) std::memcpy(&bits, exe.defaults.data() + off, 4);
                v[n++] = convert(bits, s.base, type);
            }
    }
    std::memcpy(values.data, v, std::min<size_t>(size_t(n), values.count()) * sizeof(GLuint));
    return n;
}

}  // namespace mgl::magma
