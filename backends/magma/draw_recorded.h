// What the main command buffer has bound (MagmaBackend::recorded_): a draw
// records only what changed (draw.cc, draw_dynamic.cc); a new command buffer
// starts it over.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mgl::magma {

struct Recorded {
    uint64_t serial = 0;  // Gpu::main_id() of the command buffer this describes
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE, defaults_set = VK_NULL_HANDLE;
    uint32_t dyn_offset = ~0u;
    std::vector<VkBuffer> vbufs;
    std::vector<VkDeviceSize> voffs;
    VkBuffer ibuf = VK_NULL_HANDLE;
    VkDeviceSize ioff = 0;
    VkIndexType itype = VK_INDEX_TYPE_MAX_ENUM;
    float dynamic[20] = {};  // viewport, scissor, line width, bias, blend constants
    uint32_t stencil[6] = {};
    bool dynamic_valid = false;
    // With Device::dynamic_state: cull mode, front face, topology, depth
    // test/write/compare, stencil test, stencil ops (front, back).
    uint32_t ext[15] = {};
    bool ext_valid = false;
    std::string vertex_key;  // with Device::dynamic_vertex_input: what vkCmdSetVertexInputEXT set
    bool vertex_valid = false;
};
// The entries of Recorded::ext (draw_dynamic.cc).
constexpr int kExtDynamic = 15;

}  // namespace mgl::magma
