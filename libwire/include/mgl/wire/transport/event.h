// What the server tells a client outside of replies: GL errors, the fault
// that ended its session, a lost context. Control-plane messages
// (FlatBuffers, control.fbs) on the wire; this plain struct in the API.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <vector>

namespace mgl::wire {

struct Event {
    enum class Kind : uint8_t { gl_error, fault, lost_context };
    Kind kind = Kind::gl_error;
    uint32_t gl_error = 0;       // gl_error: the GL error enum
    uint8_t fault_reason = 0;    // fault: mgl::control::FaultReason
    uint16_t opcode = 0;
    uint64_t stream_offset = 0;
    std::string message;
    uint32_t context = 0;        // gl_error: the client's context name
};

// Queues a received event for poll_event(). An app that never calls
// glGetError must not make the queue grow: past a bound, further GL error
// events are dropped (GL itself keeps only the first error per flag until it
// is read). Faults and lost contexts are always kept.
inline void queue_event(std::deque<Event>& q, Event e) {
    constexpr size_t kMaxQueued = 256;
    if (e.kind == Event::Kind::gl_error && q.size() >= kMaxQueued) return;
    q.push_back(std::move(e));
}

// Serialises an event as a verified-on-receipt control message.
std::vector<uint8_t> encode_event(const Event& e);
// Parses a received event; false if the bytes do not verify.
bool decode_event(std::span<const uint8_t> bytes, Event* out);
// "fault at stream offset 123 (opcode 300): message" and friends.
std::string describe(const Event& e);

}  // namespace mgl::wire
