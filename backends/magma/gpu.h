// What the GL layer records Vulkan work through: command batches (pools,
// fences, deferred destruction), streaming memory, descriptor pools, image
// layouts and barriers, the render pass and sampler caches, counters.
//
// Batches: kBatches command pools in a ring. Each batch has an `init`
// command buffer (uploads into resources the batch has not used yet) and
// `main` ones (passes, draws, in-order copies), submitted together. `main`
// is split into one command buffer per render pass (a pass and what follows
// it up to the next pass), so that a *prologue* can be put in front of the
// open pass in submission order: work on an image that the open pass has
// not used (mipmaps, uploads, layout changes) goes there instead of ending
// the pass (see prologue()). A
// is recycled once its fence signals; only then do its stream chunks,
// descriptor pools and garbage come back, so recording never waits for the
// GPU to drain except when all batches are in flight.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "device.h"
#include "mgl/magma/magma.h"

namespace spdlog {
class logger;
}

namespace mgl::magma {

// A buffer with its own memory, host-visible and persistently mapped.
struct VkBuf {
    VkBuffer buf = VK_NULL_HANDLE;
    VkDeviceMemory mem = VK_NULL_HANDLE;
    uint8_t* map = nullptr;
    VkDeviceSize size = 0;
    bool cached = false;  // HOST_CACHED: the host reads it at memory speed (not write-combined)
};

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory mem = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    uint32_t width = 0, height = 0, depth = 1, levels = 1, layers = 1;
    VkImageType type = VK_IMAGE_TYPE_2D;
    bool cube = false;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // > 1: a multisampled renderbuffer
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;  // of every subresource, after what main recorded
    uint64_t used_serial = 0;                           // last batch whose main command buffer uses it
    uint64_t used_pass = 0;  // last render pass (Gpu::pass_id()) that sampled it or drew into it
};

// A GL occlusion query as Vulkan sees it: one Vulkan query per render pass
// it spans (a Vulkan query cannot outlive its pass), summed for the result.
struct OcclusionQuery {
    std::vector<uint32_t> slots;  // Gpu::new_query() indices
    uint64_t serial = 0;          // the batch that ended it: the result is there once that batch is done
    bool precise = false;         // GL_SAMPLES_PASSED: counted exactly (VK_QUERY_CONTROL_PRECISE_BIT)
};

// The color attachments a pass, a target and a framebuffer hold: GL 3.0's 8
// draw buffers (a context reports fewer where the device has fewer, and ES
// contexts ES 3.0's 4: state_queries.cc, MagmaBackend::max_draw_buffers()).
constexpr int kMaxColorAttachments = 8;

struct PassKey {
    std::array<VkFormat, kMaxColorAttachments> color{};  // VK_FORMAT_UNDEFINED: no attachment
    VkFormat depth = VK_FORMAT_UNDEFINED;
    uint8_t clear_color = 0;          // bit per color attachment: loadOp CLEAR
    bool clear_depth = false, clear_stencil = false;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // of every attachment (GL: they must agree)
    bool operator<(const PassKey& o) const;
};

struct SamplerKey {
    VkFilter mag = VK_FILTER_LINEAR, min = VK_FILTER_LINEAR;
    VkSamplerMipmapMode mip = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    VkSamplerAddressMode u = VK_SAMPLER_ADDRESS_MODE_REPEAT, v = VK_SAMPLER_ADDRESS_MODE_REPEAT,
                         w = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    float min_lod = -1000.0f, max_lod = 1000.0f;
    float anisotropy = 1.0f;
    VkCompareOp compare = VK_COMPARE_OP_NEVER;
    bool compare_enable = false;
    float lod_bias = 0.0f;                  // GL_TEXTURE_LOD_BIAS
    float border[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // GL_TEXTURE_BORDER_COLOR
    bool operator<(const SamplerKey& o) const;
};

class Gpu {
public:
    static constexpr int kBatches = 3;

    // timeout_ms: how long one wait for the GPU may last (see hung()).
    // `queue`: the session's own queue on `device` (open_device).
    Gpu(std::shared_ptr<Device> device, VkQueue queue, spdlog::logger& log, uint32_t timeout_ms);
    ~Gpu();  // waits for its queue to go idle: bury() a hung Gpu instead

    Device& dev() { return *dev_; }
    VkDevice vk() const { return dev_->dev; }
    bool lost() const { return lost_; }
    // The GPU did not finish a batch within the timeout. The session is lost
    // (lost() is true as well), nothing more is submitted, and nothing the GPU
    // may still use is freed: the Gpu must be bury()'d, not destroyed.
    bool hung() const { return hung_; }
    // Why the session is lost ("" while it is not).
    const std::string& loss() const { return loss_; }
    // A Vulkan failure: VK_ERROR_DEVICE_LOST marks the session lost. Returns r == VK_SUCCESS.
    bool check(VkResult r, const char* what);
    // Keeps a hung Gpu (its device, memory and objects) until its GPU work
    // has finished, then destroys it; never waits. Finished ones are destroyed
    // whenever a Gpu is created or buried. Thread-safe.
    // `log` is the logger the Gpu was made with, kept alive as long as it.
    static void bury(std::unique_ptr<Gpu> gpu, std::shared_ptr<spdlog::logger> log);

