// Accepted sockets that have not said hello yet. They wait on the listener's
// asio thread (no thread, no session each), each with a deadline, all under a
// cap: when it is reached the oldest one is dropped, so that sockets held
// open by someone who never speaks cannot keep a real client out. The token
// is checked here too (through the TokenGate), before anything about the
// build is told. A socket that said a hello with a good token goes on to
// OnHello, where it becomes a session.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>

#include <asio/io_context.hpp>

#include "handshake.h"
#include "mgl/wire/transport/control.h"
#include "mgl/wire/transport/socket.h"
#include "token_gate.h"

namespace mgl::server {

struct HandshakeLimits {
    size_t max_pending = 128;
    std::chrono::milliseconds timeout{5000};
};

class PendingHandshakes {
public:
    using OnHello = std::function<void(wire::FramedSocket, Via, wire::ControlMessage)>;
    PendingHandshakes(asio::io_context& io, Via via, HandshakeLimits limits, TokenGate* gate, OnHello on_hello,
                      std::function<void()> on_refusal);
    ~PendingHandshakes();

    // All on the io thread.
    void add(int fd, std::string peer);
    bool drop_oldest();  // false: none pending
    // At the cap: drops the oldest socket that has sent nothing at all, else
    // the oldest stalled in the middle of its hello (nothing more waiting),
    // so that a client whose hello is arriving is not the one dropped for
    // sockets that never speak; the oldest of all if every one looked at has
    // bytes waiting.
    void drop_for_newcomer();
    void close_all();
    size_t size() const { return pending_.size(); }

    struct Conn;

private:
    friend struct Conn;
    void remove(Conn* c);

    asio::io_context& io_;
    Via via_;
    HandshakeLimits limits_;
    TokenGate* gate_;
    OnHello on_hello_;
    std::function<void()> on_refusal_;
    std::list<std::shared_ptr<Conn>> pending_;  // oldest first
    bool at_cap_ = false;                       // an episode of drops is being logged once
    uint64_t dropped_ = 0;
};

}  // namespace mgl::server
