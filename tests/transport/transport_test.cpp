// Every transport end to end through the real parts (rings, shared memory,
// sockets, the server shell): records, replies of every size, events,
// faults that end one session only, stop.
#include <doctest/doctest.h>

#include <cstring>
#include <thread>

#include "harness.h"
#include "mgl/wire/transport/transport_url.h"

using namespace mgl;
using namespace mgl::test;
using namespace mgl::wire;
using namespace std::chrono_literals;

namespace {

// One server that serves all four transports; returns the transport strings.
struct AllTransports {
    TestServer srv;
    std::vector<std::string> transports;
    AllTransports() {
        srv.serve_inproc();
        transports = {"direct", "inproc", srv.serve_shm(), srv.serve_tcp()};
    }
};

std::string name_of(const std::string& t) { return t.substr(0, t.find(':')); }

}  // namespace

TEST_CASE("transports: records and replies travel end to end") {
    AllTransports all;
    for (const std::string& t : all.transports) {
        CAPTURE(t);
        auto link = connect_ok(client_options(t));
        CHECK(link->transport() == name_of(t));
        // Many records of varying sizes, many times around the ring.
        testrec::TestEncoder enc(*link);
        for (uint64_t i = 0; i < 200000; ++i) enc.work(i, uint32_t(i % 97), uint8_t(i));
        // An echo with a payload.
        std::vector<uint8_t> payload(100);
        for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * 3);
        std::span<const uint8_t> r = enc.echo(0x1234, payload);
        REQUIRE_MESSAGE(r.size() == 8 + 104, link->lost_reason());
        uint64_t cookie;
        std::memcpy(&cookie, r.data(), 8);
        CHECK(cookie == 0x1234);
        CHECK(std::memcmp(r.data() + 8, payload.data(), payload.size()) == 0);
        // Replies far larger than a quarter of the reply ring come in pieces.
        for (uint32_t size : {1u, 4096u, 300000u, 3u << 20}) {
            CAPTURE(size);
            std::span<const uint8_t> big = enc.big_reply(size, size);
            REQUIRE_MESSAGE(big.size() == size, link->lost_reason());
            bool same = true;
            for (uint32_t i = 0; i < size; ++i) same &= big[i] == testrec::TestEncoder::pattern(size, i);
            CHECK(same);
        }
        // Records after replies still arrive in order.
        for (uint64_t i = 200000; i < 210000; ++i) enc.work(i, 8);
        CHECK(enc.echo(99).size() == 8);
        CHECK(link->lost_reason().empty());
        LinkStats s = link->stats();
        CHECK(s.replies == 6);
        link->close();
    }
    CHECK(all.srv.server->wait_sessions_at_most(0, 2s));
}

TEST_CASE("transports: GL error events reach the client") {
    AllTransports all;
    for (const std::string& t : all.transports) {
        CAPTURE(t);
        auto link = connect_ok(client_options(t));
        testrec::TestEncoder enc(*link);
        enc.gl_error(0x0502);
        enc.work(0, 8);
        enc.gl_error(0x0505);
        REQUIRE(enc.echo(1).size() == 8);
        Event e;
        REQUIRE(link->poll_event(&e));
        CHECK(e.kind == Event::Kind::gl_error);
        CHECK(e.gl_error == 0x0502);
        REQUIRE(link->poll_event(&e));
        CHECK(e.gl_error == 0x0505);
        CHECK(!link->poll_event(&e));
        CHECK(link->lost_reason().empty());
    }
}

TEST_CASE("transports: a malformed record faults its own session and no other") {
    AllTransports all;
    for (const std::string& t : all.transports) {
        CAPTURE(t);
        auto bad = connect_ok(client_options(t));
        auto good = connect_ok(client_options(t));
        CHECK(stream_and_sync(*good, 0, 1000, 16));
        testrec::TestEncoder enc(*bad);
        enc.work(0, 8);
        RecordHeader h{0x7777, 0, 16};  // an opcode nobody knows
        uint8_t rec[16] = {};
        std::memcpy(rec, &h, sizeof h);
        enc.raw(rec);
        auto t0 = std::chrono::steady_clock::now();
        CHECK(enc.echo(5).empty());  // lost, not hung
        CHECK(std::chrono::steady_clock::now() - t0 < 2s);
        CHECK(bad->lost_reason().find("unknown opcode") != std::string::npos);
        Event e;
        bool fault = false;
        while (bad->poll_event(&e)) fault |= e.kind == Event::Kind::fault;
        CHECK(fault);
        CHECK(e.stream_offset == 24);  // the bad record follows one 24-byte record
        // Writing on to a lost session neither blocks nor crashes.
        for (int i = 0; i < 100000; ++i) enc.work(i, 64);
        enc.flush();
        // The other session is untouched.
        CHECK(stream_and_sync(*good, 1000, 1000, 16));
    }
    if (true) {
        auto st = all.srv.server->stats();
        CHECK(st.faults == 3);  // inproc, shm, tcp (direct has no server)
    }
}

