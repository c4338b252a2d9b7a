// Uniform block queries on Magma (uniform_blocks.cc), checked against GL's
// std140 layout rules (GL 4.6 §7.6.2.2) and the query semantics of §7.3.1,
// not against Magma's own reflection: offsets, strides, sizes, member
// indices, the binding point a layout(binding) gives, and the errors.
#include <GLES3/gl32.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness.h"

namespace magma_test {
namespace {

// std140: a at 0 (vec4), b[2] at 16 (stride 16), c at 48 (row-major mat3x2:
// 2 rows of vec4 alignment, stride 16), d at 80 (float); the block's size 84
// rounds up to 96.
const char* kVertex =
    "#version 330\n#extension GL_ARB_shading_language_420pack : require\n"
    "layout(std140, binding = 3) uniform Params { vec4 a; float b[2]; layout(row_major) mat3x2 c; float d; } p;\n"
    "uniform vec4 loose;\n"
    "in vec4 pos;\n"
    "void main() { gl_Position = pos + p.a + vec4(p.b[1] + p.c[0][0] + p.d) + loose; }\n";
const char* kFragment = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";

void build(Wire& w, GLuint program) {
    w.enc.mglCreateContext(1, 0, 3, 3, 0, 0x30A2 /* EGL_OPENGL_API */, 1 /* core */);
    w.enc.mglCreateSurface(1, 0x3033, 8, 8, 8, 8, 8, 8, 24, 8, 0);
    w.enc.mglMakeCurrent(1, 1, 1);
    const GLenum stages[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    const char* sources[2] = {kVertex, kFragment};
    for (GLuint i = 0; i < 2; ++i) {
        w.enc.glCreateShader(stages[i], 10 + i);
        const std::string b = strings_blob({sources[i]});
        w.enc.glShaderSource(10 + i, 1, wire::Blob{b.data(), uint32_t(b.size())});
        w.enc.glCompileShader(10 + i);
    }
    w.enc.glCreateProgram(program);
    w.enc.glAttachShader(program, 10);
    w.enc.glAttachShader(program, 11);
    w.enc.glLinkProgram(program);
    GLint linked = 0;
    w.enc.glGetProgramiv(program, GL_LINK_STATUS, 4);
    gen::read_reply_glGetProgramiv(w.enc.wait_reply(), &linked, 4);
    if (!linked) MESSAGE(w.log_text.str());
    REQUIRE(linked);
}

GLint block_value(Wire& w, GLuint program, GLuint block, GLenum pname) {
    GLint v = -7;
    w.enc.glGetActiveUniformBlockiv(program, block, pname, 4);
    gen::read_reply_glGetActiveUniformBlockiv(w.enc.wait_reply(), &v, 4);
    return v;
}

}  // namespace

TEST_CASE("uniform blocks: the queries answer GL's std140 layout") {
    Wire w;
    REQUIRE(w.backend);
    const GLuint prog = 20;
    build(w, prog);

    const std::string name = "Params";
    w.enc.glGetUniformBlockIndex(prog, wire::Blob{name.c_str(), uint32_t(name.size() + 1)});
    GLuint block = 99;
    gen::read_reply_glGetUniformBlockIndex(w.enc.wait_reply(), &block);
    REQUIRE(block == 0);
    CHECK(block_value(w, prog, block, GL_UNIFORM_BLOCK_BINDING) == 3);  // layout(binding = 3)
    CHECK(block_value(w, prog, block, GL_UNIFORM_BLOCK_DATA_SIZE) == 96);
    CHECK(block_value(w, prog, block, GL_UNIFORM_BLOCK_NAME_LENGTH) == 7);
    CHECK(block_value(w, prog, block, GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER) == 1);
    CHECK(block_value(w, prog, block, GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER) == 0);
    const GLint members = block_value(w, prog, block, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS);
    CHECK(members == 4);

    // The members' indices, by name (GL names a block member by its block's name).
    const std::string names = strings_blob({"Params.a", "Params.b", "Params.c", "Params.d", "loose", "nothing"});
    w.enc.glGetUniformIndices(prog, 6, wire::Blob{names.data(), uint32_t(names.size())}, 24);
    GLuint idx[6] = {};
    gen::read_reply_glGetUniformIndices(w.enc.wait_reply(), idx, 24);
    CHECK(idx[5] == GL_INVALID_INDEX);
    for (int i = 0; i < 5; ++i) CHECK(idx[i] != GL_INVALID_INDEX);
    GLint total = 0;
    w.enc.glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, 4);
    gen::read_reply_glGetProgramiv(w.enc.wait_reply(), &total, 4);
    CHECK(total == 5);

