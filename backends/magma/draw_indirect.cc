// Indirect draws (GL 4.0 GL_ARB_draw_indirect, GL 4.3
// GL_ARB_multi_draw_indirect): each command becomes the draw it describes.
// The commands are read on the host, as glDispatchComputeIndirect's are
// (compute.cc): the draw path sizes index widening, client attribute
// expansion and transform feedback from the counts, and a count Vulkan
// would take but GL calls an error never reaches the device. A command
// buffer written by this batch's GPU work is waited for (host_bytes):
// correct, at the cost of a stall for GPU-generated commands.
#include <GLES3/gl32.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "backend.h"
#include "state/draw_indirect_rules.h"

namespace mgl::magma {

const uint8_t* MagmaBackend::indirect_commands(gen::Op verb, wire::InOrOffset<uint8_t> indirect, GLsizei drawcount,
                                               GLsizei stride, uint32_t command_bytes, bool elements) {
    Buffer* b = cur_->draw_indirect.get();
    gl::IndirectSource s;
    s.compatibility = cur_->compatibility();
    s.buffer_bound = b != nullptr;
    if (b) s.buffer_mapped = b->mapped, s.buffer_size = b->size;
    if (!indirect.is_offset()) s.client_bytes = indirect.size;
    const int64_t offset = indirect.is_offset() ? int64_t(indirect.offset) : 0;
    if (const gl::RuleError e = gl::check_draw_indirect(s, offset, drawcount, stride, command_bytes, elements,
                                                        cur_->vao->elements != nullptr)) {
        refuse(verb, e.error, e.why);
        return nullptr;
    }
    if (!b) return indirect.data;  // a compatibility context's client memory
    if (!indirect.is_offset()) {
        refuse(verb, GL_INVALID_OPERATION, "commands sent with the call while a buffer is bound to GL_DRAW_INDIRECT_BUFFER");
        return nullptr;
    }
    const uint8_t* bytes = host_bytes(*b);
    if (!bytes) {
        set_error(GL_OUT_OF_MEMORY);
        return nullptr;
    }
    return bytes + offset;
}

namespace {

// Each of `drawcount` commands `stride` bytes apart (0: packed) at `at`,
// handed to `draw` unless a count exceeds the draw path's signed sizes
// (GL's counts are unsigned): such a command is skipped with a log line.
template <class Command, class Draw>
void each_command(const uint8_t* at, GLsizei drawcount, GLsizei stride, gen::Op verb, spdlog::logger& log, Draw draw) {
    const size_t step = stride ? size_t(stride) : sizeof(Command);
    for (GLsizei i = 0; i < drawcount; ++i) {
        Command c;
        std::memcpy(&c, at + size_t(i) * step, sizeof c);
        if (c.count > uint32_t(INT_MAX) || c.instance_count > uint32_t(INT_MAX)) {
            log.warn("magma: {}: a command's count or instance count exceeds 2^31-1: not drawn",
                       gen::verb_name(uint16_t(verb)));
            continue;
        }
        draw(c);
    }
}

}  // namespace

void MagmaBackend::draw_arrays_indirect(gen::Op verb, GLenum mode, wire::InOrOffset<uint8_t> indirect,
                                        GLsizei drawcount, GLsizei stride) {
    if (!need_context(verb)) return;
    const uint8_t* at = indirect_commands(verb, indirect, drawcount, stride, gl::kDrawArraysCommandBytes, false);
    if (!at) return;
    each_command<gl::DrawArraysCommand>(at, drawcount, stride, verb, log(), [&](const gl::DrawArraysCommand& c) {
        // A first past 2^31-1 is a first draw() refuses (GL_INVALID_VALUE, logged).
        draw(mode, GLint(std::min<uint32_t>(c.first, uint32_t(INT_MAX))), GLsizei(c.count), 0, {},
             GLsizei(c.instance_count), 0, c.base_instance);
    });
}

void MagmaBackend::draw_elements_indirect(gen::Op verb, GLenum mode, GLenum type, wire::InOrOffset<uint8_t> indirect,
                                          GLsizei drawcount, GLsizei stride) {
    if (!need_context(verb)) return;
    const uint32_t index_bytes = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : type == GL_UNSIGNED_INT ? 4 : 0;
    if (!index_bytes) return refuse(verb, GL_INVALID_ENUM, "type");
    const uint8_t* at = indirect_commands(verb, indirect, drawcount, stride, gl::kDrawElementsCommandBytes, true);
    if (!at) return;
    each_command<gl::DrawElementsCommand>(at, drawcount, stride, verb, log(), [&](const gl::DrawElementsCommand& c) {
        // The indices start firstIndex indices into the element array buffer.
        const wire::InOrOffset<uint8_t> indices{nullptr, 0, uint64_t(c.first_index) * index_bytes};
        draw(mode, 0, GLsizei(c.count), type, indices, GLsizei(c.instance_count), c.base_vertex, c.base_instance);
    });
}

}  // namespace mgl::magma
