// Hand-built records for transport tests and benchmarks, used until (and
// beside) the generated codec: a tiny record set with its own encoder and
// applier, written against the same seams (ClientLink, Applier) so that the
// real verbs plug into the same tests and benchmarks later.
//
// Opcodes live at the top of the u16 space, far from schema opcodes.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "mgl/wire/link.h"
#include "mgl/wire/record.h"
#include "mgl/wire/transport/applier.h"

namespace mgl::wire::testrec {

enum : uint16_t {
    kOpWork = 0xFF00,      // | seq:u64 | payload... |       applied in sequence, checksummed
    kOpEcho = 0xFF01,      // | cookie:u64 | payload... |    sync: reply = cookie + payload
    kOpBigReply = 0xFF02,  // | bytes:u32 | 0:u32 | seed:u64 | sync: reply of `bytes` pattern bytes
    kOpGlError = 0xFF03,   // | error:u32 | 0:u32 |           raises a GL error event
    kOpSleep = 0xFF04,     // | micros:u32 | 0:u32 |          a slow consumer
};

// Stand-in for mgl::gen::kWireFingerprint while the servers that tests
// start apply these records.
inline constexpr uint64_t kFingerprint = 0x7465737472656331ull;  // "testrec1"

// What a session applied; shared between the applier and the test.
struct Tally {
    std::atomic<uint64_t> records{0};
    std::atomic<uint64_t> bytes{0};
    std::atomic<uint64_t> checksum{0};   // sum of payload bytes of kOpWork
    std::atomic<uint64_t> next_seq{0};
    std::atomic<uint64_t> replies{0};
};

class TestApplier final : public Applier {
public:
    explicit TestApplier(std::shared_ptr<Tally> tally = std::make_shared<Tally>()) : tally_(std::move(tally)) {}
    DecodeResult apply(std::span<const uint8_t> bytes, ReplySink& replies, bool partial_ok) override;
    const std::shared_ptr<Tally>& tally() const { return tally_; }

private:
    std::shared_ptr<Tally> tally_;
    uint64_t offset_ = 0;  // stream offset of the next byte
};

// Accepts the backend names "", "null" and "test"; every session made gets a
// fresh Tally, published in `tallies` when it is non-null (tests inspect it).
struct TallyBoard {
    std::mutex mutex;
    std::vector<std::shared_ptr<Tally>> tallies;
};
ApplierFactory test_applier_factory(std::shared_ptr<TallyBoard> board = nullptr);

// Writes test records straight into the link's windows, as the generated
// encoder does: no copy, no virtual call per record.
class TestEncoder {
public:
    explicit TestEncoder(ClientLink& link);

    void work(uint64_t seq, uint32_t payload_bytes, uint8_t fill = 0x5a);
    // Returns the reply (cookie echoed, then the payload), or empty if lost.
    std::span<const uint8_t> echo(uint64_t cookie, std::span<const uint8_t> payload = {});
    std::span<const uint8_t> big_reply(uint32_t bytes, uint64_t seed);
    void gl_error(uint32_t error);
    void sleep_us(uint32_t micros);
    // Any bytes as they are (a malformed record, on purpose); size multiple of 8.
    void raw(std::span<const uint8_t> bytes);
    void flush();
    uint8_t* cursor() const { return cur_; }
    ClientLink& link() { return *link_; }

    // Pattern byte i of a big reply.
    static uint8_t pattern(uint64_t seed, uint64_t i) { return uint8_t(seed + i * 131); }

private:
    uint8_t* begin(uint32_t size) {
        if (size_t(end_ - cur_) < size) refill(size);
        uint8_t* p = cur_;
        cur_ += size;
        return p;
    }
    void refill(uint32_t size);
    ClientLink* link_;
    uint8_t* cur_ = nullptr;
    uint8_t* end_ = nullptr;
};

}  // namespace mgl::wire::testrec
