// GLES 3.0 features beyond drawing pixels (queries, ...): the same calls
// made through Magma and natively (llvmpipe), and what GL answers compared:
// results, errors, and the pixels where a feature renders.
#include <chrono>
#include <doctest.h>

#include "observe.h"

using namespace magma_test;

namespace {

const char* kVs2 = "attribute vec2 p; uniform float z; void main() { gl_Position = vec4(p, z, 1.0); }";
const char* kFsColor = "precision mediump float; uniform vec4 c; void main() { gl_FragColor = c; }";

// ---- occlusion queries -----------------------------------------------------------------

void occlusion(GlApi& g, Seen& seen) {
    GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, kVs2), g.shader(GL_FRAGMENT_SHADER, kFsColor), "p");
    g.use(prog);
    const GLint z = g.uniform_location(prog, "z"), c = g.uniform_location(prog, "c");
    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    const float small[] = {-0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f};
    GLuint bq = g.gen_buffer(), bs = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, bq);
    g.buffer_data(GL_ARRAY_BUFFER, quad, sizeof quad);
    g.bind_buffer(GL_ARRAY_BUFFER, bs);
    g.buffer_data(GL_ARRAY_BUFFER, small, sizeof small);
    g.enable_attrib(0);
    auto draw = [&](GLuint buf, float depth, float red) {
        g.bind_buffer(GL_ARRAY_BUFFER, buf);
        g.attrib(0, 2, GL_FLOAT, false, 0, 0);
        g.uniform1f(z, depth);
        g.uniform4f(c, red, 0.5f, 0.25f, 1.0f);
        g.draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
    };
    g.enable(GL_DEPTH_TEST);
    g.clear_color(0, 0, 0, 1);
    g.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    draw(bq, 0.0f, 0.2f);  // an occluder over the whole surface

    GLuint q[7];
    for (GLuint& id : q) id = g.gen_query();
    seen.add("is_query before begin", g.is_query(q[0]));
    // Hidden behind the occluder: no sample passes.
    g.begin_query(GL_ANY_SAMPLES_PASSED, q[0]);
    seen.add("is_query once begun", g.is_query(q[0]));
    seen.add("current query", g.current_query(GL_ANY_SAMPLES_PASSED) == GLint(q[0]));
    seen.add("current conservative", g.current_query(GL_ANY_SAMPLES_PASSED_CONSERVATIVE));
    g.begin_query(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, q[1]);  // the other occlusion target while one is active
    seen.add("begin while active", g.error());
    g.query_object(q[0], GL_QUERY_RESULT);
    seen.add("result of an active query: error", g.error());
    draw(bs, 0.5f, 1.0f);
    g.end_query(GL_ANY_SAMPLES_PASSED);
    seen.add("current after end", g.current_query(GL_ANY_SAMPLES_PASSED));
    // In front: samples pass.
    g.begin_query(GL_ANY_SAMPLES_PASSED, q[1]);
    draw(bs, -0.5f, 0.6f);
    g.end_query(GL_ANY_SAMPLES_PASSED);
    // No draw at all.
    g.begin_query(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, q[2]);
    g.end_query(GL_ANY_SAMPLES_PASSED_CONSERVATIVE);
    // Conservative, visible.
    g.begin_query(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, q[3]);
    draw(bs, -0.25f, 0.8f);
    g.end_query(GL_ANY_SAMPLES_PASSED_CONSERVATIVE);
    // Across a flush (two batches): hidden, then visible.
    g.begin_query(GL_ANY_SAMPLES_PASSED, q[4]);
    draw(bs, 0.9f, 0.1f);
    g.flush();
    draw(bs, -0.9f, 0.3f);
    g.end_query(GL_ANY_SAMPLES_PASSED);
    // Across render passes: hidden on the surface, visible into an FBO.
    GLuint tex = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, tex);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, nullptr, 0);
    GLuint fb = g.gen_framebuffer();
    g.begin_query(GL_ANY_SAMPLES_PASSED, q[5]);
    draw(bs, 0.9f, 0.1f);
    g.bind_framebuffer(fb);
    g.framebuffer_texture(GL_COLOR_ATTACHMENT0, tex, 0);
    g.viewport(0, 0, 16, 16);
    g.disable(GL_DEPTH_TEST);
    draw(bs, 0.0f, 0.7f);
    g.bind_framebuffer(0);
    g.viewport(0, 0, W, H);
    g.enable(GL_DEPTH_TEST);
    g.end_query(GL_ANY_SAMPLES_PASSED);
    // Polling availability makes progress without a glFlush from the app.
    // GL promises it eventually; bounded in time, not in polls: a loaded
    // 2-core machine needed more than 100000 polls (~0.1 s) for lavapipe.
    GLuint available = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!available && std::chrono::steady_clock::now() < deadline)
        available = g.query_object(q[1], GL_QUERY_RESULT_AVAILABLE);
    seen.add("available by polling", available);
    for (int i = 0; i < 6; ++i) seen.add("result " + std::to_string(i), g.query_object(q[i], GL_QUERY_RESULT));
    seen.add("available after the result", g.query_object(q[0], GL_QUERY_RESULT_AVAILABLE));
    // A query begun again forgets its old result: q[1] now hidden.
    g.begin_query(GL_ANY_SAMPLES_PASSED, q[1]);
    draw(bs, 0.95f, 0.9f);
    g.end_query(GL_ANY_SAMPLES_PASSED);
    seen.add("result of q1 begun again", g.query_object(q[1], GL_QUERY_RESULT));
    // Errors.
    g.begin_query(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, q[1]);  // another target than its first
    seen.add("begin with another target", g.error());
    g.end_query(GL_ANY_SAMPLES_PASSED);  // none active
    seen.add("end without begin", g.error());
    g.begin_query(GL_ANY_SAMPLES_PASSED, 0);
    seen.add("begin query 0", g.error());
    g.query_object(q[6], GL_QUERY_RESULT);  // (what the wire returns then is not GL's business: untested)
    seen.add("result of a query never begun: error", g.error());
    g.begin_query(GL_ANY_SAMPLES_PASSED, q[6]);
    seen.add("begin unused name", g.error());
    g.end_query(GL_ANY_SAMPLES_PASSED);
    seen.add("no error", g.error());
    seen.pixels = g.read(0, 0, W, H);
}

