// Uniform initialisers (GLSL 1.20+: `uniform vec4 c = vec4(1.0);`, arrays
// and structs too). glslang puts them on the uniform's OpVariable; ESSL has
// no such thing, so the emitted shader goes without them and the values are
// set after link, by the application's names (GL: the link sets them, then
// glGetUniform reads them and glUniform overrides them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mgl::gl {

// One value to set: a leaf of the uniform (an element of an array, a member
// of a struct) with the name glGetUniformLocation takes for it.
struct UniformInit {
    enum class Kind : uint8_t { f32, i32, u32, boolean, f64 };
    std::string name;     // "c", "a[1]", "s.m", "s[0].v[2]"
    Kind kind = Kind::f32;
    int columns = 1;      // > 1: a matrix of `columns` columns
    int rows = 1;         // components per column (a vector's size)
    std::vector<uint32_t> words;  // columns * rows values, column by column (f64: two words each)
};

// The initialisers of the loose uniforms (UniformConstant variables) of a
// module, in declaration order; empty when none.
std::vector<UniformInit> uniform_initialisers(const std::vector<uint32_t>& spirv);

// The module without them (what SPIRV-Cross must see to emit ESSL).
void strip_uniform_initialisers(std::vector<uint32_t>& spirv);

}  // namespace mgl::gl
