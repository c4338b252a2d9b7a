// GL's rules for compute dispatches, shader storage bindings and memory
// barriers (GL 4.3 / GL_ARB_compute_shader, GL_ARB_shader_storage_buffer_object,
// GL_ARB_shader_image_load_store's glMemoryBarrier), once for every backend
// (DESIGN.md §11): which error a call gets and why. The figures they check
// against are the device's, handed in by the backend; what a backend does
// with a call that passes is its own.
#pragma once

#include <cstdint>

namespace mgl::gl {

struct ComputeLimits {
    uint32_t group_count[3] = {65535, 65535, 65535};  // GL_MAX_COMPUTE_WORK_GROUP_COUNT
    uint32_t storage_bindings = 8;                     // GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS
    uint32_t storage_alignment = 256;                  // GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT
};

// A rule's answer: 0 (GL_NO_ERROR) or the error and the reason.
struct RuleError {
    uint32_t error = 0;
    const char* why = "";
    explicit operator bool() const { return error != 0; }
};

inline constexpr uint32_t kInvalidEnum = 0x0500, kInvalidValue = 0x0501, kInvalidOperation = 0x0502;

// glDispatchCompute: a program with a compute stage in use (GL 4.3 §19), each
// count within GL_MAX_COMPUTE_WORK_GROUP_COUNT.
inline RuleError check_dispatch(bool program_in_use, bool has_compute, const uint32_t counts[3], const ComputeLimits& l) {
    if (!program_in_use) return {kInvalidOperation, "no program is in use"};
    if (!has_compute) return {kInvalidOperation, "the program in use has no compute shader"};
    for (int i = 0; i < 3; ++i)
        if (counts[i] > l.group_count[i]) return {kInvalidValue, "a work group count exceeds GL_MAX_COMPUTE_WORK_GROUP_COUNT"};
    return {};
}

// glDispatchComputeIndirect: the offset a non-negative multiple of 4, a
// buffer bound to GL_DISPATCH_INDIRECT_BUFFER, the three counts inside it.
// Written so that offset + 12 cannot wrap: a hostile offset is an error
// here and never reaches a device.
inline RuleError check_dispatch_indirect(bool program_in_use, bool has_compute, int64_t offset, bool buffer_bound,
                                         uint64_t buffer_size) {
    if (offset < 0) return {kInvalidValue, "negative indirect offset"};
    if (offset % 4) return {kInvalidValue, "the indirect offset is not a multiple of 4"};
    if (!program_in_use) return {kInvalidOperation, "no program is in use"};
    if (!has_compute) return {kInvalidOperation, "the program in use has no compute shader"};
    if (!buffer_bound) return {kInvalidOperation, "no buffer is bound to GL_DISPATCH_INDIRECT_BUFFER"};
    if (buffer_size < 12 || uint64_t(offset) > buffer_size - 12)
        return {kInvalidOperation, "the indirect command lies outside GL_DISPATCH_INDIRECT_BUFFER's buffer"};
    return {};
}

// glBindBufferBase/Range(GL_SHADER_STORAGE_BUFFER, ...): the index below
// GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS; a range's size positive and its
// offset a multiple of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT (name 0
// unbinds whatever the range says).
inline RuleError check_storage_binding(uint32_t index, uint32_t name, bool ranged, int64_t offset, int64_t size,
                                       const ComputeLimits& l) {
    if (index >= l.storage_bindings) return {kInvalidValue, "index >= GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS"};
    if (!ranged || name == 0) return {};
    if (size <= 0) return {kInvalidValue, "the range's size is not positive"};
    if (offset < 0) return {kInvalidValue, "negative offset"};
    if (l.storage_alignment && offset % l.storage_alignment)
        return {kInvalidValue, "the offset is not a multiple of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT"};
    return {};
}

// glShaderStorageBlockBinding: the block index among the program's active
// storage blocks, the binding below GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS.
inline RuleError check_storage_block_binding(uint32_t block, uint32_t active_blocks, uint32_t binding,
                                             const ComputeLimits& l) {
    if (block >= active_blocks) return {kInvalidValue, "not an active shader storage block index"};
    if (binding >= l.storage_bindings) return {kInvalidValue, "binding >= GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS"};
    return {};
}

// An image unit's state before any glBindImageTexture: desktop GL's
// GL_IMAGE_BINDING_ACCESS and _FORMAT (GLES starts at GL_R32UI).
inline constexpr uint32_t kInitialImageAccess = 0x88B8;  // GL_READ_ONLY
inline constexpr uint32_t kInitialImageFormat = 0x8229;  // GL_R8

// glUniform1i{v} of an image uniform: each unit below GL_MAX_IMAGE_UNITS.
inline RuleError check_image_uniform_units(const int32_t* units, int32_t count, uint32_t max_units) {
    for (int32_t i = 0; i < count; ++i)
        if (units[i] < 0 || uint32_t(units[i]) >= max_units)
            return {kInvalidValue, "an image uniform set outside [0, GL_MAX_IMAGE_UNITS)"};
    return {};
}

// glMemoryBarrier's bits: GL_ALL_BARRIER_BITS or a set of GL 4.6's barrier bits.
inline RuleError check_memory_barrier(uint32_t bits) {
    constexpr uint32_t kAll = 0xFFFFFFFFu;
    constexpr uint32_t kKnown = 0x0000FFFFu;  // GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT .. GL_QUERY_BUFFER_BARRIER_BIT
    if (bits != kAll && (bits & ~kKnown)) return {kInvalidValue, "unknown barrier bits"};
    return {};
}

}  // namespace mgl::gl
