// Desktop GLSL through the front end, compiled and drawn on the host's GLES
// 3.2, compared pixel for pixel with the same program on native desktop GL
// (llvmpipe, GL 4.5 core): piglit-style cases of what the translation must
// keep (1.10 built-ins, 1.30 integers, uniform blocks, arrays of structs,
// gl_FragData, bound fragment outputs, texture lookups of 1.10 and 1.30) and
// the chunks-gl33 programs.
#include <doctest.h>

#include "chunks_gl33.h"
#include "gl_pair.h"

using namespace glfe_test;

namespace {

void same_image(const Case& c, int outputs = 1) {
    GlPair& p = GlPair::get();
    if (!p.why.empty()) {
        MESSAGE("skipped: " << p.why);
        return;
    }
    const Image native = render_native(c);
    REQUIRE_MESSAGE(native.ok, native.log);
    const Image ours = render_translated(c);
    REQUIRE_MESSAGE(ours.ok, ours.log);
    for (int i = 0; i < outputs; ++i) {
        // Not a blank picture: the case draws something distinct.
        bool drawn = false;
        for (uint8_t b : native.colour[i]) drawn = drawn || b != 0;
        CHECK_MESSAGE(drawn, "native attachment " << i << " is empty: the case tests nothing");
        CHECK_MESSAGE(native.colour[i] == ours.colour[i], "attachment " << i << " differs from native desktop GL");
    }
}

const char* kQuadVs110 =
    "attribute vec4 position;\n"
    "varying vec2 uv;\n"
    "void main() { uv = position.xy * 0.5 + 0.5; gl_Position = position; }\n";

}  // namespace

TEST_CASE("GLSL 1.10: attribute, varying, gl_FragColor, texture2D and uniforms") {
    Case c;
    c.vs = {kQuadVs110};
    c.fs = {"uniform sampler2D tex;\nuniform vec4 tint;\nvarying vec2 uv;\n"
            "void main() { gl_FragColor = texture2D(tex, uv) * tint + vec4(uv, 0.0, 0.0) * 0.25; }\n"};
    c.setup = [](GLuint prog) {
        bind_test_texture();
        glUniform1i(glGetUniformLocation(prog, "tex"), 0);
        glUniform4f(glGetUniformLocation(prog, "tint"), 0.5f, 1.0f, 0.75f, 1.0f);
    };
    same_image(c);
}

TEST_CASE("GLSL 1.10 vs 1.30 texture functions: texture2DProj, texture2D with bias, textureCube / textureProj, textureLod, texelFetch") {
    Case a;
    a.vs = {kQuadVs110};
    a.fs = {"uniform sampler2D tex;\nvarying vec2 uv;\n"
            "void main() { gl_FragColor = texture2DProj(tex, vec3(uv * 2.0, 2.0)) + texture2D(tex, uv.yx, 0.0) * 0.5; }\n"};
    a.setup = [](GLuint prog) {
        bind_test_texture();
        glUniform1i(glGetUniformLocation(prog, "tex"), 0);
    };
    same_image(a);
    Case cube;
    cube.vs = {kQuadVs110};
    cube.fs = {"uniform samplerCube tex;\nvarying vec2 uv;\n"
               "void main() { gl_FragColor = textureCube(tex, vec3(1.0, uv * 2.0 - 1.0)); }\n"};
    cube.setup = [](GLuint prog) {
        bind_test_texture(GL_TEXTURE_CUBE_MAP);
        glUniform1i(glGetUniformLocation(prog, "tex"), 0);
    };
    same_image(cube);
    Case b;
    b.vs = {"#version 130\nin vec4 position;\nout vec2 uv;\nvoid main() { uv = position.xy * 0.5 + 0.5; gl_Position = position; }\n"};
    b.fs = {"#version 130\nuniform sampler2D tex;\nin vec2 uv;\nout vec4 colour;\n"
            "void main() {\n"
            "  ivec2 size = textureSize(tex, 0);\n"
            "  colour = textureProj(tex, vec3(uv * 2.0, 2.0)) * 0.5 + textureLod(tex, uv, 0.0) * 0.25\n"
            "         + texelFetch(tex, ivec2(uv * vec2(size)), 0) * 0.25;\n"
            "}\n"};
    b.setup = a.setup;
    same_image(b);
}

