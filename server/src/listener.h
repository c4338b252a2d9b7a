// An accepting socket (unix or tcp) with its own asio thread.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "handshake.h"
#include "mgl/wire/transport/socket.h"
#include "mgl/wire/transport/transport_url.h"

namespace mgl::server {

class Listener {
public:
    using OnAccept = std::function<void(wire::FramedSocket, Via)>;
    // Binds and starts accepting; nullptr with *error on failure. *bound gets
    // the address actually bound (the port chosen for tcp port 0).
    static std::unique_ptr<Listener> open(const wire::ListenSpec& spec, bool have_token, OnAccept on_accept,
                                          std::string* bound, std::string* error);
    virtual ~Listener() = default;
    // Stops accepting and joins the thread (sessions already accepted go on).
    virtual void close() = 0;
};

}  // namespace mgl::server
