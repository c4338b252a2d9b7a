// Vertex attributes a GLES host has no layout for: GL_DOUBLE ones and GL 3.2's
// GL_BGRA ones. Desktop GL takes glVertexAttribPointer(..., GL_DOUBLE, ...)
// (and the compatibility lowering sends glVertexPointer(3, GL_DOUBLE, ...) &
// co. as that) and converts the values to float for the shader; a GL_BGRA
// size (GL_UNSIGNED_BYTE or a 2_10_10_10 type, normalized) reads its first
// component from the third byte or field. Here the application's data stays
// where it put it (a buffer: the client streams client-memory arrays); the
// host attribute reads a converted copy (floats; the bytes or words in RGBA
// order), which each draw refreshes for the vertices it reads: arrays
// first..first+count, the range of an element draw's indices, every vertex
// the buffer holds for indirect and multi draws, and the instances' rows of
// an instanced attribute. A draw costs the conversion of the bytes it reads (no cache:
// nothing tells this file when a buffer's content changes).
//
// The record is keyed by the host vertex array and the index; a draw drops
// it once the host attribute reads another buffer than the copy (a later
// glVertexAttribFormat / glBindVertexBuffer of the application).
// glGetVertexAttrib* are the client's (its shadow says GL_DOUBLE, GL_BGRA).
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
constexpr GLint kBgra = 0x80E1;

// Bytes of one vertex of the application's array, and of its converted copy.
int64_t source_bytes(const Context::ConvertedArray& d) { return d.type == kDouble ? int64_t(d.size) * 8 : 4; }
int64_t copy_bytes(const Context::ConvertedArray& d) { return d.type == kDouble ? int64_t(d.size) * 4 : 4; }

// One vertex into the copy: doubles to floats; BGRA bytes, or the 10-bit
// fields of a packed word, to RGBA order (alpha stays where it is).
void convert_vertex(const Context::ConvertedArray& d, const uint8_t* src, uint8_t* dst) {
    if (d.type == kDouble) {
        for (int c = 0; c < d.size; ++c) {
            double x;
            std::memcpy(&x, src + c * 8, 8);
            const float f = float(x);
            std::memcpy(dst + c * 4, &f, 4);
        }
    } else if (d.type == GL_UNSIGNED_BYTE) {
        dst[0] = src[2], dst[1] = src[1], dst[2] = src[0], dst[3] = src[3];
    } else {
        uint32_t w;
        std::memcpy(&w, src, 4);
        w = (w & 0xC00FFC00u) | ((w & 0x3FFu) << 20) | ((w >> 20) & 0x3FFu);  // swap the first and third fields
        std::memcpy(dst, &w, 4);
    }
}

constexpr int64_t kMaxCopyBytes = int64_t(1) << 28;  // 256 MiB of converted copy per attribute and draw

GLuint current_vertex_array() {
    GLint vao = 0;
    host_gl.glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    return GLuint(vao);
}
}  // namespace

void EsprytBackend::glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                                          wire::InOrOffset<uint8_t> pointer) {
    constexpr gen::Op op = gen::Op::glVertexAttribPointer;
    // GL_BGRA: the client checked GL's rules (4.6 §10.3.1) for its types.
    const bool bgra = size == kBgra;
    if (!cur_ || !cur_->desktop() || (type != kDouble && !bgra)) {
        if (cur_ && !cur_->converted_arrays.empty()) forget_converted_array(current_vertex_array(), index);
        return EsprytGenerated::glVertexAttribPointer(index, size, type, normalized, stride, pointer);
    }
    if (cur_->max_attribs < 0) {
        GLint n = 0;
        host_gl.glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &n);
        cur_->max_attribs = n;
    }
    if (index >= GLuint(cur_->max_attribs)) return refuse(op, GL_INVALID_VALUE, "index");
    if (!bgra && (size < 1 || size > 4)) return refuse(op, GL_INVALID_VALUE, "size (GL_DOUBLE takes 1 to 4)");
    if (bgra && type != GL_UNSIGNED_BYTE && type != GL_INT_2_10_10_10_REV && type != GL_UNSIGNED_INT_2_10_10_10_REV)
        return refuse(op, GL_INVALID_OPERATION, "GL_BGRA with a type other than GL_UNSIGNED_BYTE or a 2_10_10_10 one");
    if (stride < 0) return refuse(op, GL_INVALID_VALUE, "stride");
    GLint source = 0;
    host_gl.glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &source);
    // The client streams client-memory arrays: a pointer here is an offset.
    if (!source || pointer.data)
        return refuse(op, GL_INVALID_OPERATION, "a GL_DOUBLE or GL_BGRA attribute reads a buffer (none bound)");
    const GLuint vao = current_vertex_array();
    Context::ConvertedArray& d = cur_->converted_arrays[{vao, index}];
    d.source = GLuint(source);
    d.offset = pointer.offset;
    d.type = type;
    d.size = bgra ? 4 : size;
    d.stride = stride ? stride : int32_t(source_bytes(d));
    if (!d.copy) host_gl.glGenBuffers(1, &d.copy);
    host_gl.glBindBuffer(GL_ARRAY_BUFFER, d.copy);
    if (bgra) host_gl.glVertexAttribPointer(index, 4, type, GL_TRUE, 0, nullptr);
    else host_gl.glVertexAttribPointer(index, size, GL_FLOAT, GL_FALSE, 0, nullptr);
    host_gl.glBindBuffer(GL_ARRAY_BUFFER, GLuint(source));
    arrays_changed();
}