TEST_CASE("GLSL 1.30 integers: int/uint uniforms, bit operations, %, flat varyings") {
    Case c;
    c.vs = {"#version 130\nin vec4 position;\nflat out int cell;\nout vec2 uv;\n"
            "void main() { uv = position.xy * 0.5 + 0.5; cell = int(gl_VertexID) * 3 + 1; gl_Position = position; }\n"};
    c.fs = {"#version 130\nuniform int base;\nuniform uint mask;\nuniform ivec2 grid;\nflat in int cell;\nin vec2 uv;\n"
            "out vec4 colour;\n"
            "void main() {\n"
            "  ivec2 p = ivec2(uv * vec2(grid));\n"
            "  int v = (p.x * 7 + p.y * 13 + base) % 17;\n"
            "  uint bits = (uint(v) << 3u) ^ mask;\n"
            "  colour = vec4(float(v) / 16.0, float(bits & 255u) / 255.0, float(cell % 4) / 3.0, 1.0);\n"
            "}\n"};
    c.setup = [](GLuint prog) {
        glUniform1i(glGetUniformLocation(prog, "base"), 5);
        glUniform1ui(glGetUniformLocation(prog, "mask"), 0xA5u);
        glUniform2i(glGetUniformLocation(prog, "grid"), 8, 8);
    };
    same_image(c);
}

TEST_CASE("GLSL 1.50 uniform blocks, anonymous and named, set through a buffer by block and member name") {
    Case c;
    c.vs = {"#version 150\nin vec4 position;\nout vec2 uv;\nvoid main() { uv = position.xy * 0.5 + 0.5; gl_Position = position; }\n"};
    c.fs = {"#version 150\nuniform Colours { vec4 first; vec4 second; };\n"
            "layout(std140) uniform Mix { vec4 weights; } mixer;\nin vec2 uv;\nout vec4 colour;\n"
            "void main() { colour = mix(first, second, uv.x) * mixer.weights; }\n"};
    c.setup = [](GLuint prog) {
        const GLuint colours = glGetUniformBlockIndex(prog, "Colours"), mix = glGetUniformBlockIndex(prog, "Mix");
        REQUIRE(colours != GL_INVALID_INDEX);
        REQUIRE(mix != GL_INVALID_INDEX);
        // Member names as the application wrote them: "first" (anonymous
        // block), "Mix.weights" (named block).
        const char* names[] = {"first", "second", "Mix.weights"};
        GLuint idx[3];
        glGetUniformIndices(prog, 3, names, idx);
        for (GLuint i : idx) REQUIRE(i != GL_INVALID_INDEX);
        glUniformBlockBinding(prog, colours, 1);
        glUniformBlockBinding(prog, mix, 2);
        const float a[8] = {1, 0, 0.25f, 1, 0, 1, 0.5f, 1}, w[4] = {1, 0.5f, 1, 1};
        GLuint bufs[2];
        glGenBuffers(2, bufs);
        glBindBuffer(GL_UNIFORM_BUFFER, bufs[0]);
        glBufferData(GL_UNIFORM_BUFFER, sizeof a, a, GL_STATIC_DRAW);
        glBindBuffer(GL_UNIFORM_BUFFER, bufs[1]);
        glBufferData(GL_UNIFORM_BUFFER, sizeof w, w, GL_STATIC_DRAW);
        glBindBufferBase(GL_UNIFORM_BUFFER, 1, bufs[0]);
        glBindBufferBase(GL_UNIFORM_BUFFER, 2, bufs[1]);
    };
    same_image(c);
}

TEST_CASE("arrays of structs: uniforms located by their element and member names") {
    Case c;
    c.vs = {"#version 330 core\nin vec4 position;\nout vec2 uv;\nvoid main() { uv = position.xy * 0.5 + 0.5; gl_Position = position; }\n"};
    c.fs = {"#version 330 core\nstruct Light { vec4 colour; float weight[2]; };\nuniform Light lights[3];\n"
            "in vec2 uv;\nout vec4 colour;\n"
            "void main() {\n"
            "  vec4 c = vec4(0.0);\n"
            "  for (int i = 0; i < 3; ++i) c += lights[i].colour * lights[i].weight[uv.x < 0.5 ? 0 : 1];\n"
            "  colour = c;\n"
            "}\n"};
    c.setup = [](GLuint prog) {
        for (int i = 0; i < 3; ++i) {
            const std::string l = "lights[" + std::to_string(i) + "]";
            const GLint col = glGetUniformLocation(prog, (l + ".colour").c_str());
            const GLint w1 = glGetUniformLocation(prog, (l + ".weight[1]").c_str());
            const GLint w0 = glGetUniformLocation(prog, (l + ".weight").c_str());
            REQUIRE(col >= 0);
            REQUIRE(w0 >= 0);
            REQUIRE(w1 >= 0);
            glUniform4f(col, 0.1f * float(i + 1), 0.2f, 0.3f * float(i), 0.25f);
            glUniform1f(w0, 0.5f + float(i) * 0.25f);
            glUniform1f(w1, 1.0f - float(i) * 0.25f);
        }
    };
    same_image(c);
}

