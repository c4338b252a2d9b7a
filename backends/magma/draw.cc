// The draw path: textures to shader-read layout, the render pass (kept open
// across draws to the same attachments), the pipeline for the state that
// matters (cached per program), descriptors (reused while unchanged),
// vertex and index buffers, dynamic state, the draw.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "backend.h"

namespace mgl::magma {

namespace {

VkFormat vertex_format(GLenum type, int size, bool normalized, bool integer) {
    static const VkFormat f32[] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_SFLOAT,
                                   VK_FORMAT_R32G32B32A32_SFLOAT};
    static const VkFormat u8n[] = {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_R8G8B8A8_UNORM};
    static const VkFormat u8s[] = {VK_FORMAT_R8_USCALED, VK_FORMAT_R8G8_USCALED, VK_FORMAT_R8G8B8_USCALED, VK_FORMAT_R8G8B8A8_USCALED};
    static const VkFormat u8i[] = {VK_FORMAT_R8_UINT, VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8B8_UINT, VK_FORMAT_R8G8B8A8_UINT};
    static const VkFormat s8n[] = {VK_FORMAT_R8_SNORM, VK_FORMAT_R8G8_SNORM, VK_FORMAT_R8G8B8_SNORM, VK_FORMAT_R8G8B8A8_SNORM};
    static const VkFormat s8s[] = {VK_FORMAT_R8_SSCALED, VK_FORMAT_R8G8_SSCALED, VK_FORMAT_R8G8B8_SSCALED, VK_FORMAT_R8G8B8A8_SSCALED};
    static const VkFormat s8i[] = {VK_FORMAT_R8_SINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8B8_SINT, VK_FORMAT_R8G8B8A8_SINT};
    static const VkFormat u16n[] = {VK_FORMAT_R16_UNORM, VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16B16_UNORM, VK_FORMAT_R16G16B16A16_UNORM};
    static const VkFormat u16s[] = {VK_FORMAT_R16_USCALED, VK_FORMAT_R16G16_USCALED, VK_FORMAT_R16G16B16_USCALED, VK_FORMAT_R16G16B16A16_USCALED};
    static const VkFormat u16i[] = {VK_FORMAT_R16_UINT, VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16B16_UINT, VK_FORMAT_R16G16B16A16_UINT};
    static const VkFormat s16n[] = {VK_FORMAT_R16_SNORM, VK_FORMAT_R16G16_SNORM, VK_FORMAT_R16G16B16_SNORM, VK_FORMAT_R16G16B16A16_SNORM};
    static const VkFormat s16s[] = {VK_FORMAT_R16_SSCALED, VK_FORMAT_R16G16_SSCALED, VK_FORMAT_R16G16B16_SSCALED, VK_FORMAT_R16G16B16A16_SSCALED};
    static const VkFormat s16i[] = {VK_FORMAT_R16_SINT, VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16B16_SINT, VK_FORMAT_R16G16B16A16_SINT};
    static const VkFormat u32i[] = {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32A32_UINT};
    static const VkFormat s32i[] = {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32_SINT, VK_FORMAT_R32G32B32A32_SINT};
    static const VkFormat f16[] = {VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R16G16B16_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT};
    const int i = std::clamp(size, 1, 4) - 1;
    switch (type) {
        case GL_FLOAT: return f32[i];
        case GL_UNSIGNED_BYTE: return integer ? u8i[i] : normalized ? u8n[i] : u8s[i];
        case GL_BYTE: return integer ? s8i[i] : normalized ? s8n[i] : s8s[i];
        case GL_UNSIGNED_SHORT: return integer ? u16i[i] : normalized ? u16n[i] : u16s[i];
        case GL_SHORT: return integer ? s16i[i] : normalized ? s16n[i] : s16s[i];
        case GL_UNSIGNED_INT: return integer ? u32i[i] : VK_FORMAT_UNDEFINED;
        case GL_INT: return integer ? s32i[i] : VK_FORMAT_UNDEFINED;
        case GL_HALF_FLOAT:
        case GL_HALF_FLOAT_OES: return f16[i];
        default: return VK_FORMAT_UNDEFINED;
    }
}

uint32_t type_bytes(GLenum type) {
    switch (type) {
        case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
        case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2;
        default: return 4;
    }
}

VkBlendFactor blend_factor(GLenum f) {
    switch (f) {
        case GL_ZERO: return VK_BLEND_FACTOR_ZERO;
        case GL_ONE: return VK_BLEND_FACTOR_ONE;
        case GL_SRC_COLOR: return VK_BLEND_FACTOR_SRC_COLOR;
        case GL_ONE_MINUS_SRC_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
        case GL_DST_COLOR: return VK_BLEND_FACTOR_DST_COLOR;
        case GL_ONE_MINUS_DST_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
        case GL_SRC_ALPHA: return VK_BLEND_FACTOR_SRC_ALPHA;
        case GL_ONE_MINUS_SRC_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        case GL_DST_ALPHA: return VK_BLEND_FACTOR_DST_ALPHA;
        case GL_ONE_MINUS_DST_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
        case GL_CONSTANT_COLOR: return VK_BLEND_FACTOR_CONSTANT_COLOR;
        case GL_ONE_MINUS_CONSTANT_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
        case GL_CONSTANT_ALPHA: return VK_BLEND_FACTOR_CONSTANT_ALPHA;
        case GL_ONE_MINUS_CONSTANT_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
        case GL_SRC_ALPHA_SATURATE: return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
        default: return VK_BLEND_FACTOR_ONE;
    }
}

VkBlendOp blend_op(GLenum e) {
    switch (e) {
        case GL_FUNC_SUBTRACT: return VK_BLEND_OP_SUBTRACT;
        case GL_FUNC_REVERSE_SUBTRACT: return VK_BLEND_OP_REVERSE_SUBTRACT;
        case GL_MIN: return VK_BLEND_OP_MIN;
        case GL_MAX: return VK_BLEND_OP_MAX;
        default: return VK_BLEND_OP_ADD;
    }
}

VkCompareOp compare(GLenum f) {
    switch (f) {
        case GL_NEVER: return VK_COMPARE_OP_NEVER;
        case GL_LESS: return VK_COMPARE_OP_LESS;
        case GL_EQUAL: return VK_COMPARE_OP_EQUAL;
        case GL_LEQUAL: return VK_COMPARE_OP_LESS_OR_EQUAL;
        case GL_GREATER: return VK_COMPARE_OP_GREATER;
        case GL_NOTEQUAL: return VK_COMPARE_OP_NOT_EQUAL;
        case GL_GEQUAL: return VK_COMPARE_OP_GREATER_OR_EQUAL;
        default: return VK_COMPARE_OP_ALWAYS;
    }
}

VkStencilOp stencil_op(GLenum o) {
    switch (o) {
        case GL_ZERO: return VK_STENCIL_OP_ZERO;
        case GL_REPLACE: return VK_STENCIL_OP_REPLACE;
        case GL_INCR: return VK_STENCIL_OP_INCREMENT_AND_CLAMP;
        case GL_DECR: return VK_STENCIL_OP_DECREMENT_AND_CLAMP;
        case GL_INVERT: return VK_STENCIL_OP_INVERT;
        case GL_INCR_WRAP: return VK_STENCIL_OP_INCREMENT_AND_WRAP;
        case GL_DECR_WRAP: return VK_STENCIL_OP_DECREMENT_AND_WRAP;
        default: return VK_STENCIL_OP_KEEP;
    }
}

bool topology(GLenum mode, VkPrimitiveTopology& t) {
    switch (mode) {
        case GL_POINTS: t = VK_PRIMITIVE_TOPOLOGY_POINT_LIST; return true;
        case GL_LINES: t = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; return true;
        case GL_LINE_STRIP:
        case GL_LINE_LOOP: t = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; return true;
        case GL_TRIANGLES: t = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST; return true;
        case GL_TRIANGLE_STRIP: t = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP; return true;
        case GL_TRIANGLE_FAN: t = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN; return true;
        default: return false;
    }
}

// The state a pipeline is built from, as plain bytes (the cache key).
struct PipelineState {
    uint8_t topology, primitive_restart, cull, front_ccw, rasterizer_discard, depth_bias;
    uint8_t depth_test, depth_write, depth_func, stencil_test;
    uint8_t stencil_ops[2][4];
    uint8_t blend, color_mask, draw_mask;
    uint8_t alpha_to_coverage, sample_mask;  // multisampled targets only (GL ignores both otherwise)
    uint16_t blend_factors[4];
    uint16_t blend_ops[2];
    uint64_t render_pass;
};

void append(std::string& key, const void* p, size_t n) { key.append(static_cast<const char*>(p), n); }

// With a dynamic topology a pipeline serves every topology of its class.
int topology_class(VkPrimitiveTopology t) {
    switch (t) {
        case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return 0;
        case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return 1;
        default: return 2;
    }
}

// Which texture binding (and stand-in) a sampler type reads: MagmaBackend's kDummy* order.
int sampler_dim(GLenum type) {
    switch (type) {
        case GL_SAMPLER_CUBE: case GL_SAMPLER_CUBE_SHADOW: case GL_INT_SAMPLER_CUBE: case GL_UNSIGNED_INT_SAMPLER_CUBE: return 1;
        case GL_SAMPLER_3D: case GL_INT_SAMPLER_3D: case GL_UNSIGNED_INT_SAMPLER_3D: return 2;
        case GL_SAMPLER_2D_ARRAY: case GL_SAMPLER_2D_ARRAY_SHADOW: case GL_INT_SAMPLER_2D_ARRAY:
        case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY: return 3;
        default: return 0;
    }
}

// Which stand-in format a sampler type reads: MagmaBackend's kDummy{Float,Sint,Uint}.
int sampler_kind(GLenum type) {
    switch (type) {
        case GL_INT_SAMPLER_2D: case GL_INT_SAMPLER_3D: case GL_INT_SAMPLER_CUBE: case GL_INT_SAMPLER_2D_ARRAY: return 1;
        case GL_UNSIGNED_INT_SAMPLER_2D: case GL_UNSIGNED_INT_SAMPLER_3D: case GL_UNSIGNED_INT_SAMPLER_CUBE:
        case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY: return 2;
        default: return 0;
    }
}

// The Vulkan format a generic (disabled-array) attribute is read with: the shader input's base type.
VkFormat generic_format(GLenum shader_type) {
    switch (shader_type) {
        case GL_INT: case GL_INT_VEC2: case GL_INT_VEC3: case GL_INT_VEC4: return VK_FORMAT_R32G32B32A32_SINT;
        case GL_UNSIGNED_INT: case GL_UNSIGNED_INT_VEC2: case GL_UNSIGNED_INT_VEC3: case GL_UNSIGNED_INT_VEC4:
            return VK_FORMAT_R32G32B32A32_UINT;
        default: return VK_FORMAT_R32G32B32A32_SFLOAT;
    }
}

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
    ps.primitive_restart = s.primitive_restart && strip;
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
    }
    const VkRenderPass pass = gpu_->render_pass(t.key);
    ps.render_pass = uint64_t(pass);
    std::string key;
    key.reserve(sizeof ps + vertex_key.size());
    append(key, &ps, sizeof ps);
    if (!dev.dynamic_vertex_input) key += vertex_key;
    auto it = exe.pipelines.find(key);
    if (it != exe.pipelines.end()) return it->second;

    VkPipelineShaderStageCreateInfo stages[2]{};
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
    rs.lineWidth = 1.0f;
    VkPipelineRasterizationProvokingVertexStateCreateInfoEXT pv{
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
    // GL's flat shading, only where it matters: the vertex order it implies
    // can change how attributes round on shared edges.
    pv.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
    if (gpu_->dev().provoking_last && exe.flat) rs.pNext = &pv;
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
    VkPipelineColorBlendAttachmentState cba[4]{};
    uint32_t ncolor = 0;
    for (int i = 0; i < 4; ++i) {
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
    gpu_->check(vkCreateGraphicsPipelines(gpu_->vk(), VK_NULL_HANDLE, 1, &ci, nullptr, &p), "vkCreateGraphicsPipelines");
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

void MagmaBackend::draw(GLenum mode, GLint first, GLsizei count, GLenum index_type, wire::InOrOffset<uint8_t> indices,
                        GLsizei instances) {
    const gen::Op verb = index_type ? gen::Op::glDrawElements : gen::Op::glDrawArrays;
    if (!need_context(verb)) return;
    if (count < 0 || first < 0 || instances < 0) return refuse(verb, GL_INVALID_VALUE, "negative count");
    VkPrimitiveTopology topo;
    if (!topology(mode, topo)) return refuse(verb, GL_INVALID_ENUM, "mode");
    if (count == 0 || instances == 0) return;
    Executable* exe = current_exe();
    if (!exe) return refuse(verb, GL_INVALID_OPERATION, "no linked program in use");
    XfbDraw xfb;  // transform feedback capturing this draw (transform_feedback.cc)
    if (!xfb_draw_check(verb, mode, count, instances, index_type != 0, xfb)) return;
    Target t;
    if (!resolve_target(t, true)) return refuse(verb, GL_INVALID_FRAMEBUFFER_OPERATION, "incomplete framebuffer");
    Context& c = *cur_;
    const uint64_t serial = gpu_->serial();

    // ---- textures: every sampled image must be in shader-read layout before the pass
    struct Bound {
        uint32_t binding, element;
        VkImageView view;
        VkSampler sampler;
        Image* img;  // the texture's image (nullptr: a stand-in)
    };
    std::vector<Bound> images;
    std::vector<Image*> to_read;
    const LinkedProgram& lp = exe->linked;
    for (size_t i = 0; i < lp.uniforms.size(); ++i) {
        const UniformInfo& u = lp.uniforms[i];
        if (u.offset >= 0 || u.binding < 0) continue;
        for (int e = 0; e < u.array_size; ++e) {
            const int unit = exe->sampler_units[i].empty() ? 0 : exe->sampler_units[i][size_t(e)];
            Texture* tex = nullptr;
            if (unit >= 0 && size_t(unit) < c.units.size()) {
                Context::Unit& un = c.units[size_t(unit)];
                switch (sampler_dim(u.type)) {
                    case kDummyCube: tex = un.cube.get(); break;
                    case kDummy3D: tex = un.tex3d.get(); break;
                    case kDummyArray: tex = un.array2d.get(); break;
                    default: tex = un.tex2d.get();
                }
            }
            bool complete = false;
            VkImageView view = tex ? sampled_view(*tex, complete) : VK_NULL_HANDLE;
            VkSampler smp;
            Image* sampled = nullptr;
            const TexParams* pp = tex ? (c.units[size_t(unit)].sampler ? &c.units[size_t(unit)].sampler->params : &tex->params) : nullptr;
            // GL: an integer texture filtered other than NEAREST is incomplete.
            if (pp && complete && is_integer_format(tex->img.format) &&
                (pp->mag_filter != GL_NEAREST || (pp->min_filter != GL_NEAREST && pp->min_filter != GL_NEAREST_MIPMAP_NEAREST)))
                complete = false;
            if (view && complete) {
                const TexParams& params = *pp;
                smp = gpu_->sampler(sampler_key(params, *tex));
                if (tex->img.layout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL) to_read.push_back(&tex->img);
                sampled = &tex->img;
            } else {
                // Incomplete or missing: GL samples (0, 0, 0, 1).
                const int kind = sampler_kind(u.type);
                view = dummy_view_[kind][sampler_dim(u.type)];
                SamplerKey k;
                if (kind != kDummyFloat) k.mag = k.min = VK_FILTER_NEAREST;  // integer formats are never filtered
                smp = gpu_->sampler(k);
            }
            images.push_back({uint32_t(u.binding), uint32_t(e), view, smp, sampled});
        }
    }
    // Layout changes go where image_work() says (in front of the open pass
    // when it has not used the image: a texture drawn into by an earlier pass
    // and sampled now needs no split of this one).
    for (Image* img : to_read) gpu_->transition(image_work(*img), *img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);

    // ---- default uniforms: one copy per batch and change, bound with a dynamic offset
    const VkDeviceSize ubo_align = std::max<VkDeviceSize>(gpu_->dev().props.limits.minUniformBufferOffsetAlignment, 16);
    if (!exe->defaults.empty() && (exe->defaults_dirty || exe->defaults_serial != serial)) {
        Gpu::Slice s = gpu_->stream(exe->defaults.size(), ubo_align);
        if (!s.ptr) return set_error(GL_OUT_OF_MEMORY);
        std::memcpy(s.ptr, exe->defaults.data(), exe->defaults.size());
        exe->defaults_buf = s.buf;
        exe->defaults_offset = uint32_t(s.offset);
        exe->defaults_serial = serial;
        exe->defaults_dirty = false;
    }

    // ---- descriptor set: reused while the same buffers, views and samplers are bound
    std::vector<uint64_t> dkey;
    dkey.push_back(uint64_t(exe->defaults_buf));
    for (const Bound& b : images) dkey.insert(dkey.end(), {b.binding, b.element, uint64_t(b.view), uint64_t(b.sampler)});
    struct BlockBinding {
        uint32_t binding;
        VkBuffer buf;
        VkDeviceSize offset, range;
    };
    std::vector<BlockBinding> blocks;
    for (size_t i = 0; i < lp.blocks.size(); ++i) {
        const BlockInfo& b = lp.blocks[i];
        if (b.binding < 0) continue;
        const GLuint point = exe->block_bindings[i];
        const Context::Indexed* ib = point < c.uniform_bindings.size() ? &c.uniform_bindings[point] : nullptr;
        if (!ib || !ib->buffer || !ib->buffer->vk.buf)
            return refuse(verb, GL_INVALID_OPERATION, "a uniform block has no buffer bound");
        Buffer& buf = *ib->buffer;
        // Checked here, not at glBindBufferRange: glBufferData may have made the
        // buffer smaller since. Written so that offset + size cannot wrap.
        if (ib->offset >= buf.size || (ib->size && ib->size > buf.size - ib->offset))
            return refuse(verb, GL_INVALID_OPERATION, "a uniform block's range lies outside its buffer");
        const VkDeviceSize range = ib->size ? ib->size : buf.size - ib->offset;
        blocks.push_back({uint32_t(b.binding), buf.vk.buf, ib->offset, range});
        buf.used_serial = serial;
        dkey.insert(dkey.end(), {uint64_t(b.binding), uint64_t(buf.vk.buf), ib->offset, range});
    }
    if (exe->set_serial != serial || exe->set_key != dkey || !exe->set) {
        VkDescriptorSet set = gpu_->allocate_set(exe->set_layout);
        if (!set) return set_error(GL_OUT_OF_MEMORY);
        std::vector<VkWriteDescriptorSet> writes;
        std::vector<VkDescriptorImageInfo> infos(images.size());
        std::vector<VkDescriptorBufferInfo> binfos(blocks.size() + 1);
        if (!exe->defaults.empty()) {
            binfos[0] = {exe->defaults_buf, 0, exe->defaults.size()};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = uint32_t(lp.default_binding);
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
            w.pBufferInfo = &binfos[0];
            writes.push_back(w);
        }
        for (size_t i = 0; i < images.size(); ++i) {
            infos[i] = {images[i].sampler, images[i].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = images[i].binding;
            w.dstArrayElement = images[i].element;
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
            w.pImageInfo = &infos[i];
            writes.push_back(w);
        }
        for (size_t i = 0; i < blocks.size(); ++i) {
            binfos[i + 1] = {blocks[i].buf, blocks[i].offset, blocks[i].range};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = blocks[i].binding;
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
            w.pBufferInfo = &binfos[i + 1];
            writes.push_back(w);
        }
        vkUpdateDescriptorSets(gpu_->vk(), uint32_t(writes.size()), writes.data(), 0, nullptr);
        exe->set = set;
        exe->set_key = std::move(dkey);
        exe->set_serial = serial;
    }

    // ---- vertex input: one binding per attribute (its buffer offset in the binding)
    std::vector<VkVertexInputBindingDescription> bindings;
    std::vector<VkVertexInputAttributeDescription> attrs;
    std::vector<VkBuffer> vbufs;
    std::vector<VkDeviceSize> voffs;
    std::string vkey;
    for (const Executable::Attr& a : exe->attrs) {
        for (int k = 0; k < a.slots; ++k) {
            const int gl = a.gl_index + k;
            if (gl >= 16) break;
            const Attrib& at = c.vao->attribs[size_t(gl)];
            const uint32_t b = uint32_t(bindings.size());
            VkVertexInputBindingDescription bd{b, 0, VK_VERTEX_INPUT_RATE_VERTEX};
            VkVertexInputAttributeDescription ad{uint32_t(a.location + k), b, generic_format(a.type), 0};
            // GL would read an enabled array without a buffer (its buffer deleted,
            // or never given) as client memory at its offset: refused, as on Espryt.
            if (at.enabled && !(at.buffer && at.buffer->vk.buf))
                return refuse(verb, GL_INVALID_OPERATION, "an enabled vertex attribute has no buffer");
            if (at.enabled) {
                ad.format = vertex_format(at.type, at.size, at.normalized, at.integer);
                if (ad.format == VK_FORMAT_UNDEFINED) return refuse(verb, GL_INVALID_OPERATION, "vertex attribute type not supported yet");
                bd.stride = at.stride ? uint32_t(at.stride) : uint32_t(at.size) * type_bytes(at.type);
                if (at.divisor) bd.inputRate = VK_VERTEX_INPUT_RATE_INSTANCE;
                if (at.divisor > 1) {
                    // Vulkan 1.1 steps instance-rate attributes every instance (a divisor
                    // needs VK_EXT_vertex_attribute_divisor): each element is repeated
                    // `divisor` times into the stream instead.
                    const uint32_t elem = uint32_t(at.size) * type_bytes(at.type);
                    const uint64_t used = (uint64_t(instances) - 1) / at.divisor;
                    if (at.offset > at.buffer->size || used * bd.stride + elem > at.buffer->size - at.offset)
                        return refuse(verb, GL_INVALID_OPERATION, "instanced attribute outside its buffer");
                    Gpu::Slice s = gpu_->stream(uint64_t(instances) * elem, 4);
                    if (!s.ptr) return set_error(GL_OUT_OF_MEMORY);
                    const uint8_t* src = host_bytes(*at.buffer) + at.offset;
                    for (GLsizei i = 0; i < instances; ++i)
                        std::memcpy(s.ptr + size_t(i) * elem, src + size_t(uint32_t(i) / at.divisor) * bd.stride, elem);
                    bd.stride = elem;
                    vbufs.push_back(s.buf);
                    voffs.push_back(s.offset);
                } else {
                    // Vulkan requires the binding offset inside the buffer; past it
                    // the device would read memory the client chose.
                    if (at.offset >= at.buffer->size)
                        return refuse(verb, GL_INVALID_OPERATION, "vertex attribute offset outside its buffer");
                    vbufs.push_back(at.buffer->vk.buf);
                    voffs.push_back(at.offset);
                    at.buffer->used_serial = serial;
                }
            } else {
                // A disabled array reads the current generic value: a stride-0 binding.
                Gpu::Slice s = gpu_->stream(16, 16);
                std::memcpy(s.ptr, c.generic[gl], 16);
                vbufs.push_back(s.buf);
                voffs.push_back(s.offset);
            }
            bindings.push_back(bd);
            attrs.push_back(ad);
            const uint32_t kv[4] = {ad.location, uint32_t(ad.format), bd.stride, uint32_t(bd.inputRate)};
            append(vkey, kv, sizeof kv);
        }
    }

    // ---- indices (client ones through the stream; bytes widened where Vulkan needs it)
    VkBuffer ibuf = VK_NULL_HANDLE;
    VkDeviceSize ioff = 0;
    VkIndexType itype = VK_INDEX_TYPE_UINT16;
    uint32_t draw_count = uint32_t(count);
    if (index_type) {
        const uint32_t isz = index_type == GL_UNSIGNED_BYTE ? 1 : index_type == GL_UNSIGNED_SHORT ? 2 : 4;
        if (index_type != GL_UNSIGNED_BYTE && index_type != GL_UNSIGNED_SHORT && index_type != GL_UNSIGNED_INT)
            return refuse(verb, GL_INVALID_ENUM, "index type");
        const uint64_t bytes = uint64_t(count) * isz;
        const uint8_t* src = nullptr;
        if (indices.is_offset()) {
            Buffer* eb = c.vao->elements.get();
            if (!eb || !eb->vk.buf) return refuse(verb, GL_INVALID_OPERATION, "no element array buffer");
            if (indices.offset > eb->size || bytes > eb->size - indices.offset) return refuse(verb, GL_INVALID_OPERATION, "indices outside the element buffer");
            src = host_bytes(*eb) + indices.offset;  // read on the host only to widen or close a loop
            if (isz > 1 || gpu_->dev().index_uint8) {
                if (indices.offset % isz) return refuse(verb, GL_INVALID_OPERATION, "misaligned index offset");
                ibuf = eb->vk.buf;
                ioff = indices.offset;
                eb->used_serial = serial;
            }
        } else {
            if (indices.size < bytes) return refuse(verb, GL_INVALID_OPERATION, "index data shorter than count");
            src = indices.data;
        }
        itype = isz == 1 ? VK_INDEX_TYPE_UINT8_EXT : isz == 2 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
        if (mode == GL_LINE_LOOP) {
            // Closed by repeating the first index: 32-bit indices in the stream.
            Gpu::Slice s = gpu_->stream((uint64_t(count) + 1) * 4, 4);
            uint32_t* o = reinterpret_cast<uint32_t*>(s.ptr);
            for (GLsizei i = 0; i < count; ++i)
                o[i] = isz == 1 ? src[i] : isz == 2 ? reinterpret_cast<const uint16_t*>(src)[i] : reinterpret_cast<const uint32_t*>(src)[i];
            o[count] = o[0];
            ibuf = s.buf, ioff = s.offset, itype = VK_INDEX_TYPE_UINT32, draw_count = uint32_t(count) + 1;
        } else if (!ibuf) {
            if (isz == 1 && !gpu_->dev().index_uint8) {
                Gpu::Slice s = gpu_->stream(uint64_t(count) * 2, 4);
                uint16_t* o = reinterpret_cast<uint16_t*>(s.ptr);
                for (GLsizei i = 0; i < count; ++i) o[i] = src[i] == 0xFF && c.st.primitive_restart ? 0xFFFF : src[i];
                ibuf = s.buf, ioff = s.offset, itype = VK_INDEX_TYPE_UINT16;
            } else {
                Gpu::Slice s = gpu_->stream(bytes, 4);
                std::memcpy(s.ptr, src, bytes);
                ibuf = s.buf, ioff = s.offset;
            }
        }
    } else if (mode == GL_LINE_LOOP) {
        Gpu::Slice s = gpu_->stream((uint64_t(count) + 1) * 4, 4);
        uint32_t* o = reinterpret_cast<uint32_t*>(s.ptr);
        for (GLsizei i = 0; i < count; ++i) o[i] = uint32_t(first + i);
        o[count] = uint32_t(first);
        ibuf = s.buf, ioff = s.offset, itype = VK_INDEX_TYPE_UINT32, draw_count = uint32_t(count) + 1;
    }

    // ---- the pass, the pipeline, the draw
    ensure_pass(t);
    // What this draw samples is used by the open pass from now on.
    for (const Bound& bd : images)
        if (bd.img) bd.img->used_serial = serial, bd.img->used_pass = gpu_->pass_id();
    VkPipeline p = pipeline(*exe, t, topo, vkey, bindings, attrs);
    if (!p) return set_error(GL_OUT_OF_MEMORY);
    gpu_->occlusion_draw();  // an active occlusion query counts this pass
    VkCommandBuffer cb = gpu_->main();
    // Only what differs from the command buffer's current bindings is recorded.
    Recorded& b = recorded_;
    if (b.serial != gpu_->main_id()) b = Recorded{}, b.serial = gpu_->main_id();
    if (b.pipeline != p) {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
        b.pipeline = p;
    }
    const uint32_t dyn_offset = exe->defaults.empty() ? 0 : exe->defaults_offset;
    if (b.set != exe->set || b.layout != exe->layout || b.dyn_offset != dyn_offset) {
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, exe->layout, 0, 1, &exe->set,
                                exe->defaults.empty() ? 0 : 1, &dyn_offset);
        b.set = exe->set;
        b.layout = exe->layout;
        b.dyn_offset = dyn_offset;
    }
    if (!vbufs.empty() && (b.vbufs != vbufs || b.voffs != voffs)) {
        vkCmdBindVertexBuffers(cb, 0, uint32_t(vbufs.size()), vbufs.data(), voffs.data());
        b.vbufs = vbufs;
        b.voffs = voffs;
    }
    const State& s = c.st;
    VkViewport vp{float(s.viewport[0]), float(s.viewport[1]), float(std::max(s.viewport[2], 1)),
                  float(std::max(s.viewport[3], 1)), s.depth_near, s.depth_far};
    VkRect2D sc{{0, 0}, {t.width, t.height}};
    if (s.scissor_test) {
        const int x0 = std::clamp(s.scissor[0], 0, int(t.width)), y0 = std::clamp(s.scissor[1], 0, int(t.height));
        const int x1 = std::clamp(s.scissor[0] + s.scissor[2], 0, int(t.width));
        const int y1 = std::clamp(s.scissor[1] + s.scissor[3], 0, int(t.height));
        sc = {{x0, y0}, {uint32_t(std::max(x1 - x0, 0)), uint32_t(std::max(y1 - y0, 0))}};
    }
    const float line = gpu_->dev().features.wideLines ? s.line_width : 1.0f;
    const float dyn[20] = {vp.x, vp.y, vp.width, vp.height, vp.minDepth, vp.maxDepth,
                           float(sc.offset.x), float(sc.offset.y), float(sc.extent.width), float(sc.extent.height),
                           line, s.offset_units, s.offset_factor, s.blend_color[0], s.blend_color[1], s.blend_color[2],
                           s.blend_color[3], 0, 0, 0};
    const uint32_t sten[6] = {s.stencil[0].mask, s.stencil[1].mask, s.stencil[0].writemask, s.stencil[1].writemask,
                              uint32_t(s.stencil[0].ref), uint32_t(s.stencil[1].ref)};
    const bool all = !b.dynamic_valid;
    if (all || std::memcmp(b.dynamic, dyn, 6 * sizeof(float))) vkCmdSetViewport(cb, 0, 1, &vp);
    if (all || std::memcmp(b.dynamic + 6, dyn + 6, 4 * sizeof(float))) vkCmdSetScissor(cb, 0, 1, &sc);
    if (all || b.dynamic[10] != dyn[10]) vkCmdSetLineWidth(cb, line);
    if (all || b.dynamic[11] != dyn[11] || b.dynamic[12] != dyn[12])
        vkCmdSetDepthBias(cb, s.offset_units, 0.0f, s.offset_factor);
    if (all || std::memcmp(b.dynamic + 13, dyn + 13, 4 * sizeof(float))) vkCmdSetBlendConstants(cb, s.blend_color);
    if (all || b.stencil[0] != sten[0]) vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_FRONT_BIT, sten[0]);
    if (all || b.stencil[1] != sten[1]) vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_BACK_BIT, sten[1]);
    if (all || b.stencil[2] != sten[2]) vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_FRONT_BIT, sten[2]);
    if (all || b.stencil[3] != sten[3]) vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_BACK_BIT, sten[3]);
    if (all || b.stencil[4] != sten[4]) vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_BIT, sten[4]);
    if (all || b.stencil[5] != sten[5]) vkCmdSetStencilReference(cb, VK_STENCIL_FACE_BACK_BIT, sten[5]);
    std::memcpy(b.dynamic, dyn, sizeof dyn);
    std::memcpy(b.stencil, sten, sizeof sten);
    b.dynamic_valid = true;
    const Device& dev = gpu_->dev();
    if (dev.dynamic_state) {
        // What pipelines leave dynamic (see pipeline()), as the GL state says.
        const bool depth = s.depth_test && t.has_depth;
        const uint32_t ext[kExtDynamic] = {
            uint32_t(s.cull ? (s.cull_face == GL_FRONT ? VK_CULL_MODE_FRONT_BIT
                               : s.cull_face == GL_BACK ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_FRONT_AND_BACK)
                            : VK_CULL_MODE_NONE),
            // GL's counter-clockwise is Vulkan's clockwise (image row 0 is GL's bottom row).
            uint32_t(s.front_face == GL_CCW ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE),
            uint32_t(topo), depth, depth && s.depth_mask, uint32_t(compare(s.depth_func)),
            s.stencil_test && t.has_stencil,
            uint32_t(stencil_op(s.stencil[0].fail)), uint32_t(stencil_op(s.stencil[0].zpass)),
            uint32_t(stencil_op(s.stencil[0].zfail)), uint32_t(compare(s.stencil[0].func)),
            uint32_t(stencil_op(s.stencil[1].fail)), uint32_t(stencil_op(s.stencil[1].zpass)),
            uint32_t(stencil_op(s.stencil[1].zfail)), uint32_t(compare(s.stencil[1].func))};
        const bool every = !b.ext_valid;
        if (every || b.ext[0] != ext[0]) dev.cmd_set_cull_mode(cb, ext[0]);
        if (every || b.ext[1] != ext[1]) dev.cmd_set_front_face(cb, VkFrontFace(ext[1]));
        if (every || b.ext[2] != ext[2]) dev.cmd_set_primitive_topology(cb, VkPrimitiveTopology(ext[2]));
        if (every || b.ext[3] != ext[3]) dev.cmd_set_depth_test_enable(cb, ext[3]);
        if (every || b.ext[4] != ext[4]) dev.cmd_set_depth_write_enable(cb, ext[4]);
        if (every || b.ext[5] != ext[5]) dev.cmd_set_depth_compare_op(cb, VkCompareOp(ext[5]));
        if (every || b.ext[6] != ext[6]) dev.cmd_set_stencil_test_enable(cb, ext[6]);
        for (int f = 0; f < 2; ++f) {
            const uint32_t* o = ext + 7 + 4 * f;
            if (every || std::memcmp(b.ext + 7 + 4 * f, o, 4 * sizeof(uint32_t)))
                dev.cmd_set_stencil_op(cb, f ? VK_STENCIL_FACE_BACK_BIT : VK_STENCIL_FACE_FRONT_BIT, VkStencilOp(o[0]),
                                       VkStencilOp(o[1]), VkStencilOp(o[2]), VkCompareOp(o[3]));
        }
        std::memcpy(b.ext, ext, sizeof ext);
        b.ext_valid = true;
    }
    if (dev.dynamic_vertex_input && (!b.vertex_valid || b.vertex_key != vkey)) {
        std::vector<VkVertexInputBindingDescription2EXT> bd2(bindings.size());
        for (size_t i = 0; i < bindings.size(); ++i)
            bd2[i] = {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, bindings[i].binding,
                      bindings[i].stride, bindings[i].inputRate, 1};
        std::vector<VkVertexInputAttributeDescription2EXT> ad2(attrs.size());
        for (size_t i = 0; i < attrs.size(); ++i)
            ad2[i] = {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, attrs[i].location,
                      attrs[i].binding, attrs[i].format, attrs[i].offset};
        dev.cmd_set_vertex_input(cb, uint32_t(bd2.size()), bd2.data(), uint32_t(ad2.size()), ad2.data());
        b.vertex_key = vkey;
        b.vertex_valid = true;
    }
    if (xfb.capture) xfb_begin(cb, xfb);
    if (ibuf) {
        if (b.ibuf != ibuf || b.ioff != ioff || b.itype != itype) {
            vkCmdBindIndexBuffer(cb, ibuf, ioff, itype);
            b.ibuf = ibuf;
            b.ioff = ioff;
            b.itype = itype;
        }
        vkCmdDrawIndexed(cb, draw_count, uint32_t(instances), 0, 0, 0);
    } else {
        vkCmdDraw(cb, draw_count, uint32_t(instances), uint32_t(first), 0);
    }
    gpu_->count_draw();
    if (xfb.capture) xfb_end(cb, xfb);
}

}  // namespace mgl::magma
