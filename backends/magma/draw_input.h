// What one draw reads (and captures), gathered by the draw pieces
// (draw_descriptors.cc, draw_vertex.cc, transform_feedback.cc) before draw.cc
// records anything.
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
    bool storage = false;  // a storage image (an image uniform, GENERAL layout), not a sampled one
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

// The 1x1 stand-ins (0, 0, 0, 1) a draw reads for incomplete or missing
// textures (MagmaBackend::dummy_), per sampled type (float, signed integer,
// unsigned integer: a view's format must match the sampler's type) and
// dimension: 2D (also 2D shadow), cube, 3D, 2D array, 2D multisample (and array).
enum { kDummyFloat, kDummySint, kDummyUint, kDummyKinds };
enum { kDummy2D, kDummyCube, kDummy3D, kDummyArray, kDummyMS, kDummyMSArray, kDummies };

// What transform feedback captures of one draw (xfb_draw_check,
// transform_feedback.cc); capture false: nothing.
struct XfbDraw {
    bool capture = false;  // the draw is captured
    uint32_t count = 0;    // buffers
    VkBuffer buffers[4]{};
    VkDeviceSize offsets[4]{}, sizes[4]{}, bytes[4]{};
    uint64_t primitives = 0;
};

}  // namespace mgl::magma
