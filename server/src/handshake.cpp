// Admission checks: credentials first (nothing is told to a client without
// them), then in the order a client can fix them: protocol, schema, backend,
// capacity.
#include "handshake.h"

#include <fmt/format.h>

namespace mgl::server {

namespace {
Admission refuse(wire::RefusalReason r, std::string msg) {
    Admission a;
    a.refusal = {r, std::move(msg)};
    return a;
}
const char* via_name(Via v) {
    switch (v) {
    case Via::inproc: return "inproc";
    case Via::unix_socket: return "shm";
    case Via::tcp: return "tcp";
    }
    return "?";
}
}  // namespace

Admission admit(const ServerOptions& o, const wire::Hello& h, Via via, size_t live_sessions) {
    using R = wire::RefusalReason;
    // First, so that a client without the token learns nothing about this
    // build (fingerprint, build id, backends). In-process clients share our
    // address space: a token would prove nothing. (Socket clients were checked
    // already, rate-limited, by the TokenGate; this stays for every caller.)
    if (via != Via::inproc && !o.token.empty() && !wire::token_equal(h.token, o.token))
        return refuse(R::bad_token, h.token.empty() ? "this server requires a token (MOBILEGL_IPC_TOKEN)"
                                                    : "the token does not match");
    if (h.protocol_version != wire::kProtocolVersion)
        return refuse(R::protocol_version, fmt::format("client speaks transport protocol {}, this server speaks {}",
                                                       h.protocol_version, wire::kProtocolVersion));
    if (h.wire_fingerprint != o.wire_fingerprint)
        return refuse(R::wire_fingerprint,
                      fmt::format("client wire fingerprint {:016x} (build '{}'), server {:016x} (build '{}'): "
                                  "rebuild both from the same schema",
                                  h.wire_fingerprint, h.build_id, o.wire_fingerprint, o.build_id));
    if (h.transport != via_name(via))
        return refuse(R::bad_message, fmt::format("client expects the {} transport on a {} endpoint", h.transport,
                                                  via_name(via)));
    std::string backend = h.backend.empty() ? o.default_backend : h.backend;
    std::unique_ptr<wire::Applier> applier = o.appliers ? o.appliers(backend) : nullptr;
    if (!applier) return refuse(R::unknown_backend, fmt::format("no backend named '{}' on this server", backend));
    if (live_sessions >= o.max_sessions)
        return refuse(R::server_full, fmt::format("{} sessions already", live_sessions));
    Admission a;
    a.applier = std::move(applier);
    a.backend = backend;
    a.rings = wire::clamp_ring_sizes(h.rings, o.rings);
    return a;
}

}  // namespace mgl::server
