// decode_stream + a generated backend behind the wire::Applier seam.
#include "mgl/server/codec_applier.h"

#include <algorithm>
#include <exception>
#include <string>

#include "gen/backend.h"
#include "mgl/server/capture.h"
#include "mgl/wire/capture/writer.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/thread_role.h"

namespace mgl::server {

namespace {

// The link's reply sink, with a captured session's replies shown to its
// writer once whole (the writer keeps the few a replay on another backend
// needs: mgl/wire/capture/writer.h).
class CaptureReplies final : public wire::ReplySink {
public:
    uint8_t* begin_reply(uint32_t bytes) override {
        at_ = inner->begin_reply(bytes);
        bytes_ = bytes;
        return at_;
    }
    void end_reply() override {
        if (at_) capture->reply(at_, bytes_);
        at_ = nullptr;
        inner->end_reply();
    }
    wire::ReplySink* inner = nullptr;
    wire::capture::Writer* capture = nullptr;

private:
    uint8_t* at_ = nullptr;
    uint32_t bytes_ = 0;
};

class CodecApplier final : public wire::Applier {
public:
    CodecApplier(std::unique_ptr<mgl::Backend> backend, std::unique_ptr<wire::capture::Writer> capture)
        : capture_(std::move(capture)), backend_(std::move(backend)) {
        dispatch_.backend = backend_.get();
        dispatch_.tap = capture_.get();
        capture_replies_.capture = capture_.get();
    }
    ~CodecApplier() override {
        if (capture_) capture_->close(ended_);
        // The backend's host contexts go under the same lock as its spans.
        if (std::mutex* m = backend_->session_lock()) {
            std::lock_guard going(*m);
            backend_.reset();
        }
    }

    wire::DecodeResult apply(std::span<const uint8_t> bytes, wire::ReplySink& replies, bool partial_ok) override {
        // Serving for the call only: on the direct transport this is the app's
        // own thread, which must stay a client thread for our EGL vendor.
        wire::ServerThreadScope serving;
        dispatch_.replies = &replies;  // the link's sink; stable for the session, set each time for clarity
        if (capture_) {
            capture_replies_.inner = &replies;
            dispatch_.replies = &capture_replies_;
        }
        wire::DecodeResult r;
        std::unique_lock<std::mutex> serialised;
        if (std::mutex* m = backend_->session_lock()) serialised = std::unique_lock(*m);
        try {
            backend_->begin_span();
            r = wire::decode_stream(bytes, dispatch_, partial_ok);
        } catch (const std::exception& e) {
            // A backend bug (or a driver's exception) ends this session, not
            // the server and its other sessions. Nothing of the span counts
            // as applied: the session ends here anyway.
            return backend_threw(e.what());
        } catch (...) {
            return backend_threw("an exception that is not a std::exception");
        }
        if (events_ && r.consumed) push_errors();
        if (r.ok()) {
            if (const char* why = backend_->fault()) {
                r.error.status = wire::DecodeStatus::backend_lost;
                r.error.stream_offset = dispatch_.stream_offset;
                r.error.detail = why;
            }
        }
        if (!r.ok() && capture_) ended_ = std::string(wire::to_string(r.error.status)) + ": " + r.error.detail;
        return r;
    }

    void set_staging(wire::StagedSource* staging) override { dispatch_.staging = staging; }

    // A capture records the stream, not what the application writes through
    // a driver mapping: a captured session gets no such mappings.
    void set_peer_in_process(bool in_process) override { backend_->set_peer_in_process(in_process && !capture_); }

    void set_memory_budget(uint64_t bytes) override {
        dispatch_.budget.set_limit(bytes);
        // A reply is staged whole before it is sent: it counts as well.
        dispatch_.max_reply_bytes = uint32_t(std::min<uint64_t>(dispatch_.max_reply_bytes, bytes));
        backend_->set_memory_budget(&dispatch_.budget);
    }

private:
    wire::DecodeResult backend_threw(const char* what) {
        if (capture_) ended_ = std::string("the backend threw: ") + what;
        wire::DecodeResult r;
        r.error.status = wire::DecodeStatus::backend_lost;
        r.error.stream_offset = dispatch_.stream_offset;
        r.error.detail = std::string("the backend threw: ") + what;
        return r;
    }

    // GL errors raised while applying the span go to the client as events, so
    // an app that checks glGetError (MOBILEGL_GL_ERRORS=async) needs no round
    // trip. A context keeps one flag per error kind: a few at most.
    void push_errors() {
        for (int i = 0; i < 4; ++i) {
            uint32_t context = 0;
            const uint32_t error = backend_->take_error_event(&context);
            if (!error) return;
            wire::Event e;
            e.kind = wire::Event::Kind::gl_error;
            e.gl_error = error;
            e.context = context;
            e.stream_offset = dispatch_.stream_offset;
            events_(e);
        }
    }

    // The budget in dispatch_ outlives the backend, whose objects hand
    // their bytes back to it as they go.
    // Declared first: it closes after the backend is gone (the backend may
    // still report through dispatch_ while it goes, the tap sees nothing then).
    std::unique_ptr<wire::capture::Writer> capture_;
    std::string ended_;  // the fault that ended the session, for the capture's summary
    CaptureReplies capture_replies_;
    wire::Dispatch dispatch_;
    std::unique_ptr<mgl::Backend> backend_;
};

}  // namespace

wire::ApplierFactory codec_applier_factory(BackendFactory backends) {
    return [backends = std::move(backends)](const std::string& name) -> std::unique_ptr<wire::Applier> {
        wire::ServerThreadScope serving;  // backends may open host EGL displays here
        std::unique_ptr<mgl::Backend> b = backends(name);
        if (!b) return nullptr;
        return std::make_unique<CodecApplier>(std::move(b), open_session_capture(name));
    };
}

}  // namespace mgl::server
