// A desktop context (core profile unless asked otherwise) on the Espryt
// test harness, with the calls the desktop tests repeat: shaders and
// programs made and queried through the wire, a full-window quad drawn.
#pragma once

#include <doctest.h>

#include <cstring>
#include <functional>
#include <string>

#include "harness.h"
#include "test_hooks.h"

namespace espryt_test {

constexpr uint32_t kEglOpenGlApi = 0x30A2, kCoreProfileBit = 1, kCompatProfileBit = 2;

struct Desktop {
    Wire w;
    GLuint next = 500;
    bool ok = false;
    explicit Desktop(uint32_t profile = kCoreProfileBit) {
        if (!w.backend) return;
        w.start();
        w.flush();
        ok = espryt::testing::set_context_api(*w.backend, 1, kEglOpenGlApi, profile, 3, 3);
    }
    GLuint shader(GLenum type, std::initializer_list<const char*> src) {
        const GLuint s = next++;
        w.enc.glCreateShader(type, s);
        const std::string blob = strings_blob(src);
        w.enc.glShaderSource(s, GLsizei(src.size()), wire::Blob{blob.data(), uint32_t(blob.size())});
        w.enc.glCompileShader(s);
        return s;
    }
    GLint shader_iv(GLuint s, GLenum pname) {
        GLint v = -7;
        w.enc.glGetShaderiv(s, pname, sizeof v);
        gen::read_reply_glGetShaderiv(w.enc.wait_reply(), &v, sizeof v);
        return v;
    }
    std::string info_log(GLuint s) {
        char buf[4096] = {};
        GLsizei len = -1;
        w.enc.glGetShaderInfoLog(s, sizeof buf, sizeof len, sizeof buf);
        gen::read_reply_glGetShaderInfoLog(w.enc.wait_reply(), &len, sizeof len, reinterpret_cast<mgl::GLchar*>(buf),
                                           sizeof buf);
        return std::string(buf, size_t(std::max(len, 0)));
    }
    std::string source(GLuint s, GLsizei size = 4096) {
        std::vector<char> buf(4096, 0);
        GLsizei len = -1;
        w.enc.glGetShaderSource(s, size, sizeof len, uint32_t(buf.size()));
        gen::read_reply_glGetShaderSource(w.enc.wait_reply(), &len, sizeof len, reinterpret_cast<mgl::GLchar*>(buf.data()),
                                          uint32_t(buf.size()));
        return std::string(buf.data(), size_t(std::max(len, 0)));
    }
    GLuint program(GLuint vs, GLuint fs, const std::function<void(GLuint)>& before_link = {}) {
        return program_of({vs, fs}, before_link);
    }
    GLuint program_of(std::initializer_list<GLuint> shaders, const std::function<void(GLuint)>& before_link = {}) {
        const GLuint p = next++;
        w.enc.glCreateProgram(p);
        for (GLuint s : shaders) w.enc.glAttachShader(p, s);
        if (before_link) before_link(p);
        w.enc.glLinkProgram(p);
        return p;
    }
    GLint program_iv(GLuint p, GLenum pname) {
        GLint v = -7;
        w.enc.glGetProgramiv(p, pname, sizeof v);
        gen::read_reply_glGetProgramiv(w.enc.wait_reply(), &v, sizeof v);
        return v;
    }
    GLint query(void (gen::Encoder::*verb)(GLuint, wire::Blob),
                bool (*reply)(std::span<const uint8_t>, GLint*), GLuint p, const char* name) {
        (w.enc.*verb)(p, wire::Blob{name, uint32_t(std::strlen(name) + 1)});
        GLint v = -7;
        reply(w.enc.wait_reply(), &v);
        return v;
    }
    void draw_quad(GLuint p) {
        const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
        const GLuint vao = next++, vbo = next++;
        w.enc.glGenVertexArrays(1, wire::Blob{&vao, 4});
        w.enc.glBindVertexArray(vao);
        w.enc.glGenBuffers(1, wire::Blob{&vbo, 4});
        w.enc.glBindBuffer(GL_ARRAY_BUFFER, vbo);
        w.enc.glBufferData(GL_ARRAY_BUFFER, sizeof quad, wire::Blob{quad, sizeof quad}, GL_STATIC_DRAW);
        GLint loc = query(&gen::Encoder::glGetAttribLocation, gen::read_reply_glGetAttribLocation, p, "position");
        REQUIRE(loc >= 0);
        w.enc.glVertexAttribPointer(GLuint(loc), 2, GL_FLOAT, GL_FALSE, 0, wire::OffsetOrBlob{0, nullptr, 0});
        w.enc.glEnableVertexAttribArray(GLuint(loc));
        w.enc.glUseProgram(p);
        w.enc.glViewport(0, 0, 64, 64);
        w.enc.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
};

}  // namespace espryt_test

// Declares `d`, a desktop context (Desktop's arguments), in a test case; the
// test is skipped, with the reason, where the host gives Espryt no context.
#define DESKTOP_OR_SKIP(d, ...)                    \
    ::espryt_test::Desktop d{__VA_ARGS__};         \
    if (!d.w.backend) {                            \
        MESSAGE("skipped: " << d.w.why);           \
        return;                                    \
    }                                              \
    REQUIRE(d.ok)
