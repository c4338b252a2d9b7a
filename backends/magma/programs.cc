// Shaders and programs: the shader and program objects, compile and link
// (the executable a link builds: executable.cc; GLSL through glslang:
// shaders.cc), their queries, uniform and attribute locations, uniform
// blocks. The uniform setters: uniform_set.cc.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <charconv>
#include <cstring>

#include "backend.h"
#include "program_names.h"

namespace mgl::magma {


std::shared_ptr<Shader> MagmaBackend::shader_for(gen::Op verb, GLuint name) {
    auto it = cur_->share->shaders.find(name);
    if (it == cur_->share->shaders.end()) {
        refuse(verb, cur_->share->programs.count(name) ? GL_INVALID_OPERATION : GL_INVALID_VALUE, "not a shader");
        return nullptr;
    }
    return it->second;
}

std::shared_ptr<Program> MagmaBackend::program_for(gen::Op verb, GLuint name) {
    auto it = cur_->share->programs.find(name);
    if (it == cur_->share->programs.end()) {
        refuse(verb, cur_->share->shaders.count(name) ? GL_INVALID_OPERATION : GL_INVALID_VALUE, "not a program");
        return nullptr;
    }
    return it->second;
}

void MagmaBackend::glCreateShader(GLenum type, GLuint result) {
    if (!need_context(gen::Op::glCreateShader)) return;
    // Geometry shaders: desktop GL 3.2 and later, on a device that has them.
    const bool geometry = type == GL_GEOMETRY_SHADER && cur_->desktop() && cur_->served >= 32 &&
                          gpu_->dev().features.geometryShader;
    // Compute shaders: desktop contexts (GL_ARB_compute_shader, compute.cc).
    const bool compute = type == GL_COMPUTE_SHADER && cur_->desktop();
    // Tessellation shaders: desktop contexts on a device that has them (GL_ARB_tessellation_shader).
    const bool tessellation = (type == GL_TESS_CONTROL_SHADER || type == GL_TESS_EVALUATION_SHADER) &&
                              cur_->desktop() && gpu_->dev().features.tessellationShader;
    if (type != GL_VERTEX_SHADER && type != GL_FRAGMENT_SHADER && !geometry && !compute && !tessellation)
        return refuse(gen::Op::glCreateShader, GL_INVALID_ENUM,
                      type == GL_GEOMETRY_SHADER ? "geometry shaders need a desktop 3.2 context and a device that has them"
                                                 : "not a shader type Magma serves");
    auto s = std::make_shared<Shader>();
    s->type = type;
    cur_->share->shaders[result] = s;
}

void MagmaBackend::glShaderSource(GLuint shader, GLsizei count, wire::Strings strings) {
    if (!need_context(gen::Op::glShaderSource)) return;
    auto s = shader_for(gen::Op::glShaderSource, shader);
    if (!s) return;
    s->source.clear();
    for (uint32_t i = 0; i < strings.count; ++i) s->source += strings.data[i];
}

void MagmaBackend::glCompileShader(GLuint shader) {
    if (!need_context(gen::Op::glCompileShader)) return;
    auto s = shader_for(gen::Op::glCompileShader, shader);
    if (!s) return;
    const Stage stage = s->type == GL_VERTEX_SHADER            ? Stage::vertex
                        : s->type == GL_GEOMETRY_SHADER        ? Stage::geometry
                        : s->type == GL_COMPUTE_SHADER         ? Stage::compute
                        : s->type == GL_TESS_CONTROL_SHADER    ? Stage::tess_control
                        : s->type == GL_TESS_EVALUATION_SHADER ? Stage::tess_evaluation
                                                               : Stage::fragment;
    Gpu::Timed t(*gpu_, &Counters::compile_us);
    s->compiled = compile_check(stage, shader_api(), s->source, s->log);
    if (!s->compiled) log().info("magma: shader {} does not compile:\n{}", shader, s->log);
}

void MagmaBackend::glGetShaderiv(GLuint shader, GLenum pname, wire::Out<GLint> params) {
    if (!need_context(gen::Op::glGetShaderiv)) return;
    auto s = shader_for(gen::Op::glGetShaderiv, shader);
    if (!s || !params.count()) return;
    GLint v = 0;
    switch (pname) {
        case GL_SHADER_TYPE: v = GLint(s->type); break;
        case GL_COMPILE_STATUS: v = s->compiled; break;
        case GL_DELETE_STATUS: v = s->deleted; break;
        case GL_INFO_LOG_LENGTH: v = s->log.empty() ? 0 : GLint(s->log.size() + 1); break;
        case GL_SHADER_SOURCE_LENGTH: v = s->source.empty() ? 0 : GLint(s->source.size() + 1); break;
        default: return refuse(gen::Op::glGetShaderiv, GL_INVALID_ENUM, "pname");
    }
    params.data[0] = v;
}

void MagmaBackend::glGetShaderInfoLog(GLuint shader, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> out) {
    if (!need_context(gen::Op::glGetShaderInfoLog)) return;
    if (auto s = shader_for(gen::Op::glGetShaderInfoLog, shader)) copy_string(s->log, bufSize, length, out);
}

void MagmaBackend::glGetShaderSource(GLuint shader, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> out) {
    if (!need_context(gen::Op::glGetShaderSource)) return;
    if (auto s = shader_for(gen::Op::glGetShaderSource, shader)) copy_string(s->source, bufSize, length, out);
}

void MagmaBackend::glDeleteShader(GLuint shader) {
    if (!need_context(gen::Op::glDeleteShader) || shader == 0) return;
    auto s = shader_for(gen::Op::glDeleteShader, shader);
    if (!s) return;
    s->deleted = true;
    cur_->share->shaders.erase(shader);  // attached programs keep it alive
}

GLboolean MagmaBackend::glIsShader(GLuint shader) {
    return need_context(gen::Op::glIsShader) && cur_->share->shaders.count(shader);
}

void MagmaBackend::glCreateProgram(GLuint result) {
    if (!need_context(gen::Op::glCreateProgram)) return;
    cur_->share->programs[result] = std::make_shared<Program>();
}

void MagmaBackend::glAttachShader(GLuint program, GLuint shader) {
    if (!need_context(gen::Op::glAttachShader)) return;
    auto p = program_for(gen::Op::glAttachShader, program);
    auto s = p ? shader_for(gen::Op::glAttachShader, shader) : nullptr;
    if (!s) return;
    if (std::find(p->shaders.begin(), p->shaders.end(), s) != p->shaders.end())
        return refuse(gen::Op::glAttachShader, GL_INVALID_OPERATION, "already attached");
    // GLES: one shader object per stage; desktop GL links several as one
    // stage (shaders_link.cc).
    if (!cur_->desktop())
        for (const auto& other : p->shaders)
            if (other->type == s->type)
                return refuse(gen::Op::glAttachShader, GL_INVALID_OPERATION, "a shader of that type is already attached");
    p->shaders.push_back(s);
}

void MagmaBackend::glDetachShader(GLuint program, GLuint shader) {
    if (!need_context(gen::Op::glDetachShader)) return;
    auto p = program_for(gen::Op::glDetachShader, program);
    if (!p) return;
    auto it = cur_->share->shaders.find(shader);
    std::shared_ptr<Shader> s = it == cur_->share->shaders.end() ? nullptr : it->second;
    auto at = std::find(p->shaders.begin(), p->shaders.end(), s);
    if (!s || at == p->shaders.end()) {
        // A deleted shader is no longer named: detach the one of that type that is deleted.
        at = std::find_if(p->shaders.begin(), p->shaders.end(), [](auto& x) { return x->deleted; });
        if (at == p->shaders.end()) return refuse(gen::Op::glDetachShader, GL_INVALID_OPERATION, "not attached");
    }
    p->shaders.erase(at);
}

void MagmaBackend::glBindAttribLocation(GLuint program, GLuint index, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glBindAttribLocation)) return;
    auto p = program_for(gen::Op::glBindAttribLocation, program);
    if (!p) return;
    if (index >= 16) return refuse(gen::Op::glBindAttribLocation, GL_INVALID_VALUE, "index");
    p->bound_attribs[in_string(name)] = index;
}

