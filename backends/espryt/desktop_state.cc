// Desktop GL state on a GLES host: the GL front end's DesktopState
// (backends/gl/state) decides what each desktop-only cap, hint and query is;
// this file makes the host do it.
#include <GLES3/gl32.h>

#include <algorithm>

#include <spdlog/spdlog.h>

#include "backend.h"
#include "context/desktop_context.h"

namespace mgl::espryt {

// Desktop restart is state here; indexed draws turn the host's fixed-index
// restart on as their index type needs (restart_draw.cc).

void EsprytBackend::glEnable(GLenum cap) {
    if (cur_ && cap == GL_PRIMITIVE_RESTART_FIXED_INDEX) cur_->app_fixed_restart = cur_->host_fixed_restart = true;
    if (cur_ && cur_->desktop()) {
        cur_->dstate.note_clip_enable(cap, true);
        switch (gl::cap_route(cap)) {
            case gl::CapRoute::state_only: cur_->dstate.set_cap(cap, true); return;
            case gl::CapRoute::restart: cur_->dstate.set_cap(cap, true); return;
            default: break;
        }
    }
    EsprytGenerated::glEnable(cap);
}

void EsprytBackend::glDisable(GLenum cap) {
    if (cur_ && cap == GL_PRIMITIVE_RESTART_FIXED_INDEX) {
        cur_->app_fixed_restart = false;
        if (cur_->dstate.primitive_restart) return;  // desktop restart keeps it on for its draws
        cur_->host_fixed_restart = false;
    }
    if (cur_ && cur_->desktop()) {
        cur_->dstate.note_clip_enable(cap, false);
        switch (gl::cap_route(cap)) {
            case gl::CapRoute::state_only: cur_->dstate.set_cap(cap, false); return;
            case gl::CapRoute::restart:
                cur_->dstate.set_cap(cap, false);
                host_fixed_restart(false);
                return;
            default: break;
        }
    }
    EsprytGenerated::glDisable(cap);
}

GLboolean EsprytBackend::glIsEnabled(GLenum cap) {
    if (cur_ && cur_->desktop()) {
        const gl::CapRoute r = gl::cap_route(cap);
        if (r == gl::CapRoute::state_only || r == gl::CapRoute::restart) return cur_->dstate.cap(cap);
    }
    return EsprytGenerated::glIsEnabled(cap);
}

void EsprytBackend::glHint(GLenum target, GLenum mode) {
    if (cur_ && cur_->desktop() && (mode == GL_FASTEST || mode == GL_NICEST || mode == GL_DONT_CARE) &&
        cur_->dstate.hint(target, mode))
        return;
    EsprytGenerated::glHint(target, mode);
}

void EsprytBackend::glPrimitiveRestartIndex(GLuint index) {
    if (!cur_ || !cur_->desktop()) return unavailable(gen::Op::glPrimitiveRestartIndex);
    cur_->dstate.restart_index = index;
}

// GLES draws with the last vertex's flat values: the first-vertex convention
// is kept here, and the draws made under it are rewritten (provoking_draw.cc).
void EsprytBackend::glProvokingVertex(GLenum mode) {
    if (!cur_ || !cur_->desktop()) return unavailable(gen::Op::glProvokingVertex);
    constexpr GLenum kFirst = 0x8E4D, kLast = 0x8E4E;
    if (mode != kFirst && mode != kLast) return set_error(GL_INVALID_ENUM);
    cur_->dstate.provoking_vertex = mode;
}

// glClipPlane arrives in eye space (the client's compatibility layer owns
// the modelview): kept in the GL front end, sent to the vertex stages that
// clip against it before a draw (driver_uniforms.cc).
void EsprytBackend::glClipPlane(GLenum plane, wire::In<GLdouble> equation) {
    if (!cur_ || !cur_->desktop()) return unavailable(gen::Op::glClipPlane);
    if (!equation.data || equation.count() < 4) return set_error(GL_INVALID_VALUE);
    if (!cur_->dstate.set_clip_plane(plane, equation.data)) return set_error(GL_INVALID_ENUM);
}

// Desktop-only state and constants, answered before the host is asked.
bool EsprytBackend::desktop_get(GLenum pname, double out[4], int* count) {
    if (!cur_ || !cur_->desktop()) return false;
    // The smooth ranges are the host's aliased ones: asked only for those two pnames.
    constexpr GLenum kSmoothLineWidthRange = 0x0B22, kPointSizeRange = 0x0B12;
    // EXT_texture_integer's GL_RGBA_INTEGER_MODE_EXT: whether a draw buffer
    // of the draw framebuffer holds integers (the host's component type), as Mesa answers.
    if (pname == 0x8D9E) {
        GLint fb = 0, n = 0;
        bool integer = false;
        host_gl.glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fb);
        if (fb) host_gl.glGetIntegerv(GL_MAX_DRAW_BUFFERS, &n);
        for (GLint i = 0; i < n && i < 16 && !integer; ++i) {
            GLint buf = GL_NONE, type = GL_NONE;
            host_gl.glGetIntegerv(GL_DRAW_BUFFER0 + i, &buf);
            if (buf == GL_NONE) continue;
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GLenum(buf),
                                                          GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &type);
            integer = type == GL_INT || type == GL_UNSIGNED_INT;
        }
        out[0] = integer ? 1 : 0;
        *count = 1;
        return true;
    }
    // GL_MAX_IMAGE_SAMPLES (GL_ARB_shader_image_load_store): GLES 3.1 has no
    // multisample images, and no such query.
    if (pname == 0x906D) {
        out[0] = 0;
        *count = 1;
        return true;
    }
    // GL_MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB: ESSL 3.10's textureGather
    // selects any of the four components.
    if (pname == 0x8F9F) {
        out[0] = std::find(cur_->extensions.begin(), cur_->extensions.end(), "GL_ARB_texture_gather") !=
                         cur_->extensions.end() ? 4 : 0;
        *count = 1;
        return true;
    }
    float line[2] = {1, 1}, point[2] = {1, 1};
    if (pname == kSmoothLineWidthRange) host_gl.glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, line);
    if (pname == kPointSizeRange) host_gl.glGetFloatv(GL_ALIASED_POINT_SIZE_RANGE, point);
    return cur_->dstate.get(pname, cur_->profile == 2, line, point, out, count);
}

