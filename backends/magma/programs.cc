// Shaders and programs: GLSL through glslang (shaders.cc), the executable a
// link makes (shader modules, descriptor set layout, pipeline layout, the
// default uniform block's bytes), uniform locations and setters, attributes.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdio>
#include <charconv>
#include <cstring>

#include "backend.h"
#include "spirv_default_storage.h"
#include "spirv_locations.h"
#include "gl_to_vk.h"
#include "compat_builtins.h"
#include "driver_uniforms.h"
#include "context/desktop_context.h"
#include "uniform_defaults.h"

namespace mgl::magma {

namespace {

bool is_sampler(GLenum t) {
    switch (t) {
        case GL_SAMPLER_2D: case GL_SAMPLER_3D: case GL_SAMPLER_CUBE: case GL_SAMPLER_2D_SHADOW:
        case GL_SAMPLER_2D_ARRAY: case GL_SAMPLER_2D_ARRAY_SHADOW: case GL_SAMPLER_CUBE_SHADOW:
        case GL_INT_SAMPLER_2D: case GL_INT_SAMPLER_3D: case GL_INT_SAMPLER_CUBE: case GL_INT_SAMPLER_2D_ARRAY:
        case GL_UNSIGNED_INT_SAMPLER_2D: case GL_UNSIGNED_INT_SAMPLER_3D: case GL_UNSIGNED_INT_SAMPLER_CUBE:
        case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY:
        case GL_SAMPLER_2D_MULTISAMPLE: case GL_INT_SAMPLER_2D_MULTISAMPLE: case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE:
        case GL_SAMPLER_2D_MULTISAMPLE_ARRAY: case GL_INT_SAMPLER_2D_MULTISAMPLE_ARRAY:
        case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY: return true;
        default: return lowered_sampler(t) != 0;
    }
}

// "name", "name[3]" -> base name and element.
bool split_name(const std::string& n, std::string& base, int& element) {
    element = 0;
    base = n;
    if (n.empty() || n.back() != ']') return true;
    const size_t open = n.rfind('[');
    if (open == std::string::npos) return false;
    const std::string idx = n.substr(open + 1, n.size() - open - 2);
    if (idx.empty() || idx.find_first_not_of("0123456789") != std::string::npos) return false;
    // from_chars, not stoi: an index too large for int comes from the client
    // and must be an unknown name, not an exception that ends the server.
    if (std::from_chars(idx.data(), idx.data() + idx.size(), element).ec != std::errc()) return false;
    base = n.substr(0, open);
    return true;
}

void copy_string(const std::string& s, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> out) {
    GLsizei n = 0;
    if (bufSize > 0 && out.size > 0) {
        n = GLsizei(std::min({s.size(), size_t(bufSize) - 1, size_t(out.size) - 1}));
        std::memcpy(out.data, s.data(), size_t(n));  // GLchar is signed char on the wire
        out.data[n] = 0;
    }
    if (length.count()) length.data[0] = n;
}

std::string in_string(wire::In<GLchar> s) {
    const char* p = reinterpret_cast<const char*>(s.data);
    return std::string(p, strnlen(p, s.size));
}

}  // namespace

Executable::~Executable() {
    if (!gpu) return;
    VkShaderModule v = vs, f = fs, g = gs;
    VkDescriptorSetLayout s = set_layout, ds = defaults_layout;
    VkPipelineLayout l = layout;
    std::vector<VkPipeline> ps;
    for (auto& [k, p] : pipelines) ps.push_back(p);
    gpu->defer([=](VkDevice d) {
        for (VkPipeline p : ps) vkDestroyPipeline(d, p, nullptr);
        if (v) vkDestroyShaderModule(d, v, nullptr);
        if (f) vkDestroyShaderModule(d, f, nullptr);
        if (g) vkDestroyShaderModule(d, g, nullptr);
        if (l) vkDestroyPipelineLayout(d, l, nullptr);
        if (s) vkDestroyDescriptorSetLayout(d, s, nullptr);
        if (ds) vkDestroyDescriptorSetLayout(d, ds, nullptr);
    });
}

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
    if (type != GL_VERTEX_SHADER && type != GL_FRAGMENT_SHADER && !geometry)
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
    const Stage stage = s->type == GL_VERTEX_SHADER ? Stage::vertex : s->type == GL_GEOMETRY_SHADER ? Stage::geometry : Stage::fragment;
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
    for (const auto& other : p->shaders)  // GLES: one shader object per stage
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
    if (color >= 4) return refuse(gen::Op::glBindFragDataLocation, GL_INVALID_VALUE, "color >= GL_MAX_DRAW_BUFFERS");
    if (n.rfind("gl_", 0) == 0) return refuse(gen::Op::glBindFragDataLocation, GL_INVALID_OPERATION, "name starts with gl_");
    p->bound_outputs[n] = color;
}

