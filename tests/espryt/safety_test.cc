// What the backend refuses, and how: short COMPSIZE arrays, names the client
// never minted, offsets with no buffer bound, verbs a GLES host cannot run.
// Every case ends in a GL error for the client and never in a crash or a
// host call with a guessed argument.
#include <doctest.h>

#include "harness.h"

using namespace espryt_test;

TEST_CASE("COMPSIZE arrays shorter than the host would read are refused") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start();
    GLuint tex = 5;
    w.enc.glGenTextures(1, wire::Blob{&tex, 4});
    w.enc.glBindTexture(GL_TEXTURE_2D, tex);
    CHECK(w.error() == GL_NO_ERROR);

    SUBCASE("an image with fewer bytes than width x height x format") {
        uint8_t px[16] = {};  // a 4x4 RGBA image needs 64
        w.enc.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, wire::OffsetOrBlob{0, px, 16});
        CHECK(w.error() == GL_INVALID_OPERATION);
        CHECK(w.log_lines("glTexImage2D refused") == 1);
    }
    SUBCASE("the row padding of the unpack alignment counts") {
        uint8_t px[9 * 3] = {};  // 3x3 RGB: 27 bytes tight, 35 with 4-byte rows
        w.enc.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 3, 3, 0, GL_RGB, GL_UNSIGNED_BYTE, wire::OffsetOrBlob{0, px, 27});
        CHECK(w.error() == GL_INVALID_OPERATION);
        w.enc.glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        w.enc.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 3, 3, 0, GL_RGB, GL_UNSIGNED_BYTE, wire::OffsetOrBlob{0, px, 27});
        CHECK(w.error() == GL_NO_ERROR);
    }
    SUBCASE("a parameter vector shorter than its pname") {
        const float one = 1.0f;  // GL_TEXTURE_BORDER_COLOR reads four
        w.enc.glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, wire::Blob{&one, 4});
        CHECK(w.error() == GL_INVALID_VALUE);
    }
    SUBCASE("inline indices shorter than count x type") {
        const uint16_t idx[2] = {0, 1};
        w.enc.glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, wire::OffsetOrBlob{0, idx, 4});
        CHECK(w.error() == GL_INVALID_OPERATION);
    }
    SUBCASE("a glReadPixels reply smaller than the image") {
        w.enc.glReadPixels(0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, 0, 16);
        std::vector<uint8_t> px(16, 0xAB);
        CHECK(gen::read_reply_glReadPixels(w.enc.wait_reply(), px.data(), 16));
        CHECK(px == std::vector<uint8_t>(16, 0));  // nothing written, nothing leaked
        CHECK(w.error() == GL_INVALID_OPERATION);
    }
    CHECK(w.flush().ok());
}

TEST_CASE("names the client never minted never reach the host") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start();
    GLuint vao = 40;
    w.enc.glGenVertexArrays(1, wire::Blob{&vao, 4});
    w.enc.glBindVertexArray(vao);
    GLuint prog = 41;
    w.enc.glCreateProgram(prog);
    CHECK(w.error() == GL_NO_ERROR);

    w.enc.glBindVertexArray(999);  // never generated: the binding must stay 40, not fall to 0
    CHECK(w.error() == GL_INVALID_OPERATION);
    CHECK(w.get_integer(GL_VERTEX_ARRAY_BINDING) == 40);

    w.enc.glAttachShader(prog, 12345);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glUseProgram(777);
    CHECK(w.error() == GL_INVALID_VALUE);
    // A refused lookup answers GL's "not found", never a valid location 0.
    w.enc.glGetUniformLocation(778, wire::Blob{"u", 2});
    GLint loc = 0;
    CHECK(gen::read_reply_glGetUniformLocation(w.enc.wait_reply(), &loc));
    CHECK(loc == -1);
    CHECK(w.error() == GL_INVALID_VALUE);
    CHECK(w.get_integer(GL_CURRENT_PROGRAM) == 0);

    // glIs* answers false without an error; glDelete* skips unknown names.
    w.enc.glIsBuffer(31337);
    GLboolean is = 7;
    CHECK(gen::read_reply_glIsBuffer(w.enc.wait_reply(), &is));
    CHECK(is == GL_FALSE);
    GLuint junk[2] = {4242, 0};
    w.enc.glDeleteBuffers(2, wire::Blob{junk, 8});
    CHECK(w.error() == GL_NO_ERROR);

    // Queries answer with client names.
    GLuint buf = 500;
    w.enc.glGenBuffers(1, wire::Blob{&buf, 4});
    w.enc.glBindBuffer(GL_ARRAY_BUFFER, buf);
    CHECK(w.get_integer(GL_ARRAY_BUFFER_BINDING) == 500);
    // Binding a name never generated creates it, as GLES does for buffers.
    w.enc.glBindBuffer(GL_ARRAY_BUFFER, 600);
    CHECK(w.get_integer(GL_ARRAY_BUFFER_BINDING) == 600);
    CHECK(w.error() == GL_NO_ERROR);
    CHECK(w.flush().ok());
}

