// Desktop OpenGL contexts on Magma (issue 14): what a 3.3 core context
// reports, desktop GLSL without #version (1.10) and 3.30, and
// glBindFragDataLocation deciding which output reaches draw buffer 0.
#include <doctest/doctest.h>

#include <array>
#include <cstring>

#include "harness.h"

namespace magma_test {
namespace {

constexpr int kW = 16, kH = 16;

void start_desktop(Wire& w, GLbitfield profile) {
    w.enc.mglCreateContext(1, 0, 3, 3, 0, 0x30A2 /* EGL_OPENGL_API */, profile);
    w.enc.mglCreateSurface(1, 0x3033, kW, kH, 8, 8, 8, 8, 24, 8, 0);
    w.enc.mglMakeCurrent(1, 1, 1);
}

wire::Blob blob(const char* s) { return wire::Blob{s, uint32_t(std::strlen(s) + 1)}; }

GLuint shader(Wire& w, GLuint name, GLenum type, const char* src, std::string* log = nullptr) {
    w.enc.glCreateShader(type, name);
    std::string b = strings_blob({src});
    w.enc.glShaderSource(name, 1, wire::Blob{b.data(), uint32_t(b.size())});
    w.enc.glCompileShader(name);
    GLint ok = 0;
    w.enc.glGetShaderiv(name, GL_COMPILE_STATUS, sizeof ok);
    gen::read_reply_glGetShaderiv(w.enc.wait_reply(), &ok, sizeof ok);
    if (!ok && log) *log = w.log_text.str();
    return ok ? name : 0;
}

// Links vs+fs as program `p` (outputs bound first, name -> colour number), draws
// a triangle covering the surface and returns the centre pixel.
std::array<uint8_t, 4> draw(Wire& w, GLuint p, GLuint vs, GLuint fs,
                            std::initializer_list<std::pair<const char*, GLuint>> outputs = {}) {
    w.enc.glCreateProgram(p);
    w.enc.glAttachShader(p, vs);
    w.enc.glAttachShader(p, fs);
    w.enc.glBindAttribLocation(p, 3, blob("pos"));
    for (const auto& [name, color] : outputs) w.enc.glBindFragDataLocation(p, color, blob(name));
    w.enc.glLinkProgram(p);
    GLint ok = 0;
    w.enc.glGetProgramiv(p, GL_LINK_STATUS, sizeof ok);
    gen::read_reply_glGetProgramiv(w.enc.wait_reply(), &ok, sizeof ok);
    REQUIRE(ok);
    const float tri[] = {-1, -1, 3, -1, -1, 3};
    GLuint b = 50 + p;
    w.enc.glGenBuffers(1, wire::Blob{&b, 4});
    w.enc.glBindBuffer(GL_ARRAY_BUFFER, b);
    w.enc.glBufferData(GL_ARRAY_BUFFER, sizeof tri, wire::Blob{tri, sizeof tri}, GL_STATIC_DRAW);
    w.enc.glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, 0, wire::OffsetOrBlob{0, nullptr, 0});
    w.enc.glEnableVertexAttribArray(3);
    w.enc.glUseProgram(p);
    w.enc.glViewport(0, 0, kW, kH);
    w.enc.glDrawArrays(GL_TRIANGLES, 0, 3);
    std::vector<uint8_t> px = w.read_pixels(kW, kH);
    REQUIRE(px.size() == size_t(kW * kH * 4));
    const size_t at = (size_t(kH / 2) * kW + kW / 2) * 4;
    return {px[at], px[at + 1], px[at + 2], px[at + 3]};
}

const char* kVs110 = "attribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const char* kVs330 = "#version 330 core\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
// Two unlocated outputs: without a binding the first declared goes to colour 0.
const char* kFs330 =
    "#version 330 core\nout vec4 first;\nout vec4 second;\n"
    "void main() { first = vec4(1.0, 0.0, 0.0, 1.0); second = vec4(0.0, 1.0, 0.0, 1.0); }\n";

}  // namespace

