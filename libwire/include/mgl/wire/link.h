// The seam between the codec and the transports.
//
// An Encoder writes records straight into a window of the transport's ring
// (no copy, no virtual call per record); it talks to the transport only when
// its window is used up, at flush points and for replies. On the server the
// decoder reads whole records from the transport, applies them, and writes
// replies and events back through the same link.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace mgl::wire {

// A contiguous writable region of the outgoing stream.
struct Window {
    uint8_t* begin = nullptr;
    uint8_t* end = nullptr;
};

// Space in the staging area, a second ring for bulk payloads shared with the
// server (transport/staging.h). A large record is written there whole and the
// record stream carries a small kOpStaged record that names it by cursor.
struct StagingSpan {
    uint8_t* data = nullptr;   // nullptr: no space (lost connection or no staging area)
    uint64_t cursor = 0;       // what the kOpStaged record carries to name the bytes
};

// Client side of a connection: where records go, where replies come from.
class ClientLink {
public:
    virtual ~ClientLink() = default;

    // The bytes in [window.begin, written) are complete records. Returns a
    // fresh window of at least `min_bytes` contiguous bytes. May publish what
    // was written (a batch), insert a pad record at the end of a ring, and
    // block while the ring is full (backpressure: nothing is ever dropped).
    // `min_bytes` never exceeds max_record_bytes(). The first call of a
    // link's life passes written == nullptr (nothing written yet).
    virtual Window next_window(uint8_t* written, size_t min_bytes) = 0;

    // Publish everything up to `written` and wake the consumer if it is
    // parked. Returns the window to keep writing into.
    virtual Window flush(uint8_t* written) = 0;

    // Largest record that fits a window; larger records travel as chunks.
    virtual size_t max_record_bytes() const = 0;

    // Publish up to `written`, then block until the reply to the oldest
    // sync record without one arrives. The bytes stay valid until the next
    // call on this link. An empty span means the connection is lost (see
    // lost_reason()); it never hangs on a dead server.
    virtual std::span<const uint8_t> wait_reply(uint8_t* written, Window* window) = 0;

    // Non-empty once the server ended the session or died.
    virtual const std::string& lost_reason() const = 0;

    // Bytes of the staging area; 0 where the transport has none (direct, tcp).
    virtual uint64_t staging_capacity() const { return 0; }
    // `bytes` (<= staging_capacity()) of staging space, made visible to the
    // server at once; the record naming it goes on the stream afterwards.
    // The records in [window.begin, written) are committed first: while the
    // area is full this publishes them and waits for the server to apply
    // them and free staging. *window: where to keep writing records.
    // data == nullptr where there is no area or the connection is lost.
    virtual StagingSpan stage(uint8_t* written, uint64_t bytes, Window* window) {
        *window = flush(written);
        return {};
    }
};

// The server's view of the staging area, for the decoder of kOpStaged records.
class StagedSource {
public:
    virtual ~StagedSource() = default;
    // The bytes a staged record names; empty if it names anything but
    // published, unreleased staging space.
    virtual std::span<const uint8_t> view(uint64_t cursor, uint64_t size) = 0;
    // Everything before `end` was applied: the client may reuse it.
    virtual bool release_through(uint64_t end) = 0;
};

// Where a decoder writes the reply of a sync verb.
class ReplySink {
public:
    virtual ~ReplySink() = default;
    // A zeroed region of `bytes` bytes that becomes the reply once
    // end_reply() is called. Never more than one reply open at a time.
    virtual uint8_t* begin_reply(uint32_t bytes) = 0;
    virtual void end_reply() = 0;
};

}  // namespace mgl::wire
