// The GL front end's draw rules that a Vulkan device needs on the host:
// primitive restart on list modes (desktop_state.h: restart_lists, GL 4.6
// section 10.3.6) and indirect draws' sources and errors
// (draw_indirect_rules.h, section 10.4), and tessellation's patch state and
// GL_PATCHES rule (tessellation_rules.h, sections 10.1.15 and 11.2).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include <vector>

#include "desktop_state.h"
#include "draw_indirect_rules.h"
#include "tessellation_rules.h"

using namespace mgl::gl;

namespace {

std::vector<uint32_t> restart(std::vector<uint32_t> ids, uint32_t mode, uint32_t index = 0xFFFF) {
    ids.resize(restart_lists(index, list_vertices_per_primitive(mode), ids.data(), ids.size()));
    return ids;
}

constexpr uint32_t kPoints = 0, kLines = 1, kTriangles = 4, kTrianglesAdjacency = 0xC, kStrip = 5;
constexpr uint32_t R = 0xFFFF;

}  // namespace

TEST_CASE("restart on lists: a restart ends the primitive, incomplete ones are dropped") {
    // piglit's draw-elements-prim-restart: {3, 1} is dropped, {0, 1, 2} drawn, {0} dropped.
    CHECK(restart({3, 1, R, 0, 1, 2, 0, R}, kTriangles) == std::vector<uint32_t>{0, 1, 2});
    CHECK(restart({0, 1, 2, 3, 4, R, 5, 6, 7}, kTriangles) == std::vector<uint32_t>{0, 1, 2, 5, 6, 7});
    CHECK(restart({0, 1, 2, R, 3, 4, 5, R}, kLines) == std::vector<uint32_t>{0, 1, 3, 4});
    CHECK(restart({0, R, 1, R, R, 2}, kPoints) == std::vector<uint32_t>{0, 1, 2});
    CHECK(restart({0, 1, 2, 3, 4, 5, R, 6}, kTrianglesAdjacency) == std::vector<uint32_t>{0, 1, 2, 3, 4, 5});
    // Another restart index; the type's all ones is then an ordinary vertex.
    CHECK(restart({0, 1, 7, 2, 3, 0xFFFF}, kLines, 7) == std::vector<uint32_t>{0, 1, 2, 3});
    CHECK(restart({R, R}, kTriangles).empty());
    CHECK(list_vertices_per_primitive(kStrip) == 0);  // strips restart on the device
}

TEST_CASE("indirect draws: where the commands are and GL's errors") {
    IndirectSource bound;
    bound.buffer_bound = true;
    bound.buffer_size = 5 * 4;
    CHECK(!check_draw_indirect(bound, 0, 1, 0, kDrawArraysCommandBytes, false, false));
    CHECK(!check_draw_indirect(bound, 4, 1, 0, kDrawArraysCommandBytes, false, false));
    // piglit's api-errors: a command past the end, a misaligned offset.
    CHECK(check_draw_indirect(bound, 8, 1, 0, kDrawArraysCommandBytes, false, false).error == kInvalidOperation);
    CHECK(check_draw_indirect(bound, 4, 1, 0, kDrawElementsCommandBytes, true, true).error == kInvalidOperation);
    CHECK(check_draw_indirect(bound, 1, 1, 0, kDrawArraysCommandBytes, false, false).error == kInvalidValue);
    CHECK(check_draw_indirect(bound, -4, 1, 0, kDrawArraysCommandBytes, false, false).error == kInvalidValue);
    CHECK(check_draw_indirect(bound, 0, 1, 0, kDrawElementsCommandBytes, true, false).error == kInvalidOperation);
    IndirectSource mapped = bound;
    mapped.buffer_mapped = true;
    CHECK(check_draw_indirect(mapped, 0, 1, 0, kDrawArraysCommandBytes, false, false).error == kInvalidOperation);
    // Many commands: the stride (a multiple of 4) spaces them; the last one must fit.
    IndirectSource big = bound;
    big.buffer_size = 64;
    CHECK(!check_draw_indirect(big, 0, 3, 24, kDrawArraysCommandBytes, false, false));     // 2*24 + 16 = 64
    CHECK(check_draw_indirect(big, 4, 3, 24, kDrawArraysCommandBytes, false, false).error == kInvalidOperation);
    CHECK(check_draw_indirect(big, 0, 3, 6, kDrawArraysCommandBytes, false, false).error == kInvalidValue);
    CHECK(check_draw_indirect(big, 0, -1, 0, kDrawArraysCommandBytes, false, false).error == kInvalidValue);
    CHECK(!check_draw_indirect(big, 0, 0, 0, kDrawArraysCommandBytes, false, false));
    // No buffer: a core context refuses, a compatibility one reads the application's memory.
    IndirectSource none;
    CHECK(check_draw_indirect(none, 0, 1, 0, kDrawArraysCommandBytes, false, false).error == kInvalidOperation);
    none.compatibility = true;
    none.client_bytes = 16;
    CHECK(!check_draw_indirect(none, 0, 1, 0, kDrawArraysCommandBytes, false, false));
    CHECK(check_draw_indirect(none, 0, 2, 0, kDrawArraysCommandBytes, false, false).error == kInvalidOperation);
}

