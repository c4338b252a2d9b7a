// Rings: pad records at the end, never a split record, backpressure without
// loss, impossible cursors detected, staging bounds.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "mgl/wire/transport/ring.h"
#include "mgl/wire/transport/staging.h"

using namespace mgl::wire;

namespace {

struct NeverLost final : Liveness {
    bool lost() override { return false; }
};

// A ring on the heap with its control block.
struct HeapRing {
    explicit HeapRing(uint64_t cap) : data(cap / 8), cap(cap) {}
    RingControl ctl;
    std::vector<uint64_t> data;
    uint64_t cap;
    uint8_t* bytes() { return reinterpret_cast<uint8_t*>(data.data()); }
};

// Record i: | header | seq:u64 | filler | with a size that varies with i.
uint32_t record_size(uint64_t i) { return 16 + uint32_t((i * 7) % 23) * 8; }

void write_record(uint8_t* p, uint64_t seq) {
    RecordHeader h{0x100, 0, record_size(seq)};
    std::memcpy(p, &h, sizeof h);
    std::memcpy(p + 8, &seq, 8);
    std::memset(p + 16, int(seq & 0xff), h.size - 16);
}

// Walks the records of a span; checks each lies whole inside it and that
// sequences follow. Returns bytes walked (everything) or 0 on an error.
struct Checker {
    uint64_t next = 0, pads = 0;
    bool ok = true;
    size_t walk(std::span<const uint8_t> s) {
        size_t at = 0;
        while (at < s.size()) {
            RecordHeader h;
            if (s.size() - at < sizeof h) { ok = false; return 0; }
            std::memcpy(&h, s.data() + at, sizeof h);
            if (h.size < 8 || h.size > s.size() - at || (h.size & 7)) { ok = false; return 0; }  // split!
            if (h.opcode == kOpPad) ++pads;
            else {
                uint64_t seq;
                std::memcpy(&seq, s.data() + at + 8, 8);
                if (seq != next || h.size != record_size(seq)) { ok = false; return 0; }
                for (uint32_t i = 16; i < h.size; ++i)
                    if (s[at + i] != uint8_t(seq & 0xff)) { ok = false; return 0; }
                ++next;
            }
            at += h.size;
        }
        return at;
    }
};

}  // namespace

TEST_CASE("ring: records wrap with pad records and are never split") {
    HeapRing r(4096);
    RingProducer prod(&r.ctl, r.bytes(), r.cap);
    RingConsumer cons(&r.ctl, r.bytes(), r.cap);
    DoorbellStats st;
    Checker check;
    uint64_t seq = 0;
    for (int round = 0; round < 2000; ++round) {
        // Produce a few records, publish, consume everything visible.
        for (int k = 0; k < 5; ++k) {
            uint64_t avail = 0;
            uint8_t* p = prod.reserve(record_size(seq), &avail);
            if (!p) break;  // full: consume first
            REQUIRE(avail >= record_size(seq));
            write_record(p, seq);
            prod.commit(record_size(seq));
            ++seq;
        }
        prod.publish(false, st);
        for (;;) {
            std::span<const uint8_t> s = cons.peek();
            if (s.empty()) break;
            size_t n = check.walk(s);
            REQUIRE(check.ok);
            cons.consume(n, false, st);
        }
    }
    CHECK(check.next == seq);
    CHECK(seq > 5000);
    CHECK(check.pads > 100);  // the end of the ring was crossed many times
    CHECK(r.ctl.head.load() > 100 * r.cap);
}

