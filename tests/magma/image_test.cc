// Image load/store on Magma (desktop contexts, GL_ARB_shader_image_load_store:
// images.cc): a compute shader that reads and writes a texture through an
// image unit, read back through a framebuffer; the unit's queries; the
// errors GL prescribes and what is refused loudly (another format than the
// texture's).
#include <GLES3/gl32.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "harness.h"

namespace magma_test {
namespace {

constexpr int kW = 16, kH = 16;
constexpr GLenum kImageBindingName = 0x8F3A, kImageBindingFormat = 0x906E, kMaxImageUnits = 0x8F38;

void start_desktop(Wire& w) {
    w.enc.mglCreateContext(1, 0, 3, 3, 0, 0x30A2 /* EGL_OPENGL_API */, 1 /* core */);
    w.enc.mglCreateSurface(1, 0x3033, kW, kH, 8, 8, 8, 8, 24, 8, 0);
    w.enc.mglMakeCurrent(1, 1, 1);
}

GLint indexed(Wire& w, GLenum pname, GLuint index) {
    GLint v = -1;
    w.enc.glGetIntegeri_v(pname, index, 4);
    gen::read_reply_glGetIntegeri_v(w.enc.wait_reply(), &v, 4);
    return v;
}

// Each invocation writes its coordinates (x / 4, y / 4) and the blue it read plus 0.5.
const char* kShade =
    "#version 330\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_image_load_store : require\n"
    "layout(local_size_x = 4, local_size_y = 4) in;\n"
    "layout(rgba8, binding = 2) uniform image2D img;\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  vec4 old = imageLoad(img, p);\n"
    "  imageStore(img, p, vec4(float(p.x) / 4.0, float(p.y) / 4.0, old.b + 0.5, 1.0));\n"
    "}\n";

}  // namespace

TEST_CASE("image load/store: a compute shader reads and writes a texture through an image unit") {
    Wire w;
    REQUIRE(w.backend);
    start_desktop(w);
    const std::string ext = " " + w.get_string(GL_EXTENSIONS) + " ";
    REQUIRE(ext.find(" GL_ARB_shader_image_load_store ") != std::string::npos);
    GLint units = 0;
    w.enc.glGetIntegerv(kMaxImageUnits, 4);
    gen::read_reply_glGetIntegerv(w.enc.wait_reply(), &units, 4);
    CHECK(units >= 8);

    // A 4x4 RGBA8 texture, blue 64 everywhere.
    std::vector<uint8_t> texels(4 * 4 * 4);
    for (size_t i = 0; i < texels.size(); i += 4) texels[i + 2] = 64;
    GLuint tex = 20;
    w.enc.glGenTextures(1, wire::Blob{&tex, 4});
    w.enc.glBindTexture(GL_TEXTURE_2D, tex);
    w.enc.glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
    w.enc.glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE,
                          wire::OffsetOrBlob{0, texels.data(), uint32_t(texels.size())});

    w.enc.glCreateShader(GL_COMPUTE_SHADER, 10);
    std::string b = strings_blob({kShade});
    w.enc.glShaderSource(10, 1, wire::Blob{b.data(), uint32_t(b.size())});
    w.enc.glCompileShader(10);
    w.enc.glCreateProgram(11);
    w.enc.glAttachShader(11, 10);
    w.enc.glLinkProgram(11);
    GLint linked = 0;
    w.enc.glGetProgramiv(11, GL_LINK_STATUS, 4);
    gen::read_reply_glGetProgramiv(w.enc.wait_reply(), &linked, 4);
    if (!linked) MESSAGE(w.log_text.str());
    REQUIRE(linked);

    w.enc.glBindImageTexture(2, tex, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
    CHECK(w.error() == GL_NO_ERROR);
    CHECK(indexed(w, kImageBindingName, 2) == GLint(tex));
    CHECK(indexed(w, kImageBindingFormat, 2) == GL_RGBA8);
    w.enc.glUseProgram(11);
    w.enc.glDispatchCompute(1, 1, 1);
    w.enc.glMemoryBarrier(0x00000400 /* GL_FRAMEBUFFER_BARRIER_BIT */);
    CHECK(w.error() == GL_NO_ERROR);

    GLuint fbo = 30;
    w.enc.glGenFramebuffers(1, wire::Blob{&fbo, 4});
    w.enc.glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    w.enc.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    std::vector<uint8_t> px = w.read_pixels(4, 4);
    REQUIRE(px.size() == 64);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            const uint8_t* p = &px[size_t(y * 4 + x) * 4];
            CHECK(std::abs(int(p[0]) - x * 64) <= 1);
            CHECK(std::abs(int(p[1]) - y * 64) <= 1);
            CHECK(std::abs(int(p[2]) - 191) <= 1);  // 64/255 + 0.5
            CHECK(p[3] == 255);
        }

    // GL's errors (the front end's rules).
    w.enc.glBindImageTexture(GLuint(units), tex, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glBindImageTexture(2, tex, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGB8);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glBindImageTexture(2, tex, 0, GL_FALSE, 0, GL_RGBA, GL_RGBA8);
    CHECK(w.error() == GL_INVALID_ENUM);
    w.enc.glBindImageTexture(2, 999, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
    CHECK(w.error() == GL_INVALID_VALUE);
    // Another format than the texture's: not served yet, refused at the dispatch.
    w.enc.glBindImageTexture(2, tex, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
    CHECK(w.error() == GL_NO_ERROR);
    w.enc.glDispatchCompute(1, 1, 1);
    CHECK(w.error() == GL_INVALID_OPERATION);
    // A deleted texture leaves its unit.
    w.enc.glDeleteTextures(1, wire::Blob{&tex, 4});
    CHECK(indexed(w, kImageBindingName, 2) == 0);
}

}  // namespace magma_test
