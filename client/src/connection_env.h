// Hooks of the environment's connection factory (connection_env.cc).
#pragma once

#include "mgl/wire/transport/applier.h"

namespace mgl::client {

// The server-side applier that MOBILEGL_TRANSPORT=direct decodes into
// (records are applied on the calling thread at each flush).
void set_direct_appliers(wire::ApplierFactory f);

}  // namespace mgl::client
