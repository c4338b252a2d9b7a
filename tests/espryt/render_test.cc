// The same GLES program rendered twice: encoded by the client encoder and
// applied by the Espryt backend, and called natively on the host GLES. On
// llvmpipe the two images must be identical, bit for bit.
#include <doctest.h>

#include <cstdio>
#include <cstdlib>

#include "harness.h"

using namespace espryt_test;

namespace {

const char* kVertex = R"(#version 300 es
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec2 a_uv;
out vec2 v_uv;
void main() { v_uv = a_uv; gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
const char* kFragment = R"(#version 300 es
precision mediump float;
uniform sampler2D u_tex;
uniform vec4 u_tint;
in vec2 v_uv;
out vec4 o_color;
void main() { o_color = texture(u_tex, v_uv) * u_tint; }
)";

// Position + uv, two triangles' worth of vertices.
const float kVertices[] = {-0.9f, -0.9f, 0.0f, 0.0f,  0.9f, -0.9f, 1.0f, 0.0f,  0.0f, 0.9f, 0.5f, 1.0f,
                           -0.8f, 0.2f, 0.0f, 0.0f,  -0.2f, 0.2f, 1.0f, 0.0f,  -0.5f, 0.8f, 0.5f, 1.0f};
const uint16_t kIndices[] = {3, 4, 5};

// A 3x3 RGB texture: rows of 9 bytes, uploaded with UNPACK_ALIGNMENT 1.
const uint8_t kTexels[27] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 0, 255,
                             40, 80, 120, 200, 100, 50, 10, 250, 90};

// The GL calls, once natively...
struct NativeGl {
    GLuint shader(GLenum type, const char* src) {
        GLuint s = glCreateShader(type);
        glShaderSource(s, 1, &src, nullptr);
        glCompileShader(s);
        GLint ok = 0;
        glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
        return ok ? s : 0;
    }
    GLuint program(GLuint vs, GLuint fs) {
        GLuint p = glCreateProgram();
        glAttachShader(p, vs);
        glAttachShader(p, fs);
        glLinkProgram(p);
        GLint ok = 0;
        glGetProgramiv(p, GL_LINK_STATUS, &ok);
        return ok ? p : 0;
    }
    GLuint buffer() { GLuint b; glGenBuffers(1, &b); return b; }
    GLuint texture() { GLuint t; glGenTextures(1, &t); return t; }
    void buffer_data(GLenum t, const void* d, size_t n) { glBufferData(t, GLsizeiptr(n), d, GL_STATIC_DRAW); }
    void tex_image(const uint8_t* px) { glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 3, 3, 0, GL_RGB, GL_UNSIGNED_BYTE, px); }
    GLint uniform(GLuint p, const char* n) { return glGetUniformLocation(p, n); }
    void attrib(GLuint i, GLint size, GLsizei stride, size_t offset) {
        glVertexAttribPointer(i, size, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offset));
    }
    void draw_indices(const uint16_t* idx, int n) { glDrawElements(GL_TRIANGLES, n, GL_UNSIGNED_SHORT, idx); }
    std::vector<uint8_t> read(int w, int h) {
        std::vector<uint8_t> px(size_t(w) * h * 4);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        return px;
    }
    void viewport(int w, int h) { glViewport(0, 0, w, h); }
    void clear(float r, float g, float b) { glClearColor(r, g, b, 1.0f); glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT); }
    void bind_buffer(GLenum t, GLuint b) { glBindBuffer(t, b); }
    void bind_texture(GLuint t) { glBindTexture(GL_TEXTURE_2D, t); }
    void tex_parameter(GLenum p, GLint v) { glTexParameteri(GL_TEXTURE_2D, p, v); }
    void pixel_store(GLenum p, GLint v) { glPixelStorei(p, v); }
    void use(GLuint p) { glUseProgram(p); }
    void uniform4(GLint l, float a, float b, float c, float d) { glUniform4f(l, a, b, c, d); }
    void uniform1(GLint l, GLint v) { glUniform1i(l, v); }
    void enable_attrib(GLuint i) { glEnableVertexAttribArray(i); }
    void draw(int first, int n) { glDrawArrays(GL_TRIANGLES, first, n); }
    void blend() { glEnable(GL_BLEND); glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA); }
};

