// decode_stream + a generated backend behind the wire::Applier seam.
#include "mgl/server/codec_applier.h"

#include "gen/backend.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/thread_role.h"

namespace mgl::server {

namespace {

class CodecApplier final : public wire::Applier {
public:
    explicit CodecApplier(std::unique_ptr<mgl::Backend> backend) : backend_(std::move(backend)) {
        dispatch_.backend = backend_.get();
    }

    wire::DecodeResult apply(std::span<const uint8_t> bytes, wire::ReplySink& replies, bool partial_ok) override {
        wire::t_server_thread = true;  // the apply thread only ever serves (see thread_role.h)
        dispatch_.replies = &replies;  // the link's sink; stable for the session, set each time for clarity
        wire::DecodeResult r = wire::decode_stream(bytes, dispatch_, partial_ok);
        if (r.ok()) {
            if (const char* why = backend_->fault()) {
                r.error.status = wire::DecodeStatus::backend_lost;
                r.error.stream_offset = dispatch_.stream_offset;
                r.error.detail = why;
            }
        }
        return r;
    }

private:
    std::unique_ptr<mgl::Backend> backend_;
    wire::Dispatch dispatch_;
};

}  // namespace

wire::ApplierFactory codec_applier_factory(BackendFactory backends) {
    return [backends = std::move(backends)](const std::string& name) -> std::unique_ptr<wire::Applier> {
        wire::ServerThreadScope serving;  // backends may open host EGL displays here
        std::unique_ptr<mgl::Backend> b = backends(name);
        if (!b) return nullptr;
        return std::make_unique<CodecApplier>(std::move(b));
    };
}

}  // namespace mgl::server
