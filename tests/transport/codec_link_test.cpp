// The generated codec over every transport: the generated encoder writes
// into the transports' windows, decode_stream applies into a null backend on
// the server, sync verbs come back as replies, oversized records travel as
// chunks. Built only when the codec library exists.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <utility>
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

// A server whose "null" backend is made by `make`, listening on every
// transport, and the client options to reach it.
struct CodecServer {
    template <class Make>
    explicit CodecServer(Make make) {
        appliers = server::codec_applier_factory([make](const std::string& name) -> std::unique_ptr<Backend> {
            if (name != "null") return nullptr;
            return make();
        });
        server::ServerOptions o;
        o.appliers = appliers;
        o.default_backend = "null";
        o.wire_fingerprint = gen::kWireFingerprint;
        srv = std::make_unique<server::Server>(std::move(o));
        srv->inproc_endpoint();
        std::string e;
        REQUIRE(!srv->listen("unix:" + dir.path + "/s.sock", &e).empty());
        std::string tcp = srv->listen("tcp://127.0.0.1:0", &e);
        REQUIRE(!tcp.empty());
        transports = {"direct", "inproc", "shm:" + dir.path + "/s.sock", tcp};
    }
    std::unique_ptr<wire::Connection> connect(const std::string& transport) const {
        wire::ConnectOptions co;
        co.transport = transport;
        co.wire_fingerprint = gen::kWireFingerprint;
        co.backend = "null";
        co.direct_appliers = appliers;
        return connect_ok(co);
    }

    wire::ApplierFactory appliers;
    TempDir dir;
    std::unique_ptr<server::Server> srv;
    std::vector<std::string> transports;
};

}  // namespace

