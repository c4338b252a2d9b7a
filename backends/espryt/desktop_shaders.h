// What Espryt keeps per share group for desktop GL shaders: the sources as
// the application gave them (glGetShaderSource answers them, not our ESSL),
// the front end's translation and the compile log in the application's
// terms, and each program's glBindFragDataLocation bindings (GLES has no
// such verb: they are applied by re-emitting the fragment ESSL at link).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "driver_uniforms.h"
#include "translation.h"

namespace mgl::espryt {

struct DesktopShader {
    std::vector<std::string> sources;
    bool has_source = false;
    bool compiled = false;  // the last glCompileShader succeeded
    std::string log;        // its info log
    std::shared_ptr<const gl::Translation> translation;
    gl::EsslOptions options;  // what it was emitted for (re-emitted alike at link)
};

// A linked program's driver uniforms (backends/gl/shaders/driver_uniforms.h):
// where the draw height goes, what was sent last, and which active uniform
// the program queries hide.
struct DriverUniforms {
    int32_t height_location = -1;
    int32_t height_sent = -1;  // none yet (a link resets the value)
    gl::HiddenUniform hidden;
};

struct DesktopShaders {
    // By host shader name: a shader the application deleted while attached
    // lives on (GL keeps it until detached) and must still be re-emitted at
    // a later link; entries go when the host shader is really gone.
    std::unordered_map<uint32_t, DesktopShader> shaders;
    std::unordered_map<uint32_t, std::map<std::string, int>> frag_bindings;  // client program name ->
    std::unordered_map<uint32_t, DriverUniforms> driver_uniforms;  // host program name -> (driver_uniforms.cc)
};

}  // namespace mgl::espryt