TEST_CASE("offsets without a bound buffer and retained client pointers are refused") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start();
    // No array buffer: the host would take 0x1000 for a server address.
    w.enc.glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, wire::OffsetOrBlob{0x1000, nullptr, 0});
    CHECK(w.error() == GL_INVALID_OPERATION);
    // Client memory for an attribute: the host would keep a pointer into the record.
    const float v[12] = {};
    w.enc.glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, wire::OffsetOrBlob{0, v, sizeof v});
    CHECK(w.error() == GL_INVALID_OPERATION);
    // No element buffer: an index offset is refused too.
    w.enc.glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, wire::OffsetOrBlob{64, nullptr, 0});
    CHECK(w.error() == GL_INVALID_OPERATION);
    // No pack buffer: glReadPixels into an offset would write server memory.
    w.enc.glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 0x2000, 0);
    (void)w.enc.wait_reply();
    CHECK(w.error() == GL_INVALID_OPERATION);

    // With the buffers bound, offsets go through.
    GLuint b[2] = {10, 11};
    w.enc.glGenBuffers(2, wire::Blob{b, 8});
    w.enc.glBindBuffer(GL_ARRAY_BUFFER, 10);
    w.enc.glBufferData(GL_ARRAY_BUFFER, sizeof v, wire::Blob{v, sizeof v}, GL_STATIC_DRAW);
    w.enc.glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, wire::OffsetOrBlob{16, nullptr, 0});
    CHECK(w.error() == GL_NO_ERROR);
    // Deleting the bound buffer unbinds it: offsets are refused again.
    w.enc.glDeleteBuffers(1, wire::Blob{b, 4});
    w.enc.glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, wire::OffsetOrBlob{16, nullptr, 0});
    CHECK(w.error() == GL_INVALID_OPERATION);
    // The element buffer belongs to the vertex array object.
    GLuint vao[2] = {20, 21};
    w.enc.glGenVertexArrays(2, wire::Blob{vao, 8});
    w.enc.glBindVertexArray(20);
    w.enc.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 11);
    const uint16_t idx[3] = {0, 1, 2};
    w.enc.glBufferData(GL_ELEMENT_ARRAY_BUFFER, 6, wire::Blob{idx, 6}, GL_STATIC_DRAW);
    w.enc.glDrawElements(GL_POINTS, 3, GL_UNSIGNED_SHORT, wire::OffsetOrBlob{0, nullptr, 0});
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.glBindVertexArray(21);
    w.enc.glDrawElements(GL_POINTS, 3, GL_UNSIGNED_SHORT, wire::OffsetOrBlob{2, nullptr, 0});
    CHECK(w.error() == GL_INVALID_OPERATION);
    w.enc.glBindVertexArray(20);
    w.enc.glDrawElements(GL_POINTS, 2, GL_UNSIGNED_SHORT, wire::OffsetOrBlob{2, nullptr, 0});
    CHECK(w.error() == GL_NO_ERROR);
    CHECK(w.flush().ok());
}