    std::vector<GLint> listed(size_t(std::max(members, 0)));
    w.enc.glGetActiveUniformBlockiv(prog, block, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, uint32_t(listed.size() * 4));
    gen::read_reply_glGetActiveUniformBlockiv(w.enc.wait_reply(), listed.data(), uint32_t(listed.size() * 4));
    std::sort(listed.begin(), listed.end());
    std::vector<GLint> expected(idx, idx + 4);
    std::sort(expected.begin(), expected.end());
    CHECK(listed == expected);

    auto values = [&](GLenum pname) {
        std::vector<GLint> v(5, -7);
        w.enc.glGetActiveUniformsiv(prog, 5, wire::Blob{idx, 20}, pname, 20);
        gen::read_reply_glGetActiveUniformsiv(w.enc.wait_reply(), v.data(), 20);
        return v;
    };
    CHECK(values(GL_UNIFORM_OFFSET) == std::vector<GLint>{0, 16, 48, 80, -1});
    CHECK(values(GL_UNIFORM_ARRAY_STRIDE) == std::vector<GLint>{0, 16, 0, 0, -1});
    CHECK(values(GL_UNIFORM_MATRIX_STRIDE) == std::vector<GLint>{0, 0, 16, 0, -1});
    CHECK(values(GL_UNIFORM_IS_ROW_MAJOR) == std::vector<GLint>{0, 0, 1, 0, 0});
    CHECK(values(GL_UNIFORM_SIZE) == std::vector<GLint>{1, 2, 1, 1, 1});
    CHECK(values(GL_UNIFORM_BLOCK_INDEX) == std::vector<GLint>{0, 0, 0, 0, -1});
    CHECK(values(GL_UNIFORM_TYPE) == std::vector<GLint>{GL_FLOAT_VEC4, GL_FLOAT, GL_FLOAT_MAT3x2, GL_FLOAT, GL_FLOAT_VEC4});
    CHECK(w.error() == GL_NO_ERROR);

    // GL's errors: an index past the active uniforms, a pname of the other query, a block past the blocks.
    const GLuint bad = GLuint(total);
    GLint junk = 0;
    w.enc.glGetActiveUniformsiv(prog, 1, wire::Blob{&bad, 4}, GL_UNIFORM_TYPE, 4);
    gen::read_reply_glGetActiveUniformsiv(w.enc.wait_reply(), &junk, 4);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glGetActiveUniformsiv(prog, 1, wire::Blob{idx, 4}, GL_UNIFORM_BLOCK_BINDING, 4);
    gen::read_reply_glGetActiveUniformsiv(w.enc.wait_reply(), &junk, 4);
    CHECK(w.error() == GL_INVALID_ENUM);
    block_value(w, prog, 1, GL_UNIFORM_BLOCK_DATA_SIZE);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glUniformBlockBinding(prog, 0, 1000);
    CHECK(w.error() == GL_INVALID_VALUE);
    w.enc.glUniformBlockBinding(prog, 0, 5);
    CHECK(block_value(w, prog, block, GL_UNIFORM_BLOCK_BINDING) == 5);
}

}  // namespace magma_test
