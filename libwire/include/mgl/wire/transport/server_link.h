// The server's end of a session, one per transport: records in, replies and
// events out. A session's apply thread is its only user, except interrupt().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "mgl/wire/link.h"
#include "mgl/wire/transport/connection.h"
#include "mgl/wire/transport/event.h"
#include "mgl/wire/transport/staging.h"

namespace mgl::wire {

// Why wait_readable() returned nothing.
enum class LinkEnd : uint8_t {
    none,
    peer_closed,   // the client said goodbye
    peer_lost,     // the client died or its socket broke
    interrupted,   // interrupt(): the server is stopping
    corrupt,       // the client broke the ring or framing protocol: a fault
};

class ServerLink {
public:
    virtual ~ServerLink() = default;

    // Whole records to apply, waiting for them if none are there (spin, then
    // park). Empty when the session is over: see end() and end_reason().
    virtual std::span<const uint8_t> wait_readable() = 0;
    // The first `n` bytes of the last span were applied.
    virtual void consume(size_t n) = 0;
    // Whether spans may end in the middle of a record (stream transports).
    virtual bool partial_ok() const { return false; }

    virtual ReplySink& replies() = 0;
    // Queues an event for the client (waits while its ring is full).
    virtual bool send_event(const Event& e) = 0;
    // Bulk payloads named by kOpStaged records; nullptr where the transport
    // has no staging area.
    virtual StagedSource* staging() { return nullptr; }

    // Tells the client the session is over (after a final fault event, if any).
    virtual void close() = 0;
    // Any thread: makes wait_readable() return empty promptly.
    virtual void interrupt() = 0;

    virtual LinkEnd end() const = 0;
    virtual const std::string& end_reason() const = 0;
    virtual LinkStats stats() const = 0;
};

}  // namespace mgl::wire
