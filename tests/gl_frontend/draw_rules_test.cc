// The GL front end's draw rules that a Vulkan device needs on the host:
// primitive restart on list modes (desktop_state.h: restart_lists, GL 4.6
// section 10.3.6) and indirect draws' sources and errors
// (draw_indirect_rules.h, section 10.4).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include <vector>

#include "desktop_state.h"
#include "draw_indirect_rules.h"

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
