// Admission of a client: checks its hello against the server's options and
// makes its applier, or says why not (a refusal the client prints).
#pragma once

#include <memory>
#include <string>

#include "mgl/server/server.h"
#include "mgl/wire/transport/control.h"

namespace mgl::server {

struct Admission {
    wire::Refusal refusal;                   // reason none: admitted
    std::unique_ptr<wire::Applier> applier;
    std::string backend;
    wire::RingSizes rings;
};

enum class Via { inproc, unix_socket, tcp };

Admission admit(const ServerOptions& options, const wire::Hello& hello, Via via, size_t live_sessions);

}  // namespace mgl::server
