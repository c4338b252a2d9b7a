// Compute (desktop contexts, GL_ARB_compute_shader and
// GL_ARB_shader_storage_buffer_object): a compute program's executable and
// its one VkPipeline (made at link, kept with the executable as graphics
// pipelines are), dispatches (direct and indirect) recorded outside render
// passes between full barriers, storage block bindings, glMemoryBarrier.
// GL's rules (errors) are the GL front end's (backends/gl/state/compute_rules.h).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>

#include "backend.h"
#include "compute_rules.h"
#include "uniform_defaults.h"

namespace mgl::magma {

namespace {

// glslang's built-in constants for compute (shaders.cc takes its defaults):
// what a query answers stays within them and within the device.
constexpr uint32_t kGlslangGroupSize[3] = {1024, 1024, 64};
constexpr uint32_t kGlslangGroupCount = 65535;
constexpr uint32_t kGlslangInvocations = 1024;

void full_barrier(VkCommandBuffer cb) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0,
                         nullptr, 0, nullptr);
}

}  // namespace

gl::ComputeLimits MagmaBackend::compute_limits() const {
    const VkPhysicalDeviceLimits& l = gpu_->dev().props.limits;
    gl::ComputeLimits c;
    for (int i = 0; i < 3; ++i) c.group_count[i] = std::min(l.maxComputeWorkGroupCount[i], kGlslangGroupCount);
    c.storage_bindings = uint32_t(std::min<size_t>(Context::kStorageBindings, l.maxDescriptorSetStorageBuffers));
    c.storage_alignment = uint32_t(std::max<VkDeviceSize>(l.minStorageBufferOffsetAlignment, 4));
    return c;
}

// The limits a desktop context answers for compute and storage blocks
// (state_queries.cc asks here first). false: not one of them.
bool compute_limit(const Device& d, GLenum pname, GLuint index, bool indexed, int64_t* v) {
    const VkPhysicalDeviceLimits& l = d.props.limits;
    if (indexed) {
        if (index > 2) return false;
        switch (pname) {
            case GL_MAX_COMPUTE_WORK_GROUP_COUNT: *v = std::min(l.maxComputeWorkGroupCount[index], kGlslangGroupCount); return true;
            case GL_MAX_COMPUTE_WORK_GROUP_SIZE: *v = std::min(l.maxComputeWorkGroupSize[index], kGlslangGroupSize[index]); return true;
            default: return false;
        }
    }
    const int64_t graphics_blocks = d.features.vertexPipelineStoresAndAtomics && d.features.fragmentStoresAndAtomics ? 8 : 0;
    switch (pname) {
        case GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS: *v = std::min(l.maxComputeWorkGroupInvocations, kGlslangInvocations); return true;
        case GL_MAX_COMPUTE_SHARED_MEMORY_SIZE: *v = std::min<int64_t>(l.maxComputeSharedMemorySize, 32768); return true;
        case GL_MAX_COMPUTE_UNIFORM_BLOCKS: *v = 12; return true;
        case GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS: *v = 16; return true;
        case GL_MAX_COMPUTE_UNIFORM_COMPONENTS: *v = 1024; return true;
        case GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS: *v = 1024 + 12 * 16384; return true;
        case GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS: *v = std::min<int64_t>(l.maxPerStageDescriptorStorageBuffers, 8); return true;
        case GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS:
        case GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS:
        case GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS: *v = graphics_blocks; return true;
        case GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS:
        case GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS: *v = 0; return true;
        case GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS:
            *v = std::min<int64_t>(l.maxDescriptorSetStorageBuffers, Context::kStorageBindings);
            return true;
        case GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES: *v = Context::kStorageBindings + 4; return true;
        case GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS:
            *v = std::min<int64_t>(l.maxDescriptorSetStorageBuffers, Context::kStorageBindings);
            return true;
        case GL_MAX_SHADER_STORAGE_BLOCK_SIZE: *v = std::min<int64_t>(l.maxStorageBufferRange, int64_t(1) << 27); return true;
        case GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT:
            *v = int64_t(std::max<VkDeviceSize>(l.minStorageBufferOffsetAlignment, 4));
            return true;
        default: return false;
    }
}