    // ---- recording -----------------------------------------------------
    uint64_t serial() const { return batch().serial; }
    // Whether work of batch `serial` may still be recorded or running.
    bool busy(uint64_t serial);
    // Whether everything up to batch `serial` has completed: its batch
    // finished, or it is the recording one with nothing recorded yet and
    // every earlier one finished (a fence there is signaled already).
    bool done(uint64_t serial);
    VkCommandBuffer main();  // begun on first use; a new one for each render pass
    VkCommandBuffer init();  // runs before main in the same submit, after every earlier batch
    // Identifies the command buffer main() records into: bound state
    // (pipeline, sets, dynamic state) does not carry over to the next one.
    uint64_t main_id() const { return main_id_; }
    // Identifies the open (or last) render pass; Image::used_pass records it.
    uint64_t pass_id() const { return pass_id_; }
    // Only while a pass is open: a command buffer that runs after everything
    // recorded in main before the open pass began and before the pass itself
    // (full barriers on both sides). Work recorded here must not touch what
    // the open pass has used so far, so that reordering it in front of the
    // pass changes nothing GL can see; the pass stays open.
    VkCommandBuffer prologue();
    // Records into main outside a render pass: ends the pass and puts a full
    // barrier before what follows.
    VkCommandBuffer main_outside();
    // main_outside for a copy into a buffer: a run of such copies with nothing
    // else between them shares the full barrier in front of the first (each
    // later one waits only for the copies before it).
    VkCommandBuffer main_buffer_copy();
    // Submits the current batch and starts the next. wait: until the GPU is done.
    void submit(bool wait);
    // The current batch has streamed past its limit: the backend submits
    // it at the next point between verbs (MagmaBackend::bound_stream).
    bool stream_full();
    // Destroys after the current batch completes on the GPU.
    void defer(std::function<void(VkDevice)> fn);
    // Bytes valid until the current batch completes (uploads, uniforms, indices).
    struct Slice {
        VkBuffer buf = VK_NULL_HANDLE;
        VkDeviceSize offset = 0;
        uint8_t* ptr = nullptr;
    };
    Slice stream(VkDeviceSize size, VkDeviceSize align = 16);
    VkDescriptorSet allocate_set(VkDescriptorSetLayout layout);

    // ---- render passes -------------------------------------------------
    bool in_pass() const { return in_pass_; }
    void begin_pass(VkRenderPass pass, VkFramebuffer fb, uint32_t w, uint32_t h, const VkClearValue* clears,
                    uint32_t nclears);
    void end_pass();
    VkRenderPass render_pass(const PassKey& key);

    // ---- occlusion queries ---------------------------------------------
    // The query draws count into from now on (nullptr: none); an open Vulkan
    // query is ended. Draws call occlusion_draw() inside their pass, which
    // begins a Vulkan query in that pass if the active one has none there.
    void set_occlusion(OcclusionQuery* q);
    OcclusionQuery* occlusion() const { return occ_; }
    void occlusion_draw();
    // Frees the query's slots once the GPU is done with them; stops counting into it.
    void release_query(OcclusionQuery& q);
    // The sum of its samples passed. false: not available yet (wait=false)
    // or lost (wait=true waits, bounded). Submits the batch that holds it if
    // it is still recording, so that the result comes without a glFlush.
    bool query_result(const OcclusionQuery& q, bool wait, uint64_t& samples);

    // ---- images and buffers --------------------------------------------
    // readback: memory the host reads (host-cached when the device has it, never write-combined if avoidable).
    bool create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, VkBuf& out, bool readback = false);
    // Waits (bounded) until batch `serial` completed, submitting it first if it
    // is still recording. false: lost or hung.
    bool wait_serial(uint64_t serial);
    void destroy_buffer_later(VkBuf& b);
    bool create_image(Image& img, VkImageUsageFlags usage);
    void destroy_image_later(Image& img);
    VkImageView create_view(const Image& img, VkImageViewType type, uint32_t base_level, uint32_t levels,
                            uint32_t base_layer, uint32_t layers, VkComponentMapping swizzle = {}, bool sampled = false);
    // Moves every subresource of `img` to `layout` on cb (full barrier).
    void transition(VkCommandBuffer cb, Image& img, VkImageLayout layout);
    VkSampler sampler(const SamplerKey& key);

