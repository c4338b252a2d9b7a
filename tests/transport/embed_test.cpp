// The embedding C API and the example host program that uses it.
#include <doctest/doctest.h>

#include <signal.h>

#include <cstdlib>

#include "harness.h"
#include "mobilegl/server.h"

using namespace mgl;
using namespace mgl::test;
using namespace mgl::wire;
using namespace std::chrono_literals;

namespace {
// A client of whatever codec this build's server applies by default: it
// only opens and closes sessions, so it does not need to know the records.
ConnectOptions builtin_client(const std::string& transport) {
    ConnectOptions o;
    o.transport = transport;
    o.wire_fingerprint = server::builtin_server_options().wire_fingerprint;
    o.backend = "null";
    return o;
}
}  // namespace

TEST_CASE("embed: the C API serves inproc and shm clients and stops") {
    TempDir dir;
    CHECK(mgl_server_create("no-such-backend", nullptr) == nullptr);
    mgl_server* s = mgl_server_create("null", nullptr);
    REQUIRE(s);
    mgl_inproc_endpoint* ep = mgl_server_serve_inproc(s);
    REQUIRE(ep);
    CHECK(server::inproc_endpoint_of(ep) != nullptr);
    std::string sock = dir.path + "/embed.sock";
    REQUIRE(mgl_server_serve_shm(s, sock.c_str()) == 0);
    CHECK(mgl_server_listen(s, "udp://nowhere") != 0);
    CHECK(std::string(mgl_server_last_error(s)).find("unknown listen address") != std::string::npos);
    {
        ConnectOptions ao = builtin_client("inproc");
        ao.inproc = server::inproc_endpoint_of(ep);  // explicit; "inproc" alone finds the default too
        auto a = connect_ok(ao);
        auto b = connect_ok(builtin_client("shm:" + sock));
        CHECK(mgl_server_session_count(s) == 2);
        a->close();
        b->close();
    }
    for (int i = 0; i < 200 && mgl_server_session_count(s) != 0; ++i) usleep(10000);
    CHECK(mgl_server_session_count(s) == 0);
    auto c = connect_ok(builtin_client("inproc"));
    mgl_server_stop(s);
    Window w;
    CHECK(c->wait_reply(nullptr, &w).empty());  // lost, not hung
    CHECK(c->lost_reason().find("stopping") != std::string::npos);
    mgl_server_destroy(s);
}

TEST_CASE("embed: the example host program serves shm clients until SIGINT") {
    const char* host = std::getenv("MGL_EMBED_HOST");
    REQUIRE_MESSAGE(host, "MGL_EMBED_HOST is not set (run through meson test)");
    TempDir dir;
    std::string sock = dir.path + "/host.sock";
    Child c({host, sock});
    REQUIRE(!c.wait_line("serving inproc and shm clients", 10s).empty());
    auto link = connect_ok(builtin_client("shm:" + sock));
    ::kill(c.pid(), SIGINT);
    CHECK(c.wait_exit(5s) == 0);
    Window w;
    CHECK(link->wait_reply(nullptr, &w).empty());
    CHECK(!link->lost_reason().empty());
}
