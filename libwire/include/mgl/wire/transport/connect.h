// Opening a session from the client: parse the transport string, shake
// hands, build the link. One call for all four transports.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "mgl/wire/transport/applier.h"
#include "mgl/wire/transport/connection.h"
#include "mgl/wire/transport/control.h"
#include "mgl/wire/transport/doorbell.h"
#include "mgl/wire/transport/inproc.h"

namespace mgl::wire {

struct ConnectOptions {
    std::string transport = "direct";  // see transport_url.h
    uint64_t wire_fingerprint = 0;     // mgl::gen::kWireFingerprint
    std::string build_id;
    std::string backend;               // "" = the server's default
    std::string token;                 // tcp to a non-loopback server
    uint64_t capabilities = kCapStaging | kCapEvents | kCapChunkedRecords;
    RingSizes rings{0, 0, 0, 0};       // requests; 0 = server default
    WaitConfig wait;                   // spin/park tuning (shm forces shared futexes)
    std::chrono::milliseconds timeout{5000};  // connect + handshake
    // direct: how records are applied on the calling thread.
    ApplierFactory direct_appliers;
    // inproc: the server; null = the process default (set by the embedding API).
    std::shared_ptr<InprocEndpoint> inproc;
    // tcp: bytes per records frame (the window handed to the encoder).
    uint32_t tcp_batch_bytes = 256u << 10;
    // direct: bytes of the buffer applied at each flush.
    uint32_t direct_batch_bytes = 1u << 20;
};

struct ConnectResult {
    std::unique_ptr<Connection> link;
    RefusalReason refusal = RefusalReason::none;  // set when the server refused
    std::string error;                             // why link is null; printed by the caller
};

ConnectResult connect(const ConnectOptions& options);

}  // namespace mgl::wire
