// What the shader front end is given: one shader as the application wrote
// it, the context it was written for, and what the emitted ESSL must fit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mgl::gl {

enum class Stage : uint8_t { vertex, fragment, geometry, tess_control, tess_evaluation, compute };

// The context's API: the source language a shader without #version defaults
// to (desktop GLSL 1.10 or ESSL 1.00) and which #versions it may ask for.
enum class Api : uint8_t { gl, gles };

struct ShaderInput {
    Stage stage = Stage::vertex;
    std::vector<std::string> sources;  // glShaderSource's strings, unjoined (log line numbers count per string)
    Api api = Api::gl;
    int major = 3, minor = 3;  // the context's version
};

// What the ESSL has to fit: the host's language version (320, 310 or 300)
// and the host limits a lifted source's declarations depend on.
struct EsslOptions {
    int version = 320;
    int max_draw_buffers = 8;  // size of gl_FragData lifted from GLSL 1.10-1.50
    // The host clips by 8 gl_ClipDistance outputs: vertex stages clip against
    // the user clip planes (compat_builtins.h, lower_compat_builtins).
    bool clip_distance = false;
    // A compatibility context: an application's fragment stage alpha-tests
    // its colour 0 against the driver uniform kAlphaTestUniform (GL's alpha
    // test applies to programs too; a GLES host has none).
    bool alpha_test = false;
};

}  // namespace mgl::gl
