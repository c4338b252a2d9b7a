// The test-record workload (see workload.h).
#include <cstring>

#include "mgl/wire/transport/test_records.h"
#include "workload.h"

namespace mgl::bench {

namespace {

class TestrecDriver final : public Driver {
public:
    TestrecDriver(wire::ClientLink& link, uint32_t payload) : enc_(link), payload_(payload) {}
    void stream(uint64_t calls) override {
        for (uint64_t i = 0; i < calls; ++i) enc_.work(seq_++, payload_, 0x11);
    }
    bool round_trip() override { return enc_.echo(++cookie_).size() == 8; }
    void flush() override { enc_.flush(); }

private:
    wire::testrec::TestEncoder enc_;
    uint32_t payload_;
    uint64_t seq_ = 0, cookie_ = 0;
};

class TestrecWorkload final : public Workload {
public:
    explicit TestrecWorkload(uint32_t payload) : payload_(payload) {}
    std::string name() const override { return "testrec/" + std::to_string(16 + ((payload_ + 7) & ~7u)) + "B"; }
    wire::ApplierFactory appliers() const override { return wire::testrec::test_applier_factory(); }
    uint64_t wire_fingerprint() const override { return wire::testrec::kFingerprint; }
    std::unique_ptr<Driver> attach(wire::ClientLink& link) const override {
        return std::make_unique<TestrecDriver>(link, payload_);
    }

private:
    uint32_t payload_;
};

}  // namespace

std::unique_ptr<Workload> make_testrec_workload(uint32_t payload_bytes) {
    return std::make_unique<TestrecWorkload>(payload_bytes);
}

}  // namespace mgl::bench
