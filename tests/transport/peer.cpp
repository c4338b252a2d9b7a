// The other process of the cross-process tests.
//
//   peer server ADDRESS...          runs the daemon core (server_main) with the test records
//   peer client TRANSPORT N         streams N records + a round trip; exit 0 when all arrived
//   peer hold TRANSPORT             connects, round-trips, prints "ready", then waits to be killed
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mgl/server/daemon.h"
#include "mgl/wire/transport/connect.h"
#include "mgl/wire/transport/test_records.h"

using namespace mgl::wire;

static std::unique_ptr<Connection> open_link(const char* transport) {
    ConnectOptions o;
    o.transport = transport;
    o.wire_fingerprint = testrec::kFingerprint;
    o.backend = "test";
    ConnectResult r = connect(o);
    if (!r.link) {
        std::fprintf(stderr, "peer: %s\n", r.error.c_str());
        std::exit(3);
    }
    return std::move(r.link);
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    std::string mode = argv[1];
    if (mode == "server") {
        std::vector<char*> args{argv[0]};
        for (int i = 2; i < argc; ++i) {
            args.push_back(const_cast<char*>("--listen"));
            args.push_back(argv[i]);
        }
        // The daemon's core, applying the test records whatever this build's
        // default codec is.
        mgl::server::ServerOptions base;
        base.appliers = testrec::test_applier_factory();
        base.wire_fingerprint = testrec::kFingerprint;
        base.default_backend = "test";
        return mgl::server::server_main(int(args.size()), args.data(), std::move(base));
    }
    std::unique_ptr<Connection> link = open_link(argv[2]);
    testrec::TestEncoder enc(*link);
    if (mode == "client") {
        uint64_t n = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1000;
        for (uint64_t i = 0; i < n; ++i) enc.work(i, 8 + (i % 5) * 8, uint8_t(i));
        std::span<const uint8_t> r = enc.echo(42);
        uint64_t cookie = 0;
        if (r.size() == 8) std::memcpy(&cookie, r.data(), 8);
        if (cookie != 42) {
            std::fprintf(stderr, "peer: no reply: %s\n", link->lost_reason().c_str());
            return 1;
        }
        link->close();
        return 0;
    }
    if (mode == "hold") {
        for (uint64_t i = 0; i < 1000; ++i) enc.work(i, 16);
        if (enc.echo(7).size() != 8) return 1;
        std::printf("ready\n");
        std::fflush(stdout);
        for (;;) pause();
    }
    return 2;
}
