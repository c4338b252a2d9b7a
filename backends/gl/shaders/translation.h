// One shader as the front end leaves it: SPIR-V with the application's
// names (and only the locations and bindings the application wrote), the
// ESSL emitted from it, what it declares, and the info log in the
// application's terms.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shader_input.h"

namespace mgl::gl {

// One declared interface variable or resource, as glslang reflects it.
struct Declared {
    std::string name;      // the application's name
    uint32_t gl_type = 0;  // GL_FLOAT_VEC4, GL_SAMPLER_2D, ... (0 for blocks)
    int location = -1;     // written by the application, else -1
    int binding = -1;      // written by the application, else -1
    int array_size = 1;
};

struct Reflection {
    std::vector<Declared> inputs;   // vertex shader: the attributes
    std::vector<Declared> outputs;  // fragment shader: the colour outputs
    std::vector<Declared> uniforms; // loose uniforms (samplers included)
    std::vector<Declared> blocks;   // uniform blocks, by block name
};

struct Translation {
    bool ok = false;
    // The source compiles, but its stage is whole only with the program's
    // other shader objects (a geometry shader whose layout another object
    // declares, an object without main): GL reports the compile as a success
    // and the link decides. `link_log` says why a link of this object alone fails.
    bool deferred = false;
    std::string link_log;
    std::string log;              // compile log, the application's line numbers
    int source_version = 110;     // the #version the application wrote (110 when none)
    bool source_es = false;
    Stage stage = Stage::vertex;
    std::vector<uint32_t> spirv;  // names kept; unwritten locations/bindings removed
    std::string essl;             // emitted for the host (fragment outputs as declared)
    std::vector<uint32_t> essl_lines;  // per ESSL line (from 1), the source line it came from (0: none)
    Reflection reflection;
    // The colour built-ins' interpolation qualifiers, for the link rule
    // (compat_builtins.h, colour_interpolation).
    std::string colour_interpolation;
};

}  // namespace mgl::gl
