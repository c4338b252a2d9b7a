// A lost context (issue 11, item 2): once the session ends, glGetError says
// GL_CONTEXT_LOST once and then GL_NO_ERROR, so that `while (glGetError())`
// ends; the reset status says GL_UNKNOWN_CONTEXT_RESET once (GL_KHR_robustness:
// NO_ERROR when no reset happened since the last call); and calls that would
// wait for the server return at once.
#include <chrono>

#include "fixture.h"

using namespace mgl::test;

TEST_CASE("lost context: GL_CONTEXT_LOST once from glGetError, then GL_NO_ERROR") {
    ClientFixture fx;
    CHECK(mgl_glGetError() == GL_NO_ERROR);  // a live session: the server's answer
    fx.conn->lose("the server died");
    CHECK(mgl_glGetError() == GL_CONTEXT_LOST);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    // The loop an application (eglretrace's snapshots) runs ends at once.
    int loops = 0;
    while (mgl_glGetError() != GL_NO_ERROR && loops < 100) ++loops;
    CHECK(loops == 0);
}

TEST_CASE("lost context: the reset status says GL_UNKNOWN_CONTEXT_RESET once, through every ES name") {
    // The fixture's context is OpenGL ES: GL_ARB_robustness's name is a desktop
    // verb there, refused by the profile check before it looks at anything.
    ClientFixture fx;
    CHECK(mgl_glGetGraphicsResetStatus() == GL_NO_ERROR);  // the server's answer while alive
    fx.conn->lose("the server died");
    CHECK(mgl_glGetGraphicsResetStatusEXT() == GL_UNKNOWN_CONTEXT_RESET);
    CHECK(mgl_glGetGraphicsResetStatus() == GL_NO_ERROR);
    CHECK(mgl_glGetGraphicsResetStatusKHR() == GL_NO_ERROR);
    // glGetError's flag is its own: reported once as well.
    CHECK(mgl_glGetError() == GL_CONTEXT_LOST);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
}

TEST_CASE("lost context: found by a failed reply, then queries return at once and leave outputs alone") {
    ClientFixture fx;
    fx.conn->lose("the server died");
    // A query the shadow cannot answer needs the server: no reply comes.
    GLint v[4] = {7, 7, 7, 7};
    const auto t0 = std::chrono::steady_clock::now();
    mgl_glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, v);
    GLfloat f[2] = {3, 3};
    mgl_glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, f);
    mgl_glFinish();
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
    CHECK(v[0] == 7);
    CHECK(fx.ctx->lost);
    CHECK(mgl_glGetError() == GL_CONTEXT_LOST);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    CHECK(mgl_glGetGraphicsResetStatus() == GL_UNKNOWN_CONTEXT_RESET);
    CHECK(mgl_glGetGraphicsResetStatus() == GL_NO_ERROR);
}