TEST_CASE("ring: a full ring applies backpressure to a fast producer; nothing is lost") {
    HeapRing r(64 * 1024);
    constexpr uint64_t kRecords = 300000;
    WaitConfig cfg;
    cfg.park_slice = std::chrono::milliseconds(50);
    DoorbellStats prod_stats, cons_stats, prod_notify, cons_notify;
    Checker check;
    std::thread consumer([&] {
        RingConsumer cons(&r.ctl, r.bytes(), r.cap);
        NeverLost live;
        int spans = 0;
        while (check.next < kRecords && check.ok) {
            std::span<const uint8_t> s = cons.peek();
            if (s.empty()) {
                cons.wait_data([] { return false; }, live, cfg, cons_stats);
                continue;
            }
            size_t n = check.walk(s);
            if (!check.ok) break;
            // Slow: a pause every few spans, so the producer hits a full ring.
            if (++spans % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
            cons.consume(n, false, cons_notify);
        }
    });
    RingProducer prod(&r.ctl, r.bytes(), r.cap);
    NeverLost live;
    for (uint64_t seq = 0; seq < kRecords; ++seq) {
        uint64_t avail = 0;
        uint8_t* p;
        while (!(p = prod.reserve(record_size(seq), &avail))) {
            prod.publish(false, prod_notify);
            REQUIRE(prod.wait_space([] { return false; }, live, cfg, prod_stats) == WaitResult::ready);
        }
        write_record(p, seq);
        prod.commit(record_size(seq));
        if (seq % 64 == 63) prod.publish(false, prod_notify);
    }
    prod.publish(false, prod_notify);
    consumer.join();
    CHECK(check.ok);
    CHECK(check.next == kRecords);
    CHECK(prod_stats.waits > 0);   // the producer did wait for space
    CHECK(!prod.corrupt());
    MESSAGE("producer waits " << prod_stats.waits << ", parks " << prod_stats.parks << "; consumer parks "
                              << cons_stats.parks);
}

TEST_CASE("ring: impossible cursors from a hostile peer are detected, not followed") {
    HeapRing r(4096);
    RingProducer prod(&r.ctl, r.bytes(), r.cap);
    RingConsumer cons(&r.ctl, r.bytes(), r.cap);
    r.ctl.head.store(r.cap + 64);  // more than a ring's worth ahead of the tail
    CHECK(cons.peek().empty());
    CHECK(cons.corrupt());
    r.ctl.head.store(0);
    // A tail beyond what was ever written.
    uint64_t avail;
    for (int i = 0; i < 60; ++i) {
        uint8_t* p = prod.reserve(64, &avail);
        REQUIRE(p);
        prod.commit(64);
    }
    r.ctl.tail.store(1u << 20);
    CHECK(prod.reserve(2048, &avail) == nullptr);
    CHECK(prod.corrupt());
}

TEST_CASE("staging: payloads are named by cursor, bounds-checked and released in order") {
    HeapRing r(8192);
    StagingWriter w(&r.ctl, r.bytes(), r.cap);
    StagingReader rd(&r.ctl, r.bytes(), r.cap);
    DoorbellStats st;
    StagingSpan a = w.alloc(3000);
    REQUIRE(a.data);
    std::memset(a.data, 0xab, 3000);
    StagingSpan b = w.alloc(3000);
    REQUIRE(b.data);
    CHECK(w.alloc(3000).data == nullptr);  // no room: 6000 of 8192 used and the run to the end is short
    std::span<const uint8_t> va = rd.view(a.cursor, 3000);
    REQUIRE(va.size() == 3000);
    CHECK(va[2999] == 0xab);
    CHECK(rd.view(a.cursor, 9000).empty());        // longer than published
    CHECK(rd.view(b.cursor + 4096, 8).empty());    // beyond the head
    CHECK(rd.release_through(b.cursor, false, st));
    CHECK(rd.view(a.cursor, 8).empty());            // released
    CHECK(!rd.release_through(1u << 30, false, st));  // beyond the head: refused
    CHECK(rd.release_through(b.cursor + 3000, false, st));
    StagingSpan c = w.alloc(4000);                  // wraps to offset 0 without splitting
    REQUIRE(c.data);
    CHECK(c.data == r.bytes());
    CHECK(rd.view(c.cursor, 4000).size() == 4000);
}