// Desktop GL 3.0: the colour number a fragment output goes to, used by the
// next link when the shader does not locate the output itself.
void MagmaBackend::glBindFragDataLocation(GLuint program, GLuint color, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glBindFragDataLocation)) return;
    auto p = program_for(gen::Op::glBindFragDataLocation, program);
    if (!p) return;
    const std::string n = in_string(name);
    if (color >= GLuint(max_draw_buffers())) return refuse(gen::Op::glBindFragDataLocation, GL_INVALID_VALUE, "color >= GL_MAX_DRAW_BUFFERS");
    if (n.rfind("gl_", 0) == 0) return refuse(gen::Op::glBindFragDataLocation, GL_INVALID_OPERATION, "name starts with gl_");
    p->bound_outputs[n] = color;
}

// Index 1 is dual-source blending, which Magma does not serve yet.
// Desktop GL 3.0: the colour number of an active fragment output of the last
// successful link; -1 for any other name (gl_ ones included).
GLint MagmaBackend::glGetFragDataLocation(GLuint program, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glGetFragDataLocation)) return -1;
    auto p = program_for(gen::Op::glGetFragDataLocation, program);
    if (!p) return -1;
    if (!p->linked || !p->exe) {
        refuse(gen::Op::glGetFragDataLocation, GL_INVALID_OPERATION, "the program is not linked");
        return -1;
    }
    const std::string n = in_string(name);
    if (n.rfind("gl_", 0) == 0) return -1;
    const LinkedProgram& lp = p->exe->linked;
    std::string base = n;
    int element = 0;
    if (const size_t br = n.find('['); br != std::string::npos && n.back() == ']') {
        base = n.substr(0, br);
        element = std::atoi(n.c_str() + br + 1);
    }
    for (size_t i = 0; i < lp.output_names.size() && i < lp.outputs.size(); ++i)
        if (lp.output_names[i] == base) return lp.outputs[i] + element;
    return -1;
}

