// The staging area: a second SPSC byte ring for bulk payloads (texture and
// buffer uploads over a threshold) in shared memory.
//
// The client copies a payload into staging and sends a small record that
// names it by (cursor, size); the server reads it in place while applying
// that record and then releases everything up to the end of it. Records are
// applied in order, so staging is freed in order too and a ring suffices.
// Allocations never wrap: a too-short run at the end is skipped (the skipped
// bytes are released with the next allocation, no pad is needed because the
// server never walks staging, it only looks up what records name).
#pragma once

#include <cstdint>
#include <span>

#include "mgl/wire/link.h"
#include "mgl/wire/transport/ring.h"

namespace mgl::wire {

// StagingSpan (link.h): alloc() returns data == nullptr when there is no
// space yet; wait until tail >= space_target().

class StagingWriter {
public:
    StagingWriter() = default;
    StagingWriter(RingControl* ctl, uint8_t* data, uint64_t capacity)
        : ctl_(ctl), data_(data), cap_(capacity), mask_(capacity - 1),
          pos_(ctl->head.load(std::memory_order_relaxed)) {}

    // Reserves `n` contiguous bytes (n <= capacity) and publishes them at once:
    // the record naming them is published later, so the server sees both.
    StagingSpan alloc(uint64_t n) {
        n = (n + 7) & ~uint64_t(7);
        uint64_t off = pos_ & mask_;
        uint64_t start = (cap_ - off < n) ? pos_ + (cap_ - off) : pos_;
        uint64_t t = ctl_->tail.load(std::memory_order_acquire);
        if (t > pos_ || start + n - t > cap_) { target_ = start + n - cap_; return {}; }
        pos_ = start + n;
        ctl_->head.store(pos_, std::memory_order_release);
        return {data_ + (start & mask_), start};
    }

    template <class Extra>
    WaitResult wait_space(Extra&& extra, Liveness& live, const WaitConfig& cfg, DoorbellStats& stats) {
        return wait_cursor(&ctl_->tail, &ctl_->producer_want, target_, extra, live, cfg, stats);
    }

    uint64_t space_target() const { return target_; }
    uint64_t capacity() const { return cap_; }

private:
    RingControl* ctl_ = nullptr;
    uint8_t* data_ = nullptr;
    uint64_t cap_ = 0, mask_ = 0, pos_ = 0, target_ = 0;
};

class StagingReader {
public:
    StagingReader() = default;
    StagingReader(RingControl* ctl, const uint8_t* data, uint64_t capacity)
        : ctl_(ctl), data_(data), cap_(capacity), mask_(capacity - 1),
          tail_(ctl->tail.load(std::memory_order_relaxed)) {}

    // The payload a record names, bounds-checked against what the client
    // published and what is not yet released; empty if the record lies.
    std::span<const uint8_t> view(uint64_t cursor, uint64_t size) const {
        uint64_t h = ctl_->head.load(std::memory_order_acquire);
        if (cursor < tail_ || cursor > h || size > h - cursor || h - tail_ > cap_) return {};
        uint64_t off = cursor & mask_;
        if (size > cap_ - off) return {};
        return {data_ + off, size_t(size)};
    }

    // Frees everything before `cursor` (the end of the last payload used).
    bool release_through(uint64_t cursor, bool shared, DoorbellStats& stats) {
        uint64_t h = ctl_->head.load(std::memory_order_acquire);
        if (cursor < tail_ || cursor > h) return false;
        tail_ = cursor;
        ctl_->tail.store(tail_, std::memory_order_release);
        notify(&ctl_->tail, &ctl_->producer_want, tail_, shared, stats);
        return true;
    }

    uint64_t read_pos() const { return tail_; }

private:
    RingControl* ctl_ = nullptr;
    const uint8_t* data_ = nullptr;
    uint64_t cap_ = 0, mask_ = 0, tail_ = 0;
};

}  // namespace mgl::wire
