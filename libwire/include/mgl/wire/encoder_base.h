// The hand-written half of the generated Encoder: window management, the
// slow paths, and chunking of records larger than a window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mgl/wire/link.h"
#include "mgl/wire/record.h"

namespace mgl::wire {

class EncoderBase {
public:
    explicit EncoderBase(ClientLink* link);
    EncoderBase(const EncoderBase&) = delete;
    EncoderBase& operator=(const EncoderBase&) = delete;

    // Publishes everything encoded so far (a flush point).
    void flush();
    // Publishes and waits for the reply to the oldest unanswered record that
    // has one. Empty span: the connection is lost.
    std::span<const uint8_t> wait_reply();
    ClientLink* link() const { return link_; }
    // Records dropped because they exceeded the largest possible record.
    uint64_t oversize_drops() const { return oversize_drops_; }

    static constexpr uint64_t kMaxRecordBytes = 1ull << 30;  // matches ChunkAssembler::kMaxRecord
    // Records from this size on go through the staging area (where the link
    // has one): below it the copy into the ring is cheaper than the staged
    // record's bookkeeping. MOBILEGL_STAGE_MIN overrides it (for measurement).
    static constexpr uint64_t kDefaultStageMin = 16u << 10;

protected:
    // Fixed-size records are small: they always fit a window.
    uint8_t* begin_fixed(uint32_t size) {
        if (size_t(end_ - cur_) < size) [[unlikely]]
            refill(size);
        uint8_t* p = cur_;
        cur_ += size;
        return p;
    }
    // Records with inline data. nullptr: larger than kMaxRecordBytes (dropped,
    // counted); the caller returns without writing. Records of stage_min_
    // bytes and more are written into the staging area where the link has one.
    uint8_t* begin_record(uint64_t size) {
        if (size <= uint64_t(end_ - cur_) && size < stage_min_) [[likely]] {
            uint8_t* p = cur_;
            cur_ += size;
            return p;
        }
        return begin_slow(size);
    }
    void end_record() {
        if (staged_bytes_ || !big_.empty()) [[unlikely]]
            end_slow();
    }

private:
    void refill(size_t min_bytes);
    uint8_t* begin_slow(uint64_t size);
    void end_slow();
    void end_big();

    uint8_t* cur_ = nullptr;
    uint8_t* end_ = nullptr;
    ClientLink* link_;
    uint64_t stage_min_ = UINT64_MAX;  // staging off unless the link has an area
    uint64_t stage_max_ = 0;           // larger records are chunked: half the area, so one always fits
    StagingSpan staged_{};             // the record being written into staging
    uint64_t staged_bytes_ = 0;
    std::vector<uint8_t> big_;  // a record too large for a window, sent as chunks
    uint64_t oversize_drops_ = 0;
};

}  // namespace mgl::wire
