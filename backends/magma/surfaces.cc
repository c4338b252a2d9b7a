// Session verbs about surfaces: a client surface is an RGBA8 color image and
// a depth/stencil image (no swapchain: frames leave through readback). Image
// row 0 is GL's bottom row, so readback needs no flip (see ARCHITECTURE-magma.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "backend.h"

namespace mgl::magma {

namespace {
constexpr GLenum kWindowSurface = 0x3034;
constexpr int kMaxSide = 16384;
}  // namespace

// An EGL_SAMPLES request as a Vulkan count: the smallest one >= samples (at
// most GL_MAX_SAMPLES) that both the color and depth/stencil formats have,
// as renderbuffers choose theirs.
VkSampleCountFlagBits MagmaBackend::surface_samples(int samples) {
    if (samples <= 1) return VK_SAMPLE_COUNT_1_BIT;
    const Device& dev = gpu_->dev();
    const VkSampleCountFlags have = dev.msaa_counts(VK_FORMAT_R8G8B8A8_UNORM) & dev.msaa_counts(dev.depth_stencil_format);
    const int want = std::min(samples, dev.max_samples());
    for (int n = 2; n <= 64; n *= 2)
        if (n >= want && (have & VkSampleCountFlags(n))) return VkSampleCountFlagBits(n);
    log().warn("magma: no {}x multisampled surface on this device: single-sampled", samples);
    return VK_SAMPLE_COUNT_1_BIT;
}

bool MagmaBackend::make_surface_images(Surface& s) {
    s.color = {};
    s.color.format = VK_FORMAT_R8G8B8A8_UNORM;
    s.color.width = uint32_t(s.width);
    s.color.height = uint32_t(s.height);
    if (!gpu_->create_image(s.color, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT))
        return false;
    s.color_view = gpu_->create_view(s.color, VK_IMAGE_VIEW_TYPE_2D, 0, 1, 0, 1);
    const bool ms = s.samples > 1;
    s.resolved_pass = 0;  // both images start cleared to zero: resolved
    if (ms) {
        // What draws render into; `color` receives its resolve (resolve_surface).
        s.ms_color = {};
        s.ms_color.format = s.color.format;
        s.ms_color.width = s.color.width;
        s.ms_color.height = s.color.height;
        s.ms_color.samples = s.samples;
        if (!gpu_->create_image(s.ms_color, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                VK_IMAGE_USAGE_TRANSFER_DST_BIT))
            return false;
        s.ms_view = gpu_->create_view(s.ms_color, VK_IMAGE_VIEW_TYPE_2D, 0, 1, 0, 1);
    }
    VkImageView views[2] = {ms ? s.ms_view : s.color_view, VK_NULL_HANDLE};
    PassKey key;
    key.color[0] = s.color.format;
    key.samples = s.samples;
    if (s.has_depth) {
        s.ds = {};
        s.ds.format = gpu_->dev().depth_stencil_format;
        s.ds.aspect = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
        s.ds.width = s.color.width;
        s.ds.height = s.color.height;
        s.ds.samples = s.samples;
        if (!gpu_->create_image(s.ds, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT))
            return false;
        s.ds_view = gpu_->create_view(s.ds, VK_IMAGE_VIEW_TYPE_2D, 0, 1, 0, 1);
        views[1] = s.ds_view;
        key.depth = s.ds.format;
    }
    VkFramebufferCreateInfo fi{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fi.renderPass = gpu_->render_pass(key);
    fi.attachmentCount = s.has_depth ? 2 : 1;
    fi.pAttachments = views;
    fi.width = s.color.width;
    fi.height = s.color.height;
    fi.layers = 1;
    if (!gpu_->check(vkCreateFramebuffer(gpu_->vk(), &fi, nullptr, &s.fb), "vkCreateFramebuffer")) return false;
    // A new surface starts cleared to zero, as fresh pbuffers do on Mesa.
    VkCommandBuffer cb = gpu_->init();
    const VkClearColorValue zero{};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    for (Image* img : {&s.color, &s.ms_color}) {
        if (!img->image) continue;
        gpu_->transition(cb, *img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        vkCmdClearColorImage(cb, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
        gpu_->transition(cb, *img, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    }
    if (s.has_depth) gpu_->transition(cb, s.ds, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    ++s.generation;
    return true;
}

// A multisampled surface's pixels as GL observes them (swap, glReadPixels,
// mglReadSurface, glCopyTex*): one vkCmdResolveImage into `color`, recorded
// when observed rather than per render pass, and only when a pass has
// rendered into it since the last resolve. glBlitFramebuffer from the
// surface resolves by itself (its read target is the multisampled image).
void MagmaBackend::resolve_surface(Surface& s) {
    if (s.samples == VK_SAMPLE_COUNT_1_BIT || !s.ms_color.image || !s.color.image || gpu_->lost()) return;
    // Every write into ms_color is in a render pass (draws, clears), which
    // stamps used_pass: no pass since the last resolve, nothing to resolve
    // (a second glReadPixels of a frame costs no resolve).
    if (s.ms_color.used_pass == s.resolved_pass) return;
    s.resolved_pass = s.ms_color.used_pass;
    VkCommandBuffer cb = gpu_->main_outside();
    open_id_ = nullptr;
    gpu_->transition(cb, s.ms_color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    gpu_->transition(cb, s.color, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkImageResolve r{};
    r.srcSubresource = r.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    r.extent = {s.color.width, s.color.height, 1};
    vkCmdResolveImage(cb, s.ms_color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, s.color.image,
                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
    s.ms_color.used_serial = s.color.used_serial = gpu_->serial();
}

void MagmaBackend::destroy_surface(Surface& s) {
    if (!gpu_) return;
    if (open_id_ == &s) {
        gpu_->end_pass();
        open_id_ = nullptr;
    }
    VkFramebuffer fb = s.fb;
    VkImageView cv = s.color_view, dv = s.ds_view, mv = s.ms_view;
    gpu_->defer([fb, cv, dv, mv](VkDevice d) {
        if (fb) vkDestroyFramebuffer(d, fb, nullptr);
        if (cv) vkDestroyImageView(d, cv, nullptr);
        if (dv) vkDestroyImageView(d, dv, nullptr);
        if (mv) vkDestroyImageView(d, mv, nullptr);
    });
    s.fb = VK_NULL_HANDLE;
    s.color_view = s.ds_view = s.ms_view = VK_NULL_HANDLE;
    for (Surface::Readback& rb : s.readbacks) {
        gpu_->destroy_buffer_later(rb.buf);  // a frame still in flight is not presented
        rb.pending = false;
    }
    gpu_->destroy_image_later(s.color);
    gpu_->destroy_image_later(s.ds);
    gpu_->destroy_image_later(s.ms_color);
}

void MagmaBackend::mglCreateSurface(GLuint surface, GLenum kind, GLint width, GLint height, GLint red, GLint green,
                                    GLint blue, GLint alpha, GLint depth, GLint stencil, GLint samples) {
    if (surface == 0 || surfaces_.count(surface)) {
        session_error("mglCreateSurface", fmt::format("surface name {} is 0 or in use", surface));
        return;
    }
    auto s = std::make_unique<Surface>();
    s->id = surface;
    s->window = kind == kWindowSurface;
    s->width = std::clamp(width, 1, kMaxSide);
    s->height = std::clamp(height, 1, kMaxSide);
    s->has_depth = depth > 0 || stencil > 0;
    s->samples = surface_samples(samples);
    if (!make_surface_images(*s)) {
        session_error("mglCreateSurface", "cannot create the surface images");
        destroy_surface(*s);
        return;
    }
    surfaces_[surface] = std::move(s);
}

void MagmaBackend::mglResizeSurface(GLuint surface, GLint width, GLint height) {
    auto it = surfaces_.find(surface);
    if (it == surfaces_.end()) {
        session_error("mglResizeSurface", fmt::format("surface {} does not exist", surface));
        return;
    }
    Surface& s = *it->second;
    const int w = std::clamp(width, 1, kMaxSide), h = std::clamp(height, 1, kMaxSide);
    if (w == s.width && h == s.height) return;
    destroy_surface(s);
    s.width = w;
    s.height = h;
    if (!make_surface_images(s)) session_error("mglResizeSurface", "cannot create the surface images");
}

void MagmaBackend::mglDestroySurface(GLuint surface) {
    auto it = surfaces_.find(surface);
    if (it == surfaces_.end()) {
        session_error("mglDestroySurface", fmt::format("surface {} does not exist", surface));
        return;
    }
    if (draw_ == it->second.get() || read_ == it->second.get()) doomed_surfaces_.push_back(std::move(it->second));
    else destroy_surface(*it->second);
    surfaces_.erase(it);
}

// Copies a region of one subresource to the host and waits: the blocking
// readback (glReadPixels, surface readback). `out` holds tightly packed texels.
bool MagmaBackend::read_image(Image& img, uint32_t level, uint32_t layer, int x, int y, int w, int h,
                              VkFormat& format, std::vector<uint8_t>& out, bool stencil) {
    if (!img.image || w <= 0 || h <= 0) return false;
    if (stencil && !(img.aspect & VK_IMAGE_ASPECT_STENCIL_BIT)) return false;
    // A depth aspect copies out 4 bytes a texel (D24 in the low bits, or D32 float), D16 2.
    const uint32_t bpp = stencil                                ? 1
                         : img.format == VK_FORMAT_D16_UNORM    ? 2
                         : is_depth_format(img.format)          ? 4
                                                                : format_bytes(img.format);
    const VkDeviceSize bytes = VkDeviceSize(w) * h * bpp;
    Gpu::Slice s = gpu_->stream(bytes, 16);
    if (!s.ptr) return false;
    VkCommandBuffer cb = gpu_->main_outside();
    open_id_ = nullptr;
    const VkImageLayout keep = img.layout;
    gpu_->transition(cb, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkBufferImageCopy r{};
    r.bufferOffset = s.offset;
    r.imageSubresource = {img.aspect & VK_IMAGE_ASPECT_COLOR_BIT ? VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT)
                          : stencil                              ? VkImageAspectFlags(VK_IMAGE_ASPECT_STENCIL_BIT)
                                                                 : VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT),
                          level, img.type == VK_IMAGE_TYPE_3D ? 0 : layer, 1};
    r.imageOffset = {x, y, img.type == VK_IMAGE_TYPE_3D ? int32_t(layer) : 0};  // a 3D image's slice
    r.imageExtent = {uint32_t(w), uint32_t(h), 1};
    vkCmdCopyImageToBuffer(cb, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, s.buf, 1, &r);
    if (keep != VK_IMAGE_LAYOUT_UNDEFINED) gpu_->transition(cb, img, keep);
    img.used_serial = gpu_->serial();
    gpu_->submit(true);
    if (gpu_->lost()) return false;
    format = stencil ? VK_FORMAT_S8_UINT : img.format;
    out.assign(s.ptr, s.ptr + bytes);
    return true;
}

bool MagmaBackend::read_surface_rgba(Surface& s, int x, int y, int w, int h, uint8_t* out) {
    VkFormat f;
    std::vector<uint8_t> px;
    resolve_surface(s);
    if (!read_image(s.color, 0, 0, x, y, w, h, f, px)) return false;
    std::memcpy(out, px.data(), size_t(w) * h * 4);
    return true;
}

void MagmaBackend::end_frame() {
    last_frame_ = gpu_->frame;
    gpu_->new_frame();
    ++frames_;
    if (frame_stats_) {
        // The apply thread's wall and CPU time since the previous swap: with
        // the fence waits and submits counted by Gpu, where a frame's time went.
        timespec cpu{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        const uint64_t cpu_us = uint64_t(cpu.tv_sec) * 1000000u + uint64_t(cpu.tv_nsec) / 1000u;
        const auto now = std::chrono::steady_clock::now();
        // Frame 1's wall counts from the backend's creation (the session's
        // start): device, shaders and pipelines made before the first swap.
        const uint64_t wall_us =
            uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(now - last_frame_end_).count());
        const uint64_t frame_cpu_us = frames_ > 1 ? cpu_us - last_frame_cpu_us_ : 0;
        last_frame_end_ = now;
        last_frame_cpu_us_ = cpu_us;
        const Counters& c = last_frame_;
        std::fprintf(stderr,
                     "magma frame %llu: %llu render passes (%llu target switches), %llu pipelines created, "
                     "%llu descriptor sets, %llu submits, %llu draws; %llu us wall, %llu us apply-thread cpu, "
                     "%llu us gpu wait, %llu us submit, %llu us compile, %llu us pipelines\n",
                     (unsigned long long)frames_, (unsigned long long)c.render_passes,
                     (unsigned long long)c.target_switches, (unsigned long long)c.pipelines,
                     (unsigned long long)c.descriptor_sets, (unsigned long long)c.submits,
                     (unsigned long long)c.draws, (unsigned long long)wall_us, (unsigned long long)frame_cpu_us,
                     (unsigned long long)c.gpu_wait_us, (unsigned long long)c.submit_us,
                     (unsigned long long)c.compile_us, (unsigned long long)c.pipeline_us);
    }
}

void MagmaBackend::mglSwapBuffers(GLuint surface, GLuint64 frame) {
    auto it = surfaces_.find(surface);
    if (it == surfaces_.end()) {
        session_error("mglSwapBuffers", fmt::format("surface {} does not exist", surface));
        return;
    }
    Surface& s = *it->second;
    if (!s.window) {
        // A pbuffer swap only flushes, as eglSwapBuffers does for pbuffers.
        gpu_->submit(false);
        open_id_ = nullptr;
        end_frame();
        return;
    }
    // The frame goes to a readback buffer in this batch; it is presented when
    // the batch completes (here at a later swap, or when the front is read),
    // so a swap does not wait for the GPU unless kReadbacks frames are in flight.
    Surface::Readback& rb = s.readbacks[size_t(s.next_readback)];
    if (rb.pending) present_ready(s, true);  // the oldest: wait for it
    if (!s.color.image || gpu_->lost()) return;
    const VkDeviceSize bytes = VkDeviceSize(s.width) * s.height * 4;
    if (rb.buf.size < bytes) {
        gpu_->destroy_buffer_later(rb.buf);
        if (!gpu_->create_buffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, rb.buf, true)) return set_error(GL_OUT_OF_MEMORY);
    }
    resolve_surface(s);
    VkCommandBuffer cb = gpu_->main_outside();
    open_id_ = nullptr;
    const VkImageLayout keep = s.color.layout;
    gpu_->transition(cb, s.color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkBufferImageCopy r{};
    r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    r.imageExtent = {uint32_t(s.width), uint32_t(s.height), 1};
    vkCmdCopyImageToBuffer(cb, s.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb.buf.buf, 1, &r);
    if (keep != VK_IMAGE_LAYOUT_UNDEFINED) gpu_->transition(cb, s.color, keep);
    s.color.used_serial = rb.serial = gpu_->serial();
    rb.frame = frame;
    rb.width = s.width;
    rb.height = s.height;
    rb.pending = true;
    s.next_readback = (s.next_readback + 1) % Surface::kReadbacks;
    gpu_->submit(false);
    open_id_ = nullptr;
    end_frame();
    present_ready(s, false);
}

void MagmaBackend::present_ready(Surface& s, bool wait) {
    for (;;) {
        Surface::Readback* oldest = nullptr;
        for (Surface::Readback& rb : s.readbacks)
            if (rb.pending && (!oldest || rb.serial < oldest->serial)) oldest = &rb;
        if (!oldest) return;
        if (gpu_->busy(oldest->serial)) {
            if (!wait) return;
            if (!gpu_->wait_serial(oldest->serial)) {  // lost or hung: nothing more to present
                for (Surface::Readback& rb : s.readbacks) rb.pending = false;
                return;
            }
        }
        oldest->pending = false;
        const size_t bytes = size_t(oldest->width) * oldest->height * 4;
        s.front.assign(oldest->buf.map, oldest->buf.map + bytes);
        s.front_width = oldest->width;
        s.front_height = oldest->height;
        if (present_) present_(Frame{s.id, oldest->frame, oldest->width, oldest->height, s.front.data()});
    }
}

void MagmaBackend::mglReadSurface(GLuint surface, GLint x, GLint y, GLint width, GLint height,
                                  wire::Out<GLubyte> pixels) {
    auto it = surfaces_.find(surface);
    if (it == surfaces_.end()) {
        session_error("mglReadSurface", fmt::format("surface {} does not exist", surface));
        return;
    }
    Surface& s = *it->second;
    if (width <= 0 || height <= 0 || uint64_t(width) * uint64_t(height) * 4 > pixels.size) return;
    if (s.window) present_ready(s, true);  // the last swapped frame, not an older one
    const bool front = s.window && !s.front.empty();
    const int sw = front ? s.front_width : s.width, sh = front ? s.front_height : s.height;
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = int(std::min<int64_t>(int64_t(x) + width, sw)), y1 = int(std::min<int64_t>(int64_t(y) + height, sh));
    if (x0 >= x1 || y0 >= y1) return;
    const size_t row = size_t(width) * 4;
    std::vector<uint8_t> tmp;
    const uint8_t* src;
    int src_w;
    if (front) {
        src = s.front.data() + (size_t(y0) * sw + x0) * 4;
        src_w = sw;
    } else {
        tmp.resize(size_t(x1 - x0) * (y1 - y0) * 4);
        if (!read_surface_rgba(s, x0, y0, x1 - x0, y1 - y0, tmp.data())) return;
        src = tmp.data();
        src_w = x1 - x0;
    }
    for (int r = y0; r < y1; ++r)
        std::memcpy(pixels.data + size_t(r - y) * row + size_t(x0 - x) * 4, src + size_t(r - y0) * src_w * 4,
                    size_t(x1 - x0) * 4);
}

}  // namespace mgl::magma
