// The uniforms the shader front end adds that Espryt sets itself
// (backends/gl/shaders/driver_uniforms.h): the draw framebuffer's height for
// gl_FragCoord's origin_upper_left, sent before a draw of a program that
// reads it when it changed; and the program queries that must not show
// them to the application (counts, names, indices and locations).
#include <GLES3/gl32.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "backend.h"
#include "driver_uniforms.h"

namespace mgl::espryt {

namespace {

// A host texture's height at `level`: its target is not known here (GLES
// has no query from a name to its target), so it is found by binding the
// name to each target until one is accepted; the unit's bindings are
// restored. The caller has kept any older host error.
GLint texture_height(GLuint tex, GLint level, GLenum face) {
    static const struct {
        GLenum target, binding;
    } kTargets[] = {{GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D},
                    {GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY},
                    {GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D},
                    {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP},
                    {GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_BINDING_2D_MULTISAMPLE},
                    {GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY},
                    {GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY}};
    for (const auto& t : kTargets) {
        if (face && t.target != GL_TEXTURE_CUBE_MAP) continue;
        GLint old = 0;
        host_gl.glGetIntegerv(t.binding, &old);
        host_gl.glBindTexture(t.target, tex);
        if (host_gl.glGetError() != GL_NO_ERROR) continue;  // not this target (the binding stayed)
        GLint h = 0;
        host_gl.glGetTexLevelParameteriv(face ? face : t.target, level, GL_TEXTURE_HEIGHT, &h);
        host_gl.glBindTexture(t.target, GLuint(old));
        return h;
    }
    return 0;
}

// A name argument as the client sent it (GLchar is signed char on the wire).
bool is_driver_name(const wire::In<GLchar>& name) {
    if (!name.data) return false;
    const char* p = reinterpret_cast<const char*>(name.data);
    return gl::is_driver_uniform(std::string_view(p, strnlen(p, name.size)));
}

}  // namespace

// GL's framebuffer height: the default framebuffer's surface, or the
// smallest attachment of a framebuffer object (its default height without
// attachments), as gl_FragCoord's origin_upper_left mirrors in.
GLint EsprytBackend::draw_framebuffer_height() {
    GLint fbo = 0;
    host_gl.glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    if (fbo == 0) return draw_ ? draw_->height : 0;
    if (const GLenum older = host_gl.glGetError()) set_error(older);
    GLint colors = 0;
    host_gl.glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &colors);
    GLint height = INT_MAX;
    for (GLint i = 0; i < colors + 2; ++i) {
        const GLenum a = i < colors ? GLenum(GL_COLOR_ATTACHMENT0 + i) : i == colors ? GL_DEPTH_ATTACHMENT : GL_STENCIL_ATTACHMENT;
        GLint type = GL_NONE, name = 0;
        host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, a, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
        if (type == GL_NONE) continue;
        host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, a, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
        GLint h = 0;
        if (type == GL_RENDERBUFFER) {
            GLint old = 0;
            host_gl.glGetIntegerv(GL_RENDERBUFFER_BINDING, &old);
            host_gl.glBindRenderbuffer(GL_RENDERBUFFER, GLuint(name));
            host_gl.glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &h);
            host_gl.glBindRenderbuffer(GL_RENDERBUFFER, GLuint(old));
        } else if (type == GL_TEXTURE) {
            GLint level = 0, face = 0;
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, a, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, a,
                                                          GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &face);
            h = texture_height(GLuint(name), level, GLenum(face));
        }
        if (h > 0) height = std::min(height, h);
    }
    if (height == INT_MAX) {
        height = 0;
        host_gl.glGetFramebufferParameteriv(GL_DRAW_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_HEIGHT, &height);
    }
    host_gl.glGetError();  // what a probe above raised is ours, not the application's
    return height;
}

void EsprytBackend::set_driver_uniforms() {
    if (cur_->share->routed_programs || cur_->displaced) route_units(false);
    DesktopShaders* d = cur_->share->desktop.get();
    if (!d || !cur_->share->driver_uniform_programs) return;
    // The programs that draw: the current one, else the bound pipeline's
    // (the fragment stage's reads the height, the vertex, tessellation
    // evaluation and geometry stages' the clip planes).
    GLint program = 0;
    host_gl.glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    if (program) return set_driver_uniforms_of(*d, GLuint(program), true, true, true);
    GLint pipeline = 0;
    host_gl.glGetIntegerv(GL_PROGRAM_PIPELINE_BINDING, &pipeline);
    if (!pipeline) return;
    GLint fs = 0;
    host_gl.glGetProgramPipelineiv(GLuint(pipeline), GL_FRAGMENT_SHADER, &fs);
    if (fs) set_driver_uniforms_of(*d, GLuint(fs), false, true, false);
    GLint done[3] = {0, 0, 0};
    const GLenum clipping[3] = {GL_VERTEX_SHADER, GL_TESS_EVALUATION_SHADER, GL_GEOMETRY_SHADER};
    for (int i = 0; i < 3; ++i) {
        GLint p = 0;
        host_gl.glGetProgramPipelineiv(GLuint(pipeline), clipping[i], &p);
        // a program holding several stages is sent the planes once
        if (p && p != done[0] && p != done[1]) set_driver_uniforms_of(*d, GLuint(p), false, false, true);
        done[i] = p;
    }
}

