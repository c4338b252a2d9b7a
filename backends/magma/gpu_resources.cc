// Gpu: the resources it makes and lets go (destroyed once their batch is
// done): buffers (mapped host-visible memory), images and their views, image
// layout transitions, and the sampler cache.
#include "gpu.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include <cstring>
#include <tuple>

namespace mgl::magma {

bool SamplerKey::operator<(const SamplerKey& o) const {
    return std::tie(mag, min, mip, u, v, w, min_lod, max_lod, anisotropy, compare, compare_enable, lod_bias, border[0],
                    border[1], border[2], border[3]) <
           std::tie(o.mag, o.min, o.mip, o.u, o.v, o.w, o.min_lod, o.max_lod, o.anisotropy, o.compare, o.compare_enable,
                    o.lod_bias, o.border[0], o.border[1], o.border[2], o.border[3]);
}

// ---- resources --------------------------------------------------------------------

bool Gpu::create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, VkBuf& out, bool readback) {
    out = {};
    VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    ci.size = std::max<VkDeviceSize>(size, 4);
    ci.usage = usage;
    ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (!check(vkCreateBuffer(vk(), &ci, nullptr, &out.buf), "vkCreateBuffer")) return false;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(vk(), out.buf, &req);
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int type = readback ? dev_->memory_type(req.memoryTypeBits, host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT) : -1;
    if (type < 0) type = dev_->memory_type(req.memoryTypeBits, host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0) type = dev_->memory_type(req.memoryTypeBits, host);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = uint32_t(type);
    void* p = nullptr;
    if (type < 0 || !check(vkAllocateMemory(vk(), &ai, nullptr, &out.mem), "vkAllocateMemory") ||
        !check(vkBindBufferMemory(vk(), out.buf, out.mem, 0), "vkBindBufferMemory") ||
        !check(vkMapMemory(vk(), out.mem, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory")) {
        vkDestroyBuffer(vk(), out.buf, nullptr);
        if (out.mem) vkFreeMemory(vk(), out.mem, nullptr);
        out = {};
        return false;
    }
    out.map = static_cast<uint8_t*>(p);
    out.size = ci.size;
    out.cached = dev_->memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    return true;
}

void Gpu::destroy_buffer_later(VkBuf& b) {
    batch().released_bytes += b.size;  // counts toward stream_full: freed only when the batch is done
    if (!b.buf) return;
    VkBuffer buf = b.buf;
    VkDeviceMemory mem = b.mem;
    defer([buf, mem](VkDevice d) {
        vkDestroyBuffer(d, buf, nullptr);
        vkFreeMemory(d, mem, nullptr);
    });
    b = {};
}

bool Gpu::create_image(Image& img, VkImageUsageFlags usage) {
    // Sizes come from the client: an image beyond the device's limits is
    // invalid usage that a driver need not survive (lavapipe writes past its
    // own allocations), so it is refused here, for every caller.
    const VkPhysicalDeviceLimits& l = dev_->props.limits;
    const uint32_t max_dim = img.type == VK_IMAGE_TYPE_3D ? l.maxImageDimension3D
                             : img.cube                  ? l.maxImageDimensionCube
                                                         : l.maxImageDimension2D;
    uint32_t full_chain = 1;
    for (uint32_t m = std::max({img.width, img.height, img.depth}); m > 1; m >>= 1) ++full_chain;
    if (!img.width || !img.height || !img.depth || img.width > max_dim || img.height > max_dim ||
        img.depth > (img.type == VK_IMAGE_TYPE_3D ? max_dim : 1u) || !img.layers || img.layers > l.maxImageArrayLayers ||
        !img.levels || img.levels > full_chain) {
        img.image = VK_NULL_HANDLE;
        return false;
    }
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    // A 3D image's slices are framebuffer attachments (glFramebufferTexture3D,
    // glFramebufferTextureLayer): 2D views of them need 2D_ARRAY_COMPATIBLE (Vulkan 1.1).
    ci.flags = img.cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT
             : img.type == VK_IMAGE_TYPE_3D ? VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT : 0;
    ci.imageType = img.type;
    ci.format = img.format;
    ci.extent = {img.width, img.height, img.depth};
    ci.mipLevels = img.levels;
    ci.arrayLayers = img.layers;
    ci.samples = img.samples;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = usage;
    ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (!check(vkCreateImage(vk(), &ci, nullptr, &img.image), "vkCreateImage")) {
        img.image = VK_NULL_HANDLE;
        return false;
    }
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(vk(), img.image, &req);
    int type = dev_->memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0) type = dev_->memory_type(req.memoryTypeBits, 0);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = uint32_t(type);
    if (type < 0 || !check(vkAllocateMemory(vk(), &ai, nullptr, &img.mem), "vkAllocateMemory") ||
        !check(vkBindImageMemory(vk(), img.image, img.mem, 0), "vkBindImageMemory")) {
        vkDestroyImage(vk(), img.image, nullptr);
        if (img.mem) vkFreeMemory(vk(), img.mem, nullptr);
        img.image = VK_NULL_HANDLE;
        img.mem = VK_NULL_HANDLE;
        return false;
    }
    img.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    img.used_serial = 0;
    return true;
}

void Gpu::destroy_image_later(Image& img) {
    if (!img.image) return;
    VkImage i = img.image;
    VkDeviceMemory m = img.mem;
    defer([i, m](VkDevice d) {
        vkDestroyImage(d, i, nullptr);
        vkFreeMemory(d, m, nullptr);
    });
    img.image = VK_NULL_HANDLE;
    img.mem = VK_NULL_HANDLE;
}

VkImageView Gpu::create_view(const Image& img, VkImageViewType type, uint32_t base_level, uint32_t levels,
                             uint32_t base_layer, uint32_t layers, VkComponentMapping swizzle, bool sampled) {
    VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    ci.image = img.image;
    ci.viewType = type;
    ci.format = img.format;
    ci.components = swizzle;
    VkImageAspectFlags aspect = img.aspect;
    // A sampled depth/stencil view reads depth.
    if (sampled && (aspect & VK_IMAGE_ASPECT_DEPTH_BIT)) aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    ci.subresourceRange = {aspect, base_level, levels, base_layer, layers};
    VkImageView v = VK_NULL_HANDLE;
    check(vkCreateImageView(vk(), &ci, nullptr, &v), "vkCreateImageView");
    return v;
}

void Gpu::transition(VkCommandBuffer cb, Image& img, VkImageLayout layout) {
    if (img.layout == layout || !img.image) return;
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    b.oldLayout = img.layout;
    b.newLayout = layout;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = img.image;
    b.subresourceRange = {img.aspect, 0, img.levels, 0, img.layers};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &b);
    img.layout = layout;
}