// ---- draw buffers and multiple render targets ----------------------------------------------

const char* kVs3 = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";

void mrt(GlApi& g, Seen& seen) {
    const char* fs =
        "#version 300 es\nprecision mediump float;\n"
        "layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1; layout(location = 2) out vec4 o2;\n"
        "void main() { vec2 f = gl_FragCoord.xy / 32.0;\n"
        "  o0 = vec4(f, 0.25, 1.0); o1 = vec4(0.5, f.y, f.x, 1.0); o2 = vec4(1.0 - f.x, 0.75, f.y, 0.5); }";
    GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, kVs3), g.shader(GL_FRAGMENT_SHADER, fs), "p");
    seen.add("linked", prog != 0);
    g.use(prog);
    g.fullscreen_triangle();
    GLuint tex[3];
    GLuint fb = g.gen_framebuffer();
    g.bind_framebuffer(fb);
    for (int i = 0; i < 3; ++i) {
        tex[i] = g.gen_texture();
        g.bind_texture(GL_TEXTURE_2D, tex[i]);
        g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, nullptr, 0);
        g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        g.framebuffer_texture(GL_COLOR_ATTACHMENT0 + i, tex[i], 0);
    }
    seen.add("complete", g.check_framebuffer());
    g.viewport(0, 0, 32, 32);
    seen.add("default draw buffer 0", g.get_integer(GL_DRAW_BUFFER0));
    seen.add("default draw buffer 1", g.get_integer(GL_DRAW_BUFFER1));
    // Only buffer 0 by default: a clear and a draw leave 1 and 2 alone.
    g.clear_color(0.1f, 0.2f, 0.3f, 0.4f);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.draw_buffers({GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2});
    g.clear_color(0.9f, 0.8f, 0.7f, 0.6f);
    g.clear(GL_COLOR_BUFFER_BIT);  // all three
    g.draw_buffers({GL_COLOR_ATTACHMENT0});
    g.draw_arrays(GL_TRIANGLES, 0, 3);  // outputs 1, 2 go nowhere
    // Then 0 and 2 of a half-surface triangle, 1 masked by GL_NONE.
    g.draw_buffers({GL_COLOR_ATTACHMENT0, GL_NONE, GL_COLOR_ATTACHMENT2});
    seen.add("draw buffer 1 NONE", g.get_integer(GL_DRAW_BUFFER1));
    seen.add("draw buffer 2", g.get_integer(GL_DRAW_BUFFER2));
    const float half[] = {-1, -1, 1, -1, -1, 1};
    g.buffer_data(GL_ARRAY_BUFFER, half, sizeof half);
    g.clear_color(0.0f, 0.0f, 1.0f, 1.0f);
    g.enable(GL_SCISSOR_TEST);
    g.scissor(20, 20, 8, 8);
    g.clear(GL_COLOR_BUFFER_BIT);  // a region of 0 and 2 only
    g.disable(GL_SCISSOR_TEST);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    // Errors: a non-identity mapping, GL_BACK on an FBO, too many.
    g.draw_buffers({GL_COLOR_ATTACHMENT1});
    seen.add("non-identity", g.error());
    g.draw_buffers({GL_BACK});
    seen.add("GL_BACK on an FBO", g.error());
    std::vector<GLenum> too_many(size_t(g.get_integer(GL_MAX_DRAW_BUFFERS)) + 1, GL_NONE);
    g.draw_buffers(too_many);
    seen.add("more than the maximum", g.error());
    for (int i = 0; i < 3; ++i) {
        g.read_buffer(GL_COLOR_ATTACHMENT0 + i);
        std::vector<uint8_t> px = g.read(0, 0, 32, 32);
        seen.pixels.insert(seen.pixels.end(), px.begin(), px.end());
    }
    seen.add("read buffer", g.get_integer(GL_READ_BUFFER));
    // The default framebuffer: GL_NONE draws nothing, GL_BACK again draws.
    g.bind_framebuffer(0);
    g.viewport(0, 0, W, H);
    g.draw_buffers({GL_COLOR_ATTACHMENT0});
    seen.add("attachment on the default framebuffer", g.error());
    g.clear_color(0.3f, 0.3f, 0.3f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.draw_buffers({GL_NONE});
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    g.draw_buffers({GL_BACK});
    seen.add("no error", g.error());
    std::vector<uint8_t> px = g.read(0, 0, W, H);
    seen.pixels.insert(seen.pixels.end(), px.begin(), px.end());
}

