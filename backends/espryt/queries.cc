// Queries whose answers are object names: the host answers with its own
// names, the client must see the names it minted. Also object labels, whose
// `name` argument is a name of a kind that only `identifier` tells.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <cmath>
#include <cstring>
#include <string>

#include "backend.h"
#include "state/compute_rules.h"
#include "desktop_state.h"
#include "desktop_verbs.h"

namespace mgl::espryt {

namespace {

// The kind of object name that a state query returns, if any.
bool binding_kind(GLenum pname, Kind& k) {
    switch (pname) {
        case GL_ARRAY_BUFFER_BINDING: case GL_ELEMENT_ARRAY_BUFFER_BINDING: case GL_COPY_READ_BUFFER_BINDING:
        case GL_COPY_WRITE_BUFFER_BINDING: case GL_PIXEL_PACK_BUFFER_BINDING: case GL_PIXEL_UNPACK_BUFFER_BINDING:
        case GL_UNIFORM_BUFFER_BINDING: case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: case GL_ATOMIC_COUNTER_BUFFER_BINDING:
        case GL_SHADER_STORAGE_BUFFER_BINDING: case GL_DISPATCH_INDIRECT_BUFFER_BINDING:
        case GL_DRAW_INDIRECT_BUFFER_BINDING: case GL_TEXTURE_BUFFER_BINDING: case GL_VERTEX_BINDING_BUFFER:
        case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING:
            k = Kind::buffer; return true;
        case GL_TEXTURE_BINDING_2D: case GL_TEXTURE_BINDING_3D: case GL_TEXTURE_BINDING_CUBE_MAP:
        case GL_TEXTURE_BINDING_2D_ARRAY: case GL_TEXTURE_BINDING_2D_MULTISAMPLE:
        case GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY: case GL_TEXTURE_BINDING_CUBE_MAP_ARRAY:
        case GL_TEXTURE_BINDING_BUFFER: case GL_TEXTURE_BINDING_EXTERNAL_OES: case GL_IMAGE_BINDING_NAME:
            k = Kind::texture; return true;
        case GL_RENDERBUFFER_BINDING: k = Kind::renderbuffer; return true;
        case GL_SAMPLER_BINDING: k = Kind::sampler; return true;
        case GL_CURRENT_PROGRAM: case GL_ACTIVE_PROGRAM:
        case GL_VERTEX_SHADER: case GL_FRAGMENT_SHADER: case GL_GEOMETRY_SHADER: case GL_TESS_CONTROL_SHADER:
        case GL_TESS_EVALUATION_SHADER: case GL_COMPUTE_SHADER:
            k = Kind::program; return true;
        case GL_DRAW_FRAMEBUFFER_BINDING: case GL_READ_FRAMEBUFFER_BINDING: k = Kind::framebuffer; return true;
        case GL_VERTEX_ARRAY_BINDING: k = Kind::vertex_array; return true;
        case GL_TRANSFORM_FEEDBACK_BINDING: k = Kind::transform_feedback; return true;
        case GL_PROGRAM_PIPELINE_BINDING: k = Kind::program_pipeline; return true;
        case GL_CURRENT_QUERY: k = Kind::query; return true;
        default: return false;
    }
}

// The kind named by a KHR_debug identifier or an EXT_debug_label type.
bool label_kind(GLenum identifier, Kind& k) {
    switch (identifier) {
        case GL_BUFFER: case GL_BUFFER_OBJECT_EXT: k = Kind::buffer; return true;
        case GL_SHADER: case GL_SHADER_OBJECT_EXT: case GL_PROGRAM: case GL_PROGRAM_OBJECT_EXT: k = Kind::program; return true;
        case GL_VERTEX_ARRAY: case GL_VERTEX_ARRAY_OBJECT_EXT: k = Kind::vertex_array; return true;
        case GL_QUERY: case GL_QUERY_OBJECT_EXT: k = Kind::query; return true;
        case GL_PROGRAM_PIPELINE: case GL_PROGRAM_PIPELINE_OBJECT_EXT: k = Kind::program_pipeline; return true;
        case GL_TRANSFORM_FEEDBACK: k = Kind::transform_feedback; return true;
        case GL_SAMPLER: k = Kind::sampler; return true;
        case GL_TEXTURE: k = Kind::texture; return true;
        case GL_RENDERBUFFER: k = Kind::renderbuffer; return true;
        case GL_FRAMEBUFFER: k = Kind::framebuffer; return true;
        default: return false;
    }
}

// Components of a uniform of GL type `type` (samplers, images and atomic
// counters read as one integer).
GLint type_components(GLenum type) {
    switch (type) {
        case GL_FLOAT_VEC2: case GL_INT_VEC2: case GL_UNSIGNED_INT_VEC2: case GL_BOOL_VEC2: return 2;
        case GL_FLOAT_VEC3: case GL_INT_VEC3: case GL_UNSIGNED_INT_VEC3: case GL_BOOL_VEC3: return 3;
        case GL_FLOAT_VEC4: case GL_INT_VEC4: case GL_UNSIGNED_INT_VEC4: case GL_BOOL_VEC4: case GL_FLOAT_MAT2: return 4;
        case GL_FLOAT_MAT2x3: case GL_FLOAT_MAT3x2: return 6;
        case GL_FLOAT_MAT2x4: case GL_FLOAT_MAT4x2: return 8;
        case GL_FLOAT_MAT3: return 9;
        case GL_FLOAT_MAT3x4: case GL_FLOAT_MAT4x3: return 12;
        case GL_FLOAT_MAT4: return 16;
        default: return 1;
    }
}

// Components of the uniform at `location` of the linked host program, 0 when
// no active uniform (or array element) has that location. GL has no query
// from a location to its uniform: each active uniform's elements are looked
// up by name (array elements need not have consecutive locations).
GLint uniform_components(GLuint program, GLint location) {
    if (location < 0) return 0;
    GLint active = 0, max_len = 0;
    host_gl.glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &active);
    host_gl.glGetProgramiv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &max_len);
    std::string name(size_t(std::max(max_len, 1)), '\0');
    for (GLint i = 0; i < active; ++i) {
        GLsizei len = 0;
        GLint size = 0;
        GLenum type = GL_NONE;
        host_gl.glGetActiveUniform(program, GLuint(i), GLsizei(name.size()), &len, &size, &type, name.data());
        std::string base(name.data(), size_t(std::max(len, 0)));
        const GLint loc0 = host_gl.glGetUniformLocation(program, base.c_str());
        if (loc0 == location) return type_components(type);
        if (loc0 < 0 || size <= 1 || base.size() < 3 || base.compare(base.size() - 3, 3, "[0]") != 0) continue;
        base.resize(base.size() - 3);
        for (GLint j = 1; j < size; ++j)
            if (host_gl.glGetUniformLocation(program, (base + "[" + std::to_string(j) + "]").c_str()) == location)
                return type_components(type);
    }
    return 0;
}

}  // namespace

