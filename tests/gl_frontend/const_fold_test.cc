// Constant expressions glslang 12 does not fold (backends/gl/shaders/const_fold.h):
// the evaluator's values against GLSL's definitions, what is left alone, and
// shaders that need the folding compiling through the front end (and, as
// their negative forms, still failing).
#include <doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "const_fold.h"
#include "translate.h"

using namespace mgl::gl;

TEST_CASE("constant folding: values as GLSL defines them") {
    CHECK(fold_expression("sinh(1.0)") == "1.17520118");
    CHECK(fold_expression("acosh(vec2(1.0, 2.0))") == "vec2(0.0, 1.31695795)");
    CHECK(fold_expression("determinant(mat3(2.0))") == "8.0");
    // column-major: mat2(1, 2, 3, 4) is [[1, 3], [2, 4]]
    CHECK(fold_expression("inverse(mat2(1.0, 2.0, 3.0, 4.0))") == "mat2(-2.0, 1.0, 1.5, -0.5)");
    CHECK(fold_expression("transpose(mat2x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0))") == "mat3x2(1.0, 4.0, 2.0, 5.0, 3.0, 6.0)");
    CHECK(fold_expression("matrixCompMult(mat2(1.0, 2.0, 3.0, 4.0), mat2(2.0))") == "mat2(2.0, 0.0, 0.0, 8.0)");
    CHECK(fold_expression("mat2(1.0, 2.0, 3.0, 4.0) * vec2(1.0, 1.0)") == "vec2(4.0, 6.0)");
    CHECK(fold_expression("vec2(1.0, 1.0) * mat2(1.0, 2.0, 3.0, 4.0)") == "vec2(3.0, 7.0)");
    CHECK(fold_expression("uvec2(38u, 35u) == uvec2(38u, 35u)") == "true");
    CHECK(fold_expression("(vec2(-0.1, -1.2) == vec2(-0.42, 0.48)) == false ? 1 : -1") == "1");
    CHECK(fold_expression("-7 / 2") == "-3");  // integer division truncates
    CHECK(fold_expression("1 << 31") == "(-2147483647 - 1)");
    CHECK(fold_expression("0x10 + 010") == "24");
    CHECK(fold_expression("clamp(vec2(-1.0, 2.0), 0.0, 1.0).yx") == "vec2(1.0, 0.0)");
    CHECK(fold_expression("vec3(1.0, 2.0, 3.0).length()") == "3");
    // Left to glslang: variables, calls GLSL does not have, shapes GLSL refuses.
    CHECK(fold_expression("x + 1").empty());
    CHECK(fold_expression("min(0.5, vec3(1.0))").empty());
    // int to float where the language converts (GLSL 1.20 and later), not elsewhere
    CHECK(fold_expression("pow(3.0, 2) + 1", 150) == "10.0");
    CHECK(fold_expression("1 + 1.0", 110).empty());
    CHECK(fold_expression("1 + 1.0", 300, true).empty());
    CHECK(fold_expression("sqrt(-1.0)").empty());  // NaN
    CHECK(fold_expression("1 / 0").empty());
}

TEST_CASE("constant folding: GLSL 4.00's integer functions, where the language has them") {
    CHECK(fold_expression("bitCount(ivec4(-1, -2, 783, 0))", 400) == "ivec4(32, 31, 6, 0)");
    CHECK(fold_expression("findMSB(ivec2(-1, -2))", 400) == "ivec2(-1, 0)");  // the highest bit unlike the sign
    CHECK(fold_expression("findLSB(uvec2(0u, 8u))", 400) == "ivec2(-1, 3)");
    CHECK(fold_expression("bitfieldExtract(-16, 2, 4)", 400) == "-4");  // 0b1100 sign-extended
    CHECK(fold_expression("bitfieldExtract(0xF0u, 4, 4)", 400) == "15u");
    CHECK(fold_expression("bitfieldInsert(0u, 5u, 4, 3)", 400) == "80u");
    CHECK(fold_expression("bitfieldReverse(1u)", 400) == "2147483648u");
    CHECK(fold_expression("ldexp(1.5, 3)", 400) == "12.0");
    CHECK(fold_expression("bitCount(7)", 310, true) == "3");
    // not built-ins of GLSL 1.30 (without an extension) or ESSL 3.00: left to glslang
    CHECK(fold_expression("bitCount(7)", 130).empty());
    CHECK(fold_expression("bitCount(7)", 300, true).empty());
    CHECK(fold_expression("bitfieldExtract(1u, 30, 4)", 400).empty());  // past bit 31: undefined
    std::vector<std::string> src = {"#version 130\n#extension GL_MESA_shader_integer_functions : enable\n"
                                    "#define A(c) { float a[(c) ? -1 : 1]; }\nvoid main() { A(2 != bitCount(uvec2(3u)).x); }\n"};
    fold_constant_expressions(src, 130, false);
    CHECK(src[0].find("A(2 != (ivec2(2, 2)).x)") != std::string::npos);
}

TEST_CASE("constant folding: array sizes and const initializers are folded, lines kept, other code untouched") {
    std::vector<std::string> src = {
        "#version 130\n#define N sinh(1.0)\nvoid main() {\n"
        "  float[int(sinh(\n1.0)) + 1] a;\n"
        "  const mat2 m = inverse(mat2(2.0)), k = mat2(1.0);\n"
        "  float b[int(N)];\n"
        "  if (a.length() == 2) gl_FragColor = vec4(m[0][0]);  // sinh(0.5) == x\n}\n"};
    const std::string before = src[0];
    fold_constant_expressions(src, 130, false);
    CHECK(src[0].find("float[2\n] a;") != std::string::npos);
    CHECK(src[0].find("const mat2 m = mat2(0.5, -0.0, -0.0, 0.5), k = mat2(1.0);") != std::string::npos);  // the cofactors keep their sign
    CHECK(src[0].find("float b[int(N)];") != std::string::npos);  // a macro: glslang's to expand
    CHECK(src[0].find("if (a.length() == 2)") != std::string::npos);
    CHECK(src[0].find("// sinh(0.5) == x") != std::string::npos);
    CHECK(std::count(src[0].begin(), src[0].end(), '\n') == std::count(before.begin(), before.end(), '\n'));
}

TEST_CASE("constant folding: shaders that need it compile through the front end; their negative forms fail") {
    auto compile = [](const std::string& src) {
        ShaderInput in;
        in.stage = Stage::fragment;
        in.sources = {src};
        return translate(in, {});
    };
    auto ok = compile("#version 150\nout vec4 c;\nvoid main() {\n"
                      "  float[distance(tanh(vec2(0.5, 1.0)), vec2(0.46211716, 0.7615942)) <= 0.0001 ? 1 : -1] a;\n"
                      "  const mat3 m = transpose(mat3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0));\n"
                      "  c = vec4(a.length()) + vec4(m[0], 1.0);\n}\n");
    CHECK_MESSAGE(ok->ok, ok->log);
    auto negative = compile("#version 150\nout vec4 c;\nvoid main() {\n"
                            "  float[determinant(mat2(1.0)) == 2.0 ? 1 : -1] a;\n  c = vec4(a.length());\n}\n");
    CHECK_FALSE(negative->ok);
}
