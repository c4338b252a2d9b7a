// Harness for the generated round-trip tests (roundtrip_*.cc): each case
// encodes one verb with known arguments, decodes it into the DigestBackend
// and compares what arrived with what was sent, bit for bit.
#pragma once

#include <string>
#include <vector>

#include "gen/digest_backend.h"
#include "gen/encoder.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/memory_link.h"

namespace mgl::gen::rt {

struct Harness;
using CaseFn = bool (*)(Harness&);
struct Case {
    const char* name;
    CaseFn fn;
};
std::vector<Case> all_cases();  // generated: roundtrip_all.cc

struct Harness {
    wire::MemoryLink link{1 << 16, 1 << 16};
    Encoder enc{&link};
    DigestBackend backend;
    wire::Digest expect;
    std::string why;
    std::vector<uint8_t> last_record;

    void begin(uint16_t op) {
        link.clear();
        expect = {};
        expect.val(op);
        backend.digest = {};
        backend.last_op = 0;
        why.clear();
    }

    static std::vector<uint8_t> bytes(size_t n, uint32_t seed) {
        std::vector<uint8_t> v(n);
        uint32_t x = seed * 2654435761u + 1;
        for (auto& b : v) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            b = uint8_t(x);
        }
        return v;
    }

    bool finish(uint16_t op, uint64_t reply_bytes) {
        enc.flush();
        last_record = link.bytes();
        wire::Dispatch d;
        wire::VectorReplySink replies;
        d.backend = &backend;
        d.replies = &replies;
        wire::DecodeResult r = wire::decode_stream(link.bytes(), d);
        if (!r.ok()) return (why = "decode failed: " + r.error.detail), false;
        if (d.records != 1) return (why = "expected one record"), false;
        if (backend.last_op != op) return (why = "wrong backend method called"), false;
        if (backend.digest.h != expect.h) return (why = "arguments differ after the round trip"), false;
        if (reply_bytes == 0 && !replies.replies.empty()) return (why = "unexpected reply"), false;
        if (reply_bytes && (replies.replies.size() != 1 || replies.replies[0].size() != reply_bytes))
            return (why = "reply missing or of the wrong size"), false;
        if (link.bytes().size() % 8) return (why = "record not a multiple of 8 bytes"), false;
        return true;
    }
};

}  // namespace mgl::gen::rt
