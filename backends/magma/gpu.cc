#include "gpu.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include <cstring>
#include <mutex>
#include <tuple>

namespace mgl::magma {

namespace {
constexpr VkDeviceSize kChunkBytes = 4u << 20;
// A batch's streamed memory (uploads, partial buffer writes, immediate-mode
// vertices, uniforms) lives until the batch is submitted and done: past
// kBatchStreamLimit the backend submits it between verbs (stream_full), and
// a recycled batch keeps at most kKeptChunks chunks for reuse, so that a
// session drawing without end holds a bounded amount (piglit's
// tex-miplevel-selection streamed 12 GB into one batch, 2026-12-05).
constexpr VkDeviceSize kBatchStreamLimit = 256u << 20;
constexpr size_t kKeptChunks = 16;
constexpr uint32_t kSetsPerPool = 256;

VkMemoryBarrier full_memory_barrier() {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    return mb;
}
}  // namespace

bool PassKey::operator<(const PassKey& o) const {
    return std::tie(color, depth, clear_color, clear_depth, clear_stencil, samples) <
           std::tie(o.color, o.depth, o.clear_color, o.clear_depth, o.clear_stencil, o.samples);
}

bool SamplerKey::operator<(const SamplerKey& o) const {
    return std::tie(mag, min, mip, u, v, w, min_lod, max_lod, anisotropy, compare, compare_enable, lod_bias, border[0],
                    border[1], border[2], border[3]) <
           std::tie(o.mag, o.min, o.mip, o.u, o.v, o.w, o.min_lod, o.max_lod, o.anisotropy, o.compare, o.compare_enable,
                    o.lod_bias, o.border[0], o.border[1], o.border[2], o.border[3]);
}

Gpu::Gpu(std::shared_ptr<Device> device, VkQueue queue, spdlog::logger& log, uint32_t timeout_ms)
    : dev_(std::move(device)), queue_(queue), log_(log), timeout_ns_(uint64_t(timeout_ms) * 1000000u) {
    reap();
    for (Batch& b : batches_) {
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pci.queueFamilyIndex = dev_->queue_family;
        check(vkCreateCommandPool(vk(), &pci, nullptr, &b.pool), "vkCreateCommandPool");
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = b.pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        check(vkAllocateCommandBuffers(vk(), &ai, &b.init), "vkAllocateCommandBuffers");
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        check(vkCreateFence(vk(), &fci, nullptr, &b.fence), "vkCreateFence");
    }
    batches_[0].serial = next_serial_++;
}

Gpu::~Gpu() {
    if (!dev_ || !dev_->dev) return;
    vkQueueWaitIdle(queue_);  // instant for a buried Gpu: reap() found it idle
    hung_ = false;
    for (auto& fn : held_) fn(vk());
    held_.clear();
    for (Batch& b : batches_) {
        b.pending = false;
        recycle(b);
        for (Chunk& c : b.chunks) {
            vkDestroyBuffer(vk(), c.buf.buf, nullptr);
            vkFreeMemory(vk(), c.buf.mem, nullptr);
        }
        for (VkDescriptorPool p : b.pools) vkDestroyDescriptorPool(vk(), p, nullptr);
        vkDestroyFence(vk(), b.fence, nullptr);
        vkDestroyCommandPool(vk(), b.pool, nullptr);
    }
    for (auto& [k, p] : passes_) vkDestroyRenderPass(vk(), p, nullptr);
    for (VkQueryPool p : query_pools_) vkDestroyQueryPool(vk(), p, nullptr);
    for (auto& [k, s] : samplers_) vkDestroySampler(vk(), s, nullptr);
    // Idle and empty: the device may serve the next session (open_device).
    dev_->give_back_queue(queue_);
}

bool Gpu::check(VkResult r, const char* what) {
    if (r == VK_SUCCESS) return true;
    if (r == VK_ERROR_DEVICE_LOST) {
        if (!lost_) {
            log_.error("magma: {}: VK_ERROR_DEVICE_LOST: the session's contexts are lost", what);
            loss_ = "magma: the Vulkan device was lost (VK_ERROR_DEVICE_LOST); the session's contexts are lost";
        }
        lost_ = true;
        dev_->lost = true;
    } else {
        log_.error("magma: {} failed: {}", what, vk_result_name(r));
    }
    return false;
}

// ---- batches ------------------------------------------------------------------

VkCommandBuffer Gpu::fresh(Batch& b) {
    if (b.cb_at == b.cbs.size()) {
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = b.pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        VkCommandBuffer cb = VK_NULL_HANDLE;
        check(vkAllocateCommandBuffers(vk(), &ai, &cb), "vkAllocateCommandBuffers");
        b.cbs.push_back(cb);
    }
    VkCommandBuffer cb = b.cbs[b.cb_at++];
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cb, &bi), "vkBeginCommandBuffer");
    return cb;
}

