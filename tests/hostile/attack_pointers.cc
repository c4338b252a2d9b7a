// A hostile client for item 1 of the isolation issue: short sequences of
// valid records that try to make the server hand its host driver an address
// the client chose (an offset with no buffer behind it, or a pointer).
//
//   mgl-attack-pointers TRANSPORT BACKEND CASE
//
// Connects to a live `mgl server` with libwire's real transport and the
// generated encoder (what the client library sends, without its checks),
// creates a GLES 3.1 context on a pbuffer, plays CASE and asks for the GL
// error of its last, dangerous call. Exit status:
//   0  the call was refused with a GL error (what the server must do)
//   1  the session was lost (the server crashed, or ended the session)
//   2  the call was accepted without an error: the host read the address
//   3  could not connect / set up
//   4  the backend refused the valid setup (it lacks the feature: the case does not apply)
// `list` as CASE prints the cases, one a line.
#include <cstdint>
#include <stdexcept>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gen/encoder.h"
#include "gen/fingerprint.h"
#include "gen/replies.h"
#include "mgl/wire/transport/connect.h"

using namespace mgl;

namespace {

// GL enums used here (the attack speaks the wire, not a GL header).
enum : GLenum {
    kTriangles = 0x0004, kFloat = 0x1406, kUnsignedShort = 0x1403, kUnsignedByte = 0x1401, kRgba = 0x1908,
    kArrayBuffer = 0x8892, kElementArrayBuffer = 0x8893, kPixelPackBuffer = 0x88EB, kPixelUnpackBuffer = 0x88EC,
    kDrawIndirectBuffer = 0x8F3F, kUniformBuffer = 0x8A11, kStaticDraw = 0x88E4, kTexture2D = 0x0DE1,
    kVertexShader = 0x8B31, kFragmentShader = 0x8B30, kEtc2Rgb8 = 0x9274,
};

// An address the client chose: what the host must never read.
constexpr uint64_t kAddr = 0x414141410000ull;
// An offset that wraps around when a length is added to it.
constexpr uint64_t kWrap = 0xFFFFFFFFFFFFFFC0ull;

struct Attack {
    std::unique_ptr<wire::Connection> link;
    std::unique_ptr<gen::Encoder> enc;
    GLuint next = 100;  // client-minted names

