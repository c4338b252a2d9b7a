// Magma's session verbs: strings name the Vulkan device, surfaces read back,
// window frames are presented, the render pass stays open across draws,
// unsupported verbs fail loudly.
#include <doctest.h>

#include <chrono>

#include "gl_api.h"

using namespace magma_test;

TEST_CASE("GL_RENDERER names the Vulkan device, GL_VERSION is GLES 3.0") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start();
    const std::string renderer = wire.get_string(GL_RENDERER);
    CHECK(renderer.find(wire.backend->device_name()) != std::string::npos);
    CHECK(renderer.find("Magma") != std::string::npos);
    CHECK(wire.get_string(GL_VERSION).rfind("OpenGL ES 3.0", 0) == 0);
}

TEST_CASE("a window surface keeps its swapped frame and presents it") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    std::vector<magma::Frame> frames;
    std::vector<uint8_t> first_pixel;
    wire.backend->set_present([&](const magma::Frame& f) {
        frames.push_back(f);
        first_pixel.assign(f.rgba, f.rgba + 4);
    });
    wire.start(1, 7, 16, 8, 0x3034);
    wire.enc.glClearColor(1, 0, 0, 1);
    wire.enc.glClear(GL_COLOR_BUFFER_BIT);
    wire.enc.mglSwapBuffers(7, 1);
    wire.enc.glClearColor(0, 1, 0, 1);
    wire.enc.glClear(GL_COLOR_BUFFER_BIT);
    auto px = wire.read_surface(7, 16, 8);
    REQUIRE(px.size() == 16 * 8 * 4);
    CHECK(px[0] == 255);
    CHECK(px[1] == 0);
    REQUIRE(frames.size() == 1);
    CHECK(frames[0].frame == 1);
    CHECK(frames[0].width == 16);
    CHECK(first_pixel == std::vector<uint8_t>{255, 0, 0, 255});
    auto back = wire.read_pixels(16, 8);
    REQUIRE(back.size() == 16 * 8 * 4);
    CHECK(back[1] == 255);  // the current frame is green
}

TEST_CASE("window swaps do not wait for the GPU: frames are presented in order once done, at most 2 in flight") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> frames;
    wire.backend->set_present([&](const magma::Frame& f) { frames.push_back({f.frame, {f.rgba, f.rgba + 4}}); });
    wire.start(1, 7, 16, 16, 0x3034);
    WireGl g(wire);
    // A slow frame: 60000 loop iterations per pixel, 60 instances over the
    // 16x16 window (about a second on lavapipe here). The loop's result reaches
    // the output (a vanishing alpha term): `x * 0.0` let the compiler drop the
    // loop, and the frame was slow only while lavapipe compiled the pipeline.
    const char* vs = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
    const char* fs = "#version 300 es\nprecision highp float; uniform int n; out vec4 o;\n"
                     "void main() { float x = gl_FragCoord.x; for (int i = 0; i < n; ++i) x = fract(x * 1.37 + 0.11);\n"
                     "  o = vec4(1.0, 0.0, 0.0, 1.0) + vec4(0.0, 0.0, 0.0, x * 1e-30); }";
    GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, vs), g.shader(GL_FRAGMENT_SHADER, fs), "p");
    REQUIRE(prog);
    g.fullscreen_triangle();
    g.use(prog);
    g.uniform1i(g.uniform_location(prog, "n"), 60000);
    wire.enc.glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 60);
    REQUIRE(wire.flush().ok());
    const auto t0 = std::chrono::steady_clock::now();
    wire.enc.mglSwapBuffers(7, 1);  // red, slow
    REQUIRE(wire.flush().ok());
    const auto swap = std::chrono::steady_clock::now() - t0;
    CHECK(swap < std::chrono::milliseconds(250));  // it did not wait for the frame
    CHECK(frames.empty());                         // which is not done yet
    g.clear_color(0, 1, 0, 1);
    g.clear(GL_COLOR_BUFFER_BIT);
    wire.enc.mglSwapBuffers(7, 2);  // green: two frames in flight now
    g.clear_color(0, 0, 1, 1);
    g.clear(GL_COLOR_BUFFER_BIT);
    wire.enc.mglSwapBuffers(7, 3);  // blue: waits for frame 1 (at most 2 in flight)
    REQUIRE(wire.flush().ok());
    REQUIRE(!frames.empty());
    CHECK(frames[0].first == 1);
    // Reading the window's front shows the last swapped frame: everything is presented.
    auto px = wire.read_surface(7, 16, 16);
    REQUIRE(px.size() == 16 * 16 * 4);
    CHECK(px[2] == 255);
    REQUIRE(frames.size() == 3);
    const std::vector<uint8_t> colors[3] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}};
    for (int i = 0; i < 3; ++i) {
        CHECK(frames[size_t(i)].first == uint64_t(i + 1));
        CHECK(frames[size_t(i)].second == colors[i]);
    }
    CHECK(wire.error() == GL_NO_ERROR);
}

