// Built when libwire's transports are not part of the build: every session
// must come from set_connection_factory().
#include "connection.h"

namespace mgl::client {

std::unique_ptr<Connection> open_connection_from_env(std::string* error) {
    if (error) *error = "this build has no transports (libwire/transport); MOBILEGL_TRANSPORT cannot be honoured";
    return nullptr;
}

void prepare_connection_from_env() {}

void set_glvnd_vendor(const void*, void*) {}

}  // namespace mgl::client
