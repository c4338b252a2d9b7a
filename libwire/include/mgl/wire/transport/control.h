// The control plane in plain C++: hello, welcome, refusal, attach, goodbye
// and events, encoded as FlatBuffers (libwire/control/control.fbs).
// Decoding verifies the buffer first; a buffer that does not verify is
// ControlKind::invalid, never read.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mgl/wire/transport/event.h"
#include "mgl/wire/transport/ring_set.h"

namespace mgl::wire {

// Version of the transport/control protocol (not of the GL schema: that is
// the wire fingerprint). Bump on any incompatible change to rings, frames or
// the control messages.
inline constexpr uint32_t kProtocolVersion = 1;

enum class RefusalReason : uint8_t {
    none = 0, protocol_version, wire_fingerprint, bad_token, unknown_backend, server_full, bad_message, internal,
};
const char* to_string(RefusalReason r);

enum class FaultReason : uint8_t { decode = 0, corrupt_ring, backend, server_shutdown, internal };

enum Capability : uint64_t { kCapStaging = 1, kCapEvents = 2, kCapChunkedRecords = 4 };

struct Hello {
    uint32_t protocol_version = kProtocolVersion;
    uint64_t wire_fingerprint = 0;
    std::string build_id;
    uint64_t capabilities = 0;
    std::string backend;
    std::string token;
    std::string transport;   // "inproc" | "shm" | "tcp"
    RingSizes rings{0, 0, 0, 0};  // requested; 0 = server default
};

struct Welcome {
    uint64_t session_id = 0;
    uint64_t capabilities = 0;
    std::string build_id;
    std::string backend;
    RingSizes rings;
    std::string shm_name;
    uint64_t shm_bytes = 0;
    uint32_t max_record_bytes = 0;
};

struct Refusal {
    RefusalReason reason = RefusalReason::none;
    std::string message;
};

enum class ControlKind { invalid, hello, welcome, refusal, attached, goodbye, event };

struct ControlMessage {
    ControlKind kind = ControlKind::invalid;
    Hello hello;
    Welcome welcome;
    Refusal refusal;
    Event event;
};

std::vector<uint8_t> encode_hello(const Hello& h);
std::vector<uint8_t> encode_welcome(const Welcome& w);
std::vector<uint8_t> encode_refusal(const Refusal& r);
std::vector<uint8_t> encode_attached();
std::vector<uint8_t> encode_goodbye();
ControlMessage decode_control(std::span<const uint8_t> bytes);

// Compares secrets in time that depends only on their lengths, so a remote
// client cannot learn a token byte by byte from response times.
bool token_equal(std::string_view a, std::string_view b);

}  // namespace mgl::wire