void MagmaBackend::glBindFragDataLocationIndexed(GLuint program, GLuint color, GLuint index, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glBindFragDataLocationIndexed)) return;
    if (index == 0) return glBindFragDataLocation(program, color, name);
    refuse(gen::Op::glBindFragDataLocationIndexed, index > 1 ? GL_INVALID_VALUE : GL_INVALID_OPERATION,
           "dual-source blending (index 1) is not served");
}

void MagmaBackend::glLinkProgram(GLuint program) {
    if (!need_context(gen::Op::glLinkProgram)) return;
    auto p = program_for(gen::Op::glLinkProgram, program);
    if (!p) return;
    if (cur_->xfb->active && cur_->program == p)
        return refuse(gen::Op::glLinkProgram, GL_INVALID_OPERATION, "the program is in use by active transform feedback");
    std::string text;
    {
        Gpu::Timed t(*gpu_, &Counters::compile_us);  // pipelines made at link count as pipeline_us too
        p->linked = build_executable(*p, text);
    }
    p->log = text;
    if (!p->linked) {
        p->exe.reset();
        log().info("magma: program {} does not link: {}", program, text);
        return;
    }
    if (pipeline_stats_)
        std::fprintf(stderr, "magma link frame %llu program %u: %p\n", (unsigned long long)frames_ + 1, program,
                     static_cast<void*>(p->exe.get()));
    // The pipeline this program will most likely need, made now (programs are
    // linked while loading) rather than at its first draw, which may come
    // hundreds of frames later (glmark2's ideas: two programs first drawn at
    // frames 252 and 274). Only where the rest of the key is dynamic (vertex
    // input, depth/stencil, culling, topology within its class): what is left
    // is the target's formats, blending and color masks, taken from the
    // current state, and triangles. A different guess costs one unused pipeline.
    Target t;
    if (!p->exe->compute && gpu_->dev().dynamic_vertex_input && resolve_target(t, true)) pipeline(*p->exe, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, {}, {}, {});
}