// The point parameters of a core context (the client keeps a compatibility
// context's for its fixed-function lowering, whose programs mirror their
// sprite coordinates themselves): a GLES host has none. The origin reaches
// gl_PointCoord through a driver uniform (set at draws once a context of the
// share group has asked for GL_LOWER_LEFT); the fade threshold only scales
// multisampled points, which a GLES host sizes by the shader: kept for glGet.
void EsprytBackend::point_parameter(gen::Op op, GLenum pname, float value) {
    if (!cur_ || !cur_->desktop()) return unavailable(op);
    const char* why = "";
    if (const uint32_t e = cur_->dstate.set_point_parameter(pname, value, &why)) return refuse(op, e, why);
    if (cur_->dstate.point_lower_left) cur_->share->point_origins = true;
}

// The alpha test of a compatibility context, which the client sends before
// a draw of an application's program (GL alpha-tests those too; a GLES host
// has no alpha test): kept by the GL front end, read by the program's
// fragment stage through a driver uniform.
void EsprytBackend::glAlphaFunc(GLenum func, GLfloat ref) {
    if (!cur_ || gl::api_kind(cur_->api, cur_->profile, cur_->served) != gen::ApiKind::compat)
        return unavailable(gen::Op::glAlphaFunc);
    if (const uint32_t e = cur_->dstate.set_alpha_func(func, ref))
        return refuse(gen::Op::glAlphaFunc, e, "not a comparison function");
    cur_->share->alpha_tests = true;
}

void EsprytBackend::glPointParameterf(GLenum pname, GLfloat param) {
    point_parameter(gen::Op::glPointParameterf, pname, param);
}
void EsprytBackend::glPointParameteri(GLenum pname, GLint param) {
    point_parameter(gen::Op::glPointParameteri, pname, float(param));
}
void EsprytBackend::glPointParameterfv(GLenum pname, wire::In<GLfloat> params) {
    if (!params.data || params.size < sizeof(GLfloat)) return refuse(gen::Op::glPointParameterfv, GL_INVALID_VALUE, "no value");
    point_parameter(gen::Op::glPointParameterfv, pname, params.data[0]);
}
void EsprytBackend::glPointParameteriv(GLenum pname, wire::In<GLint> params) {
    if (!params.data || params.size < sizeof(GLint)) return refuse(gen::Op::glPointParameteriv, GL_INVALID_VALUE, "no value");
    point_parameter(gen::Op::glPointParameteriv, pname, float(params.data[0]));
}

}  // namespace mgl::espryt

namespace mgl::espryt {

// A GLES host sizes points by the vertex shader's gl_PointSize only: the
// desktop size is state (glGet answers it), which a vertex stage that writes
// no gl_PointSize writes through a driver uniform (kPointSizeUniform, set at
// draws once the share group has seen a size other than 1). A stage that
// writes gl_PointSize keeps its size without GL_PROGRAM_POINT_SIZE too: said
// once per context.
void EsprytBackend::glPointSize(GLfloat size) {
    if (!cur_ || !cur_->desktop()) return unavailable(gen::Op::glPointSize);
    if (!(size > 0)) return set_error(GL_INVALID_VALUE);
    cur_->dstate.point_size = size;
    if (size != 1) cur_->share->point_sizes = true;
    if (size != 1 && !cur_->point_size_said) {
        cur_->point_size_said = true;
        log().info("espryt: glPointSize({}): vertex stages that write gl_PointSize keep their own size even without "
                   "GL_PROGRAM_POINT_SIZE (a GLES host sizes points by gl_PointSize only)", size);
    }
}

}  // namespace mgl::espryt
