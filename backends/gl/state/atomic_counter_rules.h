// GL's rules for atomic counters (GL 4.2 / GL_ARB_shader_atomic_counters),
// once for every backend (DESIGN.md §11): the figures a context answers for
// the GL_MAX_*ATOMIC_COUNTER* queries (and gives its shaders as built-in
// constants), which error a GL_ATOMIC_COUNTER_BUFFER binding or a
// glGetActiveAtomicCounterBufferiv call gets and why. A backend hands in how
// many counter buffers its device can bind per stage; what it does with a
// call that passes is its own.
#pragma once

#include <algorithm>
#include <cstdint>

#include "compute_rules.h"

namespace mgl::gl {

// GL_UNSIGNED_INT_ATOMIC_COUNTER: the type glGetActiveUniform reports for an
// atomic_uint uniform.
inline constexpr uint32_t kAtomicCounterType = 0x92DB;

// The figures served. Counters per stage and the buffer size are fixed (the
// shaders' built-in constants must be the same in every context, and a
// glslang resource table is made once); the buffer bindings are the device's
// (each counter buffer is a storage buffer descriptor), at most kMaxBindings.
struct AtomicCounterLimits {
    static constexpr uint32_t kMaxBindings = 8;
    static constexpr uint32_t kCountersPerStage = 1024;
    static constexpr uint32_t kBufferSize = 16384;  // bytes: GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE
    uint32_t bindings = 0;                          // GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS (0: not served)
    bool tessellation = false;                      // the tessellation stages have counters too
};

// What a device that binds `per_stage_storage` storage buffers in a stage
// can give atomic counters, after the storage blocks' `storage_blocks` and
// one more (a default block read as a storage buffer on some devices).
inline AtomicCounterLimits atomic_counter_limits(uint32_t per_stage_storage, uint32_t storage_blocks) {
    AtomicCounterLimits l;
    const uint32_t taken = storage_blocks + 1;
    l.bindings = per_stage_storage > taken ? std::min(per_stage_storage - taken, AtomicCounterLimits::kMaxBindings) : 0;
    return l;
}

// The GL_MAX_*ATOMIC_COUNTER* queries (tessellation stages: 0 unless the
// backend gives them counters). false: not one of them.
inline bool atomic_counter_limit(uint32_t pname, const AtomicCounterLimits& l, int64_t* v) {
    const bool on = l.bindings > 0;
    switch (pname) {
        case 0x92DC: *v = l.bindings; return true;  // GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS
        case 0x92D8: *v = on ? AtomicCounterLimits::kBufferSize : 0; return true;  // GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE
        case 0x92CC:  // GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS
        case 0x92CF:  // GL_MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS
        case 0x92D0:  // GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS
        case 0x90BC:  // GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS
        case 0x92D1:  // GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS
            *v = l.bindings;
            return true;
        case 0x92D2:  // GL_MAX_VERTEX_ATOMIC_COUNTERS
        case 0x92D5:  // GL_MAX_GEOMETRY_ATOMIC_COUNTERS
        case 0x92D6:  // GL_MAX_FRAGMENT_ATOMIC_COUNTERS
        case 0x8265:  // GL_MAX_COMPUTE_ATOMIC_COUNTERS
            *v = on ? AtomicCounterLimits::kCountersPerStage : 0;
            return true;
        case 0x92D7:  // GL_MAX_COMBINED_ATOMIC_COUNTERS: every stage's together
            *v = on ? 4 * AtomicCounterLimits::kCountersPerStage : 0;
            return true;
        case 0x92CD:  // GL_MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS
        case 0x92CE:  // GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS
            *v = l.tessellation ? l.bindings : 0;
            return true;
        case 0x92D3:  // GL_MAX_TESS_CONTROL_ATOMIC_COUNTERS
        case 0x92D4:  // GL_MAX_TESS_EVALUATION_ATOMIC_COUNTERS
            *v = on && l.tessellation ? AtomicCounterLimits::kCountersPerStage : 0;
            return true;
        default: return false;
    }
}

// glBindBufferBase/Range(GL_ATOMIC_COUNTER_BUFFER, ...) (GL 4.6 §6.1.1): the
// index below GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS; a range's size positive
// and its offset a non-negative multiple of 4 (name 0 unbinds whatever the
// range says).
inline RuleError check_counter_binding(uint32_t index, uint32_t name, bool ranged, int64_t offset, int64_t size,
                                       const AtomicCounterLimits& l) {
    if (index >= l.bindings) return {kInvalidValue, "index >= GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS"};
    if (!ranged || name == 0) return {};
    if (size <= 0) return {kInvalidValue, "the range's size is not positive"};
    if (offset < 0) return {kInvalidValue, "negative offset"};
    if (offset % 4) return {kInvalidValue, "an atomic counter buffer's offset is not a multiple of 4"};
    return {};
}

// A draw's or dispatch's counter buffer (GL leaves a too small one undefined;
// here it never reaches a device): bound, its range inside the buffer, and at
// least the `data_size` bytes the program's counters in it span. Written so
// that offset + size cannot wrap.
inline RuleError check_counter_buffer_use(bool bound, uint64_t buffer_size, uint64_t offset, uint64_t size,
                                          uint64_t data_size) {
    if (!bound) return {kInvalidOperation, "an atomic counter buffer binding the program uses has no buffer"};
    if (offset >= buffer_size || (size && size > buffer_size - offset))
        return {kInvalidOperation, "an atomic counter buffer's range lies outside its buffer"};
    const uint64_t range = size ? size : buffer_size - offset;
    if (range < data_size)
        return {kInvalidOperation, "an atomic counter buffer's range is smaller than the program's counters in it"};
    return {};
}

// glGetActiveAtomicCounterBufferiv's pnames (GL 4.6 §7.6.2).
inline bool is_counter_buffer_pname(uint32_t pname) {
    switch (pname) {
        case 0x92C1:  // GL_ATOMIC_COUNTER_BUFFER_BINDING
        case 0x92C4:  // GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE
        case 0x92C5:  // GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS
        case 0x92C6:  // GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES
        case 0x92C7:  // GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER
        case 0x92C8:  // GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_CONTROL_SHADER
        case 0x92C9:  // GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_EVALUATION_SHADER
        case 0x92CA:  // GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_GEOMETRY_SHADER
        case 0x92CB:  // GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER
        case 0x90ED:  // GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER
            return true;
        default: return false;
    }
}

// glGetActiveAtomicCounterBufferiv: a linked program, the buffer index below
// its GL_ACTIVE_ATOMIC_COUNTER_BUFFERS, a known pname.
inline RuleError check_counter_buffer_query(bool linked, uint32_t index, uint32_t active, uint32_t pname) {
    if (!linked) return {kInvalidValue, "the program is not linked: it has no active atomic counter buffers"};
    if (index >= active) return {kInvalidValue, "bufferIndex >= GL_ACTIVE_ATOMIC_COUNTER_BUFFERS"};
    if (!is_counter_buffer_pname(pname)) return {kInvalidEnum, "pname"};
    return {};
}

}  // namespace mgl::gl
