// A mutated session for the mutation test of a live `mgl server` (issue 15;
// tests/hostile/mutation.sh): sends a captured record stream (`mgl capture`)
// over a real transport with one record mutated, as a hostile or broken
// client would.
//
//   mgl-mutate CAPTURE TRANSPORT BACKEND SEED [FRAMES]
//
// SEED picks the mutation (seed % 3: 0 flipped bytes, 1 a length, 2 an
// opcode), the record and the new bytes; the capture's largest session is
// sent up to the end of frame FRAMES (default 20), replies read as the verbs sent ask for them,
// then a final mglGetError waits for the server to have applied it all.
// Prints one line saying what was mutated and how the session ended. Exit:
//   0  the server applied the stream to its end (a harmless mutation)
//   1  the server ended the session, with a message (printed)
//   3  could not read the capture or connect
//   5  stalled: the server still waits for bytes a mutated length promised
//      (the process exits after 15 s; closing its socket ends the session)
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gen/encoder.h"
#include "gen/fingerprint.h"
#include "gen/opcodes.h"
#include "mgl/wire/capture/reader.h"
#include "mgl/wire/encoder_base.h"
#include "mgl/wire/memory_link.h"
#include "mgl/wire/record.h"
#include "mgl/wire/transport/connect.h"

using namespace mgl;

namespace {

// Writes whole records as they are, header included (a mutated size too):
// the real byte count decides the window, staging and chunking.
class RawSender final : public wire::EncoderBase {
public:
    using EncoderBase::EncoderBase;
    void put(const uint8_t* r, uint32_t size) {
        uint8_t* p = begin_record(size);
        if (!p) return;
        std::memcpy(p, r, size);
        end_record();
    }
};

std::string what;  // the mutation, for the stall line

void stalled(int) {
    const std::string line = what + ": stalled (the server waits for more bytes); closing\n";
    (void)!::write(1, line.data(), line.size());
    _exit(5);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s CAPTURE TRANSPORT BACKEND SEED [FRAMES]\n", argv[0]);
        return 3;
    }
    const uint64_t seed = std::strtoull(argv[4], nullptr, 10);
    const uint64_t frames = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 20;

    // The largest session's records (a program's first session may be a
    // short probe) up to the end of frame FRAMES.
    wire::capture::Reader reader;
    wire::capture::HeaderInfo h;
    if (!reader.open(argv[1])) {
        std::fprintf(stderr, "mgl-mutate: %s\n", reader.error().c_str());
        return 3;
    }
    std::vector<uint8_t> stream, session;
    std::vector<size_t> starts, session_starts;
    std::span<const uint8_t> block;
    uint32_t count;
    while (reader.next_segment(&h)) {
        session.clear();
        session_starts.clear();
        uint64_t swaps = 0;
        while (reader.next_block(&block, &count))
            for (size_t off = 0; off < block.size() && swaps < frames;) {
                const uint32_t size = wire::get<uint32_t>(block.data() + off + 4);
                session_starts.push_back(session.size());
                session.insert(session.end(), block.begin() + off, block.begin() + off + size);
                if (wire::get<uint16_t>(block.data() + off) == uint16_t(gen::Op::mglSwapBuffers)) ++swaps;
                off += size;
            }
        if (session_starts.size() > starts.size()) {
            stream.swap(session);
            starts.swap(session_starts);
        }
    }
    if (!reader.error().empty()) {
        std::fprintf(stderr, "mgl-mutate: %s\n", reader.error().c_str());
        return 3;
    }
    if (starts.empty()) {
        std::fprintf(stderr, "mgl-mutate: %s has no records\n", argv[1]);
        return 3;
    }

