// libFuzzer target: the server's handshake, the first bytes any socket or
// in-process client sends. A control message is decoded (wire::decode_control,
// FlatBuffers behind a verifier) and, when it is a hello, admitted as the
// server admits one (server/src/handshake.cpp: token, protocol, fingerprint,
// transport, backend, capacity, ring sizes). Only the null backend may be
// made: a GL context per input would cost ~100 ms and is fuzz-backend's job.
//
// The first input byte picks the endpoint (inproc, unix socket, tcp) and
// whether the server has a token; the rest is the message. Besides crashes
// and sanitizer reports, a finding is a message that does not survive its own
// round trip: what the server answers must decode to what it meant.
//   build-fuzz/tests/fuzz/fuzz-handshake -max_total_time=60 CORPUS_DIR
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "../../server/src/handshake.h"
#include "mgl/server/server.h"
#include "mgl/wire/transport/control.h"

namespace {

using namespace mgl;

void expect(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz-handshake: %s\n", what);
    std::abort();
}

server::ServerOptions options(bool with_token) {
    server::ServerOptions o = server::builtin_server_options();
    wire::ApplierFactory all = o.appliers;
    o.appliers = [all](const std::string& name) -> std::unique_ptr<wire::Applier> {
        return name == "null" ? all(name) : nullptr;
    };
    o.default_backend = "null";
    if (with_token) o.token = "fuzz-token-0123456789abcdef";
    o.max_sessions = 4;
    return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const server::ServerOptions open = options(false), gated = options(true);
    if (size < 1) return 0;
    const server::Via via = static_cast<server::Via>(data[0] % 3);
    const server::ServerOptions& o = (data[0] & 4) ? gated : open;
    const size_t live = (data[0] >> 3) % 6;  // sessions already open: past max_sessions is refused
    // The server reads a message from its own (aligned) buffer, as here.
    const std::vector<uint8_t> message(data + 1, data + size);
    wire::ControlMessage m = wire::decode_control(message);

    switch (m.kind) {
    case wire::ControlKind::hello: {
        server::Admission a = server::admit(o, m.hello, via, live);
        expect((a.refusal.reason == wire::RefusalReason::none) == (a.applier != nullptr),
               "an admission has an applier exactly when it is not a refusal");
        if (a.applier) {
            expect(live < o.max_sessions, "admitted past max_sessions");
            wire::Welcome w;
            w.backend = a.backend;
            w.build_id = o.build_id;
            w.rings = a.rings;
            wire::ControlMessage back = wire::decode_control(wire::encode_welcome(w));
            expect(back.kind == wire::ControlKind::welcome && back.welcome.backend == w.backend,
                   "the welcome does not decode as sent");
        } else {
            wire::ControlMessage back = wire::decode_control(wire::encode_refusal(a.refusal));
            expect(back.kind == wire::ControlKind::refusal && back.refusal.reason == a.refusal.reason &&
                       back.refusal.message == a.refusal.message,
                   "the refusal does not decode as sent");
        }
        break;
    }
    case wire::ControlKind::welcome:  // what a client reads back: re-encoded, it must decode the same
        expect(wire::decode_control(wire::encode_welcome(m.welcome)).welcome.shm_name == m.welcome.shm_name,
               "a decoded welcome does not survive a round trip");
        break;
    case wire::ControlKind::refusal:
        expect(wire::decode_control(wire::encode_refusal(m.refusal)).refusal.message == m.refusal.message,
               "a decoded refusal does not survive a round trip");
        break;
    default:
        break;
    }
    return 0;
}
