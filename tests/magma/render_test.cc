// The same GLES scenes rendered by Magma (through the wire, on Vulkan) and
// natively on the host GLES (llvmpipe), compared pixel by pixel. lavapipe
// and llvmpipe share a rasterizer, so most scenes must match exactly; the
// documented tolerance (kTolerance per channel, on at most kEdgePixels of
// the pixels) covers filtering and edge rounding where they differ.
#include <doctest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "gl_api.h"

using namespace magma_test;

namespace {

constexpr int W = 64, H = 64;
constexpr int kTolerance = 2;
constexpr double kEdgePixels = 0.01;

using Scene = std::vector<uint8_t> (*)(GlApi& g);

// Runs a scene both ways; checks GL errors and Magma's log.
struct Both {
    std::vector<uint8_t> magma, native;
    std::string log;
    GLenum error = 0;
};
Both render_both(Scene scene, const char* name) {
    Both r;
    {
        Wire wire;
        REQUIRE_MESSAGE(wire.backend, wire.why);
        wire.start(1, 1, W, H);
        WireGl g(wire);
        r.magma = scene(g);
        r.error = wire.error();
        CHECK(wire.decode_failures == 0);
        r.log = wire.log_without_device();
    }
    {
        Native n(W, H);
        REQUIRE(n.ok());
        NativeGl g;
        r.native = scene(g);
        CHECK(glGetError() == GL_NO_ERROR);
    }
    dump((std::string(name) + "-magma").c_str(), r.magma, W, H);
    dump((std::string(name) + "-native").c_str(), r.native, W, H);
    return r;
}

void check_close(const Both& r, bool exact) {
    CHECK(r.error == GL_NO_ERROR);
    CHECK_MESSAGE(r.log.empty(), r.log);
    REQUIRE(r.magma.size() == r.native.size());
    const Diff d = compare(r.magma, r.native, exact ? 0 : kTolerance);
    INFO("max channel difference ", d.max_channel, ", pixels over tolerance ", d.pixels_over, " of ", d.pixels);
    if (exact) CHECK(d.pixels_over == 0);
    else CHECK(double(d.pixels_over) <= kEdgePixels * double(d.pixels));
    // Not a blank image.
    size_t distinct = 0;
    for (size_t i = 4; i < r.native.size(); i += 4) distinct += std::memcmp(&r.native[i], &r.native[i - 4], 4) != 0;
    CHECK(distinct > 10);
}

// ---- scenes ------------------------------------------------------------------------

std::vector<uint8_t> clears(GlApi& g) {
    g.clear_color(0.25f, 0.5f, 0.75f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    g.enable(GL_SCISSOR_TEST);
    g.scissor(8, 4, 20, 30);
    g.clear_color(1.0f, 0.0f, 0.0f, 0.5f);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.scissor(40, 40, 100, 100);  // partly outside the surface
    g.clear_color(0.0f, 1.0f, 0.0f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.disable(GL_SCISSOR_TEST);
    return g.read(0, 0, W, H);
}

const char* kVs100 = R"(
attribute vec2 a_pos;
attribute vec4 a_color;
uniform mat4 u_mvp;
varying vec4 v_color;
void main() { v_color = a_color; gl_Position = u_mvp * vec4(a_pos, 0.0, 1.0); }
)";
const char* kFs100 = R"(
precision mediump float;
varying vec4 v_color;
uniform vec4 u_tint;
void main() { gl_FragColor = v_color * u_tint; }
)";

std::vector<uint8_t> triangles(GlApi& g) {
    g.viewport(0, 0, W, H);
    g.clear_color(0.1f, 0.1f, 0.1f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT);
    GLuint vs = g.shader(GL_VERTEX_SHADER, kVs100), fs = g.shader(GL_FRAGMENT_SHADER, kFs100);
    REQUIRE(vs);
    REQUIRE(fs);
    GLuint p = g.program(vs, fs, "a_pos");
    REQUIRE(p);
    CHECK(g.attrib_location(p, "a_pos") == 0);
    const GLint color = g.attrib_location(p, "a_color");
    REQUIRE(color >= 0);
    // pos.xy, then color as normalized bytes in a second buffer.
    const float pos[] = {-0.9f, -0.9f, 0.9f, -0.9f, 0.0f, 0.9f,   -0.9f, 0.3f, -0.3f, 0.3f, -0.9f, 0.9f, -0.3f, 0.9f};
    const uint8_t col[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                           255, 255, 0, 255, 0, 255, 255, 255, 255, 0, 255, 255, 255, 255, 255, 255};
    GLuint vb = g.gen_buffer(), cb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vb);
    g.buffer_data(GL_ARRAY_BUFFER, pos, sizeof pos);
    g.attrib(0, 2, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    g.bind_buffer(GL_ARRAY_BUFFER, cb);
    g.buffer_data(GL_ARRAY_BUFFER, col, sizeof col);
    g.attrib(GLuint(color), 4, GL_UNSIGNED_BYTE, true, 0, 0);
    g.enable_attrib(GLuint(color));
    g.use(p);
    const float ident[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    g.uniform_matrix4(g.uniform_location(p, "u_mvp"), ident);
    g.uniform4f(g.uniform_location(p, "u_tint"), 1.0f, 1.0f, 1.0f, 1.0f);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    // A strip through an element buffer, moved and tinted.
    const uint16_t idx[] = {3, 4, 5, 6};
    GLuint ib = g.gen_buffer();
    g.bind_buffer(GL_ELEMENT_ARRAY_BUFFER, ib);
    g.buffer_data(GL_ELEMENT_ARRAY_BUFFER, idx, sizeof idx);
    const float moved[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1.1f, -0.2f, 0, 1};
    g.uniform_matrix4(g.uniform_location(p, "u_mvp"), moved);
    g.uniform4f(g.uniform_location(p, "u_tint"), 0.5f, 1.0f, 0.75f, 1.0f);
    g.draw_elements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_SHORT, 0);
    // Byte indices from client memory, with a constant color attribute.
    g.bind_buffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    g.uniform_matrix4(g.uniform_location(p, "u_mvp"), ident);
    const uint8_t bidx[] = {3, 5, 4};
    g.draw_elements_client(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, bidx, sizeof bidx);
    return g.read(0, 0, W, H);
}

const char* kVs300 = R"(#version 300 es
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec2 a_uv;
out vec2 v_uv;
void main() { v_uv = a_uv; gl_Position = vec4(a_pos, 1.0); }
)";
const char* kFs300 = R"(#version 300 es
precision mediump float;
uniform sampler2D u_tex;
uniform vec4 u_tint;
in vec2 v_uv;
out vec4 o_color;
void main() { o_color = texture(u_tex, v_uv) * u_tint; }
)";

