// Buffers mapped in the host driver's own memory (mglMapBufferHost): how a
// client in this process maps buffers with immutable storage, persistent and
// coherent mappings included (GL_EXT_buffer_storage, GL_ARB_buffer_storage).
// The application writes where the host driver reads, so a coherent write
// reaches the next draw without a call, as on a native driver. An address is
// handed only to a client in the server's address space (inproc, direct, no
// capture: set_peer_in_process); any other session is refused, and those
// sessions are not offered the extensions (session.cc).
#include <GLES3/gl32.h>

#include <cstdint>

#include "backend.h"

namespace mgl::espryt {

GLuint64 EsprytBackend::mglMapBufferHost(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
    if (!cur_) return 0;
    if (!peer_in_process_) {
        refuse(gen::Op::mglMapBufferHost, GL_INVALID_OPERATION,
               "a mapping in the driver's memory reaches only a client in the server's process (inproc, direct)");
        return 0;
    }
    if (!avail_[hidx::glBufferStorageEXT]) {
        refuse(gen::Op::mglMapBufferHost, GL_INVALID_OPERATION, "the host has no GL_EXT_buffer_storage");
        return 0;
    }
    // The host checks the rest as glMapBufferRange does (target, range,
    // access against the storage's flags) and raises the error itself.
    void* p = host_gl.glMapBufferRange(target, offset, length, access);
    return GLuint64(reinterpret_cast<uintptr_t>(p));
}

void EsprytBackend::mglUnmapBufferHost(GLenum target) {
    if (cur_) host_gl.glUnmapBuffer(target);
}

void EsprytBackend::mglFlushBufferHost(GLenum target, GLintptr offset, GLsizeiptr length) {
    if (cur_) host_gl.glFlushMappedBufferRange(target, offset, length);
}

}  // namespace mgl::espryt
