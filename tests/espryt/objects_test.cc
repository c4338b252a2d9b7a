// Framebuffer objects next to the surface's default framebuffer, pixel pack
// buffers, and the life cycle of contexts and surfaces.
#include <doctest.h>

#include "harness.h"

using namespace espryt_test;

TEST_CASE("client framebuffers render off-screen; framebuffer 0 is the surface") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start(1, 1, 8, 8);
    GLuint tex = 70, fbo = 71;
    w.enc.glGenTextures(1, wire::Blob{&tex, 4});
    w.enc.glBindTexture(GL_TEXTURE_2D, tex);
    w.enc.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, wire::OffsetOrBlob{0, nullptr, 0});
    w.enc.glGenFramebuffers(1, wire::Blob{&fbo, 4});
    w.enc.glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    w.enc.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    w.enc.glCheckFramebufferStatus(GL_FRAMEBUFFER);
    GLenum status = 0;
    CHECK(gen::read_reply_glCheckFramebufferStatus(w.enc.wait_reply(), &status));
    CHECK(status == GL_FRAMEBUFFER_COMPLETE);
    CHECK(w.get_integer(GL_FRAMEBUFFER_BINDING) == 71);
    w.enc.glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, 4);
    GLint name = 0;
    CHECK(gen::read_reply_glGetFramebufferAttachmentParameteriv(w.enc.wait_reply(), &name, 4));
    CHECK(name == 70);
    w.enc.glClearColor(0, 0, 1, 1);
    w.enc.glClear(GL_COLOR_BUFFER_BIT);
    auto off = w.read_pixels(8, 8);
    REQUIRE(off.size() == 256);
    CHECK(off[2] == 255);

    w.enc.glBindFramebuffer(GL_FRAMEBUFFER, 0);  // the surface again
    CHECK(w.get_integer(GL_FRAMEBUFFER_BINDING) == 0);
    w.enc.glClearColor(1, 1, 0, 1);
    w.enc.glClear(GL_COLOR_BUFFER_BIT);
    auto on = w.read_surface(1, 8, 8);
    REQUIRE(on.size() == 256);
    CHECK(on[0] == 255);
    CHECK(on[1] == 255);
    CHECK(on[2] == 0);
    CHECK(w.error() == GL_NO_ERROR);
    CHECK(w.flush().ok());
}

TEST_CASE("glReadPixels into a pixel pack buffer, read back through mglReadBufferRange") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start(1, 1, 4, 4);
    w.enc.glClearColor(0, 1, 0, 1);
    w.enc.glClear(GL_COLOR_BUFFER_BIT);
    GLuint pbo = 9;
    w.enc.glGenBuffers(1, wire::Blob{&pbo, 4});
    w.enc.glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
    w.enc.glBufferData(GL_PIXEL_PACK_BUFFER, 64 + 16, wire::Blob{std::vector<uint8_t>(80).data(), 80}, GL_STREAM_READ);
    w.enc.glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 16, 0);  // offset 16, no reply bytes
    (void)w.enc.wait_reply();
    CHECK(w.error() == GL_NO_ERROR);
    uint8_t got[80] = {};
    w.enc.mglReadBufferRange(GL_PIXEL_PACK_BUFFER, 0, 80, 80);
    CHECK(gen::read_reply_mglReadBufferRange(w.enc.wait_reply(), got, 80));
    CHECK(got[0] == 0);
    CHECK(got[16] == 0);
    CHECK(got[17] == 255);
    CHECK(got[79] == 255);
    CHECK(w.flush().ok());
}

TEST_CASE("contexts and surfaces destroyed while current live until released") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start(3, 4, 4, 4);
    w.enc.mglDestroyContext(3);
    w.enc.mglDestroySurface(4);
    w.enc.glClearColor(1, 0, 0, 1);  // still current: still works
    w.enc.glClear(GL_COLOR_BUFFER_BIT);
    auto px = w.read_pixels(4, 4);
    REQUIRE(px.size() == 64);
    CHECK(px[0] == 255);
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.mglMakeCurrent(0, 0, 0);
    w.enc.mglMakeCurrent(4, 4, 3);  // both gone now
    CHECK(w.flush().ok());
    CHECK(w.log_lines("mglMakeCurrent: context 3 does not exist") == 1);
    // Names of a destroyed context can be reused.
    w.start(3, 4, 4, 4);
    CHECK(w.error() == GL_NO_ERROR);
    CHECK(w.flush().ok());
}

