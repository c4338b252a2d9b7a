// The storage a share group's buffers, textures and renderbuffers hold on the
// host, as the client asked for it, charged to the session's memory budget
// (mgl/wire/memory_budget.h). The host driver does not say what it allocated,
// so the figure is what the verbs ask for (glBufferData's size, a texture
// level's texels): what a hostile client controls.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "mgl/wire/memory_budget.h"

namespace mgl::espryt {

enum class Kind : uint8_t;

class MemoryLedger {
public:
    MemoryLedger() = default;
    MemoryLedger(const MemoryLedger&) = delete;
    MemoryLedger& operator=(const MemoryLedger&) = delete;
    ~MemoryLedger();  // the share group's storage goes back to the budget

    // Part `part` (a level and face; 0 for a buffer) of host object `host`
    // will hold `bytes`, replacing what it held. False, with nothing changed,
    // when that is over the budget: the caller must not call the host.
    bool charge(wire::MemoryBudget* budget, const char* verb, Kind k, uint32_t host, uint32_t part, uint64_t bytes);
    // The object is deleted: everything it held goes back.
    void release(Kind k, uint32_t host);
    // The storage of `from` now lives in host object `to` (a texture made
    // immutable in place of the application's: image_units.cc).
    void move(Kind k, uint32_t from, uint32_t to);

private:
    static uint64_t key(Kind k, uint32_t host) { return uint64_t(k) << 32 | host; }
    wire::MemoryBudget* budget_ = nullptr;  // the session's, set at the first charge
    std::unordered_map<uint64_t, std::unordered_map<uint32_t, uint64_t>> held_;
};

}  // namespace mgl::espryt
