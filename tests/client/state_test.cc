// Minted names and the shadow: names are returned without a round trip,
// shadowed queries send nothing at all.
#include "fixture.h"
#include "gen/opcodes.h"

using namespace mgl::test;
namespace gen = mgl::gen;

TEST_CASE("glGen*/glCreate* mint names on the client, no round trip") {
    ClientFixture fx;
    const size_t waits = fx.conn->reply_waits;
    GLuint b[3] = {}, t[2] = {};
    mgl_glGenBuffers(3, b);
    mgl_glGenTextures(2, t);
    CHECK(b[0] == 1);
    CHECK(b[1] == 2);
    CHECK(b[2] == 3);
    CHECK(t[0] == 1);  // every kind has its own counter
    CHECK(t[1] == 2);
    // Programs and shaders share one namespace.
    const GLuint p1 = mgl_glCreateProgram();
    const GLuint s1 = mgl_glCreateShader(GL_VERTEX_SHADER);
    const GLuint p2 = mgl_glCreateProgram();
    CHECK(p1 == 1);
    CHECK(s1 == 2);
    CHECK(p2 == 3);
    GLuint more[2];
    mgl_glGenBuffers(2, more);
    CHECK(more[0] == 4);
    // A fence is a minted handle too.
    GLsync f = mgl_glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    CHECK(f != nullptr);
    CHECK(fx.conn->reply_waits == waits);
    fx.sync();
    CHECK(fx.server().gen_buffers == std::vector<uint32_t>{4, 5});
    CHECK(fx.server().gen_textures == std::vector<uint32_t>{1, 2});
    CHECK(fx.server().created == std::vector<uint32_t>{1, 2, 3});
    GLuint bad[1];
    mgl_glGenBuffers(-1, bad);
    CHECK(mgl_glGetError() == GL_INVALID_VALUE);
}

TEST_CASE("a shared context mints from its share group's counters") {
    ClientFixture fx;
    std::string err;
    auto shared = mgl::client::create_context(fx.ctx.get(), mgl::client::kApiES, 3, 0, 0, 0, &err);
    REQUIRE(shared);
    CHECK(shared->group == fx.ctx->group);
    GLuint a, b;
    mgl_glGenBuffers(1, &a);
    mgl::client::make_current(shared.get(), 0, 0, 16, 16);
    mgl_glGenBuffers(1, &b);
    CHECK(b == a + 1);
    mgl::client::make_current(fx.ctx.get(), 0, 0, 400, 300);
    mgl::client::destroy_context(std::move(shared));
}

TEST_CASE("shadowed glGet* and glIsEnabled send no record") {
    ClientFixture fx(3, 640, 480);
    mgl_glBindBuffer(GL_ARRAY_BUFFER, 7);
    mgl_glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 8);
    mgl_glActiveTexture(GL_TEXTURE3);
    mgl_glBindTexture(GL_TEXTURE_2D, 9);
    mgl_glUseProgram(11);
    mgl_glEnable(GL_BLEND);
    mgl_glEnable(GL_DEPTH_TEST);
    mgl_glDisable(GL_DITHER);
    mgl_glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    mgl_glClearColor(0.0f, 0.5f, 1.0f, 1.0f);
    mgl_glDepthMask(GL_FALSE);
    mgl_glBindFramebuffer(GL_FRAMEBUFFER, 12);
    const size_t m = fx.mark();
    const size_t waits = fx.conn->reply_waits;

    GLint v[4] = {};
    mgl_glGetIntegerv(GL_ARRAY_BUFFER_BINDING, v);
    CHECK(v[0] == 7);
    mgl_glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, v);
    CHECK(v[0] == 8);
    mgl_glGetIntegerv(GL_ACTIVE_TEXTURE, v);
    CHECK(v[0] == GL_TEXTURE3);
    mgl_glGetIntegerv(GL_TEXTURE_BINDING_2D, v);
    CHECK(v[0] == 9);
    mgl_glGetIntegerv(GL_CURRENT_PROGRAM, v);
    CHECK(v[0] == 11);
    mgl_glGetIntegerv(GL_FRAMEBUFFER_BINDING, v);
    CHECK(v[0] == 12);
    mgl_glGetIntegerv(GL_VIEWPORT, v);  // the surface size at the first make-current
    CHECK(v[2] == 640);
    CHECK(v[3] == 480);
    mgl_glGetIntegerv(GL_UNPACK_ALIGNMENT, v);
    CHECK(v[0] == 1);
    mgl_glGetIntegerv(GL_MAX_TEXTURE_SIZE, v);  // a limit cached at the first make-current
    CHECK(v[0] == 8192);
    GLfloat f[4] = {};
    mgl_glGetFloatv(GL_COLOR_CLEAR_VALUE, f);
    CHECK(f[1] == doctest::Approx(0.5f));
    GLboolean bv[4] = {};
    mgl_glGetBooleanv(GL_DEPTH_WRITEMASK, bv);
    CHECK(bv[0] == GL_FALSE);
    mgl_glGetBooleanv(GL_BLEND, bv);
    CHECK(bv[0] == GL_TRUE);
    GLint64 l = 0;
    mgl_glGetInteger64v(GL_ARRAY_BUFFER_BINDING, &l);
    CHECK(l == 7);
    CHECK(mgl_glIsEnabled(GL_DEPTH_TEST) == GL_TRUE);
    CHECK(mgl_glIsEnabled(GL_DITHER) == GL_FALSE);
    CHECK(mgl_glIsEnabled(GL_CULL_FACE) == GL_FALSE);

    CHECK(fx.mark() == m);  // nothing encoded
    CHECK(fx.conn->reply_waits == waits);
    CHECK(fx.ctx->counters.remote_queries == 0);

    // Deleting a bound buffer unbinds it.
    GLuint seven = 7;
    mgl_glDeleteBuffers(1, &seven);
    mgl_glGetIntegerv(GL_ARRAY_BUFFER_BINDING, v);
    CHECK(v[0] == 0);
    // An unknown pname is GL_INVALID_ENUM on the client, nothing sent.
    const size_t m2 = fx.mark();
    mgl_glGetIntegerv(0xBEEF, v);
    CHECK(mgl_glGetError() == GL_INVALID_ENUM);
    CHECK(fx.mark() == m2);
}

