// The hot-path record: the one shape every GL verb takes on the wire.
//
//   | opcode:u16 | flags:u16 | size:u32 | arguments, packed by size, natural alignment | inline data |
//
// `size` counts the whole record including this header and is a multiple of 8,
// so the next record is always 8-byte aligned. Arguments are sorted by width
// (8, 4, 2, 1 bytes) so none needs interior padding; every array argument is a
// u32 byte count in the fixed part plus its bytes inline after the fixed part,
// each array starting 8-aligned. Every padding byte is written as zero: records
// cross a trust boundary and must not carry stale client memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace mgl::wire {

struct RecordHeader {
    uint16_t opcode;
    uint16_t flags;
    uint32_t size;
};
static_assert(sizeof(RecordHeader) == 8);

inline constexpr uint32_t kRecordAlign = 8;
constexpr uint32_t align8(uint32_t n) { return (n + 7u) & ~7u; }
inline constexpr uint32_t kStagedRecordBytes = 24;

// Opcodes below 256 are wire-control (0, 1, 255) and session verbs
// (protocol/session.fbs, 2..254); GL verbs start at 256 (protocol/gl.fbs).
enum : uint16_t {
    kOpPad = 0,    // filler up to the end of a ring; size covers the gap
    kOpChunk = 1,  // one piece of a record too large to travel whole (see encoder_base.cc)
    kFirstSchemaOpcode = 2,
    // | header | cursor:u64 | size:u64 |: a whole record that was written into
    // the staging area (link.h StagingSpan); the server applies it from there
    // and then releases the staging space up to its end. Bulk uploads take
    // this path on transports with shared memory, keeping the record ring for
    // the small records that stream behind them.
    kOpStaged = 255,
    kFirstGLOpcode = 256,
};

// Record flags.
enum : uint16_t {
    kFlagNone = 0,
};

// An input array argument: bytes the encoder copies inline into the record.
struct Blob {
    const void* data = nullptr;
    uint32_t size = 0;  // bytes
};

// A pointer argument that is either an offset into the buffer bound to its
// target (glDrawElements' indices with an element array buffer bound) or
// client memory to carry inline. data == nullptr means "offset".
struct OffsetOrBlob {
    uint64_t offset = 0;
    const void* data = nullptr;
    uint32_t size = 0;
};

// What a backend receives for an input array: bytes that live inside the
// record being decoded (valid only during the call). `size` is in bytes and
// has already been checked against the record bounds and, where the verb's
// length expression is computable, against that expression.
template <class T>
struct In {
    const T* data;
    uint32_t size;
    uint32_t count() const { return size / uint32_t(sizeof(T)); }
};

// Pointer-or-offset as seen by a backend: data == nullptr means `offset`
// into the buffer bound to the parameter's target.
template <class T>
struct InOrOffset {
    const T* data;
    uint32_t size;
    uint64_t offset;
    bool is_offset() const { return data == nullptr; }
};

// An output array: the backend writes at most `size` bytes to `data`, which
// is inside the reply being built (already zeroed).
template <class T>
struct Out {
    T* data;
    uint32_t size;
    uint32_t count() const { return size / uint32_t(sizeof(T)); }
};

// Output that may instead go to the buffer bound to the parameter's target
// (glReadPixels with a pixel pack buffer): data == nullptr means `offset`.
template <class T>
struct OutOrOffset {
    T* data;
    uint32_t size;
    uint64_t offset;
    bool is_offset() const { return data == nullptr; }
};

// An array of NUL-terminated strings (glShaderSource): pointers into the record.
struct Strings {
    const char* const* data;
    uint32_t count;
};

constexpr uint64_t pad8(uint64_t n) { return (n + 7u) & ~uint64_t(7); }

// Unaligned-safe loads and stores; compilers turn them into plain moves.
template <class T>
inline T get(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class T>
inline void put(uint8_t* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

inline void put_header(uint8_t* p, uint16_t opcode, uint32_t size) {
    const uint64_t h = uint64_t(opcode) | (uint64_t(size) << 32);
    std::memcpy(p, &h, 8);
}

// Copies `size` bytes and zeroes the padding up to the next 8-byte boundary.
// Returns the position after the padded data.
inline uint8_t* put_blob(uint8_t* at, const void* data, uint32_t size) {
    if (size == 0) return at;
    const uint64_t padded = pad8(size);
    std::memset(at + padded - 8, 0, 8);  // the last word first: padding is never stale
    std::memcpy(at, data, size);
    return at + padded;
}

// Reply of a sync verb: | size:u32 | opcode:u32 | return value:u64 | outputs, each 8-aligned |
inline bool reply_header_ok(std::span<const uint8_t> r, uint16_t opcode, uint64_t expected_size) {
    if (r.size() != expected_size || r.size() < 16) return false;
    return get<uint32_t>(r.data()) == expected_size && get<uint32_t>(r.data() + 4) == opcode;
}

}  // namespace mgl::wire
