// Refusals name their reason, and the client reports it.
#include <doctest/doctest.h>

#include <vector>

#include "harness.h"
#include "mgl/wire/transport/control.h"

using namespace mgl;
using namespace mgl::test;
using namespace mgl::wire;

TEST_CASE("refusal: a client built from another schema is refused with a clear message") {
    TestServer srv;
    srv.serve_inproc();
    for (const std::string& t : {std::string("inproc"), srv.serve_shm(), srv.serve_tcp()}) {
        CAPTURE(t);
        ConnectOptions o = client_options(t);
        o.wire_fingerprint ^= 1;
        ConnectResult r = connect(o);
        CHECK(!r.link);
        CHECK(r.refusal == RefusalReason::wire_fingerprint);
        CHECK(r.error.find("wire fingerprint mismatch") != std::string::npos);
        CHECK(r.error.find("rebuild both from the same schema") != std::string::npos);
    }
    // The refused sessions end on their own threads just after answering.
    CHECK(srv.server->wait_sessions_at_most(0, std::chrono::seconds(2)));
    CHECK(srv.server->stats().refusals == 3);
}

TEST_CASE("refusal: tokens are required and compared when the server has one") {
    TestServer srv("s3cret-token");
    std::string tcp = srv.serve_tcp();
    std::string shm = srv.serve_shm();
    for (const std::string& t : {tcp, shm}) {
        CAPTURE(t);
        ConnectOptions o = client_options(t);
        ConnectResult none = connect(o);
        CHECK(none.refusal == RefusalReason::bad_token);
        CHECK(none.error.find("requires a token") != std::string::npos);
        o.token = "s3cret-tokeN";
        ConnectResult wrong = connect(o);
        CHECK(wrong.refusal == RefusalReason::bad_token);
        o.token = "s3cret-token";
        ConnectResult right = connect(o);
        REQUIRE_MESSAGE(right.link, right.error);
        CHECK(stream_and_sync(*right.link, 0, 10, 8));
    }
}

TEST_CASE("refusal: unknown backend, and a tcp listener off loopback needs a token") {
    TestServer srv;
    std::string tcp = srv.serve_tcp();
    ConnectOptions o = client_options(tcp);
    o.backend = "no-such-backend";
    ConnectResult r = connect(o);
    CHECK(r.refusal == RefusalReason::unknown_backend);
    CHECK(r.error.find("no-such-backend") != std::string::npos);

    std::string error;
    CHECK(srv.server->listen("tcp://0.0.0.0:0", &error).empty());
    CHECK(error.find("token is required") != std::string::npos);
    TestServer with_token("t");
    CHECK(!with_token.server->listen("tcp://0.0.0.0:0", &error).empty());
}

TEST_CASE("refusal: token comparison is exact") {
    CHECK(token_equal("abc", "abc"));
    CHECK(!token_equal("abc", "abd"));
    CHECK(!token_equal("abc", "abcd"));
    CHECK(!token_equal("", "a"));
    CHECK(token_equal("", ""));
}

// Found by fuzz-handshake: an envelope whose union says Hello but holds no
// table passes the FlatBuffers verifier; decode_control read through the null
// table (a crash of the server from one unauthenticated message).
TEST_CASE("refusal: a control message naming a hello without one is not a hello") {
    static const uint8_t bytes[] = {
        0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x0e, 0x00, 0x07, 0x00, 0x00, 0x00,
        0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x00,
        0x2c, 0x00, 0x04, 0x00, 0x18, 0x00, 0x08, 0x00, 0x20, 0x00, 0x0c, 0x00, 0x10, 0x00, 0x14, 0x00,
        0x12, 0x23, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00,
        0x7f, 0xff, 0xff, 0xff, 0x24, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x75, 0x54, 0x71, 0xd5,
        0xab, 0x6d, 0x15, 0x4d, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x03, 0x00, 0x00, 0x00, 0x74, 0x63, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x04, 0x00, 0x00, 0x00, 0x6e, 0x75, 0x6c, 0x6c, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
        0xf4, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x03, 0x0c, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x07,
        0x0c, 0x00, 0x08, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x08
    };
    const std::vector<uint8_t> message(bytes, bytes + sizeof bytes);  // aligned, as the server reads it
    CHECK(mgl::wire::decode_control(message).kind == mgl::wire::ControlKind::invalid);
}
