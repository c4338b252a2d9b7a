// What this build of the server applies records with when its creator does
// not say (the C API and the daemon): the generated codec and backends once
// the lead wires them (defaults_codec.cpp), hand-built test records until
// then (defaults_testrec.cpp). Exactly one of the two is linked.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "mgl/wire/transport/applier.h"

namespace mgl::server {

struct BuiltinDefaults {
    wire::ApplierFactory appliers;
    uint64_t wire_fingerprint = 0;
    std::string build_id;
    std::string backend;   // the default backend name
    std::function<void(const std::string& backend)> warm_thread;  // ServerOptions::warm_thread
};

BuiltinDefaults builtin_defaults();

}  // namespace mgl::server
