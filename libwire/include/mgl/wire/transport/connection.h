// The client's end of a session: mgl::wire::ClientLink plus what the client
// shell needs besides records and replies (events, staging, counters, close).
#pragma once

#include <cstdint>
#include <string_view>

#include "mgl/wire/link.h"
#include "mgl/wire/transport/doorbell.h"
#include "mgl/wire/transport/event.h"
#include "mgl/wire/transport/staging.h"

namespace mgl::wire {

// Counters of one link (MOBILEGL_PIPE_STATS prints them).
struct LinkStats {
    uint64_t bytes = 0;        // record bytes published (client) / applied (server)
    uint64_t staged = 0;       // of which written through the staging area (client)
    uint64_t publishes = 0;    // batches made visible (client) / spans handed to the decoder (server)
    uint64_t replies = 0;
    uint64_t events = 0;
    DoorbellStats data;        // server: waits for records; client: waits for ring space (backpressure)
    DoorbellStats reply;       // client: waits for replies; server: waits for reply/event ring space
    uint64_t wakes_sent = 0;   // futex wake-ups (or socket sends that end a peer's wait) this side issued

    uint64_t parks() const { return data.parks + reply.parks; }
};

class Connection : public ClientLink {
public:
    // "direct" | "inproc" | "shm" | "tcp"
    virtual std::string_view transport() const = 0;
    virtual uint64_t session_id() const = 0;
    // Takes the oldest event the server sent, without blocking.
    virtual bool poll_event(Event* out) = 0;
    // Ends the session in order (the destructor does it too). Records written
    // since the last flush are not sent.
    virtual void close() = 0;
    virtual LinkStats stats() const = 0;
    // Publishes up to `written` and waits until the server has applied every
    // record before it (a targeted wake-up: the server is woken for nothing
    // else). Used for frame credits. false if the connection is lost.
    virtual bool wait_applied(uint8_t* written, Window* window) = 0;
};

}  // namespace mgl::wire