VkCommandBuffer Gpu::main() {
    Batch& b = batch();
    if (!b.main) {
        b.main = fresh(b);
        b.order.push_back(b.main);
        ++main_id_;
    }
    return b.main;
}

VkCommandBuffer Gpu::prologue() {
    Batch& b = batch();
    if (!in_pass_) return main_outside();  // nothing to go in front of: in order
    if (!b.prologue) {
        // Inserted in front of the pass's command buffer; the barrier orders
        // it after everything earlier (the one closing it, in submit(),
        // before the pass and all that follows).
        b.prologue = fresh(b);
        b.order.insert(b.order.begin() + std::ptrdiff_t(b.pass_at), b.prologue);
        b.prologues.push_back(b.prologue);
        ++b.pass_at;
        const VkMemoryBarrier mb = full_memory_barrier();
        vkCmdPipelineBarrier(b.prologue, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                             &mb, 0, nullptr, 0, nullptr);
    }
    return b.prologue;
}

VkCommandBuffer Gpu::init() {
    Batch& b = batch();
    if (!b.init_begun) {
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(b.init, &bi), "vkBeginCommandBuffer");
        b.init_begun = true;
        // What init writes (uploads into images, staged copies into buffers)
        // comes after everything earlier batches still do with them.
        const VkMemoryBarrier mb = full_memory_barrier();
        vkCmdPipelineBarrier(b.init, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb,
                             0, nullptr, 0, nullptr);
    }
    return b.init;
}

VkCommandBuffer Gpu::main_buffer_copy() {
    if (copy_run_ && !in_pass_) {
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        vkCmdPipelineBarrier(main(), VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0,
                             nullptr, 0, nullptr);
        return main();
    }
    VkCommandBuffer cb = main_outside();
    copy_run_ = true;
    return cb;
}

VkCommandBuffer Gpu::main_outside() {
    copy_run_ = false;
    end_pass();
    VkCommandBuffer cb = main();
    const VkMemoryBarrier mb = full_memory_barrier();
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0,
                         nullptr, 0, nullptr);
    return cb;
}

