// mgl-bench-wire: what the transports cost, beside what the machine gives.
//
//   (a) streaming throughput per transport (calls/s, MB/s), beside memcpy and
//       a raw loopback TCP socket;
//   (b) sync round-trip latency per transport, spinning and parked, beside a
//       raw futex ping-pong and a raw loopback TCP ping-pong;
//   (c) wake-ups and parks per 1000 records while streaming.
//
// A benchmark, not a test: it prints figures and never fails on them. The
// server runs in this process (its own threads; shm still goes through a
// shared memory segment and process-shared futexes, tcp through loopback).
#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "baselines.h"
#include "mgl/server/server.h"
#include "mgl/wire/transport/connect.h"
#include "workload.h"

using namespace mgl;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::vector<std::string> transports{"direct", "inproc", "shm", "tcp"};
    uint64_t calls = 5'000'000;
    uint32_t payload = 8;
    uint64_t rtt = 20000;
    int repeat = 3;
    bool stream = true, rtt_on = true, baselines = true;
    std::string workload = "testrec";
    uint32_t ring_bytes = 0;  // 0: the server's default
};

const char* kUsage =
    "usage: mgl-bench-wire [--transports direct,inproc,shm,tcp] [--calls N] [--payload BYTES]\n"
    "                      [--rtt N] [--repeat R] [--no-stream] [--no-rtt] [--no-baselines]\n"
    "                      [--workload testrec|codec|callmix:APITRACE_DUMP.txt] [--ring-kib N]\n";

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at <= s.size()) {
        size_t c = s.find(',', at);
        if (c == std::string::npos) c = s.size();
        if (c > at) out.push_back(s.substr(at, c - at));
        at = c + 1;
    }
    return out;
}

// A server for one wait policy, serving the three server transports.
struct BenchServer {
    BenchServer(const bench::Workload& w, const wire::WaitConfig& wait) {
        server::ServerOptions o;
        o.appliers = w.appliers();
        o.wire_fingerprint = w.wire_fingerprint();
        o.default_backend = "null";
        o.wait = wait;
        srv = std::make_unique<server::Server>(std::move(o));
        char tmpl[] = "/tmp/mgl-bench-XXXXXX";
        dir = mkdtemp(tmpl);
        std::string e;
        srv->inproc_endpoint();
        srv->listen("unix:" + dir + "/s.sock", &e);
        tcp = srv->listen("tcp://127.0.0.1:0", &e);
    }
    ~BenchServer() {
        srv->stop();
        std::remove((dir + "/s.sock").c_str());
        ::rmdir(dir.c_str());
    }
    std::string url(const std::string& t) const {
        if (t == "shm") return "shm:" + dir + "/s.sock";
        if (t == "tcp") return tcp;
        return t;
    }
    std::unique_ptr<server::Server> srv;
    std::string dir, tcp;
};

std::unique_ptr<wire::Connection> open(const bench::Workload& w, const BenchServer& s, const std::string& t,
                                       const wire::WaitConfig& wait, uint32_t ring_bytes = 0) {
    wire::ConnectOptions o;
    o.rings.records = ring_bytes;
    o.transport = s.url(t);
    o.wire_fingerprint = w.wire_fingerprint();
    o.direct_appliers = w.appliers();
    o.wait = wait;
    wire::ConnectResult r = wire::connect(o);
    if (!r.link) {
        fmt::print(stderr, "mgl-bench-wire: {}: {}\n", t, r.error);
        std::exit(1);
    }
    return std::move(r.link);
}

struct StreamResult {
    double calls_per_s = 0, mb_per_s = 0, wakes_per_1000 = 0, parks_per_1000 = 0;
};

StreamResult stream_once(const bench::Workload& w, BenchServer& s, const std::string& t, const Options& opt) {
    wire::WaitConfig wait;
    server::ServerStats before = s.srv->stats();
    auto link = open(w, s, t, wait, opt.ring_bytes);
    auto drv = w.attach(*link);
    auto t0 = Clock::now();
    drv->stream(opt.calls);
    bool ok = drv->round_trip();  // everything before it is applied when it returns
    double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!ok) fmt::print(stderr, "{}: lost: {}\n", t, link->lost_reason());
    wire::LinkStats c = link->stats();
    link->close();
    link.reset();
    s.srv->wait_sessions_at_most(0, std::chrono::seconds(5));
    wire::LinkStats sv = s.srv->stats().links;
    wire::LinkStats sb = before.links;
    uint64_t wakes = c.wakes_sent + (sv.wakes_sent - sb.wakes_sent);
    uint64_t parks = c.parks() + (sv.data.parks - sb.data.parks) + (sv.reply.parks - sb.reply.parks);
    StreamResult r;
    r.calls_per_s = double(opt.calls) / secs;
    r.mb_per_s = double(c.bytes) / 1e6 / secs;
    r.wakes_per_1000 = 1000.0 * double(wakes) / double(opt.calls);
    r.parks_per_1000 = 1000.0 * double(parks) / double(opt.calls);
    return r;
}

