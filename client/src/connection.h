// The client's one seam to the transports: a Connection is a session with a
// server (a ClientLink for records and replies, plus the events the server
// pushes). The client opens one per share group (see context.h) and writes
// into it through a gen::Encoder.
//
// open_connection() reads the environment (MOBILEGL_TRANSPORT, ...) through
// the factory installed last: by default the one in connection_env.cc, which
// builds on libwire's transports; tests install their own with
// set_connection_factory() (a `direct`-style link decoding into a backend).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "mgl/wire/link.h"

namespace mgl::client {

// Per-link counters since the session opened (MOBILEGL_PIPE_STATS).
struct PipeStats {
    uint64_t bytes = 0;        // record bytes published
    uint64_t staged = 0;       // bytes of records written through the staging area
    uint64_t publishes = 0;    // batches made visible to the server
    uint64_t reply_waits = 0;  // blocking waits for a reply (round trips that had to wait)
    uint64_t space_waits = 0;  // waits for ring space (backpressure)
    uint64_t parks = 0;        // times this side slept in the kernel
    uint64_t wakes_sent = 0;   // wake-ups this side sent to a sleeping server
};

class Connection {
public:
    virtual ~Connection() = default;
    // Where the encoder writes. Lives as long as the Connection.
    virtual wire::ClientLink& link() = 0;
    // "direct" | "inproc" | "shm" | "tcp" | a test name.
    virtual std::string transport() const = 0;
    // A GL error the server pushed as an event for context `context` (the
    // client's name), without blocking; taken. false: none pending.
    virtual bool poll_gl_error(uint32_t context, uint32_t* error) { return false; }
    // Counters of the link; false when the transport keeps none.
    virtual bool pipe_stats(PipeStats* out) { return false; }
    // Non-empty once the session ended (fault, dead server).
    virtual std::string lost_reason() { return link().lost_reason(); }
};

// Opens a session. nullptr with *error set when it cannot (the message names
// the variable and the value at fault).
using ConnectionFactory = std::function<std::unique_ptr<Connection>(std::string* error)>;

std::unique_ptr<Connection> open_connection(std::string* error);

// Replaces the factory (tests, an embedding application). An empty function
// restores the environment's factory.
void set_connection_factory(ConnectionFactory factory);

// The environment's factory (connection_env.cc).
std::unique_ptr<Connection> open_connection_from_env(std::string* error);

// eglInitialize's share of the work: where this process serves itself
// (inproc: the embedded server; direct: the backend on the program's thread),
// loads and initialises the host driver now, as a native driver's
// eglInitialize does, rather than inside the program's first eglCreateContext
// or first frame. Does nothing for other transports.
void prepare_connection_from_env();

// What glvnd gave our vendor library's __egl_Main (its exports table and our
// vendor handle). The direct transport with Espryt needs them: Espryt then
// decodes on the application's thread and loads the host's vendor libraries
// itself, which must be given glvnd's table (espryt::use_host_vendor_library).
void set_glvnd_vendor(const void* exports, void* vendor);

}  // namespace mgl::client
