// direct: no thread, no ring. Records collect in a buffer and are applied on
// the calling thread at each flush, next_window and wait_reply: the baseline
// that measures the codec and the backend without any transport cost.
#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <deque>

#include "mgl/wire/transport/links.h"

namespace mgl::wire {

namespace {

class DirectClient final : public Connection, public ReplySink {
public:
    DirectClient(std::unique_ptr<Applier> applier, uint32_t batch, bool gl_error_events)
        : applier_(std::move(applier)), buf_((batch + 7) / 8), scratch_((batch + 7) / 8) {
        window_ = whole();
        if (gl_error_events) applier_->set_event_sink([this](const Event& e) { queue_event(events_, e); });
    }

    Window next_window(uint8_t* written, size_t min_bytes) override {
        apply(written);
        return window_ = lost_.empty() ? whole() : blackhole();
    }

    Window flush(uint8_t* written) override {
        apply(written);
        return window_ = lost_.empty() ? whole() : blackhole();
    }

    size_t max_record_bytes() const override { return buf_.size() * 8; }

    std::span<const uint8_t> wait_reply(uint8_t* written, Window* window) override {
        apply(written);
        *window = window_ = lost_.empty() ? whole() : blackhole();
        if (!lost_.empty()) return {};
        if (replies_.empty()) {
            lose("wait_reply without a sync record: no reply was produced");
            *window = window_ = blackhole();
            return {};
        }
        current_ = std::move(replies_.front());
        replies_.pop_front();
        ++stats_.replies;
        return {current_.data(), current_.size()};
    }

    const std::string& lost_reason() const override { return lost_; }
    std::string_view transport() const override { return "direct"; }
    uint64_t session_id() const override { return 0; }
    bool poll_event(Event* out) override {
        if (events_.empty()) return false;
        *out = std::move(events_.front());
        events_.pop_front();
        return true;
    }
    void close() override {
        if (lost_.empty()) lost_ = "the client closed the connection";
    }
    LinkStats stats() const override { return stats_; }
    bool wait_applied(uint8_t* written, Window* window) override {
        apply(written);
        *window = window_ = lost_.empty() ? whole() : blackhole();
        return lost_.empty();
    }

    uint8_t* begin_reply(uint32_t bytes) override {
        pending_.assign(bytes, 0);
        return pending_.data();
    }
    void end_reply() override { replies_.push_back(std::move(pending_)); }

private:
    uint8_t* base() { return reinterpret_cast<uint8_t*>(buf_.data()); }
    Window whole() { return {base(), base() + buf_.size() * 8}; }
    Window blackhole() {
        auto* p = reinterpret_cast<uint8_t*>(scratch_.data());
        return {p, p + scratch_.size() * 8};
    }

    void lose(std::string why) {
        if (!lost_.empty()) return;
        lost_ = std::move(why);
        spdlog::warn("mgl direct: session over: {}", lost_);
    }

    void apply(uint8_t* written) {
        // nullptr: nothing written yet (an encoder's first call); the scratch
        // window means the session is already lost.
        if (written == nullptr || window_.begin != base()) return;
        if (written < window_.begin || written > window_.end) {
            lose("the encoder wrote outside its window");
            return;
        }
        size_t n = size_t(written - window_.begin);
        if (n == 0) return;
        DecodeResult r = applier_->apply({base(), n}, *this, false);
        stats_.bytes += r.consumed;
        ++stats_.publishes;
        if (!r.ok()) {
            Event e;
            e.kind = Event::Kind::fault;
            if (r.error.status == DecodeStatus::backend_lost) e.fault_reason = uint8_t(FaultReason::backend);
            e.opcode = r.error.opcode;
            e.stream_offset = r.error.stream_offset;
            e.message = fmt::format("{}: {}", to_string(r.error.status), r.error.detail);
            lose(describe(e));
            queue_event(events_, std::move(e));
        } else if (r.consumed != n) {
            lose("the decoder left part of a batch unapplied");
        }
    }

    std::unique_ptr<Applier> applier_;
    std::vector<uint64_t> buf_;      // u64: records are 8-byte aligned
    std::vector<uint64_t> scratch_;  // where a lost session's records go
    Window window_{};
    std::vector<uint8_t> pending_, current_;
    std::deque<std::vector<uint8_t>> replies_;
    std::deque<Event> events_;
    std::string lost_;
    LinkStats stats_;
};

}  // namespace

std::unique_ptr<Connection> make_direct_client(std::unique_ptr<Applier> applier, uint32_t batch_bytes,
                                               bool gl_error_events) {
    if (batch_bytes < 4096) batch_bytes = 4096;
    return std::make_unique<DirectClient>(std::move(applier), batch_bytes, gl_error_events);
}

}  // namespace mgl::wire
