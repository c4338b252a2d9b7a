// Desktop GL shaders through the wire into Espryt: a desktop context
// (marked through the test hook until mglCreateContext carries the API)
// translates GLSL with the GL front end; the application's queries answer
// in its own terms (status, log with its line numbers, its source), the
// link honours glBindAttribLocation and glBindFragDataLocation, and ES
// contexts keep passing their shaders through.
#include <doctest.h>
#include <functional>

#include "desktop_harness.h"

using namespace espryt_test;

namespace {

const char* kVs110 = "attribute vec2 position;\nvarying vec2 uv;\nvoid main() { uv = position; gl_Position = vec4(position, 0.0, 1.0); }\n";

}  // namespace

TEST_CASE("desktop context: GLSL 1.10 compiles; status, source and log answer in the application's terms") {
    DESKTOP_OR_SKIP(d);
    const GLuint vs = d.shader(GL_VERTEX_SHADER, {kVs110});
    CHECK(d.shader_iv(vs, GL_COMPILE_STATUS) == GL_TRUE);
    CHECK(d.source(vs) == kVs110);  // the application's text, not our ESSL
    CHECK(d.shader_iv(vs, GL_SHADER_SOURCE_LENGTH) == GLint(std::strlen(kVs110) + 1));
    CHECK(d.source(vs, 10) == std::string(kVs110).substr(0, 9));  // bufSize - 1 characters
    CHECK(d.shader_iv(vs, GL_SHADER_TYPE) == GL_VERTEX_SHADER);

    // Two strings; the error is on line 2 of the second.
    const GLuint bad = d.shader(GL_FRAGMENT_SHADER, {"uniform vec4 c;\n", "void main() {\n  gl_FragColor = c * nothing;\n}\n"});
    CHECK(d.shader_iv(bad, GL_COMPILE_STATUS) == GL_FALSE);
    const std::string log = d.info_log(bad);
    CHECK(d.shader_iv(bad, GL_INFO_LOG_LENGTH) == GLint(log.size() + 1));
    CHECK(log.find("1:2:") != std::string::npos);
    CHECK(log.find("nothing") != std::string::npos);
    CHECK(d.w.error() == GL_NO_ERROR);

    // A program with the failed shader does not link, as on GL.
    const GLuint p = d.program(vs, bad);
    CHECK(d.program_iv(p, GL_LINK_STATUS) == GL_FALSE);
}