// Textures (RGB with alignment 1, RGBA with mipmaps), depth test, blending, culling.
std::vector<uint8_t> textured(GlApi& g) {
    g.viewport(0, 0, W, H);
    g.clear_color(0.2f, 0.3f, 0.4f, 1.0f);
    g.clear_depth(1.0f);
    g.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    GLuint p = g.program(g.shader(GL_VERTEX_SHADER, kVs300), g.shader(GL_FRAGMENT_SHADER, kFs300), nullptr);
    REQUIRE(p);
    // Two quads: near one (z=-0.5) drawn second with depth LESS; the far one
    // (z=0.5) drawn last blended must not show where the near one is.
    const float quads[] = {
        -0.8f, -0.8f, 0.5f, 0, 0,   0.6f, -0.8f, 0.5f, 1, 0,   -0.8f, 0.6f, 0.5f, 0, 1,   0.6f, 0.6f, 0.5f, 1, 1,
        -0.4f, -0.4f, -0.5f, 0, 0,  0.9f, -0.4f, -0.5f, 1, 0,  -0.4f, 0.9f, -0.5f, 0, 1,  0.9f, 0.9f, -0.5f, 1, 1,
        -1.0f, -1.0f, 0.8f, 0, 0,   1.0f, -1.0f, 0.8f, 4, 0,   -1.0f, 1.0f, 0.8f, 0, 4,   1.0f, 1.0f, 0.8f, 4, 4,
        // clockwise: culled
        -1.0f, -1.0f, -0.9f, 0, 0,  -1.0f, 1.0f, -0.9f, 0, 1,  1.0f, -1.0f, -0.9f, 1, 0,
    };
    GLuint vb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vb);
    g.buffer_data(GL_ARRAY_BUFFER, quads, sizeof quads);
    g.attrib(0, 3, GL_FLOAT, false, 20, 0);
    g.attrib(1, 2, GL_FLOAT, false, 20, 12);
    g.enable_attrib(0);
    g.enable_attrib(1);
    // 3x3 RGB texture with 9-byte rows.
    const uint8_t rgb[27] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 0, 255,
                             40, 80, 120, 200, 100, 50, 10, 250, 90};
    GLuint t1 = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, t1);
    g.pixel_store(GL_UNPACK_ALIGNMENT, 1);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGB, 3, 3, GL_RGB, GL_UNSIGNED_BYTE, rgb, sizeof rgb);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    // 16x16 checker RGBA, mipmapped, repeated 4x over the background quad.
    std::vector<uint8_t> checker(16 * 16 * 4);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) {
            uint8_t* t = &checker[size_t(y * 16 + x) * 4];
            const bool on = ((x / 4) + (y / 4)) & 1;
            t[0] = on ? 250 : 20, t[1] = uint8_t(x * 16), t[2] = uint8_t(y * 16), t[3] = 255;
        }
    GLuint t2 = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, t2);
    g.pixel_store(GL_UNPACK_ALIGNMENT, 4);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, checker.data(), checker.size());
    g.generate_mipmap(GL_TEXTURE_2D);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    g.use(p);
    const GLint tint = g.uniform_location(p, "u_tint");
    g.uniform1i(g.uniform_location(p, "u_tex"), 0);
    g.enable(GL_DEPTH_TEST);
    g.depth_func(GL_LESS);
    g.enable(GL_CULL_FACE);
    g.cull_face(GL_BACK);
    // background: mipmapped checker
    g.uniform4f(tint, 1, 1, 1, 1);
    g.draw_arrays(GL_TRIANGLE_STRIP, 8, 4);
    g.bind_texture(GL_TEXTURE_2D, t1);
    g.draw_arrays(GL_TRIANGLE_STRIP, 4, 4);  // near
    g.enable(GL_BLEND);
    g.blend_func(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    g.uniform4f(tint, 1.0f, 0.8f, 0.6f, 0.5f);
    g.draw_arrays(GL_TRIANGLE_STRIP, 0, 4);  // far, blended, behind the near one
    g.draw_arrays(GL_TRIANGLES, 12, 3);      // back-facing: culled
    g.disable(GL_BLEND);
    g.disable(GL_DEPTH_TEST);
    g.disable(GL_CULL_FACE);
    return g.read(0, 0, W, H);
}

