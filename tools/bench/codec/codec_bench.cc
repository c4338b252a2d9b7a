// mgl-bench-codec: encode and decode+dispatch cost of the record codec on a
// call mix taken from real traces, beside memcpy of the same bytes.
//
//   apitrace dump --multiline=no --color=never TRACE | mgl-bench-codec [--repeat N] [--label NAME]
//
// Prints one line per figure; medians over the repeats. Encode writes into
// an in-memory window (no transport), decode dispatches into the null
// backend: this is the codec's own ceiling.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "callmix.h"
#include "callmix_encode.h"
#include "gen/encoder.h"
#include "gen/null_backend.h"
#include "gen/opcodes.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/dump_support.h"
#include "mgl/wire/memory_link.h"

using namespace mgl;
using Clock = std::chrono::steady_clock;

namespace {

// A ring whose consumer always keeps up: every window starts at the same
// 1 MiB region, so the encoder writes to cache-resident memory as it would
// into a real ring, and nothing is copied.
class DiscardLink : public wire::ClientLink {
public:
    wire::Window next_window(uint8_t*, size_t) override { return {buf_.data(), buf_.data() + buf_.size()}; }
    wire::Window flush(uint8_t* w) override { return next_window(w, 0); }
    size_t max_record_bytes() const override { return buf_.size(); }
    std::span<const uint8_t> wait_reply(uint8_t*, wire::Window* w) override { *w = next_window(nullptr, 0); return {}; }
    const std::string& lost_reason() const override { return lost_; }
private:
    std::vector<uint8_t> buf_ = std::vector<uint8_t>(1 << 20);
    std::string lost_;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Bytes of one record of a verb, encoded alone.
template <class F>
size_t record_bytes(F&& f) {
    wire::MemoryLink link;
    gen::Encoder e(&link);
    f(e);
    e.flush();
    return link.bytes().size();
}

}  // namespace

int main(int argc, char** argv) {
    int repeat = 15;
    int dump = 0;
    std::string label = "stdin";
    uint64_t first_frame = 1;
    for (int a = 1; a < argc; ++a) {
        if (!std::strcmp(argv[a], "--repeat") && a + 1 < argc) repeat = std::atoi(argv[++a]);
        else if (!std::strcmp(argv[a], "--label") && a + 1 < argc) label = argv[++a];
        else if (!std::strcmp(argv[a], "--dump") && a + 1 < argc) dump = std::atoi(argv[++a]);
        else if (!std::strcmp(argv[a], "--first-frame") && a + 1 < argc) first_frame = std::strtoull(argv[++a], nullptr, 10);
        else if (!std::strcmp(argv[a], "--record-sizes")) {
            const float v4[4] = {1, 2, 3, 4};
            const uint8_t d64[64] = {};
            std::printf("record bytes: glDrawArrays %zu, glDrawElements(offset) %zu, glUniform4fv(count 1) %zu, "
                        "glBindTexture %zu, glBufferSubData(64 bytes) %zu\n",
                        record_bytes([](gen::Encoder& e) { e.glDrawArrays(4, 0, 3); }),
                        record_bytes([](gen::Encoder& e) { e.glDrawElements(4, 36, 0x1405, wire::OffsetOrBlob{64, nullptr, 0}); }),
                        record_bytes([&](gen::Encoder& e) { e.glUniform4fv(0, 1, wire::Blob{v4, 16}); }),
                        record_bytes([](gen::Encoder& e) { e.glBindTexture(0x0DE1, 7); }),
                        record_bytes([&](gen::Encoder& e) { e.glBufferSubData(0x8892, 0, 64, wire::Blob{d64, 64}); }));
            return 0;
        } else {
            std::fprintf(stderr, "usage: apitrace dump --multiline=no TRACE | %s [--repeat N] [--label NAME] [--first-frame N] [--dump N] | --record-sizes\n", argv[0]);
            return 2;
        }
    }
    bench::CallMix mix = bench::read_callmix(std::cin, first_frame);
    if (mix.calls.empty()) {
        std::fprintf(stderr, "mgl-bench-codec: no calls read\n");
        return 1;
    }
    const size_t n = mix.calls.size();

    std::vector<double> enc_ns, dec_ns, cpy_ns;
    std::vector<uint8_t> stream;
    {
        wire::MemoryLink link(size_t(64) << 20, 1 << 20);
        gen::Encoder e(&link);
        for (const auto& c : mix.calls) bench::encode_call(e, c);
        e.flush();
        stream = link.bytes();
    }
    // Show what travels: the first records of the stream, through the generated dumper.
    for (size_t at = 0; dump > 0 && at + 8 <= stream.size(); --dump) {
        uint32_t size;
        std::memcpy(&size, stream.data() + at + 4, 4);
        std::string line;
        gen::dump_record(stream.data() + at, size, line);
        std::printf("  [%6zu] %3u bytes  %s\n", at, size, line.c_str());
        at += size;
    }
    for (int r = 0; r < repeat; ++r) {
        DiscardLink link;
        gen::Encoder e(&link);
        auto t0 = Clock::now();
        for (const auto& c : mix.calls) bench::encode_call(e, c);
        auto t1 = Clock::now();
        enc_ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n));
    }
    // The same, with each block's input in cache: a block of calls is encoded
    // once untimed (its Call structs and data come into cache), then timed.
    // The pass above streams 64 bytes of Call per call from memory (60 MB for
    // chunks-1471), which a client's entry point never reads (its arguments
    // arrive in registers): on a large mix that pass measures the machine's
    // memory bandwidth as much as the encoder (docs/PERFORMANCE.md §1).
    constexpr size_t kBlock = 2048;
    std::vector<double> enc_warm_ns, cpy_warm_ns;
    for (int r = 0; r < repeat; ++r) {
        DiscardLink link;
        gen::Encoder e(&link);
        Clock::duration t{};
        for (size_t b = 0; b < n; b += kBlock) {
            const size_t end = std::min(n, b + kBlock);
            for (size_t k = b; k < end; ++k) bench::encode_call(e, mix.calls[k]);
            auto t0 = Clock::now();
            for (size_t k = b; k < end; ++k) bench::encode_call(e, mix.calls[k]);
            t += Clock::now() - t0;
        }
        enc_warm_ns.push_back(std::chrono::duration<double, std::nano>(t).count() / double(n));
    }
    NullBackend backend;
    for (int r = 0; r < repeat; ++r) {
        wire::Dispatch d;
        d.backend = &backend;
        auto t0 = Clock::now();
        wire::DecodeResult res = wire::decode_stream(stream, d);
        auto t1 = Clock::now();
        if (!res.ok()) {
            std::fprintf(stderr, "decode failed: %s\n", res.error.detail.c_str());
            return 1;
        }
        dec_ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n));
    }
    std::vector<uint8_t> copy(stream.size());
    for (int r = 0; r < repeat; ++r) {
        auto t0 = Clock::now();
        std::memcpy(copy.data(), stream.data(), stream.size());
        auto t1 = Clock::now();
        asm volatile("" ::"r"(copy.data()) : "memory");
        cpy_ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n));
    }
    // memcpy of the same bytes in blocks of the same average size, source and
    // destination in cache (copied once untimed first): the in-cache baseline.
    const size_t block_bytes = std::max<size_t>(64, stream.size() * kBlock / n);
    for (int r = 0; r < repeat; ++r) {
        Clock::duration t{};
        for (size_t at = 0; at < stream.size(); at += block_bytes) {
            const size_t len = std::min(block_bytes, stream.size() - at);
            std::memcpy(copy.data(), stream.data() + at, len);
            asm volatile("" ::"r"(copy.data()) : "memory");
            auto t0 = Clock::now();
            std::memcpy(copy.data(), stream.data() + at, len);
            asm volatile("" ::"r"(copy.data()) : "memory");
            t += Clock::now() - t0;
        }
        cpy_warm_ns.push_back(std::chrono::duration<double, std::nano>(t).count() / double(n));
    }
    const double enc = median(enc_ns), dec = median(dec_ns), cpy = median(cpy_ns);
    const double enc_warm = median(enc_warm_ns), cpy_warm = median(cpy_warm_ns);
    // The best repeat too: on a shared machine the median takes other
    // processes' time slices; the best is the code's own cost.
    const double enc_best = *std::min_element(enc_warm_ns.begin(), enc_warm_ns.end());
    const double cpy_best = *std::min_element(cpy_warm_ns.begin(), cpy_warm_ns.end());
    std::printf("%s: %zu calls (%.1f%% of the dump's steady-state calls), %.1f bytes/call | encode %.2f ns/call | "
                "decode+dispatch(null) %.2f ns/call | memcpy %.2f ns/call (%.1f GB/s) | encode %.1fx memcpy, decode %.1fx memcpy\n",
                label.c_str(), n, 100.0 * double(n) / double(n + mix.skipped), double(stream.size()) / double(n), enc, dec,
                cpy, double(stream.size()) / (cpy * double(n)), enc / cpy, dec / cpy);
    std::printf("%s: input in cache: encode %.2f ns/call (best %.2f) | memcpy %.2f ns/call (best %.2f) | "
                "encode %.1fx memcpy\n",
                label.c_str(), enc_warm, enc_best, cpy_warm, cpy_best, enc_warm / cpy_warm);
    return 0;
}
