// glGenerateMipmap between draws: Magma records it in front of the open
// render pass when that pass has not used the texture (so the pass is not
// split), and in order when it has. Either way every draw must see what GL
// says: the old levels before the call, the new ones after. Compared with
// the native driver and with the colors GL prescribes.
#include <doctest.h>

#include "gl_api.h"

using namespace magma_test;

namespace {

constexpr int W = 64, H = 64;

const char* kVs = R"(#version 300 es
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
// One texel of one level: a uniform texture gives its level's color exactly.
const char* kFs = R"(#version 300 es
precision mediump float;
uniform sampler2D u_tex;
uniform float u_lod;
out vec4 o_color;
void main() { o_color = textureLod(u_tex, vec2(0.5), u_lod); }
)";

const uint8_t kA[4] = {200, 40, 40, 255};   // every level 0 at first
const uint8_t kB[4] = {40, 40, 200, 255};   // levels 1 and 2 until generated
const uint8_t kC[4] = {40, 200, 40, 255};   // V's level 0 once cleared

// A 4x4 texture: level 0 kA, levels 1 and 2 kB (complete, mipmapped sampling).
GLuint two_tone(GlApi& g) {
    GLuint t = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, t);
    for (int l = 0, s = 4; l < 3; ++l, s /= 2) {
        std::vector<uint8_t> px;
        for (int i = 0; i < s * s; ++i) px.insert(px.end(), l ? kB : kA, (l ? kB : kA) + 4);
        g.tex_image(GL_TEXTURE_2D, l, GL_RGBA, s, s, GL_RGBA, GL_UNSIGNED_BYTE, px.data(), px.size());
    }
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

// Region i: a 12x12 square in the bottom row of the surface.
void region(GlApi& g, int i) { g.scissor(i * 12, 0, 12, 12); }

// Draws texture `t`'s level `lod` into region `i` of the bound framebuffer.
void sample(GlApi& g, GLint lod_loc, GLuint t, float lod) {
    g.bind_texture(GL_TEXTURE_2D, t);
    g.uniform1f(lod_loc, lod);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
}

std::vector<uint8_t> mipmaps_between_draws(GlApi& g) {
    GLuint p = g.program(g.shader(GL_VERTEX_SHADER, kVs), g.shader(GL_FRAGMENT_SHADER, kFs), nullptr);
    REQUIRE(p);
    g.use(p);
    g.uniform1i(g.uniform_location(p, "u_tex"), 0);
    const GLint lod = g.uniform_location(p, "u_lod");
    g.fullscreen_triangle();
    const GLuint t = two_tone(g), u = two_tone(g), v = two_tone(g);
    // R: what an earlier pass saw of U.
    const GLuint r = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, r);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, nullptr, 0);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    const GLuint fr = g.gen_framebuffer();
    g.bind_framebuffer(fr);
    g.framebuffer_texture(GL_COLOR_ATTACHMENT0, r, 0);
    CHECK(g.check_framebuffer() == GL_FRAMEBUFFER_COMPLETE);
    const GLuint fv = g.gen_framebuffer();
    g.bind_framebuffer(fv);
    g.framebuffer_texture(GL_COLOR_ATTACHMENT0, v, 0);
    CHECK(g.check_framebuffer() == GL_FRAMEBUFFER_COMPLETE);

    // A pass into R samples U's level 1 (kB).
    g.bind_framebuffer(fr);
    g.viewport(0, 0, 8, 8);
    sample(g, lod, u, 1.0f);
    // The surface: T's level 1 (kB), then T is mipmapped while this pass has
    // sampled it: the next draw sees the generated level (kA).
    g.bind_framebuffer(0);
    g.viewport(0, 0, W, H);
    g.clear_color(0, 0, 0, 1);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.enable(GL_SCISSOR_TEST);
    region(g, 0);
    sample(g, lod, t, 1.0f);
    g.bind_texture(GL_TEXTURE_2D, t);
    g.generate_mipmap(GL_TEXTURE_2D);
    region(g, 1);
    sample(g, lod, t, 1.0f);
    // U is mipmapped while the open pass has not used it (an earlier pass
    // did): the draw after it sees kA, R still shows what the earlier pass
    // saw (kB).
    g.bind_texture(GL_TEXTURE_2D, u);
    g.generate_mipmap(GL_TEXTURE_2D);
    region(g, 2);
    sample(g, lod, u, 1.0f);
    region(g, 3);
    sample(g, lod, r, 0.0f);
    // V is mipmapped while it is the open pass's attachment, just cleared to
    // kC: its level 1 is generated from kC.
    g.disable(GL_SCISSOR_TEST);
    g.bind_framebuffer(fv);
    g.viewport(0, 0, 4, 4);
    g.clear_color(kC[0] / 255.0f, kC[1] / 255.0f, kC[2] / 255.0f, 1);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.bind_texture(GL_TEXTURE_2D, v);
    g.generate_mipmap(GL_TEXTURE_2D);
    g.bind_framebuffer(0);
    g.viewport(0, 0, W, H);
    g.enable(GL_SCISSOR_TEST);
    region(g, 4);
    sample(g, lod, v, 1.0f);
    g.disable(GL_SCISSOR_TEST);
    return g.read(0, 0, W, H);
}

bool pixel_is(const std::vector<uint8_t>& px, int x, int y, const uint8_t* want) {
    const uint8_t* p = &px[(size_t(y) * W + x) * 4];
    return std::abs(p[0] - want[0]) <= 1 && std::abs(p[1] - want[1]) <= 1 && std::abs(p[2] - want[2]) <= 1;
}

}  // namespace

TEST_CASE("glGenerateMipmap between draws: each draw sees the levels of its place in GL order, as native") {
    std::vector<uint8_t> magma, native;
    magma::Counters before{}, after{};
    {
        Wire wire;
        REQUIRE_MESSAGE(wire.backend, wire.why);
        wire.start(1, 1, W, H);
        WireGl g(wire);
        before = wire.backend->total_counters();
        magma = mipmaps_between_draws(g);
        after = wire.backend->total_counters();
        CHECK(wire.error() == GL_NO_ERROR);
        CHECK(wire.decode_failures == 0);
    }
    {
        Native n(W, H);
        REQUIRE(n.ok());
        NativeGl g;
        native = mipmaps_between_draws(g);
        CHECK(glGetError() == GL_NO_ERROR);
    }
    dump("mipmap-order-magma", magma, W, H);
    dump("mipmap-order-native", native, W, H);
    REQUIRE(magma.size() == native.size());
    const Diff d = compare(magma, native, 0);
    INFO("max channel difference ", d.max_channel, ", pixels over ", d.pixels_over);
    CHECK(d.pixels_over == 0);
    // What GL prescribes, region by region (so that the scene tests ordering
    // at all): old level, generated level, generated level, what the earlier
    // pass saw, the level generated from the attachment's new contents.
    const uint8_t* want[5] = {kB, kA, kA, kB, kC};
    for (int i = 0; i < 5; ++i) {
        CAPTURE(i);
        CHECK(pixel_is(native, i * 12 + 6, 6, want[i]));
        CHECK(pixel_is(magma, i * 12 + 6, 6, want[i]));
    }
    // Passes: R, surface, surface again (T's mipmap had to end the pass), V,
    // surface. U's mipmap went in front of the open pass: no second split.
    CHECK(after.render_passes - before.render_passes == 5);
    CHECK(after.target_switches - before.target_switches == 4);
}