// ---- uniforms ---------------------------------------------------------------

GLint EsprytBackend::mglGetUniform(GLuint program, GLint location, GLenum type, wire::Out<GLuint> values) {
    constexpr gen::Op op = gen::Op::mglGetUniform;
    if (!cur_) {
        unavailable(op);
        return 0;
    }
    GLuint h;
    if (!to_host(Kind::program, program, h) || h == 0) {
        name_error(op, Kind::program, program);
        return 0;
    }
    // The host validates program and location; its error decides whether
    // the values are valid. An older pending host error is kept first.
    if (const GLenum older = host_gl.glGetError()) set_error(older);
    // The host writes at most a mat4 into this zeroed room.
    GLuint v[16] = {};
    if (GLint unit = 0; image_uniform_value(h, location, unit)) {  // the application's unit (unit_routing.cc)
        const GLfloat f = GLfloat(unit);
        if (type == GL_FLOAT) std::memcpy(&v[0], &f, sizeof f);
        else v[0] = GLuint(unit);
        if (values.count() >= 1) values.data[0] = v[0];
        return 1;
    }
    switch (type) {
        case GL_FLOAT: host_gl.glGetUniformfv(h, location, reinterpret_cast<GLfloat*>(v)); break;
        case GL_INT: host_gl.glGetUniformiv(h, location, reinterpret_cast<GLint*>(v)); break;
        case GL_UNSIGNED_INT: host_gl.glGetUniformuiv(h, location, v); break;
        default: refuse(op, GL_INVALID_ENUM, "type is not GL_FLOAT, GL_INT or GL_UNSIGNED_INT"); return 0;
    }
    if (const GLenum e = host_gl.glGetError()) {
        set_error(e);
        return 0;
    }
    const GLint n = uniform_components(h, location);
    if (n == 0) refuse(op, GL_INVALID_OPERATION, "no active uniform found at that location");
    std::memcpy(values.data, v, std::min<size_t>(size_t(n), values.count()) * sizeof(GLuint));
    return n;
}