TEST_CASE("desktop context: glBindAttribLocation and glBindFragDataLocation take effect at link; names answer") {
    DESKTOP_OR_SKIP(d);
    const GLuint vs = d.shader(GL_VERTEX_SHADER, {kVs110});
    const GLuint fs = d.shader(GL_FRAGMENT_SHADER,
                               {"#version 330 core\nuniform vec4 tint;\nin vec2 uv;\nout vec4 red;\nout vec4 green;\n"
                                "void main() { red = vec4(1.0, 0.0, 0.0, 1.0) * tint; green = vec4(0.0, 1.0, 0.0, 1.0) * tint; }\n"});
    REQUIRE(d.shader_iv(fs, GL_COMPILE_STATUS) == GL_TRUE);
    const GLuint p = d.program(vs, fs, [&](GLuint prog) {
        d.w.enc.glBindAttribLocation(prog, 5, wire::Blob{"position", 9});
        // Declared red first; bound green to the first draw buffer.
        d.w.enc.glBindFragDataLocation(prog, 1, wire::Blob{"red", 4});
        d.w.enc.glBindFragDataLocation(prog, 0, wire::Blob{"green", 6});
    });
    REQUIRE(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    CHECK(d.query(&gen::Encoder::glGetAttribLocation, gen::read_reply_glGetAttribLocation, p, "position") == 5);
    CHECK(d.query(&gen::Encoder::glGetFragDataLocation, gen::read_reply_glGetFragDataLocation, p, "green") == 0);
    CHECK(d.query(&gen::Encoder::glGetFragDataLocation, gen::read_reply_glGetFragDataLocation, p, "red") == 1);
    const GLint tint = d.query(&gen::Encoder::glGetUniformLocation, gen::read_reply_glGetUniformLocation, p, "tint");
    REQUIRE(tint >= 0);
    d.w.enc.glClearColor(0, 0, 0, 1);
    d.w.enc.glClear(GL_COLOR_BUFFER_BIT);
    d.draw_quad(p);
    d.w.enc.glUniform4f(tint, 1, 1, 1, 1);
    d.w.enc.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    const std::vector<uint8_t> px = d.w.read_pixels(64, 64);
    REQUIRE(px.size() == 64u * 64u * 4u);
    // The surface's only draw buffer shows the output bound to location 0.
    CHECK(px[0] == 0);
    CHECK(px[1] == 255);
    CHECK(px[2] == 0);
    CHECK(d.w.error() == GL_NO_ERROR);

    // Deleted while attached, the shader lives on in the program (as in GL);
    // a relink with other bindings still re-emits it.
    d.w.enc.glDeleteShader(fs);
    d.w.enc.glBindFragDataLocation(p, 0, wire::Blob{"red", 4});
    d.w.enc.glBindFragDataLocation(p, 1, wire::Blob{"green", 6});
    d.w.enc.glLinkProgram(p);
    REQUIRE(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    CHECK(d.program_iv(p, GL_ATTACHED_SHADERS) == 2);
    CHECK(d.query(&gen::Encoder::glGetFragDataLocation, gen::read_reply_glGetFragDataLocation, p, "red") == 0);
    d.w.enc.glUseProgram(p);
    d.w.enc.glUniform4f(tint, 1, 1, 1, 1);
    d.w.enc.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    const std::vector<uint8_t> relinked = d.w.read_pixels(64, 64);
    REQUIRE(relinked.size() == 64u * 64u * 4u);
    CHECK(relinked[0] == 255);
    CHECK(relinked[1] == 0);
    CHECK(d.w.error() == GL_NO_ERROR);

    // Bad arguments fail loudly, as GL's do.
    d.w.enc.glBindFragDataLocation(p, 0, wire::Blob{"gl_FragColor", 13});
    CHECK(d.w.error() == GL_INVALID_OPERATION);
    d.w.enc.glBindFragDataLocation(p, 4096, wire::Blob{"red", 4});
    CHECK(d.w.error() == GL_INVALID_VALUE);
    d.w.enc.glBindFragDataLocationIndexed(p, 0, 1, wire::Blob{"red", 4});
    CHECK(d.w.error() == GL_INVALID_OPERATION);
    CHECK(d.w.log_lines("dual-source") == 1);
}

TEST_CASE("ES contexts keep passing shaders through: desktop GLSL does not compile there") {
    Wire w;
    if (!w.backend) {
        MESSAGE("skipped: " << w.why);
        return;
    }
    w.start();
    const std::string blob = strings_blob({"#version 330 core\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"});
    w.enc.glCreateShader(GL_VERTEX_SHADER, 77);
    w.enc.glShaderSource(77, 1, wire::Blob{blob.data(), uint32_t(blob.size())});
    w.enc.glCompileShader(77);
    GLint ok = -1;
    w.enc.glGetShaderiv(77, GL_COMPILE_STATUS, sizeof ok);
    gen::read_reply_glGetShaderiv(w.enc.wait_reply(), &ok, sizeof ok);
    CHECK(ok == GL_FALSE);  // the host's ESSL compiler saw it, untranslated
    w.enc.glBindFragDataLocation(1, 0, wire::Blob{"x", 2});
    CHECK(w.error() == GL_INVALID_OPERATION);  // not an ES verb
}

TEST_CASE("desktop context: gl_FragCoord's origin_upper_left reads the surface height; the driver uniform is hidden") {
    DESKTOP_OR_SKIP(d);
    const GLuint vs = d.shader(GL_VERTEX_SHADER, {kVs110});
    const GLuint fs = d.shader(GL_FRAGMENT_SHADER,
                               {"#version 150\nlayout(origin_upper_left) in vec4 gl_FragCoord;\nuniform vec4 tint;\n"
                                "out vec4 c;\nvoid main() { c = gl_FragCoord.y < 8.0 ? tint : vec4(0.0, 0.0, 1.0, 1.0); }\n"});
    REQUIRE(d.shader_iv(fs, GL_COMPILE_STATUS) == GL_TRUE);
    const GLuint p = d.program(vs, fs);
    REQUIRE(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    // Only the application's uniform shows.
    CHECK(d.program_iv(p, GL_ACTIVE_UNIFORMS) == 1);
    CHECK(d.program_iv(p, GL_ACTIVE_UNIFORM_MAX_LENGTH) == 5);
    CHECK(d.query(&gen::Encoder::glGetUniformLocation, gen::read_reply_glGetUniformLocation, p, "mgl_DrawHeight") == -1);
    char name[64] = {};
    GLsizei len = 0;
    GLint size = 0;
    GLenum type = 0;
    d.w.enc.glGetActiveUniform(p, 0, sizeof name, 4, 4, 4, sizeof name);
    gen::read_reply_glGetActiveUniform(d.w.enc.wait_reply(), &len, 4, &size, 4, &type, 4,
                                       reinterpret_cast<mgl::GLchar*>(name), sizeof name);
    CHECK(std::string(name) == "tint");
    d.w.enc.glGetActiveUniform(p, 1, sizeof name, 4, 4, 4, sizeof name);
    d.w.enc.wait_reply();
    CHECK(d.w.error() == GL_INVALID_VALUE);
    const GLint tint = d.query(&gen::Encoder::glGetUniformLocation, gen::read_reply_glGetUniformLocation, p, "tint");
    REQUIRE(tint >= 0);
    d.draw_quad(p);
    d.w.enc.glUniform4f(tint, 1, 0, 0, 1);
    d.w.enc.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    const std::vector<uint8_t> px = d.w.read_pixels(64, 64);
    REQUIRE(px.size() == 64u * 64u * 4u);
    // Bottom row first: the top rows (upper-left y < 8) are red.
    CHECK(px[0] == 0);
    CHECK(px[2] == 255);
    CHECK(px[63 * 64 * 4] == 255);
    CHECK(px[56 * 64 * 4] == 255);
    CHECK(px[55 * 64 * 4] == 0);
    CHECK(d.w.error() == GL_NO_ERROR);
}

TEST_CASE("compatibility context: user clip planes clip a GLSL 1.10 vertex shader; their uniform is hidden") {
    DESKTOP_OR_SKIP(d, kCompatProfileBit);
    const GLuint vs = d.shader(GL_VERTEX_SHADER, {kVs110});
    const GLuint fs = d.shader(GL_FRAGMENT_SHADER, {"#version 110\nuniform vec4 tint;\nvoid main() { gl_FragColor = tint; }\n"});
    const GLuint p = d.program(vs, fs);
    REQUIRE(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    // The plane uniform the vertex stage clips by is the backend's, as native GL's is.
    CHECK(d.program_iv(p, GL_ACTIVE_UNIFORMS) == 1);
    CHECK(d.program_iv(p, GL_ACTIVE_UNIFORM_MAX_LENGTH) == 5);
    CHECK(d.query(&gen::Encoder::glGetUniformLocation, gen::read_reply_glGetUniformLocation, p, "mgl_ClipPlane") == -1);
    const GLint tint = d.query(&gen::Encoder::glGetUniformLocation, gen::read_reply_glGetUniformLocation, p, "tint");
    REQUIRE(tint >= 0);
    // Keep x >= 0 (eye space is clip space here: the shader writes the position as given).
    const double eq[4] = {1, 0, 0, 0};
    d.w.enc.glClipPlane(0x3000, wire::Blob{eq, sizeof eq});  // GL_CLIP_PLANE0, as the client sends it: eye space
    CHECK(d.w.error() == GL_NO_ERROR);
    d.w.enc.glEnable(0x3000);
    CHECK(d.w.error() == GL_NO_ERROR);
    d.w.enc.glClearColor(0, 0, 0, 0);
    d.w.enc.glClear(GL_COLOR_BUFFER_BIT);
    d.w.enc.glUseProgram(p);
    d.w.enc.glUniform4f(tint, 1, 0, 0, 1);
    d.draw_quad(p);
    std::vector<uint8_t> px = d.w.read_pixels(64, 64);
    REQUIRE(px.size() == 64u * 64u * 4u);
    const size_t left = (32 * 64 + 2) * 4, right = (32 * 64 + 61) * 4;
    CHECK(px[left] == 0);     // x < 0: clipped
    CHECK(px[right] == 255);  // x > 0: drawn
    // Disabled, the plane clips nothing.
    d.w.enc.glDisable(0x3000);
    d.w.enc.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    px = d.w.read_pixels(64, 64);
    REQUIRE(px.size() == 64u * 64u * 4u);
    CHECK(px[left] == 255);
    // Not a plane: GL_INVALID_ENUM.
    d.w.enc.glClipPlane(0x3008, wire::Blob{eq, sizeof eq});
    CHECK(d.w.error() == GL_INVALID_ENUM);
}

TEST_CASE("compatibility context: GL_CLAMP and the application's swizzle on a luminance texture answer as set") {
    DESKTOP_OR_SKIP(d, kCompatProfileBit);
    constexpr GLenum kLuminance8 = 0x8040, kLuminance = 0x1909, kClamp = 0x2900;
    GLuint tex = d.next++;
    d.w.enc.glGenTextures(1, wire::Blob{&tex, 4});
    d.w.enc.glBindTexture(GL_TEXTURE_2D, tex);
    const uint8_t texel[4] = {128, 0, 0, 0};
    d.w.enc.glTexImage2D(GL_TEXTURE_2D, 0, kLuminance8, 1, 1, 0, kLuminance, GL_UNSIGNED_BYTE,
                         wire::OffsetOrBlob{0, texel, 1});
    d.w.enc.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    // The identity swizzle must not undo the host's luminance swizzle (the host holds L in red).
    for (GLenum i = 0; i < 4; ++i) d.w.enc.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R + i, GLint(GL_RED + i));
    d.w.enc.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GLint(kClamp));
    CHECK(d.w.error() == GL_NO_ERROR);
    GLint v = 0;
    d.w.enc.glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, sizeof v);
    gen::read_reply_glGetTexParameteriv(d.w.enc.wait_reply(), &v, sizeof v);
    CHECK(v == GLint(kClamp));
    d.w.enc.glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_G, sizeof v);
    gen::read_reply_glGetTexParameteriv(d.w.enc.wait_reply(), &v, sizeof v);
    CHECK(v == GL_GREEN);

    const GLuint vs = d.shader(GL_VERTEX_SHADER, {kVs110});
    const GLuint fs = d.shader(GL_FRAGMENT_SHADER, {"#version 110\nuniform sampler2D t;\nvarying vec2 uv;\n"
                                                     "void main() { gl_FragColor = texture2D(t, uv * 2.0); }\n"});
    const GLuint p = d.program(vs, fs);
    REQUIRE(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    d.draw_quad(p);
    const std::vector<uint8_t> px = d.w.read_pixels(64, 64);
    REQUIRE(px.size() == 64u * 64u * 4u);
    const size_t mid = (32 * 64 + 32) * 4;
    CHECK(px[mid] == 128);
    CHECK(px[mid + 1] == 128);  // luminance in every colour channel, not red only
    CHECK(px[mid + 2] == 128);
    CHECK(px[mid + 3] == 255);

    // GL_CLAMP is the compatibility profile's: a core context refuses it.
    Desktop core(kCoreProfileBit);
    REQUIRE(core.ok);
    GLuint t2 = core.next++;
    core.w.enc.glGenTextures(1, wire::Blob{&t2, 4});
    core.w.enc.glBindTexture(GL_TEXTURE_2D, t2);
    core.w.enc.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GLint(kClamp));
    CHECK(core.w.error() == GL_INVALID_ENUM);
}

