// glClear with a partial color mask (glColorMask with some channels off):
// Vulkan's clears (loadOp CLEAR, vkCmdClearAttachments) write every channel,
// so the color is drawn instead: one triangle over the scissored rectangle
// with the GL color mask as the pipeline's write mask, depth and stencil
// untouched, the color from a push constant. Helper shaders and pipelines
// are Magma's own (one per render pass, mask and attachment count), apart
// from the programs' pipeline cache.
#include <cstring>

#include "backend.h"

namespace mgl::magma {

namespace {

const char* kClearVs =
    "#version 450\n"
    "void main() {\n"
    "    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));\n"
    "    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

// A fragment shader writing the color to outputs 0..n-1.
std::string clear_fs(int n) {
    std::string s = "#version 450\nlayout(push_constant) uniform C { vec4 color; } pc;\n";
    for (int i = 0; i < n; ++i) s += "layout(location = " + std::to_string(i) + ") out vec4 o" + std::to_string(i) + ";\n";
    s += "void main() {\n";
    for (int i = 0; i < n; ++i) s += "    o" + std::to_string(i) + " = pc.color;\n";
    return s + "}\n";
}

}  // namespace

VkPipeline MagmaBackend::masked_clear_pipeline(const Target& t, uint32_t ncolor, uint8_t write_mask) {
    MaskedClear& m = masked_clear_;
    VkDevice dev = gpu_->vk();
    auto module = [&](Stage stage, const std::string& src) {
        std::string log;
        const std::vector<uint32_t> spv = compile_internal(stage, src, log);
        VkShaderModule mod = VK_NULL_HANDLE;
        if (spv.empty()) {
            this->log().error("magma: the masked clear's shader does not compile: {}", log);
            return mod;
        }
        VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        ci.codeSize = spv.size() * 4;
        ci.pCode = spv.data();
        gpu_->check(vkCreateShaderModule(dev, &ci, nullptr, &mod), "vkCreateShaderModule");
        return mod;
    };
    if (!m.vs) m.vs = module(Stage::vertex, kClearVs);
    if (!m.fs[ncolor - 1]) m.fs[ncolor - 1] = module(Stage::fragment, clear_fs(int(ncolor)));
    if (!m.layout) {
        VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
        VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        li.pushConstantRangeCount = 1;
        li.pPushConstantRanges = &range;
        gpu_->check(vkCreatePipelineLayout(dev, &li, nullptr, &m.layout), "vkCreatePipelineLayout");
    }
    if (!m.vs || !m.fs[ncolor - 1] || !m.layout) return VK_NULL_HANDLE;
    const VkRenderPass pass = gpu_->render_pass(t.key);
    const std::array<uint64_t, 2> key{uint64_t(pass), uint64_t(write_mask) | uint64_t(t.draw_mask) << 4 | uint64_t(ncolor) << 12};
    auto it = m.pipelines.find(key);
    if (it != m.pipelines.end()) return it->second;

    VkPipelineShaderStageCreateInfo stages[2]{};
    stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, m.vs, "main", nullptr};
    stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
                 m.fs[ncolor - 1], "main", nullptr};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = 1;
    vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = t.key.samples;
    VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};  // all off
    VkPipelineColorBlendAttachmentState cba[kMaxColorAttachments]{};
    for (uint32_t i = 0; i < ncolor; ++i) cba[i].colorWriteMask = (t.draw_mask >> i & 1) ? write_mask : 0;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = ncolor;
    cb.pAttachments = cba;
    const VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dy.dynamicStateCount = 2;
    dy.pDynamicStates = dyn;
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    ci.stageCount = 2;
    ci.pStages = stages;
    ci.pVertexInputState = &vi;
    ci.pInputAssemblyState = &ia;
    ci.pViewportState = &vp;
    ci.pRasterizationState = &rs;
    ci.pMultisampleState = &ms;
    ci.pDepthStencilState = &ds;
    ci.pColorBlendState = &cb;
    ci.pDynamicState = &dy;
    ci.layout = m.layout;
    ci.renderPass = pass;
    VkPipeline p = VK_NULL_HANDLE;
    gpu_->check(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &p), "vkCreateGraphicsPipelines");
    gpu_->count_pipeline();
    m.pipelines[key] = p;
    return p;
}

bool MagmaBackend::clear_color_masked(Target& t, int x0, int y0, int x1, int y1) {
    const State& s = cur_->st;
    uint32_t ncolor = 0;
    for (uint32_t i = 0; i < uint32_t(kMaxColorAttachments); ++i) {
        if (t.key.color[i] == VK_FORMAT_UNDEFINED || !(t.draw_mask >> i & 1)) continue;
        // Integer buffers would need integer outputs: not drawn (the caller says so).
        if (is_integer_format(t.key.color[i])) return false;
        ncolor = i + 1;
    }
    if (ncolor == 0) return true;  // no color buffer is drawn to
    const uint8_t write_mask = uint8_t(s.color_mask[0] | s.color_mask[1] << 1 | s.color_mask[2] << 2 | s.color_mask[3] << 3);
    const VkPipeline p = masked_clear_pipeline(t, ncolor, write_mask);
    if (!p) return false;
    // A clear counts no samples: an active occlusion query's Vulkan query
    // covers the whole open pass, so the clear draws in a pass of its own.
    if (cur_->occlusion) {
        gpu_->end_pass();
        open_id_ = nullptr;
    }
    if (!ensure_pass(t)) return false;
    VkCommandBuffer cb = gpu_->main();
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
    const VkViewport vp{0, 0, float(t.width), float(t.height), 0.0f, 1.0f};
    vkCmdSetViewport(cb, 0, 1, &vp);
    const VkRect2D sc{{x0, y0}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
    vkCmdSetScissor(cb, 0, 1, &sc);
    vkCmdPushConstants(cb, masked_clear_.layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16, s.clear_color);
    vkCmdDraw(cb, 3, 1, 0, 0);
    // The draw path records only what changed since its last draw: it must
    // not take this pipeline and dynamic state for its own.
    recorded_ = Recorded{};
    return true;
}

void MagmaBackend::release_masked_clear() {
    MaskedClear& m = masked_clear_;
    std::vector<VkPipeline> pipelines;
    for (auto& [key, p] : m.pipelines) pipelines.push_back(p);
    std::vector<VkShaderModule> modules{m.vs};
    modules.insert(modules.end(), std::begin(m.fs), std::end(m.fs));
    const VkPipelineLayout layout = m.layout;
    gpu_->defer([pipelines, modules, layout](VkDevice d) {
        for (VkPipeline p : pipelines) vkDestroyPipeline(d, p, nullptr);
        for (VkShaderModule s : modules)
            if (s) vkDestroyShaderModule(d, s, nullptr);
        if (layout) vkDestroyPipelineLayout(d, layout, nullptr);
    });
    m = MaskedClear{};
}

}  // namespace mgl::magma
