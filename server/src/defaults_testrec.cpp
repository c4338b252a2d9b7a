// Placeholder defaults: the server applies the hand-built test records
// (mgl/wire/transport/test_records.h) until the generated codec is wired in
// through defaults_codec.cpp.
#include "builtin_defaults.h"
#include "mgl/wire/transport/test_records.h"

namespace mgl::server {

BuiltinDefaults builtin_defaults() {
    BuiltinDefaults d;
    d.appliers = wire::testrec::test_applier_factory();
    d.wire_fingerprint = wire::testrec::kFingerprint;
    d.build_id = "mobilegl-testrec";
    d.backend = "null";
    return d;
}

}  // namespace mgl::server
