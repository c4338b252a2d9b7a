// Baselines (see baselines.h). Plain system calls, nothing from libwire, so
// they show what the hardware and the kernel give before our code.
#include "baselines.h"

#include <arpa/inet.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstring>
#include <thread>

#include "mgl/wire/transport/doorbell.h"

namespace mgl::bench {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

void futex_wait32(std::atomic<uint32_t>* w, uint32_t v) {
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(w), FUTEX_WAIT_PRIVATE, v, nullptr, nullptr, 0);
}
void futex_wake32(std::atomic<uint32_t>* w) {
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(w), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

// A connected loopback TCP pair with TCP_NODELAY.
bool tcp_pair(int* a, int* b) {
    int l = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (bind(l, reinterpret_cast<sockaddr*>(&addr), sizeof addr) || listen(l, 1) ||
        getsockname(l, reinterpret_cast<sockaddr*>(&addr), &len))
        return false;
    *a = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(*a, reinterpret_cast<sockaddr*>(&addr), sizeof addr)) return false;
    *b = accept(l, nullptr, nullptr);
    close(l);
    int one = 1;
    setsockopt(*a, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(*b, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return *b >= 0;
}

bool read_full(int fd, void* p, size_t n) {
    auto* c = static_cast<uint8_t*>(p);
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r <= 0) return false;
        c += r;
        n -= size_t(r);
    }
    return true;
}
}  // namespace

double memcpy_mb_per_s(uint64_t total) {
    const size_t kBuf = 64u << 20;
    std::vector<uint8_t> src(kBuf, 1), dst(kBuf, 0);
    std::memcpy(dst.data(), src.data(), kBuf);  // fault the pages in
    auto t0 = Clock::now();
    uint64_t done = 0;
    while (done < total) {
        std::memcpy(dst.data(), src.data(), kBuf);
        src[done % kBuf] ^= dst[(done + 1) % kBuf];  // keep the copies observable
        done += kBuf;
    }
    return double(done) / 1e6 / seconds_since(t0);
}

double raw_tcp_mb_per_s(uint64_t total) {
    int a, b;
    if (!tcp_pair(&a, &b)) return 0;
    const size_t kChunk = 256u << 10;
    std::thread reader([&] {
        std::vector<uint8_t> buf(kChunk);
        uint64_t got = 0;
        while (got < total) {
            ssize_t r = read(b, buf.data(), buf.size());
            if (r <= 0) break;
            got += uint64_t(r);
        }
    });
    std::vector<uint8_t> buf(kChunk, 7);
    auto t0 = Clock::now();
    uint64_t sent = 0;
    while (sent < total) {
        ssize_t w = write(a, buf.data(), buf.size());
        if (w <= 0) break;
        sent += uint64_t(w);
    }
    reader.join();
    double mb = double(sent) / 1e6 / seconds_since(t0);
    close(a);
    close(b);
    return mb;
}

std::vector<double> raw_futex_ping_pong(uint64_t n, bool spin) {
    std::atomic<uint32_t> ping{0}, pong{0};
    std::thread echo([&] {
        for (uint32_t i = 1; i <= n; ++i) {
            uint32_t v;
            while ((v = ping.load(std::memory_order_acquire)) < i) {
                if (spin) wire::cpu_relax();
                else futex_wait32(&ping, v);
            }
            pong.store(i, std::memory_order_release);
            if (!spin) futex_wake32(&pong);
        }
    });
    std::vector<double> ns;
    ns.reserve(n);
    for (uint32_t i = 1; i <= n; ++i) {
        auto t0 = Clock::now();
        ping.store(i, std::memory_order_release);
        if (!spin) futex_wake32(&ping);
        uint32_t v;
        while ((v = pong.load(std::memory_order_acquire)) < i) {
            if (spin) wire::cpu_relax();
            else futex_wait32(&pong, v);
        }
        ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
    }
    echo.join();
    return ns;
}

std::vector<double> raw_tcp_ping_pong(uint64_t n) {
    int a, b;
    std::vector<double> ns;
    if (!tcp_pair(&a, &b)) return ns;
    std::thread echo([&] {
        uint64_t v;
        for (uint64_t i = 0; i < n; ++i) {
            if (!read_full(b, &v, 8)) break;
            if (write(b, &v, 8) != 8) break;
        }
    });
    ns.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
        auto t0 = Clock::now();
        uint64_t v = i;
        if (write(a, &v, 8) != 8 || !read_full(a, &v, 8)) break;
        ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
    }
    echo.join();
    close(a);
    close(b);
    return ns;
}

double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    size_t k = size_t(p * double(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + long(k), v.end());
    return v[k];
}

}  // namespace mgl::bench
