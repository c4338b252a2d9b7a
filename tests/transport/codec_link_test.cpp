// The generated codec over every transport: the generated encoder writes
// into the transports' windows, decode_stream applies into a null backend on
// the server, sync verbs come back as replies, oversized records travel as
// chunks. Built only when the codec library exists.
#include <doctest/doctest.h>

#include <atomic>
#include <vector>

#include "gen/encoder.h"
#include "gen/fingerprint.h"
#include "gen/null_backend.h"
#include "gen/opcodes.h"
#include "gen/replies.h"
#include "harness.h"
#include "mgl/server/codec_applier.h"

using namespace mgl;
using namespace mgl::test;
using namespace std::chrono_literals;

namespace {

// A null backend that adds what it counted to a shared tally when its
// session ends.
struct Tally {
    std::atomic<uint64_t> draws{0}, buffers{0}, buffer_bytes{0};
};
struct TallyBackend final : NullBackend {
    explicit TallyBackend(std::shared_ptr<Tally> t) : tally(std::move(t)) {}
    void glBufferData(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLenum usage) override {
        NullBackend::glBufferData(target, size, data, usage);
        tally->buffer_bytes += data.size;
        bool same = true;
        for (uint32_t i = 0; i < data.size; ++i) same &= data.data[i] == uint8_t(i * 7);
        if (!same) tally->buffer_bytes += 1ull << 40;  // poisons the check below
    }
    ~TallyBackend() override {
        tally->draws += counts[uint16_t(gen::Op::glDrawArrays)];
        tally->buffers += counts[uint16_t(gen::Op::glBufferData)];
    }
    std::shared_ptr<Tally> tally;
};

}  // namespace

TEST_CASE("codec: generated records over every transport") {
    auto tally = std::make_shared<Tally>();
    wire::ApplierFactory appliers = server::codec_applier_factory(
        [tally](const std::string& name) -> std::unique_ptr<Backend> {
            if (name != "null") return nullptr;
            return std::make_unique<TallyBackend>(tally);
        });
    server::ServerOptions o;
    o.appliers = appliers;
    o.default_backend = "null";
    o.wire_fingerprint = gen::kWireFingerprint;
    TempDir dir;
    server::Server srv(std::move(o));
    srv.inproc_endpoint();
    std::string e;
    REQUIRE(!srv.listen("unix:" + dir.path + "/s.sock", &e).empty());
    std::string tcp = srv.listen("tcp://127.0.0.1:0", &e);
    REQUIRE(!tcp.empty());

    std::vector<uint8_t> big(5u << 20);  // larger than any window: chunked
    for (size_t i = 0; i < big.size(); ++i) big[i] = uint8_t(i * 7);
    uint64_t sessions = 0;
    for (const std::string& t : {std::string("direct"), std::string("inproc"), "shm:" + dir.path + "/s.sock", tcp}) {
        CAPTURE(t);
        wire::ConnectOptions co;
        co.transport = t;
        co.wire_fingerprint = gen::kWireFingerprint;
        co.backend = "null";
        co.direct_appliers = appliers;
        auto link = connect_ok(co);
        ++sessions;
        gen::Encoder enc(link.get());
        for (int i = 0; i < 100000; ++i) enc.glDrawArrays(4, i, 3);
        enc.glBufferData(0x8892, GLsizeiptr(big.size()), wire::Blob{big.data(), uint32_t(big.size())}, 0x88E4);
        enc.mglPing(42);
        GLuint64 pong = 1;
        REQUIRE_MESSAGE(gen::read_reply_mglPing(enc.wait_reply(), &pong), link->lost_reason());
        CHECK(pong == 0);  // the null backend answers zero
        CHECK(enc.oversize_drops() == 0);
        link->close();
    }
    CHECK(srv.wait_sessions_at_most(0, 2s));
    // direct's backend dies with its link; the others with their sessions.
    CHECK(tally->draws == 100000 * sessions);
    CHECK(tally->buffers == sessions);
    CHECK(tally->buffer_bytes == big.size() * sessions);
}
