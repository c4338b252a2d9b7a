// An accepting socket (unix or tcp) with its own asio thread, on which the
// handshakes of the sockets it accepted wait for their hello.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "handshake.h"
#include "pending_handshakes.h"
#include "mgl/wire/transport/socket.h"
#include "mgl/wire/transport/transport_url.h"

namespace mgl::server {

class Listener {
public:
    struct Config {
        bool have_token = false;
        HandshakeLimits limits;
        TokenGate* gate = nullptr;               // checks tokens before any hand-over
        PendingHandshakes::OnHello on_hello;     // a hello with a good token: a session's turn
        std::function<void()> on_refusal;        // counted in the server's stats
    };
    // Binds and starts accepting; nullptr with *error on failure. *bound gets
    // the address actually bound (the port chosen for tcp port 0).
    static std::unique_ptr<Listener> open(const wire::ListenSpec& spec, Config config, std::string* bound,
                                          std::string* error);
    virtual ~Listener() = default;
    // Stops accepting and joins the thread (sessions already accepted go on).
    virtual void close() = 0;
};

}  // namespace mgl::server