void EsprytBackend::forget_converted_array(uint32_t vao, GLuint index) {
    auto it = cur_->converted_arrays.find({vao, index});
    if (it == cur_->converted_arrays.end()) return;
    host_gl.glDeleteBuffers(1, &it->second.copy);
    cur_->converted_arrays.erase(it);
}

bool EsprytBackend::convert_arrays(const ProvokingDraw& draw) {
    const GLuint vao = current_vertex_array();
    auto it = cur_->converted_arrays.lower_bound({vao, 0});
    if (it == cur_->converted_arrays.end() || it->first.first != vao) return true;
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
    std::vector<uint8_t> converted;
    for (; it != cur_->converted_arrays.end() && it->first.first == vao;) {
        const GLuint index = it->first.second;
        Context::ConvertedArray& d = it->second;
        GLint reads = 0, enabled = 0, divisor = 0;
        host_gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &reads);
        if (GLuint(reads) != d.copy) {  // re-specified by another verb since
            host_gl.glDeleteBuffers(1, &d.copy);
            it = cur_->converted_arrays.erase(it);
            continue;
        }
        ++it;
        host_gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
        if (!enabled) continue;
        host_gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
        const int64_t elem = source_bytes(d);
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
        // can outgrow the buffer many times over. Past kMaxCopyBytes the draw is
        // refused rather than the server's memory spent.
        if ((end - first) * copy_bytes(d) > kMaxCopyBytes) {
            host_gl.glBindBuffer(GL_ARRAY_BUFFER, GLuint(app_array));
            refuse(draw.op, GL_OUT_OF_MEMORY, "a GL_DOUBLE or GL_BGRA attribute's converted copy would exceed 256 MiB");
            return false;
        }
        const int64_t span = (end - first - 1) * d.stride + elem;
        host_gl.glBindBuffer(GL_ARRAY_BUFFER, d.source);
        const auto* src = static_cast<const uint8_t*>(host_gl.glMapBufferRange(
            GL_ARRAY_BUFFER, GLintptr(d.offset + uint64_t(first * d.stride)), GLsizeiptr(span), GL_MAP_READ_BIT));
        if (!src) {
            host_gl.glGetError();
            if (!std::exchange(cur_->converted_read_said, true))
                log().warn("espryt: draw: a GL_DOUBLE or GL_BGRA vertex attribute's buffer could not be read (mapped by the "
                           "application?): the draw reads its previous values (said once per context)");
            continue;
        }
        const int64_t row = copy_bytes(d);
        converted.resize(size_t((end - first) * row));
        for (int64_t v = 0; v < end - first; ++v) convert_vertex(d, src + v * d.stride, converted.data() + v * row);
        host_gl.glUnmapBuffer(GL_ARRAY_BUFFER);
        host_gl.glBindBuffer(GL_ARRAY_BUFFER, d.copy);
        host_gl.glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(end * row), nullptr, GL_STREAM_DRAW);
        host_gl.glBufferSubData(GL_ARRAY_BUFFER, GLintptr(first * row), GLsizeiptr(converted.size()), converted.data());
    }
    host_gl.glBindBuffer(GL_ARRAY_BUFFER, GLuint(app_array));
    return true;
}

}  // namespace mgl::espryt