VkSampler Gpu::sampler(const SamplerKey& k) {
    auto it = samplers_.find(k);
    if (it != samplers_.end()) return it->second;
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = k.mag;
    ci.minFilter = k.min;
    ci.mipmapMode = k.mip;
    ci.addressModeU = k.u;
    ci.addressModeV = k.v;
    ci.addressModeW = k.w;
    ci.minLod = k.min_lod;
    ci.maxLod = k.max_lod;
    ci.anisotropyEnable = k.anisotropy > 1.0f && dev_->features.samplerAnisotropy;
    ci.maxAnisotropy = std::min(k.anisotropy, dev_->props.limits.maxSamplerAnisotropy);
    ci.compareEnable = k.compare_enable;
    ci.compareOp = k.compare;
    const float bias_max = dev_->props.limits.maxSamplerLodBias;
    ci.mipLodBias = std::clamp(k.lod_bias, -bias_max, bias_max);
    // The border colour: one of Vulkan's fixed three when it is one, else a
    // custom one (VK_EXT_custom_border_color), else the nearest fixed one.
    const float* b = k.border;
    VkSamplerCustomBorderColorCreateInfoEXT custom{VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
    const bool rgb0 = b[0] == 0 && b[1] == 0 && b[2] == 0, rgb1 = b[0] == 1 && b[1] == 1 && b[2] == 1;
    if (rgb0 && b[3] == 0) ci.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    else if (rgb0 && b[3] == 1) ci.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
    else if (rgb1 && b[3] == 1) ci.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    else if (dev_->custom_border) {
        ci.borderColor = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
        std::memcpy(custom.customBorderColor.float32, b, 16);
        custom.format = VK_FORMAT_UNDEFINED;
        ci.pNext = &custom;
    } else {
        ci.borderColor = b[0] + b[1] + b[2] >= 1.5f ? VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE
                         : b[3] >= 0.5f             ? VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK
                                                    : VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
        if (!border_said_) {
            border_said_ = true;
            log_.warn("magma: {} has no VK_EXT_custom_border_color: a GL border colour other than (0,0,0,0), "
                      "(0,0,0,1) or (1,1,1,1) is drawn as the nearest of them", dev_->name);
        }
    }
    VkSampler s = VK_NULL_HANDLE;
    check(vkCreateSampler(vk(), &ci, nullptr, &s), "vkCreateSampler");
    samplers_[k] = s;
    return s;
}

}  // namespace mgl::magma
