// Doorbells: how one side of a ring waits for the other without burning a
// core, and how the other side wakes it only when that is useful.
//
// Protocol (both sides of a ring follow it):
//   * The waiter spins briefly on the peer's cursor (most waits end here when
//     the peer is busy), then publishes the cursor value it needs in its
//     `want` word and parks on a futex whose word is the low half of the
//     peer's u64 cursor. The cursor only grows and a ring is < 4 GiB, so every
//     advance changes that half: a stale futex_wait returns at once.
//   * The notifier, after publishing its cursor, reads the waiter's `want`;
//     only when it is non-zero and reached does it claim it (CAS to 0) and
//     call futex_wake. A busy peer therefore costs no system call at all, and
//     a parked one is woken exactly once, when what it waits for is there
//     (targeted wake-up).
//   * store cursor / fence / load want on one side and store want / fence /
//     load cursor on the other (Dekker): one of the two always sees the other,
//     so no wake-up is lost.
//   * Parks are bounded (park_slice); after each timed-out slice the waiter
//     asks its liveness check whether the peer still exists, so a dead peer is
//     noticed within about one slice, never a hang.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace mgl::wire {

static_assert(std::atomic<uint64_t>::is_always_lock_free);

// Futex on the low 32 bits of a u64 cursor (little-endian hosts only).
// `shared` selects a process-shared futex (needed for shm; inproc may use a
// private one, which is cheaper for the kernel).
void futex_wake_all(std::atomic<uint64_t>* cursor, bool shared);
// Returns false on timeout.
bool futex_wait(std::atomic<uint64_t>* cursor, uint32_t expected_low, std::chrono::microseconds timeout, bool shared);

// Pause iterations that make up the spin phase of a wait: about 10 µs on
// machines with up to 4 CPUs, 100 µs on larger ones (MOBILEGL_SPIN_US
// overrides it), calibrated once per process because a pause costs ~1 ns on
// some cores and ~40 ns on others (this dev VM's EPYC). On few cores a longer
// spin burns a core that the host driver's threads (llvmpipe) or the app need.
uint32_t default_spin_iterations();

struct WaitConfig {
    uint32_t spin_iterations = default_spin_iterations();
    std::chrono::microseconds park_slice{100'000};         // liveness is checked after each slice
    bool shared = false;                                   // process-shared futexes (shm)
};

// Counters of one side of one doorbell. Plain integers: each is written by a
// single thread; readers take snapshots that may lag (they are statistics).
struct DoorbellStats {
    uint64_t waits = 0;       // calls that found the condition false and had to wait
    uint64_t spin_hits = 0;   // ... of which ended while spinning
    uint64_t spins = 0;       // pause iterations spent spinning
    uint64_t parks = 0;       // futex_wait calls
    uint64_t timeouts = 0;    // parks that ran out their slice
    uint64_t wakes = 0;       // futex_wake calls issued to a parked peer

    DoorbellStats& operator+=(const DoorbellStats& o) {
        waits += o.waits; spin_hits += o.spin_hits; spins += o.spins;
        parks += o.parks; timeouts += o.timeouts; wakes += o.wakes;
        return *this;
    }
};

// What a waiter asks between parks.
class Liveness {
public:
    virtual ~Liveness() = default;
    // Cheap (flags in memory); called after every wake-up.
    virtual bool lost() = 0;
    // May cost a system call (poll the control socket); called after a park
    // slice ran out. Returns true when the peer is gone.
    virtual bool check() { return lost(); }
};

enum class WaitResult { ready, lost };

// One pause of a spin loop: lets the sibling hyperthread run and saves power.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    asm volatile("yield" ::: "memory");
#else
    std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

// Called by the side that advanced `cursor` to `now`: wakes the peer if it
// is parked on that cursor waiting for a value <= now.
inline void notify(std::atomic<uint64_t>* cursor, std::atomic<uint64_t>* want, uint64_t now,
                   bool shared, DoorbellStats& stats) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    uint64_t w = want->load(std::memory_order_relaxed);
    if (w == 0 || w > now) return;
    if (!want->compare_exchange_strong(w, 0, std::memory_order_acq_rel)) return;
    ++stats.wakes;
    futex_wake_all(cursor, shared);
}

// Spins, then parks, until `cursor` >= target or `extra_ready()` holds.
// `want` is the waiter's own word that the notifier of `cursor` reads.
// `extra_ready` lets a waiter also leave on other news (events, a close).
template <class ExtraReady>
WaitResult wait_cursor(std::atomic<uint64_t>* cursor, std::atomic<uint64_t>* want, uint64_t target,
                       ExtraReady&& extra_ready, Liveness& live, const WaitConfig& cfg,
                       DoorbellStats& stats) {
    auto reached = [&] { return cursor->load(std::memory_order_acquire) >= target; };
    if (reached()) return WaitResult::ready;
    ++stats.waits;
    for (uint32_t i = 0; i < cfg.spin_iterations; ++i) {
        cpu_relax();
        // The cursor every iteration (one load of a line that only changes
        // when there is news); the other conditions, which may touch more
        // shared lines, every 64.
        if (reached() || ((i & 63) == 63 && extra_ready())) {
            stats.spins += i + 1;
            ++stats.spin_hits;
            return WaitResult::ready;
        }
    }
    stats.spins += cfg.spin_iterations;
    for (;;) {
        if (extra_ready()) return WaitResult::ready;
        if (live.lost()) return WaitResult::lost;
        want->store(target, std::memory_order_seq_cst);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        uint64_t seen = cursor->load(std::memory_order_seq_cst);
        if (seen >= target) {
            want->store(0, std::memory_order_relaxed);
            return WaitResult::ready;
        }
        ++stats.parks;
        bool woken = futex_wait(cursor, uint32_t(seen), cfg.park_slice, cfg.shared);
        want->store(0, std::memory_order_relaxed);
        if (reached()) return WaitResult::ready;
        if (!woken) {
            ++stats.timeouts;
            if (live.check()) return WaitResult::lost;
        }
    }
}

}  // namespace mgl::wire
