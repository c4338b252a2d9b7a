// What Espryt keeps per share group for desktop GL shaders: the sources as
// the application gave them (glGetShaderSource answers them, not our ESSL),
// the front end's translation and the compile log in the application's
// terms, and each program's glBindFragDataLocation bindings (GLES has no
// such verb: they are applied by re-emitting the fragment ESSL at link).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "driver_uniforms.h"
#include "resource_bindings.h"
#include "translation.h"

namespace mgl::espryt {

struct DesktopShader {
    std::vector<std::string> sources;
    bool has_source = false;
    bool compiled = false;  // the last glCompileShader succeeded
    std::string log;        // its info log
    std::shared_ptr<const gl::Translation> translation;
    gl::EsslOptions options;  // what it was emitted for (re-emitted alike at link)
    std::shared_ptr<const gl::ShaderInput> input;  // what the last glCompileShader compiled (linked with others)
};

// A shader object attached to a program that already holds one of its stage
// on the host (GLES takes one per stage; GL several, linked as one stage).
struct ExtraAttachment {
    uint32_t host = 0;       // its host shader
    gl::Stage stage = gl::Stage::vertex;
    bool deleted = false;    // glDeleteShader'd while attached: `kept` is all there is of it
    DesktopShader kept;      // its state when attached or deleted
};

// A linked program's driver uniforms (backends/gl/shaders/driver_uniforms.h):
// where the draw height and the clip planes go, what was sent last, and
// which active uniforms the program queries hide.
struct DriverUniforms {
    int32_t height_location = -1;
    int32_t height_sent = -1;  // none yet (a link resets the value)
    int32_t clip_location = -1;
    uint64_t clip_sent = 0;    // the DesktopState::clip_serial sent (0: none yet)
    int32_t point_location = -1;
    float point_sent = -1;     // none yet
    int32_t origin_location = -1;
    int origin_sent = 0;       // the uniform's initial value: GL_UPPER_LEFT
    int32_t alpha_location = -1;
    std::array<float, 2> alpha_sent{};  // the uniform's initial value: no test
    gl::HiddenUniform hidden;
};

// One image uniform element or storage block of a linked program: the host's
// unit (binding), fixed at link, and the one the application set
// (glUniform1i, glShaderStorageBlockBinding), routed around draws when they
// differ (unit_routing.cc).
struct RoutedUnit {
    int32_t host = 0;
    int32_t app = 0;
};
struct ProgramUnits {
    std::map<int32_t, RoutedUnit> images;  // by uniform location (each array element)
    std::vector<RoutedUnit> blocks;        // by storage block index
    bool routed() const {
        for (const auto& [location, u] : images)
            if (u.host != u.app) return true;
        for (const RoutedUnit& u : blocks)
            if (u.host != u.app) return true;
        return false;
    }
};

struct DesktopShaders {
    // By host shader name: a shader the application deleted while attached
    // lives on (GL keeps it until detached) and must still be re-emitted at
    // a later link; entries go when the host shader is really gone.
    std::unordered_map<uint32_t, DesktopShader> shaders;
    std::unordered_map<uint32_t, std::map<std::string, int>> frag_bindings;  // client program name ->
    std::unordered_map<uint32_t, DriverUniforms> driver_uniforms;  // host program name -> (driver_uniforms.cc)
    // host program name -> its images and storage blocks (unit_routing.cc;
    // programs without either absent)
    std::unordered_map<uint32_t, ProgramUnits> program_units;
    std::unordered_set<uint32_t> routed;  // those of them with a unit to route (ProgramUnits::routed)
    // host program name -> the bindings its last link gave the images and
    // storage blocks its sources left unbound (desktop_link.cc)
    std::unordered_map<uint32_t, gl::ResourceBindings> unbound;
    // host programs the application made separable (glProgramParameteri): no
    // stand-in stage at their links (desktop_shaders.cc, missing_stage_for)
    std::unordered_set<uint32_t> separable;
    // host textures an image unit can take (immutable, or remade so:
    // image_units.cc); forgotten at glDeleteTextures
    std::unordered_set<uint32_t> image_ready;
    std::unordered_map<uint32_t, std::vector<ExtraAttachment>> extras;      // host program name ->
    // The link log of a program whose last link the front end refused (a
    // stage of several objects that does not link): host program name ->.
    std::unordered_map<uint32_t, std::string> link_logs;
};

gl::Stage stage_of(uint32_t shader_type);  // GL_VERTEX_SHADER... -> the front end's stage

// Sets the uniform initialisers of `t` (uniform_init.h) on a host program
// just linked; what could not be set, "" when all were.
std::string set_uniform_initialisers(uint32_t host_program, const gl::Translation& t);

}  // namespace mgl::espryt
