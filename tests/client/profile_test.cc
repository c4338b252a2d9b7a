// Desktop contexts on the client: the generated profile checks (a verb
// outside the context's API/profile/version is GL_INVALID_OPERATION and
// sends nothing), gl.xml aliases encoded as their canonical verb, and the
// version/profile/extension queries answered from the client's shadow.
#include <cstring>
#include <string>

#include "fixture.h"
#include "gen/opcodes.h"

using namespace mgl::test;
namespace client = mgl::client;
namespace gen = mgl::gen;

namespace {

int count(const ClientFixture& fx, gen::Op op, size_t from = 0) {
    int n = 0;
    for (uint16_t o : fx.conn->ops_since(from)) n += o == uint16_t(op);
    return n;
}

// A desktop 3.3 context of `profile` (what eglCreateContext makes).
ClientFixture desktop(uint32_t profile, uint32_t flags = 0) {
    return ClientFixture(3, 64, 64, client::kApiGL, 3, profile, flags);
}

}  // namespace

TEST_CASE("a core context calling glBegin gets GL_INVALID_OPERATION and sends nothing") {
    ClientFixture fx = desktop(client::kCoreProfile);
    CHECK(fx.ctx->api_kind == gen::ApiKind::core);
    CHECK(fx.ctx->api_version == 33);
    const size_t at = fx.mark();
    mgl_glBegin(GL_TRIANGLES);
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    mgl_glBindFramebufferEXT(GL_FRAMEBUFFER, 1);  // GL_EXT_framebuffer_object: compatibility only
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    fx.mark();
    CHECK(count(fx, gen::Op::glBegin, at) == 0);
    CHECK(count(fx, gen::Op::glBindFramebufferEXT, at) == 0);
    // Core GL 3.3 verbs go through.
    mgl_glBindVertexArray(0);
    mgl_glDrawBuffer(GL_BACK);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    fx.mark();
    CHECK(count(fx, gen::Op::glDrawBuffer, at) == 1);
}

TEST_CASE("a compatibility context has the legacy verbs and the EXT framebuffer entry points") {
    ClientFixture fx = desktop(client::kCompatProfile);
    CHECK(fx.ctx->api_kind == gen::ApiKind::compat);
    const size_t at = fx.mark();
    // Immediate mode is the client's compatibility lowering's (client/src/compat):
    // accepted, and no glBegin record reaches the server (vertices go at glEnd).
    mgl_glBegin(GL_TRIANGLES);
    mgl_glEnd();
    CHECK(fx.ctx->error == GL_NO_ERROR);
    mgl_glBindFramebufferEXT(GL_FRAMEBUFFER, 1);
    fx.mark();
    CHECK(count(fx, gen::Op::glBegin, at) == 0);
    CHECK(count(fx, gen::Op::glBindFramebufferEXT, at) == 1);
    CHECK(fx.ctx->error == GL_NO_ERROR);
}

TEST_CASE("an ES context calling a desktop-only verb gets GL_INVALID_OPERATION") {
    ClientFixture fx;  // ES 3.x, served 3.2 by the fake server
    CHECK(fx.ctx->api_kind == gen::ApiKind::es);
    CHECK(fx.ctx->api_version == 32);
    const size_t at = fx.mark();
    mgl_glBegin(GL_TRIANGLES);
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    mgl_glDrawBuffer(GL_BACK);
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    GLuint vao = 0;
    mgl_glGenVertexArraysOES(1, &vao);  // an ES extension: fine on ES
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    fx.mark();
    CHECK(count(fx, gen::Op::glBegin, at) == 0);
    CHECK(count(fx, gen::Op::glDrawBuffer, at) == 0);
}

TEST_CASE("a canonical verb exists wherever one of its aliases does") {
    // GL_KHR_debug and EXT/OES_draw_elements_base_vertex on an ES 3.0 context:
    // their KHR/EXT entry points send the canonical verb, which gl.xml lists
    // for desktop GL and ES 3.2 only (codegen/schema.cc merges the aliases').
    CHECK(gen::verb_in_api(uint16_t(gen::Op::glDebugMessageInsert), gen::ApiKind::es, 30));
    CHECK(gen::verb_in_api(uint16_t(gen::Op::glDrawElementsBaseVertex), gen::ApiKind::es, 30));
    // What no ES extension provides stays desktop only.
    CHECK_FALSE(gen::verb_in_api(uint16_t(gen::Op::glBegin), gen::ApiKind::es, 32));
    CHECK_FALSE(gen::verb_in_api(uint16_t(gen::Op::glDrawBuffer), gen::ApiKind::es, 30));
    // And a core context keeps refusing the legacy verbs whose ARB/EXT aliases are compatibility ones.
    CHECK_FALSE(gen::verb_in_api(uint16_t(gen::Op::glBegin), gen::ApiKind::core, 46));
}

TEST_CASE("gl.xml aliases encode their canonical verb: one record, one backend method") {
    ClientFixture fx = desktop(client::kCompatProfile);
    const size_t at = fx.mark();
    const GLfloat v[4] = {1, 2, 3, 4};
    mgl_glUniform4fvARB(0, 1, v);
    GLuint fb[2] = {};
    mgl_glGenFramebuffersEXT(2, fb);
    mgl_glGenerateMipmapEXT(GL_TEXTURE_2D);
    fx.mark();
    CHECK(count(fx, gen::Op::glUniform4fv, at) == 1);
    CHECK(count(fx, gen::Op::glUniform4fvARB, at) == 0);
    CHECK(count(fx, gen::Op::glGenFramebuffers, at) == 1);
    CHECK(count(fx, gen::Op::glGenFramebuffersEXT, at) == 0);
    CHECK(count(fx, gen::Op::glGenerateMipmap, at) == 1);
    CHECK(count(fx, gen::Op::glGenerateMipmapEXT, at) == 0);
    CHECK(fb[0] != 0);
    CHECK(fb[1] == fb[0] + 1);
    // Not an alias in gl.xml (it accepts names glGen* never returned): its own verb.
    mgl_glBindFramebufferEXT(GL_FRAMEBUFFER, 5);
    fx.mark();
    CHECK(count(fx, gen::Op::glBindFramebufferEXT, at) == 1);
}

