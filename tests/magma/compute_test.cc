// Compute on Magma (desktop contexts, GL_ARB_compute_shader and
// GL_ARB_shader_storage_buffer_object, compute.cc): a dispatch that writes a
// storage buffer read back, the local size and limits, an indirect dispatch,
// a hostile indirect offset refused, a draw reading what a dispatch wrote,
// the errors GL prescribes.
#include <GLES3/gl32.h>
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "harness.h"

namespace magma_test {
namespace {

constexpr int kW = 16, kH = 16;

void start_desktop(Wire& w) {
    w.enc.mglCreateContext(1, 0, 3, 3, 0, 0x30A2 /* EGL_OPENGL_API */, 1 /* core */);
    w.enc.mglCreateSurface(1, 0x3033, kW, kH, 8, 8, 8, 8, 24, 8, 0);
    w.enc.mglMakeCurrent(1, 1, 1);
}

GLint program_iv(Wire& w, GLuint p, GLenum pname, GLint* out = nullptr, int n = 1) {
    GLint v[3] = {0, 0, 0};
    w.enc.glGetProgramiv(p, pname, uint32_t(n * 4));
    gen::read_reply_glGetProgramiv(w.enc.wait_reply(), v, uint32_t(n * 4));
    if (out) std::memcpy(out, v, size_t(n) * 4);
    return v[0];
}

// A compute program from one source; 0 when it does not link.
GLuint compute_program(Wire& w, GLuint name, const char* src) {
    w.enc.glCreateShader(GL_COMPUTE_SHADER, name);
    std::string b = strings_blob({src});
    w.enc.glShaderSource(name, 1, wire::Blob{b.data(), uint32_t(b.size())});
    w.enc.glCompileShader(name);
    w.enc.glCreateProgram(name + 1);
    w.enc.glAttachShader(name + 1, name);
    w.enc.glLinkProgram(name + 1);
    return program_iv(w, name + 1, GL_LINK_STATUS) ? name + 1 : 0;
}

void buffer(Wire& w, GLenum target, GLuint name, const void* data, size_t size) {
    w.enc.glGenBuffers(1, wire::Blob{&name, 4});
    w.enc.glBindBuffer(target, name);
    w.enc.glBufferData(target, GLsizeiptr(size), wire::Blob{data, uint32_t(data ? size : 0)}, GL_DYNAMIC_COPY);
}

std::vector<uint32_t> read_back(Wire& w, GLenum target, size_t words) {
    std::vector<uint32_t> out(words, 0xDEADBEEF);
    w.enc.mglReadBufferRange(target, 0, GLsizeiptr(words * 4), uint32_t(words * 4));
    gen::read_reply_mglReadBufferRange(w.enc.wait_reply(), reinterpret_cast<GLubyte*>(out.data()), uint32_t(words * 4));
    return out;
}

// Writes out[i] = i * 3 + bias for every invocation (GLSL 3.30 with the extensions).
const char* kFill =
    "#version 330\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n"
    "layout(local_size_x = 4, local_size_y = 2) in;\n"
    "layout(std430, binding = 2) buffer Out { uint v[]; } o;\n"
    "uniform uint bias;\n"
    "void main() { uint i = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x; o.v[i] = i * 3u + bias; }\n";

}  // namespace

TEST_CASE("compute: a dispatch writes a storage buffer that is read back; local size and limits") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w);
    const std::string ext = " " + w.get_string(GL_EXTENSIONS) + " ";
    CHECK(ext.find(" GL_ARB_compute_shader ") != std::string::npos);
    CHECK(ext.find(" GL_ARB_shader_storage_buffer_object ") != std::string::npos);
    const GLuint p = compute_program(w, 10, kFill);
    REQUIRE(p);
    GLint size[3];
    program_iv(w, p, GL_COMPUTE_WORK_GROUP_SIZE, size, 3);
    CHECK(size[0] == 4);
    CHECK(size[1] == 2);
    CHECK(size[2] == 1);
    GLint count = 0;
    w.enc.glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, 4);
    gen::read_reply_glGetIntegeri_v(w.enc.wait_reply(), &count, 4);
    CHECK(count >= 65535);
    CHECK(w.error() == GL_NO_ERROR);

    std::vector<uint32_t> zero(32, 0);
    buffer(w, GL_SHADER_STORAGE_BUFFER, 20, zero.data(), zero.size() * 4);
    w.enc.glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, 20);
    w.enc.glUseProgram(p);
    w.enc.glUniform1ui(0, 7);
    w.enc.glDispatchCompute(2, 2, 1);  // 8 x 4 invocations
    w.enc.glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    CHECK(w.error() == GL_NO_ERROR);
    const std::vector<uint32_t> got = read_back(w, GL_SHADER_STORAGE_BUFFER, 32);
    for (uint32_t i = 0; i < 32; ++i) CHECK(got[i] == i * 3 + 7);

    // A second dispatch over what the first wrote, in the same batch.
    w.enc.glUniform1ui(0, 100);
    w.enc.glDispatchCompute(2, 2, 1);
    const std::vector<uint32_t> again = read_back(w, GL_SHADER_STORAGE_BUFFER, 32);
    CHECK(again[31] == 31 * 3 + 100);

    // Errors GL prescribes: counts past the maximum, a draw with a compute program.
    w.enc.glDispatchCompute(uint32_t(count) + 1, 1, 1);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glDrawArrays(GL_TRIANGLES, 0, 3);
    CHECK(w.error() == GL_INVALID_OPERATION);
    w.enc.glUseProgram(0);
    w.enc.glDispatchCompute(1, 1, 1);
    CHECK(w.error() == GL_INVALID_OPERATION);
}

