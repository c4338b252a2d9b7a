// GLSL ES translation (backends/magma/essl_source.h) and glGetUniform*:
// valid ESSL that the compiled language (desktop GLSL 1.40 for ESSL 1.00,
// ESSL 3.10 for ESSL 3.00) would refuse or misread, compiled, linked, queried
// and drawn through Magma and natively, with what GL answers compared.
#include <doctest.h>

#include "observe.h"

using namespace magma_test;

namespace {

// Draws the full-viewport triangle (attribute 0) with `prog`, when it linked,
// into the 16x16 square of the surface at x.
void draw_strip(GlApi& g, GLuint prog, int x) {
    if (!prog) return;
    g.use(prog);
    g.viewport(x, 0, 16, 16);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
}

// ESSL 1.00 names that are keywords or built-in functions in GLSL 1.40 (and
// Vulkan GLSL): a sampler called texture, a uniform called layout, varyings
// called smooth and sample, user functions round and trunc.
const char* kVsWords100 =
    "attribute vec2 sample;\n"
    "varying vec2 smooth;\n"
    "float trunc(float x) { return x * 0.5; }\n"
    "void main() { smooth = sample * trunc(1.0) + 0.5; gl_Position = vec4(sample, 0.0, 1.0); }\n";
const char* kFsWords100 =
    "precision mediump float;\n"
    "varying vec2 smooth;\n"
    "uniform sampler2D texture;\n"
    "uniform float layout;\n"
    "float round(float x) { return floor(x * 4.0 + 0.5) / 4.0; }\n"
    "void main() { gl_FragColor = texture2D(texture, smooth) * layout + vec4(round(0.3), 0.0, 0.0, 0.0); }\n";

// ESSL 3.00 names that ESSL 3.10 made keywords or built-ins.
const char* kVsWords300 =
    "#version 300 es\n"
    "in vec2 buffer;\n"
    "out vec2 sv;\n"
    "int bitfieldExtract(int a) { return a + 1; }\n"
    "void main() { sv = buffer * 0.5 + 0.5 * float(bitfieldExtract(0)); gl_Position = vec4(buffer, 0.0, 1.0); }\n";
const char* kFsWords300 =
    "#version 300 es\n"
    "precision mediump float;\n"
    "in vec2 sv;\n"
    "uniform float barrier;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(sv, barrier, 1.0); }\n";

// ESSL 1.00's sequence operator in constant expressions (3.00 forbids it).
const char* kVsSeq =
    "attribute vec2 p;\n"
    "uniform float u[(1, 2)];\n"
    "const float k = 0.25 + (1.0, 0.25);\n"
    "void main() { const float h = (2.0, 0.5); gl_Position = vec4(p * h * 2.0, 0.0, 1.0) + vec4(u[1] * 0.0); }\n";
const char* kFsSeq =
    "precision mediump float;\n"
    "const float cf = 2.0;\n"
    "float g = (cf, 0.75);\n"
    "void main() { gl_FragColor = vec4(g, (cf, 0.25), 0.5, 1.0); }\n";

const char* kFsPlain = "precision mediump float; void main() { gl_FragColor = vec4(1.0); }";

void essl_names(GlApi& g, Seen& seen) {
    g.fullscreen_triangle();
    const uint8_t texel[] = {200, 100, 50, 255};
    const GLuint t = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, t);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, texel, sizeof texel);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);

    const GLuint vs1 = g.shader(GL_VERTEX_SHADER, kVsWords100), fs1 = g.shader(GL_FRAGMENT_SHADER, kFsWords100);
    seen.add("1.00 names: vertex compiles", vs1 != 0);
    seen.add("1.00 names: fragment compiles", fs1 != 0);
    const GLuint p1 = vs1 && fs1 ? g.program(vs1, fs1, "sample") : 0;
    seen.add("1.00 names: links", p1 != 0);
    if (p1) {
        seen.add("location of texture", g.uniform_location(p1, "texture") >= 0);
        seen.add("location of layout", g.uniform_location(p1, "layout") >= 0);
        seen.add("attribute sample", g.attrib_location(p1, "sample"));
        g.use(p1);
        g.uniform1f(g.uniform_location(p1, "layout"), 0.5f);
        g.uniform1i(g.uniform_location(p1, "texture"), 0);
    }
    draw_strip(g, p1, 0);

    const GLuint vs3 = g.shader(GL_VERTEX_SHADER, kVsWords300), fs3 = g.shader(GL_FRAGMENT_SHADER, kFsWords300);
    seen.add("3.00 names: vertex compiles", vs3 != 0);
    seen.add("3.00 names: fragment compiles", fs3 != 0);
    const GLuint p3 = vs3 && fs3 ? g.program(vs3, fs3, "buffer") : 0;
    seen.add("3.00 names: links", p3 != 0);
    if (p3) {
        seen.add("location of barrier", g.uniform_location(p3, "barrier") >= 0);
        g.use(p3);
        g.uniform1f(g.uniform_location(p3, "barrier"), 0.75f);
    }
    draw_strip(g, p3, 16);

    const GLuint vss = g.shader(GL_VERTEX_SHADER, kVsSeq), fss = g.shader(GL_FRAGMENT_SHADER, kFsSeq);
    seen.add("sequences: vertex compiles", vss != 0);
    seen.add("sequences: fragment compiles", fss != 0);
    const GLuint ps = vss && fss ? g.program(vss, fss, "p") : 0;
    seen.add("sequences: links", ps != 0);
    draw_strip(g, ps, 32);

    // (A sequence with an assignment in a constant initializer is no constant
    // expression and Magma refuses it, as ESSL says; Mesa accepts it, so it is
    // not compared here.)
    // A shader without main compiles (shaders compile alone); the link fails.
    const GLuint nomain = g.shader(GL_VERTEX_SHADER, "attribute vec4 p; highp float x; void f() { x = p.x; }");
    seen.add("vertex shader without main compiles", nomain != 0);
    seen.add("and does not link", nomain ? g.program(nomain, g.shader(GL_FRAGMENT_SHADER, kFsPlain), "p") != 0 : -1);
    seen.add("no error", g.error());
    seen.pixels = g.read(0, 0, 48, 16);
}