TEST_CASE("share groups share buffers; separate groups do not") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.enc.mglCreateContext(1, 0, 3, 0, 0, 0x30A0, 0);
    w.enc.mglCreateContext(2, 1, 3, 0, 0, 0x30A0, 0);  // shares with 1
    w.enc.mglCreateContext(3, 0, 3, 0, 0, 0x30A0, 0);  // its own group
    w.enc.mglMakeCurrent(0, 0, 1);
    GLuint buf = 77;
    const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    w.enc.glGenBuffers(1, wire::Blob{&buf, 4});
    w.enc.glBindBuffer(GL_COPY_READ_BUFFER, buf);
    w.enc.glBufferData(GL_COPY_READ_BUFFER, 8, wire::Blob{data, 8}, GL_STATIC_DRAW);
    w.enc.glFlush();

    w.enc.mglMakeCurrent(0, 0, 2);
    w.enc.glIsBuffer(77);
    GLboolean is = 0;
    CHECK(gen::read_reply_glIsBuffer(w.enc.wait_reply(), &is));
    CHECK(is == GL_TRUE);
    w.enc.glBindBuffer(GL_COPY_READ_BUFFER, 77);
    uint8_t got[8] = {};
    w.enc.mglReadBufferRange(GL_COPY_READ_BUFFER, 0, 8, 8);
    CHECK(gen::read_reply_mglReadBufferRange(w.enc.wait_reply(), got, 8));
    CHECK(std::memcmp(got, data, 8) == 0);
    // Vertex arrays are per context even inside a share group.
    GLuint vao = 5;
    w.enc.glGenVertexArrays(1, wire::Blob{&vao, 4});
    w.enc.glBindVertexArray(5);
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.mglMakeCurrent(0, 0, 1);
    w.enc.glBindVertexArray(5);
    CHECK(w.error() == GL_INVALID_OPERATION);

    w.enc.mglMakeCurrent(0, 0, 3);
    w.enc.glIsBuffer(77);
    is = 1;
    CHECK(gen::read_reply_glIsBuffer(w.enc.wait_reply(), &is));
    CHECK(is == GL_FALSE);
    CHECK(w.error() == GL_NO_ERROR);

    // Sync objects are shared too.
    w.enc.mglMakeCurrent(0, 0, 1);
    w.enc.glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0, 0xABCDEF0123ull);
    w.enc.mglMakeCurrent(0, 0, 2);
    w.enc.glClientWaitSync(0xABCDEF0123ull, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
    GLenum st = 0;
    CHECK(gen::read_reply_glClientWaitSync(w.enc.wait_reply(), &st));
    CHECK((st == GL_ALREADY_SIGNALED || st == GL_CONDITION_SATISFIED));
    w.enc.mglMakeCurrent(0, 0, 3);
    w.enc.glClientWaitSync(0xABCDEF0123ull, 0, 0);
    (void)w.enc.wait_reply();
    CHECK(w.error() == GL_INVALID_VALUE);
    CHECK(w.flush().ok());
}

// The direct transport applies every session on the application's thread:
// the host's current context is per thread, so each session must find its own
// bound again after another session's span (glmark2 on direct lost every
// second scene's objects to the previous scene's session before this).
TEST_CASE("two sessions applied on one thread keep their own current context") {
    Wire a, b;
    REQUIRE_MESSAGE(a.backend, a.why);
    REQUIRE_MESSAGE(b.backend, b.why);
    const uint8_t data_a[4] = {1, 2, 3, 4}, data_b[4] = {9, 8, 7, 6};
    auto create = [](Wire& w, const uint8_t* data) {
        w.enc.mglCreateContext(1, 0, 3, 0, 0, 0x30A0, 0);
        w.enc.mglMakeCurrent(0, 0, 1);
        GLuint buf = 7;
        w.enc.glGenBuffers(1, wire::Blob{&buf, 4});
        w.enc.glBindBuffer(GL_COPY_READ_BUFFER, buf);
        w.enc.glBufferData(GL_COPY_READ_BUFFER, 4, wire::Blob{data, 4}, GL_STATIC_DRAW);
        CHECK(w.flush().ok());
    };
    auto read = [](Wire& w) {
        std::vector<uint8_t> got(4, 0);
        w.enc.mglReadBufferRange(GL_COPY_READ_BUFFER, 0, 4, 4);
        CHECK(gen::read_reply_mglReadBufferRange(w.enc.wait_reply(), got.data(), 4));
        return got;
    };
    create(a, data_a);
    create(b, data_b);  // b's context is now the thread's
    CHECK(read(a) == std::vector<uint8_t>(data_a, data_a + 4));
    CHECK(read(b) == std::vector<uint8_t>(data_b, data_b + 4));
    CHECK(a.error() == GL_NO_ERROR);
    CHECK(b.error() == GL_NO_ERROR);
}

TEST_CASE("a desktop-only verb on an ES context: one log line, GL_INVALID_OPERATION") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start();
    w.enc.glBegin(GL_TRIANGLES);
    w.enc.glBegin(GL_TRIANGLES);
    w.enc.glVertex3f(0, 0, 0);
    CHECK(w.error() == GL_INVALID_OPERATION);
    CHECK(w.error() == GL_NO_ERROR);
    // The decoder's generated profile check refuses them before Espryt's methods.
    CHECK(w.log_lines("glBegin is not part of OpenGL ES") == 1);
    CHECK(w.log_lines("glVertex3f is not part of OpenGL ES") == 1);
    CHECK(w.flush().ok());
}