TEST_CASE("GLSL 1.20 gl_FragData into two draw buffers") {
    Case c;
    c.vs = {"#version 120\n" + std::string(kQuadVs110)};
    c.fs = {"#version 120\nvarying vec2 uv;\n"
            "void main() { gl_FragData[0] = vec4(uv, 0.25, 1.0); gl_FragData[1] = vec4(1.0 - uv.x, 0.5, uv.y, 1.0); }\n"};
    same_image(c, 2);
}

TEST_CASE("multiple outputs placed by glBindFragDataLocation, and by layout(location)") {
    Case c;
    c.vs = {"#version 330 core\nin vec4 position;\nout vec2 uv;\nvoid main() { uv = position.xy * 0.5 + 0.5; gl_Position = position; }\n"};
    c.fs = {"#version 330 core\nin vec2 uv;\nout vec4 first;\nout vec4 second;\n"
            "void main() { first = vec4(uv, 0.0, 1.0); second = vec4(0.0, 1.0 - uv.y, 1.0, 1.0); }\n"};
    c.frag_bindings = {{"first", 1}, {"second", 0}};  // swapped against declaration order
    same_image(c, 2);
    Case d = c;
    d.frag_bindings.clear();
    d.fs = {"#version 330 core\nin vec2 uv;\nlayout(location = 1) out vec4 first;\nlayout(location = 0) out vec4 second;\n"
            "void main() { first = vec4(uv, 0.0, 1.0); second = vec4(0.0, 1.0 - uv.y, 1.0, 1.0); }\n"};
    same_image(d, 2);
}

TEST_CASE("chunks-gl33: both terrain programs and the entity program, camera block and explicit attribute locations") {
    auto setup = [](GLuint prog) {
        bind_test_texture();
        const GLuint cam = glGetUniformBlockIndex(prog, "Camera");
        REQUIRE(cam != GL_INVALID_INDEX);
        glUniformBlockBinding(prog, cam, 0);
        // view: identity shifted back by 2; proj: a plain scale; fog from 1.5 to 4.
        float block[40] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -2, 1,
                           0.9f, 0, 0, 0, 0, 0.9f, 0, 0, 0, 0, 0.1f, 0, 0, 0, 0, 1,
                           1.5f, 4.0f, 0, 0, 0.6f, 0.7f, 0.9f, 1};
        GLuint buf;
        glGenBuffers(1, &buf);
        glBindBuffer(GL_UNIFORM_BUFFER, buf);
        glBufferData(GL_UNIFORM_BUFFER, sizeof block, block, GL_STATIC_DRAW);
        glBindBufferBase(GL_UNIFORM_BUFFER, 0, buf);
        glUniform1i(glGetUniformLocation(prog, "uAtlas"), 0);
        glUniform1i(glGetUniformLocation(prog, "uTex"), 0);
        glUniform3f(glGetUniformLocation(prog, "uChunkOrigin"), 0.0f, 0.0f, 0.0f);
        const float model[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        glUniformMatrix4fv(glGetUniformLocation(prog, "uModel"), 1, GL_FALSE, model);
        // aUV and aColor/aShade are constant attributes (locations 1 and 2,
        // as the source places them); the quad's corners feed aPos.
        glVertexAttrib4f(1, 0.3f, 0.6f, 0, 1);
        glVertexAttrib4f(2, 0.8f, 0.5f, 0.9f, 1);
    };
    for (const char* fs : {chunk_fs0, chunk_fs1}) {
        Case c;
        c.vs = {chunk_vs};
        c.fs = {fs};
        c.setup = setup;
        same_image(c);
    }
    Case e;
    e.vs = {entity_vs};
    e.fs = {entity_fs};
    e.setup = setup;
    same_image(e);
}
