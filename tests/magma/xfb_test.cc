// Transform feedback (ES 3.0 on VK_EXT_transform_feedback) and
// GL_RASTERIZER_DISCARD through Magma and natively (llvmpipe): captured bytes,
// GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, varyings, errors and pixels.
#include <doctest.h>

#include <algorithm>

#include "observe.h"

using namespace magma_test;

namespace {

const char* kVs =
    "#version 300 es\n"
    "in vec2 p;\n"
    "out vec4 v;\n"
    "flat out int id;\n"
    "out float s;\n"
    "void main() { v = vec4(p * 2.0 + 1.0, p.x - p.y, 0.5); id = gl_VertexID; s = p.x * 4.0;\n"
    "              gl_Position = vec4(p, 0.25, 1.0); }\n";
const char* kFs =
    "#version 300 es\n"
    "precision mediump float;\n"
    "in vec4 v;\n"
    "flat in int id;\n"
    "in float s;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(v.xy * 0.25, float(id) / 8.0, 1.0); }\n";

void add_bytes(Seen& seen, const std::string& what, const std::vector<uint8_t>& bytes) {
    for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
        uint32_t w;
        std::memcpy(&w, bytes.data() + i, 4);
        seen.add(what + " word " + std::to_string(i / 4), w);
    }
}

void capture(GlApi& g, Seen& seen) {
    const GLuint vs = g.shader(GL_VERTEX_SHADER, kVs), fs = g.shader(GL_FRAGMENT_SHADER, kFs);
    const GLuint prog = g.program_xfb(vs, fs, "p", {"v", "gl_Position", "id"}, GL_INTERLEAVED_ATTRIBS);
    seen.add("interleaved program links", prog != 0);
    if (!prog) return;
    for (GLuint i = 0; i < 4; ++i) {
        GLint size;
        GLenum type;
        const std::string name = g.xfb_varying(prog, i, size, type);
        // (After an error the wire's reply holds zeros where native GL left the variables alone.)
        if (i < 3) {
            seen.add("varying " + std::to_string(i) + " " + name + " size", size);
            seen.add("varying " + std::to_string(i) + " type", type);
        }
        seen.add("varying " + std::to_string(i) + " error", g.error());
    }
    const float tris[] = {-1, -1, 1, -1, -1, 1, 1, -1, 1, 1, -1, 1, 0.5f, 0.5f, -0.5f, 0.5f};
    const GLuint vb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vb);
    g.buffer_data(GL_ARRAY_BUFFER, tris, sizeof tris);
    g.attrib(0, 2, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    // 12 vertices of 9 words (vec4 + vec4 + int) are captured; room for 13.
    const GLuint xb = g.gen_buffer();
    g.bind_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, xb);
    std::vector<uint8_t> fill(13 * 36, 0xEE);
    g.buffer_data(GL_TRANSFORM_FEEDBACK_BUFFER, fill.data(), fill.size());
    g.bind_buffer_range(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xb, 0, 0);
    g.use(prog);
    g.clear_color(0, 0, 0, 1);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.draw_arrays(GL_TRIANGLES, 0, 3);  // not captured: before Begin
    const GLuint q = g.gen_query();
    g.begin_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
    g.xfb('b', GL_TRIANGLES);
    seen.add("begin", g.error());
    seen.add("active", g.get_integer(GL_TRANSFORM_FEEDBACK_ACTIVE));
    g.xfb('b', GL_TRIANGLES);
    seen.add("begin twice", g.error());
    g.use(0);
    seen.add("glUseProgram while active", g.error());
    g.draw_arrays(GL_POINTS, 0, 3);
    seen.add("mode other than Begin's", g.error());
    g.enable(GL_RASTERIZER_DISCARD);
    g.draw_arrays(GL_TRIANGLES, 0, 6);  // 2 triangles captured, none drawn
    g.disable(GL_RASTERIZER_DISCARD);
    g.xfb('p');
    seen.add("paused", g.get_integer(GL_TRANSFORM_FEEDBACK_PAUSED));
    g.draw_arrays(GL_TRIANGLES, 0, 3);  // drawn, not captured
    g.xfb('r');
    g.draw_arrays(GL_TRIANGLE_STRIP, 4, 4);  // 2 triangles of a strip, drawn
    seen.add("draws", g.error());
    g.xfb('e');
    g.end_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    seen.add("end", g.error());
    seen.add("primitives written", g.query_object(q, GL_QUERY_RESULT));
    g.xfb('e');
    seen.add("end when not active", g.error());
    add_bytes(seen, "captured", g.buffer_bytes(GL_TRANSFORM_FEEDBACK_BUFFER, 0, fill.size()));
    // What was captured, drawn as vertices (gl_Position at word 4 of each 9).
    g.bind_buffer(GL_ARRAY_BUFFER, xb);
    g.attrib(0, 2, GL_FLOAT, false, 36, 16);
    g.viewport(0, 0, 32, 32);
    g.draw_arrays(GL_TRIANGLES, 0, 6);
    seen.add("no error", g.error());
    seen.pixels = g.read(0, 0, W, H);
}

