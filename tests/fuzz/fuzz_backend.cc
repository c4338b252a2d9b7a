// libFuzzer target: record streams into a real backend, behind the decoder,
// where a well-formed but hostile record sequence reaches the host driver
// (issue 11: a stale attribute offset read as a client pointer crashed the
// server). MGL_FUZZ_BACKEND picks it: espryt (default; the host's GLES through
// EGL, llvmpipe here) or magma (Vulkan, lavapipe here).
//
// Inputs run in a session of the server's own applier (the one `mgl server`
// uses), renewed every 64 inputs; a preamble at its start makes a context and
// a pbuffer surface current, so that the fuzzer's records act on live GL
// state. Where a live server would end the session at a decode error, the
// target goes on with it (a fresh backend and context cost ~100 ms on
// llvmpipe: 10 inputs/s, and most mutated inputs are malformed). So a
// finding may need the inputs before it: rerun a crash with the corpus. A
// crash, a sanitizer report or a leak is a finding.
//
//   build-fuzz/tests/fuzz/fuzz-backend -max_total_time=60 CORPUS_DIR
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gen/encoder.h"
#include "mgl/server/server.h"
#include "mgl/wire/memory_link.h"

namespace {

std::string backend_name() {
    const char* b = std::getenv("MGL_FUZZ_BACKEND");
    return b && *b ? b : "espryt";
}

// Context and surface `id` (ES 3.0, a 64x64 RGBA8 pbuffer with depth and
// stencil) made current: the state an input starts from.
std::vector<uint8_t> preamble(uint32_t id) {
    mgl::wire::MemoryLink link;
    mgl::gen::Encoder e(&link);
    e.mglCreateContext(id, 0, 3, 0, 0, 0x30A0 /* EGL_OPENGL_ES_API */, 0);
    e.mglCreateSurface(id, 0x3033 /* pbuffer */, 64, 64, 8, 8, 8, 8, 24, 8, 0);
    e.mglMakeCurrent(id, id, id);
    e.flush();
    return link.bytes();
}


}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const mgl::wire::ApplierFactory factory = mgl::server::builtin_server_options().appliers;
    static const std::string name = backend_name();
    static std::unique_ptr<mgl::wire::Applier> applier;
    static uint32_t inputs = 0;
    mgl::wire::VectorReplySink replies;
    if (!applier || inputs++ % 64 == 0) {
        applier.reset();  // the old session's backend goes first (one host context at a time)
        applier = factory(name);
        if (!applier) std::abort();  // the backend is not in this build: a setup error, not a finding
        applier->set_event_sink([](const mgl::wire::Event&) {});
        applier->set_memory_budget(64u << 20);
        applier->apply(preamble(1), replies, false);
    }
    // The decoder reads whole records from 8-aligned memory, as from a ring.
    std::vector<uint64_t> aligned((size + 7) / 8);
    if (size) std::memcpy(aligned.data(), data, size);
    applier->apply(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(aligned.data()), size), replies, false);
    return 0;
}
