// Slows down token guessing: hellos from a peer address that recently gave
// wrong tokens are checked one after another with a growing pause between
// them (5 ms per recent failure, at most 100 ms), so guesses from one address
// run at ~10/s instead of thousands. A peer whose line is already more than
// 2 s long is refused at once without its token being looked at. Successes
// are never slowed down for a peer with no failures. Shared by the listeners.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mgl::server {

class TokenGate {
public:
    using Clock = std::chrono::steady_clock;
    explicit TokenGate(std::string token) : token_(std::move(token)) {}

    bool enabled() const { return !token_.empty(); }
    // Reserves a time to check a hello from `peer`; nullopt: this peer has too
    // many checks in line. Every reservation is ended by check() or cancel().
    std::optional<Clock::time_point> reserve(const std::string& peer);
    // Checks `token` (at the reserved time); counts a failure against `peer`.
    bool check(const std::string& peer, std::string_view token);
    // The reserved check will not happen (the connection went).
    void cancel(const std::string& peer);

    uint64_t failures() const;

private:
    struct Peer {
        uint32_t fails = 0;      // recent failures (forgotten after a quiet minute)
        uint32_t in_line = 0;    // reserved, not yet checked
        Clock::time_point next;  // the earliest time for the next check
        Clock::time_point last;
    };
    void forget_quiet_peers(Clock::time_point now);

    const std::string token_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Peer> peers_;
    uint64_t failures_ = 0;
};

}  // namespace mgl::server
