// glDrawArraysIndirect / glDrawElementsIndirect with the commands in client
// memory: a desktop compatibility context may name them so (no buffer bound
// to GL_DRAW_INDIRECT_BUFFER); a GLES host takes them from a buffer only. The
// command (sent with the call) goes into a host buffer of its own for the
// draw, which is then unbound and deleted: the host's binding stays what the
// application made it. Whether the call may name client memory at all is the
// GL front end's rule (draw_indirect_rules.h). Commands in a buffer pass
// through unchanged.
#include <GLES3/gl32.h>

#include "backend.h"
#include "context/desktop_context.h"
#include "state/draw_indirect_rules.h"

namespace mgl::espryt {

namespace {

// Runs `draw` with the command bytes in a host buffer bound to
// GL_DRAW_INDIRECT_BUFFER at offset 0.
template <class Draw>
void from_client_memory(const wire::InOrOffset<uint8_t>& indirect, uint32_t bytes, Draw draw) {
    GLuint scratch = 0;
    host_gl.glGenBuffers(1, &scratch);
    host_gl.glBindBuffer(GL_DRAW_INDIRECT_BUFFER, scratch);
    host_gl.glBufferData(GL_DRAW_INDIRECT_BUFFER, bytes, indirect.data, GL_STREAM_DRAW);
    draw(wire::InOrOffset<uint8_t>{nullptr, 0, 0});
    host_gl.glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    host_gl.glDeleteBuffers(1, &scratch);
}

}  // namespace

// Whether the command is in client memory, and then whether GL lets this
// context name it there (else refused: the call is done).
EsprytBackend::IndirectFrom EsprytBackend::indirect_from(gen::Op op, const wire::InOrOffset<uint8_t>& indirect,
                                                        uint32_t bytes) {
    if (indirect.is_offset()) return IndirectFrom::buffer;
    gl::IndirectSource s;
    s.compatibility = cur_->desktop() && cur_->profile == gl::kProfileCompat;
    s.client_bytes = indirect.size;
    if (const gl::RuleError e = gl::check_draw_indirect(s, 0, 1, 0, bytes, false, true)) {
        refuse(op, e.error, e.why);
        return IndirectFrom::refused;
    }
    return IndirectFrom::client;
}

void EsprytBackend::glDrawArraysIndirect(GLenum mode, wire::InOrOffset<uint8_t> indirect) {
    switch (indirect_from(gen::Op::glDrawArraysIndirect, indirect, gl::kDrawArraysCommandBytes)) {
        case IndirectFrom::buffer: return EsprytGenerated::glDrawArraysIndirect(mode, indirect);
        case IndirectFrom::refused: return;
        case IndirectFrom::client: break;
    }
    from_client_memory(indirect, gl::kDrawArraysCommandBytes,
                       [&](wire::InOrOffset<uint8_t> at) { EsprytGenerated::glDrawArraysIndirect(mode, at); });
}

void EsprytBackend::glDrawElementsIndirect(GLenum mode, GLenum type, wire::InOrOffset<uint8_t> indirect) {
    switch (indirect_from(gen::Op::glDrawElementsIndirect, indirect, gl::kDrawElementsCommandBytes)) {
        case IndirectFrom::buffer: return EsprytGenerated::glDrawElementsIndirect(mode, type, indirect);
        case IndirectFrom::refused: return;
        case IndirectFrom::client: break;
    }
    from_client_memory(indirect, gl::kDrawElementsCommandBytes,
                       [&](wire::InOrOffset<uint8_t> at) { EsprytGenerated::glDrawElementsIndirect(mode, type, at); });
}

}  // namespace mgl::espryt