// Render to a texture (with a depth renderbuffer), then draw it on the surface.
std::vector<uint8_t> render_to_texture(GlApi& g) {
    GLuint p = g.program(g.shader(GL_VERTEX_SHADER, kVs300), g.shader(GL_FRAGMENT_SHADER, kFs300), nullptr);
    REQUIRE(p);
    GLuint tex = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, tex);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, nullptr, 0);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLuint fb = g.gen_framebuffer();
    g.bind_framebuffer(fb);
    g.framebuffer_texture(GL_COLOR_ATTACHMENT0, tex, 0);
    GLuint rb = g.gen_renderbuffer();
    g.renderbuffer_storage(rb, GL_DEPTH_COMPONENT16, 32, 32);
    g.framebuffer_renderbuffer(GL_DEPTH_ATTACHMENT, rb);
    CHECK(g.check_framebuffer() == GL_FRAMEBUFFER_COMPLETE);
    g.viewport(0, 0, 32, 32);
    g.clear_color(0.0f, 0.5f, 0.0f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // A white triangle (via a 1x1 white texture) into the texture.
    GLuint white = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, white);
    const uint8_t px[4] = {255, 255, 255, 255};
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px, 4);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    const float tri[] = {-1, -1, 0, 0, 0,  1, -1, 0, 1, 0,  -1, 1, 0, 0, 1,
                         -1, -1, 0, 0, 0,  1, -1, 0, 1, 0,  -1, 1, 0, 0, 1,  1, 1, 0, 1, 1};
    GLuint vb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vb);
    g.buffer_data(GL_ARRAY_BUFFER, tri, sizeof tri);
    g.attrib(0, 3, GL_FLOAT, false, 20, 0);
    g.attrib(1, 2, GL_FLOAT, false, 20, 12);
    g.enable_attrib(0);
    g.enable_attrib(1);
    g.use(p);
    g.uniform1i(g.uniform_location(p, "u_tex"), 0);
    g.uniform4f(g.uniform_location(p, "u_tint"), 1.0f, 0.5f, 0.25f, 1.0f);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    auto inner = g.read(0, 0, 32, 32);
    // Back to the surface: the texture on a full-screen quad.
    g.bind_framebuffer(0);
    g.viewport(0, 0, W, H);
    g.clear_color(0.3f, 0.0f, 0.3f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.bind_texture(GL_TEXTURE_2D, tex);
    g.uniform4f(g.uniform_location(p, "u_tint"), 1, 1, 1, 1);
    // Quad covering the lower-left 3/4.
    const float quad[] = {-1, -1, 0, 0, 0,  0.5f, -1, 0, 1, 0,  -1, 0.5f, 0, 0, 1,  0.5f, 0.5f, 0, 1, 1};
    g.buffer_sub_data(GL_ARRAY_BUFFER, 0, quad, sizeof quad);
    g.draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
    auto out = g.read(0, 0, W, H);
    // The inner image's corners: the triangle and the clear color.
    CHECK(inner[0] == 255);
    CHECK(inner[(31 * 32 + 31) * 4 + 1] == 128);
    return out;
}