TEST_CASE("patch state: GL_PATCH_VERTICES in 1..max, the default levels, their queries") {
    PatchState p;
    double v[4];
    int n = 0;
    REQUIRE(patch_get(p, kPatchVertices, v, &n));
    CHECK((n == 1 && v[0] == 3));  // GL's initial patch size
    CHECK(set_patch_vertices(p, kPatchVertices, 0, 32).error == kInvalidValue);
    CHECK(set_patch_vertices(p, kPatchVertices, 33, 32).error == kInvalidValue);
    CHECK(set_patch_vertices(p, kPatchDefaultOuter, 4, 32).error == kInvalidEnum);
    CHECK_FALSE(set_patch_vertices(p, kPatchVertices, 32, 32));
    CHECK(p.vertices == 32);
    const float outer[4] = {2, 3, 4, 5}, inner[4] = {6, 7, 0, 0};
    CHECK_FALSE(set_patch_levels(p, kPatchDefaultOuter, outer));
    CHECK_FALSE(set_patch_levels(p, kPatchDefaultInner, inner));
    CHECK(set_patch_levels(p, kPatchVertices, outer).error == kInvalidEnum);
    REQUIRE(patch_get(p, kPatchDefaultOuter, v, &n));
    CHECK((n == 4 && v[0] == 2 && v[3] == 5));
    REQUIRE(patch_get(p, kPatchDefaultInner, v, &n));
    CHECK((n == 2 && v[0] == 6 && v[1] == 7));
    CHECK_FALSE(patch_get(p, 0x0B21 /* GL_LINE_WIDTH */, v, &n));
}

TEST_CASE("GL_PATCHES: required with an evaluation stage, refused without one") {
    CHECK_FALSE(check_patch_mode(kPatches, true));
    CHECK_FALSE(check_patch_mode(kTriangles, false));
    CHECK(check_patch_mode(kTriangles, true).error == kInvalidOperation);
    CHECK(check_patch_mode(kPatches, false).error == kInvalidOperation);
}

TEST_CASE("tessellation limits: the device's figures within GL's, GL's own constants") {
    TessellationLimits l;
    l.patch_vertices = 32;
    l.gen_level = 64;
    l.control_outputs = 512;
    int64_t v = 0;
    REQUIRE(tessellation_limit(kMaxPatchVertices, l, &v));
    CHECK(v == 32);
    REQUIRE(tessellation_limit(0x8E83 /* GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS */, l, &v));
    CHECK(v == 128);
    CHECK_FALSE(tessellation_limit(0x0D33 /* GL_MAX_TEXTURE_SIZE */, l, &v));
}

TEST_CASE("transform feedback overflow: ES refuses, desktop records the primitives that fit") {
    uint64_t prims = 4;
    CHECK(xfb_fit(true, 48, 12, &prims));  // exactly fits
    CHECK(prims == 4);
    CHECK_FALSE(xfb_fit(false, 40, 12, &prims));  // ES: an error, nothing changed
    CHECK(prims == 4);
    CHECK(xfb_fit(true, 40, 12, &prims));  // desktop: 3 whole primitives fit
    CHECK(prims == 3);
    prims = 2;
    CHECK(xfb_fit(true, 0, 12, &prims));
    CHECK(prims == 0);
}