TEST_CASE("transports: wait_applied returns once the server applied everything (rings)") {
    AllTransports all;
    for (const std::string& t : {all.transports[1], all.transports[2]}) {
        CAPTURE(t);
        auto link = connect_ok(client_options(t));
        testrec::TestEncoder enc(*link);
        for (uint64_t i = 0; i < 50000; ++i) enc.work(i, 24);
        enc.sleep_us(20000);  // the server is still busy when we start waiting
        Window w;
        auto t0 = std::chrono::steady_clock::now();
        REQUIRE(link->wait_applied(enc.cursor(), &w));
        CHECK(std::chrono::steady_clock::now() - t0 >= 15ms);
        auto& tallies = all.srv.board->tallies;
        std::lock_guard lock(all.srv.board->mutex);
        CHECK(tallies.back()->next_seq.load() == 50000);
    }
}

TEST_CASE("transports: shm and inproc offer a staging area") {
    AllTransports all;
    for (const std::string& t : {all.transports[1], all.transports[2]}) {
        CAPTURE(t);
        auto link = connect_ok(client_options(t));
        Window w = link->next_window(nullptr, 0);
        CHECK(link->staging_capacity() >= 100000);
        StagingSpan s = link->stage(w.begin, 100000, &w);
        REQUIRE(s.data);
        std::memset(s.data, 1, 100000);
        CHECK(link->stage(w.begin, uint64_t(1) << 40, &w).data == nullptr);  // larger than the area
        CHECK(w.begin != nullptr);
    }
    auto tcp = connect_ok(client_options(all.transports[3]));
    Window w = tcp->next_window(nullptr, 0);
    CHECK(tcp->staging_capacity() == 0);
    CHECK(tcp->stage(w.begin, 100, &w).data == nullptr);
}

TEST_CASE("transports: stopping the server gives every client a lost context, never a hang") {
    AllTransports all;
    std::vector<std::unique_ptr<Connection>> links;
    for (size_t i = 1; i < all.transports.size(); ++i) links.push_back(connect_ok(client_options(all.transports[i])));
    for (auto& l : links) REQUIRE(stream_and_sync(*l, 0, 100, 8));
    all.srv.server->stop();
    for (auto& l : links) {
        CAPTURE(l->transport());
        auto t0 = std::chrono::steady_clock::now();
        testrec::TestEncoder enc(*l);
        CHECK(enc.echo(3).empty());
        CHECK(std::chrono::steady_clock::now() - t0 < 2s);
        CHECK(!l->lost_reason().empty());
        MESSAGE(l->transport() << ": " << l->lost_reason());
    }
}

TEST_CASE("transports: inproc streaming rings far fewer than one doorbell per 1000 records") {
    TestServer srv;
    srv.serve_inproc();
    auto link = connect_ok(client_options("inproc"));
    constexpr uint64_t kRecords = 1'000'000;
    REQUIRE(stream_and_sync(*link, 0, kRecords, 8));
    LinkStats s = link->stats();
    double per_1000 = 1000.0 * double(s.wakes_sent) / double(kRecords);
    MESSAGE("client wake-ups sent: " << s.wakes_sent << " (" << per_1000 << " per 1000 records), publishes "
                                     << s.publishes << ", backpressure parks " << s.data.parks);
    CHECK(per_1000 < 0.2);
}

TEST_CASE("transport strings: parsed in one place, unknown values are errors") {
    std::string e;
    CHECK(parse_transport("direct", &e)->kind == TransportSpec::Kind::direct);
    CHECK(parse_transport("inproc", &e)->kind == TransportSpec::Kind::inproc);
    CHECK(parse_transport("shm", &e)->path == default_socket_path());
    CHECK(parse_transport("shm:/run/x.sock", &e)->path == "/run/x.sock");
    auto t = parse_transport("tcp://example.org:7000", &e);
    REQUIRE(t);
    CHECK(t->host == "example.org");
    CHECK(t->port == 7000);
    auto v6 = parse_transport("tcp://[::1]:7000", &e);
    REQUIRE(v6);
    CHECK(v6->host == "::1");
    for (const char* bad : {"", "udp://x:1", "tcp://nohost", "tcp://h:99999", "tcp://h:0", "shm:", "Direct"}) {
        CAPTURE(bad);
        e.clear();
        CHECK(!parse_transport(bad, &e));
        CHECK(!e.empty());
    }
    CHECK(!parse_listen("shm:/x", &e));
    CHECK(parse_listen("unix:/x", &e)->path == "/x");
    CHECK(parse_listen("tcp://0.0.0.0:0", &e)->port == 0);
    auto r = connect(client_options("carrier-pigeon"));
    CHECK(!r.link);
    CHECK(r.error.find("unknown transport 'carrier-pigeon'") != std::string::npos);
}