// glmark2 terrain's simplex noise (Ashima Arts, MIT), as the trace carries it:
// long float chains that overflow if mediump were computed in 16 bits.
const char* kNoiseVs = R"(
uniform vec2 uvOffset;
uniform mediump vec2 uvScale;
attribute vec3 position;
varying vec2 vUv;
void main()
{
    vUv = uvScale * (position.xy * 0.5 + 0.5) + uvOffset;
    gl_Position = vec4( position, 1.0);
}
)";
const char* kNoiseFs = R"NOISE(#if defined(GL_ES) && defined(GL_FRAGMENT_PRECISION_HIGH)
#define HIGHP_OR_DEFAULT highp
#else
#define HIGHP_OR_DEFAULT
#endif
#if defined(GL_ES)
#define MEDIUMP_OR_DEFAULT mediump
#else
#define MEDIUMP_OR_DEFAULT
#endif
#ifdef GL_ES
precision mediump float;
#endif
//
// Description : Array and textureless GLSL 3D simplex noise function.
//      Author : Ian McEwan, Ashima Arts.
//  Maintainer : ijm
//     Lastmod : 20110409 (stegu)
//     License : Copyright (C) 2011 Ashima Arts. All rights reserved.
//               Distributed under the MIT License. See LICENSE file.
//

uniform float time;
uniform MEDIUMP_OR_DEFAULT vec2 uvScale;
varying vec2 vUv;

// x should be passed as highp since the intermediate multiplications can
// overflow with mediump
vec4 permute(HIGHP_OR_DEFAULT vec4 x)
{
    return mod(((x * 34.0) + 1.0) * x, 289.0);
}

vec4 taylorInvSqrt(vec4 r)
{
    return 1.79284291400159 - 0.85373472095314 * r;
}