TEST_CASE("compute: glDispatchComputeIndirect reads its counts from the buffer; a hostile offset is refused") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w);
    const GLuint p = compute_program(w, 10, kFill);
    REQUIRE(p);
    std::vector<uint32_t> zero(32, 0);
    buffer(w, GL_SHADER_STORAGE_BUFFER, 20, zero.data(), zero.size() * 4);
    w.enc.glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, 20);
    // Counts at offset 8: 2 x 1 x 1 groups = the first 8 x 2 invocations (16 words).
    const uint32_t cmd[5] = {99, 99, 2, 1, 1};
    buffer(w, GL_DISPATCH_INDIRECT_BUFFER, 21, cmd, sizeof cmd);
    w.enc.glUseProgram(p);
    w.enc.glUniform1ui(0, 1);
    w.enc.glDispatchComputeIndirect(8);
    CHECK(w.error() == GL_NO_ERROR);
    std::vector<uint32_t> got = read_back(w, GL_SHADER_STORAGE_BUFFER, 32);
    for (uint32_t i = 0; i < 16; ++i) CHECK(got[i] == i * 3 + 1);
    for (uint32_t i = 16; i < 32; ++i) CHECK(got[i] == 0);

    // Hostile offsets: past the end, wrapping, unaligned, negative. Each is a
    // GL error and nothing is dispatched (the buffer keeps its bytes).
    w.enc.glUniform1ui(0, 500);
    w.enc.glDispatchComputeIndirect(12);  // 12 + 12 > 20
    CHECK(w.error() == GL_INVALID_OPERATION);
    w.enc.glDispatchComputeIndirect(GLintptr(0x7FFFFFFFFFFFFFF8ll));
    CHECK(w.error() == GL_INVALID_OPERATION);
    w.enc.glDispatchComputeIndirect(GLintptr(-4));
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glDispatchComputeIndirect(2);
    CHECK(w.error() == GL_INVALID_VALUE);
    // Counts past the device's maximum in the buffer: never dispatched.
    const uint32_t huge[3] = {0xFFFFFFFFu, 1, 1};
    w.enc.glBufferSubData(GL_DISPATCH_INDIRECT_BUFFER, 0, 12, wire::Blob{huge, 12});
    w.enc.glDispatchComputeIndirect(0);
    // No buffer bound.
    w.enc.glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
    w.enc.glDispatchComputeIndirect(0);
    CHECK(w.error() == GL_INVALID_OPERATION);
    got = read_back(w, GL_SHADER_STORAGE_BUFFER, 32);
    CHECK(got[0] == 1);
    CHECK(got[20] == 0);
}

TEST_CASE("compute: a draw reads what a dispatch wrote (storage block in the fragment shader)") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w);
    const GLuint cp = compute_program(w, 10,
                                      "#version 430\nlayout(local_size_x = 1) in;\n"
                                      "layout(std430, binding = 0) buffer C { vec4 colour; };\n"
                                      "void main() { colour = vec4(0.0, 1.0, 0.0, 1.0); }\n");
    REQUIRE(cp);
    const float red[4] = {1, 0, 0, 1};
    buffer(w, GL_SHADER_STORAGE_BUFFER, 20, red, sizeof red);
    w.enc.glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 20);
    w.enc.glUseProgram(cp);
    w.enc.glDispatchCompute(1, 1, 1);
    w.enc.glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    auto stage = [&](GLuint name, GLenum type, const char* src) {
        w.enc.glCreateShader(type, name);
        std::string b = strings_blob({src});
        w.enc.glShaderSource(name, 1, wire::Blob{b.data(), uint32_t(b.size())});
        w.enc.glCompileShader(name);
    };
    stage(30, GL_VERTEX_SHADER, "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n");
    stage(31, GL_FRAGMENT_SHADER,
          "#version 430 core\nlayout(std430, binding = 0) buffer C { vec4 colour; };\nout vec4 o;\nvoid main() { o = colour; }\n");
    w.enc.glCreateProgram(32);
    w.enc.glAttachShader(32, 30);
    w.enc.glAttachShader(32, 31);
    w.enc.glLinkProgram(32);
    const GLint linked = program_iv(w, 32, GL_LINK_STATUS);
    if (!linked) MESSAGE(w.log_text.str());
    REQUIRE(linked);
    const float tri[] = {-1, -1, 3, -1, -1, 3};
    GLuint vao = 40;
    w.enc.glGenVertexArrays(1, wire::Blob{&vao, 4});
    w.enc.glBindVertexArray(vao);
    buffer(w, GL_ARRAY_BUFFER, 41, tri, sizeof tri);
    w.enc.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, wire::OffsetOrBlob{0, nullptr, 0});
    w.enc.glEnableVertexAttribArray(0);
    w.enc.glUseProgram(32);
    w.enc.glViewport(0, 0, kW, kH);
    w.enc.glDrawArrays(GL_TRIANGLES, 0, 3);
    CHECK(w.error() == GL_NO_ERROR);
    std::vector<uint8_t> px = w.read_pixels(kW, kH);
    REQUIRE(px.size() == size_t(kW * kH * 4));
    const size_t at = (size_t(kH / 2) * kW + kW / 2) * 4;
    CHECK(px[at] == 0);
    CHECK(px[at + 1] == 255);
}

}  // namespace magma_test