TEST_CASE("desktop 3.3 core context: version, GLSL version and desktop extensions only") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w, 1);
    CHECK(w.get_string(GL_VERSION).rfind("3.3 MobileGL (Magma on ", 0) == 0);
    CHECK(w.get_string(GL_SHADING_LANGUAGE_VERSION) == "3.30");
    const std::string ext = " " + w.get_string(GL_EXTENSIONS) + " ";
    CHECK(ext.find(" GL_ARB_vertex_array_object ") != std::string::npos);
    CHECK(ext.find(" GL_EXT_framebuffer_object ") == std::string::npos);  // compatibility only
    CHECK(ext.find("GL_OES_") == std::string::npos);                      // no ES names
    CHECK(w.error() == GL_NO_ERROR);
}

TEST_CASE("desktop GLSL 1.10 without #version (attribute, gl_FragColor) draws; ESSL is refused") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w, 2);
    const GLuint vs = shader(w, 10, GL_VERTEX_SHADER, kVs110);
    const GLuint fs = shader(w, 11, GL_FRAGMENT_SHADER,
                             "#ifdef GL_ES\nprecision mediump float;\n#endif\n"
                             "void main() { gl_FragColor = vec4(0.0, 0.0, 1.0, 1.0); }\n");
    REQUIRE(vs);
    REQUIRE(fs);
    CHECK(draw(w, 12, vs, fs) == std::array<uint8_t, 4>{0, 0, 255, 255});
    // An ESSL version is not a desktop shader.
    CHECK(shader(w, 14, GL_FRAGMENT_SHADER, "#version 300 es\nout highp vec4 c; void main() { c = vec4(1.0); }\n") == 0);
    CHECK(w.error() == GL_NO_ERROR);
}

TEST_CASE("glBindFragDataLocation decides which unlocated output reaches draw buffer 0") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w, 1);
    const GLuint vs = shader(w, 20, GL_VERTEX_SHADER, kVs330), fs = shader(w, 21, GL_FRAGMENT_SHADER, kFs330);
    REQUIRE(vs);
    REQUIRE(fs);
    CHECK(draw(w, 30, vs, fs) == std::array<uint8_t, 4>{255, 0, 0, 255});
    CHECK(draw(w, 31, vs, fs, {{"second", 0}, {"first", 1}}) == std::array<uint8_t, 4>{0, 255, 0, 255});
    CHECK(w.error() == GL_NO_ERROR);
}

}  // namespace magma_test

namespace magma_test {

// GL packs varyings into vec4 slots; Magma gives each its own location and
// does not pack yet. Past the device's locations (piglit's
// varying-packing-mixed-types: an int[58] and two scalars) the link must
// fail with a log, and the session go on: handed to lavapipe, such a
// program crashed the server.
TEST_CASE("varyings past the device's locations fail the link, and the session goes on") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w, 1);
    const char* vs = "#version 330 core\nin vec2 pos;\nflat out int ia[58];\n"
                     "void main() { gl_Position = vec4(pos, 0.0, 1.0); for (int i = 0; i < 58; ++i) ia[i] = i; }\n";
    const char* fs = "#version 330 core\nflat in int ia[58];\nout vec4 o;\n"
                     "void main() { int s = 0; for (int i = 0; i < 58; ++i) s += ia[i]; o = vec4(float(s == 1653)); }\n";
    GLuint v = shader(w, 1, GL_VERTEX_SHADER, vs), f = shader(w, 2, GL_FRAGMENT_SHADER, fs);
    REQUIRE((v && f));
    w.enc.glCreateProgram(3);
    w.enc.glAttachShader(3, v);
    w.enc.glAttachShader(3, f);
    w.enc.glLinkProgram(3);
    GLint ok = 1;
    w.enc.glGetProgramiv(3, GL_LINK_STATUS, sizeof ok);
    gen::read_reply_glGetProgramiv(w.enc.wait_reply(), &ok, sizeof ok);
    // lavapipe serves 128 vertex output components (32 locations); a device
    // with 60 locations or more may link it.
    if (w.backend->device_name().find("llvmpipe") != std::string::npos) CHECK(!ok);
    // The session still draws.
    GLuint v2 = shader(w, 4, GL_VERTEX_SHADER, kVs330), f2 = shader(w, 5, GL_FRAGMENT_SHADER, kFs330);
    REQUIRE((v2 && f2));
    CHECK(draw(w, 6, v2, f2)[0] == 255);
}

}  // namespace magma_test
