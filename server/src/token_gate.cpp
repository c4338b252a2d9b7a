#include "token_gate.h"

#include <algorithm>

#include "mgl/wire/transport/control.h"

namespace mgl::server {

namespace {
using namespace std::chrono_literals;
constexpr auto kStep = 5ms;
constexpr auto kMaxPause = 100ms;
constexpr auto kMaxLine = 2s;
constexpr auto kForgetAfter = 60s;
constexpr size_t kMaxPeers = 4096;  // bounded memory whatever the number of addresses
}  // namespace

void TokenGate::forget_quiet_peers(Clock::time_point now) {
    for (auto it = peers_.begin(); it != peers_.end();) {
        if (it->second.in_line == 0 && now - it->second.last > kForgetAfter) it = peers_.erase(it);
        else ++it;
    }
    // Still full: the oldest idle entries go (an address loses its history,
    // which only makes it faster again, never blocks anyone).
    while (peers_.size() >= kMaxPeers) {
        auto oldest = peers_.end();
        for (auto it = peers_.begin(); it != peers_.end(); ++it)
            if (it->second.in_line == 0 && (oldest == peers_.end() || it->second.last < oldest->second.last))
                oldest = it;
        if (oldest == peers_.end()) break;
        peers_.erase(oldest);
    }
}

std::optional<TokenGate::Clock::time_point> TokenGate::reserve(const std::string& peer) {
    std::lock_guard lock(mutex_);
    Clock::time_point now = Clock::now();
    if (peers_.size() >= kMaxPeers && !peers_.count(peer)) forget_quiet_peers(now);
    Peer& p = peers_[peer];
    if (p.in_line == 0 && now - p.last > kForgetAfter) p.fails = 0;
    // Checks in line count as failures to come: a burst of parallel guesses
    // is spaced out like guesses one after another.
    uint32_t pressure = p.fails + p.in_line;
    auto pause = std::min<Clock::duration>(kStep * pressure, kMaxPause);
    Clock::time_point at = std::max(now, p.next);
    if (pressure == 0) at = now;
    if (at - now > kMaxLine) return std::nullopt;
    p.next = at + pause;
    p.last = now;
    ++p.in_line;
    return at;
}

bool TokenGate::check(const std::string& peer, std::string_view token) {
    bool ok = wire::token_equal(token, token_);
    std::lock_guard lock(mutex_);
    Peer& p = peers_[peer];
    if (p.in_line > 0) --p.in_line;
    p.last = Clock::now();
    if (ok) p.fails = 0;
    else {
        ++p.fails;
        ++failures_;
    }
    return ok;
}

void TokenGate::cancel(const std::string& peer) {
    std::lock_guard lock(mutex_);
    auto it = peers_.find(peer);
    if (it != peers_.end() && it->second.in_line > 0) --it->second.in_line;
}

uint64_t TokenGate::failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
}

}  // namespace mgl::server
