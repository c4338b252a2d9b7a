#include "provoking.h"

namespace mgl::gl {

namespace {

constexpr uint32_t kPoints = 0x0000, kLines = 0x0001, kLineLoop = 0x0002, kLineStrip = 0x0003, kTriangles = 0x0004,
                   kTriangleStrip = 0x0005, kTriangleFan = 0x0006, kLinesAdjacency = 0x000A,
                   kLineStripAdjacency = 0x000B, kTrianglesAdjacency = 0x000C, kTriangleStripAdjacency = 0x000D;

// One primitive run (no restart inside) of `mode`: v[0..n).
void run(uint32_t mode, const uint32_t* v, size_t n, int64_t base, std::vector<uint32_t>& out) {
    auto put = [&](uint32_t id) { out.push_back(uint32_t(int64_t(id) + base)); };
    switch (mode) {
        case kLines:
            for (size_t i = 0; i + 1 < n; i += 2) put(v[i + 1]), put(v[i]);
            break;
        case kLineStrip:
        case kLineLoop:
            for (size_t i = 0; i + 1 < n; ++i) put(v[i + 1]), put(v[i]);
            // The closing segment (n-1, 0): GL takes vertex n-1 under the first convention.
            if (mode == kLineLoop && n >= 2) put(v[0]), put(v[n - 1]);
            break;
        case kTriangles:
            for (size_t i = 0; i + 2 < n; i += 3) put(v[i + 1]), put(v[i + 2]), put(v[i]);
            break;
        case kTriangleStrip:
            // Triangle i is (i,i+1,i+2) for even i and (i+1,i,i+2) for odd i
            // (GL's winding); its first-convention vertex is i.
            for (size_t i = 0; i + 2 < n; ++i) {
                if (i % 2 == 0) put(v[i + 1]), put(v[i + 2]), put(v[i]);
                else put(v[i + 2]), put(v[i + 1]), put(v[i]);
            }
            break;
        case kTriangleFan:
            // Triangle i is (0,i+1,i+2); its first-convention vertex is i+1.
            for (size_t i = 0; i + 2 < n; ++i) put(v[i + 2]), put(v[0]), put(v[i + 1]);
            break;
        default: break;
    }
}

}  // namespace

ProvokingRewrite provoking_rewrite(uint32_t mode) {
    switch (mode) {
        case kLines: case kLineLoop: case kLineStrip: case kTriangles: case kTriangleStrip: case kTriangleFan:
            return ProvokingRewrite::rewrite;
        case kLinesAdjacency: case kLineStripAdjacency: case kTrianglesAdjacency: case kTriangleStripAdjacency:
            return ProvokingRewrite::adjacency;
        case kPoints:
        default: return ProvokingRewrite::none;
    }
}

uint32_t provoking_first_indices(uint32_t mode, const uint32_t* in, size_t n, bool restart, uint32_t restart_index,
                                 int64_t base, std::vector<uint32_t>& out) {
    const uint32_t list = (mode == kLines || mode == kLineStrip || mode == kLineLoop) ? kLines : kTriangles;
    size_t start = 0;
    if (restart)
        for (size_t i = 0; i < n; ++i)
            if (in[i] == restart_index) {
                run(mode, in + start, i - start, base, out);
                start = i + 1;
            }
    run(mode, in + start, n - start, base, out);
    return list;
}

}  // namespace mgl::gl