void separate(GlApi& g, Seen& seen) {
    const GLuint vs = g.shader(GL_VERTEX_SHADER, kVs), fs = g.shader(GL_FRAGMENT_SHADER, kFs);
    seen.add("unknown varying links",
             g.program_xfb(vs, fs, "p", {"v", "nope"}, GL_SEPARATE_ATTRIBS) != 0);
    seen.add("repeated varying links", g.program_xfb(vs, fs, "p", {"s", "s"}, GL_INTERLEAVED_ATTRIBS) != 0);
    const GLuint prog = g.program_xfb(vs, fs, "p", {"s", "v"}, GL_SEPARATE_ATTRIBS);
    seen.add("separate program links", prog != 0);
    if (!prog) return;
    g.use(prog);
    g.fullscreen_triangle();
    const GLuint a = g.gen_buffer(), b = g.gen_buffer();
    std::vector<uint8_t> fill(64, 0x11);
    g.bind_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, a);
    g.buffer_data(GL_TRANSFORM_FEEDBACK_BUFFER, fill.data(), fill.size());
    g.bind_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, b);
    g.buffer_data(GL_TRANSFORM_FEEDBACK_BUFFER, fill.data(), fill.size());
    const GLuint x = g.gen_xfb();
    g.bind_xfb(x);
    g.xfb('b', GL_TRIANGLES);
    seen.add("begin without buffers", g.error());
    g.bind_buffer_range(GL_TRANSFORM_FEEDBACK_BUFFER, 0, a, 8, 12);
    g.bind_buffer_range(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b, 3, 48);
    seen.add("misaligned range", g.error());
    g.bind_buffer_range(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b, 16, 48);
    g.enable(GL_RASTERIZER_DISCARD);
    g.xfb('b', GL_TRIANGLES);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    g.xfb('e');
    g.disable(GL_RASTERIZER_DISCARD);
    seen.add("separate capture", g.error());
    g.bind_xfb(0);
    g.bind_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, a);
    add_bytes(seen, "buffer 0", g.buffer_bytes(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 64));
    g.bind_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, b);
    add_bytes(seen, "buffer 1", g.buffer_bytes(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 64));
}

// GL_RASTERIZER_DISCARD discards clears as well as draws.
void discard(GlApi& g, Seen& seen) {
    g.clear_color(1, 0, 0, 1);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.enable(GL_RASTERIZER_DISCARD);
    seen.add("enabled", g.get_integer(GL_RASTERIZER_DISCARD));
    g.clear_color(0, 1, 0, 1);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.clear_buffer_fv(GL_COLOR, 0, {0, 0, 1, 1});
    g.disable(GL_RASTERIZER_DISCARD);
    seen.add("no error", g.error());
    seen.pixels = g.read(0, 0, 4, 4);
}

