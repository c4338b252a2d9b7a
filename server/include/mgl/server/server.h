// The server shell: sessions (one per admitted client, one apply thread
// each), listeners (unix sockets for shm clients, tcp), an inproc endpoint,
// and an orderly stop. Records are applied through a wire::Applier made per
// session by the factory the creator passes in.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "mgl/wire/transport/applier.h"
#include "mgl/wire/transport/connection.h"
#include "mgl/wire/transport/doorbell.h"
#include "mgl/wire/transport/inproc.h"
#include "mgl/wire/transport/ring_set.h"

struct mgl_inproc_endpoint;  // mobilegl/server.h

namespace mgl::server {

struct ServerOptions {
    wire::ApplierFactory appliers;        // required: makes each session's applier
    std::string default_backend;          // used when a hello names none
    uint64_t wire_fingerprint = 0;        // mgl::gen::kWireFingerprint
    std::string build_id;
    std::string token;                    // required to listen on a non-loopback tcp address;
                                          // when set, every socket client must give it
    wire::RingSizes rings;                // defaults (clients may ask for others, within limits)
    wire::WaitConfig wait;
    uint32_t max_sessions = 256;
    // What one session may hold in server memory (chunk reassembly, replies,
    // the backend's buffers and textures); over it, that session ends with a
    // fault. 0: wire::MemoryBudget::kDefaultBytes (512 MiB).
    uint64_t session_memory = 0;
    uint32_t tcp_max_record_frame = 4u << 20;
    std::chrono::milliseconds handshake_timeout{5000};
    // Accepted sockets waiting for their hello, per listener: they cost no
    // thread and no session; past the cap the oldest is dropped.
    uint32_t max_pending_handshakes = 128;
    // Session threads are kept for later sessions (server/src/session_threads.h).
    // `spare_threads` of them are made when the server starts, each first
    // running warm_thread with the default backend's name (Espryt: the host
    // driver's per-thread set-up, 22-28 ms a thread on NVIDIA, paid before a
    // session needs it). builtin_server_options() takes both from
    // MOBILEGL_WARM_THREADS, else from its caller's default: 2 for the server
    // process (`mgl server`, started ahead of its clients, so the warm-up is
    // off their path), 0 for a server made through the C API (the inproc
    // transport starts one inside the application's eglInitialize, where the
    // warm-up would only move the cost; docs/PERFORMANCE.md 4l).
    std::function<void(const std::string& backend)> warm_thread;
    uint32_t spare_threads = 0;
};

// The applier factory, wire fingerprint, build id and default backend this
// build of the server was made with (the generated codec and its backends
// when built with them). The C API and the daemon start from these.
ServerOptions builtin_server_options(uint32_t default_warm_threads = 0);

struct ServerStats {
    uint64_t sessions_opened = 0;
    uint64_t sessions_ended = 0;
    uint64_t refusals = 0;
    uint64_t faults = 0;
    uint64_t token_failures = 0;  // hellos with a wrong or missing token
    wire::LinkStats links;   // server-side link counters, summed over ended sessions
};

class Server {
public:
    explicit Server(ServerOptions options);
    ~Server();  // stop()
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Starts serving "unix:/path" (shm clients) or "tcp://host:port" (port 0:
    // any free port). Returns the bound address, e.g. "tcp://127.0.0.1:40123",
    // or "" with *error set.
    std::string listen(std::string_view address, std::string* error);

    // An endpoint for clients in this process; it also becomes the process
    // default that connect() uses for the "inproc" transport.
    std::shared_ptr<wire::InprocEndpoint> inproc_endpoint();

    // Stops listening, ends every session (clients see a lost context), joins
    // every thread. Idempotent.
    void stop();

    // Sessions that start from now on get this budget (0: the default).
    void set_session_memory(uint64_t bytes);

    size_t session_count() const;
    ServerStats stats() const;
    // Tests: waits until at most `n` sessions are alive.
    bool wait_sessions_at_most(size_t n, std::chrono::milliseconds timeout) const;

    struct Core;  // private

private:
    std::shared_ptr<Core> core_;
};

// The endpoint behind the C API's handle, for a C++ client in the same
// process (ConnectOptions::inproc). Null for a null handle.
std::shared_ptr<wire::InprocEndpoint> inproc_endpoint_of(const mgl_inproc_endpoint* handle);

}  // namespace mgl::server