// On the direct transport Espryt creates its host contexts on the
// application's thread, whose eglBindAPI(EGL_OPENGL_API) reached the host
// vendor too: the host context must still be GLES (never desktop GL), and the
// thread's API must be the application's again afterwards.
TEST_CASE("host contexts are GLES whatever API the thread has bound") {
    REQUIRE(eglBindAPI(EGL_OPENGL_API));
    {
        Wire w;
        REQUIRE_MESSAGE(w.backend, w.why);
        w.start(1, 1, 4, 4);
        w.enc.mglCreateContext(2, 0, 3, 3, 0, 0x30A2, 1);  // a desktop 3.3 core context of the client's
        w.enc.mglMakeCurrent(1, 1, 2);
        CHECK(w.flush().ok());
        // The session's host context is current on this thread now.
        const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
        REQUIRE(version);
        CHECK_MESSAGE(std::string(version).rfind("OpenGL ES", 0) == 0, version);
        CHECK(eglQueryAPI() == EGL_OPENGL_API);
        // GLES (and so a desktop context on it) takes attribute arrays from a
        // buffer with vertex array object 0, which a host core profile refuses.
        GLuint b = 0;
        glGenBuffers(1, &b);
        glBindBuffer(GL_ARRAY_BUFFER, b);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
        CHECK(glGetError() == GL_NO_ERROR);
        glDeleteBuffers(1, &b);
    }
    eglBindAPI(EGL_OPENGL_ES_API);
}

TEST_CASE("mglMapBufferHost: a client in another process learns no address") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.start(1, 1, 4, 4);
    GLuint buf = 12;
    w.enc.glGenBuffers(1, wire::Blob{&buf, 4});
    w.enc.glBindBuffer(GL_ARRAY_BUFFER, buf);
    const GLbitfield flags = GL_MAP_WRITE_BIT | 0x40 | 0x80;  // GL_MAP_PERSISTENT_BIT, GL_MAP_COHERENT_BIT
    GLuint64 address = 1;
    // A peer in another process (the default: shm, tcp, a capture) learns no address.
    w.enc.mglMapBufferHost(GL_ARRAY_BUFFER, 0, 64, flags);
    CHECK(gen::read_reply_mglMapBufferHost(w.enc.wait_reply(), &address));
    CHECK(address == 0);
    CHECK(w.error() == GL_INVALID_OPERATION);
    // Nor the verb that makes such storage: GL_EXT_buffer_storage is not offered.
    w.enc.glBufferStorageEXT(GL_ARRAY_BUFFER, 64, wire::Blob{nullptr, 0}, flags);
    CHECK(w.error() == GL_INVALID_OPERATION);
    CHECK(w.flush().ok());
}

TEST_CASE("mglMapBufferHost: an in-process client writes where the driver reads") {
    Wire w;
    REQUIRE_MESSAGE(w.backend, w.why);
    w.backend->set_peer_in_process(true);  // before the first span, as the inproc and direct paths do
    w.start(1, 1, 4, 4);
    GLuint buf = 12;
    w.enc.glGenBuffers(1, wire::Blob{&buf, 4});
    w.enc.glBindBuffer(GL_ARRAY_BUFFER, buf);
    const GLbitfield flags = GL_MAP_WRITE_BIT | 0x40 | 0x80;  // GL_MAP_PERSISTENT_BIT, GL_MAP_COHERENT_BIT
    GLuint64 address = 0;
    // GL_MAP_READ_BIT too: mglReadBufferRange below reads it back through a map.
    w.enc.glBufferStorageEXT(GL_ARRAY_BUFFER, 64, wire::Blob{nullptr, 0}, flags | GL_MAP_READ_BIT);
    w.enc.mglMapBufferHost(GL_ARRAY_BUFFER, 0, 64, flags);
    CHECK(gen::read_reply_mglMapBufferHost(w.enc.wait_reply(), &address));
    REQUIRE(address != 0);
    CHECK(w.error() == GL_NO_ERROR);
    // What is written there is the buffer's contents, with no call.
    auto* p = reinterpret_cast<uint8_t*>(uintptr_t(address));
    for (int i = 0; i < 64; ++i) p[i] = uint8_t(i * 3);
    w.enc.glBindBuffer(GL_COPY_READ_BUFFER, buf);
    uint8_t got[64] = {};
    w.enc.mglReadBufferRange(GL_COPY_READ_BUFFER, 0, 64, 64);  // a second (read) map: refused while mapped
    (void)w.enc.wait_reply();
    CHECK(w.error() == GL_INVALID_OPERATION);
    w.enc.mglUnmapBufferHost(GL_ARRAY_BUFFER);
    w.enc.mglReadBufferRange(GL_COPY_READ_BUFFER, 0, 64, 64);
    CHECK(gen::read_reply_mglReadBufferRange(w.enc.wait_reply(), got, 64));
    CHECK(got[1] == 3);
    CHECK(got[63] == uint8_t(189));
    // The driver checks a request as glMapBufferRange does: storage without
    // GL_MAP_PERSISTENT_BIT cannot be mapped persistently.
    GLuint plain = 13;
    w.enc.glGenBuffers(1, wire::Blob{&plain, 4});
    w.enc.glBindBuffer(GL_ARRAY_BUFFER, plain);
    w.enc.glBufferStorageEXT(GL_ARRAY_BUFFER, 64, wire::Blob{nullptr, 0}, GL_MAP_WRITE_BIT);
    w.enc.mglMapBufferHost(GL_ARRAY_BUFFER, 0, 64, flags);
    CHECK(gen::read_reply_mglMapBufferHost(w.enc.wait_reply(), &address));
    CHECK(address == 0);
    CHECK(w.error() == GL_INVALID_OPERATION);
    CHECK(w.flush().ok());
}
