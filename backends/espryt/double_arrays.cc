// GL_DOUBLE vertex attributes on a GLES host, which has no such attribute
// type. Desktop GL takes glVertexAttribPointer(..., GL_DOUBLE, ...) (and the
// compatibility lowering sends glVertexPointer(3, GL_DOUBLE, ...) & co. as
// that) and converts the values to float for the shader. Here the
// application's doubles stay where it put them (a buffer: the client streams
// client-memory arrays); the host attribute reads a float copy, which each
// draw refreshes for the vertices it reads: arrays first..first+count, the
// range of an element draw's indices, every vertex the buffer holds for
// indirect and multi draws, and the instances' rows of an instanced
// attribute. A draw costs the conversion of the bytes it reads (no cache:
// nothing tells this file when a buffer's content changes).
//
// The record is keyed by the host vertex array and the index; a draw drops
// it once the host attribute reads another buffer than the copy (a later
// glVertexAttribFormat / glBindVertexBuffer of the application).
// glGetVertexAttrib* are the client's (its shadow says GL_DOUBLE).
#include <GLES3/gl32.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "backend.h"

namespace mgl::espryt {

namespace {
constexpr GLenum kDouble = 0x140A;
constexpr int64_t kMaxFloats = int64_t(1) << 26;  // 256 MiB of float copy per attribute and draw

GLuint current_vertex_array() {
    GLint vao = 0;
    host_gl.glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    return GLuint(vao);
}
}  // namespace

void EsprytBackend::glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                                          wire::InOrOffset<uint8_t> pointer) {
    constexpr gen::Op op = gen::Op::glVertexAttribPointer;
    // GL 3.2's GL_BGRA size (the client checked GL's rules): a GLES host has
    // no such attribute layout, and no conversion is written yet.
    if (cur_ && cur_->desktop() && size == 0x80E1 /* GL_BGRA */)
        return refuse(op, GL_INVALID_VALUE, "GL_BGRA vertex attributes are not served on a GLES host yet");
    if (!cur_ || !cur_->desktop() || type != kDouble) {
        if (cur_ && !cur_->double_arrays.empty()) forget_double_array(current_vertex_array(), index);
        return EsprytGenerated::glVertexAttribPointer(index, size, type, normalized, stride, pointer);
    }
    if (cur_->max_attribs < 0) {
        GLint n = 0;
        host_gl.glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &n);
        cur_->max_attribs = n;
    }
    if (index >= GLuint(cur_->max_attribs)) return refuse(op, GL_INVALID_VALUE, "index");
    if (size < 1 || size > 4) return refuse(op, GL_INVALID_VALUE, "size (GL_DOUBLE takes 1 to 4)");
    if (stride < 0) return refuse(op, GL_INVALID_VALUE, "stride");
    GLint source = 0;
    host_gl.glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &source);
    // The client streams client-memory arrays: a pointer here is an offset.
    if (!source || pointer.data)
        return refuse(op, GL_INVALID_OPERATION, "a GL_DOUBLE attribute reads a buffer (none bound)");
    const GLuint vao = current_vertex_array();
    Context::DoubleArray& d = cur_->double_arrays[{vao, index}];
    d.source = GLuint(source);
    d.offset = pointer.offset;
    d.stride = stride ? stride : size * 8;
    d.size = size;
    if (!d.copy) host_gl.glGenBuffers(1, &d.copy);
    host_gl.glBindBuffer(GL_ARRAY_BUFFER, d.copy);
    host_gl.glVertexAttribPointer(index, size, GL_FLOAT, GL_FALSE, 0, nullptr);
    host_gl.glBindBuffer(GL_ARRAY_BUFFER, GLuint(source));
    arrays_changed();
}

void EsprytBackend::forget_double_array(uint32_t vao, GLuint index) {
    auto it = cur_->double_arrays.find({vao, index});
    if (it == cur_->double_arrays.end()) return;
    host_gl.glDeleteBuffers(1, &it->second.copy);
    cur_->double_arrays.erase(it);
}

