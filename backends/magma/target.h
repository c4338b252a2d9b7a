// What a draw or a clear renders into: the draw surface or a framebuffer
// object (MagmaBackend::resolve_target, framebuffers.cc), its attachments'
// images and views, the render pass key and the framebuffer they make.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu.h"

namespace mgl::magma {

struct Target {
    const void* id = nullptr;  // Surface* or Framebuffer*
    uint64_t generation = 0;
    Image* color[kMaxColorAttachments] = {};
    VkImageView color_view[kMaxColorAttachments] = {};
    Image* ds = nullptr;
    VkImageView ds_view = VK_NULL_HANDLE;
    uint8_t draw_mask = 0xF;  // bit per color attachment that draws write (glDrawBuffers)
    bool has_depth = false, has_stencil = false;
    uint32_t width = 0, height = 0;
    VkFramebuffer fb = VK_NULL_HANDLE;
    PassKey key;  // formats, samples, loadOp LOAD
    bool mixed_samples = false;  // resolve_target failed: attachments with different sample counts
    bool split_depth_stencil = false;  // resolve_target failed: depth and stencil in different images
};

}  // namespace mgl::magma
