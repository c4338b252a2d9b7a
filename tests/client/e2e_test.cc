// End to end without a transport: the client's generated entry points and
// hooks encode; the records are decoded on this thread into a real Espryt
// backend (host GLES through EGL, llvmpipe here); pixels come back through
// glReadPixels. Built only when the Espryt backend is part of the build.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "connection.h"
#include "context.h"
#include "gen/client_entry.h"
#include "gl_ctypes.h"
#include "mgl/espryt/espryt.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/memory_link.h"

namespace {

using namespace mgl;

// A `direct`-style connection: records are applied at each flush and reply wait.
class EsprytConnection : public client::Connection {
public:
    explicit EsprytConnection(std::unique_ptr<espryt::Espryt> b) : backend(std::move(b)) {
        dispatch.backend = backend.get();
        dispatch.replies = &link_.replies;
        link_.on_reply = [this](wire::MemoryLink&) { apply(); };
    }
    ~EsprytConnection() override { backend->release(); }
    wire::ClientLink& link() override { return link_; }
    std::string transport() const override { return "direct-test"; }
    void apply() {
        std::vector<uint8_t> bytes = link_.bytes();
        link_.clear();
        wire::DecodeResult r = wire::decode_stream(bytes, dispatch);
        if (!r.ok() && error.empty()) error = r.error.detail;
    }
    std::unique_ptr<espryt::Espryt> backend;
    wire::Dispatch dispatch;
    std::string error;

private:
    wire::MemoryLink link_;
};

EsprytConnection* g_conn = nullptr;

// New contexts connect to an Espryt backend decoding on this thread.
void serve_with_espryt() {
    client::set_connection_factory([](std::string* err) -> std::unique_ptr<client::Connection> {
        auto b = espryt::create({}, err);
        if (!b) return nullptr;
        auto c = std::make_unique<EsprytConnection>(std::move(b));
        g_conn = c.get();
        return c;
    });
}

const char* kVs =
    "attribute vec2 pos;\n"
    "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const char* kFs =
    "precision mediump float;\n"
    "uniform vec4 color;\n"
    "void main() { gl_FragColor = color; }\n";

GLuint shader(GLenum type, const char* src) {
    const GLuint s = mgl_glCreateShader(type);
    mgl_glShaderSource(s, 1, &src, nullptr);
    mgl_glCompileShader(s);
    GLint ok = 0;
    mgl_glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = {};
        mgl_glGetShaderInfoLog(s, sizeof log, nullptr, log);
        FAIL("shader: " << log);
    }
    return s;
}

}  // namespace

