// State first met late (after warm-up): a program first drawn in a later
// frame, depth test, culling, stencil and a new vertex layout turned on for
// an object already drawn. Where the device has dynamic state and dynamic
// vertex input, none of it may create a pipeline; everywhere, the pixels
// must match the native driver (the state set per draw must be the GL state).
#include <doctest.h>

#include <functional>

#include "gl_api.h"

using namespace magma_test;

namespace {

constexpr int W = 64, H = 64;

const char* kVs = R"(#version 300 es
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_color;
out vec4 v_color;
void main() { v_color = a_color; gl_Position = vec4(a_pos, 1.0); }
)";
const char* kFsColor = R"(#version 300 es
precision mediump float;
in vec4 v_color;
out vec4 o_color;
void main() { o_color = v_color; }
)";
const char* kFsTint = R"(#version 300 es
precision mediump float;
in vec4 v_color;
uniform vec4 u_tint;
out vec4 o_color;
void main() { o_color = v_color * u_tint; }
)";

// Frame 1 draws with program A only, every test off, tightly packed
// positions and a constant color; `swap` ends it. Frame 2 turns on depth
// and stencil, feeds A interleaved colors, then draws B for the first time
// with culling (clockwise front faces culled) as well. Each of these shows:
// without it the image differs.
std::vector<uint8_t> late_state(GlApi& g, const std::function<void()>& swap) {
    const GLuint vs = g.shader(GL_VERTEX_SHADER, kVs);
    const GLuint a = g.program(vs, g.shader(GL_FRAGMENT_SHADER, kFsColor), nullptr);
    const GLuint b = g.program(vs, g.shader(GL_FRAGMENT_SHADER, kFsTint), nullptr);
    REQUIRE(a);
    REQUIRE(b);
    // Two overlapping triangles: near (z -0.5, counter-clockwise) and far
    // (z 0.5, clockwise), then the same with colors, interleaved.
    const float packed[] = {-0.9f, -0.9f, -0.5f, 0.6f, -0.9f, -0.5f, -0.9f, 0.6f, -0.5f,
                            -0.6f, -0.6f, 0.5f,  -0.6f, 0.9f, 0.5f,  0.9f, -0.6f, 0.5f};
    const GLuint pb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, pb);
    g.buffer_data(GL_ARRAY_BUFFER, packed, sizeof packed);
    g.attrib(0, 3, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    g.vertex_attrib4f(1, 0.2f, 0.6f, 0.9f, 1.0f);
    g.use(a);
    g.clear_color(0.1f, 0.1f, 0.1f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    g.draw_arrays(GL_TRIANGLES, 0, 6);
    swap();

    std::vector<float> inter;
    const float colors[6][4] = {{1, 0, 0, 1}, {1, 1, 0, 1}, {1, 0, 1, 1}, {0, 1, 0, 1}, {0, 1, 1, 1}, {0, 0, 1, 1}};
    for (int v = 0; v < 6; ++v) {
        inter.insert(inter.end(), packed + 3 * v, packed + 3 * v + 3);
        inter.insert(inter.end(), colors[v], colors[v] + 4);
    }
    const GLuint ib = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, ib);
    g.buffer_data(GL_ARRAY_BUFFER, inter.data(), inter.size() * sizeof(float));
    g.attrib(0, 3, GL_FLOAT, false, 28, 0);
    g.attrib(1, 4, GL_FLOAT, false, 28, 12);
    g.enable_attrib(1);
    g.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    g.enable(GL_DEPTH_TEST);
    g.depth_func(GL_LESS);
    g.enable(GL_STENCIL_TEST);
    g.stencil_func(GL_ALWAYS, 1, 0xFF);
    g.stencil_op(GL_KEEP, GL_INCR, GL_REPLACE);
    // Near one first: the far one fails the depth test where they overlap.
    // Stencil: 1 where a fragment passed, 2 in the overlap (far one's zfail).
    g.draw_arrays(GL_TRIANGLES, 0, 6);
    // B: only in the overlap (stencil 2), depth test passing always, clockwise
    // front faces culled: the near (counter-clockwise) triangle shows there,
    // tinted; the far one, drawn after it, must not.
    g.stencil_func(GL_EQUAL, 2, 0xFF);
    g.stencil_op(GL_KEEP, GL_KEEP, GL_KEEP);
    g.enable(GL_CULL_FACE);
    g.front_face(GL_CW);
    g.cull_face(GL_FRONT);
    g.use(b);
    g.uniform4f(g.uniform_location(b, "u_tint"), 0.5f, 0.5f, 0.5f, 1.0f);
    g.depth_func(GL_ALWAYS);
    g.draw_arrays(GL_TRIANGLES, 0, 6);
    return g.read(0, 0, W, H);
}

}  // namespace

TEST_CASE("state first met late: no new pipeline where it is dynamic, pixels as native") {
    std::vector<uint8_t> magma, native;
    magma::Counters late{};
    bool dynamic = false;
    {
        Wire wire;
        REQUIRE_MESSAGE(wire.backend, wire.why);
        wire.start(1, 7, W, H, 0x3034);
        WireGl g(wire);
        magma = late_state(g, [&] {
            wire.enc.mglSwapBuffers(7, 1);
            REQUIRE(wire.flush().ok());
        });
        wire.enc.mglSwapBuffers(7, 2);
        REQUIRE(wire.flush().ok());
        late = wire.backend->frame_counters();
        CHECK(wire.error() == GL_NO_ERROR);
        CHECK(wire.decode_failures == 0);
        dynamic = wire.log_lines("dynamic state and vertex input") == 1;
    }
    {
        Native n(W, H);
        REQUIRE(n.ok());
        NativeGl g;
        native = late_state(g, [] {});
        CHECK(glGetError() == GL_NO_ERROR);
    }
    dump("late-state-magma", magma, W, H);
    dump("late-state-native", native, W, H);
    REQUIRE(magma.size() == native.size());
    // 1/255: lavapipe and llvmpipe round the interpolated, tinted colors of
    // 15 pixels differently (the same with MOBILEGL_MAGMA_DYNAMIC_STATE=0).
    const Diff d = compare(magma, native, 1);
    INFO("max channel difference ", d.max_channel, ", pixels over ", d.pixels_over);
    CHECK(d.pixels_over == 0);
    // The scene is not trivial: the near triangle's colors, B's tinted far
    // triangle and the clear color all show.
    size_t distinct = 0;
    for (size_t i = 4; i < native.size(); i += 4) distinct += std::memcmp(&native[i], &native[i - 4], 4) != 0;
    CHECK(distinct > 50);
    CHECK(late.draws == 2);
    if (dynamic) CHECK(late.pipelines == 0);
    else MESSAGE("the device has no dynamic state and vertex input: late pipelines not checked");
}
