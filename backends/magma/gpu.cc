// Gpu: its life (creation, loss, hung devices buried), the batch ring
// (command buffers, submission, fences, recycling), deferred destruction,
// streamed memory and descriptor sets. Resources: gpu_resources.cc; render
// passes and occlusion query pools: gpu_passes.cc.
#include "gpu.h"

#include <algorithm>

#include <spdlog/spdlog.h>

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

bool Gpu::done(uint64_t serial) {
    const Batch& b = batch();
    if (serial == b.serial) return !b.init_begun && !b.main && b.order.empty() && idle();
    return !busy(serial) && idle();
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
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetsPerPool * 4},  // the default block on some devices, storage blocks
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

}  // namespace mgl::magma