TEST_CASE("the server's decoders refuse a verb outside the current context's profile (hostile client)") {
    ClientFixture fx = desktop(client::kCoreProfile);
    fx.sync();
    const uint64_t refused = fx.server().unsupported_calls;
    // Straight into the encoder, past the client's own check.
    fx.ctx->enc->glBegin(GL_TRIANGLES);
    fx.ctx->enc->glDrawArrays(GL_TRIANGLES, 0, 3);
    fx.sync();
    CHECK(fx.server().counts[uint16_t(gen::Op::glBegin)] == 0);
    CHECK(fx.server().unsupported_calls == refused + 1);
    CHECK(fx.server().draws.size() == 1);
}

TEST_CASE("desktop version, profile, flags and extensions come from the client's shadow") {
    {
        ClientFixture fx = desktop(client::kCoreProfile, client::kFlagDebug | client::kFlagForwardCompatible);
        const std::string version = reinterpret_cast<const char*>(mgl_glGetString(GL_VERSION));
        CHECK(version.rfind("3.3 (Core Profile) MobileGL", 0) == 0);
        CHECK(std::string(reinterpret_cast<const char*>(mgl_glGetString(GL_SHADING_LANGUAGE_VERSION))) == "3.30");
        const size_t waits = fx.conn->reply_waits;
        GLint v = -1;
        mgl_glGetIntegerv(GL_MAJOR_VERSION, &v);
        CHECK(v == 3);
        mgl_glGetIntegerv(GL_MINOR_VERSION, &v);
        CHECK(v == 3);
        mgl_glGetIntegerv(0x9126 /* GL_CONTEXT_PROFILE_MASK */, &v);
        CHECK(v == 1);
        mgl_glGetIntegerv(GL_CONTEXT_FLAGS, &v);
        CHECK(v == (0x1 | 0x2));  // forward-compatible, debug
        mgl_glGetIntegerv(GL_NUM_EXTENSIONS, &v);
        CHECK(v == GLint(fx.ctx->extension_list.size()));
        CHECK(fx.conn->reply_waits == waits);
        // A core profile has no GL_EXTENSIONS string, only glGetStringi.
        CHECK(mgl_glGetString(GL_EXTENSIONS) == nullptr);
        CHECK(mgl_glGetError() == GL_INVALID_ENUM);
    }
    {
        ClientFixture fx = desktop(client::kCompatProfile);
        const std::string version = reinterpret_cast<const char*>(mgl_glGetString(GL_VERSION));
        CHECK(version.rfind("3.3 (Compatibility Profile) MobileGL", 0) == 0);
        GLint v = -1;
        mgl_glGetIntegerv(0x9126 /* GL_CONTEXT_PROFILE_MASK */, &v);
        CHECK(v == 2);
        CHECK(mgl_glGetString(GL_EXTENSIONS) != nullptr);
    }
}

TEST_CASE("glShaderSource checks the shader's name before it reads the application's strings") {
    ClientFixture fx = desktop(client::kCompatProfile);
    const GLuint vs = mgl_glCreateShader(GL_VERTEX_SHADER);
    const GLuint prog = mgl_glCreateProgram();
    // The strings are garbage (piglit's shadersource-errors passes the text
    // itself as the array): reading them would crash the application.
    static const char text[] = "void main() { gl_Position = vec4(0.0); }\n";
    const auto* bogus = reinterpret_cast<const GLchar* const*>(text);
    const size_t at = fx.mark();
    mgl_glShaderSource(prog + 1000, 1, bogus, nullptr);  // never minted
    CHECK(mgl_glGetError() == GL_INVALID_VALUE);
    mgl_glShaderSource(prog, 1, bogus, nullptr);  // a program's name
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    mgl_glShaderSourceARB(prog, 1, const_cast<const GLchar**>(bogus), nullptr);
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    mgl_glShaderSource(vs, -1, bogus, nullptr);
    CHECK(mgl_glGetError() == GL_INVALID_VALUE);
    fx.mark();
    CHECK(count(fx, gen::Op::glShaderSource, at) == 0);
    const char* good = text;
    mgl_glShaderSource(vs, 1, &good, nullptr);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    fx.mark();
    CHECK(count(fx, gen::Op::glShaderSource, at) == 1);
}

TEST_CASE("texture coordinate generation exists on the coordinate units only") {
    constexpr GLenum GL_TEXTURE_GEN_S = 0x0C60, GL_TEXTURE_GEN_T = 0x0C61;  // compatibility-only enums
    ClientFixture fx = desktop(client::kCompatProfile);
    mgl_glActiveTexture(GL_TEXTURE0 + 7);
    mgl_glEnable(GL_TEXTURE_GEN_S);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    mgl_glActiveTexture(GL_TEXTURE0 + 8);  // an image unit past GL_MAX_TEXTURE_COORDS (8)
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    mgl_glEnable(GL_TEXTURE_GEN_T);
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    mgl_glDisable(GL_TEXTURE_GEN_S);
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    mgl_glActiveTexture(GL_TEXTURE0 + 7);
    CHECK(mgl_glIsEnabled(GL_TEXTURE_GEN_S) == GL_TRUE);  // unit 7's, untouched by unit 8's calls
    CHECK(mgl_glIsEnabled(GL_TEXTURE_GEN_T) == GL_FALSE);
}
