// Single-producer/single-consumer byte ring carrying whole records.
//
// The shared part (RingControl) holds only two monotonically increasing u64
// byte cursors and the two doorbell `want` words; it may live in heap memory
// (inproc) or in a shared memory segment (shm). Each side keeps its own
// capacity, data pointer and cursor copy in a local object, so a peer that
// scribbles on shared memory can only make the cursors it owns wrong, and
// those are validated on every read (RingProducer::corrupt/RingConsumer::corrupt).
//
// Records never straddle the end of the ring: when the run left before the
// end is too short the producer writes a pad record (opcode kOpPad, size =
// the gap) and continues at offset 0, so a consumer always sees contiguous
// whole records and the decoder never reassembles.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "mgl/wire/record.h"
#include "mgl/wire/transport/doorbell.h"

namespace mgl::wire {

// Two cache lines apart (not one): adjacent-line prefetchers pull 128-byte
// pairs, which would bring the false sharing back.
inline constexpr size_t kSharingDistance = 128;

struct RingControl {
    // Producer's line: written by the producer, read by the consumer.
    alignas(kSharingDistance) std::atomic<uint64_t> head{0};   // bytes published
    std::atomic<uint64_t> producer_want{0};                    // parked until tail >= want; 0 = not parked
    // Consumer's line.
    alignas(kSharingDistance) std::atomic<uint64_t> tail{0};   // bytes consumed
    std::atomic<uint64_t> consumer_want{0};                    // parked until head >= want
};
static_assert(sizeof(RingControl) == 2 * kSharingDistance);

inline constexpr uint64_t kMinRingBytes = 4096;
inline constexpr uint64_t kMaxRingBytes = 1ull << 30;
constexpr bool valid_ring_size(uint64_t n) {
    return n >= kMinRingBytes && n <= kMaxRingBytes && (n & (n - 1)) == 0;
}

class RingProducer {
public:
    RingProducer() = default;
    RingProducer(RingControl* ctl, uint8_t* data, uint64_t capacity)
        : ctl_(ctl), data_(data), cap_(capacity), mask_(capacity - 1),
          pos_(ctl->head.load(std::memory_order_relaxed)), published_(pos_),
          tail_cache_(ctl->tail.load(std::memory_order_acquire)) {}

    // A contiguous writable run of at least `min` bytes (8-aligned) at the
    // write position, its length in *avail. If the run before the end of the
    // ring is shorter than `min`, a pad record fills it first. nullptr when
    // the consumer has not freed enough yet: wait until tail >= space_target().
    uint8_t* reserve(uint64_t min, uint64_t* avail) {
        uint64_t off = pos_ & mask_;
        uint64_t contig = cap_ - off;
        if (contig < min) {
            if (!has_space(contig)) { target_ = pos_ + contig - cap_; return nullptr; }
            RecordHeader pad{kOpPad, kFlagNone, uint32_t(contig)};
            std::memcpy(data_ + off, &pad, sizeof pad);
            pos_ += contig;
            off = 0;
            contig = cap_;
        }
        if (!has_space(min)) { target_ = pos_ + min - cap_; return nullptr; }
        uint64_t free = cap_ - (pos_ - tail_cache_);
        *avail = free < contig ? free : contig;
        return data_ + off;
    }

    // `n` bytes of whole records were written at the last reservation.
    void commit(uint64_t n) { pos_ += n; }

    // Makes everything committed visible to the consumer and rings its
    // doorbell if (and only if) it is parked waiting for it.
    void publish(bool shared, DoorbellStats& stats) {
        if (pos_ == published_) return;
        published_ = pos_;
        ctl_->head.store(pos_, std::memory_order_release);
        notify(&ctl_->head, &ctl_->consumer_want, pos_, shared, stats);
    }

