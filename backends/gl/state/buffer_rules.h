// GL's rules for buffer storage and mappings (GL 4.6 §6.2-6.3,
// GL_ARB_buffer_storage, GL_EXT_buffer_storage), once for every backend
// (DESIGN.md §11): which error glBufferStorage, glBufferData,
// glBufferSubData and glMapBufferRange get on a buffer and why. A backend
// that maps buffers itself (mglMapBufferHost) checks with these; one whose
// host driver checks (Espryt) need not.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "compute_rules.h"  // RuleError, kInvalid*

namespace mgl::gl {

inline constexpr uint32_t kMapRead = 0x1, kMapWrite = 0x2, kMapInvalidateRange = 0x4, kMapInvalidateBuffer = 0x8,
                          kMapFlushExplicit = 0x10, kMapUnsynchronized = 0x20, kMapPersistent = 0x40,
                          kMapCoherent = 0x80, kDynamicStorage = 0x100, kClientStorage = 0x200;

// What a buffer's data store allows. A mutable store (glBufferData) allows
// what GL 4.6 Table 6.3 gives it: read, write and dynamic updates, never
// persistent or coherent maps.
struct BufferStore {
    int64_t size = 0;
    bool immutable = false;
    uint32_t flags = kMapRead | kMapWrite | kDynamicStorage;  // GL_BUFFER_STORAGE_FLAGS
    bool mapped = false;
    uint32_t map_access = 0;
};

// glBufferStorage: a positive size, known flags, persistence only with read
// or write, coherence only with persistence, and a store not yet immutable.
inline RuleError check_buffer_storage(const BufferStore& b, int64_t size, uint32_t flags) {
    const uint32_t known = kMapRead | kMapWrite | kMapPersistent | kMapCoherent | kDynamicStorage | kClientStorage;
    if (size <= 0) return {kInvalidValue, "size must be positive"};
    if (flags & ~known) return {kInvalidValue, "unknown storage flags"};
    if ((flags & kMapPersistent) && !(flags & (kMapRead | kMapWrite)))
        return {kInvalidValue, "GL_MAP_PERSISTENT_BIT without GL_MAP_READ_BIT or GL_MAP_WRITE_BIT"};
    if ((flags & kMapCoherent) && !(flags & kMapPersistent))
        return {kInvalidValue, "GL_MAP_COHERENT_BIT without GL_MAP_PERSISTENT_BIT"};
    if (b.immutable) return {kInvalidOperation, "the buffer's storage is immutable"};
    return {};
}

// Whether [offset, offset + length) lies within a store of `size` bytes;
// written so that a hostile offset near INT64_MAX cannot wrap around.
inline bool range_within(int64_t offset, int64_t length, int64_t size) {
    return offset >= 0 && length >= 0 && offset <= size && length <= size - offset;
}

// glBufferData: not on immutable storage.
inline RuleError check_buffer_data(const BufferStore& b) {
    if (b.immutable) return {kInvalidOperation, "the buffer's storage is immutable"};
    return {};
}

// glBufferSubData: an immutable store needs GL_DYNAMIC_STORAGE_BIT; a store
// mapped other than persistently cannot be written.
inline RuleError check_buffer_sub_data(const BufferStore& b) {
    if (b.immutable && !(b.flags & kDynamicStorage)) return {kInvalidOperation, "no GL_DYNAMIC_STORAGE_BIT"};
    if (b.mapped && !(b.map_access & kMapPersistent)) return {kInvalidOperation, "the buffer is mapped"};
    return {};
}

// glGetBufferSubData of [offset, offset + size): within the store, which is
// not mapped other than persistently.
inline RuleError check_get_buffer_sub_data(const BufferStore& b, int64_t offset, int64_t size) {
    if (!range_within(offset, size, b.size)) return {kInvalidValue, "range outside the buffer"};
    if (b.mapped && !(b.map_access & kMapPersistent)) return {kInvalidOperation, "the buffer is mapped"};
    return {};
}

// glCopyBufferSubData from `src` to `dst` (`same`: one buffer): both ranges
// within their stores, not overlapping within one buffer, neither store
// mapped other than persistently (GL 4.6 §6.6).
inline RuleError check_copy_buffer_sub_data(const BufferStore& src, const BufferStore& dst, bool same,
                                            int64_t read_offset, int64_t write_offset, int64_t size) {
    if (!range_within(read_offset, size, src.size) || !range_within(write_offset, size, dst.size))
        return {kInvalidValue, "range outside a buffer"};
    if (same && read_offset < write_offset + size && write_offset < read_offset + size)
        return {kInvalidValue, "overlapping ranges of one buffer"};
    if ((src.mapped && !(src.map_access & kMapPersistent)) || (dst.mapped && !(dst.map_access & kMapPersistent)))
        return {kInvalidOperation, "a buffer is mapped"};
    return {};
}

// glMapBufferRange of [offset, offset + length) with `access`.
inline RuleError check_map_range(const BufferStore& b, int64_t offset, int64_t length, uint32_t access) {
    const uint32_t known = kMapRead | kMapWrite | kMapInvalidateRange | kMapInvalidateBuffer | kMapFlushExplicit |
                           kMapUnsynchronized | kMapPersistent | kMapCoherent;
    if (offset < 0 || length < 0) return {kInvalidValue, "negative offset or length"};
    if (access & ~known) return {kInvalidValue, "unknown access bits"};
    if (!(access & (kMapRead | kMapWrite))) return {kInvalidOperation, "neither read nor write access"};
    if ((access & kMapRead) && (access & (kMapInvalidateRange | kMapInvalidateBuffer | kMapUnsynchronized)))
        return {kInvalidOperation, "read access with invalidation or no synchronization"};
    if ((access & kMapFlushExplicit) && !(access & kMapWrite))
        return {kInvalidOperation, "explicit flushes without write access"};
    for (uint32_t bit : {kMapRead, kMapWrite, kMapPersistent, kMapCoherent})
        if ((access & bit) && !(b.flags & bit)) return {kInvalidOperation, "access the buffer's storage flags do not allow"};
    if (!range_within(offset, length, b.size)) return {kInvalidValue, "range beyond the buffer"};
    if (b.mapped) return {kInvalidOperation, "the buffer is mapped already"};
    if (length == 0) return {kInvalidOperation, "an empty range"};
    return {};
}

}  // namespace mgl::gl
