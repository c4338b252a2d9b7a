// Test records: encoder and bounds-checked applier (see test_records.h).
#include "mgl/wire/transport/test_records.h"

#include <fmt/format.h>

#include <cstring>
#include <thread>

namespace mgl::wire::testrec {

namespace {

template <class T>
T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

DecodeResult error(DecodeResult r, DecodeStatus s, uint16_t op, uint64_t off, std::string detail) {
    r.error.status = s;
    r.error.opcode = op;
    r.error.stream_offset = off;
    r.error.detail = std::move(detail);
    return r;
}

}  // namespace

DecodeResult TestApplier::apply(std::span<const uint8_t> bytes, ReplySink& replies, bool partial_ok) {
    DecodeResult r;
    size_t at = 0;
    while (at < bytes.size()) {
        size_t left = bytes.size() - at;
        if (left < sizeof(RecordHeader)) {
            if (partial_ok) break;
            return error(r, DecodeStatus::truncated, 0, offset_, "fewer bytes than a record header");
        }
        RecordHeader h = load<RecordHeader>(bytes.data() + at);
        if (h.size < sizeof h || (h.size & 7))
            return error(r, DecodeStatus::bad_size, h.opcode, offset_, fmt::format("record size {}", h.size));
        if (h.size > left) {
            if (partial_ok) break;
            return error(r, DecodeStatus::truncated, h.opcode, offset_,
                         fmt::format("record of {} bytes, {} left", h.size, left));
        }
        const uint8_t* p = bytes.data() + at + sizeof h;
        const uint32_t body = h.size - uint32_t(sizeof h);
        switch (h.opcode) {
        case kOpPad: break;
        case kOpWork: {
            if (body < 8) return error(r, DecodeStatus::bad_size, h.opcode, offset_, "work without a sequence");
            uint64_t seq = load<uint64_t>(p);
            uint64_t want = tally_->next_seq.load(std::memory_order_relaxed);
            if (seq != want)
                return error(r, DecodeStatus::bad_length, h.opcode, offset_,
                             fmt::format("sequence {} where {} was due: a record was lost or reordered", seq, want));
            uint64_t sum = 0;
            for (uint32_t i = 8; i < body; ++i) sum += p[i];
            tally_->next_seq.store(seq + 1, std::memory_order_relaxed);
            tally_->checksum.fetch_add(sum, std::memory_order_relaxed);
            break;
        }
        case kOpEcho: {
            if (body < 8) return error(r, DecodeStatus::bad_size, h.opcode, offset_, "echo without a cookie");
            uint8_t* out = replies.begin_reply(body);
            std::memcpy(out, p, body);
            replies.end_reply();
            tally_->replies.fetch_add(1, std::memory_order_relaxed);
            break;
        }
        case kOpBigReply: {
            if (body < 16) return error(r, DecodeStatus::bad_size, h.opcode, offset_, "big reply too short");
            uint32_t n = load<uint32_t>(p);
            uint64_t seed = load<uint64_t>(p + 8);
            if (n > (256u << 20)) return error(r, DecodeStatus::too_large, h.opcode, offset_, "reply too large");
            uint8_t* out = replies.begin_reply(n);
            for (uint32_t i = 0; i < n; ++i) out[i] = TestEncoder::pattern(seed, i);
            replies.end_reply();
            tally_->replies.fetch_add(1, std::memory_order_relaxed);
            break;
        }
        case kOpGlError: {
            if (body < 8) return error(r, DecodeStatus::bad_size, h.opcode, offset_, "gl error too short");
            if (events_) {
                Event e;
                e.kind = Event::Kind::gl_error;
                e.gl_error = load<uint32_t>(p);
                e.opcode = h.opcode;
                e.stream_offset = offset_;
                events_(e);
            }
            break;
        }
        case kOpSleep: {
            if (body < 8) return error(r, DecodeStatus::bad_size, h.opcode, offset_, "sleep too short");
            std::this_thread::sleep_for(std::chrono::microseconds(load<uint32_t>(p)));
            break;
        }
        default:
            return error(r, DecodeStatus::unknown_opcode, h.opcode, offset_,
                         fmt::format("unknown opcode {}", h.opcode));
        }
        if (h.opcode != kOpPad) tally_->records.fetch_add(1, std::memory_order_relaxed);
        tally_->bytes.fetch_add(h.size, std::memory_order_relaxed);
        at += h.size;
        offset_ += h.size;
        r.consumed = at;
    }
    return r;
}

ApplierFactory test_applier_factory(std::shared_ptr<TallyBoard> board) {
    return [board](const std::string& backend) -> std::unique_ptr<Applier> {
        if (!backend.empty() && backend != "null" && backend != "test") return nullptr;
        auto tally = std::make_shared<Tally>();
        if (board) {
            std::lock_guard lock(board->mutex);
            board->tallies.push_back(tally);
        }
        return std::make_unique<TestApplier>(tally);
    };
}

TestEncoder::TestEncoder(ClientLink& link) : link_(&link) {
    Window w = link_->next_window(nullptr, 0);
    cur_ = w.begin;
    end_ = w.end;
}

void TestEncoder::refill(uint32_t size) {
    Window w = link_->next_window(cur_, size);
    cur_ = w.begin;
    end_ = w.end;
}

void TestEncoder::work(uint64_t seq, uint32_t payload_bytes, uint8_t fill) {
    uint32_t size = align8(uint32_t(sizeof(RecordHeader)) + 8 + payload_bytes);
    uint8_t* p = begin(size);
    RecordHeader h{kOpWork, 0, size};
    std::memcpy(p, &h, sizeof h);
    std::memcpy(p + 8, &seq, 8);
    std::memset(p + 16, fill, payload_bytes);
    std::memset(p + 16 + payload_bytes, 0, size - 16 - payload_bytes);
}

std::span<const uint8_t> TestEncoder::echo(uint64_t cookie, std::span<const uint8_t> payload) {
    uint32_t body = 8 + align8(uint32_t(payload.size()));
    uint32_t size = uint32_t(sizeof(RecordHeader)) + body;
    uint8_t* p = begin(size);
    RecordHeader h{kOpEcho, 0, size};
    std::memcpy(p, &h, sizeof h);
    std::memcpy(p + 8, &cookie, 8);
    if (!payload.empty()) std::memcpy(p + 16, payload.data(), payload.size());
    std::memset(p + 16 + payload.size(), 0, size - 16 - payload.size());
    Window w;
    std::span<const uint8_t> reply = link_->wait_reply(cur_, &w);
    cur_ = w.begin;
    end_ = w.end;
    return reply;
}

std::span<const uint8_t> TestEncoder::big_reply(uint32_t bytes, uint64_t seed) {
    uint8_t* p = begin(24);
    RecordHeader h{kOpBigReply, 0, 24};
    std::memcpy(p, &h, sizeof h);
    std::memcpy(p + 8, &bytes, 4);
    std::memset(p + 12, 0, 4);
    std::memcpy(p + 16, &seed, 8);
    Window w;
    std::span<const uint8_t> reply = link_->wait_reply(cur_, &w);
    cur_ = w.begin;
    end_ = w.end;
    return reply;
}

void TestEncoder::gl_error(uint32_t e) {
    uint8_t* p = begin(16);
    RecordHeader h{kOpGlError, 0, 16};
    std::memcpy(p, &h, sizeof h);
    std::memcpy(p + 8, &e, 4);
    std::memset(p + 12, 0, 4);
}

void TestEncoder::sleep_us(uint32_t micros) {
    uint8_t* p = begin(16);
    RecordHeader h{kOpSleep, 0, 16};
    std::memcpy(p, &h, sizeof h);
    std::memcpy(p + 8, &micros, 4);
    std::memset(p + 12, 0, 4);
}

void TestEncoder::raw(std::span<const uint8_t> bytes) {
    uint8_t* p = begin(uint32_t(bytes.size()));
    std::memcpy(p, bytes.data(), bytes.size());
}

void TestEncoder::flush() {
    Window w = link_->flush(cur_);
    cur_ = w.begin;
    end_ = w.end;
}

}  // namespace mgl::wire::testrec