// glGetUniform{fv,iv,uiv} of scalars, vectors, a matrix, bools, an array
// element and a sampler, with GL's conversions between the types.
void get_uniforms(GlApi& g, Seen& seen) {
    const char* vs = "attribute vec2 p; uniform mat4 m; void main() { gl_Position = m * vec4(p, 0.0, 1.0); }";
    const char* fs =
        "precision mediump float;\n"
        "uniform float f; uniform vec4 v4; uniform int i; uniform bool b; uniform float arr[3];\n"
        "uniform sampler2D s;\n"
        "void main() { gl_FragColor = vec4(f, v4.y, float(i), b ? 1.0 : 0.0) + arr[2] + texture2D(s, vec2(0.5)); }\n";
    const GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, vs), g.shader(GL_FRAGMENT_SHADER, fs), "p");
    seen.add("links", prog != 0);
    if (!prog) return;
    g.use(prog);
    const float m[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16.5f};
    g.uniform_matrix4(g.uniform_location(prog, "m"), m);
    g.uniform1f(g.uniform_location(prog, "f"), 2.75f);
    g.uniform4f(g.uniform_location(prog, "v4"), -1.5f, 0.25f, 3.0f, 1e6f);
    g.uniform1i(g.uniform_location(prog, "i"), -7);
    g.uniform1i(g.uniform_location(prog, "b"), 5);
    g.uniform1f(g.uniform_location(prog, "arr[2]"), 0.125f);
    g.uniform1i(g.uniform_location(prog, "s"), 3);
    struct Q {
        const char* name;
        char kind;
    };
    const Q qs[] = {{"m", 'f'}, {"f", 'f'}, {"f", 'i'}, {"v4", 'f'}, {"v4", 'i'}, {"i", 'i'}, {"i", 'f'},
                    {"b", 'i'},  {"b", 'f'}, {"arr[2]", 'f'}, {"arr[0]", 'f'}, {"s", 'i'}};
    for (const Q& q : qs) {
        const std::array<uint32_t, 16> v = g.get_uniform(prog, g.uniform_location(prog, q.name), q.kind);
        for (size_t k = 0; k < v.size(); ++k) seen.add(std::string(q.name) + " " + q.kind + "[" + std::to_string(k) + "]", v[k]);
        seen.add(std::string(q.name) + " error", g.error());
    }
    g.get_uniform(prog, 1000, 'f');
    seen.add("bad location", g.error());
    g.get_uniform(prog + 77, 0, 'f');
    seen.add("bad program", g.error());
}

}  // namespace

TEST_CASE("ESSL translation: names of the compiled language, constant sequences, no main: as native GL") {
    BothSeen r = observe_both(essl_names);
    check_same_values(r);
    CHECK(r.magma.pixels == r.native.pixels);
}

TEST_CASE("glGetUniform{fv,iv}: values and conversions as native GL") {
    BothSeen r = observe_both(get_uniforms);
    check_same_values(r);
}
