// Writes the fuzzers' seed corpus (tools/fuzz-ci.sh runs it in CI; nothing
// binary is committed). Record streams come from a reference trace: its
// `apitrace dump` is parsed by the codec benchmark's call-mix reader
// (tools/bench/codec/callmix.cc) and encoded by the generated encoder, so the
// seeds are the records a real replay of that trace sends, cut at record
// boundaries into small inputs. Handshake seeds are the control messages a
// client and a server exchange.
//   apitrace dump --multiline=no TRACE | fuzz-seeds OUT_DIR [MAX_SEEDS]
// writes OUT_DIR/decoder, OUT_DIR/backend and OUT_DIR/handshake.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "callmix.h"
#include "callmix_encode.h"
#include "gen/encoder.h"
#include "gen/fingerprint.h"
#include "mgl/wire/memory_link.h"
#include "mgl/wire/transport/control.h"

namespace fs = std::filesystem;
using namespace mgl;

namespace {

constexpr size_t kSeedBytes = 2048;  // libFuzzer's inputs stay near this size

void write(const fs::path& dir, size_t index, const std::vector<uint8_t>& bytes) {
    std::ofstream(dir / ("seed-" + std::to_string(index)), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// The record stream of a whole mix, and the offsets where records start.
std::vector<uint8_t> encode_mix(const bench::CallMix& mix, std::vector<size_t>* starts) {
    wire::MemoryLink link(size_t(256) << 20, 1 << 20);
    gen::Encoder e(&link);
    uint64_t frame = 0;
    for (const auto& c : mix.calls) bench::encode_call(e, c, ++frame);
    e.flush();
    std::vector<uint8_t> s = link.bytes();
    for (size_t at = 0; at + 8 <= s.size();) {
        uint32_t size;
        std::memcpy(&size, s.data() + at + 4, 4);
        if (size < 8) break;
        starts->push_back(at);
        at += size;
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: apitrace dump --multiline=no TRACE | %s OUT_DIR [MAX_SEEDS]\n", argv[0]);
        return 2;
    }
    const fs::path out = argv[1];
    const size_t max_seeds = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 200;
    for (const char* d : {"decoder", "backend", "handshake"}) fs::create_directories(out / d);

    bench::CallMix mix = bench::read_callmix(std::cin, 0);
    if (mix.calls.empty()) {
        std::fprintf(stderr, "fuzz-seeds: no calls read\n");
        return 1;
    }
    std::vector<size_t> starts;
    const std::vector<uint8_t> stream = encode_mix(mix, &starts);

    // Seeds spread over the whole stream: runs of whole records up to kSeedBytes.
    size_t seeds = 0;
    const size_t step = std::max<size_t>(1, starts.size() / max_seeds);
    for (size_t r = 0; r < starts.size() && seeds < max_seeds; r += step, ++seeds) {
        size_t end = r + 1;
        while (end < starts.size() && starts[end] - starts[r] < kSeedBytes) ++end;
        const size_t to = end < starts.size() ? starts[end] : stream.size();
        std::vector<uint8_t> records(stream.begin() + std::ptrdiff_t(starts[r]), stream.begin() + std::ptrdiff_t(to));
        write(out / "backend", seeds, records);  // fuzz-backend: a record stream as is
        std::vector<uint8_t> dec = {1, 0};       // fuzz-decoder: odd selector = raw stream mode
        dec.insert(dec.end(), records.begin(), records.end());
        write(out / "decoder", seeds, dec);
    }

    // The handshake: a hello as each transport's client sends it, and the answers.
    wire::Hello h;
    h.wire_fingerprint = gen::kWireFingerprint;
    h.build_id = "mobilegl";
    h.capabilities = wire::kCapStaging | wire::kCapEvents | wire::kCapChunkedRecords;
    h.backend = "null";
    size_t n = 0;
    const char* transports[] = {"inproc", "shm", "tcp"};
    for (uint8_t via = 0; via < 3; ++via) {
        h.transport = transports[via];
        for (uint8_t gated = 0; gated < 2; ++gated) {
            h.token = gated ? "fuzz-token-0123456789abcdef" : "";
            std::vector<uint8_t> seed = {uint8_t(via | (gated << 2))};
            const auto msg = wire::encode_hello(h);
            seed.insert(seed.end(), msg.begin(), msg.end());
            write(out / "handshake", n++, seed);
        }
    }
    wire::Welcome w;
    w.session_id = 1;
    w.backend = "null";
    w.shm_name = "/mobilegl-1";
    for (const auto& msg : {wire::encode_welcome(w), wire::encode_refusal({wire::RefusalReason::server_full, "full"}),
                            wire::encode_attached(), wire::encode_goodbye()}) {
        std::vector<uint8_t> seed = {0};
        seed.insert(seed.end(), msg.begin(), msg.end());
        write(out / "handshake", n++, seed);
    }
    std::printf("fuzz-seeds: %zu calls -> %zu records (%zu bytes); %zu decoder and backend seeds, %zu handshake seeds\n",
                mix.calls.size(), starts.size(), stream.size(), seeds, n);
    return 0;
}
