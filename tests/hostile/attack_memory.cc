// A hostile client that asks a live `mgl server` for memory (issue 11, item 4).
//
//   attack_memory chunk   URL   announces a 1 GiB chunked record and sends
//                               768 MiB of its pieces, never the last one
//   attack_memory buffers URL   makes 96 buffers of 8 MiB each (data inline)
//
// Prints what it sent and the fault the server answered with, one line each:
//   sent BYTES
//   fault MESSAGE          (or "no fault")
// and, with no fault, keeps the session open for a few seconds so that the
// memory it pinned shows in the server's RSS. Exit status 0 either way: the
// script judges. Every loop is bounded in count and in time.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gen/encoder.h"
#include "gen/fingerprint.h"
#include "gen/replies.h"
#include "mgl/wire/record.h"
#include "mgl/wire/transport/connect.h"

using namespace mgl;
using namespace std::chrono_literals;

namespace {

// The generated encoder plus raw chunk pieces (what a client that never
// finishes its record sends).
class RawEncoder : public gen::Encoder {
public:
    using gen::Encoder::Encoder;
    void chunk_piece(uint32_t total, uint32_t offset, uint32_t piece, uint8_t fill) {
        uint8_t* p = begin_fixed(16 + piece);
        wire::put_header(p, wire::kOpChunk, 16 + piece);
        wire::put<uint32_t>(p + 8, total);
        wire::put<uint32_t>(p + 12, offset);
        std::memset(p + 16, fill, piece);
    }
};

constexpr GLenum GL_ARRAY_BUFFER_ = 0x8892;
constexpr GLenum GL_STATIC_DRAW_ = 0x88E4;

bool alive(RawEncoder& e, uint64_t cookie) {
    e.mglPing(cookie);
    GLuint64 back = 0;
    return gen::read_reply_mglPing(e.wait_reply(), &back) && back == cookie;
}

uint64_t attack_chunk(wire::Connection& link, RawEncoder& e) {
    const uint32_t total = 1u << 30;
    const uint32_t piece = uint32_t((link.max_record_bytes() - 16) & ~size_t(7));
    const uint64_t goal = 768ull << 20;
    const auto until = std::chrono::steady_clock::now() + 60s;
    uint64_t sent = 0;
    for (uint32_t off = 0; sent < goal && std::chrono::steady_clock::now() < until; off += piece) {
        e.chunk_piece(total, off, piece, uint8_t(off >> 20));
        sent += piece;
        if ((sent & ((64u << 20) - 1)) < piece) {
            e.flush();
            if (!link.lost_reason().empty()) break;
        }
    }
    e.flush();
    return sent;
}

uint64_t attack_buffers(wire::Connection& link, RawEncoder& e) {
    e.mglCreateContext(1, 0, 3, 0, 0, 0x30A0 /* EGL_OPENGL_ES_API */, 0);
    e.mglCreateSurface(1, 0x3033 /* EGL_PBUFFER_BIT */, 16, 16, 8, 8, 8, 8, 0, 0, 0);
    e.mglMakeCurrent(1, 1, 1);
    if (!alive(e, 1)) return 0;
    const uint32_t bytes = 8u << 20;
    std::vector<uint8_t> data(bytes, 0x5a);
    const auto until = std::chrono::steady_clock::now() + 60s;
    uint64_t sent = 0;
    for (GLuint name = 1; name <= 96 && std::chrono::steady_clock::now() < until; ++name) {
        e.glGenBuffers(1, {&name, sizeof name});
        e.glBindBuffer(GL_ARRAY_BUFFER_, name);
        e.glBufferData(GL_ARRAY_BUFFER_, bytes, {data.data(), bytes}, GL_STATIC_DRAW_);
        sent += bytes;
        if (!alive(e, 100 + name)) break;
    }
    return sent;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: attack_memory chunk|buffers URL\n");
        return 2;
    }
    const std::string mode = argv[1];
    wire::ConnectOptions o;
    o.transport = argv[2];
    o.wire_fingerprint = gen::kWireFingerprint;
    // A real backend (the daemon's default may be the null one, which
    // allocates nothing): Espryt unless MOBILEGL_BACKEND_TYPE names another.
    const char* backend = std::getenv("MOBILEGL_BACKEND_TYPE");
    o.backend = backend && *backend ? backend : "espryt";
    wire::ConnectResult r = wire::connect(o);
    if (!r.link) {
        std::fprintf(stderr, "attack_memory: cannot connect: %s\n", r.error.c_str());
        return 1;
    }
    RawEncoder e(r.link.get());
    uint64_t sent = 0;
    if (mode == "chunk") sent = attack_chunk(*r.link, e);
    else if (mode == "buffers") sent = attack_buffers(*r.link, e);
    else {
        std::fprintf(stderr, "attack_memory: unknown mode '%s'\n", mode.c_str());
        return 2;
    }
    std::printf("sent %llu\n", (unsigned long long)sent);
    std::string fault;
    for (auto until = std::chrono::steady_clock::now() + 10s; std::chrono::steady_clock::now() < until;) {
        wire::Event ev;
        if (r.link->poll_event(&ev)) {
            if (ev.kind == wire::Event::Kind::fault) {
                fault = ev.message;
                break;
            }
            continue;
        }
        if (!r.link->lost_reason().empty()) break;  // ended, and no fault event is left
        std::this_thread::sleep_for(20ms);
    }
    if (!fault.empty()) {
        std::printf("fault %s\n", fault.c_str());
    } else {
        std::printf("no fault (%s)\n", r.link->lost_reason().empty() ? "session open" : r.link->lost_reason().c_str());
        std::fflush(stdout);
        std::this_thread::sleep_for(3s);  // the pinned memory shows in the server's RSS
    }
    std::fflush(stdout);
    return 0;
}
