// How a client reaches a server that lives in the same process.
//
// The server (server/) implements InprocEndpoint; the client calls
// open_session() with an encoded hello and gets an encoded welcome or refusal
// plus the session's ring memory (heap, shared by the two ends until both let
// go). The embedding API registers its endpoint as the process default so a
// client asked for MOBILEGL_TRANSPORT=inproc finds it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "mgl/wire/transport/ring_set.h"

namespace mgl::wire {

// Heap memory of one inproc session.
class RingMemory {
public:
    explicit RingMemory(const RingSizes& sizes);
    ~RingMemory();
    RingMemory(const RingMemory&) = delete;
    RingMemory& operator=(const RingMemory&) = delete;
    const RingSetView& view() const { return view_; }

private:
    void* mem_ = nullptr;
    size_t bytes_ = 0;
    RingSetView view_;
};

class InprocEndpoint {
public:
    virtual ~InprocEndpoint() = default;
    struct Opened {
        std::vector<uint8_t> reply;            // encoded welcome or refusal
        std::shared_ptr<RingMemory> memory;    // null on refusal
    };
    virtual Opened open_session(std::span<const uint8_t> hello) = 0;
};

void set_default_inproc_endpoint(std::weak_ptr<InprocEndpoint> endpoint);
std::shared_ptr<InprocEndpoint> default_inproc_endpoint();

}  // namespace mgl::wire