// ---- state queries ------------------------------------------------------------

namespace {
constexpr GLenum kContextRobustAccess = 0x90F3;  // GL_CONTEXT_ROBUST_ACCESS (EXT/KHR): not in gl32.h
// Host contexts are robust whenever the host can be (a client's bad offsets
// must not read server memory), but the application is told the robustness it
// asked for, as a native driver would tell it.
template <typename T>
void show_asked_robustness(const Context& c, GLenum pname, T* v) {
    if (pname == kContextRobustAccess) {
        v[0] = T(c.robust_asked ? 1 : 0);
    } else if (pname == GL_CONTEXT_FLAGS && !c.robust_asked) {
        v[0] = T(GLint(v[0]) & ~GLint(GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT));
    }
}
}  // namespace

// Desktop-only state (desktop_state.cc) into a glGet*'s values.
template <typename T>
bool EsprytBackend::answer_desktop(GLenum pname, wire::Out<T> data) {
    double v[4];
    int n = 0;
    if (!desktop_get(pname, v, &n)) return false;
    for (int i = 0; i < n && size_t(i) < data.count(); ++i) {
        if constexpr (std::is_same_v<T, GLboolean>) data.data[i] = v[i] != 0 ? GL_TRUE : GL_FALSE;
        else data.data[i] = T(v[i]);
    }
    return true;
}

void EsprytBackend::glGetBooleanv(GLenum pname, wire::Out<GLboolean> data) {
    if (answer_desktop(pname, data)) return;
    if (cur_ && cur_->desktop()) pname = desktop_query_pname(pname);
    EsprytGenerated::glGetBooleanv(pname, data);
    if (cur_ && data.count() >= 1) show_asked_robustness(*cur_, pname, data.data);
}

void EsprytBackend::glGetIntegerv(GLenum pname, wire::Out<GLint> data) {
    if (answer_desktop(pname, data)) return;
    if (cur_ && cur_->desktop()) pname = desktop_query_pname(pname);
    EsprytGenerated::glGetIntegerv(pname, data);
    if (!cur_ || data.count() < 1) return;
    show_asked_robustness(*cur_, pname, data.data);
    Kind k;
    if (pname == GL_NUM_EXTENSIONS) data.data[0] = GLint(cur_->extensions.size());
    else if (binding_kind(pname, k)) data.data[0] = GLint(to_client(k, GLuint(data.data[0])));
}

void EsprytBackend::glGetInteger64v(GLenum pname, wire::Out<GLint64> data) {
    if (answer_desktop(pname, data)) return;
    if (cur_ && cur_->desktop()) pname = desktop_query_pname(pname);
    EsprytGenerated::glGetInteger64v(pname, data);
    if (!cur_ || data.count() < 1) return;
    show_asked_robustness(*cur_, pname, data.data);
    Kind k;
    if (pname == GL_NUM_EXTENSIONS) data.data[0] = GLint64(cur_->extensions.size());
    else if (binding_kind(pname, k)) data.data[0] = GLint64(to_client(k, GLuint(data.data[0])));
}

void EsprytBackend::glGetFloatv(GLenum pname, wire::Out<GLfloat> data) {
    if (answer_desktop(pname, data)) return;
    if (cur_ && cur_->desktop()) pname = desktop_query_pname(pname);
    EsprytGenerated::glGetFloatv(pname, data);
    if (!cur_ || data.count() < 1) return;
    show_asked_robustness(*cur_, pname, data.data);
    Kind k;
    if (pname == GL_NUM_EXTENSIONS) data.data[0] = GLfloat(cur_->extensions.size());
    else if (binding_kind(pname, k)) data.data[0] = GLfloat(to_client(k, GLuint(std::lround(data.data[0]))));
}

void EsprytBackend::glGetIntegeri_v(GLenum target, GLuint index, wire::Out<GLint> data) {
    put_back_units();  // the application's image units and storage bindings (unit_routing.cc)
    EsprytGenerated::glGetIntegeri_v(target, index, data);
    if (cur_ && cur_->desktop() && target == GL_IMAGE_BINDING_FORMAT && data.count() >= 1 && data.data[0] == GL_R32UI &&
        (index >= cur_->image_units_bound.size() || !cur_->image_units_bound[index]))
        data.data[0] = GLint(gl::kInitialImageFormat);
    Kind k;
    if (cur_ && data.count() >= 1 && binding_kind(target, k)) data.data[0] = GLint(to_client(k, GLuint(data.data[0])));
}

