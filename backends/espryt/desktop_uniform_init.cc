// Uniform initialisers (backends/gl/shaders/uniform_init.h) on the host: the
// ESSL goes without them, so each value is set on the host program right
// after a successful link, as a desktop GL link does.
#include <GLES3/gl32.h>

#include "desktop_shaders.h"
#include "gen/espryt_host.h"
#include "uniform_init.h"

namespace mgl::espryt {

namespace {

// One leaf; "" when set (or inactive, as GL has no location for it then).
std::string set_one(GLuint program, const gl::UniformInit& u) {
    const GLint loc = host_gl.glGetUniformLocation(program, u.name.c_str());
    if (loc < 0) return {};
    const void* v = u.words.data();
    using K = gl::UniformInit::Kind;
    if (u.kind == K::f64) return u.name + ": a double (GLES has none)";
    if (u.columns > 1) {
        if (u.kind != K::f32) return u.name + ": a matrix of " + std::to_string(int(u.kind));
        const int key = u.columns * 10 + u.rows;
        switch (key) {
            case 22: host_gl.glProgramUniformMatrix2fv(program, loc, 1, GL_FALSE, v); break;
            case 33: host_gl.glProgramUniformMatrix3fv(program, loc, 1, GL_FALSE, v); break;
            case 44: host_gl.glProgramUniformMatrix4fv(program, loc, 1, GL_FALSE, v); break;
            case 23: host_gl.glProgramUniformMatrix2x3fv(program, loc, 1, GL_FALSE, v); break;
            case 32: host_gl.glProgramUniformMatrix3x2fv(program, loc, 1, GL_FALSE, v); break;
            case 24: host_gl.glProgramUniformMatrix2x4fv(program, loc, 1, GL_FALSE, v); break;
            case 42: host_gl.glProgramUniformMatrix4x2fv(program, loc, 1, GL_FALSE, v); break;
            case 34: host_gl.glProgramUniformMatrix3x4fv(program, loc, 1, GL_FALSE, v); break;
            case 43: host_gl.glProgramUniformMatrix4x3fv(program, loc, 1, GL_FALSE, v); break;
            default: return u.name + ": a matrix of that shape";
        }
        return {};
    }
    // Booleans are set as integers (GL takes i or f for them).
    const bool f = u.kind == K::f32, ui = u.kind == K::u32;
    switch (u.rows) {
        case 1: f ? host_gl.glProgramUniform1fv(program, loc, 1, v) : ui ? host_gl.glProgramUniform1uiv(program, loc, 1, v) : host_gl.glProgramUniform1iv(program, loc, 1, v); break;
        case 2: f ? host_gl.glProgramUniform2fv(program, loc, 1, v) : ui ? host_gl.glProgramUniform2uiv(program, loc, 1, v) : host_gl.glProgramUniform2iv(program, loc, 1, v); break;
        case 3: f ? host_gl.glProgramUniform3fv(program, loc, 1, v) : ui ? host_gl.glProgramUniform3uiv(program, loc, 1, v) : host_gl.glProgramUniform3iv(program, loc, 1, v); break;
        case 4: f ? host_gl.glProgramUniform4fv(program, loc, 1, v) : ui ? host_gl.glProgramUniform4uiv(program, loc, 1, v) : host_gl.glProgramUniform4iv(program, loc, 1, v); break;
        default: return u.name + ": a vector of that size";
    }
    return {};
}

}  // namespace

std::string set_uniform_initialisers(GLuint host_program, const gl::Translation& t) {
    std::string not_set;
    for (const gl::UniformInit& u : gl::uniform_initialisers(t.spirv)) {
        const std::string why = set_one(host_program, u);
        if (!why.empty()) not_set += (not_set.empty() ? "" : "; ") + why;
    }
    return not_set;
}

}  // namespace mgl::espryt
