// GLSL constant expressions that glslang 12 (Debian 12) does not fold,
// folded to literals before glslang sees the source. GLSL makes a built-in
// call with constant arguments a constant expression (GLSL 1.20 §4.3.3), so
// `float a[int(sinh(1.0))]` and `const mat2 m = inverse(M);` must compile;
// glslang leaves the hyperbolic functions, transpose, determinant, inverse
// and matrixCompMult unfolded (then "array size must be a constant integer
// expression") and folds == / != of some vectors wrongly. Only an array size
// or a const initializer that mentions one of those is folded, and only when
// every operand is a literal, a constructor or a built-in call this file
// evaluates: anything else is left to glslang as written.
#pragma once

#include <string>
#include <vector>

namespace mgl::gl {

// Rewrites `sources` in place (line count kept). `version`, `es`: the
// source's language (GLSL 1.20 and later convert int operands to float,
// ESSL and GLSL 1.10 do not).
void fold_constant_expressions(std::vector<std::string>& sources, int version, bool es);

// The evaluator alone: the GLSL literal text of `expr`'s value (e.g.
// "vec2(0.5, 1)", "3", "true"), or "" when it is not a constant this file
// evaluates. For the tests.
std::string fold_expression(const std::string& expr, int version = 130, bool es = false);

}  // namespace mgl::gl