float snoise(vec3 v)
{
    const vec2 C = vec2(1.0 / 6.0, 1.0 / 3.0);
    const vec4 D = vec4(0.0, 0.5, 1.0, 2.0);

    // First corner
    vec3 i  = floor(v + dot(v, C.yyy));
    vec3 x0 = v - i + dot(i, C.xxx);

    // Other corners
    vec3 g = step(x0.yzx, x0.xyz);
    vec3 l = 1.0 - g;
    vec3 i1 = min(g.xyz, l.zxy);
    vec3 i2 = max(g.xyz, l.zxy);

    vec3 x1 = x0 - i1 + 1.0 * C.xxx;
    vec3 x2 = x0 - i2 + 2.0 * C.xxx;
    vec3 x3 = x0 - 1. + 3.0 * C.xxx;

    // Permutations
    i = mod(i, 289.0);
    vec4 p = permute(permute(permute(
                    i.z + vec4(0.0, i1.z, i2.z, 1.0))
                + i.y + vec4(0.0, i1.y, i2.y, 1.0))
            + i.x + vec4(0.0, i1.x, i2.x, 1.0));

    // Gradients
    // (N*N points uniformly over a square, mapped onto an octahedron.)

    float n_ = 1.0 / 7.0; // N=7

    vec3 ns = n_ * D.wyz - D.xzx;

    vec4 j = p - 49.0 * floor(p * ns.z *ns.z);  //  mod(p,N*N)

    vec4 x_ = floor(j * ns.z);
    vec4 y_ = floor(j - 7.0 * x_);    // mod(j,N)

    vec4 x = x_ *ns.x + ns.yyyy;
    vec4 y = y_ *ns.x + ns.yyyy;
    vec4 h = 1.0 - abs(x) - abs(y);

    vec4 b0 = vec4(x.xy, y.xy);
    vec4 b1 = vec4(x.zw, y.zw);


    vec4 s0 = floor(b0) * 2.0 + 1.0;
    vec4 s1 = floor(b1) * 2.0 + 1.0;
    vec4 sh = -step(h, vec4(0.0));

    vec4 a0 = b0.xzyw + s0.xzyw * sh.xxyy;
    vec4 a1 = b1.xzyw + s1.xzyw * sh.zzww;

    vec3 p0 = vec3(a0.xy, h.x);
    vec3 p1 = vec3(a0.zw, h.y);
    vec3 p2 = vec3(a1.xy, h.z);
    vec3 p3 = vec3(a1.zw, h.w);

    // Normalise gradients

    vec4 norm = taylorInvSqrt(vec4(dot(p0, p0), dot(p1, p1), dot(p2, p2), dot(p3, p3)));
    p0 *= norm.x;
    p1 *= norm.y;
    p2 *= norm.z;
    p3 *= norm.w;

    // Mix final noise value

    vec4 m = max(0.6 - vec4(dot(x0, x0), dot(x1, x1), dot(x2, x2), dot(x3, x3)), 0.0);
    m = m * m;
    return 42.0 * dot(m*m, vec4(dot(p0, x0), dot(p1, x1),
                dot(p2, x2), dot(p3, x3)));
}

float surface3(vec3 coord)
{
    float n = 0.0;

    n += 1.0 * abs(snoise(coord));
    n += 0.5 * abs(snoise(coord * 2.0));
    n += 0.25 * abs(snoise(coord * 4.0));
    n += 0.125 * abs(snoise(coord * 8.0));

    return n;
}

void main(void)
{
    vec3 coord = vec3(vUv.x, uvScale.y - vUv.y, -time);
    float n = surface3(coord);

    gl_FragColor = vec4(vec3(n, n, n), 1.0);
}


)NOISE";

std::vector<uint8_t> noise(GlApi& g) {
    g.viewport(0, 0, W, H);
    std::string fs = kNoiseFs;
    if (const char* f = std::getenv("MAGMA_NOISE_FS")) {  // experiments: another fragment shader
        std::ifstream in(f);
        fs.assign(std::istreambuf_iterator<char>(in), {});
    }
    GLuint p = g.program(g.shader(GL_VERTEX_SHADER, kNoiseVs), g.shader(GL_FRAGMENT_SHADER, fs.c_str()), "position");
    REQUIRE(p);
    const float quad[] = {-1, -1, 0, 1, -1, 0, -1, 1, 0, 1, 1, 0};
    GLuint vb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vb);
    g.buffer_data(GL_ARRAY_BUFFER, quad, sizeof quad);
    g.attrib(0, 3, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    g.use(p);
    g.uniform1f(g.uniform_location(p, "time"), 1.0f);
    const GLint scale = g.uniform_location(p, "uvScale"), offset = g.uniform_location(p, "uvOffset");
    REQUIRE(scale >= 0);
    REQUIRE(offset >= 0);
    g.uniform4f(-1, 0, 0, 0, 0);  // location -1 is ignored silently
    g.uniform2f(scale, 1.5f, 1.5f);
    g.uniform2f(offset, 0.0f, 0.0f);
    g.draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
    return g.read(0, 0, W, H);
}