// Captured values read back as a uniform block by the next draws, three times
// over (after piglit's gles-3.0-transform-feedback-uniform-buffer-object): a
// captured draw and a draw reading its buffer may follow each other in one
// batch. (The block is std140 with ivec4 elements here: piglit's reads ints
// from a shared-layout block, whose array stride is the implementation's
// choice, 4 on llvmpipe and 16 on Magma: see docs/PIGLIT.md.)
void captured_as_uniforms(GlApi& g, Seen& seen) {
    const char* vs_tf =
        "#version 300 es\nuniform int tf_pass; in vec4 p; flat out ivec4 out_pass;\n"
        "void main() { out_pass = ivec4(tf_pass); gl_Position = p; }\n";
    const char* fs_tf = "#version 300 es\nprecision highp float; out vec4 o; void main() { o = vec4(0.0); }\n";
    const char* vs_ubo =
        "#version 300 es\nuniform int ubo_pass; layout(std140) uniform ubo { ivec4 tf_pass[8 * 8 * 6]; };\n"
        "in vec4 p; flat out vec4 color;\n"
        "void main() { color = vec4(0.0);\n"
        "  for (int i = 0; i < tf_pass.length(); ++i) if (ubo_pass != tf_pass[i].w) color[ubo_pass] = 1.0;\n"
        "  gl_Position = p; }\n";
    const char* fs_ubo = "#version 300 es\nprecision highp float; flat in vec4 color; out vec4 o; void main() { o = color; }\n";
    const GLuint tf = g.program_xfb(g.shader(GL_VERTEX_SHADER, vs_tf), g.shader(GL_FRAGMENT_SHADER, fs_tf), "p",
                                    {"out_pass"}, GL_INTERLEAVED_ATTRIBS);
    const GLuint ubo = g.program(g.shader(GL_VERTEX_SHADER, vs_ubo), g.shader(GL_FRAGMENT_SHADER, fs_ubo), "p");
    seen.add("programs link", tf && ubo);
    if (!tf || !ubo) return;
    std::vector<float> quads;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const float x0 = -1 + x * 0.25f, y0 = -1 + y * 0.25f, x1 = x0 + 0.25f, y1 = y0 + 0.25f;
            quads.insert(quads.end(), {x0, y0, x1, y0, x0, y1, x1, y1});
        }
    const GLuint vb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vb);
    g.buffer_data(GL_ARRAY_BUFFER, quads.data(), quads.size() * 4);
    g.attrib(0, 2, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    const GLuint bo = g.gen_buffer();
    g.bind_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, bo);
    g.buffer_data(GL_TRANSFORM_FEEDBACK_BUFFER, nullptr, 8 * 8 * 6 * 16);
    g.blend_func(GL_ONE, GL_ONE);
    g.enable(GL_BLEND);
    g.clear_color(0, 0, 0, 0);
    g.clear(GL_COLOR_BUFFER_BIT);
    for (int pass = 0; pass < 3; ++pass) {
        g.use(tf);
        g.uniform1i(g.uniform_location(tf, "tf_pass"), pass);
        g.bind_buffer_range(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bo, 0, 0);
        g.xfb('b', GL_TRIANGLES);
        for (int k = 0; k < 64; ++k) g.draw_arrays(GL_TRIANGLE_STRIP, 4 * k, 4);
        g.xfb('e');
        g.bind_buffer_range(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0, 0, 0);
        g.use(ubo);
        g.uniform1i(g.uniform_location(ubo, "ubo_pass"), pass);
        g.bind_buffer_range(GL_UNIFORM_BUFFER, 0, bo, 0, 0);
        for (int k = 0; k < 64; ++k) g.draw_arrays(GL_TRIANGLE_STRIP, 4 * k, 4);
        g.bind_buffer_range(GL_UNIFORM_BUFFER, 0, 0, 0, 0);
    }
    seen.add("no error", g.error());
    g.bind_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, bo);
    add_bytes(seen, "buffer", g.buffer_bytes(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 8 * 8 * 6 * 16));
    seen.pixels = g.read(0, 0, W, H);
}