// Index 1 is dual-source blending, which Magma does not serve yet.
void MagmaBackend::glBindFragDataLocationIndexed(GLuint program, GLuint color, GLuint index, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glBindFragDataLocationIndexed)) return;
    if (index == 0) return glBindFragDataLocation(program, color, name);
    refuse(gen::Op::glBindFragDataLocationIndexed, index > 1 ? GL_INVALID_VALUE : GL_INVALID_OPERATION,
           "dual-source blending (index 1) is not served");
}

bool MagmaBackend::build_executable(Program& p, std::string& log_text) {
    const Shader *vs = nullptr, *fs = nullptr, *gs = nullptr;
    for (auto& s : p.shaders)
        (s->type == GL_VERTEX_SHADER ? vs : s->type == GL_GEOMETRY_SHADER ? gs : fs) = s.get();
    if (gs && !vs) {
        log_text = "a program with a geometry shader needs a vertex shader";
        return false;
    }
    // Desktop GL links a program without a fragment shader (GL 3.1 core:
    // what reaches the colour buffers is undefined; compatibility: the
    // fixed-function fragment stage, the interpolated colour). Magma's
    // stand-in, compiled like the application's.
    // A compatibility program with a fragment shader only gets the
    // fixed-function vertex stage. The stand-ins' text is the GL front end's.
    Shader stand_in;
    if (vs && !fs && cur_->desktop()) {
        const bool colour = cur_->profile != gl::kProfileCore && vs->source.find("gl_FrontColor") != std::string::npos;
        stand_in.type = GL_FRAGMENT_SHADER;
        stand_in.source = gl::fixed_function_fragment_glsl(colour);
        stand_in.compiled = true;
        fs = &stand_in;
    } else if (fs && !vs && !gs && cur_->desktop() && cur_->profile != gl::kProfileCore) {
        stand_in.type = GL_VERTEX_SHADER;
        stand_in.source = gl::fixed_function_vertex_glsl();
        stand_in.compiled = true;
        vs = &stand_in;
    }
    if (!vs || !fs) {
        log_text = "a program needs a vertex and a fragment shader";
        return false;
    }
    if (!vs->compiled || !fs->compiled || (gs && !gs->compiled)) {
        log_text = "an attached shader did not compile";
        return false;
    }
    if (!p.xfb.names.empty() && !gpu_->dev().xfb) {
        // Fail loudly: a GL error at the link and one log line (xfb_unavailable).
        log_text = "transform feedback needs VK_EXT_transform_feedback, which " + gpu_->dev().name + " lacks";
        xfb_unavailable(gen::Op::glLinkProgram);
        return false;
    }
    auto exe = std::make_shared<Executable>();
    if (!link_program(shader_api(), vs->source, gs ? &gs->source : nullptr, fs->source, p.xfb, p.bound_outputs,
                      exe->linked, log_text))
        return false;
    exe->gpu = gpu_.get();
    LinkedProgram& lp = exe->linked;
    auto module = [&](const std::vector<uint32_t>& code) {
        VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        ci.codeSize = code.size() * 4;
        ci.pCode = code.data();
        VkShaderModule m = VK_NULL_HANDLE;
        gpu_->check(vkCreateShaderModule(gpu_->vk(), &ci, nullptr, &m), "vkCreateShaderModule");
        return m;
    };
    // GL packs varyings into vec4 slots, Magma does not yet: past the device's
    // locations the link fails loudly (a device handed more crashed).
    if (!varyings_fit(lp, gpu_->dev().props.limits, log_text)) {
        log().warn("magma: program not linked: {}", log_text);
        return false;
    }
    const bool has_defaults = lp.default_binding >= 0 && lp.default_size > 0;
    if (gpu_->dev().default_block_storage && has_defaults) {
        // The vertex and geometry stages read the block as a storage buffer at
        // the next binding (both stages, or neither); the fragment stage as a
        // uniform buffer (spirv_default_storage.h).
        std::vector<uint32_t> code[2] = {lp.vs, lp.gs};
        bool all = true;
        for (auto& c : code)
            if (!c.empty() && default_block_to_storage(c, 1, uint32_t(lp.default_binding), uint32_t(lp.default_binding) + 1) ==
                                  StorageRewrite::kept)
                all = false;
        if (all) {
            lp.vs.swap(code[0]), lp.gs.swap(code[1]);
            exe->defaults_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        }
    }
    exe->vs = module(lp.vs);
    exe->fs = module(lp.fs);
    if (!lp.gs.empty()) exe->gs = module(lp.gs);
    // Flat inputs in the fragment shader (OpDecorate <id> Flat): its pipelines
    // take flat values from GL's provoking vertex, the last. SPIR-V: 5-word
    // header, then instructions of (word count << 16 | opcode).
    for (size_t i = 5; i < lp.fs.size();) {
        const uint32_t words = lp.fs[i] >> 16, op = lp.fs[i] & 0xFFFF;
        if (op == 71 /* OpDecorate */ && words >= 3 && i + 2 < lp.fs.size() && lp.fs[i + 2] == 14 /* Flat */) exe->flat = true;
        if (words == 0) break;
        i += words;
    }
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
                                      (lp.gs.empty() ? 0 : VK_SHADER_STAGE_GEOMETRY_BIT);
    // Set 1: the default block alone (shaders.cc puts it there): a dynamic
    // uniform buffer, or a uniform buffer (fragment) and a storage buffer
    // (vertex, geometry) holding one copy.
    const uint32_t db = uint32_t(std::max(lp.default_binding, 0));
    const bool storage = exe->defaults_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    const VkDescriptorSetLayoutBinding defaults[2] = {
        {db, storage ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1,
         storage ? VkShaderStageFlags(VK_SHADER_STAGE_FRAGMENT_BIT) : stages, nullptr},
        {db + 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages & ~VkShaderStageFlags(VK_SHADER_STAGE_FRAGMENT_BIT), nullptr}};
    VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = !has_defaults ? 0 : storage ? 2 : 1;
    dli.pBindings = defaults;
    gpu_->check(vkCreateDescriptorSetLayout(gpu_->vk(), &dli, nullptr, &exe->defaults_layout), "vkCreateDescriptorSetLayout");
    for (auto it = lp.uniforms.begin(); it != lp.uniforms.end(); ++it)
        if (it->name == gl::kDrawHeightUniform) {
            exe->draw_height_offset = it->offset;
            lp.uniforms.erase(it);
            break;
        }
    int next_location = 0;
    exe->sampler_units.resize(lp.uniforms.size());
    for (size_t i = 0; i < lp.uniforms.size(); ++i) {
        UniformInfo& u = lp.uniforms[i];
        // A sampler of a kind Magma has no images for (1D, rectangle, buffer,
        // cube array): the link fails, loudly, rather than binding a view of
        // another dimension.
        if (u.offset < 0 && u.binding >= 0 && !is_sampler(u.type)) {
            char type[16];
            std::snprintf(type, sizeof type, "0x%04X", u.type);
            log_text = "the sampler " + u.name + " (type " + type + ") is of a kind Magma does not serve yet";
            log().warn("magma: program not linked: {}", log_text);
            return false;
        }
        u.location = next_location;
        for (int e = 0; e < u.array_size; ++e) exe->locations.emplace_back(int(i), e);
        next_location += u.array_size;
        if (is_sampler(u.type) && u.binding >= 0) {
            bindings.push_back({uint32_t(u.binding), VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, uint32_t(u.array_size),
                                stages, nullptr});
            exe->sampler_units[i].assign(size_t(u.array_size), 0);
        }
    }
    for (const BlockInfo& b : lp.blocks)
        if (b.binding >= 0) bindings.push_back({uint32_t(b.binding), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, nullptr});
    exe->block_bindings.assign(lp.blocks.size(), 0);
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = uint32_t(bindings.size());
    li.pBindings = bindings.data();
    gpu_->check(vkCreateDescriptorSetLayout(gpu_->vk(), &li, nullptr, &exe->set_layout), "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    const VkDescriptorSetLayout sets[2] = {exe->set_layout, exe->defaults_layout};
    pli.setLayoutCount = 2;
    pli.pSetLayouts = sets;
    gpu_->check(vkCreatePipelineLayout(gpu_->vk(), &pli, nullptr, &exe->layout), "vkCreatePipelineLayout");
    if (!exe->vs || !exe->fs || !exe->layout || (!lp.gs.empty() && !exe->gs)) {
        log_text = "Vulkan refused the program's shader modules or layouts";
        return false;
    }
    exe->defaults.assign(size_t(std::max(lp.default_size, 0)), 0);
    if (cur_->desktop())  // GLSL ES has no uniform initialisers
        for (const Shader* s : {vs, gs, fs}) {
            if (!s || s == &stand_in) continue;
            const Stage st = s == vs ? Stage::vertex : s == gs ? Stage::geometry : Stage::fragment;
            if (std::string why = write_uniform_initialisers(st, s->source, cur_->served / 10, cur_->served % 10, lp, exe->defaults);
                !why.empty())
                log().warn("magma: uniform initialisers not written: {}", why);
        }
    // The lowered fixed-function state (compat_builtins.h) is the client's to
    // upload (client/src/compat/program_builtins.cc), identity included.
    // Attributes: glBindAttribLocation first, then each shader location if free.
    uint32_t used = 0;
    std::vector<const AttribInfo*> rest;
    for (const AttribInfo& a : lp.attribs) {
        auto it = p.bound_attribs.find(a.name);
        if (it == p.bound_attribs.end()) {
            rest.push_back(&a);
            continue;
        }
        exe->attrs.push_back({int(it->second), a.location, a.slots, a.type});
        for (int k = 0; k < a.slots; ++k) {
            // GLES 3.0 (2.12.5): binding two attributes to the same location fails the
            // link (ES 2.0 and desktop GL allow it while at most one of them is used).
            if (!cur_->desktop() && cur_->major >= 3 && ((used >> (it->second + k)) & 1)) {
                log_text = "attribute " + a.name + " aliases another attribute's location (glBindAttribLocation)";
                return false;
            }
            used |= 1u << (it->second + k);
        }
    }
    for (const AttribInfo* a : rest) {
        int idx = a->location;
        auto free_at = [&](int i) {
            for (int k = 0; k < a->slots; ++k)
                if (i + k >= 16 || (used >> (i + k)) & 1) return false;
            return true;
        };
        if (idx < 0 || !free_at(idx))
            for (idx = 0; idx < 16 && !free_at(idx); ++idx) {}
        if (idx >= 16) {
            log_text = "too many vertex attributes";
            return false;
        }
        exe->attrs.push_back({idx, a->location, a->slots, a->type});
        for (int k = 0; k < a->slots; ++k) used |= 1u << (idx + k);
    }
    p.exe = std::move(exe);
    return true;
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
    if (gpu_->dev().dynamic_vertex_input && resolve_target(t, true)) pipeline(*p->exe, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, {}, {}, {});
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
        case GL_ACTIVE_UNIFORMS: v = lp ? GLint(lp->uniforms.size()) : 0; break;
        case GL_ACTIVE_ATTRIBUTES: v = lp ? GLint(lp->attribs.size()) : 0; break;
        case GL_ACTIVE_UNIFORM_BLOCKS: v = lp ? GLint(lp->blocks.size()) : 0; break;
        case GL_ACTIVE_UNIFORM_MAX_LENGTH:
            if (lp)
                for (auto& u : lp->uniforms) v = std::max<GLint>(v, GLint(u.name.size() + (u.array_size > 1 ? 4 : 1)));
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
        // Desktop GL 3.2: the linked geometry shader's layout; INVALID_OPERATION without one.
        case GL_GEOMETRY_VERTICES_OUT:
        case GL_GEOMETRY_INPUT_TYPE:
        case GL_GEOMETRY_OUTPUT_TYPE:
        case GL_GEOMETRY_SHADER_INVOCATIONS:
            if (!cur_->desktop()) return refuse(gen::Op::glGetProgramiv, GL_INVALID_ENUM, "pname");
            if (!lp || lp->gs.empty())
                return refuse(gen::Op::glGetProgramiv, GL_INVALID_OPERATION, "the program has no linked geometry shader");
            v = pname == GL_GEOMETRY_VERTICES_OUT ? lp->gs_vertices
              : pname == GL_GEOMETRY_INPUT_TYPE ? GLint(lp->gs_input)
              : pname == GL_GEOMETRY_OUTPUT_TYPE ? GLint(lp->gs_output) : lp->gs_invocations;
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
        if (u.name == base && element < u.array_size) return u.location + element;
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
    if (!p || !p->exe || index >= p->exe->linked.uniforms.size())
        return refuse(gen::Op::glGetActiveUniform, GL_INVALID_VALUE, "index");
    const UniformInfo& u = p->exe->linked.uniforms[index];
    if (size.count()) size.data[0] = u.array_size;
    if (type.count()) type.data[0] = u.type;
    copy_string(u.array_size > 1 ? u.name + "[0]" : u.name, bufSize, length, name);
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

GLuint MagmaBackend::glGetUniformBlockIndex(GLuint program, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glGetUniformBlockIndex)) return GL_INVALID_INDEX;
    auto p = program_for(gen::Op::glGetUniformBlockIndex, program);
    if (!p || !p->exe) return GL_INVALID_INDEX;
    const std::string n = in_string(name);
    const auto& blocks = p->exe->linked.blocks;
    for (size_t i = 0; i < blocks.size(); ++i)
        if (blocks[i].name == n) return GLuint(i);
    return GL_INVALID_INDEX;
}

void MagmaBackend::glUniformBlockBinding(GLuint program, GLuint index, GLuint binding) {
    if (!need_context(gen::Op::glUniformBlockBinding)) return;
    auto p = program_for(gen::Op::glUniformBlockBinding, program);
    if (!p || !p->exe || index >= p->exe->block_bindings.size())
        return refuse(gen::Op::glUniformBlockBinding, GL_INVALID_VALUE, "block index");
    p->exe->block_bindings[index] = binding;
}

}  // namespace mgl::magma