// Render into a texture FBO, then blit it onto the surface: scaled, mirrored, filtered.
std::vector<uint8_t> blits(GlApi& g) {
    GLuint tex = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, tex);
    g.tex_image(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, nullptr, 0);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    GLuint fb = g.gen_framebuffer();
    g.bind_framebuffer(fb);
    g.framebuffer_texture(GL_COLOR_ATTACHMENT0, tex, 0);
    g.enable(GL_SCISSOR_TEST);
    const float colors[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}};
    for (int i = 0; i < 4; ++i) {
        g.scissor((i & 1) * 8, (i >> 1) * 8, 8, 8);
        g.clear_color(colors[i][0], colors[i][1], colors[i][2], 1);
        g.clear(GL_COLOR_BUFFER_BIT);
    }
    g.disable(GL_SCISSOR_TEST);
    g.bind_framebuffer(0);
    g.clear_color(0.1f, 0.1f, 0.1f, 1);
    g.clear(GL_COLOR_BUFFER_BIT);
    g.bind_read_framebuffer(fb);
    g.blit(0, 0, 16, 16, 4, 4, 36, 36, GL_NEAREST);     // 2x
    g.blit(0, 0, 16, 16, 60, 40, 40, 60, GL_NEAREST);   // mirrored in x
    g.blit(2, 2, 14, 14, 8, 40, 32, 62, GL_LINEAR);     // filtered
    g.bind_read_framebuffer(0);
    return g.read(0, 0, W, H);
}

// Copies from the surface into textures (glCopyTexImage2D, glCopyTexSubImage2D), drawn back.
std::vector<uint8_t> copies(GlApi& g) {
    g.viewport(0, 0, W, H);
    g.enable(GL_SCISSOR_TEST);
    const float colors[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}};
    for (int i = 0; i < 4; ++i) {
        g.scissor((i & 1) * 32, (i >> 1) * 32, 32, 32);
        g.clear_color(colors[i][0], colors[i][1], colors[i][2], 1);
        g.clear(GL_COLOR_BUFFER_BIT);
    }
    g.disable(GL_SCISSOR_TEST);
    GLuint tex = g.gen_texture();
    g.bind_texture(GL_TEXTURE_2D, tex);
    g.copy_tex_image(GL_RGBA, 16, 16, 32, 32);               // the four quadrants' corners
    g.copy_tex_sub_image(0, 0, 0, 0, 8, 8);                  // red into its lower-left
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    g.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLuint p = g.program(g.shader(GL_VERTEX_SHADER, kVs300), g.shader(GL_FRAGMENT_SHADER, kFs300), nullptr);
    REQUIRE(p);
    const float quad[] = {0.1f, 0.1f, 0, 0, 0,  0.9f, 0.1f, 0, 1, 0,  0.1f, 0.9f, 0, 0, 1,  0.9f, 0.9f, 0, 1, 1};
    GLuint vb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vb);
    g.buffer_data(GL_ARRAY_BUFFER, quad, sizeof quad);
    g.attrib(0, 3, GL_FLOAT, false, 20, 0);
    g.attrib(1, 2, GL_FLOAT, false, 20, 12);
    g.enable_attrib(0);
    g.enable_attrib(1);
    g.use(p);
    g.uniform1i(g.uniform_location(p, "u_tex"), 0);
    g.uniform4f(g.uniform_location(p, "u_tint"), 1, 1, 1, 1);
    g.draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
    return g.read(0, 0, W, H);
}