void EsprytBackend::set_driver_uniforms_of(DesktopShaders& d, GLuint program, bool current, bool height, bool clip) {
    auto found = d.driver_uniforms.find(program);
    if (found == d.driver_uniforms.end()) return;
    DriverUniforms& u = found->second;
    if (height && u.height_location >= 0) {
        const GLint h = draw_framebuffer_height();
        if (h != u.height_sent) {
            if (current) host_gl.glUniform1f(u.height_location, float(h));
            else host_gl.glProgramUniform1f(program, u.height_location, float(h));
            u.height_sent = h;
        }
    }
    // Serials are unique among contexts: a program shared by two sees each one's planes.
    const gl::DesktopState& st = cur_->dstate;
    if (height && u.origin_location >= 0 && u.origin_sent != int(st.point_lower_left)) {
        if (current) host_gl.glUniform1f(u.origin_location, st.point_lower_left ? 1.0F : 0.0F);
        else host_gl.glProgramUniform1f(program, u.origin_location, st.point_lower_left ? 1.0F : 0.0F);
        u.origin_sent = int(st.point_lower_left);
    }
    if (height && u.alpha_location >= 0) {
        const std::array<float, 2> alpha = st.alpha_test_uniform();
        if (alpha != u.alpha_sent) {
            if (current) host_gl.glUniform2f(u.alpha_location, alpha[0], alpha[1]);
            else host_gl.glProgramUniform2f(program, u.alpha_location, alpha[0], alpha[1]);
            u.alpha_sent = alpha;
        }
    }
    // glPointSize for a vertex stage that writes no gl_PointSize (the clip
    // planes' stages include the vertex one).
    if (clip && u.point_location >= 0 && u.point_sent != st.point_size) {
        if (current) host_gl.glUniform1f(u.point_location, st.point_size);
        else host_gl.glProgramUniform1f(program, u.point_location, st.point_size);
        u.point_sent = st.point_size;
    }
    if (clip && u.clip_location >= 0 && u.clip_sent != st.clip_serial) {
        const auto planes = st.clip_uniform();
        if (current) host_gl.glUniform4fv(u.clip_location, gl::kMaxClipPlanes, planes.data());
        else host_gl.glProgramUniform4fv(program, u.clip_location, gl::kMaxClipPlanes, planes.data());
        u.clip_sent = st.clip_serial;
    }
}

// After every link: whether the program reads a driver uniform, and where.
void EsprytBackend::record_driver_uniforms(GLuint host_program) {
    DesktopShaders& d = *cur_->share->desktop;
    forget_entry(d, host_program);
    GLint linked = GL_FALSE;
    host_gl.glGetProgramiv(host_program, GL_LINK_STATUS, &linked);
    if (linked) {
        DriverUniforms u;
        u.height_location = host_gl.glGetUniformLocation(host_program, gl::kDrawHeightUniform);
        u.clip_location = host_gl.glGetUniformLocation(host_program, gl::kClipPlaneUniform);
        u.point_location = host_gl.glGetUniformLocation(host_program, gl::kPointSizeUniform);
        u.origin_location = host_gl.glGetUniformLocation(host_program, gl::kPointOriginUniform);
        u.alpha_location = host_gl.glGetUniformLocation(host_program, gl::kAlphaTestUniform);
        for (const char* name : {gl::kDrawHeightUniform, gl::kClipPlaneUniform, gl::kPointSizeUniform,
                                 gl::kPointOriginUniform, gl::kAlphaTestUniform}) {
            GLuint index = GL_INVALID_INDEX;
            host_gl.glGetUniformIndices(host_program, 1, &name, &index);
            u.hidden.add(index);
        }
        if (u.height_location >= 0 || u.clip_location >= 0 || u.point_location >= 0 || u.origin_location >= 0 ||
            u.alpha_location >= 0) {
            d.driver_uniforms[host_program] = u;
            if (u.height_location >= 0 || u.clip_location >= 0) ++cur_->share->draw_time_programs;
        }
    }
    cur_->share->driver_uniform_programs = d.driver_uniforms.size();
}

