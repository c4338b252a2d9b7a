// The capture file's layout (docs/ARCHITECTURE.md, "Capture files").
//
//   file    := segment+                     one segment per captured session
//   segment := magic[8] u32 header_bytes u32 header_fnv
//              Header(FlatBuffer, zero-padded to 8) block* end
//   block   := u32 kind u32 stored_bytes u32 raw_bytes u32 records
//              u32 payload_fnv u32 0  payload
//   end     := a block of kind kEnd (records 0) whose payload is a Summary FlatBuffer
//
// A replies block (kKindReplies, uncompressed, `records` entries of
// kReplyEntryBytes: u64 record index in the segment, u32 opcode, u32 0, u64
// returned value) holds the replies a replay on another backend needs: those
// of the verbs that return a server-chosen value (gen/server_values.h:
// uniform and attribute locations, uniform block indices). It is written
// just before the records block that holds the replied records (a record in
// a block of its own: just after it), so a reader has every reply before
// the records that may carry its value.
//
// Every byte is checked on read: the header and every payload by their
// FNV-1a 32 (a flip in a zstd frame can leave the content intact and its
// checksum silent), a records block's content by the zstd frame's content
// checksum, its declared sizes and its record walk; reserved and padding
// bytes must be zero.
//
// A records block's payload is one zstd frame; decompressed it is raw_bytes
// of whole wire records exactly as the decoder met them (after chunk
// reassembly and staging), never split across blocks. Every number is
// little-endian. Segments concatenate: `cat a.mglcap b.mglcap` is a capture
// of both sessions.
#pragma once

#include <cstdint>

namespace mgl::wire::capture {

inline constexpr char kMagic[8] = {'M', 'G', 'L', 'C', 'A', 'P', '0', '1'};
inline constexpr uint32_t kKindRecords = 1;
inline constexpr uint32_t kKindEnd = 2;
inline constexpr uint32_t kKindReplies = 3;
inline constexpr uint32_t kReplyEntryBytes = 24;
inline constexpr uint32_t kBlockHeaderBytes = 24;
inline constexpr uint32_t kSegmentHeaderBytes = 16;  // magic + header_bytes + reserved
// A block normally holds this much raw record data; a larger record gets a
// block of its own.
inline constexpr uint32_t kBlockBytes = 1u << 20;
// The reader's bounds: a header or summary, and one block's raw bytes (the
// largest reassembled record is 1 GiB, ChunkAssembler::kMaxRecord).
inline constexpr uint32_t kMaxHeaderBytes = 1u << 20;
inline constexpr uint32_t kMaxSummaryBytes = 64u << 20;
inline constexpr uint64_t kMaxBlockRawBytes = (1ull << 30) + 8;
// zstd level: 1 is the fastest and still packs GL streams 4-10x; the
// capture runs on the server's apply thread.
inline constexpr int kZstdLevel = 1;

constexpr uint32_t fnv1a32(const uint8_t* p, uint64_t n) {
    uint32_t h = 2166136261u;
    for (uint64_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
    return h;
}

}  // namespace mgl::wire::capture
