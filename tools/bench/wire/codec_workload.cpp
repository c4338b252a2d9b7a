// The generated codec as a benchmark workload: glDrawArrays records (the
// hot-path verb of the design's targets) applied by decode_stream into the
// null backend, mglPing round trips. The chunks-1471 call mix replays
// through the same Driver interface once its trace reader exists.
#include <fstream>
#include <stdexcept>

#include "callmix.h"
#include "callmix_encode.h"
#include "gen/encoder.h"
#include "gen/fingerprint.h"
#include "gen/null_backend.h"
#include "gen/replies.h"
#include "mgl/server/codec_applier.h"
#include "workload.h"

namespace mgl::bench {

namespace {

// The generated encoder on a link, with mglPing as the round trip.
class EncoderDriver : public Driver {
public:
    explicit EncoderDriver(wire::ClientLink& link) : enc_(&link) {}
    bool round_trip() override {
        enc_.mglPing(++cookie_);
        GLuint64 r = 0;
        return gen::read_reply_mglPing(enc_.wait_reply(), &r);
    }
    void flush() override { enc_.flush(); }

protected:
    gen::Encoder enc_;

private:
    uint64_t cookie_ = 0;
};

class CodecDriver final : public EncoderDriver {
public:
    using EncoderDriver::EncoderDriver;
    void stream(uint64_t calls) override {
        for (uint64_t i = 0; i < calls; ++i) enc_.glDrawArrays(4, GLint(i & 1023), 3);
    }
};

// A real call mix (apitrace dump of a trace, steady-state frames) replayed
// through the generated encoder, cyclically.
class CallMixDriver final : public EncoderDriver {
public:
    CallMixDriver(wire::ClientLink& link, const CallMix& mix) : EncoderDriver(link), mix_(mix) {}
    void stream(uint64_t calls) override {
        const size_t n = mix_.calls.size();
        for (uint64_t i = 0; i < calls; ++i) {
            encode_call(enc_, mix_.calls[next_]);
            if (++next_ == n) next_ = 0;
        }
    }

private:
    const CallMix& mix_;
    size_t next_ = 0;
};

class CallMixWorkload final : public Workload {
public:
    explicit CallMixWorkload(const std::string& path) : path_(path) {
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot read " + path);
        mix_ = read_callmix(in, 1);
        if (mix_.calls.empty()) throw std::runtime_error("no calls in " + path);
    }
    std::string name() const override { return "callmix:" + path_ + " (" + std::to_string(mix_.calls.size()) + " calls)"; }
    wire::ApplierFactory appliers() const override {
        return server::codec_applier_factory([](const std::string&) -> std::unique_ptr<Backend> {
            return std::make_unique<NullBackend>();
        });
    }
    uint64_t wire_fingerprint() const override { return gen::kWireFingerprint; }
    std::unique_ptr<Driver> attach(wire::ClientLink& link) const override {
        return std::make_unique<CallMixDriver>(link, mix_);
    }

private:
    std::string path_;
    CallMix mix_;
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
std::unique_ptr<Workload> make_callmix_workload(const std::string& dump_path) {
    return std::make_unique<CallMixWorkload>(dump_path);
}

}  // namespace mgl::bench
