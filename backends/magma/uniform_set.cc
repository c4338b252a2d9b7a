// The uniform setters behind glUniform*: the default block's CPU copy
// (std140) and sampler units, written with GL's type rules (bools from any
// value, sampler units from ints); draws stream the block when it changed
// (draw_descriptors.cc).
#include <GLES3/gl32.h>

#include <cstring>

#include "backend.h"

namespace mgl::magma {

namespace {
bool is_bool(GLenum t) { return t == GL_BOOL || t == GL_BOOL_VEC2 || t == GL_BOOL_VEC3 || t == GL_BOOL_VEC4; }
}  // namespace

void MagmaBackend::uniform_f(GLint loc, GLsizei count, int comps, const float* v, uint32_t have) {
    if (!need_context(gen::Op::glUniform4fv)) return;
    Executable* exe = current_exe();
    if (loc == -1) return;
    if (!exe || loc < 0 || size_t(loc) >= exe->locations.size())
        return refuse(gen::Op::glUniform4fv, GL_INVALID_OPERATION, "no program or bad location");
    if (count < 0 || (have != ~0u && uint64_t(count) * comps > have)) return refuse(gen::Op::glUniform4fv, GL_INVALID_VALUE, "count");
    auto [ui, element] = exe->locations[size_t(loc)];
    const UniformInfo& u = exe->linked.uniforms[size_t(ui)];
    if (u.offset < 0) return refuse(gen::Op::glUniform4fv, GL_INVALID_OPERATION, "float value for a sampler");
    const int n = std::min(int(count), u.array_size - element);
    const int stride = u.array_stride > 0 ? u.array_stride : 16;
    for (int e = 0; e < n; ++e) {
        const size_t at = size_t(u.offset) + size_t(element + e) * stride;
        if (at + comps * 4 > exe->defaults.size()) break;
        if (is_bool(u.type)) {
            for (int c = 0; c < comps; ++c) {
                const uint32_t b = v[e * comps + c] != 0.0f;
                std::memcpy(exe->defaults.data() + at + c * 4, &b, 4);
            }
        } else {
            std::memcpy(exe->defaults.data() + at, v + e * comps, size_t(comps) * 4);
        }
    }
    exe->defaults_dirty = true;
}

void MagmaBackend::uniform_i(GLint loc, GLsizei count, int comps, const GLint* v, uint32_t have) {
    if (!need_context(gen::Op::glUniform4iv)) return;
    Executable* exe = current_exe();
    if (loc == -1) return;
    if (!exe || loc < 0 || size_t(loc) >= exe->locations.size())
        return refuse(gen::Op::glUniform4iv, GL_INVALID_OPERATION, "no program or bad location");
    if (count < 0 || (have != ~0u && uint64_t(count) * comps > have)) return refuse(gen::Op::glUniform4iv, GL_INVALID_VALUE, "count");
    auto [ui, element] = exe->locations[size_t(loc)];
    const UniformInfo& u = exe->linked.uniforms[size_t(ui)];
    const int n = std::min(int(count), u.array_size - element);
    if (u.offset < 0) {  // a sampler: texture units
        auto& units = exe->sampler_units[size_t(ui)];
        for (int e = 0; e < n && size_t(element + e) < units.size(); ++e) units[size_t(element + e)] = v[e];
        return;
    }
    const int stride = u.array_stride > 0 ? u.array_stride : 16;
    for (int e = 0; e < n; ++e) {
        const size_t at = size_t(u.offset) + size_t(element + e) * stride;
        if (at + comps * 4 > exe->defaults.size()) break;
        for (int c = 0; c < comps; ++c) {
            const int32_t x = is_bool(u.type) ? int32_t(v[e * comps + c] != 0) : v[e * comps + c];
            std::memcpy(exe->defaults.data() + at + c * 4, &x, 4);
        }
    }
    exe->defaults_dirty = true;
}

void MagmaBackend::uniform_m(GLint loc, GLsizei count, GLboolean transpose, int cols, int rows, wire::In<GLfloat> v) {
    if (!need_context(gen::Op::glUniformMatrix4fv)) return;
    Executable* exe = current_exe();
    if (loc == -1) return;
    if (!exe || loc < 0 || size_t(loc) >= exe->locations.size())
        return refuse(gen::Op::glUniformMatrix4fv, GL_INVALID_OPERATION, "no program or bad location");
    const int per = cols * rows;
    if (count < 0 || uint64_t(count) * per > v.count()) return refuse(gen::Op::glUniformMatrix4fv, GL_INVALID_VALUE, "count");
    auto [ui, element] = exe->locations[size_t(loc)];
    const UniformInfo& u = exe->linked.uniforms[size_t(ui)];
    if (u.offset < 0) return refuse(gen::Op::glUniformMatrix4fv, GL_INVALID_OPERATION, "not a matrix");
    const int n = std::min(int(count), u.array_size - element);
    const int stride = u.array_stride > 0 ? u.array_stride : cols * 16;
    for (int e = 0; e < n; ++e) {
        const size_t at = size_t(u.offset) + size_t(element + e) * stride;
        if (at + size_t(cols) * 16 - (4 - rows) * 4 > exe->defaults.size()) break;
        const float* m = v.data + e * per;
        for (int c = 0; c < cols; ++c)
            for (int r = 0; r < rows; ++r) {
                // std140: each column a vec4-aligned vector.
                const float x = transpose ? m[r * cols + c] : m[c * rows + r];
                std::memcpy(exe->defaults.data() + at + size_t(c) * 16 + size_t(r) * 4, &x, 4);
            }
    }
    exe->defaults_dirty = true;
}


}  // namespace mgl::magma