// ---- ETC2/EAC compressed textures ------------------------------------------------------------

// Random blocks reach every ETC2 mode (individual, differential, T, H,
// planar; opaque or not with punch-through alpha) and every EAC table.
std::vector<uint8_t> random_blocks(size_t bytes, uint32_t seed) {
    std::vector<uint8_t> v(bytes);
    for (uint8_t& b : v) {
        seed = seed * 1664525u + 1013904223u;
        b = uint8_t(seed >> 24);
    }
    return v;
}

void etc2(GlApi& g, Seen& seen) {
    const char* vs = "attribute vec2 p; varying vec2 uv; void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }";
    const char* fs = "precision highp float; varying vec2 uv; uniform sampler2D t; uniform float sgn;\n"
                     "void main() { vec4 c = texture2D(t, uv); gl_FragColor = mix(c, c * 0.5 + 0.5, sgn); }";
    GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, vs), g.shader(GL_FRAGMENT_SHADER, fs), "p");
    g.use(prog);
    const GLint sgn = g.uniform_location(prog, "sgn");
    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    GLuint b = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, b);
    g.buffer_data(GL_ARRAY_BUFFER, quad, sizeof quad);
    g.attrib(0, 2, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    g.enable(GL_BLEND);  // punch-through alpha shows
    g.blend_func(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    struct F {
        GLenum f;
        size_t block;
        bool is_signed;
    };
    const F formats[] = {{GL_COMPRESSED_RGB8_ETC2, 8, false},
                         {GL_COMPRESSED_SRGB8_ETC2, 8, false},
                         {GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, 8, false},
                         {GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, 8, false},
                         {GL_COMPRESSED_RGBA8_ETC2_EAC, 16, false},
                         {GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, 16, false},
                         {GL_COMPRESSED_R11_EAC, 8, false},
                         {GL_COMPRESSED_SIGNED_R11_EAC, 8, true},
                         {GL_COMPRESSED_RG11_EAC, 16, false},
                         {GL_COMPRESSED_SIGNED_RG11_EAC, 16, true}};
    uint32_t seed = 7;
    for (const F& f : formats) {
        // 30x30: the last blocks are cut at the edge. Nearest filtering on a
        // 60x60 viewport: each texel is 2x2 pixels, sampled at their centers.
        const int w = 30, h = 30;
        const size_t bytes = size_t((w + 3) / 4) * ((h + 3) / 4) * f.block;
        GLuint tex = g.gen_texture();
        g.bind_texture(GL_TEXTURE_2D, tex);
        g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        std::vector<uint8_t> data = random_blocks(bytes, seed++);
        g.compressed_tex_image(GL_TEXTURE_2D, 0, f.f, w, h, data.data(), data.size());
        seen.add("upload error", g.error());
        // A sub-image: two blocks replaced, at a block boundary.
        std::vector<uint8_t> patch = random_blocks(2 * f.block, seed++);
        g.compressed_tex_sub_image(GL_TEXTURE_2D, 0, 8, 4, 8, 4, f.f, patch.data(), patch.size());
        seen.add("sub-image error", g.error());
        g.compressed_tex_sub_image(GL_TEXTURE_2D, 0, 2, 4, 4, 4, f.f, patch.data(), f.block);  // not block-aligned
        seen.add("unaligned sub-image", g.error());
        g.compressed_tex_image(GL_TEXTURE_2D, 0, f.f, w, h, data.data(), data.size() - 1);  // wrong imageSize
        seen.add("wrong size", g.error());
        g.clear_color(0.2f, 0.4f, 0.6f, 1.0f);
        g.clear(GL_COLOR_BUFFER_BIT);
        g.viewport(0, 0, 2 * w, 2 * h);
        g.uniform1f(sgn, f.is_signed ? 1.0f : 0.0f);
        g.draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        std::vector<uint8_t> px = g.read(0, 0, 2 * w, 2 * h);
        seen.pixels.insert(seen.pixels.end(), px.begin(), px.end());
    }
    seen.add("formats listed", g.get_integer(GL_NUM_COMPRESSED_TEXTURE_FORMATS) >= 10);
}

// ---- integer textures, integer render targets, integer and instanced attributes ---------------------

void integers(GlApi& g, Seen& seen) {
    const char* vs =
        "#version 300 es\n"
        "layout(location = 0) in vec2 p; layout(location = 1) in ivec4 gi; layout(location = 2) in uvec2 ui;\n"
        "layout(location = 3) in vec4 inst;\n"
        "flat out ivec4 vgi; flat out uvec2 vui; out vec4 vinst;\n"
        "void main() { vgi = gi; vui = ui; vinst = inst;\n"
        "  gl_Position = vec4(p.x * 0.25 + float(gl_InstanceID) * 0.5 - 0.75, p.y, 0.0, 1.0); }";
    const char* fs =
        "#version 300 es\nprecision highp float; precision highp int;\n"
        "uniform highp usampler2D tu; uniform highp isampler2D ti;\n"
        "flat in ivec4 vgi; flat in uvec2 vui; in vec4 vinst;\n"
        "layout(location = 0) out ivec4 o0; layout(location = 1) out uvec4 o1; layout(location = 2) out vec4 o2;\n"
        "void main() { ivec2 c = ivec2(gl_FragCoord.xy) % 4;\n"
        "  o0 = texelFetch(ti, c, 0) + vgi; o1 = texelFetch(tu, c, 0) + uvec4(vui, 7u, 9u); o2 = vinst; }";
    GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, vs), g.shader(GL_FRAGMENT_SHADER, fs), "p");
    seen.add("linked", prog != 0);
    g.use(prog);
    g.uniform1i(g.uniform_location(prog, "ti"), 0);
    g.uniform1i(g.uniform_location(prog, "tu"), 1);
    // Integer textures: signed 32-bit with negative values, unsigned 8-bit.
    GLint ti_data[4 * 4 * 4];
    uint8_t tu_data[4 * 4 * 4];
    for (int i = 0; i < 64; ++i) ti_data[i] = (i * 7919) % 2001 - 1000, tu_data[i] = uint8_t(i * 37);
    GLuint ti = g.gen_texture(), tu = g.gen_texture();
    g.active_texture(GL_TEXTURE0);
    g.bind_texture(GL_TEXTURE_2D, ti);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA32I, 4, 4, GL_RGBA_INTEGER, GL_INT, ti_data, sizeof ti_data);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    g.active_texture(GL_TEXTURE1);
    g.bind_texture(GL_TEXTURE_2D, tu);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA8UI, 4, 4, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, tu_data, sizeof tu_data);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    seen.add("textures", g.error());
    // Integer render targets (and a normalized one) in one framebuffer.
    GLuint fb = g.gen_framebuffer();
    g.bind_framebuffer(fb);
    const GLenum ifmt[3] = {GL_RGBA32I, GL_RGBA8UI, GL_RGBA8};
    const GLenum cfmt[3] = {GL_RGBA_INTEGER, GL_RGBA_INTEGER, GL_RGBA};
    const GLenum ctype[3] = {GL_INT, GL_UNSIGNED_BYTE, GL_UNSIGNED_BYTE};
    for (int i = 0; i < 3; ++i) {
        GLuint t = g.gen_texture();
        g.active_texture(GL_TEXTURE2);
        g.bind_texture(GL_TEXTURE_2D, t);
        g.tex_image(GL_TEXTURE_2D, 0, GLint(ifmt[i]), 16, 16, cfmt[i], ctype[i], nullptr, 0);
        g.framebuffer_texture(GL_COLOR_ATTACHMENT0 + i, t, 0);
    }
    g.active_texture(GL_TEXTURE0);
    seen.add("complete", g.check_framebuffer());
    g.draw_buffers({GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2});
    g.viewport(0, 0, 16, 16);
    g.clear_buffer_iv(GL_COLOR, 0, {-1, -2, -3, -4});
    g.clear_buffer_uiv(GL_COLOR, 1, {1, 2, 3, 4});
    g.clear_buffer_fv(GL_COLOR, 2, {0.25f, 0.5f, 0.75f, 1.0f});
    seen.add("clears", g.error());
    // Attributes: p (float array), gi (integer generic value), ui (integer
    // array of unsigned shorts), inst (per instance, divisor 2).
    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    const uint16_t uis[] = {1, 2, 3, 4, 5, 6, 60000, 8};
    const float inst[] = {1, 0, 0, 1, 0, 1, 0, 1};
    GLuint bq = g.gen_buffer(), bu = g.gen_buffer(), bi = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, bq);
    g.buffer_data(GL_ARRAY_BUFFER, quad, sizeof quad);
    g.attrib(0, 2, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    g.vertex_attrib_i4i(1, -5, 6, -7, 100000);
    g.bind_buffer(GL_ARRAY_BUFFER, bu);
    g.buffer_data(GL_ARRAY_BUFFER, uis, sizeof uis);
    g.attrib_i(2, 2, GL_UNSIGNED_SHORT, 0, 0);
    g.enable_attrib(2);
    g.bind_buffer(GL_ARRAY_BUFFER, bi);
    g.buffer_data(GL_ARRAY_BUFFER, inst, sizeof inst);
    g.attrib(3, 4, GL_FLOAT, false, 0, 0);
    g.enable_attrib(3);
    g.divisor(3, 2);
    g.draw_arrays_instanced(GL_TRIANGLE_STRIP, 0, 4, 4);
    seen.add("draw", g.error());
    // What glGetVertexAttrib* answer (the client shadows array state; the server answers as well).
    g.vertex_attrib4f(5, 0.5f, -1.5f, 2.25f, 3.0f);
    auto add4 = [&](const char* name, std::array<uint32_t, 4> v) {
        for (int i = 0; i < 4; ++i) seen.add(std::string(name) + "[" + std::to_string(i) + "]", int64_t(v[size_t(i)]));
    };
    add4("current I4i (Iiv)", g.vertex_attrib(1, GL_CURRENT_VERTEX_ATTRIB, 'I'));
    add4("current 4f (fv)", g.vertex_attrib(5, GL_CURRENT_VERTEX_ATTRIB, 'f'));
    add4("current 4f (iv)", g.vertex_attrib(5, GL_CURRENT_VERTEX_ATTRIB, 'i'));
    seen.add("divisor", g.vertex_attrib(3, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, 'i')[0]);
    seen.add("integer", g.vertex_attrib(2, GL_VERTEX_ATTRIB_ARRAY_INTEGER, 'i')[0]);
    seen.add("type", g.vertex_attrib(2, GL_VERTEX_ATTRIB_ARRAY_TYPE, 'i')[0]);
    seen.add("enabled", g.vertex_attrib(1, GL_VERTEX_ATTRIB_ARRAY_ENABLED, 'i')[0]);
    seen.add("attrib queries", g.error());
    const GLenum rtype[3] = {GL_INT, GL_UNSIGNED_INT, GL_UNSIGNED_BYTE};
    for (int i = 0; i < 3; ++i) {
        g.read_buffer(GL_COLOR_ATTACHMENT0 + i);
        std::vector<uint8_t> px = g.read_as(0, 0, 16, 16, cfmt[i], rtype[i], 16 * 16 * (i < 2 ? 16 : 4));
        seen.pixels.insert(seen.pixels.end(), px.begin(), px.end());
    }
    g.read_buffer(GL_COLOR_ATTACHMENT0);
    g.read_as(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 4);
    seen.add("normalized read of an integer buffer", g.error());
    g.read_as(0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16);
    seen.add("unsigned read of a signed buffer", g.error());
}

