// Graphics pipelines: the GL state baked into one (PipelineState, the cache
// key per program) and their creation.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "backend.h"
#include "gl_to_vk.h"

namespace mgl::magma {

namespace {

// The state a pipeline is built from, as plain bytes (the cache key).
struct PipelineState {
    uint8_t topology, primitive_restart, cull, front_ccw, rasterizer_discard, depth_bias;
    uint8_t depth_test, depth_write, depth_func, stencil_test;
    uint8_t stencil_ops[2][4];
    uint8_t blend, color_mask, draw_mask;
    uint8_t alpha_to_coverage, sample_mask;
    uint8_t patch_vertices;  // GL_PATCH_VERTICES of a tessellating program's draws (0: none)
    uint8_t depth_clamp, provoking_first;  // desktop GL_DEPTH_CLAMP, GL_FIRST_VERTEX_CONVENTION (flat programs)  // multisampled targets only (GL ignores both otherwise)
    uint16_t blend_factors[4];
    uint16_t blend_ops[2];
    uint64_t render_pass;
};

}  // namespace

VkPipeline MagmaBackend::pipeline(Executable& exe, const Target& t, VkPrimitiveTopology topo,
                                  const std::string& vertex_key,
                                  const std::vector<VkVertexInputBindingDescription>& bindings,
                                  const std::vector<VkVertexInputAttributeDescription>& attrs) {
    const State& s = cur_->st;
    PipelineState ps;
    std::memset(&ps, 0, sizeof ps);
    ps.topology = uint8_t(topo);
    const bool strip = topo == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP || topo == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ||
                       topo == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
    // ES's fixed-index restart, or desktop restart (its index mapped to all ones: draw_vertex.cc).
    const bool restart = s.primitive_restart || (cur_->desktop() && cur_->dstate.primitive_restart);
    ps.primitive_restart = restart && (strip || topo == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY ||
                                       topo == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY);
    ps.depth_clamp = s.depth_clamp;
    if (exe.tes) ps.patch_vertices = uint8_t(cur_->patch.vertices);
    ps.provoking_first = exe.flat && cur_->dstate.provoking_vertex == 0x8E4D;
    ps.cull = s.cull ? uint8_t(s.cull_face == GL_FRONT ? 1 : s.cull_face == GL_BACK ? 2 : 3) : 0;
    ps.front_ccw = s.front_face == GL_CCW;
    ps.rasterizer_discard = s.rasterizer_discard;
    ps.depth_bias = s.polygon_offset;
    ps.depth_test = s.depth_test && t.has_depth;
    ps.depth_write = ps.depth_test && s.depth_mask;
    ps.depth_func = uint8_t(compare(s.depth_func));
    ps.stencil_test = s.stencil_test && t.has_stencil;
    for (int i = 0; i < 2; ++i) {
        ps.stencil_ops[i][0] = uint8_t(stencil_op(s.stencil[i].fail));
        ps.stencil_ops[i][1] = uint8_t(stencil_op(s.stencil[i].zfail));
        ps.stencil_ops[i][2] = uint8_t(stencil_op(s.stencil[i].zpass));
        ps.stencil_ops[i][3] = uint8_t(compare(s.stencil[i].func));
    }
    ps.blend = s.blend;
    if (s.blend) {
        ps.blend_factors[0] = uint16_t(blend_factor(s.blend_src_rgb));
        ps.blend_factors[1] = uint16_t(blend_factor(s.blend_dst_rgb));
        ps.blend_factors[2] = uint16_t(blend_factor(s.blend_src_a));
        ps.blend_factors[3] = uint16_t(blend_factor(s.blend_dst_a));
        ps.blend_ops[0] = uint16_t(blend_op(s.blend_eq_rgb));
        ps.blend_ops[1] = uint16_t(blend_op(s.blend_eq_a));
    }
    const Device& dev = gpu_->dev();
    if (dev.dynamic_state) {
        // Set per draw (see draw()): only the topology's class stays in the key.
        ps.topology = uint8_t(topology_class(topo));
        ps.cull = ps.front_ccw = 0;
        ps.depth_test = ps.depth_write = ps.depth_func = ps.stencil_test = 0;
        std::memset(ps.stencil_ops, 0, sizeof ps.stencil_ops);
    }
    ps.color_mask = uint8_t(s.color_mask[0] | s.color_mask[1] << 1 | s.color_mask[2] << 2 | s.color_mask[3] << 3);
    ps.draw_mask = t.draw_mask;
    ps.sample_mask = 0xFF;
    if (t.key.samples > 1) {
        ps.alpha_to_coverage = s.alpha_to_coverage;
        // GL_SAMPLE_COVERAGE: round(value * samples) samples, inverted on request.
        if (s.sample_coverage) {
            const int n = int(s.coverage_value * float(t.key.samples) + 0.5f);
            const uint8_t m = uint8_t((1u << n) - 1);
            ps.sample_mask = uint8_t(s.coverage_invert ? ~m : m) & uint8_t((1u << t.key.samples) - 1);
        }
        if (s.sample_mask) ps.sample_mask &= uint8_t(s.sample_mask_value);  // GL_SAMPLE_MASK
    }
    const VkRenderPass pass = gpu_->render_pass(t.key);
    ps.render_pass = uint64_t(pass);
    std::string key;
    key.reserve(sizeof ps + vertex_key.size());
    append(key, &ps, sizeof ps);
    if (!dev.dynamic_vertex_input) key += vertex_key;
    auto it = exe.pipelines.find(key);
    if (it != exe.pipelines.end()) return it->second;

    VkPipelineShaderStageCreateInfo stages[5]{};
    stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, exe.vs, "main", nullptr};
    stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, exe.fs, "main", nullptr};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vi.vertexBindingDescriptionCount = uint32_t(bindings.size());
    vi.pVertexBindingDescriptions = bindings.data();
    vi.vertexAttributeDescriptionCount = uint32_t(attrs.size());
    vi.pVertexAttributeDescriptions = attrs.data();
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = topo;
    ia.primitiveRestartEnable = ps.primitive_restart;
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = 1;
    vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.rasterizerDiscardEnable = ps.rasterizer_discard;
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = ps.cull == 1 ? VK_CULL_MODE_FRONT_BIT : ps.cull == 2 ? VK_CULL_MODE_BACK_BIT
                : ps.cull == 3 ? VK_CULL_MODE_FRONT_AND_BACK : VK_CULL_MODE_NONE;
    // Image row 0 is GL's bottom row: the y axis is mirrored relative to
    // Vulkan's convention, so GL's counter-clockwise is Vulkan's clockwise.
    rs.frontFace = ps.front_ccw ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
    rs.depthBiasEnable = ps.depth_bias;
    rs.depthClampEnable = ps.depth_clamp;
    rs.lineWidth = 1.0f;
    VkPipelineRasterizationProvokingVertexStateCreateInfoEXT pv{
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
    // GL's flat shading, only where it matters: the vertex order it implies
    // can change how attributes round on shared edges.
    pv.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
    // Vulkan's default is the first vertex (desktop GL_FIRST_VERTEX_CONVENTION).
    if (gpu_->dev().provoking_last && exe.flat && !ps.provoking_first) rs.pNext = &pv;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = t.key.samples;  // the render pass's (in the key through its handle)
    ms.alphaToCoverageEnable = ps.alpha_to_coverage;
    const VkSampleMask sample_mask = ps.sample_mask;
    ms.pSampleMask = &sample_mask;
    VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.depthTestEnable = ps.depth_test;
    ds.depthWriteEnable = ps.depth_write;
    ds.depthCompareOp = VkCompareOp(ps.depth_func);
    ds.stencilTestEnable = ps.stencil_test;
    VkStencilOpState* faces[2] = {&ds.front, &ds.back};
    for (int i = 0; i < 2; ++i) {
        faces[i]->failOp = VkStencilOp(ps.stencil_ops[i][0]);
        faces[i]->depthFailOp = VkStencilOp(ps.stencil_ops[i][1]);
        faces[i]->passOp = VkStencilOp(ps.stencil_ops[i][2]);
        faces[i]->compareOp = VkCompareOp(ps.stencil_ops[i][3]);
    }
    VkPipelineColorBlendAttachmentState cba[kMaxColorAttachments]{};
    uint32_t ncolor = 0;
    for (int i = 0; i < kMaxColorAttachments; ++i) {
        if (t.key.color[i] == VK_FORMAT_UNDEFINED) continue;
        ncolor = uint32_t(i) + 1;
    }
    for (uint32_t i = 0; i < ncolor; ++i) {
        VkPipelineColorBlendAttachmentState& b = cba[i];
        b.blendEnable = ps.blend && !is_integer_format(t.key.color[i]);  // GL: no blending into integer buffers
        b.srcColorBlendFactor = VkBlendFactor(ps.blend_factors[0]);
        b.dstColorBlendFactor = VkBlendFactor(ps.blend_factors[1]);
        b.srcAlphaBlendFactor = VkBlendFactor(ps.blend_factors[2]);
        b.dstAlphaBlendFactor = VkBlendFactor(ps.blend_factors[3]);
        b.colorBlendOp = VkBlendOp(ps.blend_ops[0]);
        b.alphaBlendOp = VkBlendOp(ps.blend_ops[1]);
        b.colorWriteMask = (ps.draw_mask >> i & 1) ? ps.color_mask : 0;  // GL_NONE draw buffer
    }
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = ncolor;
    cb.pAttachments = cba;
    std::vector<VkDynamicState> dyn = {VK_DYNAMIC_STATE_VIEWPORT,          VK_DYNAMIC_STATE_SCISSOR,
                                       VK_DYNAMIC_STATE_LINE_WIDTH,        VK_DYNAMIC_STATE_DEPTH_BIAS,
                                       VK_DYNAMIC_STATE_BLEND_CONSTANTS,   VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
                                       VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, VK_DYNAMIC_STATE_STENCIL_REFERENCE};
    if (dev.dynamic_state)
        dyn.insert(dyn.end(), {VK_DYNAMIC_STATE_CULL_MODE_EXT, VK_DYNAMIC_STATE_FRONT_FACE_EXT,
                               VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY_EXT, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE_EXT,
                               VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE_EXT, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP_EXT,
                               VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE_EXT, VK_DYNAMIC_STATE_STENCIL_OP_EXT});
    if (dev.dynamic_vertex_input) dyn.push_back(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT);
    VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dy.dynamicStateCount = uint32_t(dyn.size());
    dy.pDynamicStates = dyn.data();
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    ci.stageCount = 2;
    if (exe.gs)
        stages[ci.stageCount++] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                                   VK_SHADER_STAGE_GEOMETRY_BIT, exe.gs, "main", nullptr};
    // Tessellation: GL's domain has its origin at the lower left (Vulkan 1.1's
    // domain origin state), so that GL's gl_TessCoord and winding hold.
    VkPipelineTessellationDomainOriginStateCreateInfo origin{
        VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO};
    origin.domainOrigin = VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
    VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, &origin};
    ts.patchControlPoints = ps.patch_vertices;
    if (exe.tcs && exe.tes) {
        stages[ci.stageCount++] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                                   VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, exe.tcs, "main", nullptr};
        stages[ci.stageCount++] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                                   VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, exe.tes, "main", nullptr};
        ci.pTessellationState = &ts;
    }
    ci.pStages = stages;
    ci.pVertexInputState = dev.dynamic_vertex_input ? nullptr : &vi;
    ci.pInputAssemblyState = &ia;
    ci.pViewportState = &vp;
    ci.pRasterizationState = &rs;
    ci.pMultisampleState = &ms;
    ci.pDepthStencilState = &ds;
    ci.pColorBlendState = &cb;
    ci.pDynamicState = &dy;
    ci.layout = exe.layout;
    ci.renderPass = pass;
    ci.subpass = 0;
    VkPipeline p = VK_NULL_HANDLE;
    {
        Gpu::Timed t(*gpu_, &Counters::pipeline_us);
        gpu_->check(vkCreateGraphicsPipelines(gpu_->vk(), VK_NULL_HANDLE, 1, &ci, nullptr, &p), "vkCreateGraphicsPipelines");
    }
    gpu_->count_pipeline();
    if (pipeline_stats_) {
        std::string v;
        for (size_t i = 0; i + 16 <= vertex_key.size(); i += 16) {
            uint32_t kv[4];
            std::memcpy(kv, vertex_key.data() + i, sizeof kv);
            v += fmt::format(" {}:{}/{}{}", kv[0], kv[1], kv[2], kv[3] ? "i" : "");
        }
        std::fprintf(stderr,
                     "magma pipeline frame %llu program %p: topo %u restart %u cull %u ccw %u discard %u bias %u "
                     "depth %u/%u/%u stencil %u ops %02x%02x%02x%02x/%02x%02x%02x%02x blend %u %u,%u,%u,%u %u,%u "
                     "mask %x draw %x pass %llx attrs(loc:fmt/stride)%s\n",
                     (unsigned long long)frames_ + 1, static_cast<void*>(&exe), ps.topology, ps.primitive_restart,
                     ps.cull, ps.front_ccw, ps.rasterizer_discard, ps.depth_bias, ps.depth_test, ps.depth_write,
                     ps.depth_func, ps.stencil_test, ps.stencil_ops[0][0], ps.stencil_ops[0][1], ps.stencil_ops[0][2],
                     ps.stencil_ops[0][3], ps.stencil_ops[1][0], ps.stencil_ops[1][1], ps.stencil_ops[1][2],
                     ps.stencil_ops[1][3], ps.blend, ps.blend_factors[0], ps.blend_factors[1], ps.blend_factors[2],
                     ps.blend_factors[3], ps.blend_ops[0], ps.blend_ops[1], ps.color_mask, ps.draw_mask,
                     (unsigned long long)ps.render_pass, v.c_str());
    }
    exe.pipelines[key] = p;
    return p;
}

}  // namespace mgl::magma