void MagmaBackend::glGetProgramiv(GLuint program, GLenum pname, wire::Out<GLint> params) {
    if (!need_context(gen::Op::glGetProgramiv)) return;
    auto p = program_for(gen::Op::glGetProgramiv, program);
    if (!p || !params.count()) return;
    const LinkedProgram* lp = p->exe ? &p->exe->linked : nullptr;
    GLint v = 0;
    switch (pname) {
        case GL_LINK_STATUS: v = p->linked; break;
        case GL_DELETE_STATUS: v = p->deleted; break;
        case GL_VALIDATE_STATUS: v = p->validated; break;
        case GL_INFO_LOG_LENGTH: v = p->log.empty() ? 0 : GLint(p->log.size() + 1); break;
        case GL_ATTACHED_SHADERS: v = GLint(p->shaders.size()); break;
        case GL_ACTIVE_UNIFORMS: v = lp ? GLint(lp->uniforms.size() + lp->block_uniforms.size()) : 0; break;
        case GL_ACTIVE_ATTRIBUTES: v = lp ? GLint(lp->attribs.size()) : 0; break;
        case GL_ACTIVE_UNIFORM_BLOCKS: v = lp ? GLint(lp->blocks.size()) : 0; break;
        case GL_ACTIVE_UNIFORM_MAX_LENGTH:
            if (lp)
                for (const auto* list : {&lp->uniforms, &lp->block_uniforms})
                    for (const UniformInfo& u : *list) v = std::max<GLint>(v, GLint(active_name(u).size() + 1));
            break;
        case GL_ACTIVE_ATTRIBUTE_MAX_LENGTH:
            if (lp)
                for (auto& a : lp->attribs) v = std::max<GLint>(v, GLint(a.name.size() + 1));
            break;
        case GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH:
            if (lp)
                for (auto& b : lp->blocks) v = std::max<GLint>(v, GLint(b.name.size() + 1));
            break;
        case GL_PROGRAM_BINARY_RETRIEVABLE_HINT: v = 0; break;
        case GL_TRANSFORM_FEEDBACK_VARYINGS: v = lp ? GLint(lp->xfb.varyings.size()) : 0; break;
        case GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH:
            if (lp)
                for (auto& x : lp->xfb.varyings) v = std::max<GLint>(v, GLint(x.name.size() + 1));
            break;
        case GL_TRANSFORM_FEEDBACK_BUFFER_MODE:
            v = (lp ? lp->xfb.interleaved : p->xfb.interleaved) ? GL_INTERLEAVED_ATTRIBS : GL_SEPARATE_ATTRIBS;
            break;
        // A linked stage's layout (desktop GL 3.2's geometry, 4.0's
        // tessellation stages); INVALID_OPERATION without that stage.
        case GL_GEOMETRY_VERTICES_OUT:
        case GL_GEOMETRY_INPUT_TYPE:
        case GL_GEOMETRY_OUTPUT_TYPE:
        case GL_GEOMETRY_SHADER_INVOCATIONS:
        case GL_TESS_CONTROL_OUTPUT_VERTICES:
        case GL_TESS_GEN_MODE:
        case GL_TESS_GEN_SPACING:
        case GL_TESS_GEN_VERTEX_ORDER:
        case GL_TESS_GEN_POINT_MODE: {
            if (!cur_->desktop()) return refuse(gen::Op::glGetProgramiv, GL_INVALID_ENUM, "pname");
            const bool geometry = (pname >= GL_GEOMETRY_VERTICES_OUT && pname <= GL_GEOMETRY_OUTPUT_TYPE) ||
                                  pname == GL_GEOMETRY_SHADER_INVOCATIONS;
            const bool control = pname == GL_TESS_CONTROL_OUTPUT_VERTICES;
            const std::vector<uint32_t>* stage = !lp ? nullptr : geometry ? &lp->gs : control ? &lp->tcs : &lp->tes;
            if (!stage || stage->empty())
                return refuse(gen::Op::glGetProgramiv, GL_INVALID_OPERATION,
                              geometry ? "the program has no linked geometry shader"
                              : control ? "the program has no linked tessellation control shader"
                                        : "the program has no linked tessellation evaluation shader");
            switch (pname) {
                case GL_GEOMETRY_VERTICES_OUT: v = lp->gs_vertices; break;
                case GL_GEOMETRY_INPUT_TYPE: v = GLint(lp->gs_input); break;
                case GL_GEOMETRY_OUTPUT_TYPE: v = GLint(lp->gs_output); break;
                case GL_GEOMETRY_SHADER_INVOCATIONS: v = lp->gs_invocations; break;
                case GL_TESS_CONTROL_OUTPUT_VERTICES: v = lp->tcs_vertices; break;
                case GL_TESS_GEN_MODE: v = GLint(lp->tes_mode); break;
                case GL_TESS_GEN_SPACING: v = GLint(lp->tes_spacing); break;
                case GL_TESS_GEN_VERTEX_ORDER: v = GLint(lp->tes_order); break;
                default: v = GLint(lp->tes_point_mode); break;
            }
            break;
        }
        // GL_ARB_compute_shader: the linked compute shader's local size; INVALID_OPERATION without one.
        case GL_COMPUTE_WORK_GROUP_SIZE:
            if (!cur_->desktop()) return refuse(gen::Op::glGetProgramiv, GL_INVALID_ENUM, "pname");
            if (!lp || lp->cs.empty())
                return refuse(gen::Op::glGetProgramiv, GL_INVALID_OPERATION, "the program has no linked compute shader");
            for (uint32_t i = 0; i < 3 && i < params.count(); ++i) params.data[i] = GLint(lp->local_size[i]);
            return;
        case GL_ACTIVE_ATOMIC_COUNTER_BUFFERS:
            if (!cur_->desktop()) return refuse(gen::Op::glGetProgramiv, GL_INVALID_ENUM, "pname");
            v = lp ? GLint(lp->counter_buffers.size()) : 0;
            break;
        default: return refuse(gen::Op::glGetProgramiv, GL_INVALID_ENUM, "pname");
    }
    params.data[0] = v;
}

