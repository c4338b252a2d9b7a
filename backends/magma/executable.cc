// The executable a link builds (build_executable): the attached shaders
// linked through glslang (shaders.h), or a desktop stand-in for a missing
// stage, their shader modules, the descriptor set and pipeline layouts, the
// default uniform block's bytes, uniform locations and attribute slots; and
// its release when the program lets it go.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdio>

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

}  // namespace

Executable::~Executable() {
    if (!gpu) return;
    VkShaderModule v = vs, f = fs, g = gs, c = cs, tc = tcs, te = tes;
    VkPipeline cp = compute;
    VkDescriptorSetLayout s = set_layout, ds = defaults_layout;
    VkPipelineLayout l = layout;
    std::vector<VkPipeline> ps;
    for (auto& [k, p] : pipelines) ps.push_back(p);
    gpu->defer([=](VkDevice d) {
        for (VkPipeline p : ps) vkDestroyPipeline(d, p, nullptr);
        if (v) vkDestroyShaderModule(d, v, nullptr);
        if (f) vkDestroyShaderModule(d, f, nullptr);
        if (g) vkDestroyShaderModule(d, g, nullptr);
        if (c) vkDestroyShaderModule(d, c, nullptr);
        if (tc) vkDestroyShaderModule(d, tc, nullptr);
        if (te) vkDestroyShaderModule(d, te, nullptr);
        if (cp) vkDestroyPipeline(d, cp, nullptr);
        if (l) vkDestroyPipelineLayout(d, l, nullptr);
        if (s) vkDestroyDescriptorSetLayout(d, s, nullptr);
        if (ds) vkDestroyDescriptorSetLayout(d, ds, nullptr);
    });
}

