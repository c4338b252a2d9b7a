// Atomic counters on Magma (desktop contexts, GL_ARB_shader_atomic_counters:
// atomic_counters.cc, counters_link.h): counters incremented by a dispatch
// and by every fragment of a draw read back from their buffers, implicit
// offsets at one binding, the program's counter buffer queries, the limits,
// and the errors GL prescribes (a binding past the limit, an unaligned
// offset, a draw whose counter buffer is missing or too small).
#include <GLES3/gl32.h>
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "harness.h"

namespace magma_test {
namespace {

constexpr int kW = 16, kH = 16;
constexpr GLenum kAtomicCounterBuffer = 0x92C0;  // GL_ATOMIC_COUNTER_BUFFER
constexpr GLenum kActiveCounterBuffers = 0x92D9;  // GL_ACTIVE_ATOMIC_COUNTER_BUFFERS
constexpr GLenum kMaxBindings = 0x92DC;  // GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS
constexpr GLenum kMaxFragmentCounters = 0x92D6;  // GL_MAX_FRAGMENT_ATOMIC_COUNTERS
constexpr GLenum kBufferBinding = 0x92C1, kDataSize = 0x92C4, kActiveCounters = 0x92C5;

void start_desktop(Wire& w) {
    w.enc.mglCreateContext(1, 0, 3, 3, 0, 0x30A2 /* EGL_OPENGL_API */, 1 /* core */);
    w.enc.mglCreateSurface(1, 0x3033, kW, kH, 8, 8, 8, 8, 24, 8, 0);
    w.enc.mglMakeCurrent(1, 1, 1);
}

GLint program_iv(Wire& w, GLuint p, GLenum pname) {
    GLint v = 0;
    w.enc.glGetProgramiv(p, pname, 4);
    gen::read_reply_glGetProgramiv(w.enc.wait_reply(), &v, 4);
    return v;
}

GLint integer(Wire& w, GLenum pname) {
    GLint v = -1;
    w.enc.glGetIntegerv(pname, 4);
    gen::read_reply_glGetIntegerv(w.enc.wait_reply(), &v, 4);
    return v;
}

GLint counter_buffer_iv(Wire& w, GLuint p, GLuint index, GLenum pname) {
    GLint v = -1;
    w.enc.glGetActiveAtomicCounterBufferiv(p, index, pname, 4);
    gen::read_reply_glGetActiveAtomicCounterBufferiv(w.enc.wait_reply(), &v, 4);
    return v;
}

void shader(Wire& w, GLuint name, GLenum type, const char* src) {
    w.enc.glCreateShader(type, name);
    std::string b = strings_blob({src});
    w.enc.glShaderSource(name, 1, wire::Blob{b.data(), uint32_t(b.size())});
    w.enc.glCompileShader(name);
}

GLuint link(Wire& w, GLuint name, std::initializer_list<GLuint> shaders) {
    w.enc.glCreateProgram(name);
    for (GLuint s : shaders) w.enc.glAttachShader(name, s);
    w.enc.glLinkProgram(name);
    const GLint ok = program_iv(w, name, GL_LINK_STATUS);
    if (!ok) MESSAGE(w.log_text.str());
    return ok ? name : 0;
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

// GLSL 1.40 through the extension: 8 x 4 invocations count up `up` (offset
// 4: the implicit one after `first`) and down `down` (binding 1), which
// starts at 100; `first` is read only.
const char* kCount =
    "#version 140\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_atomic_counters : require\n"
    "layout(local_size_x = 8, local_size_y = 4) in;\n"
    "layout(binding = 0, offset = 0) uniform atomic_uint first;\n"
    "layout(binding = 0) uniform atomic_uint up;\n"
    "layout(binding = 1, offset = 8) uniform atomic_uint down;\n"
    "void main() { atomicCounterIncrement(up); atomicCounterDecrement(down); if (atomicCounter(first) == 7u) atomicCounterIncrement(up); }\n";

}  // namespace

TEST_CASE("atomic counters: a dispatch counts; implicit offsets; the program's counter buffers; limits and errors") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w);
    const std::string ext = " " + w.get_string(GL_EXTENSIONS) + " ";
    REQUIRE(ext.find(" GL_ARB_shader_atomic_counters ") != std::string::npos);
    const GLint bindings = integer(w, kMaxBindings);
    CHECK(bindings >= 1);
    CHECK(integer(w, kMaxFragmentCounters) >= 8);
    shader(w, 10, GL_COMPUTE_SHADER, kCount);
    const GLuint p = link(w, 11, {10});
    REQUIRE(p);
    CHECK(program_iv(w, p, kActiveCounterBuffers) == 2);
    // The buffers and their counters as GL reports them (listed by binding point).
    CHECK(counter_buffer_iv(w, p, 0, kBufferBinding) == 0);
    CHECK(counter_buffer_iv(w, p, 0, kDataSize) == 8);  // first at 0, up at 4
    CHECK(counter_buffer_iv(w, p, 0, kActiveCounters) == 2);
    CHECK(counter_buffer_iv(w, p, 1, kBufferBinding) == 1);
    CHECK(counter_buffer_iv(w, p, 1, kDataSize) == 12);
    CHECK(w.error() == GL_NO_ERROR);
    counter_buffer_iv(w, p, 2, kBufferBinding);
    CHECK(w.error() == GL_INVALID_VALUE);

