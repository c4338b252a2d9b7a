// What a server session does with the records it receives.
//
// The real one wraps mgl::wire::decode_stream and a generated backend
// (server/src/codec_applier.cpp); tests and benchmarks plug in their own
// while the generated codec is young. Transports only ever see this seam,
// so they build and test without the generated code.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>

#include "mgl/wire/decoder.h"
#include "mgl/wire/link.h"
#include "mgl/wire/transport/event.h"

namespace mgl::wire {

// Where an applier reports what the client should hear about outside of
// replies (GL errors raised by the backend).
using EventSink = std::function<void(const Event&)>;

class Applier {
public:
    virtual ~Applier() = default;
    // Applies every whole record in `bytes`; sync verbs write their replies
    // to `replies`. An error ends the session (a fault goes to the client).
    virtual DecodeResult apply(std::span<const uint8_t> bytes, ReplySink& replies, bool partial_ok) = 0;
    // Set by the session before the first apply.
    void set_event_sink(EventSink sink) { events_ = std::move(sink); }
    // The link's staging area (nullptr: none), for staged records.
    virtual void set_staging(StagedSource* staging) {}
    // The most memory the session may hold (ServerOptions::session_memory),
    // set by the session before the first apply.
    virtual void set_memory_budget(uint64_t bytes) {}
    // Whether the client shares this process's address space (inproc,
    // direct), set by the session before the first apply.
    virtual void set_peer_in_process(bool in_process) {}

protected:
    EventSink events_;
};

// Makes the applier of a new session for a backend name ("" = default).
// Returns nullptr when the backend is unknown (the client gets a refusal).
using ApplierFactory = std::function<std::unique_ptr<Applier>(const std::string& backend)>;

}  // namespace mgl::wire
