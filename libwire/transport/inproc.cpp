// Heap memory of inproc sessions and the process's default inproc server.
#include "mgl/wire/transport/inproc.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

namespace mgl::wire {

RingMemory::RingMemory(const RingSizes& sizes) {
    RingSetLayout l = RingSetLayout::compute(sizes);
    mem_ = std::aligned_alloc(4096, l.total);
    if (!mem_) throw std::bad_alloc();
    // Zeroed like a fresh shm segment, so pads and unused bytes carry nothing.
    std::memset(mem_, 0, l.total);
    view_ = init_ring_set(mem_, l.total, sizes);
}

RingMemory::~RingMemory() {
    view_.block->~SessionBlock();
    std::free(mem_);
}

namespace {
std::mutex g_mutex;
std::weak_ptr<InprocEndpoint> g_default;
}  // namespace

void set_default_inproc_endpoint(std::weak_ptr<InprocEndpoint> endpoint) {
    std::lock_guard lock(g_mutex);
    g_default = std::move(endpoint);
}

std::shared_ptr<InprocEndpoint> default_inproc_endpoint() {
    std::lock_guard lock(g_mutex);
    return g_default.lock();
}

}  // namespace mgl::wire