void Gpu::submit(bool wait) {
    end_pass();
    Batch& b = batch();
    std::vector<VkCommandBuffer> cbs;
    cbs.reserve(b.order.size() + 1);
    if (b.init_begun) {
        // Everything init wrote is visible to main.
        const VkMemoryBarrier mb = full_memory_barrier();
        vkCmdPipelineBarrier(b.init, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb,
                             0, nullptr, 0, nullptr);
        check(vkEndCommandBuffer(b.init), "vkEndCommandBuffer");
        cbs.push_back(b.init);
    }
    // Everything a prologue wrote is visible to its pass and what follows.
    for (VkCommandBuffer p : b.prologues) {
        const VkMemoryBarrier mb = full_memory_barrier();
        vkCmdPipelineBarrier(p, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0,
                             nullptr, 0, nullptr);
    }
    if (!b.order.empty()) {
        // Host reads (readback) see what the batch wrote.
        VkMemoryBarrier mb = full_memory_barrier();
        mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(b.order.back(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                             0, nullptr, 0, nullptr);
    }
    for (VkCommandBuffer cb : b.order) {
        check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
        cbs.push_back(cb);
    }
    const uint32_t n = uint32_t(cbs.size());
    // A batch with nothing recorded but objects to free still signals its
    // fence: the fence covers every earlier submission, so the objects are
    // freed only once nothing can still use them.
    if ((n > 0 || !b.garbage.empty()) && !lost_) {
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = n;
        si.pCommandBuffers = cbs.data();
        bool submitted = false;
        {
            Timed t(*this, &Counters::submit_us);
            submitted = check(vkQueueSubmit(queue_, 1, &si, b.fence), "vkQueueSubmit");
        }
        if (submitted) {
            b.pending = true;
            if (n > 0) {
                ++frame.submits;
                ++totals.submits;
            }
        }
    }
    b.init_begun = false;
    b.main = b.prologue = VK_NULL_HANDLE;
    b.order.clear();
    b.prologues.clear();
    copy_run_ = false;
    if (wait) recycle(b);
    cur_ = (cur_ + 1) % kBatches;
    // Waits only when every batch is in flight. A batch stuck on a hung GPU
    // cannot be recorded into again: what is recorded from now on (and never
    // submitted) goes to the limbo batch.
    if (!recycle(batch())) {
        cur_ = kLimbo;
        recycle(batch());
    }
    batch().serial = next_serial_++;
}

bool Gpu::wait_fence(VkFence fence) {
    VkResult r;
    {
        Timed t(*this, &Counters::gpu_wait_us);
        r = vkWaitForFences(vk(), 1, &fence, VK_TRUE, timeout_ns_);
    }
    if (r != VK_TIMEOUT) return check(r, "vkWaitForFences");
    // A GPU that does not finish is treated like a lost device: the session
    // ends with a lost context, the server goes on.
    if (!hung_) {
        log_.error("magma: the GPU did not finish a batch within {} ms: treated as a hang, the session's contexts "
                   "are lost (MOBILEGL_MAGMA_GPU_TIMEOUT_MS sets the limit)",
                   timeout_ns_ / 1000000u);
        loss_ = fmt::format("magma: GPU hang: a batch did not finish within {} ms; the session's contexts are lost",
                            timeout_ns_ / 1000000u);
    }
    hung_ = lost_ = true;
    dev_->lost = true;  // not shared or kept: its queue may never finish
    return false;
}

bool Gpu::recycle(Batch& b) {
    if (b.pending) {
        if (hung_) {
            // Never wait again once hung; the batch is done only if its fence says so.
            if (vkGetFenceStatus(vk(), b.fence) == VK_NOT_READY) return false;
        } else if (!wait_fence(b.fence) && hung_) {
            return false;
        }
        vkResetFences(vk(), 1, &b.fence);
        b.pending = false;
    }
    if (hung_) {
        // A hung batch may still use what later batches let go of.
        for (auto& fn : b.garbage) held_.push_back(std::move(fn));
    } else {
        for (auto& fn : b.garbage) fn(vk());
    }
    b.garbage.clear();
    if (b.pool) vkResetCommandPool(vk(), b.pool, 0);
    b.init_begun = false;
    b.main = b.prologue = VK_NULL_HANDLE;
    b.order.clear();
    b.prologues.clear();
    b.cb_at = 0;
    for (Chunk& c : b.chunks) c.used = 0;
    b.chunk_at = 0;
    b.released_bytes = b.streamed_bytes = 0;
    if (!hung_ && b.chunks.size() > kKeptChunks) {
        // Done with (the fence was waited for above): large chunks and those past the kept ones go.
        std::vector<Chunk> kept;
        for (Chunk& c : b.chunks) {
            if (kept.size() < kKeptChunks && c.buf.size <= kChunkBytes) {
                kept.push_back(c);
                continue;
            }
            vkDestroyBuffer(vk(), c.buf.buf, nullptr);
            vkFreeMemory(vk(), c.buf.mem, nullptr);
        }
        b.chunks = std::move(kept);
    }
    for (VkDescriptorPool p : b.pools) vkResetDescriptorPool(vk(), p, 0);
    b.pool_at = 0;
    return true;
}

bool Gpu::idle() {
    for (Batch& b : batches_)
        if (b.pending && vkGetFenceStatus(vk(), b.fence) == VK_NOT_READY) return false;
    return true;
}

namespace {
// Hung Gpus waiting for their work to finish. At exit the list goes but a
// still hung device is left to the process's end rather than waited for. A
// plain object, not a leaked `new`: the library is dlclose'd by glvnd, and a
// heap list whose only pointer unloads with it is a leak to LeakSanitizer.
std::mutex g_graves_mutex;
std::vector<Gpu*> g_graves_list;
std::vector<Gpu*>* const g_graves = &g_graves_list;
}  // namespace

void Gpu::bury(std::unique_ptr<Gpu> gpu, std::shared_ptr<spdlog::logger> log) {
    if (gpu) {
        gpu->buried_log_ = std::move(log);
        std::lock_guard lock(g_graves_mutex);
        g_graves->push_back(gpu.release());
    }
    reap();
}

void Gpu::reap() {
    std::vector<Gpu*> done;
    {
        std::lock_guard lock(g_graves_mutex);
        for (auto it = g_graves->begin(); it != g_graves->end();) {
            if ((*it)->idle()) {
                done.push_back(*it);
                it = g_graves->erase(it);
            } else {
                ++it;
            }
        }
    }
    for (Gpu* g : done) delete g;
}

bool Gpu::busy(uint64_t serial) {
    if (serial == 0) return false;
    for (Batch& b : batches_) {
        if (b.serial != serial) continue;
        if (&b == &batch()) return true;
        return b.pending && vkGetFenceStatus(vk(), b.fence) == VK_NOT_READY;
    }
    return false;  // recycled long ago
}

void Gpu::defer(std::function<void(VkDevice)> fn) { batch().garbage.push_back(std::move(fn)); }

bool Gpu::stream_full() {
    // Streamed bytes and the buffers replaced (renamed, orphaned) in this
    // batch: both are held until it is submitted and done.
    return batch().released_bytes + batch().streamed_bytes >= kBatchStreamLimit;
}

Gpu::Slice Gpu::stream(VkDeviceSize size, VkDeviceSize align) {
    Batch& b = batch();
    if (size == 0) size = 4;
    for (; b.chunk_at < b.chunks.size(); ++b.chunk_at) {
        Chunk& c = b.chunks[b.chunk_at];
        const VkDeviceSize at = (c.used + align - 1) / align * align;
        if (at + size <= c.buf.size) {
            b.streamed_bytes += at + size - c.used;
            c.used = at + size;
            return {c.buf.buf, at, c.buf.map + at};
        }
    }
    Chunk c;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                     VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
                                     VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (!create_buffer(std::max(kChunkBytes, size), usage, c.buf)) return {};
    c.used = size;
    b.streamed_bytes += size;
    b.chunks.push_back(c);
    b.chunk_at = b.chunks.size() - 1;
    return {c.buf.buf, 0, c.buf.map};
}

VkDescriptorPool Gpu::new_pool() {
    const VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, kSetsPerPool},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetsPerPool},  // the default block on some devices
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, kSetsPerPool * 4},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kSetsPerPool * 8},
    };
    VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    ci.maxSets = kSetsPerPool;
    ci.poolSizeCount = uint32_t(std::size(sizes));
    ci.pPoolSizes = sizes;
    VkDescriptorPool p = VK_NULL_HANDLE;
    check(vkCreateDescriptorPool(vk(), &ci, nullptr, &p), "vkCreateDescriptorPool");
    return p;
}

VkDescriptorSet Gpu::allocate_set(VkDescriptorSetLayout layout) {
    Batch& b = batch();
    for (;;) {
        if (b.pool_at >= b.pools.size()) {
            VkDescriptorPool p = new_pool();
            if (!p) return VK_NULL_HANDLE;
            b.pools.push_back(p);
        }
        VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = b.pools[b.pool_at];
        ai.descriptorSetCount = 1;
        ai.pSetLayouts = &layout;
        VkDescriptorSet set = VK_NULL_HANDLE;
        const VkResult r = vkAllocateDescriptorSets(vk(), &ai, &set);
        if (r == VK_SUCCESS) {
            ++frame.descriptor_sets;
            ++totals.descriptor_sets;
            return set;
        }
        if (r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL) {
            check(r, "vkAllocateDescriptorSets");
            return VK_NULL_HANDLE;
        }
        ++b.pool_at;  // this pool is full: the next one (grown on demand)
    }
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
    ci.flags = img.cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
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