    // The mutation.
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 1);
    const size_t target = rng() % starts.size();
    uint8_t* r = stream.data() + starts[target];
    const uint32_t size = wire::get<uint32_t>(r + 4);
    const uint16_t op = wire::get<uint16_t>(r);
    const gen::VerbInfo* v = gen::verb_info(op);
    char buf[256];
    switch (seed % 3) {
    case 0: {  // 1-4 bytes anywhere in the record, header included
        const int n = 1 + int(rng() % 4);
        for (int i = 0; i < n; ++i) r[rng() % size] ^= uint8_t(1 + rng() % 255);
        std::snprintf(buf, sizeof buf, "flipped %d byte(s)", n);
        break;
    }
    case 1: {  // the header's size, or a u32 of the fixed part (counts, byte counts)
        static const uint32_t odd[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffff8u, 1u << 30};
        if (rng() % 2 || size <= 8) {
            const uint32_t choices[] = {0, 4, size > 8 ? size - 8 : 16, size + 8, size + 4, size + uint32_t(rng() % (1u << 20)) * 8,
                                        uint32_t(rng()), 1u << 30};
            const uint32_t n = choices[rng() % (sizeof choices / sizeof choices[0])];
            wire::put<uint32_t>(r + 4, n);
            std::snprintf(buf, sizeof buf, "header size %u -> %u", size, n);
        } else {
            const uint32_t at = 8 + uint32_t(rng() % ((size - 8) / 4)) * 4;
            const uint32_t n = rng() % 2 ? odd[rng() % (sizeof odd / sizeof odd[0])] : wire::get<uint32_t>(r + at) * 2 + 1;
            wire::put<uint32_t>(r + at, n);
            std::snprintf(buf, sizeof buf, "u32 at byte %u -> %u", at, n);
        }
        break;
    }
    default: {  // another verb's opcode, a framing opcode, or any 16 bits
        uint16_t n;
        switch (rng() % 3) {
        case 0: {
            do n = uint16_t(rng() % gen::kOpcodeLimit);
            while (!gen::verb_info(n));
            break;
        }
        case 1: {
            const uint16_t framing[] = {wire::kOpPad, wire::kOpChunk, wire::kOpStaged};
            n = framing[rng() % 3];
            break;
        }
        default: n = uint16_t(rng()); break;
        }
        wire::put<uint16_t>(r, n);
        const gen::VerbInfo* nv = gen::verb_info(n);
        std::snprintf(buf, sizeof buf, "opcode -> %u (%s)", unsigned(n), nv ? nv->name : "no verb");
        break;
    }
    }
    char head[512];
    std::snprintf(head, sizeof head, "seed %llu: record %zu of %zu (%s, %u bytes): %s", (unsigned long long)seed,
                  target, starts.size(), v ? v->name : "?", size, buf);
    what = head;

    wire::ConnectOptions o;
    o.transport = argv[2];
    o.backend = argv[3];
    o.wire_fingerprint = gen::kWireFingerprint;
    o.build_id = "mgl-mutate";
    wire::ConnectResult c = wire::connect(o);
    if (!c.link) {
        std::printf("%s: cannot connect: %s\n", head, c.error.c_str());
        return 3;
    }
    ::signal(SIGALRM, stalled);
    ::alarm(15);
    RawSender send(c.link.get());
    bool lost = false;
    for (size_t i = 0; i < starts.size() && !lost; ++i) {
        const uint8_t* rec = stream.data() + starts[i];
        const uint32_t real = uint32_t((i + 1 < starts.size() ? starts[i + 1] : stream.size()) - starts[i]);
        send.put(rec, real);
        // Replies as the record sent asks (a mutated one may ask differently:
        // a reply that never comes is the alarm's).
        const gen::VerbInfo* sent = gen::verb_info(wire::get<uint16_t>(rec));
        if (sent && sent->replies && send.wait_reply().empty()) lost = true;
    }
    if (!lost) {  // a round trip: the server applied everything before it
        wire::MemoryLink memory;
        gen::Encoder enc(&memory);
        enc.mglGetError();
        enc.flush();
        send.put(memory.bytes().data(), uint32_t(memory.bytes().size()));
        lost = send.wait_reply().empty();
    }
    ::alarm(0);
    if (lost) {
        std::printf("%s: ended by the server: %s\n", head, c.link->lost_reason().c_str());
        return 1;
    }
    std::printf("%s: applied to its end\n", head);
    return 0;
}