TEST_CASE("vertex array objects keep their own element buffer and attributes") {
    ClientFixture fx;
    mgl_glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 5);
    GLuint vao;
    mgl_glGenVertexArrays(1, &vao);
    mgl_glBindVertexArray(vao);
    GLint v = -1;
    mgl_glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &v);
    CHECK(v == 0);
    mgl_glBindBuffer(GL_ARRAY_BUFFER, 6);
    mgl_glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, 12, reinterpret_cast<const void*>(4));
    mgl_glGetVertexAttribiv(2, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &v);
    CHECK(v == 6);
    void* p = nullptr;
    mgl_glGetVertexAttribPointerv(2, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
    CHECK(p == reinterpret_cast<void*>(4));
    mgl_glBindVertexArray(0);
    mgl_glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &v);
    CHECK(v == 5);
    mgl_glGetVertexAttribiv(2, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &v);
    CHECK(v == 0);
}

TEST_CASE("indexed setters keep the shadow of index 0; viewport arrays hand the viewport to the server") {
    ClientFixture fx(3, 640, 480);
    mgl_glEnablei(GL_BLEND, 1);
    CHECK(mgl_glIsEnabled(GL_BLEND) == GL_FALSE);  // index 1 is not what glIsEnabled reads
    mgl_glEnablei(GL_BLEND, 0);
    CHECK(mgl_glIsEnabled(GL_BLEND) == GL_TRUE);
    mgl_glBlendFunci(0, GL_ONE, GL_SRC_ALPHA);
    mgl_glColorMaski(0, GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
    const size_t waits = fx.conn->reply_waits;
    GLint v[4] = {};
    mgl_glGetIntegerv(GL_BLEND_DST_RGB, v);
    CHECK(v[0] == GL_SRC_ALPHA);
    GLboolean mask[4] = {};
    mgl_glGetBooleanv(GL_COLOR_WRITEMASK, mask);
    CHECK(mask[1] == GL_FALSE);
    CHECK(mask[2] == GL_TRUE);
    mgl_glGetIntegerv(GL_VIEWPORT, v);
    CHECK(fx.conn->reply_waits == waits);  // all from the shadow
    // A viewport array may set index 0 to fractional values: the server answers from now on.
    mgl_glViewportIndexedfOES(0, 0.5f, 0.5f, 10.0f, 10.0f);
    CHECK(fx.ctx->st.viewport_indexed);
    const uint64_t remote = fx.ctx->counters.remote_queries;
    mgl_glGetIntegerv(GL_VIEWPORT, v);
    CHECK(fx.ctx->counters.remote_queries == remote + 1);
}