    // Waits (spin, then park) until the consumer freed what reserve() needs.
    template <class Extra>
    WaitResult wait_space(Extra&& extra, Liveness& live, const WaitConfig& cfg, DoorbellStats& stats) {
        return wait_cursor(&ctl_->tail, &ctl_->producer_want, target_, extra, live, cfg, stats);
    }

    // Waits until the consumer has consumed up to `cursor` (targeted wake-up:
    // "tell me when the server has applied this much").
    template <class Extra>
    WaitResult wait_consumed(uint64_t cursor, Extra&& extra, Liveness& live, const WaitConfig& cfg,
                             DoorbellStats& stats) {
        return wait_cursor(&ctl_->tail, &ctl_->producer_want, cursor, extra, live, cfg, stats);
    }

    uint64_t space_target() const { return target_; }
    uint64_t write_pos() const { return pos_; }
    uint64_t published() const { return published_; }
    uint64_t capacity() const { return cap_; }
    // The consumer wrote an impossible tail (only a hostile peer does that).
    bool corrupt() const { return corrupt_; }
    RingControl* control() const { return ctl_; }

private:
    bool has_space(uint64_t n) {
        if (cap_ - (pos_ - tail_cache_) >= n) return true;
        uint64_t t = ctl_->tail.load(std::memory_order_acquire);
        if (t < tail_cache_ || t > pos_ || (t & 7)) { corrupt_ = true; return false; }
        tail_cache_ = t;
        return cap_ - (pos_ - tail_cache_) >= n;
    }

    RingControl* ctl_ = nullptr;
    uint8_t* data_ = nullptr;
    uint64_t cap_ = 0, mask_ = 0;
    uint64_t pos_ = 0;         // write position (committed, maybe unpublished)
    uint64_t published_ = 0;
    uint64_t tail_cache_ = 0;  // last tail seen; refreshed only when space looks short
    uint64_t target_ = 0;
    bool corrupt_ = false;
};

class RingConsumer {
public:
    RingConsumer() = default;
    RingConsumer(RingControl* ctl, uint8_t* data, uint64_t capacity)
        : ctl_(ctl), data_(data), cap_(capacity), mask_(capacity - 1),
          tail_(ctl->tail.load(std::memory_order_relaxed)) {}

    // The published bytes from the read position up to the end of the ring,
    // at most: whole records (the producer pads instead of splitting). Empty
    // when nothing is published, or when the producer's cursor is impossible
    // (then corrupt() is true).
    std::span<const uint8_t> peek() {
        uint64_t h = ctl_->head.load(std::memory_order_acquire);
        if (h == tail_) return {};
        if (h < tail_ || h - tail_ > cap_ || (h & 7)) { corrupt_ = true; return {}; }
        uint64_t off = tail_ & mask_;
        uint64_t n = h - tail_;
        if (n > cap_ - off) n = cap_ - off;
        return {data_ + off, size_t(n)};
    }

    // Frees `n` bytes (whole records, pads included) for the producer and
    // wakes it if it is parked waiting for that much space.
    void consume(uint64_t n, bool shared, DoorbellStats& stats) {
        tail_ += n;
        ctl_->tail.store(tail_, std::memory_order_release);
        notify(&ctl_->tail, &ctl_->producer_want, tail_, shared, stats);
    }

    // Waits (spin, then park) until something is published.
    template <class Extra>
    WaitResult wait_data(Extra&& extra, Liveness& live, const WaitConfig& cfg, DoorbellStats& stats) {
        return wait_cursor(&ctl_->head, &ctl_->consumer_want, tail_ + kRecordAlign, extra, live, cfg, stats);
    }

    uint64_t read_pos() const { return tail_; }
    uint64_t capacity() const { return cap_; }
    bool corrupt() const { return corrupt_; }
    RingControl* control() const { return ctl_; }

private:
    RingControl* ctl_ = nullptr;
    const uint8_t* data_ = nullptr;
    uint64_t cap_ = 0, mask_ = 0;
    uint64_t tail_ = 0;
    bool corrupt_ = false;
};

}  // namespace mgl::wire
