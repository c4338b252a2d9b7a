// Reads a capture file (format.h) that may be truncated, corrupt or hostile:
// every length is checked against the file and the format's bounds, every
// FlatBuffer verified, every block's decompressed size and record walk
// checked, before anything is handed out. Errors are values with the file
// offset; nothing past the first error is read.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mgl/wire/capture/info.h"

namespace mgl::wire::capture {

class Reader {
public:
    Reader() = default;
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    // Maps the file; false with error() set.
    bool open(const std::string& path);
    // Over bytes the caller keeps alive (fuzzing, tests).
    void open_bytes(std::span<const uint8_t> bytes);

    // The next segment's header. False at the end of the file (error() empty)
    // or on an error.
    bool next_segment(HeaderInfo* header);
    // The segment's next block of whole records (valid until the next call).
    // False at the segment's end block (summary() then holds it) or on an
    // error. Every record in the span has a header whose size is a multiple
    // of 8, at least 8 and within the span.
    bool next_block(std::span<const uint8_t>* records, uint32_t* count);
    const SummaryInfo& summary() const { return summary_; }
    // The segment's stored replies read so far, in record order: those of a
    // records block are read before it is handed out (format.h).
    const std::vector<ReplyInfo>& replies() const { return replies_; }

    // Non-empty after an error: what was wrong and where.
    const std::string& error() const { return error_; }
    uint64_t offset() const { return at_; }

private:
    bool fail(const std::string& what);
    bool take(uint64_t n, const uint8_t** p, const char* what);

    const uint8_t* data_ = nullptr;
    uint64_t size_ = 0;
    uint64_t at_ = 0;
    void* map_ = nullptr;
    bool in_segment_ = false;
    std::vector<uint8_t> raw_;
    void* dctx_ = nullptr;
    SummaryInfo summary_;
    std::vector<ReplyInfo> replies_;
    uint64_t records_seen_ = 0;  // records of the segment's blocks read so far
    std::string path_;
    std::string error_;
};

}  // namespace mgl::wire::capture
