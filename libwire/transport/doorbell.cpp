// The futex system calls behind the doorbells (see doorbell.h).
#include "mgl/wire/transport/doorbell.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <ctime>
#include <thread>

namespace mgl::wire {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the futex word is the low half of a u64 cursor: little-endian only");

namespace {
uint32_t* low_word(std::atomic<uint64_t>* cursor) {
    // The kernel reads the 32-bit word atomically; the low half of the
    // cursor changes on every advance.
    return reinterpret_cast<uint32_t*>(cursor);
}
}  // namespace

uint32_t default_spin_iterations() {
    static const uint32_t n = [] {
        // Few cores: the peer, the app and the driver's threads compete for
        // them, so park early. Many: a spinning core is spare, and waking a
        // parked peer costs more than it saves (H200 machine, chunks-1471:
        // shm 1.27x native with ~160 µs of spin, 0.88x with 10 µs).
        double budget_ns = std::thread::hardware_concurrency() <= 4 ? 10'000 : 100'000;
        if (const char* s = std::getenv("MOBILEGL_SPIN_US")) budget_ns = std::strtod(s, nullptr) * 1000;
        constexpr int kProbe = 2000;
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < kProbe; ++i) cpu_relax();
        const double per = std::max(0.5, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / kProbe);
        return uint32_t(std::clamp(budget_ns / per, 0.0, 1'000'000.0));
    }();
    return n;
}

void futex_wake_all(std::atomic<uint64_t>* cursor, bool shared) {
    int op = shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE;
    syscall(SYS_futex, low_word(cursor), op, INT_MAX, nullptr, nullptr, 0);
}

bool futex_wait(std::atomic<uint64_t>* cursor, uint32_t expected_low, std::chrono::microseconds timeout,
                bool shared) {
    int op = shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE;
    timespec ts{};
    ts.tv_sec = time_t(timeout.count() / 1'000'000);
    ts.tv_nsec = long(timeout.count() % 1'000'000) * 1000;
    long r = syscall(SYS_futex, low_word(cursor), op, expected_low, &ts, nullptr, 0);
    if (r == 0) return true;
    // EAGAIN: the cursor moved before we slept; EINTR: a signal. Both are
    // "look again", not a timeout.
    return errno != ETIMEDOUT;
}

}  // namespace mgl::wire