TEST_CASE("server strings name MobileGL and hide what cannot cross the wire") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start();
    const std::string version = w.get_string(GL_VERSION);
    MESSAGE("GL_VERSION: " << version);
    CHECK(version.rfind("OpenGL ES 3.", 0) == 0);
    CHECK(version.find("MobileGL (Espryt on ") != std::string::npos);
    CHECK(w.get_string(GL_RENDERER).find("MobileGL Espryt") != std::string::npos);
    const std::string ext = w.get_string(GL_EXTENSIONS);
    // llvmpipe lists both: memory objects need memory shared with the driver
    // (never served); EGLImages are served by egl_images.cc.
    CHECK(ext.find("GL_EXT_memory_object") == std::string::npos);
    CHECK(ext.find("GL_OES_EGL_image ") != std::string::npos);
    CHECK(ext.find("GL_KHR_debug") != std::string::npos);
    const GLint n = w.get_integer(GL_NUM_EXTENSIONS);
    CHECK(n > 10);
    CHECK(w.get_string(GL_EXTENSIONS, 0) == ext.substr(0, ext.find(' ')));
    CHECK(w.get_string(GL_EXTENSIONS, n) == "<none>");
    CHECK(w.error() == GL_NO_ERROR);
    CHECK(w.flush().ok());
}

constexpr GLenum kContextRobustAccess = 0x90F3;  // GL_CONTEXT_ROBUST_ACCESS (EXT/KHR): not in gl32.h

// Espryt makes every host context robust when the host can (server memory
// safety); a native context reports robust access only when it was asked for.
TEST_CASE("a context reports the robustness the client asked for") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start();
    CHECK(w.get_integer(kContextRobustAccess) == GL_FALSE);
    CHECK((w.get_integer(GL_CONTEXT_FLAGS) & GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT) == 0);
    GLboolean b = 7;
    w.enc.glGetBooleanv(kContextRobustAccess, sizeof b);
    CHECK(gen::read_reply_glGetBooleanv(w.enc.wait_reply(), &b, sizeof b));
    CHECK(b == GL_FALSE);
    // Asked for (flag bit 2 of mglCreateContext): reported where the host has it.
    w.enc.mglCreateContext(2, 0, 3, 0, 2, 0x30A0, 0);
    w.enc.mglMakeCurrent(1, 1, 2);
    const GLint robust = w.get_integer(kContextRobustAccess);
    MESSAGE("robust access when asked: " << robust);
    CHECK((robust == GL_TRUE || robust == GL_FALSE));
    CHECK(((w.get_integer(GL_CONTEXT_FLAGS) & GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT) != 0) == (robust == GL_TRUE));
    CHECK(w.error() == GL_NO_ERROR);
    CHECK(w.flush().ok());
}

TEST_CASE("host errors reach the client through mglGetError") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start();
    w.enc.glEnable(0xDEAD);  // the host raises GL_INVALID_ENUM
    w.enc.glDrawArrays(GL_TRIANGLES, 0, 3);
    CHECK(w.error() == GL_INVALID_ENUM);
    CHECK(w.error() == GL_NO_ERROR);
    // With no current context nothing is applied and nothing crashes.
    w.enc.mglMakeCurrent(0, 0, 0);
    w.enc.glDrawArrays(GL_TRIANGLES, 0, 3);
    CHECK(w.error() == GL_NO_ERROR);
    CHECK(w.flush().ok());
}

TEST_CASE("a host GL error is taken once, for the event the session pushes after a span") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start(7);
    w.enc.glEnable(0xDEAD);  // not a capability: GL_INVALID_ENUM on the host
    REQUIRE(w.flush().ok());
    uint32_t context = 0;
    CHECK(w.backend->take_error_event(&context) == GL_INVALID_ENUM);
    CHECK(context == 7);
    CHECK(w.backend->take_error_event(&context) == GL_NO_ERROR);  // taken: GL reports an error once
    CHECK(w.error() == GL_NO_ERROR);
}

