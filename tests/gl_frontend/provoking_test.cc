// The GL front end's provoking-vertex rule (backends/gl/state/provoking.h):
// every rewritten primitive ends with GL's first-convention vertex (table
// 13.2) and keeps GL's winding.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include <numeric>
#include <vector>

#include "provoking.h"

using namespace mgl::gl;
using V = std::vector<uint32_t>;

namespace {

constexpr uint32_t kLines = 1, kLineLoop = 2, kLineStrip = 3, kTriangles = 4, kStrip = 5, kFan = 6;

V ids(size_t n, uint32_t first = 0) {
    V v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
}

V rewrite(uint32_t mode, const V& in, uint32_t* list = nullptr, bool restart = false, uint32_t ri = 0,
          int64_t base = 0) {
    V out;
    const uint32_t m = provoking_first_indices(mode, in.data(), in.size(), restart, ri, base, out);
    if (list) *list = m;
    return out;
}

// Same triangle with the same winding: a rotation of it.
bool same_winding(const uint32_t* a, const uint32_t* b) {
    for (int r = 0; r < 3; ++r)
        if (a[0] == b[r] && a[1] == b[(r + 1) % 3] && a[2] == b[(r + 2) % 3]) return true;
    return false;
}

}  // namespace

TEST_CASE("which modes are rewritten") {
    CHECK(provoking_rewrite(0) == ProvokingRewrite::none);       // points
    CHECK(provoking_rewrite(0xE) == ProvokingRewrite::none);     // patches
    for (uint32_t m = 1; m <= 6; ++m) CHECK(provoking_rewrite(m) == ProvokingRewrite::rewrite);
    for (uint32_t m = 0xA; m <= 0xD; ++m) CHECK(provoking_rewrite(m) == ProvokingRewrite::adjacency);
}

TEST_CASE("independent triangles and lines") {
    uint32_t list = 0;
    CHECK(rewrite(kTriangles, ids(7), &list) == V{1, 2, 0, 4, 5, 3});  // the incomplete one dropped
    CHECK(list == kTriangles);
    CHECK(rewrite(kLines, ids(5), &list) == V{1, 0, 3, 2});
    CHECK(list == kLines);
}

TEST_CASE("triangle strips keep GL's winding and end with vertex i") {
    const V out = rewrite(kStrip, ids(6));
    REQUIRE(out.size() == 12);
    for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t gl[3] = {i % 2 ? i + 1 : i, i % 2 ? i : i + 1, i + 2};
        CHECK(same_winding(gl, &out[i * 3]));
        CHECK(out[i * 3 + 2] == i);
    }
    CHECK(out == V{1, 2, 0, 3, 2, 1, 3, 4, 2, 5, 4, 3});
}

TEST_CASE("triangle fans end with vertex i+1") {
    const V out = rewrite(kFan, ids(5));
    CHECK(out == V{2, 0, 1, 3, 0, 2, 4, 0, 3});
    for (uint32_t i = 0; i < 3; ++i) {
        const uint32_t gl[3] = {0, i + 1, i + 2};
        CHECK(same_winding(gl, &out[i * 3]));
    }
}

TEST_CASE("line strips and loops become reversed segments") {
    uint32_t list = 0;
    CHECK(rewrite(kLineStrip, ids(4), &list) == V{1, 0, 2, 1, 3, 2});
    CHECK(list == kLines);
    CHECK(rewrite(kLineLoop, ids(3), &list) == V{1, 0, 2, 1, 0, 2});
    CHECK(list == kLines);
    CHECK(rewrite(kLineLoop, ids(1)).empty());
}

TEST_CASE("element ids, base vertex and primitive restart") {
    const V in = {7, 8, 9, 0xFFFF, 4, 5, 6, 3};
    // Restart splits the strip: each part starts its own parity.
    CHECK(rewrite(kStrip, in, nullptr, true, 0xFFFF) == V{8, 9, 7, 5, 6, 4, 3, 6, 5});
    // Without restart the value is an ordinary id.
    CHECK(rewrite(kTriangles, {1, 2, 3}, nullptr, false, 0, 10) == V{12, 13, 11});
    // A loop closes each part.
    CHECK(rewrite(kLineLoop, {1, 2, 0xFF, 3, 4}, nullptr, true, 0xFF) == V{2, 1, 1, 2, 4, 3, 3, 4});
    // A fan's centre is the first id of its part.
    CHECK(rewrite(kFan, {9, 1, 2, 0xFF, 8, 3, 4}, nullptr, true, 0xFF) == V{2, 9, 1, 4, 8, 3});
}
