// The Vulkan parts of GL objects go when the last user lets go: destroyed
// after the batches that may still use them complete (Gpu::defer).
#include "objects.h"

namespace mgl::magma {

Buffer::~Buffer() {
    if (gpu) gpu->destroy_buffer_later(vk);
}

Texture::~Texture() {
    if (!gpu) return;
    VkImageView v = view;
    std::vector<VkImageView> views;
    for (auto& [k, av] : attach_views) views.push_back(av);
    gpu->defer([v, views](VkDevice d) {
        if (v) vkDestroyImageView(d, v, nullptr);
        for (VkImageView av : views) vkDestroyImageView(d, av, nullptr);
    });
    gpu->destroy_image_later(img);
}

Renderbuffer::~Renderbuffer() {
    if (!gpu) return;
    VkImageView v = view;
    gpu->defer([v](VkDevice d) {
        if (v) vkDestroyImageView(d, v, nullptr);
    });
    gpu->destroy_image_later(img);
}

Framebuffer::~Framebuffer() {
    if (!gpu || !fb) return;
    VkFramebuffer f = fb;
    gpu->defer([f](VkDevice d) { vkDestroyFramebuffer(d, f, nullptr); });
}

}  // namespace mgl::magma