// ---- texture swizzles ---------------------------------------------------------------------

void swizzles(GlApi& g, Seen& seen) {
    const char* vs = "attribute vec2 p; varying vec2 uv; void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }";
    const char* fs = "precision mediump float; varying vec2 uv; uniform sampler2D t; void main() { gl_FragColor = texture2D(t, uv); }";
    GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, vs), g.shader(GL_FRAGMENT_SHADER, fs), "p");
    g.use(prog);
    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    GLuint b = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, b);
    g.buffer_data(GL_ARRAY_BUFFER, quad, sizeof quad);
    g.attrib(0, 2, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    uint8_t rgba[4 * 4 * 4], lum[4 * 4];
    for (int i = 0; i < 64; ++i) rgba[i] = uint8_t(i * 41 + 3);
    for (int i = 0; i < 16; ++i) lum[i] = uint8_t(i * 16 + 5);
    struct Case {
        GLenum ifmt, fmt;
        const uint8_t* data;
        size_t bytes;
        GLenum sw[4];
    };
    const Case cases[] = {{GL_RGBA, GL_RGBA, rgba, sizeof rgba, {GL_BLUE, GL_ZERO, GL_RED, GL_ONE}},
                          {GL_RGBA, GL_RGBA, rgba, sizeof rgba, {GL_ALPHA, GL_ALPHA, GL_GREEN, GL_RED}},
                          {GL_LUMINANCE, GL_LUMINANCE, lum, sizeof lum, {GL_ONE, GL_ALPHA, GL_GREEN, GL_RED}},
                          {GL_RGBA, GL_RGBA, rgba, sizeof rgba, {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA}}};
    int x = 0;
    g.pixel_store(GL_UNPACK_ALIGNMENT, 1);
    for (const Case& c : cases) {
        GLuint t = g.gen_texture();
        g.bind_texture(GL_TEXTURE_2D, t);
        g.tex_image(GL_TEXTURE_2D, 0, GLint(c.ifmt), 4, 4, c.fmt, GL_UNSIGNED_BYTE, c.data, c.bytes);
        g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        for (int k = 0; k < 4; ++k) g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R + k, GLint(c.sw[k]));
        g.viewport(x, 0, 16, 16);
        g.draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        x += 16;
    }
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_G, GL_BLUE + 1000);
    seen.add("bad swizzle", g.error());
    seen.add("no error", g.error());
    seen.pixels = g.read(0, 0, 64, 16);
}

}  // namespace

