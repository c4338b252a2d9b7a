// The core of the `mgl server` command (tools/ hooks it into the mgl CLI).
#pragma once

#ifdef __cplusplus
#include "mgl/server/server.h"

namespace mgl::server {
// Parses the command line on top of `base` (appliers, fingerprint, default
// backend) and serves until SIGINT/SIGTERM. Tests pass their own base.
int server_main(int argc, char** argv, ServerOptions base);
}  // namespace mgl::server

extern "C" {
#endif

// --listen unix:PATH | tcp://HOST:PORT (repeatable), --token, --backend,
// --help. Serves with builtin_server_options() until SIGINT/SIGTERM, then
// stops every session cleanly. Returns the process exit status.
int mgl_server_main(int argc, char** argv);

#ifdef __cplusplus
}
#endif
