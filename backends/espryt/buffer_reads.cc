// glGetBufferSubData (desktop GL 1.5) on a GLES host, which has no such
// call: the range is copied by the host into a scratch buffer that is mapped
// for reading. A copy, not a map of the buffer itself, because GL reads a
// buffer whatever its storage flags say (immutable storage without
// GL_MAP_READ_BIT) and while it is mapped persistently; the host's
// glCopyBufferSubData checks the range and the mapping as GL does.
#include <GLES3/gl32.h>

#include <algorithm>
#include <cstring>

#include "backend.h"

namespace mgl::espryt {

void EsprytBackend::glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, wire::Out<uint8_t> data) {
    constexpr gen::Op op = gen::Op::glGetBufferSubData;
    if (!cur_) return;
    const GLenum binding = buffer_binding(target);
    if (!binding) return refuse(op, GL_INVALID_ENUM, "target");
    GLint source = 0;
    host_gl.glGetIntegerv(binding, &source);
    if (!source) return refuse(op, GL_INVALID_OPERATION, "no buffer bound");
    if (offset < 0 || size < 0) return refuse(op, GL_INVALID_VALUE, "negative offset or size");
    GLint read_was = 0, write_was = 0;
    host_gl.glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &read_was);
    host_gl.glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &write_was);
    host_gl.glBindBuffer(GL_COPY_READ_BUFFER, GLuint(source));
    GLint64 have = 0;
    host_gl.glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &have);
    if (offset > have || size > have - offset) {  // no wrap-around for a hostile offset
        host_gl.glBindBuffer(GL_COPY_READ_BUFFER, GLuint(read_was));
        return refuse(op, GL_INVALID_VALUE, "range outside the buffer");
    }
    if (size > 0) {
        GLuint scratch = 0;
        host_gl.glGenBuffers(1, &scratch);
        host_gl.glBindBuffer(GL_COPY_WRITE_BUFFER, scratch);
        host_gl.glBufferData(GL_COPY_WRITE_BUFFER, size, nullptr, GL_STREAM_READ);
        host_gl.glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, offset, 0, size);
        if (const void* p = host_gl.glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, size, GL_MAP_READ_BIT)) {
            std::memcpy(data.data, p, std::min<uint64_t>(uint64_t(size), data.size));
            host_gl.glUnmapBuffer(GL_COPY_WRITE_BUFFER);
        }
        host_gl.glDeleteBuffers(1, &scratch);
    }
    host_gl.glBindBuffer(GL_COPY_READ_BUFFER, GLuint(read_was));
    host_gl.glBindBuffer(GL_COPY_WRITE_BUFFER, GLuint(write_was));
}

}  // namespace mgl::espryt