TEST_CASE("a verb outside the context's API is refused by the decoder: desktop-only on ES, ES-only on core") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start();
    w.enc.glBegin(GL_TRIANGLES);  // desktop GL 1.0 (compatibility) on an ES context
    CHECK(w.error() == GL_INVALID_OPERATION);
    CHECK(w.log_lines("glBegin is not part of OpenGL ES 3.") == 1);
    w.enc.glDrawBuffer(GL_BACK);  // desktop only
    CHECK(w.error() == GL_INVALID_OPERATION);
    w.enc.glClear(GL_COLOR_BUFFER_BIT);  // in every context
    CHECK(w.error() == GL_NO_ERROR);

    // A 3.3 core context: glBegin refused, glDrawBuffer mapped onto the host's glDrawBuffers.
    w.enc.mglCreateContext(2, 0, 3, 3, 0, 0x30A2, 1);
    w.enc.mglGetContextVersion(2);
    GLint served = 0;
    CHECK(gen::read_reply_mglGetContextVersion(w.enc.wait_reply(), &served));
    CHECK(served == 33);
    w.enc.mglMakeCurrent(1, 1, 2);
    CHECK(w.get_string(GL_VERSION).rfind("3.3 MobileGL (Espryt on ", 0) == 0);
    CHECK(w.get_string(GL_SHADING_LANGUAGE_VERSION) == "3.30");
    w.enc.glBegin(GL_TRIANGLES);
    CHECK(w.error() == GL_INVALID_OPERATION);
    GLuint vao = 9;
    w.enc.glGenVertexArraysOES(1, wire::Blob{&vao, 4});  // an ES-only extension verb
    CHECK(w.error() == GL_INVALID_OPERATION);
    w.enc.glDrawBuffer(GL_BACK);
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.glDrawBuffer(GL_COLOR_ATTACHMENT0);  // not the default framebuffer's
    CHECK(w.error() == GL_INVALID_OPERATION);
    CHECK(w.flush().ok());
}

TEST_CASE("glCopyImageSubData names a texture or a renderbuffer by each side's target; unknown names are refused") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.enc.mglCreateContext(1, 0, 3, 2, 0, 0x30A0, 0);  // OpenGL ES 3.2: the verb is core
    w.enc.mglCreateSurface(1, 0x3033, 4, 4, 8, 8, 8, 8, 24, 8, 0);
    w.enc.mglMakeCurrent(1, 1, 1);
    // Client names the host never numbered so (it counts from 1): a name
    // passed through unmapped would be refused or hit another object.
    GLuint tex[2] = {70, 71}, rb = 72, fbo = 73;
    w.enc.glGenTextures(2, wire::Blob{tex, 8});
    w.enc.glGenRenderbuffers(1, wire::Blob{&rb, 4});
    w.enc.glGenFramebuffers(1, wire::Blob{&fbo, 4});
    for (GLuint t : tex) {
        w.enc.glBindTexture(GL_TEXTURE_2D, t);
        w.enc.glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
    }
    w.enc.glBindRenderbuffer(GL_RENDERBUFFER, rb);
    w.enc.glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
    w.enc.glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    w.enc.glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    w.enc.glClearColor(0, 1, 0, 1);
    w.enc.glClear(GL_COLOR_BUFFER_BIT);
    CHECK(w.error() == GL_NO_ERROR);

    // renderbuffer -> texture 70 -> texture 71
    w.enc.glCopyImageSubData(rb, GL_RENDERBUFFER, 0, 0, 0, 0, tex[0], GL_TEXTURE_2D, 0, 0, 0, 0, 4, 4, 1);
    w.enc.glCopyImageSubData(tex[0], GL_TEXTURE_2D, 0, 0, 0, 0, tex[1], GL_TEXTURE_2D, 0, 0, 0, 0, 4, 4, 1);
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[1], 0);
    const std::vector<uint8_t> px = w.read_pixels(4, 4);
    REQUIRE(px.size() == 64);
    CHECK(px[0] == 0);
    CHECK(px[1] == 255);
    CHECK(px[63] == 255);

    // A name never minted, and a renderbuffer's name given as a texture's.
    w.enc.glCopyImageSubData(999, GL_TEXTURE_2D, 0, 0, 0, 0, tex[1], GL_TEXTURE_2D, 0, 0, 0, 0, 4, 4, 1);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glCopyImageSubData(tex[0], GL_TEXTURE_2D, 0, 0, 0, 0, rb, GL_TEXTURE_2D, 0, 0, 0, 0, 4, 4, 1);
    CHECK(w.error() == GL_INVALID_VALUE);
    CHECK(w.flush().ok());
}