// Partial writes into a large vertex buffer that earlier draws still read:
// each draw must see the bytes as they were when it was issued. 4 MiB (more
// than Magma renames) with the triangles at the start and the end.
constexpr size_t kBigBuffer = 4u << 20;
std::vector<uint8_t> partial_updates(GlApi& g) {
    g.viewport(0, 0, W, H);
    g.clear_color(0.1f, 0.1f, 0.1f, 1.0f);
    g.clear(GL_COLOR_BUFFER_BIT);
    GLuint p = g.program(g.shader(GL_VERTEX_SHADER, kVs100), g.shader(GL_FRAGMENT_SHADER, kFs100), "a_pos");
    REQUIRE(p);
    g.use(p);
    const float ident[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    g.uniform_matrix4(g.uniform_location(p, "u_mvp"), ident);
    const GLint tint = g.uniform_location(p, "u_tint");
    g.vertex_attrib4f(GLuint(g.attrib_location(p, "a_color")), 1, 1, 1, 1);
    std::vector<uint8_t> big(kBigBuffer, 0);
    const float left[] = {-0.9f, -0.9f, -0.1f, -0.9f, -0.5f, 0.0f};
    std::memcpy(big.data(), left, sizeof left);
    GLuint vb = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vb);
    g.buffer_data(GL_ARRAY_BUFFER, big.data(), big.size());
    g.attrib(0, 2, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    g.uniform4f(tint, 1.0f, 0.2f, 0.2f, 1.0f);
    g.draw_arrays(GL_TRIANGLES, 0, 3);  // red, lower left
    // Written after a draw of this batch read it: in order.
    const float right[] = {0.1f, -0.9f, 0.9f, -0.9f, 0.5f, 0.0f};
    g.buffer_sub_data(GL_ARRAY_BUFFER, 0, right, sizeof right);
    g.uniform4f(tint, 0.2f, 1.0f, 0.2f, 1.0f);
    g.draw_arrays(GL_TRIANGLES, 0, 3);  // green, lower right
    g.flush();
    // Written while an earlier batch may still read it; only one vertex moves.
    const float top[] = {-0.5f, 0.9f};
    g.buffer_sub_data(GL_ARRAY_BUFFER, 2 * sizeof(float), top, sizeof top);
    g.uniform4f(tint, 0.2f, 0.2f, 1.0f, 1.0f);
    g.draw_arrays(GL_TRIANGLES, 0, 3);  // blue, reaching up
    // Two writes, then a draw from the end of the buffer.
    const float end1[] = {-0.9f, 0.2f, -0.2f, 0.2f};
    const float end2[] = {-0.6f, 0.9f};
    g.buffer_sub_data(GL_ARRAY_BUFFER, kBigBuffer - 6 * sizeof(float), end1, sizeof end1);
    g.buffer_sub_data(GL_ARRAY_BUFFER, kBigBuffer - 2 * sizeof(float), end2, sizeof end2);
    g.uniform4f(tint, 1.0f, 1.0f, 0.2f, 1.0f);
    g.draw_arrays(GL_TRIANGLES, int(kBigBuffer / 8) - 3, 3);  // yellow, upper left
    return g.read(0, 0, W, H);
}

}  // namespace

TEST_CASE("partial writes into a large buffer the GPU still reads: identical to native") {
    check_close(render_both(partial_updates, "partial-updates"), true);
    // Through Magma, a second time: what those writes cost is the bytes written.
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start(1, 1, W, H);
    WireGl g(wire);
    const magma::Counters before = wire.backend->total_counters();
    partial_updates(g);
    const magma::Counters after = wire.backend->total_counters();
    CHECK(after.buffer_renames == before.buffer_renames);
    // 24 + 16 + 8 bytes written into the open batch's buffer are staged;
    // the 8 written after glFlush are staged only if that batch is still
    // running then (a warm lavapipe device may have finished it): the bytes
    // written, never the buffer.
    const uint64_t copied = after.buffer_copy_bytes - before.buffer_copy_bytes;
    CHECK_MESSAGE((copied == 12 * sizeof(float) || copied == 14 * sizeof(float)), copied);
}

TEST_CASE("glCopyTexImage2D and glCopyTexSubImage2D from the surface: identical to native") {
    check_close(render_both(copies, "copies"), true);
}

TEST_CASE("glBlitFramebuffer from a texture FBO onto the surface: close to native") {
    check_close(render_both(blits, "blits"), false);
}

TEST_CASE("clears, scissored clears: identical to native") {
    check_close(render_both(clears, "clears"), true);
}

TEST_CASE("ES 2.0 shaders, attributes, uniforms, arrays and element draws: identical to native") {
    check_close(render_both(triangles, "triangles"), true);
}

TEST_CASE("ES 3.0 shaders, textures with mipmaps, depth, blending, culling: close to native") {
    check_close(render_both(textured, "textured"), false);
}

TEST_CASE("render to a texture with a depth renderbuffer, then sample it: identical to native") {
    check_close(render_both(render_to_texture, "rtt"), true);
}

// Known difference, kept as a test that documents it: the noise's gradient
// selection compares values that are exactly 0 in exact arithmetic
// (h = 1 - |x| - |y|), so the sign of a rounding error picks the gradient;
// lavapipe (SPIR-V from glslang) and llvmpipe (Mesa's GLSL compiler) round
// differently there, and the whole height map differs (glmark2 terrain).
TEST_CASE("glmark2's simplex noise shader: known to differ from native (rounding at exact zeros)" * doctest::may_fail()) {
    check_close(render_both(noise, "noise"), false);
}
