// What one draw reads, gathered by the draw pieces (draw_descriptors.cc,
// draw_vertex.cc) before draw.cc records anything.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gpu.h"

namespace mgl::magma {

// One sampler element of the program: the view and sampler it reads.
struct SampledImage {
    uint32_t binding, element;
    VkImageView view;
    VkSampler sampler;
    Image* img;  // the texture's image (nullptr: a stand-in)
};

// The vertex input state and the buffers behind it; `key` is the part of a
// pipeline's cache key it decides.
struct VertexInput {
    std::vector<VkVertexInputBindingDescription> bindings;
    std::vector<VkVertexInputAttributeDescription> attrs;
    std::vector<VkBuffer> vbufs;
    std::vector<VkDeviceSize> voffs;
    std::string key;
};

// The index buffer of an indexed (or loop-closed) draw, and the vertex count
// the draw records. buf VK_NULL_HANDLE: a non-indexed draw.
struct IndexInput {
    VkBuffer buf = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkIndexType type = VK_INDEX_TYPE_UINT16;
    uint32_t count = 0;
};

}  // namespace mgl::magma