std::vector<double> rtt_once(const bench::Workload& w, BenchServer& s, const std::string& t,
                             const wire::WaitConfig& wait, uint64_t n) {
    auto link = open(w, s, t, wait);
    auto drv = w.attach(*link);
    for (int i = 0; i < 1000; ++i) drv->round_trip();  // warm up
    std::vector<double> ns;
    ns.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
        auto t0 = Clock::now();
        if (!drv->round_trip()) break;
        ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
    }
    return ns;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                fmt::print(stderr, "{}", kUsage);
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--transports") opt.transports = split(next());
        else if (a == "--calls") opt.calls = std::strtoull(next().c_str(), nullptr, 10);
        else if (a == "--payload") opt.payload = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
        else if (a == "--rtt") opt.rtt = std::strtoull(next().c_str(), nullptr, 10);
        else if (a == "--repeat") opt.repeat = std::atoi(next().c_str());
        else if (a == "--no-stream") opt.stream = false;
        else if (a == "--no-rtt") opt.rtt_on = false;
        else if (a == "--no-baselines") opt.baselines = false;
        else if (a == "--workload") opt.workload = next();
        else if (a == "--ring-kib") opt.ring_bytes = uint32_t(std::strtoul(next().c_str(), nullptr, 10)) << 10;
        else {
            fmt::print(stderr, "{}", kUsage);
            return a == "--help" ? 0 : 2;
        }
    }
    spdlog::set_level(spdlog::level::warn);
    std::unique_ptr<bench::Workload> workload;
    if (opt.workload == "testrec") workload = bench::make_testrec_workload(opt.payload);
#ifdef MGL_BENCH_HAVE_CODEC
    else if (opt.workload == "codec") workload = bench::make_codec_workload();
    else if (opt.workload.rfind("callmix:", 0) == 0) workload = bench::make_callmix_workload(opt.workload.substr(8));
#endif
    else {
        fmt::print(stderr, "mgl-bench-wire: unknown workload '{}'\n", opt.workload);
        return 2;
    }
    fmt::print("mgl-bench-wire: workload {}, {} calls per run, median of {} runs\n\n", workload->name(), opt.calls,
               opt.repeat);

    if (opt.baselines) {
        std::vector<double> mc, tcp;
        for (int r = 0; r < opt.repeat; ++r) {
            mc.push_back(bench::memcpy_mb_per_s(2ull << 30));
            tcp.push_back(bench::raw_tcp_mb_per_s(1ull << 30));
        }
        fmt::print("baseline  memcpy (64 MiB blocks)          {:10.0f} MB/s\n", bench::median(mc));
        fmt::print("baseline  raw loopback TCP (256 KiB)      {:10.0f} MB/s\n\n", bench::median(tcp));
    }

    if (opt.stream) {
        BenchServer srv(*workload, wire::WaitConfig{});
        fmt::print("{:<8} {:>14} {:>10} {:>16} {:>16}\n", "stream", "calls/s", "MB/s", "wake-ups/1000", "parks/1000");
        for (const std::string& t : opt.transports) {
            std::vector<double> cps, mbs, wk, pk;
            for (int r = 0; r < opt.repeat; ++r) {
                StreamResult s = stream_once(*workload, srv, t, opt);
                cps.push_back(s.calls_per_s);
                mbs.push_back(s.mb_per_s);
                wk.push_back(s.wakes_per_1000);
                pk.push_back(s.parks_per_1000);
            }
            fmt::print("{:<8} {:>14.0f} {:>10.0f} {:>16.4f} {:>16.4f}\n", t, bench::median(cps), bench::median(mbs),
                       bench::median(wk), bench::median(pk));
        }
        fmt::print("\n");
    }

    if (opt.rtt_on) {
        wire::WaitConfig spinning, parked;
        spinning.spin_iterations = 2'000'000;  // never parks between round trips
        parked.spin_iterations = 0;            // parks at once: every round trip pays two wake-ups
        fmt::print("{:<8} {:>18} {:>18} {:>18} {:>18}\n", "rtt", "spin median ns", "spin p99 ns", "parked median ns",
                   "parked p99 ns");
        for (const std::string& t : opt.transports) {
            std::vector<double> sm, s99, pm, p99;
            for (int r = 0; r < opt.repeat; ++r) {
                {
                    BenchServer srv(*workload, spinning);
                    auto ns = rtt_once(*workload, srv, t, spinning, opt.rtt);
                    sm.push_back(bench::median(ns));
                    s99.push_back(bench::percentile(ns, 0.99));
                }
                {
                    BenchServer srv(*workload, parked);
                    auto ns = rtt_once(*workload, srv, t, parked, opt.rtt);
                    pm.push_back(bench::median(ns));
                    p99.push_back(bench::percentile(ns, 0.99));
                }
            }
            fmt::print("{:<8} {:>18.0f} {:>18.0f} {:>18.0f} {:>18.0f}\n", t, bench::median(sm), bench::median(s99),
                       bench::median(pm), bench::median(p99));
        }
        if (opt.baselines) {
            std::vector<double> fs, fs99, fp, fp99, tp, tp99;
            for (int r = 0; r < opt.repeat; ++r) {
                auto a = bench::raw_futex_ping_pong(opt.rtt, true);
                auto b = bench::raw_futex_ping_pong(opt.rtt, false);
                auto c = bench::raw_tcp_ping_pong(opt.rtt);
                fs.push_back(bench::median(a));
                fs99.push_back(bench::percentile(a, 0.99));
                fp.push_back(bench::median(b));
                fp99.push_back(bench::percentile(b, 0.99));
                tp.push_back(bench::median(c));
                tp99.push_back(bench::percentile(c, 0.99));
            }
            fmt::print("{:<8} {:>18.0f} {:>18.0f} {:>18.0f} {:>18.0f}   (raw futex ping-pong)\n", "futex",
                       bench::median(fs), bench::median(fs99), bench::median(fp), bench::median(fp99));
            fmt::print("{:<8} {:>18} {:>18} {:>18.0f} {:>18.0f}   (raw loopback TCP ping-pong)\n", "tcp-raw", "-",
                       "-", bench::median(tp), bench::median(tp99));
        }
    }
    return 0;
}
