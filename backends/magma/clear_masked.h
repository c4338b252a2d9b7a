// What glClear with a partial color mask draws with (clear_masked.cc):
// Magma's own helper shaders, their layout and pipelines, made on first use
// and released with the backend (release_masked_clear).
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <map>

#include "gpu.h"  // kMaxColorAttachments

namespace mgl::magma {

struct MaskedClear {
    VkShaderModule vs = VK_NULL_HANDLE, fs[kMaxColorAttachments] = {};  // fs[n-1]: n color outputs
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::map<std::array<uint64_t, 2>, VkPipeline> pipelines;  // (render pass, masks and count)
};

}  // namespace mgl::magma