TEST_CASE("integer textures and render targets, glClearBuffer, integer and instanced attributes: as native GL") {
    BothSeen r = observe_both(integers);
    check_same_values(r);
    size_t diff = 0, first = SIZE_MAX;
    for (size_t i = 0; i < std::min(r.magma.pixels.size(), r.native.pixels.size()); ++i)
        if (r.magma.pixels[i] != r.native.pixels[i]) first = std::min(first, i), ++diff;
    INFO("differing bytes ", diff, ", first at byte ", first);
    if (first != SIZE_MAX && first + 16 <= r.native.pixels.size() && first < 16 * 16 * 32) {
        int32_t a[4], b[4];
        std::memcpy(a, &r.magma.pixels[first / 16 * 16], 16);
        std::memcpy(b, &r.native.pixels[first / 16 * 16], 16);
        INFO("magma ", a[0], " ", a[1], " ", a[2], " ", a[3], " native ", b[0], " ", b[1], " ", b[2], " ", b[3]);
        CHECK(diff == 0);
    }
    CHECK(r.magma.pixels == r.native.pixels);
    REQUIRE(r.native.pixels.size() == 16 * 16 * (16 + 16 + 4));
}

// Not compared with native: llvmpipe answers the alpha of an incomplete
// integer texture with the bits of 1.0f (1065353216) on some pixels, where
// GL ES 3.0 says (0, 0, 0, 1).
TEST_CASE("an incomplete integer texture samples as (0, 0, 0, 1)") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start(1, 1, 8, 8);
    WireGl g(wire);
    const char* vs = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
    const char* fs = "#version 300 es\nprecision highp float; uniform highp isampler2D t; uniform highp usampler2D u;\n"
                     "layout(location = 0) out ivec4 o; layout(location = 1) out uvec4 o1;\n"
                     "void main() { o = texelFetch(t, ivec2(0), 0); o1 = texelFetch(u, ivec2(0), 0); }";
    GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, vs), g.shader(GL_FRAGMENT_SHADER, fs), "p");
    REQUIRE(prog);
    g.use(prog);
    g.uniform1i(g.uniform_location(prog, "t"), 0);
    g.uniform1i(g.uniform_location(prog, "u"), 1);
    const GLint data[4] = {5, 6, 7, 8};
    GLuint t = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, t);  // default filters: mipmapped linear, incomplete for an integer texture
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA32I, 1, 1, GL_RGBA_INTEGER, GL_INT, data, sizeof data);
    // Unit 1: no texture at all (an unsigned sampler).
    GLuint fb = g.gen_framebuffer();
    g.bind_framebuffer(fb);
    GLuint targets[2];
    const GLenum ifmt[2] = {GL_RGBA32I, GL_RGBA32UI}, type[2] = {GL_INT, GL_UNSIGNED_INT};
    for (int i = 0; i < 2; ++i) {
        targets[i] = g.gen_texture();
        g.active_texture(GL_TEXTURE2);
        g.bind_texture(GL_TEXTURE_2D, targets[i]);
        g.tex_image(GL_TEXTURE_2D, 0, GLint(ifmt[i]), 8, 8, GL_RGBA_INTEGER, type[i], nullptr, 0);
        g.framebuffer_texture(GL_COLOR_ATTACHMENT0 + i, targets[i], 0);
    }
    g.active_texture(GL_TEXTURE0);
    g.draw_buffers({GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1});
    g.fullscreen_triangle();
    g.viewport(0, 0, 8, 8);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    for (int i = 0; i < 2; ++i) {
        g.read_buffer(GL_COLOR_ATTACHMENT0 + i);
        std::vector<uint8_t> px = g.read_as(3, 3, 1, 1, GL_RGBA_INTEGER, type[i], 16);
        REQUIRE(px.size() == 16);
        int32_t v[4];
        std::memcpy(v, px.data(), 16);
        CHECK(v[0] == 0);
        CHECK(v[1] == 0);
        CHECK(v[2] == 0);
        CHECK(v[3] == 1);
    }
    CHECK(g.error() == GL_NO_ERROR);
}