    GLenum error() {
        enc->mglGetError();
        GLenum e = 0;
        std::span<const uint8_t> r = enc->wait_reply();
        if (r.empty() || !gen::read_reply_mglGetError(r, &e)) throw std::runtime_error("lost");
        // A span that ends in a sync verb sends its errors as events (for
        // MOBILEGL_GL_ERRORS=async): they count as well.
        wire::Event ev;
        GLenum first = 0;
        while (link->poll_event(&ev))
            if (ev.kind == wire::Event::Kind::gl_error && !first) first = ev.gl_error;
        return first ? first : e;
    }
    GLuint gen_buffer(GLenum target, uint32_t bytes) {
        GLuint b = next++;
        enc->glGenBuffers(1, wire::Blob{&b, 4});
        enc->glBindBuffer(target, b);
        std::vector<uint8_t> zero(bytes, 0);
        enc->glBufferData(target, GLsizeiptr(bytes), wire::Blob{zero.data(), bytes}, kStaticDraw);
        return b;
    }
    // Called just before the dangerous call: the setup must have been valid
    // GL, so that the error read afterwards is the dangerous call's own.
    void arm() {
        if (GLenum e = error()) throw std::invalid_argument("setup raised GL error " + std::to_string(e));
    }
    void delete_buffer(GLuint b) { enc->glDeleteBuffers(1, wire::Blob{&b, 4}); }
    GLuint shader(GLenum type, const std::string& src) {
        GLuint s = next++;
        enc->glCreateShader(type, s);
        std::string blob = src + '\0';
        enc->glShaderSource(s, 1, wire::Blob{blob.data(), uint32_t(blob.size())});
        enc->glCompileShader(s);
        return s;
    }
    // A program that reads attribute 0 (and, with `block`, a uniform block).
    void program(bool block = false) {
        const std::string vs = block ? "#version 300 es\nlayout(location=0) in vec4 p;\n"
                                       "layout(std140) uniform B { vec4 v; };\nvoid main() { gl_Position = p + v; }\n"
                                     : "#version 300 es\nlayout(location=0) in vec4 p;\nvoid main() { gl_Position = p; }\n";
        const std::string fs = "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        GLuint p = next++;
        enc->glCreateProgram(p);
        enc->glAttachShader(p, shader(kVertexShader, vs));
        enc->glAttachShader(p, shader(kFragmentShader, fs));
        enc->glLinkProgram(p);
        enc->glUseProgram(p);
    }
};

using Case = std::function<void(Attack&)>;

// Each case ends with the call that would make the host read (or write) the
// client's address; everything before it is valid GL.
const std::map<std::string, Case>& cases() {
    static const std::map<std::string, Case> c = {
        // The reported crash: the default VAO's attribute keeps the offset of
        // a buffer that is then deleted; the host takes it for a pointer.
        {"attrib-deleted-buffer", [](Attack& a) {
             a.program();
             a.gen_buffer(kArrayBuffer, 64);
             a.enc->glVertexAttribPointer(0, 4, kFloat, 0, 0, wire::OffsetOrBlob{kAddr, nullptr, 0});
             a.enc->glEnableVertexAttribArray(0);
             a.delete_buffer(a.next - 1);
             a.arm();
             a.enc->glDrawArrays(kTriangles, 0, 3);
         }},
        // The same on a named vertex array.
        {"attrib-deleted-buffer-vao", [](Attack& a) {
             a.program();
             GLuint vao = a.next++;
             a.enc->glGenVertexArrays(1, wire::Blob{&vao, 4});
             a.enc->glBindVertexArray(vao);
             a.gen_buffer(kArrayBuffer, 64);
             a.enc->glVertexAttribPointer(0, 4, kFloat, 0, 0, wire::OffsetOrBlob{kAddr, nullptr, 0});
             a.enc->glEnableVertexAttribArray(0);
             a.enc->glBindVertexArray(0);
             a.enc->glBindVertexArray(vao);
             a.delete_buffer(a.next - 1);
             a.arm();
             a.enc->glDrawArrays(kTriangles, 0, 3);
         }},
        // A null client array (offset 0, no buffer bound), read at first * 16.
        {"attrib-null-array", [](Attack& a) {
             a.program();
             a.enc->glBindBuffer(kArrayBuffer, 0);
             a.enc->glVertexAttribPointer(0, 4, kFloat, 0, 0, wire::OffsetOrBlob{0, nullptr, 0});
             a.enc->glEnableVertexAttribArray(0);
             a.arm();
             a.enc->glDrawArrays(kTriangles, GLint(kAddr >> 20), 3);
         }},
        // ES 3.1 separate format: a vertex buffer binding with buffer 0 and an offset.
        {"attrib-vertex-buffer-0", [](Attack& a) {
             a.program();
             GLuint vao = a.next++;  // ES 3.1 allows vertex buffer bindings on named arrays only
             a.enc->glGenVertexArrays(1, wire::Blob{&vao, 4});
             a.enc->glBindVertexArray(vao);
             a.enc->glBindVertexBuffer(0, 0, GLintptr(kAddr), 16);
             a.enc->glVertexAttribFormat(0, 4, kFloat, 0, 0);
             a.enc->glVertexAttribBinding(0, 0);
             a.enc->glEnableVertexAttribArray(0);
             a.arm();
             a.enc->glDrawArrays(kTriangles, 0, 3);
         }},
        // Indices at an offset into an element buffer that was deleted.
        {"elements-deleted-buffer", [](Attack& a) {
             a.program();
             GLuint vb = a.gen_buffer(kArrayBuffer, 64);
             (void)vb;
             a.enc->glVertexAttribPointer(0, 4, kFloat, 0, 0, wire::OffsetOrBlob{0, nullptr, 0});
             a.enc->glEnableVertexAttribArray(0);
             GLuint eb = a.gen_buffer(kElementArrayBuffer, 64);
             a.delete_buffer(eb);
             a.arm();
             a.enc->glDrawElements(kTriangles, 3, kUnsignedShort, wire::OffsetOrBlob{kAddr, nullptr, 0});
         }},
        // Pixel unpack from a deleted unpack buffer.
        {"unpack-deleted-buffer", [](Attack& a) {
             GLuint t = a.next++;
             a.enc->glGenTextures(1, wire::Blob{&t, 4});
             a.enc->glBindTexture(kTexture2D, t);
             a.delete_buffer(a.gen_buffer(kPixelUnpackBuffer, 64));
             a.arm();
             a.enc->glTexImage2D(kTexture2D, 0, GLint(kRgba), 4, 4, 0, kRgba, kUnsignedByte, wire::OffsetOrBlob{kAddr, nullptr, 0});
         }},
        {"unpack-sub-no-buffer", [](Attack& a) {
             GLuint t = a.next++;
             a.enc->glGenTextures(1, wire::Blob{&t, 4});
             a.enc->glBindTexture(kTexture2D, t);
             a.enc->glTexStorage2D(kTexture2D, 1, 0x8058 /* RGBA8 */, 4, 4);
             a.arm();
             a.enc->glTexSubImage2D(kTexture2D, 0, 0, 0, 4, 4, kRgba, kUnsignedByte, wire::OffsetOrBlob{kAddr, nullptr, 0});
         }},
        {"unpack-compressed-no-buffer", [](Attack& a) {
             GLuint t = a.next++;
             a.enc->glGenTextures(1, wire::Blob{&t, 4});
             a.enc->glBindTexture(kTexture2D, t);
             a.arm();
             a.enc->glCompressedTexImage2D(kTexture2D, 0, kEtc2Rgb8, 4, 4, 0, 8, wire::OffsetOrBlob{kAddr, nullptr, 0});
         }},
        // Pixel pack into a deleted pack buffer: a write at the client's address.
        {"pack-deleted-buffer", [](Attack& a) {
             a.delete_buffer(a.gen_buffer(kPixelPackBuffer, 64));
             a.arm();
             a.enc->glReadPixels(0, 0, 4, 4, kRgba, kUnsignedByte, kAddr, 0);
             std::span<const uint8_t> r = a.enc->wait_reply();
             if (r.empty()) throw std::runtime_error("lost");
         }},
        // Indirect draw and dispatch parameters at an offset with no buffer.
        {"indirect-draw-deleted-buffer", [](Attack& a) {
             a.program();
             GLuint vao = a.next++;
             a.enc->glGenVertexArrays(1, wire::Blob{&vao, 4});
             a.enc->glBindVertexArray(vao);
             a.delete_buffer(a.gen_buffer(kDrawIndirectBuffer, 64));
             a.arm();
             a.enc->glDrawArraysIndirect(kTriangles, wire::OffsetOrBlob{kAddr, nullptr, 0});
         }},
        {"indirect-dispatch-no-buffer", [](Attack& a) {
             a.arm();
             a.enc->glDispatchComputeIndirect(GLintptr(kAddr));
         }},
        // Offsets into a bound buffer, far past its end or wrapping around.
        {"attrib-offset-past-end", [](Attack& a) {
             a.program();
             a.gen_buffer(kArrayBuffer, 64);
             a.enc->glVertexAttribPointer(0, 4, kFloat, 0, 0, wire::OffsetOrBlob{kAddr, nullptr, 0});
             a.enc->glEnableVertexAttribArray(0);
             a.arm();
             a.enc->glDrawArrays(kTriangles, 0, 3);
         }},
        {"elements-offset-wraps", [](Attack& a) {
             a.program();
             a.gen_buffer(kArrayBuffer, 64);
             a.enc->glVertexAttribPointer(0, 4, kFloat, 0, 0, wire::OffsetOrBlob{0, nullptr, 0});
             a.enc->glEnableVertexAttribArray(0);
             a.gen_buffer(kElementArrayBuffer, 64);
             a.arm();
             a.enc->glDrawElements(kTriangles, 3, kUnsignedShort, wire::OffsetOrBlob{kWrap, nullptr, 0});
         }},
        {"unpack-offset-wraps", [](Attack& a) {
             GLuint t = a.next++;
             a.enc->glGenTextures(1, wire::Blob{&t, 4});
             a.enc->glBindTexture(kTexture2D, t);
             a.gen_buffer(kPixelUnpackBuffer, 64);
             a.arm();
             a.enc->glTexImage2D(kTexture2D, 0, GLint(kRgba), 4, 4, 0, kRgba, kUnsignedByte, wire::OffsetOrBlob{kWrap, nullptr, 0});
         }},
        {"pack-offset-wraps", [](Attack& a) {
             a.gen_buffer(kPixelPackBuffer, 64);
             a.arm();
             a.enc->glReadPixels(0, 0, 4, 4, kRgba, kUnsignedByte, kWrap, 0);
             std::span<const uint8_t> r = a.enc->wait_reply();
             if (r.empty()) throw std::runtime_error("lost");
         }},
        // A uniform range far past its buffer's end (the buffer shrunk after the bind).
        {"uniform-range-past-end", [](Attack& a) {
             a.program(true);
             GLuint vb = a.gen_buffer(kArrayBuffer, 64);
             (void)vb;
             a.enc->glVertexAttribPointer(0, 4, kFloat, 0, 0, wire::OffsetOrBlob{0, nullptr, 0});
             a.enc->glEnableVertexAttribArray(0);
             GLuint ub = a.gen_buffer(kUniformBuffer, 64u << 20);
             a.enc->glBindBufferRange(kUniformBuffer, 0, ub, GLintptr(60u << 20), 16);
             std::vector<uint8_t> small(16, 0);
             a.enc->glBufferData(kUniformBuffer, 16, wire::Blob{small.data(), 16}, kStaticDraw);
             a.arm();
             a.enc->glDrawArrays(kTriangles, 0, 3);
         }},
        // The same range, valid when first drawn; then another context of the
        // share group re-specifies the buffer smaller, and the first draws again.
        {"uniform-range-shrunk-by-shared-context", [](Attack& a) {
             a.program(true);
             a.gen_buffer(kArrayBuffer, 64);
             a.enc->glVertexAttribPointer(0, 4, kFloat, 0, 0, wire::OffsetOrBlob{0, nullptr, 0});
             a.enc->glEnableVertexAttribArray(0);
             GLuint ub = a.gen_buffer(kUniformBuffer, 64u << 20);
             a.enc->glBindBufferRange(kUniformBuffer, 0, ub, GLintptr(60u << 20), 16);
             a.enc->glDrawArrays(kTriangles, 0, 3);  // valid: checked once
             a.enc->mglCreateContext(2, 1, 3, 1, 0, 0x30A0 /* EGL_OPENGL_ES_API */, 0);
             a.enc->mglMakeCurrent(1, 1, 2);
             a.enc->glBindBuffer(kUniformBuffer, ub);
             std::vector<uint8_t> small(16, 0);
             a.enc->glBufferData(kUniformBuffer, 16, wire::Blob{small.data(), 16}, kStaticDraw);
             a.enc->mglMakeCurrent(1, 1, 1);
             a.arm();
             a.enc->glDrawArrays(kTriangles, 0, 3);
         }},
        // Image sizes and regions the client chose: a texture or renderbuffer
        // beyond the device's limits, a region past a level's end, a 3D
        // upload on a 2D target. A driver need not survive images beyond its
        // limits or copies outside them (lavapipe wrote past its own
        // allocations on the first and third, 2026-12-05). The sizes stay
        // within the session's memory budget, which ends a session asking
        // for more (hostile-memory-budget), so that the backend's own check
        // is what is tested.
        {"texture-beyond-limits", [](Attack& a) {
             GLuint t = a.next++;
             a.enc->glGenTextures(1, wire::Blob{&t, 4});
             a.enc->glBindTexture(kTexture2D, t);
             a.arm();
             a.enc->glTexImage2D(kTexture2D, 0, GLint(kRgba), 1 << 20, 1, 0, kRgba, kUnsignedByte,
                                 wire::OffsetOrBlob{0, nullptr, 0});
         }},
        {"renderbuffer-beyond-limits", [](Attack& a) {
             GLuint rb = a.next++;
             a.enc->glGenRenderbuffers(1, wire::Blob{&rb, 4});
             a.enc->glBindRenderbuffer(0x8D41 /* GL_RENDERBUFFER */, rb);
             a.arm();
             a.enc->glRenderbufferStorage(0x8D41, 0x8058 /* RGBA8 */, 1 << 20, 1);
         }},
        {"tex-sub-image-3d-past-layers", [](Attack& a) {
             GLuint t = a.next++;
             a.enc->glGenTextures(1, wire::Blob{&t, 4});
             a.enc->glBindTexture(0x8C1A /* GL_TEXTURE_2D_ARRAY */, t);
             a.enc->glTexStorage3D(0x8C1A, 1, 0x8058 /* RGBA8 */, 4, 4, 2);
             std::vector<uint8_t> texels(4 * 4 * 64 * 4, 0x41);
             a.arm();
             a.enc->glTexSubImage3D(0x8C1A, 0, 0, 0, 0, 4, 4, 64, kRgba, kUnsignedByte,
                                    wire::OffsetOrBlob{0, texels.data(), uint32_t(texels.size())});
         }},
        // A copy from the framebuffer into a region past the level's end.
        {"copy-tex-sub-image-outside", [](Attack& a) {
             GLuint t = a.next++;
             a.enc->glGenTextures(1, wire::Blob{&t, 4});
             a.enc->glBindTexture(kTexture2D, t);
             a.enc->glTexStorage2D(kTexture2D, 1, 0x8058 /* RGBA8 */, 16, 16);
             a.arm();
             a.enc->glCopyTexSubImage2D(kTexture2D, 0, 6, 6, 0, 0, 60, 60);
         }},
        {"tex-image-3d-on-2d-target", [](Attack& a) {
             GLuint t = a.next++;
             a.enc->glGenTextures(1, wire::Blob{&t, 4});
             a.enc->glBindTexture(kTexture2D, t);
             std::vector<uint8_t> texels(4 * 4 * 64 * 4, 0x41);
             a.arm();
             a.enc->glTexImage3D(kTexture2D, 0, GLint(kRgba), 4, 4, 64, 0, kRgba, kUnsignedByte,
                                 wire::OffsetOrBlob{0, texels.data(), uint32_t(texels.size())});
         }},
    };
    return c;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "list") {
        for (const auto& [name, fn] : cases()) std::printf("%s\n", name.c_str());
        return 0;
    }
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s TRANSPORT BACKEND CASE | list\n", argv[0]);
        return 3;
    }
    auto it = cases().find(argv[3]);
    if (it == cases().end()) {
        std::fprintf(stderr, "unknown case %s\n", argv[3]);
        return 3;
    }
    wire::ConnectOptions o;
    o.transport = argv[1];
    o.backend = argv[2];
    o.wire_fingerprint = gen::kWireFingerprint;
    o.build_id = "mgl-attack-pointers";
    wire::ConnectResult r = wire::connect(o);
    if (!r.link) {
        std::fprintf(stderr, "%s: cannot connect: %s\n", argv[3], r.error.c_str());
        return 3;
    }
    Attack a;
    a.link = std::move(r.link);
    a.enc = std::make_unique<gen::Encoder>(a.link.get());
    try {
        a.enc->mglCreateContext(1, 0, 3, 1, 0, 0x30A0 /* EGL_OPENGL_ES_API */, 0);
        a.enc->mglCreateSurface(1, 0x3033, 64, 64, 8, 8, 8, 8, 24, 8, 0);
        a.enc->mglMakeCurrent(1, 1, 1);
        if (GLenum e = a.error()) {
            std::fprintf(stderr, "%s: setup failed: GL error 0x%x\n", argv[3], e);
            return 3;
        }
        it->second(a);
        const GLenum e = a.error();
        if (e) {
            std::printf("%s: refused (GL error 0x%x)\n", argv[3], e);
            return 0;
        }
        std::printf("%s: ACCEPTED without a GL error: nothing stopped the client's address\n", argv[3]);
        return 2;
    } catch (const std::invalid_argument& e) {
        std::printf("%s: not applicable: the backend refused the setup (%s)\n", argv[3], e.what());
        return 4;
    } catch (const std::exception&) {
        std::printf("%s: session lost: %s\n", argv[3], a.link->lost_reason().c_str());
        return 1;
    }
}
