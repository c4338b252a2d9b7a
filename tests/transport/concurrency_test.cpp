// Many sessions on one server at once, over every server transport.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "harness.h"

using namespace mgl;
using namespace mgl::test;
using namespace mgl::wire;
using namespace std::chrono_literals;

TEST_CASE("concurrency: 16 sessions on one server") {
    RingSizes small;
    small.records = 256u << 10;
    small.staging = 64u << 10;
    TestServer srv("", small);
    srv.serve_inproc();
    std::vector<std::string> transports = {"inproc", srv.serve_shm(), srv.serve_tcp()};
    constexpr int kSessions = 16;
    std::atomic<int> ok{0};
    std::atomic<int> peak{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < kSessions; ++i) {
        clients.emplace_back([&, i] {
            wire::ConnectResult r = wire::connect(client_options(transports[i % transports.size()]));
            if (!r.link) return;
            bool good = true;
            uint64_t seq = 0;
            for (int round = 0; round < 20 && good; ++round) {
                good = stream_and_sync(*r.link, seq, 2000, uint32_t(8 * (i % 4)));
                seq += 2000;
                int live = int(srv.server->session_count());
                int p = peak.load();
                while (live > p && !peak.compare_exchange_weak(p, live)) {}
            }
            if (good) ++ok;
            r.link->close();
        });
    }
    for (auto& t : clients) t.join();
    CHECK(ok == kSessions);
    MESSAGE("peak concurrent sessions: " << peak.load());
    CHECK(peak >= 8);
    CHECK(srv.server->wait_sessions_at_most(0, 2s));
    CHECK(srv.server->stats().sessions_opened == kSessions);
}