// ...and once through the wire: client-minted names, sync verbs waiting
// for their replies.
struct WireGl {
    Wire& w;
    GLuint next = 1000;  // deliberately unlike any host name
    GLuint shader(GLenum type, const char* src) {
        GLuint s = next++;
        w.enc.glCreateShader(type, s);
        std::string blob = strings_blob({src});
        w.enc.glShaderSource(s, 1, wire::Blob{blob.data(), uint32_t(blob.size())});
        w.enc.glCompileShader(s);
        GLint ok = 0;
        w.enc.glGetShaderiv(s, GL_COMPILE_STATUS, sizeof ok);
        gen::read_reply_glGetShaderiv(w.enc.wait_reply(), &ok, sizeof ok);
        return ok ? s : 0;
    }
    GLuint program(GLuint vs, GLuint fs) {
        GLuint p = next++;
        w.enc.glCreateProgram(p);
        w.enc.glAttachShader(p, vs);
        w.enc.glAttachShader(p, fs);
        w.enc.glLinkProgram(p);
        GLint ok = 0;
        w.enc.glGetProgramiv(p, GL_LINK_STATUS, sizeof ok);
        gen::read_reply_glGetProgramiv(w.enc.wait_reply(), &ok, sizeof ok);
        return ok ? p : 0;
    }
    GLuint buffer() { GLuint b = next++; w.enc.glGenBuffers(1, wire::Blob{&b, 4}); return b; }
    GLuint texture() { GLuint t = next++; w.enc.glGenTextures(1, wire::Blob{&t, 4}); return t; }
    void buffer_data(GLenum t, const void* d, size_t n) {
        w.enc.glBufferData(t, GLsizeiptr(n), wire::Blob{d, uint32_t(n)}, GL_STATIC_DRAW);
    }
    void tex_image(const uint8_t* px) {
        w.enc.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 3, 3, 0, GL_RGB, GL_UNSIGNED_BYTE, wire::OffsetOrBlob{0, px, 27});
    }
    GLint uniform(GLuint p, const char* n) {
        w.enc.glGetUniformLocation(p, wire::Blob{n, uint32_t(std::strlen(n) + 1)});
        GLint loc = -2;
        gen::read_reply_glGetUniformLocation(w.enc.wait_reply(), &loc);
        return loc;
    }
    void attrib(GLuint i, GLint size, GLsizei stride, size_t offset) {
        w.enc.glVertexAttribPointer(i, size, GL_FLOAT, GL_FALSE, stride, wire::OffsetOrBlob{offset, nullptr, 0});
    }
    void draw_indices(const uint16_t* idx, int n) {
        w.enc.glDrawElements(GL_TRIANGLES, n, GL_UNSIGNED_SHORT, wire::OffsetOrBlob{0, idx, uint32_t(n * 2)});
    }
    std::vector<uint8_t> read(int wd, int h) { return w.read_pixels(wd, h); }
    void viewport(int wd, int h) { w.enc.glViewport(0, 0, wd, h); }
    void clear(float r, float g, float b) {
        w.enc.glClearColor(r, g, b, 1.0f);
        w.enc.glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }
    void bind_buffer(GLenum t, GLuint b) { w.enc.glBindBuffer(t, b); }
    void bind_texture(GLuint t) { w.enc.glBindTexture(GL_TEXTURE_2D, t); }
    void tex_parameter(GLenum p, GLint v) { w.enc.glTexParameteri(GL_TEXTURE_2D, p, v); }
    void pixel_store(GLenum p, GLint v) { w.enc.glPixelStorei(p, v); }
    void use(GLuint p) { w.enc.glUseProgram(p); }
    void uniform4(GLint l, float a, float b, float c, float d) { w.enc.glUniform4f(l, a, b, c, d); }
    void uniform1(GLint l, GLint v) { w.enc.glUniform1i(l, v); }
    void enable_attrib(GLuint i) { w.enc.glEnableVertexAttribArray(i); }
    void draw(int first, int n) { w.enc.glDrawArrays(GL_TRIANGLES, first, n); }
    void blend() { w.enc.glEnable(GL_BLEND); w.enc.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA); }
};

struct Result {
    bool built = false;
    GLint tint = -1, sampler = -1;
    std::vector<uint8_t> pixels;
};