    Counters frame{}, totals{};
    void count_pass(VkFramebuffer fb) {
        ++frame.render_passes, ++totals.render_passes;
        // A pass on the framebuffer the last one drew into is a split (work that had to
        // leave the pass), not a switch: the counters tell the two apart.
        if (fb != last_target_) ++frame.target_switches, ++totals.target_switches;
        last_target_ = fb;
    }
    // Starts the next frame's counters (the first pass of a frame is a switch).
    void new_frame() {
        frame = {};
        last_target_ = VK_NULL_HANDLE;
    }
    void count_pipeline() { ++frame.pipelines; ++totals.pipelines; }
    // Adds the microseconds of its scope to a Counters field of the frame and
    // the totals (`Gpu::Timed t(gpu, &Counters::pipeline_us)`).
    class Timed {
    public:
        Timed(Gpu& g, uint64_t Counters::*field) : g_(g), field_(field), t0_(std::chrono::steady_clock::now()) {}
        ~Timed() {
            const auto us = uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                                         std::chrono::steady_clock::now() - t0_).count());
            g_.frame.*field_ += us;
            g_.totals.*field_ += us;
        }
        Timed(const Timed&) = delete;
        Timed& operator=(const Timed&) = delete;

    private:
        Gpu& g_;
        uint64_t Counters::*field_;
        std::chrono::steady_clock::time_point t0_;
    };
    void count_draw() { ++frame.draws; ++totals.draws; }
    void count_upload() { ++frame.uploads; ++totals.uploads; }
    void count_buffer_copy(uint64_t bytes, bool rename) {
        frame.buffer_copy_bytes += bytes, totals.buffer_copy_bytes += bytes;
        if (rename) ++frame.buffer_renames, ++totals.buffer_renames;
    }

private:
    VkFramebuffer last_target_ = VK_NULL_HANDLE;
    bool border_said_ = false;  // the border-colour fallback logged once
    struct Chunk {
        VkBuf buf;
        VkDeviceSize used = 0;
    };
    struct Batch {
        VkCommandPool pool = VK_NULL_HANDLE;
        VkCommandBuffer init = VK_NULL_HANDLE;
        VkCommandBuffer main = VK_NULL_HANDLE;      // the one main() records into (null: none begun yet)
        VkCommandBuffer prologue = VK_NULL_HANDLE;  // the open pass's prologue, if it has one
        std::vector<VkCommandBuffer> order;         // begun main command buffers in submission order
        std::vector<VkCommandBuffer> prologues;     // those of `order` that are prologues
        size_t pass_at = 0;                         // index in `order` of the open pass's command buffer
        std::vector<VkCommandBuffer> cbs;           // allocated from `pool`, reused after its reset
        size_t cb_at = 0;                           // next unused one of `cbs`
        VkFence fence = VK_NULL_HANDLE;
        uint64_t serial = 0;
        bool init_begun = false, pending = false;
        std::vector<std::function<void(VkDevice)>> garbage;
        std::vector<Chunk> chunks;
        size_t chunk_at = 0;
        VkDeviceSize released_bytes = 0;  // buffers replaced in this batch, freed when it is done
        VkDeviceSize streamed_bytes = 0;  // bytes handed out by stream() in this batch (stream_full: O(1) a draw)
        std::vector<VkDescriptorPool> pools;
        size_t pool_at = 0;
    };
    Batch& batch() { return batches_[cur_]; }
    // A begun command buffer from the batch's pool.
    VkCommandBuffer fresh(Batch& b);
    const Batch& batch() const { return batches_[cur_]; }
    // Waits (bounded) for its fence, frees what it held. false: the GPU hung
    // and the batch is still pending.
    bool recycle(Batch& b);
    // vkWaitForFences with the timeout; a timeout marks the GPU hung.
    bool wait_fence(VkFence fence);
    // Every submitted batch has completed (never waits).
    bool idle();
    static void reap();
    VkDescriptorPool new_pool();

    std::shared_ptr<Device> dev_;  // shared with other sessions' Gpus (open_device)
    VkQueue queue_;
    spdlog::logger& log_;
    std::shared_ptr<spdlog::logger> buried_log_;  // set by bury(): log_ outlives the backend
    uint64_t timeout_ns_;
    bool lost_ = false, hung_ = false;
    std::string loss_;
    // After a hang, what would have been freed waits for the destructor.
    std::vector<std::function<void(VkDevice)>> held_;
    // kBatches in the ring, and a spare one ("limbo") recorded into once the
    // GPU hung and every ring batch is stuck pending: never submitted.
    static constexpr int kLimbo = kBatches;
    std::array<Batch, kBatches + 1> batches_;
    int cur_ = 0;
    uint64_t next_serial_ = 1;
    bool in_pass_ = false;
    uint64_t main_id_ = 0, pass_id_ = 0;
    bool copy_run_ = false;  // the last thing recorded in main is a buffer copy (main_buffer_copy)
    // Occlusion query pools of kQueriesPerPool; a slot is pool * kQueriesPerPool + index.
    static constexpr uint32_t kQueriesPerPool = 256;
    std::vector<VkQueryPool> query_pools_;
    std::vector<uint32_t> free_queries_;
    OcclusionQuery* occ_ = nullptr;
    bool occ_open_ = false;  // a Vulkan query of occ_ is open in the current pass
    uint32_t new_query();    // reset in init, before this batch's main uses it
    std::map<PassKey, VkRenderPass> passes_;
    std::map<SamplerKey, VkSampler> samplers_;
};

}  // namespace mgl::magma
