// glClear with a partial color mask (drawn by Magma, since Vulkan's clears
// write every channel; clear_masked.cc), compared with native llvmpipe.
#include <doctest.h>

#include "observe.h"

using namespace magma_test;

namespace {

void masked_clears(GlApi& g, Seen& seen) {
    g.clear_color(0.2f, 0.4f, 0.6f, 0.8f);
    g.clear_depth(1.0f);
    g.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // Red and blue only, the whole surface, depth with it.
    g.color_mask(true, false, true, false);
    g.clear_color(1.0f, 1.0f, 0.0f, 0.0f);
    g.clear_depth(0.25f);
    g.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // Green only, in a scissored rectangle.
    g.color_mask(false, true, false, false);
    g.enable(GL_SCISSOR_TEST);
    g.scissor(8, 4, 20, 30);
    g.clear_color(0.0f, 0.0f, 1.0f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.disable(GL_SCISSOR_TEST);
    // The depth cleared to 0.25 above: a quad at z = 0.0 (window 0.5) fails GL_LESS.
    g.color_mask(true, true, true, true);
    const char* vs = "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
    const char* fs = "precision mediump float; void main() { gl_FragColor = vec4(1.0, 0.0, 1.0, 1.0); }";
    const GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, vs), g.shader(GL_FRAGMENT_SHADER, fs), "p");
    g.use(prog);
    g.fullscreen_triangle();
    g.enable(GL_DEPTH_TEST);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    g.disable(GL_DEPTH_TEST);
    // An occlusion query around a masked clear: clears pass no samples.
    const GLuint q = g.gen_query();
    g.color_mask(false, false, true, true);
    g.begin_query(GL_ANY_SAMPLES_PASSED, q);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.end_query(GL_ANY_SAMPLES_PASSED);
    seen.add("samples passed during a masked clear", g.query_object(q, GL_QUERY_RESULT));
    // A drawn triangle after the clear: the draw path's recorded state must
    // not be the clear's (pipeline, viewport, scissor).
    g.color_mask(true, true, true, true);
    g.viewport(32, 32, 32, 32);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    seen.add("no error", g.error());
    seen.pixels = g.read(0, 0, W, H);
}

}  // namespace

TEST_CASE("glClear with a partial color mask, scissored, with depth, in an occlusion query: as native GL") {
    BothSeen r = observe_both(masked_clears);
    check_same_values(r);
    CHECK(r.magma.pixels == r.native.pixels);
}
