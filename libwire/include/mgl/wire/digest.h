// A streaming FNV-1a digest of arguments, used to check that what a backend
// receives is bit for bit what was encoded.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mgl::wire {

struct Digest {
    uint64_t h = 0xcbf29ce484222325ull;
    void mix(const void* p, size_t n) {
        auto* b = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i) {
            h ^= b[i];
            h *= 0x100000001b3ull;
        }
    }
    template <class T>
    void val(T v) { mix(&v, sizeof v); }
    void blob(const void* p, uint32_t n) {
        val(n);
        if (n) mix(p, n);
    }
};

}  // namespace mgl::wire
