// The generated codec as a benchmark workload: glDrawArrays records (the
// hot-path verb of the design's targets) applied by decode_stream into the
// null backend, mglPing round trips. The chunks-1471 call mix replays
// through the same Driver interface once its trace reader exists.
#include "gen/encoder.h"
#include "gen/fingerprint.h"
#include "gen/null_backend.h"
#include "gen/replies.h"
#include "mgl/server/codec_applier.h"
#include "workload.h"

namespace mgl::bench {

namespace {

class CodecDriver final : public Driver {
public:
    explicit CodecDriver(wire::ClientLink& link) : enc_(&link) {}
    void stream(uint64_t calls) override {
        for (uint64_t i = 0; i < calls; ++i) enc_.glDrawArrays(4, GLint(i & 1023), 3);
    }
    bool round_trip() override {
        enc_.mglPing(++cookie_);
        GLuint64 r = 0;
        return gen::read_reply_mglPing(enc_.wait_reply(), &r);
    }
    void flush() override { enc_.flush(); }

private:
    gen::Encoder enc_;
    uint64_t cookie_ = 0;
};

class CodecWorkload final : public Workload {
public:
    std::string name() const override { return "codec/glDrawArrays"; }
    wire::ApplierFactory appliers() const override {
        return server::codec_applier_factory([](const std::string&) -> std::unique_ptr<Backend> {
            return std::make_unique<NullBackend>();
        });
    }
    uint64_t wire_fingerprint() const override { return gen::kWireFingerprint; }
    std::unique_ptr<Driver> attach(wire::ClientLink& link) const override {
        return std::make_unique<CodecDriver>(link);
    }
};

}  // namespace

std::unique_ptr<Workload> make_codec_workload() { return std::make_unique<CodecWorkload>(); }

}  // namespace mgl::bench
