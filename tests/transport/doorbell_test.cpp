// Doorbells: streaming costs far fewer than one wake-up per 1000 records;
// a waiter is woken only when what it waits for is reached; a park ends when
// the peer is found dead.
#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "mgl/wire/transport/ring.h"

using namespace mgl::wire;
using namespace std::chrono_literals;

namespace {
struct FlagLiveness final : Liveness {
    std::atomic<bool> dead{false};
    int checks = 0;
    bool lost() override { return false; }
    bool check() override {
        ++checks;
        return dead.load();
    }
};
}  // namespace

TEST_CASE("doorbell: a streaming producer causes far fewer than one wake-up per 1000 records") {
    constexpr uint64_t kCap = 1 << 20, kRecords = 2'000'000, kRecord = 16;
    constexpr uint64_t kBatch = kCap / 4;  // publish when a quarter of the ring is written
    RingControl ctl;
    std::vector<uint64_t> mem(kCap / 8);
    auto* data = reinterpret_cast<uint8_t*>(mem.data());
    WaitConfig cfg;
    DoorbellStats prod_wait, prod_notify, cons_wait, cons_notify;
    std::atomic<uint64_t> consumed_records{0};
    std::thread consumer([&] {
        RingConsumer cons(&ctl, data, kCap);
        FlagLiveness live;
        uint64_t n = 0;
        while (n < kRecords) {
            std::span<const uint8_t> s = cons.peek();
            if (s.empty()) {
                cons.wait_data([] { return false; }, live, cfg, cons_wait);
                continue;
            }
            size_t at = 0;
            while (at < s.size()) {
                RecordHeader h;
                std::memcpy(&h, s.data() + at, sizeof h);
                if (h.opcode != kOpPad) ++n;
                at += h.size;
            }
            cons.consume(at, false, cons_notify);
        }
        consumed_records = n;
    });
    RingProducer prod(&ctl, data, kCap);
    FlagLiveness live;
    uint64_t in_window = 0;
    for (uint64_t i = 0; i < kRecords; ++i) {
        uint64_t avail;
        uint8_t* p;
        while (!(p = prod.reserve(kRecord, &avail))) {
            prod.publish(false, prod_notify);
            prod.wait_space([] { return false; }, live, cfg, prod_wait);
        }
        RecordHeader h{0x100, 0, kRecord};
        std::memcpy(p, &h, sizeof h);
        std::memcpy(p + 8, &i, 8);
        prod.commit(kRecord);
        if ((in_window += kRecord) >= kBatch) {
            prod.publish(false, prod_notify);
            in_window = 0;
        }
    }
    prod.publish(false, prod_notify);
    consumer.join();
    REQUIRE(consumed_records == kRecords);
    uint64_t wakes = prod_notify.wakes + cons_notify.wakes;
    double per_1000 = 1000.0 * double(wakes) / double(kRecords);
    MESSAGE("wake-ups: " << wakes << " (" << per_1000 << " per 1000 records); consumer parks " << cons_wait.parks
                         << ", producer parks " << prod_wait.parks);
    CHECK(per_1000 < 0.1);
    CHECK(cons_wait.parks + prod_wait.parks <= wakes + cons_wait.timeouts + prod_wait.timeouts + 2);
}

TEST_CASE("doorbell: targeted wake-up: woken only when the awaited cursor is reached") {
    RingControl ctl;
    WaitConfig cfg;
    cfg.spin_iterations = 0;  // park at once
    cfg.park_slice = 2s;
    DoorbellStats waiter, notifier;
    std::atomic<bool> done{false};
    std::thread t([&] {
        FlagLiveness live;
        wait_cursor(&ctl.head, &ctl.consumer_want, 4096, [] { return false; }, live, cfg, waiter);
        done = true;
    });
    std::this_thread::sleep_for(50ms);
    CHECK(ctl.consumer_want.load() == 4096);  // the waiter published what it needs
    ctl.head.store(1024);
    notify(&ctl.head, &ctl.consumer_want, 1024, false, notifier);
    std::this_thread::sleep_for(50ms);
    CHECK(notifier.wakes == 0);  // not reached: nobody was woken
    CHECK(!done);
    ctl.head.store(4096);
    notify(&ctl.head, &ctl.consumer_want, 4096, false, notifier);
    t.join();
    CHECK(done);
    CHECK(notifier.wakes == 1);
    CHECK(waiter.parks >= 1);
    // A second notify with nobody parked costs no system call.
    notify(&ctl.head, &ctl.consumer_want, 8192, false, notifier);
    CHECK(notifier.wakes == 1);
}

TEST_CASE("doorbell: a park ends when the liveness check finds the peer dead") {
    RingControl ctl;
    WaitConfig cfg;
    cfg.spin_iterations = 100;
    cfg.park_slice = 20ms;
    DoorbellStats st;
    FlagLiveness live;
    std::thread killer([&] {
        std::this_thread::sleep_for(60ms);
        live.dead = true;
    });
    auto t0 = std::chrono::steady_clock::now();
    WaitResult r = wait_cursor(&ctl.head, &ctl.consumer_want, 8, [] { return false; }, live, cfg, st);
    auto took = std::chrono::steady_clock::now() - t0;
    killer.join();
    CHECK(r == WaitResult::lost);
    CHECK(took < 1s);
    CHECK(st.timeouts >= 2);
    CHECK(ctl.consumer_want.load() == 0);  // nothing left parked
}