bool MagmaBackend::build_compute(Program& p, const Shader& cs, std::string& log_text) {
    if (!gpu_->dev().compute) {
        // Fail loudly: the link fails with a log line (and the extension is not listed).
        log_text = "compute shaders need a queue that runs compute, which " + gpu_->dev().name + " lacks";
        log().warn("magma: program not linked: {}", log_text);
        return false;
    }
    if (p.shaders.size() > 1) {
        log_text = "a program with a compute shader can have no other shader stage";
        return false;
    }
    if (!cs.compiled) {
        log_text = "an attached shader did not compile";
        return false;
    }
    auto exe = std::make_shared<Executable>();
    if (!link_compute(shader_api(), cs.source, exe->linked, log_text)) return false;
    exe->gpu = gpu_.get();
    LinkedProgram& lp = exe->linked;
    const VkPhysicalDeviceLimits& l = gpu_->dev().props.limits;
    uint64_t invocations = 1;
    for (int i = 0; i < 3; ++i) {
        invocations *= lp.local_size[i];
        if (lp.local_size[i] > std::min(l.maxComputeWorkGroupSize[i], kGlslangGroupSize[i])) {
            log_text = "the local size exceeds GL_MAX_COMPUTE_WORK_GROUP_SIZE";
            return false;
        }
    }
    if (invocations == 0) {
        log_text = "a compute shader must declare its local size (layout(local_size_x = ...) in)";
        return false;
    }
    if (invocations > std::min(l.maxComputeWorkGroupInvocations, kGlslangInvocations)) {
        log_text = "the local size exceeds GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS";
        return false;
    }
    if (lp.storage.size() > size_t(std::min<uint32_t>(l.maxPerStageDescriptorStorageBuffers, 8))) {
        log_text = "too many shader storage blocks (GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS)";
        return false;
    }
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = lp.cs.size() * 4;
    mi.pCode = lp.cs.data();
    gpu_->check(vkCreateShaderModule(gpu_->vk(), &mi, nullptr, &exe->cs), "vkCreateShaderModule");
    const VkShaderStageFlags stage = VK_SHADER_STAGE_COMPUTE_BIT;
    // Set 1: the default block (a dynamic uniform buffer), as for graphics.
    const bool has_defaults = lp.default_binding >= 0 && lp.default_size > 0;
    const VkDescriptorSetLayoutBinding defaults{uint32_t(std::max(lp.default_binding, 0)),
                                                VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, stage, nullptr};
    VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = has_defaults ? 1 : 0;
    dli.pBindings = &defaults;
    gpu_->check(vkCreateDescriptorSetLayout(gpu_->vk(), &dli, nullptr, &exe->defaults_layout), "vkCreateDescriptorSetLayout");
    // Set 0: samplers, uniform blocks, storage blocks.
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    int next_location = 0;
    exe->sampler_units.resize(lp.uniforms.size());
    for (size_t i = 0; i < lp.uniforms.size(); ++i) {
        UniformInfo& u = lp.uniforms[i];
        if (u.counter_buffer >= 0) continue;  // atomic counters have no location (GL 4.6 §7.6)
        u.location = next_location;
        for (int e = 0; e < u.array_size; ++e) exe->locations.emplace_back(int(i), e);
        next_location += u.array_size;
        if (u.offset < 0 && u.binding >= 0 && is_image(u.type)) {
            if (!image_limits(gpu_->dev()).served) {
                log_text = "the image uniform " + u.name + " needs image load/store, which " + gpu_->dev().name + " lacks";
                log().warn("magma: program not linked: {}", log_text);
                return false;
            }
            // A storage image at its image unit (images.cc), from its layout(binding).
            bindings.push_back({uint32_t(u.binding), VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, uint32_t(u.array_size), stage, nullptr});
            exe->sampler_units[i].resize(size_t(u.array_size));
            for (int e = 0; e < u.array_size; ++e) exe->sampler_units[i][size_t(e)] = u.unit + e;
        } else if (u.offset < 0 && u.binding >= 0) {
            bindings.push_back({uint32_t(u.binding), VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, uint32_t(u.array_size),
                                stage, nullptr});
            exe->sampler_units[i].assign(size_t(u.array_size), 0);
        }
    }
    for (const BlockInfo& b : lp.blocks)
        if (b.binding >= 0) bindings.push_back({uint32_t(b.binding), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stage, nullptr});
    // Each block starts at the binding point its source gave (layout(binding = N)), else 0.
    exe->block_bindings.clear();
    for (const BlockInfo& b : lp.blocks) exe->block_bindings.push_back(GLuint(std::max(b.initial, 0)));
    log_text = add_storage_bindings(*exe, gpu_->dev(), stage, bindings);
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
    if (!exe->cs || !exe->layout) {
        log_text = "Vulkan refused the compute shader's module or layouts";
        return false;
    }
    exe->defaults.assign(size_t(std::max(lp.default_size, 0)), 0);
    if (cur_->desktop())
        if (std::string why = write_uniform_initialisers(Stage::compute, cs.source, cur_->served / 10, cur_->served % 10, lp, exe->defaults);
            !why.empty())
            log().warn("magma: uniform initialisers not written: {}", why);
    // The one pipeline a compute program has: made now, kept with the executable.
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = exe->cs;
    ci.stage.pName = "main";
    ci.layout = exe->layout;
    {
        Gpu::Timed t(*gpu_, &Counters::pipeline_us);
        if (!gpu_->check(vkCreateComputePipelines(gpu_->vk(), VK_NULL_HANDLE, 1, &ci, nullptr, &exe->compute),
                         "vkCreateComputePipelines")) {
            log_text = "Vulkan refused the compute pipeline";
            return false;
        }
    }
    gpu_->count_pipeline();
    p.exe = std::move(exe);
    return true;
}