TEST_CASE("desktop context: depth and stencil values read back on a GLES host, its state left as it was") {
    DESKTOP_OR_SKIP(d, kCoreProfileBit);
    GLuint tex = d.next++, fb = d.next++;
    d.w.enc.glGenTextures(1, wire::Blob{&tex, 4});
    d.w.enc.glBindTexture(GL_TEXTURE_2D, tex);
    d.w.enc.glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 8, 8);
    d.w.enc.glGenFramebuffers(1, wire::Blob{&fb, 4});
    d.w.enc.glBindFramebuffer(GL_FRAMEBUFFER, fb);
    d.w.enc.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D, tex, 0);
    d.w.enc.glViewport(1, 2, 3, 4);
    d.w.enc.glClearDepthf(1.0f);
    d.w.enc.glClearStencil(0);
    d.w.enc.glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    d.w.enc.glEnable(GL_SCISSOR_TEST);
    d.w.enc.glScissor(0, 0, 4, 8);  // the left half
    d.w.enc.glClearDepthf(0.25f);
    d.w.enc.glClearStencil(5);
    d.w.enc.glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    d.w.enc.glDisable(GL_SCISSOR_TEST);
    d.w.enc.glScissor(0, 0, 8, 8);
    d.w.enc.glEnable(GL_SCISSOR_TEST);  // enabled across the read: the read still sees every pixel
    CHECK(d.w.error() == GL_NO_ERROR);

    float depth[64] = {};
    d.w.enc.glReadPixels(0, 0, 8, 8, GL_DEPTH_COMPONENT, GL_FLOAT, 0, sizeof depth);
    REQUIRE(gen::read_reply_glReadPixels(d.w.enc.wait_reply(), reinterpret_cast<uint8_t*>(depth), sizeof depth));
    CHECK(depth[0] == doctest::Approx(0.25).epsilon(1e-5));  // cleared
    CHECK(depth[7] == doctest::Approx(1.0));                 // outside the second clear's scissor
    uint8_t stencil[64] = {};
    d.w.enc.glPixelStorei(GL_PACK_ALIGNMENT, 1);
    d.w.enc.glReadPixels(0, 0, 8, 8, 0x1901 /* GL_STENCIL_INDEX */, GL_UNSIGNED_BYTE, 0, sizeof stencil);
    REQUIRE(gen::read_reply_glReadPixels(d.w.enc.wait_reply(), stencil, sizeof stencil));
    CHECK(stencil[0] == 5);
    CHECK(stencil[7] == 0);
    uint32_t packed[64] = {};
    d.w.enc.glReadPixels(0, 0, 8, 8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 0, sizeof packed);
    REQUIRE(gen::read_reply_glReadPixels(d.w.enc.wait_reply(), reinterpret_cast<uint8_t*>(packed), sizeof packed));
    CHECK(packed[0] == (uint32_t(0.25 * 16777215.0 + 0.5) << 8 | 5));
    CHECK(d.w.error() == GL_NO_ERROR);
    // What the read went through is put back.
    CHECK(d.w.get_integer(GL_FRAMEBUFFER_BINDING) == GLint(fb));
    CHECK(d.w.get_integer(GL_TEXTURE_BINDING_2D) == GLint(tex));
    CHECK(d.w.get_integer(GL_CURRENT_PROGRAM) == 0);
    CHECK(d.w.get_integer(GL_PACK_ALIGNMENT) == 1);
    CHECK(d.w.get_integer(GL_SCISSOR_TEST) == 1);
    GLint vp[4] = {};
    d.w.enc.glGetIntegerv(GL_VIEWPORT, sizeof vp);
    REQUIRE(gen::read_reply_glGetIntegerv(d.w.enc.wait_reply(), vp, sizeof vp));
    CHECK(vp[0] == 1);
    CHECK(vp[3] == 4);
}

