// A capture segment's header and summary as plain values (the FlatBuffers in
// the file are converted on write and verified on read).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mgl::wire::capture {

struct HeaderInfo {
    uint32_t protocol_version = 0;
    uint64_t wire_fingerprint = 0;
    std::string build_id;
    std::string backend;
    std::string program;
    uint32_t pid = 0;
    uint64_t session = 0;
    uint64_t started_unix_ms = 0;
};

struct ContextInfo {
    uint32_t id = 0, share = 0, api = 0;
    int32_t major = 0, minor = 0;
    uint32_t flags = 0, profile = 0;
};

struct SurfaceInfo {
    uint32_t id = 0, kind = 0;
    int32_t width = 0, height = 0;
    int32_t red = 0, green = 0, blue = 0, alpha = 0, depth = 0, stencil = 0, samples = 0;
};

struct SummaryInfo {
    uint64_t records = 0;
    uint64_t record_bytes = 0;
    uint64_t frames = 0;
    uint64_t blocking = 0;
    uint64_t replies = 0;  // entries of the replies blocks (not in the Summary table: counted on read)
    std::vector<ContextInfo> contexts;
    std::vector<SurfaceInfo> surfaces;
    std::string ended;
};

// A stored reply (format.h, replies block): the value a verb returned.
struct ReplyInfo {
    uint64_t record = 0;  // index of the replied record in its segment, from 0
    uint16_t opcode = 0;
    uint64_t value = 0;
};

// Follows the records that shape a summary (contexts, surfaces, frames,
// blocking waits); shared by the writer and `mgl dump --stats`.
void observe_record(SummaryInfo& s, const uint8_t* record, uint32_t size);

}  // namespace mgl::wire::capture