void EsprytBackend::glGetInteger64i_v(GLenum target, GLuint index, wire::Out<GLint64> data) {
    put_back_units();
    EsprytGenerated::glGetInteger64i_v(target, index, data);
    Kind k;
    if (cur_ && data.count() >= 1 && binding_kind(target, k)) data.data[0] = GLint64(to_client(k, GLuint(data.data[0])));
}

void EsprytBackend::glGetVertexAttribiv(GLuint index, GLenum pname, wire::Out<GLint> params) {
    EsprytGenerated::glGetVertexAttribiv(index, pname, params);
    if (cur_ && params.count() >= 1 && pname == GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING)
        params.data[0] = GLint(to_client(Kind::buffer, GLuint(params.data[0])));
}

void EsprytBackend::glGetVertexAttribfv(GLuint index, GLenum pname, wire::Out<GLfloat> params) {
    EsprytGenerated::glGetVertexAttribfv(index, pname, params);
    if (cur_ && params.count() >= 1 && pname == GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING)
        params.data[0] = GLfloat(to_client(Kind::buffer, GLuint(std::lround(params.data[0]))));
}

void EsprytBackend::glGetVertexAttribIiv(GLuint index, GLenum pname, wire::Out<GLint> params) {
    EsprytGenerated::glGetVertexAttribIiv(index, pname, params);
    if (cur_ && params.count() >= 1 && pname == GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING)
        params.data[0] = GLint(to_client(Kind::buffer, GLuint(params.data[0])));
}

void EsprytBackend::glGetVertexAttribIuiv(GLuint index, GLenum pname, wire::Out<GLuint> params) {
    EsprytGenerated::glGetVertexAttribIuiv(index, pname, params);
    if (cur_ && params.count() >= 1 && pname == GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING)
        params.data[0] = to_client(Kind::buffer, params.data[0]);
}

void EsprytBackend::glGetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment, GLenum pname,
                                                          wire::Out<GLint> params) {
    EsprytGenerated::glGetFramebufferAttachmentParameteriv(target, attachment, pname, params);
    if (!cur_ || params.count() < 1 || pname != GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) return;
    GLint type = GL_NONE;
    host_gl.glGetFramebufferAttachmentParameteriv(target, attachment, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type == GL_TEXTURE) params.data[0] = GLint(to_client(Kind::texture, GLuint(params.data[0])));
    else if (type == GL_RENDERBUFFER) params.data[0] = GLint(to_client(Kind::renderbuffer, GLuint(params.data[0])));
}

void EsprytBackend::glGetProgramPipelineiv(GLuint pipeline, GLenum pname, wire::Out<GLint> params) {
    EsprytGenerated::glGetProgramPipelineiv(pipeline, pname, params);
    Kind k;
    if (cur_ && params.count() >= 1 && binding_kind(pname, k) && k == Kind::program)
        params.data[0] = GLint(to_client(Kind::program, GLuint(params.data[0])));
}

void EsprytBackend::glGetProgramPipelineivEXT(GLuint pipeline, GLenum pname, wire::Out<GLint> params) {
    EsprytGenerated::glGetProgramPipelineivEXT(pipeline, pname, params);
    Kind k;
    if (cur_ && params.count() >= 1 && binding_kind(pname, k) && k == Kind::program)
        params.data[0] = GLint(to_client(Kind::program, GLuint(params.data[0])));
}

void EsprytBackend::glGetQueryiv(GLenum target, GLenum pname, wire::Out<GLint> params) {
    // GL_SAMPLES_PASSED is the host's GL_ANY_SAMPLES_PASSED (desktop_queries.cc).
    const bool desktop = cur_ && cur_->desktop();
    EsprytGenerated::glGetQueryiv(desktop ? gl::device_query_target(target) : target, pname, params);
    if (cur_ && params.count() >= 1 && pname == GL_CURRENT_QUERY)
        params.data[0] = GLint(to_client(Kind::query, GLuint(params.data[0])));
    if (desktop) desktop_current_query(target, pname, params);
}

void EsprytBackend::glGetQueryivEXT(GLenum target, GLenum pname, wire::Out<GLint> params) {
    EsprytGenerated::glGetQueryivEXT(target, pname, params);
    if (cur_ && params.count() >= 1 && pname == GL_CURRENT_QUERY)
        params.data[0] = GLint(to_client(Kind::query, GLuint(params.data[0])));
}

// ---- labels ---------------------------------------------------------------------

