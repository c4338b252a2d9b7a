// The generated entry points encode exactly the records a direct use of the
// encoder with the same wire arguments produces (byte for byte), and the
// server-side decode of them is clean.
#include <cstring>
#include <vector>

#include "fixture.h"
#include "gen/encoder.h"
#include "gen/opcodes.h"
#include "mgl/wire/memory_link.h"

using namespace mgl::test;
namespace wire = mgl::wire;
namespace gen = mgl::gen;

namespace {
std::string op_names(const std::vector<uint16_t>& ops) {
    std::string s;
    for (uint16_t o : ops) s += std::string(gen::verb_name(o)) + " ";
    return s;
}
}  // namespace

TEST_CASE("entry points encode a GLES program's calls verb by verb") {
    ClientFixture fx;
    const size_t m = fx.mark();

    static const float quad[] = {0, 0, 1, 0, 0, 1};
    static const uint16_t idx[] = {0, 1, 2};
    static const uint8_t texels[2 * 2 * 4] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    static const float mat[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const char* src[] = {"void main(){", "gl_FragColor=vec4(1);}XXXX"};
    const GLint lens[] = {-1, 22};

    GLuint bufs[2];
    mgl_glGenBuffers(2, bufs);
    const GLuint prog = mgl_glCreateProgram();
    const GLuint sh = mgl_glCreateShader(GL_FRAGMENT_SHADER);
    mgl_glShaderSource(sh, 2, src, lens);
    mgl_glCompileShader(sh);
    mgl_glAttachShader(prog, sh);
    mgl_glBindAttribLocation(prog, 0, "pos");
    mgl_glLinkProgram(prog);
    mgl_glUseProgram(prog);
    mgl_glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    mgl_glClear(GL_COLOR_BUFFER_BIT);
    mgl_glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    mgl_glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    mgl_glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8, reinterpret_cast<const void*>(0));
    mgl_glEnableVertexAttribArray(0);
    mgl_glUniform4f(3, 1, 2, 3, 4);
    mgl_glUniformMatrix4fv(4, 1, GL_FALSE, mat);
    mgl_glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    mgl_glDrawArrays(GL_TRIANGLES, 0, 3);
    mgl_glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[1]);
    mgl_glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    mgl_glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, reinterpret_cast<const void*>(0));
    mgl_glDeleteBuffers(2, bufs);
    const size_t end = fx.mark();

    // The same calls written with the encoder by hand.
    wire::MemoryLink ref;
    {
        gen::Encoder e(&ref);
        e.glGenBuffers(2, wire::Blob{bufs, 8});
        e.glCreateProgram(prog);
        e.glCreateShader(GL_FRAGMENT_SHADER, sh);
        const char joined[] = "void main(){\0gl_FragColor=vec4(1);}";
        e.glShaderSource(sh, 2, wire::Blob{joined, sizeof joined});
        e.glCompileShader(sh);
        e.glAttachShader(prog, sh);
        e.glBindAttribLocation(prog, 0, wire::Blob{"pos", 4});
        e.glLinkProgram(prog);
        e.glUseProgram(prog);
        e.glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
        e.glClear(GL_COLOR_BUFFER_BIT);
        e.glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
        e.glBufferData(GL_ARRAY_BUFFER, sizeof quad, wire::Blob{quad, sizeof quad}, GL_STATIC_DRAW);
        e.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8, wire::OffsetOrBlob{0, nullptr, 0});
        e.glEnableVertexAttribArray(0);
        e.glUniform4f(3, 1, 2, 3, 4);
        e.glUniformMatrix4fv(4, 1, GL_FALSE, wire::Blob{mat, sizeof mat});
        e.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                       wire::OffsetOrBlob{0, texels, sizeof texels});
        e.glDrawArrays(GL_TRIANGLES, 0, 3);
        e.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[1]);
        e.glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, wire::Blob{idx, sizeof idx}, GL_STATIC_DRAW);
        e.glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, wire::OffsetOrBlob{0, nullptr, 0});
        e.glDeleteBuffers(2, wire::Blob{bufs, 8});
        e.flush();
    }
    const std::vector<uint8_t> got(fx.conn->bytes().begin() + long(m), fx.conn->bytes().begin() + long(end));
    const std::vector<uint16_t> got_ops = fx.conn->ops_since(m);
    wire::MemoryLink tmp;
    const std::vector<uint8_t>& want = ref.bytes();
    // Verb by verb first (readable on failure), then byte for byte.
    std::vector<uint16_t> want_ops;
    for (size_t at = 0; at + 8 <= want.size(); at += wire::get<uint32_t>(want.data() + at + 4))
        want_ops.push_back(wire::get<uint16_t>(want.data() + at));
    CHECK_MESSAGE(got_ops == want_ops, "got: " << op_names(got_ops) << "\nwant: " << op_names(want_ops));
    CHECK(got == want);
    fx.sync();
    CHECK(fx.server().draws.size() == 2);
}

