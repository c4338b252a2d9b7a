// The futex system calls behind the doorbells (see doorbell.h).
#include "mgl/wire/transport/doorbell.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <ctime>

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