bool MagmaBackend::build_executable(Program& p, std::string& log_text) {
    for (auto& s : p.shaders)
        if (s->type == GL_COMPUTE_SHADER) return build_compute(p, *s, log_text);  // compute.cc
    // Each stage's shader objects (desktop GL: several to a stage, linked as
    // compilation units of one); vs, fs and gs: a stage's first.
    const Shader *vs = nullptr, *fs = nullptr, *gs = nullptr, *tcs = nullptr, *tes = nullptr;
    StageSources vs_srcs, fs_srcs, gs_srcs;
    TessSources tess;
    bool all_compiled = true;
    for (auto& s : p.shaders) {
        const GLenum t = s->type;
        const Shader*& first = t == GL_VERTEX_SHADER            ? vs
                               : t == GL_GEOMETRY_SHADER        ? gs
                               : t == GL_TESS_CONTROL_SHADER    ? tcs
                               : t == GL_TESS_EVALUATION_SHADER ? tes
                                                                : fs;
        if (!first) first = s.get();
        StageSources& srcs = t == GL_VERTEX_SHADER            ? vs_srcs
                             : t == GL_GEOMETRY_SHADER        ? gs_srcs
                             : t == GL_TESS_CONTROL_SHADER    ? tess.tcs
                             : t == GL_TESS_EVALUATION_SHADER ? tess.tes
                                                              : fs_srcs;
        srcs.push_back(s->source);
        all_compiled = all_compiled && s->compiled;
    }
    if ((gs || tcs || tes) && !vs) {
        log_text = "a program with a geometry or tessellation shader needs a vertex shader";
        return false;
    }
    // Vulkan tessellates with both stages or neither. A control stage alone
    // is refused loudly; an evaluation stage alone takes GL's default levels
    // (glPatchParameterfv), which needs a stand-in control stage per patch
    // size: not written yet.
    if (tcs && !tes) {
        log_text = "a tessellation control shader without an evaluation shader is not served by Magma yet";
        log().warn("magma: program not linked: {}", log_text);
        return false;
    }
    if (tes && !tcs) {
        log_text = "a tessellation evaluation shader without a control shader (GL's default patch levels) is not "
                   "served by Magma yet";
        log().warn("magma: program not linked: {}", log_text);
        return false;
    }
    // Desktop GL links a program without a fragment shader (GL 3.1 core:
    // what reaches the colour buffers is undefined; compatibility: the
    // fixed-function fragment stage, the interpolated colour). Magma's
    // stand-in, compiled like the application's.
    // A program with a fragment shader only gets the fixed-function vertex
    // stage (compatibility; core leaves the vertices undefined and links it:
    // the same stage stands in, as on Espryt). The stand-ins' text is the GL
    // front end's.
    Shader stand_in;
    if (vs && !fs && cur_->desktop()) {
        const bool colour = cur_->profile != gl::kProfileCore && vs->source.find("gl_FrontColor") != std::string::npos;
        stand_in.type = GL_FRAGMENT_SHADER;
        stand_in.source = gl::fixed_function_fragment_glsl(colour);
        stand_in.compiled = true;
        fs = &stand_in;
        fs_srcs = {stand_in.source};
    } else if (fs && !vs && !gs && !tcs && !tes && cur_->desktop()) {
        stand_in.type = GL_VERTEX_SHADER;
        stand_in.source = gl::fixed_function_vertex_glsl();
        stand_in.compiled = true;
        vs = &stand_in;
        vs_srcs = {stand_in.source};
    }
    if (!vs || !fs) {
        log_text = "a program needs a vertex and a fragment shader";
        return false;
    }
    if (!all_compiled) {
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
    // GL alpha-tests an application's program in a compatibility context;
    // the lowering's own fixed-function programs test alpha themselves.
    const bool alpha_test = gl::api_kind(cur_->api, cur_->profile, cur_->served) == gen::ApiKind::compat &&
                            !gl::fixed_function_source(fs_srcs);
    // Compatibility sources clip against the user clip planes where the
    // device writes 8 clip distances (as Espryt's host with GL_EXT_clip_cull_distance).
    const Device& dev = gpu_->dev();
    const bool clip_planes = shader_api() == Api::desktop && dev.features.shaderClipDistance &&
                             dev.props.limits.maxClipDistances >= uint32_t(gl::kMaxClipPlanes);
    if (!link_program(shader_api(), vs_srcs, tess, gs_srcs, fs_srcs, p.xfb, p.bound_outputs, alpha_test, clip_planes,
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
        std::vector<uint32_t> code[4] = {lp.vs, lp.gs, lp.tcs, lp.tes};
        bool all = true;
        for (auto& c : code)
            if (!c.empty() && default_block_to_storage(c, 1, uint32_t(lp.default_binding), uint32_t(lp.default_binding) + 1) ==
                                  StorageRewrite::kept)
                all = false;
        if (all) {
            lp.vs.swap(code[0]), lp.gs.swap(code[1]), lp.tcs.swap(code[2]), lp.tes.swap(code[3]);
            exe->defaults_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        }
    }
    exe->vs = module(lp.vs);
    exe->fs = module(lp.fs);
    if (!lp.gs.empty()) exe->gs = module(lp.gs);
    if (!lp.tcs.empty()) exe->tcs = module(lp.tcs);
    if (!lp.tes.empty()) exe->tes = module(lp.tes);
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
    const VkShaderStageFlags stages =
        VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT | (lp.gs.empty() ? 0 : VK_SHADER_STAGE_GEOMETRY_BIT) |
        (lp.tcs.empty() ? 0 : VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) |
        (lp.tes.empty() ? 0 : VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT);
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
    // The hidden uniforms the draw sets (driver_uniforms.h): not the application's.
    for (auto it = lp.uniforms.begin(); it != lp.uniforms.end();) {
        if (it->name == gl::kDrawHeightUniform) exe->draw_height_offset = it->offset;
        else if (it->name == gl::kAlphaTestUniform) exe->alpha_test_offset = it->offset;
        else if (it->name == gl::kPointSizeUniform) exe->point_size_offset = it->offset;
        else if (it->name == gl::kPointOriginUniform) exe->point_origin_offset = it->offset;
        else if (it->name == gl::kBaseInstanceUniform) exe->base_instance_offset = it->offset;
        else if (it->name == gl::kClipPlaneUniform && it->array_size == gl::kMaxClipPlanes && it->array_stride == 16)
            exe->clip_plane_offset = it->offset;
        else {
            ++it;
            continue;
        }
        it = lp.uniforms.erase(it);
    }
    if (alpha_test && exe->alpha_test_offset < 0)
        log().warn("magma: a linked program has no float colour 0 in its fragment source's main object: "
                   "GL_ALPHA_TEST will not apply to it");
    int next_location = 0;
    exe->sampler_units.resize(lp.uniforms.size());
    for (size_t i = 0; i < lp.uniforms.size(); ++i) {
        UniformInfo& u = lp.uniforms[i];
        // A sampler of a kind Magma has no images for (1D, rectangle, buffer,
        // cube array): the link fails, loudly, rather than binding a view of
        // another dimension.
        if (u.offset < 0 && u.binding >= 0 && !is_sampler(u.type) && !(is_image(u.type) && image_limits(gpu_->dev()).served)) {
            char type[16];
            std::snprintf(type, sizeof type, "0x%04X", u.type);
            log_text = "the sampler " + u.name + " (type " + type + ") is of a kind Magma does not serve yet";
            log().warn("magma: program not linked: {}", log_text);
            return false;
        }
        if (u.counter_buffer >= 0) continue;  // atomic counters have no location (GL 4.6 §7.6)
        u.location = next_location;
        for (int e = 0; e < u.array_size; ++e) exe->locations.emplace_back(int(i), e);
        next_location += u.array_size;
        if (is_sampler(u.type) && u.binding >= 0) {
            bindings.push_back({uint32_t(u.binding), VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, uint32_t(u.array_size),
                                stages, nullptr});
            exe->sampler_units[i].assign(size_t(u.array_size), 0);
        } else if (is_image(u.type) && u.binding >= 0) {
            // An image uniform: a storage image at its image unit (images.cc),
            // the units starting at its layout(binding), one per element.
            bindings.push_back({uint32_t(u.binding), VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, uint32_t(u.array_size), stages, nullptr});
            exe->sampler_units[i].resize(size_t(u.array_size));
            for (int e = 0; e < u.array_size; ++e) exe->sampler_units[i][size_t(e)] = u.unit + e;
        }
    }
    for (const BlockInfo& b : lp.blocks)
        if (b.binding >= 0) bindings.push_back({uint32_t(b.binding), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, nullptr});
    // Each block starts at the binding point its source gave (layout(binding = N)), else 0.
    exe->block_bindings.clear();
    for (const BlockInfo& b : lp.blocks) exe->block_bindings.push_back(GLuint(std::max(b.initial, 0)));
    // Storage blocks in graphics stages: the device must let those stages
    // write (GLSL lets any of them), else the link fails loudly.
    if (!lp.storage.empty() && !(gpu_->dev().features.vertexPipelineStoresAndAtomics &&
                                 gpu_->dev().features.fragmentStoresAndAtomics)) {
        log_text = "shader storage blocks outside compute shaders need vertexPipelineStoresAndAtomics and "
                   "fragmentStoresAndAtomics, which " + gpu_->dev().name + " lacks";
        log().warn("magma: program not linked: {}", log_text);
        return false;
    }
    log_text = add_storage_bindings(*exe, gpu_->dev(), stages, bindings);
    if (!log_text.empty()) {
        log().warn("magma: program not linked: {}", log_text);
        return false;
    }
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = uint32_t(bindings.size());
    li.pBindings = bindings.data();
    gpu_->check(vkCreateDescriptorSetLayout(gpu_->vk(), &li, nullptr, &exe->set_layout), "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    const VkDescriptorSetLayout sets[2] = {exe->set_layout, exe->defaults_layout};
    pli.setLayoutCount = 2;
    pli.pSetLayouts = sets;
    gpu_->check(vkCreatePipelineLayout(gpu_->vk(), &pli, nullptr, &exe->layout), "vkCreatePipelineLayout");
    if (!exe->vs || !exe->fs || !exe->layout || (!lp.gs.empty() && !exe->gs) || (!lp.tcs.empty() && !exe->tcs) ||
        (!lp.tes.empty() && !exe->tes)) {
        log_text = "Vulkan refused the program's shader modules or layouts";
        return false;
    }
    exe->defaults.assign(size_t(std::max(lp.default_size, 0)), 0);
    if (cur_->desktop())  // GLSL ES has no uniform initialisers
        for (const Shader* s : {vs, gs, fs}) {  // each stage's first object (the others: not yet)
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

std::string add_storage_bindings(Executable& exe, const Device& dev, VkShaderStageFlags stages,
                                 std::vector<VkDescriptorSetLayoutBinding>& bindings) {
    for (const BlockInfo& b : exe.linked.storage) {
        if (b.binding >= 0) bindings.push_back({uint32_t(b.binding), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr});
        exe.storage_bindings.push_back(GLuint(std::max(b.initial, 0)));
    }
    // Atomic counter buffers: storage buffers at the bindings glslang gave
    // their blocks, within the device's binding points.
    for (const CounterBufferInfo& b : exe.linked.counter_buffers) {
        if (uint32_t(b.gl_binding) >= counter_limits(dev).bindings)
            return "atomic counter binding " + std::to_string(b.gl_binding) +
                   " is not below GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS on " + dev.name;
        if (b.binding >= 0) bindings.push_back({uint32_t(b.binding), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr});
    }
    return {};
}

}  // namespace mgl::magma
