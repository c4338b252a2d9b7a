// Source-level adaptations that let a valid GLSL ES shader compile in the
// language Magma really compiles it as (desktop GLSL 1.40 for ESSL 1.00,
// ESSL 3.10 for ESSL 3.00, both with glslang's Vulkan rules), where some of
// its valid identifiers and constant expressions mean something else or are
// refused. See docs/ARCHITECTURE-magma.md (Shaders).
#pragma once

#include <string>

namespace mgl::magma {

// The prefix given to the application's identifiers that are keywords or
// built-in functions in the compiled language but plain names in the
// application's (a function `round` or a uniform `sample` in ESSL 1.00, a
// variable `buffer` in ESSL 3.00). Reflection strips it again.
inline constexpr const char* kRenamePrefix = "mgl_k_";

// `src` with each such identifier prefixed. `version` is the application's
// ESSL version (100 or 300), or 110/120 for desktop GLSL compiled as 1.40. Whole words only, comments and directives
// included, so macros and #ifdefs stay consistent.
std::string rename_foreign_words(const std::string& src, int version);

// The name reflection reports with the prefix removed ("s.mgl_k_sample" ->
// "s.sample").
std::string unrename(const std::string& name);

// ESSL 1.00 (unlike 3.00 and desktop GLSL) lets the sequence operator form a
// constant expression: `const float f = (1.0, 2.0);`, `uniform float u[(1, 2)];`.
// glslang (both its ES 1.00 front end and GLSL 1.40) refuses them. In the
// constant contexts (initializers and array sizes of global and const
// declarations) a parenthesised sequence becomes its last operand, which is
// its value: a constant expression has no side effects to keep. Operands with
// an assignment or ++/-- are left alone (not constant: the compiler refuses
// them as before).
std::string fold_constant_sequences(const std::string& src);

}  // namespace mgl::magma