TEST_CASE("draws to the same surface share one render pass and one pipeline") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start(1, 7, 32, 32, 0x3034);
    WireGl g(wire);
    const char* vs = "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
    const char* fs = "precision mediump float; uniform vec4 c; void main() { gl_FragColor = c; }";
    GLuint prog = g.program(g.shader(GL_VERTEX_SHADER, vs), g.shader(GL_FRAGMENT_SHADER, fs), nullptr);
    REQUIRE(prog);
    const float tri[] = {-1, -1, 1, -1, 0, 1};
    GLuint b = g.gen_buffer();
    g.bind_buffer(GL_ARRAY_BUFFER, b);
    g.buffer_data(GL_ARRAY_BUFFER, tri, sizeof tri);
    g.attrib(0, 2, GL_FLOAT, false, 0, 0);
    g.enable_attrib(0);
    g.use(prog);
    const GLint c = g.uniform_location(prog, "c");
    // One draw before the frames counted: its pipeline is made by then.
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    wire.enc.mglSwapBuffers(7, 1);  // frame counters start here
    for (int frame = 2; frame <= 3; ++frame) {
        g.clear(GL_COLOR_BUFFER_BIT);
        for (int i = 0; i < 10; ++i) {
            g.uniform4f(c, float(i) / 10, 0, 0, 1);
            g.draw_arrays(GL_TRIANGLES, 0, 3);
        }
        wire.enc.mglSwapBuffers(7, GLuint64(frame));
        REQUIRE(wire.flush().ok());
        const magma::Counters fc = wire.backend->frame_counters();
        CHECK(fc.draws == 10);
        CHECK(fc.render_passes == 1);
        CHECK(fc.pipelines == 0u);  // made at link (where vertex input is dynamic) or at the first draw, then cached
        CHECK(fc.submits == 1);
        // Set 0 (samplers, blocks) is reused; the default block's set 1 too,
        // its uniforms moving by dynamic offset, except on a device that
        // reads it through a set per copy (lavapipe: one per draw here).
        CHECK(fc.descriptor_sets <= (wire.backend->default_block_per_copy() ? 11u : 2u));
    }
    CHECK(wire.backend->total_counters().pipelines == 1);  // the link-time guess (if any) was the one drawn with
    CHECK(wire.error() == GL_NO_ERROR);
}

TEST_CASE("an unsupported verb raises GL_INVALID_OPERATION and logs once") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start();
    // Program binaries are not served on Magma (GL_NUM_PROGRAM_BINARY_FORMATS is 0).
    const uint8_t bytes[4] = {};
    wire.enc.glProgramBinary(1, 0, wire::Blob{bytes, 4}, 4);
    wire.enc.glProgramBinary(1, 0, wire::Blob{bytes, 4}, 4);
    CHECK(wire.error() == GL_INVALID_OPERATION);
    CHECK(wire.error() == GL_NO_ERROR);
    CHECK(wire.log_lines("glProgramBinary is not supported") == 1);
}

TEST_CASE("a shader that does not compile reports it with a log") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start();
    WireGl g(wire);
    CHECK(g.shader(GL_FRAGMENT_SHADER, "void main() { gl_FragColor = undeclared; }") == 0);
    CHECK(wire.error() == GL_NO_ERROR);
}

