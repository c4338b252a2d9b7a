// The Magma backend: GL ES 2.0/3.0 implemented on Vulkan 1.1+ through the
// Vulkan loader (any ICD; lavapipe on a machine without a GPU).
//
// Threading: one backend per session, used by that session's apply thread
// only. Creating it opens the session's own VkDevice (so that a lost device
// ends that session only) and may happen on any thread; every later call
// must come from one thread at a time. release() frees every Vulkan object.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "gen/backend.h"

namespace spdlog {
class logger;
}

namespace mgl::magma {

struct Options {
    // Where the backend logs (unsupported verbs, refused arguments, Vulkan
    // failures, the chosen device). nullptr: spdlog's default logger.
    std::shared_ptr<spdlog::logger> logger;
    // How long a wait for the GPU may last before the GPU counts as hung and
    // the session's contexts are lost (like VK_ERROR_DEVICE_LOST). 0: the
    // environment's MOBILEGL_MAGMA_GPU_TIMEOUT_MS, else 10000.
    uint32_t gpu_timeout_ms = 0;
};

// A frame of a window surface, presented at mglSwapBuffers: RGBA8, bottom row
// first, tightly packed. Valid during the callback only. (The same shape as
// mgl::espryt::Frame: one present seam for both backends.)
struct Frame {
    uint32_t surface = 0;
    uint64_t frame = 0;  // the client's swap counter
    int width = 0, height = 0;
    const uint8_t* rgba = nullptr;
};
using PresentFn = std::function<void(const Frame&)>;

// Work counted per frame (reset at each mglSwapBuffers of a window surface;
// totals() never resets).
struct Counters {
    uint64_t render_passes = 0;     // vkCmdBeginRenderPass
    uint64_t target_switches = 0;   // passes begun on another framebuffer than the frame's previous one
    uint64_t pipelines = 0;         // vkCreateGraphicsPipelines (cache misses)
    uint64_t descriptor_sets = 0;   // vkAllocateDescriptorSets
    uint64_t submits = 0;           // vkQueueSubmit
    uint64_t draws = 0;
    uint64_t uploads = 0;           // staging copies recorded
    uint64_t buffer_renames = 0;    // writes to a busy buffer that gave it fresh memory
    uint64_t buffer_copy_bytes = 0; // bytes copied for writes to busy buffers (old bytes kept by a
                                    // rename, or the written bytes staged and copied by the GPU)
    // Where the apply thread's time went (microseconds): blocked on fences
    // (the GPU's progress) and inside vkQueueSubmit. With the frame's wall and
    // CPU time (MOBILEGL_MAGMA_STATS) this tells a GPU-bound frame from one
    // bound by Magma's own recording on a device perf cannot reach.
    uint64_t gpu_wait_us = 0;
    uint64_t submit_us = 0;
    uint64_t compile_us = 0;   // glCompileShader and glLinkProgram (glslang, SPIR-V passes)
    uint64_t pipeline_us = 0;  // vkCreateGraphicsPipelines
};

class Magma : public Backend {
public:
    // The first GL error of the current context since the last call.
    virtual uint32_t take_error() = 0;
    // Called at each mglSwapBuffers of a window surface with the finished frame.
    virtual void set_present(PresentFn fn) = 0;
    // Frees every Vulkan object of the session; later verbs find no context.
    virtual void release() = 0;
    // The last finished frame's counters, and the running totals.
    virtual Counters frame_counters() const = 0;
    virtual Counters total_counters() const = 0;
    // The Vulkan device in use ("llvmpipe (LLVM 15.0.6, 256 bits)").
    virtual std::string device_name() const = 0;
    // The device reads the default uniform block through a descriptor set per
    // copy (lavapipe: a storage buffer for the vertex stages; counters differ).
    virtual bool default_block_per_copy() const = 0;
    // Set once the Vulkan device is lost, or the GPU did not finish a batch
    // within the GPU timeout (a hang): the session's contexts are lost,
    // every later verb is ignored, glGetError says GL_CONTEXT_LOST and
    // fault() names it (the server then ends this session only).
    virtual bool lost() const = 0;
    // Behaves from now on as if the device had been lost (tests).
    virtual void lose_device_for_testing() = 0;
};

// Whether this machine has a usable Vulkan 1.1 device. Thread-safe; the first
// call creates the process-wide VkInstance.
bool vulkan_available(std::string* why = nullptr);

// A backend for one session; nullptr (and `why`) when Vulkan is unusable.
std::unique_ptr<Magma> create(const Options& options = {}, std::string* why = nullptr);

}  // namespace mgl::magma