template <class G>
Result scene(G& g, int w, int h) {
    Result r;
    g.viewport(w, h);
    g.clear(0.1f, 0.2f, 0.3f);
    GLuint vs = g.shader(GL_VERTEX_SHADER, kVertex), fs = g.shader(GL_FRAGMENT_SHADER, kFragment);
    GLuint prog = vs && fs ? g.program(vs, fs) : 0;
    if (!prog) return r;
    r.built = true;
    GLuint vbo = g.buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, vbo);
    g.buffer_data(GL_ARRAY_BUFFER, kVertices, sizeof kVertices);
    GLuint tex = g.texture();
    g.bind_texture(tex);
    g.pixel_store(GL_UNPACK_ALIGNMENT, 1);  // 9-byte rows: the size check must follow it
    g.tex_image(kTexels);
    g.tex_parameter(GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    g.tex_parameter(GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    g.use(prog);
    r.tint = g.uniform(prog, "u_tint");
    r.sampler = g.uniform(prog, "u_tex");
    g.uniform4(r.tint, 1.0f, 0.9f, 0.8f, 0.75f);
    g.uniform1(r.sampler, 0);
    g.attrib(0, 2, 16, 0);
    g.attrib(1, 2, 16, 8);
    g.enable_attrib(0);
    g.enable_attrib(1);
    g.blend();
    g.draw(0, 3);
    g.draw_indices(kIndices, 3);  // client-memory indices, no element buffer
    r.pixels = g.read(w, h);
    return r;
}

}  // namespace

TEST_CASE("a textured draw over the wire matches the native host exactly") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    constexpr int W = 64, H = 64;
    wire.start(1, 1, W, H);
    WireGl wg{wire};
    Result over = scene(wg, W, H);
    CHECK(wire.error() == GL_NO_ERROR);
    std::vector<uint8_t> surface = wire.read_surface(1, W, H);
    REQUIRE(wire.flush().ok());

    Result native;
    {
        Native n(W, H);
        REQUIRE(n.ok());
        NativeGl ng;
        native = scene(ng, W, H);
        CHECK(glGetError() == GL_NO_ERROR);
    }
    REQUIRE(native.built);
    REQUIRE(over.built);
    CHECK(over.tint == native.tint);
    CHECK(over.sampler == native.sampler);
    REQUIRE(over.pixels.size() == native.pixels.size());
    CHECK(over.pixels == native.pixels);
    CHECK(surface == native.pixels);
    // Not a blank image: the clear color and both triangles are there.
    size_t distinct = 0;
    for (size_t i = 4; i < native.pixels.size(); i += 4)
        distinct += std::memcmp(&native.pixels[i], &native.pixels[i - 4], 4) != 0;
    CHECK(distinct > 20);
    CHECK(wire.log_text.str().empty());
    if (const char* dump = std::getenv("ESPRYT_TEST_DUMP")) {  // a PPM to look at
        if (FILE* f = std::fopen(dump, "wb")) {
            std::fprintf(f, "P6 %d %d 255\n", W, H);
            for (int y = H - 1; y >= 0; --y)
                for (int x = 0; x < W; ++x) std::fwrite(&over.pixels[(size_t(y) * W + x) * 4], 1, 3, f);
            std::fclose(f);
        }
    }
}

TEST_CASE("a window surface keeps its swapped frame and presents it") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    std::vector<espryt::Frame> frames;
    std::vector<uint8_t> first_pixel;
    wire.backend->set_present([&](const espryt::Frame& f) {
        frames.push_back(f);
        first_pixel.assign(f.rgba, f.rgba + 4);
    });
    wire.start(1, 7, 16, 8, 0x3034);
    wire.enc.glClearColor(1, 0, 0, 1);
    wire.enc.glClear(GL_COLOR_BUFFER_BIT);
    wire.enc.mglSwapBuffers(7, 1);
    wire.enc.glClearColor(0, 1, 0, 1);  // the next frame, not yet swapped
    wire.enc.glClear(GL_COLOR_BUFFER_BIT);
    auto px = wire.read_surface(7, 16, 8);
    REQUIRE(px.size() == 16 * 8 * 4);
    CHECK(px[0] == 255);  // the presented (red) frame
    CHECK(px[1] == 0);
    REQUIRE(frames.size() == 1);
    CHECK(frames[0].frame == 1);
    CHECK(frames[0].width == 16);
    CHECK(frames[0].height == 8);
    CHECK(first_pixel == std::vector<uint8_t>{255, 0, 0, 255});
    // The client's own framebuffer still shows its current (green) frame.
    auto back = wire.read_pixels(16, 8);
    REQUIRE(back.size() == 16 * 8 * 4);
    CHECK(back[1] == 255);

    // A resize gives the next frame the new size.
    wire.enc.mglResizeSurface(7, 32, 4);
    wire.enc.glViewport(0, 0, 32, 4);
    wire.enc.glClearColor(0, 0, 1, 1);
    wire.enc.glClear(GL_COLOR_BUFFER_BIT);
    wire.enc.mglSwapBuffers(7, 2);
    auto big = wire.read_surface(7, 32, 4);
    REQUIRE(big.size() == 32 * 4 * 4);
    CHECK(big[32 * 4 * 4 - 2] == 255);  // last pixel blue
    CHECK(frames.size() == 2);
    CHECK(wire.error() == GL_NO_ERROR);
}
