// Raw handshakes against a live `mgl server`, for the hostile suite's server
// tests (handshake_flood.sh, token_gate.sh, defaults.sh):
//
//   attack_handshake idle ADDR N PARTIAL SECONDS
//       holds N connections that never say hello (PARTIAL of them send half a
//       hello and stall) for SECONDS, reopening the ones the server closes at
//       most twice a second; prints what it held.
//   attack_handshake hello ADDR TOKEN|- [BACKEND|- [FINGERPRINT]]
//       one hello (the real wire fingerprint unless given); prints the reply
//       ("welcome backend=..." or "refusal reason=... message=...").
//   attack_handshake guess ADDR N
//       N hellos with wrong tokens one after another; prints the time taken
//       and fails if any was not a bad_token refusal.
//   attack_handshake sessions ADDR TOKEN|- N SECONDS
//       opens N tcp sessions (hello, welcome) and keeps them SECONDS; prints
//       how many were welcomed and the refusals seen.
//
// ADDR is tcp://127.0.0.1:PORT or unix:PATH. Every loop is bounded in count
// and time.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "gen/fingerprint.h"
#include "mgl/wire/transport/control.h"
#include "mgl/wire/transport/socket.h"

namespace {

using namespace mgl;
using Clock = std::chrono::steady_clock;

struct Addr {
    bool tcp = false;
    std::string path;
    int port = 0;
};

Addr parse(const std::string& a) {
    Addr r;
    if (a.rfind("tcp://", 0) == 0) {
        r.tcp = true;
        r.port = std::atoi(a.substr(a.rfind(':') + 1).c_str());
    } else if (a.rfind("unix:", 0) == 0) {
        r.path = a.substr(5);
    } else {
        std::fprintf(stderr, "bad address %s\n", a.c_str());
        std::exit(2);
    }
    return r;
}

int connect_to(const Addr& a) {
    int fd = ::socket(a.tcp ? AF_INET : AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int rc;
    if (a.tcp) {
        sockaddr_in in{};
        in.sin_family = AF_INET;
        in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        in.sin_port = htons(uint16_t(a.port));
        rc = ::connect(fd, reinterpret_cast<sockaddr*>(&in), sizeof in);
    } else {
        sockaddr_un un{};
        un.sun_family = AF_UNIX;
        std::snprintf(un.sun_path, sizeof un.sun_path, "%s", a.path.c_str());
        rc = ::connect(fd, reinterpret_cast<sockaddr*>(&un), sizeof un);
    }
    if (rc != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

wire::Hello make_hello(const Addr& a, const std::string& token, const std::string& backend, uint64_t fp) {
    wire::Hello h;
    h.wire_fingerprint = fp;
    h.build_id = "hostile";
    h.token = token;
    h.backend = backend;
    h.transport = a.tcp ? "tcp" : "shm";
    h.capabilities = wire::kCapChunkedRecords;
    return h;
}

// Sends a hello, reads the reply (5 s at most); the connection is returned
// open in *keep when asked.
wire::ControlMessage exchange(const Addr& a, const wire::Hello& h, std::string* err, wire::FramedSocket* keep = nullptr) {
    int fd = connect_to(a);
    wire::ControlMessage m;
    if (fd < 0) {
        *err = std::string("connect: ") + std::strerror(errno);
        return m;
    }
    wire::FramedSocket s(fd);
    auto deadline = Clock::now() + std::chrono::seconds(5);
    wire::FrameHeader fh{};
    std::vector<uint8_t> payload;
    if (!s.write_frame(wire::kFrameControl, wire::encode_hello(h), deadline) ||
        !s.read_frame(&fh, &payload, wire::kMaxControlFrame, deadline, err))
        return m;
    m = wire::decode_control(payload);
    if (keep) *keep = std::move(s);
    return m;
}

std::string describe(const wire::ControlMessage& m) {
    if (m.kind == wire::ControlKind::welcome) return "welcome backend=" + m.welcome.backend + " build=" + m.welcome.build_id;
    if (m.kind == wire::ControlKind::refusal)
        return std::string("refusal reason=") + wire::to_string(m.refusal.reason) + " message=" + m.refusal.message;
    return "no reply";
}

int cmd_idle(const Addr& a, int n, int partial, double seconds) {
    std::vector<int> fds(size_t(n), -1);
    size_t opened = 0, reopened = 0, failed = 0;
    // Half a hello: a header announcing 200 bytes, then 10 of them.
    uint8_t half[18] = {};
    wire::FrameHeader fh{200, wire::kFrameControl, 0};
    std::memcpy(half, &fh, sizeof fh);
    auto end = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < end) {
        for (int i = 0; i < n; ++i) {
            if (fds[size_t(i)] >= 0) {
                pollfd p{fds[size_t(i)], POLLIN, 0};
                char b;
                if (::poll(&p, 1, 0) == 1 && ::recv(fds[size_t(i)], &b, 1, MSG_DONTWAIT) <= 0) {
                    ::close(fds[size_t(i)]);
                    fds[size_t(i)] = -1;
                    ++reopened;
                } else {
                    continue;
                }
            }
            int fd = connect_to(a);
            if (fd < 0) { ++failed; continue; }
            if (i < partial && ::send(fd, half, sizeof half, MSG_NOSIGNAL) < 0) { ::close(fd); ++failed; continue; }
            fds[size_t(i)] = fd;
            ++opened;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    int open_now = 0;
    for (int fd : fds) if (fd >= 0) { ++open_now; ::close(fd); }
    std::printf("idle: %d sockets (%d with half a hello) for %.0f s: %zu connections made, %zu closed by the "
                "server and reopened, %zu connects failed, %d open at the end\n",
                n, partial, seconds, opened, reopened, failed, open_now);
    return 0;
}

int cmd_hello(const Addr& a, const std::string& token, const std::string& backend, uint64_t fp) {
    std::string err;
    wire::ControlMessage m = exchange(a, make_hello(a, token, backend, fp), &err);
    std::printf("%s%s%s\n", describe(m).c_str(), err.empty() ? "" : " error=", err.c_str());
    return m.kind == wire::ControlKind::invalid ? 1 : 0;
}

int cmd_guess(const Addr& a, int n) {
    auto t0 = Clock::now();
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        std::string err;
        wire::ControlMessage m = exchange(a, make_hello(a, "guess-" + std::to_string(i), "", gen::kWireFingerprint), &err);
        if (m.kind != wire::ControlKind::refusal || m.refusal.reason != wire::RefusalReason::bad_token) {
            if (bad++ < 3) std::printf("try %d: %s %s\n", i, describe(m).c_str(), err.c_str());
        }
    }
    double s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("guess: %d wrong tokens in %.2f s (%.1f tries/s), %d answers were not bad_token\n", n, s, n / s, bad);
    return bad == 0 ? 0 : 1;
}

int cmd_sessions(const Addr& a, const std::string& token, int n, double seconds) {
    std::vector<wire::FramedSocket> held;
    std::map<std::string, int> refusals;
    int welcomed = 0, silent = 0;
    for (int i = 0; i < n; ++i) {
        std::string err;
        wire::FramedSocket s;
        wire::ControlMessage m = exchange(a, make_hello(a, token, "null", gen::kWireFingerprint), &err, &s);
        if (m.kind == wire::ControlKind::welcome) {
            ++welcomed;
            held.push_back(std::move(s));
        } else if (m.kind == wire::ControlKind::refusal) {
            ++refusals[std::string(wire::to_string(m.refusal.reason)) + ": " + m.refusal.message];
        } else {
            ++silent;
        }
    }
    std::printf("sessions: %d asked, %d welcomed, %d got no reply\n", n, welcomed, silent);
    for (auto& [what, count] : refusals) std::printf("  refused %d x %s\n", count, what.c_str());
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: see the comment at the top of attack_handshake.cc\n");
        return 2;
    }
    std::string cmd = argv[1];
    Addr a = parse(argv[2]);
    auto arg = [&](int i, const char* dflt) -> std::string { return i < argc ? argv[i] : dflt; };
    auto tok = [](std::string t) { return t == "-" ? std::string() : t; };
    if (cmd == "idle" && argc == 6) return cmd_idle(a, std::atoi(argv[3]), std::atoi(argv[4]), std::atof(argv[5]));
    if (cmd == "hello" && argc >= 4) {
        uint64_t fp = argc >= 6 ? std::strtoull(argv[5], nullptr, 16) : gen::kWireFingerprint;
        return cmd_hello(a, tok(argv[3]), tok(arg(4, "-")), fp);
    }
    if (cmd == "guess" && argc == 4) return cmd_guess(a, std::atoi(argv[3]));
    if (cmd == "sessions" && argc == 6) return cmd_sessions(a, tok(argv[3]), std::atoi(argv[4]), std::atof(argv[5]));
    std::fprintf(stderr, "usage: see the comment at the top of attack_handshake.cc\n");
    return 2;
}