namespace {
// Clears the started session's surface to a primary colour and reads it back:
// the session renders (channel 0 red, 1 green, 2 blue).
void check_renders(Wire& w, int channel) {
    const float c[3] = {channel == 0 ? 1.0f : 0.0f, channel == 1 ? 1.0f : 0.0f, channel == 2 ? 1.0f : 0.0f};
    w.enc.glClearColor(c[0], c[1], c[2], 1);
    w.enc.glClear(GL_COLOR_BUFFER_BIT);
    auto px = w.read_surface(1, 64, 64);
    REQUIRE(px.size() == 64 * 64 * 4);
    CHECK(px[channel] == 255);
}
}  // namespace

TEST_CASE("a lost device ends that session with a lost context and a fault, nothing else") {
    Wire wire;
    REQUIRE_MESSAGE(wire.backend, wire.why);
    wire.start();
    WireGl g(wire);
    g.clear(GL_COLOR_BUFFER_BIT);
    REQUIRE(wire.flush().ok());
    CHECK(wire.backend->fault() == nullptr);
    wire.backend->lose_device_for_testing();
    CHECK(wire.backend->lost());
    REQUIRE(wire.backend->fault() != nullptr);
    CHECK(std::string(wire.backend->fault()).find("VK_ERROR_DEVICE_LOST") != std::string::npos);
    // Later verbs do nothing (and do not crash); the context reports the loss.
    g.clear(GL_COLOR_BUFFER_BIT);
    g.draw_arrays(GL_TRIANGLES, 0, 3);
    CHECK(wire.error() == 0x0507);  // GL_CONTEXT_LOST
    CHECK(wire.log_lines("VK_ERROR_DEVICE_LOST") == 1);
    // Another session (never given the lost device) is unaffected.
    Wire other;
    REQUIRE(other.backend);
    other.start();
    check_renders(other, 2);
    CHECK(other.backend->fault() == nullptr);
}

#include "mgl/server/codec_applier.h"

TEST_CASE("a lost device serves no later session: neither kept for it nor shared with it") {
    {
        Wire lost;  // takes the kept device if there is one: none is kept after it
        REQUIRE_MESSAGE(lost.backend, lost.why);
        lost.start();
        WireGl g(lost);
        g.clear(GL_COLOR_BUFFER_BIT);
        REQUIRE(lost.flush().ok());
        lost.backend->lose_device_for_testing();
        REQUIRE(lost.backend->lost());
        // While it lives: not shared (a device with one queue, as lavapipe's,
        // is never shared; on GPUs this is the check that counts).
        Wire next;
        REQUIRE(next.backend);
        CHECK(next.log_lines("shared with a live session") == 0);
        next.start();
        check_renders(next, 1);
        next.backend->lose_device_for_testing();  // so that neither device may be kept
    }
    // Both ended; neither device was kept: the next session opens one.
    Wire after;
    REQUIRE(after.backend);
    CHECK(after.log_lines("kept open beforehand") == 0);
    CHECK(after.log_lines("opened in") == 1);
    after.start();
    check_renders(after, 2);
}

TEST_CASE("the server's applier turns a lost Magma device into a backend fault") {
    std::unique_ptr<magma::Magma> made;
    magma::Magma* raw = nullptr;
    auto factory = server::codec_applier_factory([&](const std::string&) -> std::unique_ptr<mgl::Backend> {
        auto b = magma::create();
        raw = b.get();
        return b;
    });
    std::unique_ptr<wire::Applier> applier = factory("magma");
    REQUIRE(applier);
    REQUIRE(raw);
    wire::MemoryLink link{1 << 16, 1 << 16};
    gen::Encoder enc{&link};
    enc.mglCreateContext(1, 0, 3, 0, 0, 0x30A0, 0);
    enc.mglCreateSurface(1, 0x3033, 8, 8, 8, 8, 8, 8, 0, 0, 0);
    enc.mglMakeCurrent(1, 1, 1);
    enc.flush();
    auto bytes = link.bytes();
    CHECK(applier->apply(bytes, link.replies, false).ok());
    link.clear();
    raw->lose_device_for_testing();
    enc.glClear(GL_COLOR_BUFFER_BIT);
    enc.flush();
    bytes = link.bytes();
    wire::DecodeResult r = applier->apply(bytes, link.replies, false);
    CHECK(r.error.status == wire::DecodeStatus::backend_lost);
    CHECK(r.error.detail.find("VK_ERROR_DEVICE_LOST") != std::string::npos);
    raw->release();
}