TEST_CASE("codec: generated records over every transport") {
    auto tally = std::make_shared<Tally>();
    CodecServer served([tally] { return std::make_unique<TallyBackend>(tally); });

    std::vector<uint8_t> big(5u << 20);  // larger than any window: chunked
    for (size_t i = 0; i < big.size(); ++i) big[i] = uint8_t(i * 7);
    uint64_t sessions = 0;
    for (const std::string& t : served.transports) {
        CAPTURE(t);
        auto link = served.connect(t);
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
    CHECK(served.srv->wait_sessions_at_most(0, 2s));
    // direct's backend dies with its link; the others with their sessions.
    CHECK(tally->draws == 100000 * sessions);
    CHECK(tally->buffers == sessions);
    CHECK(tally->buffer_bytes == big.size() * sessions);
}

namespace {

// Checks every glBufferSubData payload byte for byte, and raises a GL error
// (pushed to the client as an event) for glEnable(0xDEAD).
struct UploadCheck {
    std::atomic<uint64_t> bytes{0}, bad{0}, uploads{0};
};
struct UploadBackend final : NullBackend {
    explicit UploadBackend(std::shared_ptr<UploadCheck> c) : check(std::move(c)) {}
    void glBufferSubData(GLenum, GLintptr offset, GLsizeiptr, wire::In<uint8_t> d) override {
        for (uint32_t i = 0; i < d.size; ++i)
            if (d.data[i] != uint8_t((uint64_t(offset) + i) * 13)) { ++check->bad; break; }
        check->bytes += d.size;
        ++check->uploads;
    }
    void glEnable(GLenum cap) override {
        if (cap == 0xDEAD) error = 0x0500;  // GL_INVALID_ENUM
    }
    uint32_t take_error_event(uint32_t* context) override {
        *context = 77;
        return std::exchange(error, 0u);
    }
    uint32_t error = 0;
    std::shared_ptr<UploadCheck> check;
};

}  // namespace

TEST_CASE("codec: bulk uploads through staging (inproc, shm) or the stream (direct, tcp); GL errors as events") {
    auto check = std::make_shared<UploadCheck>();
    CodecServer served([check] { return std::make_unique<UploadBackend>(check); });

    // Sizes around the staging threshold, up to more than the staging area
    // holds at once (it wraps and waits for the server to free it).
    std::vector<uint8_t> src(6u << 20);
    for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 13);
    const uint32_t sizes[] = {8, 4000, 16 << 10, (16 << 10) + 8, 100000, 1u << 20, 3u << 20, 5u << 20};
    uint64_t per_session = 0, uploads_per_session = 0;
    uint64_t sessions = 0;
    for (const std::string& t : served.transports) {
        CAPTURE(t);
        auto link = served.connect(t);
        ++sessions;
        gen::Encoder enc(link.get());
        per_session = uploads_per_session = 0;
        for (int round = 0; round < 6; ++round) {
            for (uint32_t n : sizes) {
                const uint32_t off = uint32_t(round * 40 + n % 7);
                enc.glBufferSubData(0x8892, off, n, wire::Blob{src.data() + off, n});
                enc.glDrawArrays(4, 0, 3);
                per_session += n;
                ++uploads_per_session;
            }
        }
        // Back to back, 12 MiB of staged records with no other record between
        // them: staging (8 MiB) fills while the records naming its oldest
        // payloads are still unpublished in the encoder's window.
        for (int i = 0; i < 12; ++i) {
            const uint32_t n = 1u << 20, off = uint32_t(i * 8);
            enc.glBufferSubData(0x8892, off, n, wire::Blob{src.data() + off, n});
            per_session += n;
            ++uploads_per_session;
        }
        enc.glEnable(0xDEAD);
        enc.mglPing(1);
        GLuint64 pong = 1;
        REQUIRE_MESSAGE(gen::read_reply_mglPing(enc.wait_reply(), &pong), link->lost_reason());
        // The error is pushed when the span that raised it ends, after that
        // span's reply: a second round trip orders it before this reply.
        enc.mglPing(2);
        REQUIRE_MESSAGE(gen::read_reply_mglPing(enc.wait_reply(), &pong), link->lost_reason());
        const wire::LinkStats st = link->stats();
        if (t == "inproc" || t.rfind("shm:", 0) == 0)
            CHECK(st.staged >= 6 * (100000 + (1u << 20) + (3u << 20)) + 12 * (1u << 20));  // what fits half the area
        else
            CHECK(st.staged == 0);
        wire::Event ev;
        bool got = false;
        while (link->poll_event(&ev)) got |= ev.kind == wire::Event::Kind::gl_error && ev.gl_error == 0x0500 && ev.context == 77;
        CHECK(got);
        link->close();
    }
    CHECK(served.srv->wait_sessions_at_most(0, 2s));
    CHECK(check->bad == 0);
    CHECK(check->uploads == uploads_per_session * sessions);
    CHECK(check->bytes == per_session * sessions);
}

namespace {

// Throws from a verb, as a backend bug or a driver's C++ exception would.
struct ThrowingBackend final : NullBackend {
    void glEnable(GLenum cap) override {
        if (cap == 0xBAD) throw std::runtime_error("glEnable(0xBAD) reached a bug");
    }
};

}  // namespace

TEST_CASE("codec: a backend that throws ends its session only, with a lost context") {
    CodecServer served([] { return std::make_unique<ThrowingBackend>(); });
    for (const std::string& t : served.transports) {
        CAPTURE(t);
        auto bystander = served.connect(t);
        auto victim = served.connect(t);
        gen::Encoder by(bystander.get()), vi(victim.get());
        vi.glEnable(0xBAD);
        vi.mglPing(1);
        GLuint64 pong = 1;
        CHECK_FALSE(gen::read_reply_mglPing(vi.wait_reply(), &pong));
        CHECK(victim->lost_reason().find("the backend threw: glEnable(0xBAD) reached a bug") != std::string::npos);
        // The server and the other session go on.
        by.glEnable(0x0B71);
        by.mglPing(2);
        REQUIRE_MESSAGE(gen::read_reply_mglPing(by.wait_reply(), &pong), bystander->lost_reason());
        victim->close();
        bystander->close();
    }
    CHECK(served.srv->wait_sessions_at_most(0, 2s));
}
