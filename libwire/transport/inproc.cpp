// Heap memory of inproc sessions and the process's default inproc server.
#include "mgl/wire/transport/inproc.h"

#include <sys/mman.h>

#include <cstdlib>
#include <mutex>
#include <new>

namespace mgl::wire {

RingMemory::RingMemory(const RingSizes& sizes) {
    RingSetLayout l = RingSetLayout::compute(sizes);
    // Anonymous pages: zeroed like a fresh shm segment (pads and unused bytes
    // carry nothing) but only when first touched. Zeroing ~14 MB of rings and
    // staging up front cost each session a memset and thousands of page
    // faults, most for staging a small program never uses.
    mem_ = ::mmap(nullptr, l.total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem_ == MAP_FAILED) {
        mem_ = nullptr;
        throw std::bad_alloc();
    }
    bytes_ = l.total;
    view_ = init_ring_set(mem_, l.total, sizes);
}

RingMemory::~RingMemory() {
    view_.block->~SessionBlock();
    ::munmap(mem_, bytes_);
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