void EsprytBackend::forget_entry(DesktopShaders& d, GLuint host_program) {
    auto found = d.driver_uniforms.find(host_program);
    if (found == d.driver_uniforms.end()) return;
    if (found->second.height_location >= 0 || found->second.clip_location >= 0) --cur_->share->draw_time_programs;
    d.driver_uniforms.erase(found);
}

void EsprytBackend::forget_driver_uniforms(GLuint host_program) {
    if (!cur_ || !cur_->share->desktop) return;
    DesktopShaders& d = *cur_->share->desktop;
    // A program deleted while current stays a program until unbound.
    if (host_gl.glIsProgram(host_program)) return;
    forget_entry(d, host_program);
    cur_->share->driver_uniform_programs = d.driver_uniforms.size();
}

const DriverUniforms* EsprytBackend::driver_uniforms_of(GLuint program, GLuint* host) {
    if (!cur_ || !cur_->share->driver_uniform_programs) return nullptr;
    GLuint h;
    if (!to_host(Kind::program, program, h)) return nullptr;
    if (host) *host = h;
    auto found = cur_->share->desktop->driver_uniforms.find(h);
    return found == cur_->share->desktop->driver_uniforms.end() ? nullptr : &found->second;
}

// The longest active uniform name the application sees (+1), or 0.
GLint EsprytBackend::visible_uniform_max_length(GLuint host_program, GLenum query) {
    GLint n = 0, max_len = 0;
    if (query == GL_ACTIVE_UNIFORM_MAX_LENGTH) {
        host_gl.glGetProgramiv(host_program, GL_ACTIVE_UNIFORMS, &n);
        host_gl.glGetProgramiv(host_program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &max_len);
    } else {
        host_gl.glGetProgramInterfaceiv(host_program, GL_UNIFORM, GL_ACTIVE_RESOURCES, &n);
        host_gl.glGetProgramInterfaceiv(host_program, GL_UNIFORM, GL_MAX_NAME_LENGTH, &max_len);
    }
    std::vector<char> name(size_t(std::max(max_len, 1)) + 1);
    GLint longest = 0;
    for (GLint i = 0; i < n; ++i) {
        GLsizei len = 0;
        if (query == GL_ACTIVE_UNIFORM_MAX_LENGTH) {
            GLint size = 0;
            GLenum type = 0;
            host_gl.glGetActiveUniform(host_program, GLuint(i), GLsizei(name.size()), &len, &size, &type, name.data());
        } else {
            host_gl.glGetProgramResourceName(host_program, GL_UNIFORM, GLuint(i), GLsizei(name.size()), &len, name.data());
        }
        if (!gl::is_driver_uniform(std::string_view(name.data(), size_t(std::max(len, 0)))))
            longest = std::max(longest, len + 1);
    }
    return longest;
}

// ---- the program queries, without the driver uniforms ----------------------

// glGetProgramiv's answer (desktop_link.cc), without the driver uniforms.
void EsprytBackend::hide_driver_uniforms(GLuint program, GLenum pname, wire::Out<GLint>& params) {
    GLuint host;
    const DriverUniforms* u = driver_uniforms_of(program, &host);
    if (!u || !params.data || params.size < sizeof(GLint)) return;
    if (pname == GL_ACTIVE_UNIFORMS) params.data[0] = u->hidden.count(params.data[0]);
    if (pname == GL_ACTIVE_UNIFORM_MAX_LENGTH) params.data[0] = visible_uniform_max_length(host, pname);
}

void EsprytBackend::glGetProgramInterfaceiv(GLuint program, GLenum programInterface, GLenum pname,
                                            wire::Out<GLint> params) {
    EsprytGenerated::glGetProgramInterfaceiv(program, programInterface, pname, params);
    GLuint host;
    const DriverUniforms* u = driver_uniforms_of(program, &host);
    if (!u || programInterface != GL_UNIFORM || !params.data || params.size < sizeof(GLint)) return;
    if (pname == GL_ACTIVE_RESOURCES) params.data[0] = u->hidden.count(params.data[0]);
    if (pname == GL_MAX_NAME_LENGTH) params.data[0] = visible_uniform_max_length(host, GL_MAX_NAME_LENGTH);
}

void EsprytBackend::glGetActiveUniform(GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                                       wire::Out<GLint> size, wire::Out<GLenum> type, wire::Out<GLchar> name) {
    const DriverUniforms* u = driver_uniforms_of(program);
    EsprytGenerated::glGetActiveUniform(program, u ? u->hidden.to_backend(index) : index, bufSize, length, size, type,
                                        name);
}