TEST_CASE("a GLES 2 program with client arrays renders through the wire into Espryt") {
    std::string why;
    if (!espryt::host_available(&why)) {
        MESSAGE("no host GLES: " << why);
        return;
    }
    serve_with_espryt();
    std::string err;
    auto ctx = client::create_context(nullptr, mgl::client::kApiES, 2, 0, 0, 0, &err);
    REQUIRE_MESSAGE(ctx, err);
    ctx->enc->mglCreateSurface(1, 0x3033, 64, 64, 8, 8, 8, 8, 24, 8, 0);
    client::make_current(ctx.get(), 1, 1, 64, 64);
    REQUIRE_MESSAGE(g_conn->error.empty(), g_conn->error);
    const std::string version = reinterpret_cast<const char*>(mgl_glGetString(GL_VERSION));
    MESSAGE(version << " / " << reinterpret_cast<const char*>(mgl_glGetString(GL_RENDERER)));
    CHECK(version.find("MobileGL", version.find("MobileGL") + 1) == std::string::npos);  // named once
    CHECK(version.find("MobileGL") != std::string::npos);

    const GLuint prog = mgl_glCreateProgram();
    const GLuint vs = shader(GL_VERTEX_SHADER, kVs), fs = shader(GL_FRAGMENT_SHADER, kFs);
    mgl_glAttachShader(prog, vs);
    mgl_glAttachShader(prog, fs);
    mgl_glBindAttribLocation(prog, 0, "pos");
    mgl_glLinkProgram(prog);
    GLint linked = 0;
    mgl_glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    REQUIRE(linked == GL_TRUE);
    mgl_glUseProgram(prog);
    const GLint color = mgl_glGetUniformLocation(prog, "color");
    CHECK(color >= 0);

    mgl_glClearColor(0, 0, 1, 1);
    mgl_glClear(GL_COLOR_BUFFER_BIT);
    // The left half of the viewport, from client memory, through the stream buffer.
    static const float tri[] = {-1, -1, 0, -1, 0, 1, -1, -1, 0, 1, -1, 1};
    mgl_glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
    mgl_glEnableVertexAttribArray(0);
    mgl_glUniform4f(color, 1, 0, 0, 1);
    mgl_glDrawArrays(GL_TRIANGLES, 0, 6);
    // The right half with client indices.
    static const float quad[] = {0, -1, 1, -1, 1, 1, 0, 1};
    static const uint8_t idx[] = {0, 1, 2, 0, 2, 3};
    mgl_glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
    mgl_glUniform4f(color, 0, 1, 0, 1);
    mgl_glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_BYTE, idx);
    CHECK(mgl_glGetError() == GL_NO_ERROR);

    // Uniform values: exactly the uniform's components are written.
    float got[8];
    for (float& f : got) f = -7.0f;
    mgl_glGetUniformfv(prog, color, got);
    CHECK(got[0] == 0.0f);
    CHECK(got[1] == 1.0f);
    CHECK(got[3] == 1.0f);
    CHECK(got[4] == -7.0f);
    GLint goti[4] = {};
    mgl_glGetUniformiv(prog, color, goti);
    CHECK(goti[1] == 1);
    CHECK(mgl_glGetError() == GL_NO_ERROR);
    mgl_glGetnUniformfv(prog, color, 8, got);  // bufSize holds 2 of the 4 components
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    got[0] = -7.0f;
    mgl_glGetUniformfv(prog, color + 100, got);  // no uniform there
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
    CHECK(got[0] == -7.0f);

    // A vertex attribute property the client does not shadow (ES 3.1's
    // binding index) is asked of the server; exactly one value is written.
    // (The request once carried room for one value where the decoder wants
    // four, which ended the session.)
    GLint binding[2] = {-7, -7};
    mgl_glGetVertexAttribiv(1, 0x82D4 /* GL_VERTEX_ATTRIB_BINDING */, binding);
    REQUIRE_MESSAGE(g_conn->error.empty(), g_conn->error);
    CHECK(binding[0] == 1);   // each attribute starts bound to its own index
    CHECK(binding[1] == -7);
    CHECK(mgl_glGetError() == GL_NO_ERROR);

    // Names in replies are the client's.
    GLuint attached[4] = {};
    GLsizei n_attached = 0;
    mgl_glGetAttachedShaders(prog, 4, &n_attached, attached);
    REQUIRE(n_attached == 2);
    CHECK(((attached[0] == vs && attached[1] == fs) || (attached[0] == fs && attached[1] == vs)));
    GLuint tex[3], fbo;
    mgl_glGenTextures(3, tex);
    mgl_glDeleteTextures(1, &tex[0]);
    mgl_glBindTexture(GL_TEXTURE_2D, tex[2]);
    mgl_glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    mgl_glGenFramebuffers(1, &fbo);
    mgl_glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    mgl_glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[2], 0);
    GLint obj = 0;
    mgl_glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &obj);
    CHECK(GLuint(obj) == tex[2]);
    mgl_glBindFramebuffer(GL_FRAMEBUFFER, 0);
    mgl_glDeleteFramebuffers(1, &fbo);
    CHECK(mgl_glGetError() == GL_NO_ERROR);

    std::vector<uint8_t> px(64 * 64 * 4);
    mgl_glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    REQUIRE_MESSAGE(g_conn->error.empty(), g_conn->error);
    auto at = [&](int x, int y) { return px.data() + (size_t(y) * 64 + size_t(x)) * 4; };
    CHECK(at(10, 32)[0] == 255);  // left: red
    CHECK(at(10, 32)[1] == 0);
    CHECK(at(50, 32)[1] == 255);  // right: green
    CHECK(at(50, 32)[0] == 0);

    // A buffer written through a mapping is read back through another.
    GLuint b;
    mgl_glGenBuffers(1, &b);
    mgl_glBindBuffer(GL_ARRAY_BUFFER, b);
    mgl_glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_DYNAMIC_DRAW);
    auto* w = static_cast<uint8_t*>(mgl_glMapBufferRange(GL_ARRAY_BUFFER, 0, 64, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT));
    REQUIRE(w);
    for (int k = 0; k < 64; ++k) w[k] = uint8_t(k * 3);
    CHECK(mgl_glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE);
    auto* r = static_cast<const uint8_t*>(mgl_glMapBufferRange(GL_ARRAY_BUFFER, 8, 8, GL_MAP_READ_BIT));
    REQUIRE(r);
    CHECK(r[0] == 24);
    CHECK(r[7] == 45);
    mgl_glUnmapBuffer(GL_ARRAY_BUFFER);

    // Errors the server raised come back through glGetError.
    mgl_glBindTexture(0x1234, 1);
    CHECK(mgl_glGetError() == GL_INVALID_ENUM);
    CHECK(mgl_glGetError() == GL_NO_ERROR);

    mgl_glFinish();
    client::make_current(nullptr, 0, 0, -1, -1);
    client::destroy_context(std::move(ctx));
    client::set_connection_factory({});
}

