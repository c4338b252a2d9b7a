// A GPU that does not finish must not hang the session (nor the server)
// forever: a real server with two Magma sessions over the inproc transport;
// one draws with a shader that runs far longer than its GPU timeout, which
// ends that session with a lost context and a backend fault, while the other
// session goes on rendering.
#include <doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "gen/fingerprint.h"
#include "gl_api.h"
#include "mgl/server/codec_applier.h"
#include "mgl/server/server.h"
#include "mgl/wire/transport/connect.h"
#include "mgl/wire/transport/control.h"

using namespace magma_test;
using namespace std::chrono_literals;

namespace {

// A fragment shader whose loop count is a uniform (nothing to fold away).
// llvmpipe ends a shader's loops after 65535 iterations in all, so the
// length comes from instances: each covers the 16x16 surface again with
// 60000 iterations per pixel (about 18 ms on lavapipe here; 100 instances,
// over a second, against a 100 ms GPU timeout).
const char* kVs = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
const char* kFs =
    "#version 300 es\nprecision highp float; uniform int n; out vec4 o;\n"
    "void main() { float x = gl_FragCoord.x;\n"
    "  for (int i = 0; i < n; ++i) x = fract(x * 1.37 + 0.11);\n"
    "  o = vec4(x); }";

std::unique_ptr<wire::Connection> connect_inproc(const server::Server& srv, std::shared_ptr<wire::InprocEndpoint> ep) {
    wire::ConnectOptions co;
    co.transport = "inproc";
    co.inproc = std::move(ep);
    co.wire_fingerprint = gen::kWireFingerprint;
    co.backend = "magma";
    wire::ConnectResult r = wire::connect(co);
    REQUIRE_MESSAGE(r.link, r.error);
    return std::move(r.link);
}

void start(gen::Encoder& enc) {
    enc.mglCreateContext(1, 0, 3, 0, 0, 0x30A0, 0);
    enc.mglCreateSurface(1, 0x3033, 16, 16, 8, 8, 8, 8, 0, 0, 0);
    enc.mglMakeCurrent(1, 1, 1);
}

}  // namespace

TEST_CASE("a GPU hang ends that session with a lost context and a fault; the server and other sessions go on") {
    if (!magma::vulkan_available()) return;
    // The first session made gets a 100 ms GPU timeout, later ones the default.
    std::atomic<int> made{0};
    server::ServerOptions o;
    o.appliers = server::codec_applier_factory([&](const std::string& name) -> std::unique_ptr<Backend> {
        if (name != "magma") return nullptr;
        magma::Options mo;
        if (made++ == 0) mo.gpu_timeout_ms = std::getenv("HANG_MS") ? std::atoi(std::getenv("HANG_MS")) : 100;
        return magma::create(mo);
    });
    o.default_backend = "magma";
    o.wire_fingerprint = gen::kWireFingerprint;
    server::Server srv(std::move(o));
    auto ep = srv.inproc_endpoint();

    auto hung = connect_inproc(srv, ep);
    gen::Encoder a(hung.get());
    start(a);
    WireGl ga(a);
    const GLuint prog = ga.program(ga.shader(GL_VERTEX_SHADER, kVs), ga.shader(GL_FRAGMENT_SHADER, kFs), "p");
    REQUIRE(prog);
    REQUIRE(made == 1);

    auto other = connect_inproc(srv, ep);
    gen::Encoder b(other.get());
    start(b);
    b.mglPing(1);
    GLuint64 pong = 0;
    REQUIRE(gen::read_reply_mglPing(b.wait_reply(), &pong));
    REQUIRE(made == 2);

    // The long draw, then a round trip that waits for the GPU (glReadPixels).
    const float tri[] = {-1, -1, 3, -1, -1, 3};
    a.glUseProgram(prog);
    a.glUniform1i(ga.uniform_location(prog, "n"), std::getenv("HANG_N") ? std::atoi(std::getenv("HANG_N")) : 60000);
    const GLuint buf = ga.gen_buffer();
    ga.bind_buffer(GL_ARRAY_BUFFER, buf);
    ga.buffer_data(GL_ARRAY_BUFFER, tri, sizeof tri);
    ga.attrib(0, 2, GL_FLOAT, false, 0, 0);
    ga.enable_attrib(0);
    a.glDrawArraysInstanced(GL_TRIANGLES, 0, 3, std::getenv("HANG_I") ? std::atoi(std::getenv("HANG_I")) : 100);
    a.mglGetError();
    GLenum err = 0xFFFF;
    REQUIRE(gen::read_reply_mglGetError(a.wait_reply(), &err));
    REQUIRE(err == GL_NO_ERROR);
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<uint8_t> px(16 * 16 * 4);
    a.glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, 0, uint32_t(px.size()));
    const bool replied = gen::read_reply_glReadPixels(a.wait_reply(), px.data(), uint32_t(px.size()));
    // The reply to the read may still come (its bytes are meaningless);
    // nothing after it does: the session ends once that batch is applied.
    a.mglPing(2);
    CHECK_FALSE(gen::read_reply_mglPing(a.wait_reply(), &pong));
    const auto waited = std::chrono::steady_clock::now() - t0;
    CHECK(waited < 5s);  // not the shader's run time: bounded by the timeout
    INFO("read replied: " << replied);
    INFO("waited ms: " << std::chrono::duration_cast<std::chrono::milliseconds>(waited).count());

    bool lost_context = false, backend_fault = false;
    std::string message;
    for (auto until = std::chrono::steady_clock::now() + 5s;
         !(lost_context && backend_fault) && std::chrono::steady_clock::now() < until;) {
        wire::Event ev;
        if (!hung->poll_event(&ev)) {
            std::this_thread::sleep_for(10ms);
            continue;
        }
        lost_context |= ev.kind == wire::Event::Kind::lost_context;
        if (ev.kind == wire::Event::Kind::fault && ev.fault_reason == uint8_t(wire::FaultReason::backend)) {
            backend_fault = true;
            message = ev.message;
        }
    }
    CHECK(lost_context);
    CHECK(backend_fault);
    CHECK(message.find("GPU hang") != std::string::npos);
    CHECK(srv.wait_sessions_at_most(1, 5s));  // that session ended (without waiting for the GPU)

    // The other session renders on.
    b.glClearColor(0, 1, 0, 1);
    b.glClear(GL_COLOR_BUFFER_BIT);
    std::vector<uint8_t> ok(16 * 16 * 4);
    b.glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, 0, uint32_t(ok.size()));
    REQUIRE(gen::read_reply_glReadPixels(b.wait_reply(), ok.data(), uint32_t(ok.size())));
    CHECK(ok[1] == 255);
    CHECK(ok[0] == 0);

    // And the server takes new sessions.
    auto third = connect_inproc(srv, ep);
    gen::Encoder c(third.get());
    start(c);
    c.mglPing(3);
    CHECK(gen::read_reply_mglPing(c.wait_reply(), &pong));
    hung->close();
    other->close();
    third->close();
}