bool EsprytBackend::label_name(gen::Op verb, GLenum identifier, GLuint name, GLuint& host) {
    if (!cur_) {
        unavailable(verb);
        return false;
    }
    Kind k;
    if (!label_kind(identifier, k)) {
        host = 0;  // the host rejects the identifier (GL_INVALID_ENUM) without using the name
        return true;
    }
    if (to_host(k, name, host) && host) return true;
    // KHR_debug: a name that is not an object of that kind is INVALID_VALUE.
    set_error(GL_INVALID_VALUE);
    return false;
}

GLuint EsprytBackend::glGetDebugMessageLog(GLuint count, GLsizei bufSize, wire::Out<GLenum> sources,
                                           wire::Out<GLenum> types, wire::Out<GLuint> ids, wire::Out<GLenum> severities,
                                           wire::Out<GLsizei> lengths, wire::Out<GLchar> messageLog) {
    if (!cur_ || cur_->own_debug.empty())
        return EsprytGenerated::glGetDebugMessageLog(count, bufSize, sources, types, ids, severities, lengths, messageLog);
    // The decoder checked every array against `count` and the log against bufSize.
    gl::DebugLogOut out{sources.size ? sources.data : nullptr, types.size ? types.data : nullptr,
                        ids.size ? ids.data : nullptr, severities.size ? severities.data : nullptr,
                        lengths.size ? reinterpret_cast<int32_t*>(lengths.data) : nullptr,
                        messageLog.size ? reinterpret_cast<char*>(messageLog.data) : nullptr};
    uint32_t error = 0;
    size_t used = 0;
    const GLuint n = cur_->own_debug.fetch(count, bufSize, out, &error, &used);
    if (error) {
        set_error(error);
        return 0;
    }
    if (n == count || !cur_->own_debug.empty() || !avail_[hidx::glGetDebugMessageLog]) return n;
    // The rest from the host, after them.
    auto after = [n](auto* p) { return p ? static_cast<void*>(p + n) : nullptr; };
    const GLsizei room = out.log ? GLsizei(size_t(bufSize) - used) : bufSize;
    return n + GLuint(host_gl.glGetDebugMessageLog(count - n, room, after(out.sources), after(out.types), after(out.ids),
                                                   after(out.severities), after(out.lengths),
                                                   out.log ? static_cast<void*>(out.log + used) : nullptr));
}

void EsprytBackend::glObjectLabel(GLenum identifier, GLuint name, GLsizei length, wire::In<GLchar> label) {
    GLuint h;
    if (label_name(gen::Op::glObjectLabel, identifier, name, h)) EsprytGenerated::glObjectLabel(identifier, h, length, label);
}

void EsprytBackend::glObjectLabelKHR(GLenum identifier, GLuint name, GLsizei length, wire::In<GLchar> label) {
    GLuint h;
    if (label_name(gen::Op::glObjectLabelKHR, identifier, name, h))
        EsprytGenerated::glObjectLabelKHR(identifier, h, length, label);
}

void EsprytBackend::glGetObjectLabel(GLenum identifier, GLuint name, GLsizei bufSize, wire::Out<GLsizei> length,
                                     wire::Out<GLchar> label) {
    GLuint h;
    if (label_name(gen::Op::glGetObjectLabel, identifier, name, h))
        EsprytGenerated::glGetObjectLabel(identifier, h, bufSize, length, label);
}

void EsprytBackend::glGetObjectLabelKHR(GLenum identifier, GLuint name, GLsizei bufSize, wire::Out<GLsizei> length,
                                        wire::Out<GLchar> label) {
    GLuint h;
    if (label_name(gen::Op::glGetObjectLabelKHR, identifier, name, h))
        EsprytGenerated::glGetObjectLabelKHR(identifier, h, bufSize, length, label);
}

void EsprytBackend::glLabelObjectEXT(GLenum type, GLuint object, GLsizei length, wire::In<GLchar> label) {
    GLuint h;
    if (label_name(gen::Op::glLabelObjectEXT, type, object, h)) EsprytGenerated::glLabelObjectEXT(type, h, length, label);
}

void EsprytBackend::glGetObjectLabelEXT(GLenum type, GLuint object, GLsizei bufSize, wire::Out<GLsizei> length,
                                        wire::Out<GLchar> label) {
    GLuint h;
    if (label_name(gen::Op::glGetObjectLabelEXT, type, object, h))
        EsprytGenerated::glGetObjectLabelEXT(type, h, bufSize, length, label);
}

}  // namespace mgl::espryt