TEST_CASE("sync verbs wait for the reply and copy the outputs") {
    ClientFixture fx;
    fx.server().next_error = GL_INVALID_VALUE;
    const size_t waits = fx.conn->reply_waits;
    GLint red = 0;
    mgl_glGetIntegerv(GL_RED_BITS, &red);  // not shadowed: asks the server
    CHECK(red == 8);
    CHECK(fx.conn->reply_waits == waits + 1);
    // glGetError: nothing local, so one round trip (MOBILEGL_GL_ERRORS=sync, the default).
    CHECK(mgl_glGetError() == GL_INVALID_VALUE);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    CHECK(fx.conn->reply_waits == waits + 3);
    // A client-detected error costs nothing.
    mgl_glActiveTexture(0x1234);
    CHECK(mgl_glGetError() == GL_INVALID_ENUM);
    CHECK(fx.conn->reply_waits == waits + 3);
}

TEST_CASE("strings name MobileGL and hide extensions the client cannot honour") {
    ClientFixture fx;
    const std::string version = reinterpret_cast<const char*>(mgl_glGetString(GL_VERSION));
    const std::string renderer = reinterpret_cast<const char*>(mgl_glGetString(GL_RENDERER));
    CHECK(version.rfind("OpenGL ES 3.2 MobileGL", 0) == 0);
    CHECK(renderer == "MobileGL (FakeRenderer)");
    const std::string ext = reinterpret_cast<const char*>(mgl_glGetString(GL_EXTENSIONS));
    CHECK(ext.find("GL_EXT_memory_object") == std::string::npos);
    CHECK(ext.find("GL_OES_mapbuffer") != std::string::npos);
    GLint n = 0;
    mgl_glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    CHECK(n == 2);
    CHECK(std::string(reinterpret_cast<const char*>(mgl_glGetStringi(GL_EXTENSIONS, 1))) == "GL_OES_vertex_array_object");
    GLint major = 0;
    mgl_glGetIntegerv(GL_MAJOR_VERSION, &major);
    CHECK(major == 3);
}

TEST_CASE("verbs without a current context are ignored") {
    mgl::client::make_current(nullptr, 0, 0, -1, -1);
    mgl_glClear(GL_COLOR_BUFFER_BIT);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    CHECK(mgl_glGetString(GL_VERSION) == nullptr);
}

TEST_CASE("getProcAddress table") {
    CHECK((mgl::client::find_proc("glDrawArrays") == reinterpret_cast<void (*)()>(&mgl_glDrawArrays)));
    CHECK((mgl::client::find_proc("glMapBufferOES") == reinterpret_cast<void (*)()>(&mgl_glMapBufferOES)));
    CHECK((mgl::client::find_proc("glNoSuchThing") == nullptr));
    for (size_t k = 1; k < mgl::client::kProcCount; ++k)
        CHECK(std::strcmp(mgl::client::kProcs[k - 1].name, mgl::client::kProcs[k].name) < 0);
}