void MagmaBackend::dispatch(gen::Op verb, Executable& exe, const uint32_t groups[3]) {
    bound_stream();
    std::vector<SampledImage> images;
    if (!draw_textures(verb, exe, images)) return;
    if (!draw_descriptors(verb, exe, images)) return;
    const uint64_t serial = gpu_->serial();
    for (const SampledImage& b : images)
        if (b.img) b.img->used_serial = serial;
    // Outside any render pass, behind a full barrier (main_outside), and
    // followed by one: whatever reads what the dispatch wrote (a draw, a
    // copy, the host after the batch) sees it, with or without glMemoryBarrier.
    VkCommandBuffer cb = gpu_->main_outside();
    open_id_ = nullptr;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, exe.compute);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, exe.layout, 0, 1, &exe.set, 0, nullptr);
    if (!exe.defaults.empty()) {
        const uint32_t off = exe.defaults_offset;
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, exe.layout, 1, 1, &exe.defaults_set, 1, &off);
    }
    vkCmdDispatch(cb, groups[0], groups[1], groups[2]);
    full_barrier(cb);
}

void MagmaBackend::glDispatchCompute(GLuint x, GLuint y, GLuint z) {
    constexpr gen::Op op = gen::Op::glDispatchCompute;
    if (!need_context(op)) return;
    Executable* exe = current_exe();
    const uint32_t groups[3] = {x, y, z};
    if (const gl::RuleError e = gl::check_dispatch(exe != nullptr, exe && exe->compute, groups, compute_limits()))
        return refuse(op, e.error, e.why);
    if (!x || !y || !z) return;
    dispatch(op, *exe, groups);
}

void MagmaBackend::glDispatchComputeIndirect(GLintptr indirect) {
    constexpr gen::Op op = gen::Op::glDispatchComputeIndirect;
    if (!need_context(op)) return;
    Executable* exe = current_exe();
    Buffer* b = cur_->dispatch_indirect.get();
    if (const gl::RuleError e = gl::check_dispatch_indirect(exe != nullptr, exe && exe->compute, int64_t(indirect),
                                                            b && b->vk.buf, b ? b->size : 0))
        return refuse(op, e.error, e.why);
    // The counts are read here, not by the device: counts past
    // GL_MAX_COMPUTE_WORK_GROUP_COUNT are undefined in GL and invalid in
    // Vulkan, so they never reach it (the dispatch is dropped with a log
    // line). A dispatch or copy of this batch that wrote the buffer is waited
    // for (host_bytes): correct, at the cost of a stall.
    const uint8_t* bytes = host_bytes(*b);
    if (!bytes) return set_error(GL_OUT_OF_MEMORY);
    uint32_t groups[3];
    std::memcpy(groups, bytes + indirect, sizeof groups);
    const gl::ComputeLimits lim = compute_limits();
    for (int i = 0; i < 3; ++i)
        if (groups[i] > lim.group_count[i]) {
            log().warn("magma: glDispatchComputeIndirect: work group count {} exceeds the maximum {}: not dispatched",
                       groups[i], lim.group_count[i]);
            return;
        }
    if (!groups[0] || !groups[1] || !groups[2]) return;
    dispatch(op, *exe, groups);
}

void MagmaBackend::glMemoryBarrier(GLbitfield barriers) {
    constexpr gen::Op op = gen::Op::glMemoryBarrier;
    if (!need_context(op)) return;
    if (const gl::RuleError e = gl::check_memory_barrier(barriers)) return refuse(op, e.error, e.why);
    // Dispatches carry full barriers on both sides; what is left is storage
    // written by draws of the open render pass: the pass ends behind a full
    // barrier (main_outside), the next draw opens another (conservative).
    if (gpu_->in_pass()) {
        gpu_->main_outside();
        open_id_ = nullptr;
    }
}

void MagmaBackend::glShaderStorageBlockBinding(GLuint program, GLuint block, GLuint binding) {
    constexpr gen::Op op = gen::Op::glShaderStorageBlockBinding;
    if (!need_context(op)) return;
    auto p = program_for(op, program);
    if (!p) return;
    if (!p->exe) return refuse(op, GL_INVALID_VALUE, "the program is not linked: it has no active storage blocks");
    if (const gl::RuleError e = gl::check_storage_block_binding(block, uint32_t(p->exe->storage_bindings.size()), binding,
                                                                compute_limits()))
        return refuse(op, e.error, e.why);
    p->exe->storage_bindings[block] = binding;
}

}  // namespace mgl::magma