// ES 3.0's errors that llvmpipe (ES 3.2 with OES_geometry_shader, which drops
// them) does not raise natively: checked against the ES 3.0 spec (2.15.2).
void es30_errors(GlApi& g, Seen& seen) {
    const GLuint prog = g.program_xfb(g.shader(GL_VERTEX_SHADER, kVs), g.shader(GL_FRAGMENT_SHADER, kFs), "p", {"s"},
                                      GL_INTERLEAVED_ATTRIBS);
    seen.add("links", prog != 0);
    g.use(prog);
    g.fullscreen_triangle();
    const GLuint xb = g.gen_buffer();
    g.bind_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, xb);
    std::vector<uint8_t> fill(16, 0);
    g.buffer_data(GL_TRANSFORM_FEEDBACK_BUFFER, fill.data(), fill.size());  // room for 4 vertices
    g.bind_buffer_range(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xb, 0, 0);
    g.xfb('b', GL_TRIANGLES);
    g.draw_elements_client(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, "\0\1\2", 3);
    seen.add("glDrawElements while active", g.error());
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    seen.add("3 vertices fit", g.error());
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    seen.add("3 more overflow", g.error());
    g.xfb('e');
    seen.add("end", g.error());
}

}  // namespace

TEST_CASE("transform feedback: ES 3.0's errors for glDrawElements and overflow") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start(1, 1, W, H);
    WireGl g(wire);
    Seen seen;
    es30_errors(g, seen);
    const std::pair<std::string, int64_t> want[] = {{"links", 1},
                                                    {"glDrawElements while active", GL_INVALID_OPERATION},
                                                    {"3 vertices fit", GL_NO_ERROR},
                                                    {"3 more overflow", GL_INVALID_OPERATION},
                                                    {"end", GL_NO_ERROR}};
    REQUIRE(seen.values.size() == std::size(want));
    for (size_t i = 0; i < seen.values.size(); ++i) CHECK(seen.values[i] == want[i]);
}

TEST_CASE("transform feedback: interleaved capture, pause/resume, queries, errors, drawing what was captured: as native GL") {
    BothSeen r = observe_both(capture);
    check_same_values(r);
    CHECK(r.magma.pixels == r.native.pixels);
}

TEST_CASE("transform feedback: separate buffers, ranges, objects, link errors: as native GL") {
    BothSeen r = observe_both(separate);
    check_same_values(r);
}

TEST_CASE("transform feedback: captured values read as a uniform block by the next draws: as native GL") {
    BothSeen r = observe_both(captured_as_uniforms);
    check_same_values(r);
    CHECK(r.magma.pixels == r.native.pixels);
    // Every draw found its pass's values: nothing was blended in.
    CHECK(std::count(r.magma.pixels.begin(), r.magma.pixels.end(), 0) == long(r.magma.pixels.size()));
}

TEST_CASE("transform feedback without VK_EXT_transform_feedback fails loudly") {
    setenv("MOBILEGL_MAGMA_NO_XFB", "1", 1);  // the device is opened as if it lacked the extension
    Wire wire;
    unsetenv("MOBILEGL_MAGMA_NO_XFB");
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start(1, 1, W, H);
    WireGl g(wire);
    const GLuint vs = g.shader(GL_VERTEX_SHADER, kVs), fs = g.shader(GL_FRAGMENT_SHADER, kFs);
    g.program_xfb(vs, fs, "p", {"v"}, GL_INTERLEAVED_ATTRIBS);  // glTransformFeedbackVaryings is refused
    CHECK(g.error() == GL_INVALID_OPERATION);
    const GLuint prog = g.program(vs, fs, "p");
    REQUIRE(prog != 0);
    g.use(prog);
    g.xfb('b', GL_TRIANGLES);
    CHECK(g.error() == GL_INVALID_OPERATION);
    g.xfb('b', GL_TRIANGLES);
    CHECK(g.error() == GL_INVALID_OPERATION);
    CHECK(wire.log_lines("glBeginTransformFeedback: transform feedback needs VK_EXT_transform_feedback") == 1);
    CHECK(wire.log_lines("glTransformFeedbackVaryings: transform feedback needs VK_EXT_transform_feedback") == 1);
}

TEST_CASE("GL_RASTERIZER_DISCARD discards clears: as native GL") {
    BothSeen r = observe_both(discard);
    check_same_values(r);
    CHECK(r.magma.pixels == r.native.pixels);
}
