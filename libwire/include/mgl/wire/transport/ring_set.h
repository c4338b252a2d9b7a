// The memory of one ring-based session (inproc: heap; shm: one shared
// memory segment): a control block, then the data of four rings.
//
//   SessionBlock | records ring | replies ring | events ring | staging
//
// records: client -> server record stream. replies: server -> client replies
// to sync verbs. events: server -> client GL errors, faults, lost context.
// staging: client -> server bulk payloads (see staging.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "mgl/wire/transport/ring.h"

namespace mgl::wire {

struct RingSizes {
    // 1 MiB: its quarter-ring batches (256 KiB) stay in the caches shared by
    // the two cores; 2 and 4 MiB streamed ~40% slower in mgl-bench-wire, and
    // even 1 MiB costs only ~0.02 wake-ups per 1000 records.
    uint32_t records = 1u << 20;
    // 4 MiB: a window's frame up to 1 MiB (512x512 RGBA) is one reply piece,
    // read in place, and two frames in flight fit without stalling the server.
    uint32_t replies = 4u << 20;
    uint32_t events = 64u << 10;
    uint32_t staging = 8u << 20;
};

// Picks sizes the server will actually use for a client's request: each a
// power of two within limits; 0 means the default.
RingSizes clamp_ring_sizes(const RingSizes& requested, const RingSizes& defaults);

inline constexpr uint64_t kSessionMagic = 0x4d474c52494e4731ull;  // "MGLRING1"
inline constexpr uint32_t kSessionLayoutVersion = 1;

struct SessionBlock {
    uint64_t magic = kSessionMagic;
    uint32_t version = kSessionLayoutVersion;
    uint32_t reserved = 0;
    // Each side writes only its own flag, on its own line.
    alignas(kSharingDistance) std::atomic<uint64_t> client_closed{0};
    alignas(kSharingDistance) std::atomic<uint64_t> server_closed{0};
    RingControl records;
    RingControl replies;
    RingControl events;
    RingControl staging;
};

struct RingSetLayout {
    uint64_t records = 0, replies = 0, events = 0, staging = 0;  // offsets
    uint64_t total = 0;
    static RingSetLayout compute(const RingSizes& sizes);
};

struct RingSetView {
    SessionBlock* block = nullptr;
    uint8_t* records = nullptr;
    uint8_t* replies = nullptr;
    uint8_t* events = nullptr;
    uint8_t* staging = nullptr;
    RingSizes sizes;
};

// Server side: constructs a fresh session block in `mem` (layout.total bytes).
RingSetView init_ring_set(void* mem, uint64_t bytes, const RingSizes& sizes);
// Client side: checks that `mem` (bytes long) holds a session laid out for
// `sizes` (from the welcome); false with a message otherwise.
bool map_ring_set(void* mem, uint64_t bytes, const RingSizes& sizes, RingSetView* out, std::string* error);

}  // namespace mgl::wire
