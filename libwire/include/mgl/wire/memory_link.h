// A ClientLink over a growable memory buffer, plus a ReplySink that keeps
// replies in memory. Used by capture files, tests and benchmarks; the
// `direct` transport builds on the same idea but decodes at each flush.
#pragma once

#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "mgl/wire/link.h"

namespace mgl::wire {

class VectorReplySink : public ReplySink {
public:
    uint8_t* begin_reply(uint32_t bytes) override;
    void end_reply() override;
    std::deque<std::vector<uint8_t>> replies;  // complete replies, oldest first
    size_t keep = 64;                          // older replies are dropped beyond this
private:
    std::vector<uint8_t> open_;
};

// Records accumulate in `bytes()`. When wait_reply() is called, `on_reply`
// (if set) runs first: it is expected to decode the pending bytes and push
// the replies into `replies` (tests do exactly that with a DigestBackend).
class MemoryLink : public ClientLink {
public:
    explicit MemoryLink(size_t window_bytes = 1 << 20, size_t max_record = 1 << 20);
    Window next_window(uint8_t* written, size_t min_bytes) override;
    Window flush(uint8_t* written) override;
    size_t max_record_bytes() const override { return max_record_; }
    std::span<const uint8_t> wait_reply(uint8_t* written, Window* window) override;
    const std::string& lost_reason() const override { return lost_; }

    // Everything published so far.
    const std::vector<uint8_t>& bytes() const { return published_; }
    void clear() { published_.clear(); }
    // Fills the window with `value` so that tests can see unwritten bytes.
    void poison(uint8_t value) { std::fill(window_.begin(), window_.end(), value); }

    std::function<void(MemoryLink&)> on_reply;
    VectorReplySink replies;

private:
    void commit(uint8_t* written);
    std::vector<uint8_t> window_;
    std::vector<uint8_t> published_;
    size_t max_record_;
    std::vector<uint8_t> reply_;
    std::string lost_;
};

}  // namespace mgl::wire