void MagmaBackend::glGetProgramInfoLog(GLuint program, GLsizei bufSize, wire::Out<GLsizei> length,
                                       wire::Out<GLchar> out) {
    if (!need_context(gen::Op::glGetProgramInfoLog)) return;
    if (auto p = program_for(gen::Op::glGetProgramInfoLog, program)) copy_string(p->log, bufSize, length, out);
}

void MagmaBackend::glDeleteProgram(GLuint program) {
    if (!need_context(gen::Op::glDeleteProgram) || program == 0) return;
    auto p = program_for(gen::Op::glDeleteProgram, program);
    if (!p) return;
    p->deleted = true;
    cur_->share->programs.erase(program);  // the current program stays in use until replaced
}

GLboolean MagmaBackend::glIsProgram(GLuint program) {
    return need_context(gen::Op::glIsProgram) && cur_->share->programs.count(program);
}

void MagmaBackend::glValidateProgram(GLuint program) {
    if (!need_context(gen::Op::glValidateProgram)) return;
    if (auto p = program_for(gen::Op::glValidateProgram, program)) p->validated = p->linked;
}

void MagmaBackend::glUseProgram(GLuint program) {
    if (!need_context(gen::Op::glUseProgram)) return;
    if (xfb_blocks_program_change())
        return refuse(gen::Op::glUseProgram, GL_INVALID_OPERATION, "transform feedback is active and not paused");
    if (program == 0) {
        cur_->program.reset();
        return;
    }
    auto p = program_for(gen::Op::glUseProgram, program);
    if (!p) return;
    if (!p->linked) return refuse(gen::Op::glUseProgram, GL_INVALID_OPERATION, "program not linked");
    cur_->program = p;
}

Executable* MagmaBackend::current_exe() { return cur_->program ? cur_->program->exe.get() : nullptr; }

GLint MagmaBackend::glGetUniformLocation(GLuint program, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glGetUniformLocation)) return -1;
    auto p = program_for(gen::Op::glGetUniformLocation, program);
    if (!p) return -1;
    if (!p->exe) {
        refuse(gen::Op::glGetUniformLocation, GL_INVALID_OPERATION, "program not linked");
        return -1;
    }
    std::string base;
    int element;
    if (!split_name(in_string(name), base, element)) return -1;
    for (const UniformInfo& u : p->exe->linked.uniforms)
        if (u.name == base && element < u.array_size && u.location >= 0) return u.location + element;
    return -1;
}

GLint MagmaBackend::glGetAttribLocation(GLuint program, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glGetAttribLocation)) return -1;
    auto p = program_for(gen::Op::glGetAttribLocation, program);
    if (!p || !p->exe) return -1;
    const std::string n = in_string(name);
    const auto& attribs = p->exe->linked.attribs;
    for (size_t i = 0; i < attribs.size(); ++i)
        if (attribs[i].name == n)
            for (auto& a : p->exe->attrs)
                if (a.location == attribs[i].location) return a.gl_index;
    return -1;
}

void MagmaBackend::glGetActiveUniform(GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                                      wire::Out<GLint> size, wire::Out<GLenum> type, wire::Out<GLchar> name) {
    if (!need_context(gen::Op::glGetActiveUniform)) return;
    auto p = program_for(gen::Op::glGetActiveUniform, program);
    const UniformInfo* u = p && p->exe ? active_uniform(p->exe->linked, index) : nullptr;
    if (!u) return refuse(gen::Op::glGetActiveUniform, GL_INVALID_VALUE, "index");
    if (size.count()) size.data[0] = u->array_size;
    if (type.count()) type.data[0] = u->type;
    copy_string(active_name(*u), bufSize, length, name);
}

void MagmaBackend::glGetActiveAttrib(GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                                     wire::Out<GLint> size, wire::Out<GLenum> type, wire::Out<GLchar> name) {
    if (!need_context(gen::Op::glGetActiveAttrib)) return;
    auto p = program_for(gen::Op::glGetActiveAttrib, program);
    if (!p || !p->exe || index >= p->exe->linked.attribs.size())
        return refuse(gen::Op::glGetActiveAttrib, GL_INVALID_VALUE, "index");
    const AttribInfo& a = p->exe->linked.attribs[index];
    if (size.count()) size.data[0] = 1;
    if (type.count()) type.data[0] = a.type;
    copy_string(a.name, bufSize, length, name);
}

}  // namespace mgl::magma
