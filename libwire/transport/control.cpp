// Control messages <-> FlatBuffers (libwire/control/control.fbs).
// Every received buffer goes through flatbuffers::Verifier before it is read.
#include "mgl/wire/transport/control.h"

#include <flatbuffers/flatbuffers.h>
#include <fmt/format.h>

#include "control_generated.h"
#include "mgl/wire/transport/applier.h"

namespace mgl::wire {

namespace fbc = mgl::control;

static_assert(uint8_t(RefusalReason::internal) == uint8_t(fbc::RefusalReason::Internal));
static_assert(uint8_t(FaultReason::internal) == uint8_t(fbc::FaultReason::Internal));
static_assert(kCapStaging == uint64_t(fbc::Capability::Staging));
static_assert(kCapEvents == uint64_t(fbc::Capability::Events));
static_assert(kCapChunkedRecords == uint64_t(fbc::Capability::ChunkedRecords));

const char* to_string(RefusalReason r) {
    switch (r) {
    case RefusalReason::none: return "none";
    case RefusalReason::protocol_version: return "protocol version mismatch";
    case RefusalReason::wire_fingerprint: return "wire fingerprint mismatch (client and server built from different schemas)";
    case RefusalReason::bad_token: return "bad or missing token";
    case RefusalReason::unknown_backend: return "unknown backend";
    case RefusalReason::server_full: return "server full";
    case RefusalReason::bad_message: return "malformed hello";
    case RefusalReason::internal: return "internal server error";
    }
    return "unknown refusal";
}

namespace {

std::vector<uint8_t> finish(flatbuffers::FlatBufferBuilder& b, fbc::Message type, flatbuffers::Offset<void> msg) {
    b.Finish(fbc::CreateEnvelope(b, type, msg));
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

std::string str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

}  // namespace

std::vector<uint8_t> encode_hello(const Hello& h) {
    flatbuffers::FlatBufferBuilder b(256);
    auto build = b.CreateString(h.build_id);
    auto backend = b.CreateString(h.backend);
    auto token = b.CreateString(h.token);
    auto transport = b.CreateString(h.transport);
    auto m = fbc::CreateHello(b, h.protocol_version, h.wire_fingerprint, build, h.capabilities, backend, token,
                              transport, h.rings.records, h.rings.replies, h.rings.staging);
    return finish(b, fbc::Message::Hello, m.Union());
}

std::vector<uint8_t> encode_welcome(const Welcome& w) {
    flatbuffers::FlatBufferBuilder b(256);
    auto build = b.CreateString(w.build_id);
    auto backend = b.CreateString(w.backend);
    auto shm = b.CreateString(w.shm_name);
    auto m = fbc::CreateWelcome(b, w.session_id, w.capabilities, build, backend, w.rings.records, w.rings.replies,
                                w.rings.events, w.rings.staging, shm, w.shm_bytes, w.max_record_bytes);
    return finish(b, fbc::Message::Welcome, m.Union());
}

std::vector<uint8_t> encode_refusal(const Refusal& r) {
    flatbuffers::FlatBufferBuilder b(256);
    auto msg = b.CreateString(r.message);
    auto m = fbc::CreateRefusal(b, fbc::RefusalReason(uint8_t(r.reason)), msg);
    return finish(b, fbc::Message::Refusal, m.Union());
}

std::vector<uint8_t> encode_attached() {
    flatbuffers::FlatBufferBuilder b(64);
    return finish(b, fbc::Message::Attached, fbc::CreateAttached(b).Union());
}

std::vector<uint8_t> encode_goodbye() {
    flatbuffers::FlatBufferBuilder b(64);
    return finish(b, fbc::Message::Goodbye, fbc::CreateGoodbye(b).Union());
}

std::vector<uint8_t> encode_event(const Event& e) {
    flatbuffers::FlatBufferBuilder b(256);
    switch (e.kind) {
    case Event::Kind::gl_error: {
        auto m = fbc::CreateGlError(b, e.gl_error, e.opcode, e.stream_offset, e.context);
        return finish(b, fbc::Message::GlError, m.Union());
    }
    case Event::Kind::fault: {
        auto msg = b.CreateString(e.message);
        auto m = fbc::CreateFault(b, fbc::FaultReason(e.fault_reason), msg, e.stream_offset, e.opcode);
        return finish(b, fbc::Message::Fault, m.Union());
    }
    case Event::Kind::lost_context: {
        auto msg = b.CreateString(e.message);
        auto m = fbc::CreateLostContext(b, msg);
        return finish(b, fbc::Message::LostContext, m.Union());
    }
    }
    return {};
}

ControlMessage decode_control(std::span<const uint8_t> bytes) {
    ControlMessage out;
    flatbuffers::Verifier v(bytes.data(), bytes.size(), /*max_depth=*/16, /*max_tables=*/64);
    if (bytes.empty() || !fbc::VerifyEnvelopeBuffer(v)) return out;
    const fbc::Envelope* env = fbc::GetEnvelope(bytes.data());
    switch (env->message_type()) {
    case fbc::Message::Hello: {
        auto* m = env->message_as_Hello();
        if (!m) return out;  // a union type without its table passes the verifier
        out.kind = ControlKind::hello;
        Hello& h = out.hello;
        h.protocol_version = m->protocol_version();
        h.wire_fingerprint = m->wire_fingerprint();
        h.build_id = str(m->build_id());
        h.capabilities = m->capabilities();
        h.backend = str(m->backend());
        h.token = str(m->token());
        h.transport = str(m->transport());
        h.rings = RingSizes{m->record_ring_bytes(), m->reply_ring_bytes(), 0, m->staging_bytes()};
        break;
    }
    case fbc::Message::Welcome: {
        auto* m = env->message_as_Welcome();
        if (!m) return out;  // a union type without its table passes the verifier
        out.kind = ControlKind::welcome;
        Welcome& w = out.welcome;
        w.session_id = m->session_id();
        w.capabilities = m->capabilities();
        w.build_id = str(m->build_id());
        w.backend = str(m->backend());
        w.rings = RingSizes{m->record_ring_bytes(), m->reply_ring_bytes(), m->event_ring_bytes(), m->staging_bytes()};
        w.shm_name = str(m->shm_name());
        w.shm_bytes = m->shm_bytes();
        w.max_record_bytes = m->max_record_bytes();
        break;
    }
    case fbc::Message::Refusal: {
        auto* m = env->message_as_Refusal();
        if (!m) return out;  // a union type without its table passes the verifier
        out.kind = ControlKind::refusal;
        uint8_t r = uint8_t(m->reason());
        out.refusal.reason = r <= uint8_t(RefusalReason::internal) ? RefusalReason(r) : RefusalReason::internal;
        out.refusal.message = str(m->message());
        break;
    }
    case fbc::Message::Attached: out.kind = ControlKind::attached; break;
    case fbc::Message::Goodbye: out.kind = ControlKind::goodbye; break;
    case fbc::Message::Fault: {
        auto* m = env->message_as_Fault();
        if (!m) return out;  // a union type without its table passes the verifier
        out.kind = ControlKind::event;
        out.event.kind = Event::Kind::fault;
        out.event.fault_reason = uint8_t(m->reason());
        out.event.message = str(m->message());
        out.event.stream_offset = m->stream_offset();
        out.event.opcode = m->opcode();
        break;
    }
    case fbc::Message::GlError: {
        auto* m = env->message_as_GlError();
        if (!m) return out;  // a union type without its table passes the verifier
        out.kind = ControlKind::event;
        out.event.kind = Event::Kind::gl_error;
        out.event.gl_error = m->error();
        out.event.context = m->context();
        out.event.opcode = m->opcode();
        out.event.stream_offset = m->stream_offset();
        break;
    }
    case fbc::Message::LostContext: {
        auto* m = env->message_as_LostContext();
        if (!m) return out;  // a union type without its table passes the verifier
        out.kind = ControlKind::event;
        out.event.kind = Event::Kind::lost_context;
        out.event.message = str(m->message());
        break;
    }
    default: break;
    }
    return out;
}

bool decode_event(std::span<const uint8_t> bytes, Event* out) {
    ControlMessage m = decode_control(bytes);
    if (m.kind != ControlKind::event) return false;
    *out = std::move(m.event);
    return true;
}

std::string describe(const Event& e) {
    switch (e.kind) {
    case Event::Kind::gl_error:
        return fmt::format("GL error 0x{:04x} of context {} from opcode {} at stream offset {}", e.gl_error, e.context, e.opcode,
                           e.stream_offset);
    case Event::Kind::fault:
        return fmt::format("server fault at stream offset {} (opcode {}): {}", e.stream_offset, e.opcode, e.message);
    case Event::Kind::lost_context: return fmt::format("context lost: {}", e.message);
    }
    return "unknown event";
}

bool token_equal(std::string_view a, std::string_view b) {
    // Walk the longer of the two so the time depends only on lengths.
    size_t n = a.size() > b.size() ? a.size() : b.size();
    volatile uint8_t diff = uint8_t(a.size() != b.size());
    for (size_t i = 0; i < n; ++i) {
        uint8_t x = i < a.size() ? uint8_t(a[i]) : 0;
        uint8_t y = i < b.size() ? uint8_t(b[i]) : 0;
        diff = diff | uint8_t(x ^ y);
    }
    return diff == 0;
}

}  // namespace mgl::wire