// A desktop context on Espryt: a host GLES context underneath, reporting the
// desktop version, profile and extensions it serves; EXT_framebuffer_object
// (aliases and mapped binds), glDrawBuffer/glReadBuffer of the default
// framebuffer; the profile checks on both sides.
TEST_CASE("desktop OpenGL contexts on Espryt: 3.3 core and compatibility") {
    std::string why;
    if (!espryt::host_available(&why)) {
        MESSAGE("no host GLES: " << why);
        return;
    }
    serve_with_espryt();
    auto has_ext = [](const char* name) {
        GLint n = 0;
        mgl_glGetIntegerv(GL_NUM_EXTENSIONS, &n);
        for (GLint i = 0; i < n; ++i)
            if (std::strcmp(reinterpret_cast<const char*>(mgl_glGetStringi(GL_EXTENSIONS, GLuint(i))), name) == 0)
                return true;
        return false;
    };
    std::string err;
    {
        auto ctx = client::create_context(nullptr, client::kApiGL, 3, 3, client::kCoreProfile, 0, &err);
        REQUIRE_MESSAGE(ctx, err);
        CHECK(client::served_version(*ctx) == 33);
        ctx->enc->mglCreateSurface(1, 0x3033, 32, 32, 8, 8, 8, 8, 24, 8, 0);
        client::make_current(ctx.get(), 1, 1, 32, 32);
        REQUIRE_MESSAGE(g_conn->error.empty(), g_conn->error);
        const std::string version = reinterpret_cast<const char*>(mgl_glGetString(GL_VERSION));
        MESSAGE(version);
        CHECK(version.rfind("3.3 (Core Profile) MobileGL", 0) == 0);
        CHECK(std::string(reinterpret_cast<const char*>(mgl_glGetString(GL_SHADING_LANGUAGE_VERSION))) == "3.30");
        CHECK(has_ext("GL_ARB_vertex_array_object"));
        CHECK(has_ext("GL_ARB_framebuffer_object"));
        CHECK(has_ext("GL_ARB_instanced_arrays"));
        CHECK(!has_ext("GL_EXT_framebuffer_object"));  // compatibility only
        CHECK(!has_ext("GL_OES_vertex_array_object"));  // never the host's ES names
        CHECK(!has_ext("GL_EXT_color_buffer_float"));
        mgl_glBegin(GL_TRIANGLES);
        CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
        // Past the client's check, the server's decoder refuses it too.
        ctx->enc->glBegin(GL_TRIANGLES);
        CHECK(mgl_glGetError() == GL_INVALID_OPERATION);
        mgl_glDrawBuffer(GL_BACK);
        mgl_glReadBuffer(GL_BACK);
        CHECK(mgl_glGetError() == GL_NO_ERROR);
        mgl_glClearColor(0, 1, 0, 1);
        mgl_glClear(GL_COLOR_BUFFER_BIT);
        uint8_t px[4] = {};
        mgl_glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        CHECK(px[1] == 255);
        CHECK(mgl_glGetError() == GL_NO_ERROR);
        client::make_current(nullptr, 0, 0, -1, -1);
        client::destroy_context(std::move(ctx));
    }
    {
        auto ctx = client::create_context(nullptr, client::kApiGL, 2, 1, client::kCompatProfile, 0, &err);
        REQUIRE_MESSAGE(ctx, err);
        ctx->enc->mglCreateSurface(1, 0x3033, 32, 32, 8, 8, 8, 8, 24, 8, 0);
        client::make_current(ctx.get(), 1, 1, 32, 32);
        const std::string version = reinterpret_cast<const char*>(mgl_glGetString(GL_VERSION));
        CHECK(version.rfind("3.3 (Compatibility Profile) MobileGL", 0) == 0);
        CHECK(has_ext("GL_EXT_framebuffer_object"));
        // glmark2's render-to-texture, as its desktop build spells it.
        GLuint tex = 0, fb = 0, rb = 0;
        mgl_glGenTextures(1, &tex);
        mgl_glBindTexture(GL_TEXTURE_2D, tex);
        mgl_glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        mgl_glGenerateMipmapEXT(GL_TEXTURE_2D);
        mgl_glGenFramebuffersEXT(1, &fb);
        mgl_glBindFramebufferEXT(GL_FRAMEBUFFER, fb);
        mgl_glFramebufferTexture2DEXT(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        mgl_glGenRenderbuffersEXT(1, &rb);
        mgl_glBindRenderbufferEXT(GL_RENDERBUFFER, rb);
        mgl_glRenderbufferStorageEXT(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 16, 16);
        mgl_glFramebufferRenderbufferEXT(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
        CHECK(mgl_glCheckFramebufferStatusEXT(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
        mgl_glDrawBuffer(GL_COLOR_ATTACHMENT0);
        mgl_glClearColor(1, 0, 0, 1);
        mgl_glClear(GL_COLOR_BUFFER_BIT);
        uint8_t px[4] = {};
        mgl_glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        CHECK(px[0] == 255);
        CHECK(mgl_glGetError() == GL_NO_ERROR);
        mgl_glBindFramebufferEXT(GL_FRAMEBUFFER, 0);
        mgl_glReadBuffer(GL_FRONT);  // the default framebuffer's one buffer
        CHECK(mgl_glGetError() == GL_NO_ERROR);
        // glMapBuffer/glUnmapBuffer (desktop GL 1.5) over glMapBufferRange.
        GLuint buf = 0;
        mgl_glGenBuffers(1, &buf);
        mgl_glBindBuffer(GL_ARRAY_BUFFER, buf);
        mgl_glBufferData(GL_ARRAY_BUFFER, 16, nullptr, GL_DYNAMIC_DRAW);
        auto* p = static_cast<uint8_t*>(mgl_glMapBuffer(GL_ARRAY_BUFFER, 0x88B9 /* GL_WRITE_ONLY */));
        REQUIRE(p);
        std::memset(p, 7, 16);
        CHECK(mgl_glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE);
        CHECK(mgl_glGetError() == GL_NO_ERROR);
        client::make_current(nullptr, 0, 0, -1, -1);
        client::destroy_context(std::move(ctx));
    }
    client::set_connection_factory({});
}

// Write maps without invalidation (glmark2's buffer scene: glMapBuffer(GL_WRITE_ONLY)
// every frame) are filled from the client's copy of the buffer after the first,
// with no round trip; a buffer the server writes itself (a copy's destination,
// a transform feedback binding) is read from the server again, never from a
// stale copy.
TEST_CASE("write maps are filled from the client's copy until the server writes the buffer") {
    std::string why;
    if (!espryt::host_available(&why)) {
        MESSAGE("no host GLES: " << why);
        return;
    }
    serve_with_espryt();
    std::string err;
    auto ctx = client::create_context(nullptr, client::kApiES, 3, 0, 0, 0, &err);
    REQUIRE_MESSAGE(ctx, err);
    ctx->enc->mglCreateSurface(1, 0x3033, 16, 16, 8, 8, 8, 8, 24, 8, 0);
    client::make_current(ctx.get(), 1, 1, 16, 16);
    REQUIRE_MESSAGE(g_conn->error.empty(), g_conn->error);

    std::vector<uint8_t> expect(256);
    for (size_t k = 0; k < expect.size(); ++k) expect[k] = uint8_t(k);
    GLuint bufs[2] = {};
    mgl_glGenBuffers(2, bufs);
    mgl_glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    mgl_glBufferData(GL_ARRAY_BUFFER, 256, expect.data(), GL_DYNAMIC_DRAW);
    // A write map of half the range; checks that the map starts from the buffer's contents.
    auto write_map = [&](int64_t offset, int64_t length, uint8_t value) {
        auto* p = static_cast<uint8_t*>(mgl_glMapBufferRange(GL_ARRAY_BUFFER, offset, length, GL_MAP_WRITE_BIT));
        REQUIRE(p);
        // The untouched bytes of a non-invalidating map hold the buffer's contents.
        for (int64_t k = 0; k < length; ++k) CHECK(p[k] == expect[size_t(offset + k)]);
        std::memset(p + length / 2, value, size_t(length - length / 2));
        std::memset(expect.data() + offset + length / 2, value, size_t(length - length / 2));
        CHECK(mgl_glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE);
    };
    const uint64_t trips0 = ctx->counters.round_trips;
    write_map(0, 256, 0xAA);  // the first comes from the copy of the data it was specified with
    CHECK(ctx->counters.round_trips == trips0);
    write_map(64, 64, 0xBB);  // and so do later ones
    mgl_glBufferSubData(GL_ARRAY_BUFFER, 8, 4, "\x01\x02\x03\x04");
    std::memcpy(expect.data() + 8, "\x01\x02\x03\x04", 4);
    write_map(0, 128, 0xCC);
    CHECK(ctx->counters.round_trips == trips0);
    CHECK(ctx->counters.local_maps == 3);
    // A buffer that was mapped keeps its copy when specified again.
    mgl_glBufferData(GL_ARRAY_BUFFER, 256, expect.data(), GL_DYNAMIC_DRAW);
    write_map(0, 256, 0xAB);
    CHECK(ctx->counters.round_trips == trips0);

    // Specified again before any map (streaming): no copy, the map asks the server
    // once and keeps the copy from then on.
    GLuint stream = 0;
    mgl_glGenBuffers(1, &stream);
    {
        std::vector<uint8_t> saved = expect;
        mgl_glBindBuffer(GL_ARRAY_BUFFER, stream);
        mgl_glBufferData(GL_ARRAY_BUFFER, 256, expect.data(), GL_STREAM_DRAW);
        for (size_t k = 0; k < expect.size(); ++k) expect[k] = uint8_t(255 - k);
        mgl_glBufferData(GL_ARRAY_BUFFER, 256, expect.data(), GL_STREAM_DRAW);
        const uint64_t t = ctx->counters.round_trips;
        write_map(0, 256, 0x5A);
        CHECK(ctx->counters.round_trips == t + 1);
        write_map(0, 256, 0x5B);
        CHECK(ctx->counters.round_trips == t + 1);
        expect = saved;
    }

    // Copies of first specifications stop at ShareGroup::kAutoShadowBytes in
    // all; deleting buffers gives their bytes back.
    {
        const int64_t big = int64_t(4) << 20;
        const int n = int(client::ShareGroup::kAutoShadowBytes / big) + 1;
        std::vector<GLuint> many(static_cast<size_t>(n));
        mgl_glGenBuffers(n, many.data());
        std::vector<uint8_t> data(static_cast<size_t>(big), 0x77);
        for (GLuint name : many) {
            mgl_glBindBuffer(GL_ARRAY_BUFFER, name);
            mgl_glBufferData(GL_ARRAY_BUFFER, big, data.data(), GL_STATIC_DRAW);
        }
        auto map_costs = [&](GLuint name) {
            mgl_glBindBuffer(GL_ARRAY_BUFFER, name);
            const uint64_t t = ctx->counters.round_trips;
            auto* p = static_cast<uint8_t*>(mgl_glMapBufferRange(GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT));
            REQUIRE(p);
            CHECK(p[0] == 0x77);
            CHECK(mgl_glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE);
            return ctx->counters.round_trips - t;
        };
        CHECK(map_costs(many.front()) == 0);
        CHECK(map_costs(many.back()) == 1);  // past the budget: no copy was kept
        CHECK(ctx->group->shadow_bytes <= client::ShareGroup::kShadowBudgetBytes);
        mgl_glDeleteBuffers(n - 1, many.data());
        GLuint again = 0;
        mgl_glGenBuffers(1, &again);
        mgl_glBindBuffer(GL_ARRAY_BUFFER, again);
        mgl_glBufferData(GL_ARRAY_BUFFER, big, data.data(), GL_STATIC_DRAW);
        CHECK(map_costs(again) == 0);  // room again
        mgl_glDeleteBuffers(1, &again);
        mgl_glDeleteBuffers(1, &many.back());
        mgl_glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    }

    // What the server holds equals the client's copy: read through a copy into
    // a second buffer the client has never mapped.
    auto server_bytes = [&](GLuint from) {
        mgl_glBindBuffer(GL_COPY_READ_BUFFER, from);
        mgl_glBindBuffer(GL_COPY_WRITE_BUFFER, bufs[1]);
        mgl_glBufferData(GL_COPY_WRITE_BUFFER, 256, nullptr, GL_DYNAMIC_COPY);
        mgl_glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, 256);
        auto* r = static_cast<const uint8_t*>(mgl_glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, 256, GL_MAP_READ_BIT));
        std::vector<uint8_t> out(r, r + 256);
        mgl_glUnmapBuffer(GL_COPY_WRITE_BUFFER);
        return out;
    };
    CHECK(server_bytes(bufs[0]) == expect);

    // The server writes bufs[0] (a copy into it): its next map asks the server.
    mgl_glBindBuffer(GL_COPY_READ_BUFFER, bufs[1]);
    mgl_glBindBuffer(GL_COPY_WRITE_BUFFER, bufs[0]);
    std::vector<uint8_t> ones(256, 0x11);
    mgl_glBufferSubData(GL_COPY_READ_BUFFER, 0, 256, ones.data());
    mgl_glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 16, 16, 32);
    std::fill(expect.begin() + 16, expect.begin() + 48, uint8_t(0x11));
    const uint64_t trips1 = ctx->counters.round_trips;
    write_map(0, 256, 0xDD);
    CHECK(ctx->counters.round_trips == trips1 + 1);
    write_map(0, 256, 0xEE);  // and every later one too: the copy is gone for good
    CHECK(ctx->counters.round_trips == trips1 + 2);
    CHECK(server_bytes(bufs[0]) == expect);

    // A transform feedback binding marks a buffer the same way.
    GLuint tf = 0;
    mgl_glGenBuffers(1, &tf);
    mgl_glBindBuffer(GL_ARRAY_BUFFER, tf);
    mgl_glBufferData(GL_ARRAY_BUFFER, 256, expect.data(), GL_DYNAMIC_DRAW);
    write_map(0, 256, 0x42);
    mgl_glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf);
    const uint64_t trips2 = ctx->counters.round_trips;
    write_map(0, 256, 0x43);
    CHECK(ctx->counters.round_trips == trips2 + 1);
    CHECK(mgl_glGetError() == GL_NO_ERROR);

    mgl_glFinish();
    client::make_current(nullptr, 0, 0, -1, -1);
    client::destroy_context(std::move(ctx));
    client::set_connection_factory({});
}