    const uint32_t a[2] = {7, 0};
    buffer(w, kAtomicCounterBuffer, 20, a, sizeof a);
    w.enc.glBindBufferBase(kAtomicCounterBuffer, 0, 20);
    const uint32_t b[4] = {0, 0, 100, 0};  // `down` at offset 8 of a range that starts at 16
    std::vector<uint32_t> b_bytes(8, 0);
    std::memcpy(b_bytes.data() + 4, b, sizeof b);
    buffer(w, kAtomicCounterBuffer, 21, b_bytes.data(), b_bytes.size() * 4);
    w.enc.glBindBufferRange(kAtomicCounterBuffer, 1, 21, 16, 16);
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.glUseProgram(p);
    w.enc.glDispatchCompute(1, 1, 1);
    w.enc.glMemoryBarrier(0x00001000 /* GL_ATOMIC_COUNTER_BARRIER_BIT */);
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.glBindBuffer(kAtomicCounterBuffer, 20);
    std::vector<uint32_t> got = read_back(w, kAtomicCounterBuffer, 2);
    CHECK(got[0] == 7);
    CHECK(got[1] == 64);  // 32 invocations, twice each (first == 7)
    w.enc.glBindBuffer(kAtomicCounterBuffer, 21);
    got = read_back(w, kAtomicCounterBuffer, 8);
    CHECK(got[6] == 100 - 32);
    CHECK(got[4] == 0);

    // GL's errors (the front end's rules): index past the limit, an offset not
    // a multiple of 4, a non-positive size.
    w.enc.glBindBufferBase(kAtomicCounterBuffer, GLuint(bindings), 20);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glBindBufferRange(kAtomicCounterBuffer, 0, 20, 2, 4);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glBindBufferRange(kAtomicCounterBuffer, 0, 20, 0, -4);
    CHECK(w.error() == GL_INVALID_VALUE);
    // A range smaller than the counters in it never reaches the device.
    w.enc.glBindBufferRange(kAtomicCounterBuffer, 1, 21, 16, 8);
    w.enc.glDispatchCompute(1, 1, 1);
    CHECK(w.error() == GL_INVALID_OPERATION);
    // Nor one that the buffer no longer holds.
    w.enc.glBindBufferRange(kAtomicCounterBuffer, 1, 21, 16, 16);
    w.enc.glBindBuffer(kAtomicCounterBuffer, 21);
    w.enc.glBufferData(kAtomicCounterBuffer, 8, wire::Blob{nullptr, 0}, GL_DYNAMIC_COPY);
    w.enc.glDispatchCompute(1, 1, 1);
    CHECK(w.error() == GL_INVALID_OPERATION);
    w.enc.glBindBuffer(kAtomicCounterBuffer, 20);
    got = read_back(w, kAtomicCounterBuffer, 2);
    CHECK(got[1] == 64);  // nothing ran
}

TEST_CASE("atomic counters: every fragment of a draw counts") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w);
    shader(w, 30, GL_VERTEX_SHADER,
           "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n");
    shader(w, 31, GL_FRAGMENT_SHADER,
           "#version 420 core\nlayout(binding = 0, offset = 4) uniform atomic_uint n;\nout vec4 o;\n"
           "void main() { uint i = atomicCounterIncrement(n); o = vec4(0.0, 1.0, 0.0, 1.0); }\n");
    const GLuint p = link(w, 32, {30, 31});
    REQUIRE(p);
    CHECK(program_iv(w, p, kActiveCounterBuffers) == 1);
    const uint32_t zero[2] = {5, 0};
    buffer(w, kAtomicCounterBuffer, 20, zero, sizeof zero);
    w.enc.glBindBufferBase(kAtomicCounterBuffer, 0, 20);
    // The left half of the surface: kW / 2 * kH fragments.
    const float tri[] = {-1, -1, 0, -1, 0, 1, -1, -1, 0, 1, -1, 1};
    GLuint vao = 40;
    w.enc.glGenVertexArrays(1, wire::Blob{&vao, 4});
    w.enc.glBindVertexArray(vao);
    buffer(w, GL_ARRAY_BUFFER, 41, tri, sizeof tri);
    w.enc.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, wire::OffsetOrBlob{0, nullptr, 0});
    w.enc.glEnableVertexAttribArray(0);
    w.enc.glUseProgram(p);
    w.enc.glViewport(0, 0, kW, kH);
    w.enc.glDrawArrays(GL_TRIANGLES, 0, 6);
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.glBindBuffer(kAtomicCounterBuffer, 20);
    const std::vector<uint32_t> got = read_back(w, kAtomicCounterBuffer, 2);
    CHECK(got[0] == 5);  // the word before the counter is left alone
    CHECK(got[1] == uint32_t(kW / 2 * kH));
    // Without a buffer at the binding point the draw is refused.
    w.enc.glBindBufferBase(kAtomicCounterBuffer, 0, 0);
    w.enc.glDrawArrays(GL_TRIANGLES, 0, 6);
    CHECK(w.error() == GL_INVALID_OPERATION);
}

}  // namespace magma_test