TEST_CASE("texture swizzles: as native GL") {
    BothSeen r = observe_both(swizzles);
    check_same_values(r);
    CHECK(r.magma.pixels == r.native.pixels);
}

TEST_CASE("ETC2/EAC compressed textures (decoded on upload): every format as native GL") {
    BothSeen r = observe_both(etc2);
    check_same_values(r);
    REQUIRE(r.magma.pixels.size() == r.native.pixels.size());
    const size_t per = 60 * 60 * 4;
    for (size_t f = 0; f * per < r.native.pixels.size(); ++f) {
        std::vector<uint8_t> a(r.magma.pixels.begin() + f * per, r.magma.pixels.begin() + (f + 1) * per);
        std::vector<uint8_t> b(r.native.pixels.begin() + f * per, r.native.pixels.begin() + (f + 1) * per);
        // The 8-bit linear formats match exactly. The sRGB formats (1, 3, 5)
        // and the 11-bit ones (6-9, stored as 16-bit normalized) go through
        // the sampler's sRGB and 16-bit conversions, which lavapipe and
        // llvmpipe round differently by at most 1/255 (the decoded texels
        // follow Mesa's decoder; the unorm formats show they are identical).
        const bool exact = f == 0 || f == 2 || f == 4;
        const Diff d = compare(a, b, exact ? 0 : 1);
        INFO("format #", f, ": max channel difference ", d.max_channel, ", pixels differing ", d.pixels_over, " of ", d.pixels);
        CHECK(d.pixels_over == 0);
    }
}

TEST_CASE("glDrawBuffers and multiple render targets: as native GL") {
    BothSeen r = observe_both(mrt);
    check_same_values(r);
    REQUIRE(r.magma.pixels.size() == r.native.pixels.size());
    const Diff d = compare(r.magma.pixels, r.native.pixels, 0);
    INFO("max channel difference ", d.max_channel, ", pixels differing ", d.pixels_over, " of ", d.pixels);
    CHECK(d.pixels_over == 0);
}

TEST_CASE("occlusion queries: results, availability and errors as native GL") {
    BothSeen r = observe_both(occlusion);
    check_same_values(r);
    CHECK(r.magma.pixels == r.native.pixels);
    // Sanity: what native said (the scene does what it claims).
    REQUIRE(r.native.values.size() > 12);
}
