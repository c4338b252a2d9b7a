// Layout of one ring-based session's memory (see ring_set.h).
#include "mgl/wire/transport/ring_set.h"

#include <fmt/format.h>

#include <new>

namespace mgl::wire {

namespace {
constexpr uint64_t kPage = 4096;
uint64_t page_round(uint64_t n) { return (n + kPage - 1) & ~(kPage - 1); }

uint32_t clamp_one(uint32_t requested, uint32_t fallback, uint32_t lo, uint32_t hi) {
    uint64_t n = requested ? requested : fallback;
    if (n < lo) n = lo;
    if (n > hi) n = hi;
    uint64_t p = lo;  // round up to a power of two
    while (p < n) p <<= 1;
    return uint32_t(p);
}
}  // namespace

RingSizes clamp_ring_sizes(const RingSizes& req, const RingSizes& def) {
    RingSizes s;
    s.records = clamp_one(req.records, def.records, 64u << 10, 256u << 20);
    s.replies = clamp_one(req.replies, def.replies, 16u << 10, 256u << 20);
    s.events = clamp_one(req.events, def.events, 4u << 10, 1u << 20);
    s.staging = clamp_one(req.staging, def.staging, 64u << 10, 512u << 20);
    return s;
}

RingSetLayout RingSetLayout::compute(const RingSizes& s) {
    RingSetLayout l;
    l.records = page_round(sizeof(SessionBlock));
    l.replies = l.records + s.records;
    l.events = l.replies + s.replies;
    l.staging = l.events + s.events;
    l.total = l.staging + s.staging;
    return l;
}

static RingSetView view_of(void* mem, const RingSizes& sizes) {
    auto* base = static_cast<uint8_t*>(mem);
    RingSetLayout l = RingSetLayout::compute(sizes);
    RingSetView v;
    v.block = reinterpret_cast<SessionBlock*>(base);
    v.records = base + l.records;
    v.replies = base + l.replies;
    v.events = base + l.events;
    v.staging = base + l.staging;
    v.sizes = sizes;
    return v;
}

RingSetView init_ring_set(void* mem, uint64_t bytes, const RingSizes& sizes) {
    new (mem) SessionBlock();
    return view_of(mem, sizes);
}

bool map_ring_set(void* mem, uint64_t bytes, const RingSizes& sizes, RingSetView* out, std::string* error) {
    if (!valid_ring_size(sizes.records) || !valid_ring_size(sizes.replies) || !valid_ring_size(sizes.events) ||
        !valid_ring_size(sizes.staging)) {
        *error = "the server announced impossible ring sizes";
        return false;
    }
    RingSetLayout l = RingSetLayout::compute(sizes);
    if (bytes < l.total) {
        *error = fmt::format("shared memory is {} bytes, the rings need {}", bytes, l.total);
        return false;
    }
    auto* block = static_cast<SessionBlock*>(mem);
    if (block->magic != kSessionMagic || block->version != kSessionLayoutVersion) {
        *error = "shared memory does not hold a MobileGL session (bad magic or layout version)";
        return false;
    }
    *out = view_of(mem, sizes);
    return true;
}

}  // namespace mgl::wire