TEST_CASE("desktop context: glCreateShaderProgramv compiles desktop GLSL through the front end into a separable program") {
    DESKTOP_OR_SKIP(d);
    const std::string good = strings_blob(
        {"#version 150\n#extension GL_ARB_separate_shader_objects : require\n"
         "in vec4 position;\nout gl_PerVertex { vec4 gl_Position; };\n"
         "void main() { gl_Position = position; }\n"});
    const GLuint p = d.next++;
    d.w.enc.glCreateShaderProgramv(GL_VERTEX_SHADER, 1, wire::Blob{good.data(), uint32_t(good.size())}, p);
    CHECK(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    CHECK(d.program_iv(p, GL_PROGRAM_SEPARABLE) == GL_TRUE);
    CHECK(d.query(&gen::Encoder::glGetAttribLocation, gen::read_reply_glGetAttribLocation, p, "position") >= 0);
    CHECK(d.w.error() == GL_NO_ERROR);
    // A source that does not compile: a program that never linked, the
    // compile log in its info log.
    const std::string bad = strings_blob({"#version 150\nvoid main() { undeclared = 1.0; }\n"});
    const GLuint q = d.next++;
    d.w.enc.glCreateShaderProgramv(GL_FRAGMENT_SHADER, 1, wire::Blob{bad.data(), uint32_t(bad.size())}, q);
    CHECK(d.program_iv(q, GL_LINK_STATUS) == GL_FALSE);
    char buf[1024] = {};
    GLsizei len = 0;
    d.w.enc.glGetProgramInfoLog(q, sizeof buf, sizeof len, sizeof buf);
    gen::read_reply_glGetProgramInfoLog(d.w.enc.wait_reply(), &len, sizeof len, reinterpret_cast<mgl::GLchar*>(buf),
                                        sizeof buf);
    CHECK(std::string(buf).find("undeclared") != std::string::npos);
    CHECK(d.w.error() == GL_NO_ERROR);
}
