// What the summary learns from the records as they pass. The session verbs'
// layouts are fixed by protocol/session.fbs (append-only); the offsets below
// are those of build/protocol/gen/wire_layout.txt and checked against the
// generated verb table's fixed sizes before they are read.
#include <algorithm>

#include "gen/opcodes.h"
#include "mgl/wire/capture/info.h"
#include "mgl/wire/record.h"

namespace mgl::wire::capture {

namespace {

bool fits(uint16_t op, uint32_t size) {
    const gen::VerbInfo* v = gen::verb_info(op);
    return v && size >= v->fixed_bytes;
}

SurfaceInfo* surface(SummaryInfo& s, uint32_t id) {
    auto it = std::find_if(s.surfaces.begin(), s.surfaces.end(), [&](auto& x) { return x.id == id; });
    return it == s.surfaces.end() ? nullptr : &*it;
}

}  // namespace

void observe_record(SummaryInfo& s, const uint8_t* r, uint32_t size) {
    const uint16_t op = get<uint16_t>(r);
    ++s.records;
    s.record_bytes += size;
    if (const gen::VerbInfo* v = gen::verb_info(op); v && v->replies) ++s.blocking;
    if (op > uint16_t(gen::Op::mglGetContextVersion) || !fits(op, size)) return;
    switch (gen::Op(op)) {
    case gen::Op::mglSwapBuffers: ++s.frames; break;
    case gen::Op::mglCreateContext:
        s.contexts.push_back({get<uint32_t>(r + 8), get<uint32_t>(r + 12), get<uint32_t>(r + 28),
                              get<int32_t>(r + 16), get<int32_t>(r + 20), get<uint32_t>(r + 24),
                              get<uint32_t>(r + 32)});
        break;
    case gen::Op::mglCreateSurface: {
        SurfaceInfo n{get<uint32_t>(r + 8), get<uint32_t>(r + 12), get<int32_t>(r + 16), get<int32_t>(r + 20),
                      get<int32_t>(r + 24), get<int32_t>(r + 28), get<int32_t>(r + 32), get<int32_t>(r + 36),
                      get<int32_t>(r + 40), get<int32_t>(r + 44), get<int32_t>(r + 48)};
        if (SurfaceInfo* old = surface(s, n.id)) *old = n;
        else s.surfaces.push_back(n);
        break;
    }
    case gen::Op::mglResizeSurface:
        if (SurfaceInfo* old = surface(s, get<uint32_t>(r + 8))) {
            old->width = get<int32_t>(r + 12);
            old->height = get<int32_t>(r + 16);
        }
        break;
    default: break;
    }
}

}  // namespace mgl::wire::capture
