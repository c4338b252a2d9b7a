// GL's rules for indirect draws (GL 4.0 / GL_ARB_draw_indirect, GL 4.3 /
// GL_ARB_multi_draw_indirect, ES 3.1), once for every backend that reads the
// commands itself: where the commands come from and which error a call gets.
// The commands' layout is GL's (DrawArraysIndirectCommand: count,
// instanceCount, first, baseInstance; DrawElementsIndirectCommand: count,
// instanceCount, firstIndex, baseVertex, baseInstance).
#pragma once

#include <cstdint>

#include "compute_rules.h"

namespace mgl::gl {

inline constexpr uint32_t kDrawArraysCommandBytes = 16, kDrawElementsCommandBytes = 20;

struct DrawArraysCommand {
    uint32_t count, instance_count, first, base_instance;
};
struct DrawElementsCommand {
    uint32_t count, instance_count, first_index;
    int32_t base_vertex;
    uint32_t base_instance;
};
static_assert(sizeof(DrawArraysCommand) == kDrawArraysCommandBytes && sizeof(DrawElementsCommand) == kDrawElementsCommandBytes);

// Where the commands are: a buffer bound to GL_DRAW_INDIRECT_BUFFER (the
// offset must be a multiple of 4 and every command inside the buffer, which
// must not be mapped), or, in a compatibility context with none bound, the
// application's memory (client_bytes of it came with the call).
struct IndirectSource {
    bool compatibility = false;
    bool buffer_bound = false;
    bool buffer_mapped = false;
    uint64_t buffer_size = 0;
    uint64_t client_bytes = 0;
};

// drawcount commands, `stride` bytes apart (0: tightly packed), of
// `command_bytes` each, at `offset`. elements: glDraw*ElementsIndirect, which
// also needs an element array buffer.
inline RuleError check_draw_indirect(const IndirectSource& s, int64_t offset, int64_t drawcount, int64_t stride,
                                     uint32_t command_bytes, bool elements, bool element_buffer_bound) {
    if (drawcount < 0) return {kInvalidValue, "negative drawcount"};
    if (stride < 0 || stride % 4) return {kInvalidValue, "the stride is not a multiple of 4"};
    if (elements && !element_buffer_bound) return {kInvalidOperation, "no buffer is bound to GL_ELEMENT_ARRAY_BUFFER"};
    const uint64_t step = stride ? uint64_t(stride) : command_bytes;
    // Bytes from the first command's start to the last one's end (no wrap:
    // drawcount is a GLsizei, the step at most 2^31).
    const uint64_t span = drawcount ? (uint64_t(drawcount) - 1) * step + command_bytes : 0;
    if (!s.buffer_bound) {
        if (!s.compatibility) return {kInvalidOperation, "no buffer is bound to GL_DRAW_INDIRECT_BUFFER"};
        if (s.client_bytes < span) return {kInvalidOperation, "no buffer is bound to GL_DRAW_INDIRECT_BUFFER and no commands came"};
        return {};
    }
    if (offset < 0 || offset % 4) return {kInvalidValue, "the indirect offset is not a multiple of 4"};
    if (s.buffer_mapped) return {kInvalidOperation, "GL_DRAW_INDIRECT_BUFFER's buffer is mapped"};
    if (span > s.buffer_size || uint64_t(offset) > s.buffer_size - span)
        return {kInvalidOperation, "the commands lie outside GL_DRAW_INDIRECT_BUFFER's buffer"};
    return {};
}

}  // namespace mgl::gl
