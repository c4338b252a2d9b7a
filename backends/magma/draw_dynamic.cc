// A draw's dynamic state (viewport, scissor, line width, depth bias, blend
// constants, stencil masks and references, and with the extended dynamic
// state extensions cull, front face, topology, depth/stencil tests and the
// vertex input), recorded only where it differs from what the command buffer has.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>

#include "backend.h"
#include "gl_to_vk.h"

namespace mgl::magma {

void MagmaBackend::record_dynamic_state(VkCommandBuffer cb, const Target& t, VkPrimitiveTopology topo,
                                        const VertexInput& in) {
    const State& s = cur_->st;
    Recorded& b = recorded_;
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
    if (dev.dynamic_vertex_input && (!b.vertex_valid || b.vertex_key != in.key)) {
        std::vector<VkVertexInputBindingDescription2EXT> bd2(in.bindings.size());
        for (size_t i = 0; i < in.bindings.size(); ++i)
            bd2[i] = {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, in.bindings[i].binding,
                      in.bindings[i].stride, in.bindings[i].inputRate, 1};
        std::vector<VkVertexInputAttributeDescription2EXT> ad2(in.attrs.size());
        for (size_t i = 0; i < in.attrs.size(); ++i)
            ad2[i] = {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, in.attrs[i].location,
                      in.attrs[i].binding, in.attrs[i].format, in.attrs[i].offset};
        dev.cmd_set_vertex_input(cb, uint32_t(bd2.size()), bd2.data(), uint32_t(ad2.size()), ad2.data());
        b.vertex_key = in.key;
        b.vertex_valid = true;
    }
}

}  // namespace mgl::magma