void EsprytBackend::glGetActiveUniformsiv(GLuint program, GLsizei uniformCount, wire::In<GLuint> uniformIndices,
                                          GLenum pname, wire::Out<GLint> params) {
    const DriverUniforms* u = driver_uniforms_of(program);
    if (!u || !uniformIndices.data) return EsprytGenerated::glGetActiveUniformsiv(program, uniformCount, uniformIndices, pname, params);
    std::vector<GLuint> mapped(uniformIndices.data, uniformIndices.data + uniformIndices.count());
    for (GLuint& i : mapped) i = u->hidden.to_backend(i);
    EsprytGenerated::glGetActiveUniformsiv(program, uniformCount, {mapped.data(), uniformIndices.size}, pname, params);
}

void EsprytBackend::glGetUniformIndices(GLuint program, GLsizei uniformCount, wire::Strings uniformNames,
                                        wire::Out<GLuint> uniformIndices) {
    EsprytGenerated::glGetUniformIndices(program, uniformCount, uniformNames, uniformIndices);
    const DriverUniforms* u = driver_uniforms_of(program);
    if (!u || !uniformIndices.data) return;
    for (uint32_t i = 0; i < uniformIndices.count(); ++i) uniformIndices.data[i] = u->hidden.to_app(uniformIndices.data[i]);
}

GLint EsprytBackend::glGetUniformLocation(GLuint program, wire::In<GLchar> name) {
    const GLint loc = EsprytGenerated::glGetUniformLocation(program, name);
    if (loc >= 0 && is_driver_name(name))
        return -1;
    return loc;
}

void EsprytBackend::glGetActiveUniformBlockiv(GLuint program, GLuint uniformBlockIndex, GLenum pname,
                                              wire::Out<GLint> params) {
    EsprytGenerated::glGetActiveUniformBlockiv(program, uniformBlockIndex, pname, params);
    const DriverUniforms* u = driver_uniforms_of(program);
    if (!u || pname != GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES || !params.data) return;
    // The members are never the hidden uniform (a loose one): only renumbered.
    for (uint32_t i = 0; i < params.count(); ++i) params.data[i] = GLint(u->hidden.to_app(GLuint(params.data[i])));
}

GLuint EsprytBackend::glGetProgramResourceIndex(GLuint program, GLenum programInterface, wire::In<GLchar> name) {
    const GLuint index = EsprytGenerated::glGetProgramResourceIndex(program, programInterface, name);
    const DriverUniforms* u = driver_uniforms_of(program);
    return u && programInterface == GL_UNIFORM ? u->hidden.to_app(index) : index;
}

GLint EsprytBackend::glGetProgramResourceLocation(GLuint program, GLenum programInterface, wire::In<GLchar> name) {
    const GLint loc = EsprytGenerated::glGetProgramResourceLocation(program, programInterface, name);
    if (loc >= 0 && programInterface == GL_UNIFORM && is_driver_name(name))
        return -1;
    return loc;
}

void EsprytBackend::glGetProgramResourceName(GLuint program, GLenum programInterface, GLuint index, GLsizei bufSize,
                                             wire::Out<GLsizei> length, wire::Out<GLchar> name) {
    const DriverUniforms* u = driver_uniforms_of(program);
    if (u && programInterface == GL_UNIFORM) index = u->hidden.to_backend(index);
    EsprytGenerated::glGetProgramResourceName(program, programInterface, index, bufSize, length, name);
}

void EsprytBackend::glGetProgramResourceiv(GLuint program, GLenum programInterface, GLuint index, GLsizei propCount,
                                           wire::In<GLenum> props, GLsizei count, wire::Out<GLsizei> length,
                                           wire::Out<GLint> params) {
    GLuint host = 0;
    const DriverUniforms* u = driver_uniforms_of(program, &host);
    if (u && programInterface == GL_UNIFORM) index = u->hidden.to_backend(index);
    EsprytGenerated::glGetProgramResourceiv(program, programInterface, index, propCount, props, count, length, params);
    if (programInterface == GL_SHADER_STORAGE_BLOCK) answer_storage_bindings(program, index, propCount, props, count, params);
    if (!u || programInterface != GL_UNIFORM_BLOCK || !props.data || !params.data) return;
    // A block's GL_ACTIVE_VARIABLES are uniform indices: renumbered. Each
    // other property wrote one value.
    const uint32_t room = std::min(params.count(), uint32_t(std::max(count, 0)));
    uint32_t at = 0;
    for (uint32_t p = 0; p < props.count() && p < uint32_t(std::max(propCount, 0)) && at < room; ++p) {
        if (props.data[p] != GL_ACTIVE_VARIABLES) {
            ++at;
            continue;
        }
        const GLenum num = GL_NUM_ACTIVE_VARIABLES;
        GLint n = 0;
        host_gl.glGetProgramResourceiv(host, GL_UNIFORM_BLOCK, index, 1, &num, 1, nullptr, &n);
        for (GLint k = 0; k < n && at < room; ++k, ++at) params.data[at] = GLint(u->hidden.to_app(GLuint(params.data[at])));
    }
}

}  // namespace mgl::espryt
