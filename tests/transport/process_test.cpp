// Real processes: shm between two processes, a client killed with SIGKILL
// frees its session, a server killed with SIGKILL gives its clients a lost
// context in bounded time.
#include <doctest/doctest.h>

#include <unistd.h>

#include <thread>

#include "harness.h"

using namespace mgl;
using namespace mgl::test;
using namespace mgl::wire;
using namespace std::chrono_literals;

TEST_CASE("process: shm between two processes moves records and replies") {
    TestServer srv;
    std::string shm = srv.serve_shm();
    std::string tcp = srv.serve_tcp();
    for (const std::string& t : {shm, tcp}) {
        CAPTURE(t);
        Child c({peer_path(), "client", t, "300000"});
        CHECK(c.wait_exit(30s) == 0);
    }
    REQUIRE(srv.server->wait_sessions_at_most(0, 2s));
    std::lock_guard lock(srv.board->mutex);
    REQUIRE(srv.board->tallies.size() == 2);
    for (auto& tally : srv.board->tallies) CHECK(tally->next_seq.load() == 300000);
}

TEST_CASE("process: a client killed with SIGKILL frees its session") {
    TestServer srv;
    std::string shm = srv.serve_shm();
    std::string tcp = srv.serve_tcp();
    for (const std::string& t : {shm, tcp}) {
        CAPTURE(t);
        Child c({peer_path(), "hold", t});
        REQUIRE(c.wait_line("ready", 10s) == "ready");
        CHECK(srv.server->session_count() == 1);
        CHECK(our_shm_names().empty());  // the segment's name is gone once attached
        auto t0 = std::chrono::steady_clock::now();
        c.kill9();
        CHECK(srv.server->wait_sessions_at_most(0, 2s));  // thread joined, memory unmapped
        MESSAGE(t << ": session freed " << std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::steady_clock::now() - t0).count() << " ms after SIGKILL");
    }
}

TEST_CASE("process: a server killed with SIGKILL gives the client a lost context in bounded time") {
    TempDir dir;
    std::string sock = dir.path + "/server.sock";
    Child server({peer_path(), "server", "unix:" + sock, "tcp://127.0.0.1:0"});
    REQUIRE(!server.wait_line("listening on unix:", 10s).empty());
    std::string tcp_line = server.wait_line("listening on tcp://", 10s);
    REQUIRE(!tcp_line.empty());
    std::string tcp = tcp_line.substr(tcp_line.find("tcp://"));

    std::vector<std::unique_ptr<Connection>> links;
    for (const std::string& t : {"shm:" + sock, tcp}) {
        ConnectOptions o = client_options(t);
        links.push_back(connect_ok(o));
        REQUIRE(stream_and_sync(*links.back(), 0, 1000, 8));
    }
    server.kill9();
    for (auto& l : links) {
        CAPTURE(l->transport());
        testrec::TestEncoder enc(*l);
        auto t0 = std::chrono::steady_clock::now();
        // Streaming into a dead server: more than a ring's worth, never blocks for long.
        for (uint64_t i = 0; i < 1'000'000; ++i) enc.work(1000 + i, 8);
        CHECK(enc.echo(9).empty());
        auto took = std::chrono::steady_clock::now() - t0;
        CHECK(took < 2s);
        CHECK(!l->lost_reason().empty());
        MESSAGE(l->transport() << ": lost after "
                               << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                               << " ms: " << l->lost_reason());
    }
}

TEST_CASE("process: the daemon stops cleanly on SIGTERM") {
    TempDir dir;
    Child server({peer_path(), "server", "unix:" + dir.path + "/s.sock"});
    REQUIRE(!server.wait_line("listening on", 10s).empty());
    auto link = connect_ok(client_options("shm:" + dir.path + "/s.sock"));
    REQUIRE(stream_and_sync(*link, 0, 100, 8));
    ::kill(server.pid(), SIGTERM);
    CHECK(server.wait_exit(5s) == 0);
    testrec::TestEncoder enc(*link);
    CHECK(enc.echo(1).empty());
    CHECK(link->lost_reason().find("stopping") != std::string::npos);
    CHECK(access((dir.path + "/s.sock").c_str(), F_OK) != 0);  // the socket file is gone
}
