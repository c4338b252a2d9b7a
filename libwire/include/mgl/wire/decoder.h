// Server-side entry to the generated decoders.
//
// decode_stream() applies every whole record of a byte range to a backend.
// Every read is bounds-checked and every size computed with overflow checks;
// the first malformed record stops decoding and is reported as a value (no
// exceptions on the hot path). The caller (the server's session) turns an
// error into a fault for that session only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mgl/wire/link.h"
#include "mgl/wire/memory_budget.h"

namespace mgl {
class Backend;  // generated: mgl/gen/backend.h
}

namespace mgl::wire {

enum class DecodeStatus : uint8_t {
    ok,
    truncated,        // fewer bytes than a header or than the header's size says
    bad_size,         // size smaller than the verb's fixed part, or not a multiple of 8
    unknown_opcode,
    bad_length,       // an array's byte count disagrees with its length expression or the record
    negative_count,   // a count argument below zero
    overflow,         // a length expression overflows
    bad_chunk,        // chunk sequence broken or a reassembled record too large
    bad_staged,       // a staged record names bytes outside the staging area, or a malformed record
    too_large,        // a reply or array above the configured limits
    no_reply_path,    // a verb that replies arrived on a link without a reply path
    backend_lost,     // the backend can no longer serve (e.g. its GPU device was lost)
    over_budget,      // the session asked for more memory than its budget (memory_budget.h)
};

// One wording for every place that reports a decode status (the codec, the
// transports' fault events, the server's log): header-only so that the
// transport library, which can be built without the codec, shares it.
constexpr const char* to_string(DecodeStatus s) {
    switch (s) {
        case DecodeStatus::ok: return "ok";
        case DecodeStatus::truncated: return "truncated record";
        case DecodeStatus::bad_size: return "bad record size";
        case DecodeStatus::unknown_opcode: return "unknown opcode";
        case DecodeStatus::bad_length: return "array length does not match the record";
        case DecodeStatus::negative_count: return "negative count";
        case DecodeStatus::overflow: return "length expression overflows";
        case DecodeStatus::bad_chunk: return "broken chunk sequence";
        case DecodeStatus::bad_staged: return "bad staged record";
        case DecodeStatus::too_large: return "record or reply too large";
        case DecodeStatus::no_reply_path: return "verb needs a reply but the link has none";
        case DecodeStatus::backend_lost: return "the backend lost its device";
        case DecodeStatus::over_budget: return "over the session's memory budget";
    }
    return "?";
}

struct DecodeError {
    DecodeStatus status = DecodeStatus::ok;
    uint16_t opcode = 0;
    uint64_t stream_offset = 0;  // bytes from the start of the session's stream
    std::string detail;          // human readable; names the verb and argument
};

// Reassembles chunked records (kOpChunk) across calls to decode_stream. The
// bytes it reserves count against the session's memory budget.
struct ChunkAssembler {
    std::vector<uint8_t> buffer;
    uint32_t expected = 0;  // total size of the record being assembled, 0 = none
    static constexpr uint32_t kMaxRecord = 1u << 30;
    // A reassembled record larger than this is not kept for the next one.
    static constexpr size_t kKeepBytes = 4u << 20;
};

// Sees every record before it is applied, whole: after chunk reassembly and
// with staged records read from the staging area, so the same bytes on every
// transport (the capture writer, mgl/wire/capture/writer.h).
class RecordTap {
public:
    virtual ~RecordTap() = default;
    virtual void record(const uint8_t* record, uint32_t size) = 0;
};

// Everything a decoder needs besides the bytes.
struct Dispatch {
    Backend* backend = nullptr;
    ReplySink* replies = nullptr;        // required when sync verbs may arrive
    StagedSource* staging = nullptr;     // required when staged records may arrive
    RecordTap* tap = nullptr;            // null unless the session is captured
    ChunkAssembler chunks;
    MemoryBudget budget;                 // checked by chunk reassembly and by the backend
    uint64_t stream_offset = 0;          // advanced by decode_stream
    uint64_t records = 0;                // records applied (pads and chunk pieces excluded)
    uint64_t sync_replies = 0;           // replies written
    uint32_t max_reply_bytes = 64u << 20;
    std::vector<const char*> string_scratch;  // pointers handed out as wire::Strings
    // Private copies of string arguments. Records may sit in memory the client
    // can still write (shm): a string's NUL is checked here and read again by
    // the host driver, so strings are checked and used from a copy.
    std::vector<uint8_t> private_strings[4];
};

struct DecodeResult {
    size_t consumed = 0;  // bytes of whole records applied
    DecodeError error;    // status != ok: stop the session
    bool ok() const { return error.status == DecodeStatus::ok; }
};

// Applies every whole record in `bytes`. A trailing partial record is left
// unconsumed only when `partial_ok` (stream transports deliver arbitrary
// byte runs); otherwise it is an error.
DecodeResult decode_stream(std::span<const uint8_t> bytes, Dispatch& d, bool partial_ok = false);

}  // namespace mgl::wire