bool EsprytBackend::convert_double_arrays(const ProvokingDraw& draw) {
    const GLuint vao = current_vertex_array();
    auto it = cur_->double_arrays.lower_bound({vao, 0});
    if (it == cur_->double_arrays.end() || it->first.first != vao) return true;
    if (const GLenum older = host_gl.glGetError()) set_error(older);
    // The vertex rows the draw reads, [lo, hi) (a count below 0: every row, per attribute below).
    int64_t lo = 0, hi = 0;
    if (draw.count >= 0 && draw.type) {
        std::vector<uint32_t>& indices = provoking_in_;
        if (!read_draw_indices(draw, indices)) return true;  // the host's draw says what GL would
        const uint32_t restart = draw.type == GL_UNSIGNED_BYTE ? 0xFFu : draw.type == GL_UNSIGNED_SHORT ? 0xFFFFu : 0xFFFFFFFFu;
        int64_t mn = INT64_MAX, mx = -1;
        for (uint32_t i : indices) {
            if (cur_->dstate.primitive_restart && i == (cur_->dstate.restart_index & restart)) continue;
            mn = std::min<int64_t>(mn, int64_t(i) + draw.basevertex);
            mx = std::max<int64_t>(mx, int64_t(i) + draw.basevertex);
        }
        if (mx < 0) return true;
        lo = std::max<int64_t>(mn, 0), hi = mx + 1;
    } else if (draw.count >= 0) {
        if (draw.first < 0) return true;  // the host's draw refuses it
        lo = draw.first, hi = int64_t(draw.first) + draw.count;
    }
    GLint app_array = 0;
    host_gl.glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &app_array);
    std::vector<float> floats;
    for (; it != cur_->double_arrays.end() && it->first.first == vao;) {
        const GLuint index = it->first.second;
        Context::DoubleArray& d = it->second;
        GLint reads = 0, enabled = 0, divisor = 0;
        host_gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &reads);
        if (GLuint(reads) != d.copy) {  // re-specified by another verb since
            host_gl.glDeleteBuffers(1, &d.copy);
            it = cur_->double_arrays.erase(it);
            continue;
        }
        ++it;
        host_gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
        if (!enabled) continue;
        host_gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
        const int64_t elem = int64_t(d.size) * 8;
        const int64_t bytes = host_buffer_size(d.source);
        // (an offset past the buffer, however large, reads nothing)
        const int64_t rows = d.offset <= uint64_t(bytes) && bytes - int64_t(d.offset) >= elem
                                 ? (bytes - int64_t(d.offset) - elem) / d.stride + 1 : 0;
        int64_t first = lo, end = hi;
        if (divisor > 0) {
            first = 0;
            end = draw.count < 0 ? rows : int64_t(draw.baseinstance) + (std::max(draw.instances, 1) - 1) / divisor + 1;
        } else if (draw.count < 0) {
            first = 0, end = rows;
        }
        end = std::min(end, rows);
        if (first >= end) continue;  // nothing readable: the host reads the copy's zeros or nothing
        // A stride below the element's size makes rows overlap: the floats
        // can outgrow the buffer many times over. Past kMaxFloats the draw is
        // refused rather than the server's memory spent.
        if ((end - first) * d.size > kMaxFloats) {
            host_gl.glBindBuffer(GL_ARRAY_BUFFER, GLuint(app_array));
            refuse(draw.op, GL_OUT_OF_MEMORY, "a GL_DOUBLE attribute's float copy would exceed 256 MiB");
            return false;
        }
        const int64_t span = (end - first - 1) * d.stride + elem;
        host_gl.glBindBuffer(GL_ARRAY_BUFFER, d.source);
        const auto* src = static_cast<const uint8_t*>(host_gl.glMapBufferRange(
            GL_ARRAY_BUFFER, GLintptr(d.offset + uint64_t(first * d.stride)), GLsizeiptr(span), GL_MAP_READ_BIT));
        if (!src) {
            host_gl.glGetError();
            if (!std::exchange(cur_->double_read_said, true))
                log().warn("espryt: draw: a GL_DOUBLE vertex attribute's buffer could not be read (mapped by the "
                           "application?): the draw reads its previous values (said once per context)");
            continue;
        }
        floats.resize(size_t((end - first) * d.size));
        for (int64_t v = 0; v < end - first; ++v)
            for (int c = 0; c < d.size; ++c) {
                double x;
                std::memcpy(&x, src + v * d.stride + c * 8, 8);
                floats[size_t(v * d.size + c)] = float(x);
            }
        host_gl.glUnmapBuffer(GL_ARRAY_BUFFER);
        host_gl.glBindBuffer(GL_ARRAY_BUFFER, d.copy);
        const GLsizeiptr row = GLsizeiptr(d.size) * 4;
        host_gl.glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(end) * row, nullptr, GL_STREAM_DRAW);
        host_gl.glBufferSubData(GL_ARRAY_BUFFER, GLintptr(first) * row, GLsizeiptr(floats.size() * 4), floats.data());
    }
    host_gl.glBindBuffer(GL_ARRAY_BUFFER, GLuint(app_array));
    return true;
}

}  // namespace mgl::espryt
