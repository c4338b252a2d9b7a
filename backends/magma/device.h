// The Vulkan instance (one per process, through the loader) and the devices
// sessions render on: physical device choice, graphics queues, memory types.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace mgl::magma {

// A process-wide instance for asking whether Vulkan is usable at all;
// created on first use, never destroyed. Devices do not come from it: each
// Device has an instance of its own (open_device). nullptr and `why` when
// Vulkan is unusable.
VkInstance shared_instance(std::string* why);

struct Device {
    VkInstance instance = VK_NULL_HANDLE;  // the device's own while it lives (pooled after it)
    VkPhysicalDevice phys = VK_NULL_HANDLE;
    VkDevice dev = VK_NULL_HANDLE;
    uint32_t queue_family = 0;
    // Set by any session that saw VK_ERROR_DEVICE_LOST or a GPU hang on it:
    // no later session shares it or takes it when kept.
    std::atomic<bool> lost{false};
    VkPhysicalDeviceProperties props{};
    VkPhysicalDeviceFeatures features{};      // what we enabled
    VkPhysicalDeviceMemoryProperties memory{};
    std::string name;                         // props.deviceName
    std::string driver;                       // "Mesa 22.3.6" or the driver version
    std::string options;                      // the environment's choices it was opened with (device_options())
    std::string description;                  // name, kind, Vulkan and driver versions, dynamic state (logged)
    bool index_uint8 = false;                 // VK_EXT_index_type_uint8 enabled
    // lavapipe: the default uniform block is read as a storage buffer
    // (spirv_default_storage.h says why).
    bool default_block_storage = false;
    bool custom_border = false;               // VK_EXT_custom_border_color: any GL border colour
    bool provoking_last = false;              // VK_EXT_provoking_vertex: GL's last-vertex flat shading
    bool compute = false;                     // the graphics queue family runs compute (compute.cc)
    // VK_EXT_transform_feedback (GL's transform feedback; without it the GL
    // verbs fail loudly). Its commands, from vkGetDeviceProcAddr:
    bool xfb = false;
    PFN_vkCmdBindTransformFeedbackBuffersEXT cmd_bind_xfb = nullptr;
    PFN_vkCmdBeginTransformFeedbackEXT cmd_begin_xfb = nullptr;
    PFN_vkCmdEndTransformFeedbackEXT cmd_end_xfb = nullptr;
    VkFormat depth_stencil_format = VK_FORMAT_UNDEFINED;  // D24S8 or D32S8
    // VK_EXT_extended_dynamic_state: cull mode, front face, topology (within
    // its class), depth and stencil tests are set per draw, not baked into
    // pipelines. MOBILEGL_MAGMA_DYNAMIC_STATE=0 turns both off.
    bool dynamic_state = false;
    // VK_EXT_vertex_input_dynamic_state: vertex formats and strides too.
    bool dynamic_vertex_input = false;
    PFN_vkCmdSetCullModeEXT cmd_set_cull_mode = nullptr;
    PFN_vkCmdSetFrontFaceEXT cmd_set_front_face = nullptr;
    PFN_vkCmdSetPrimitiveTopologyEXT cmd_set_primitive_topology = nullptr;
    PFN_vkCmdSetDepthTestEnableEXT cmd_set_depth_test_enable = nullptr;
    PFN_vkCmdSetDepthWriteEnableEXT cmd_set_depth_write_enable = nullptr;
    PFN_vkCmdSetDepthCompareOpEXT cmd_set_depth_compare_op = nullptr;
    PFN_vkCmdSetStencilTestEnableEXT cmd_set_stencil_test_enable = nullptr;
    PFN_vkCmdSetStencilOpEXT cmd_set_stencil_op = nullptr;
    PFN_vkCmdSetVertexInputEXT cmd_set_vertex_input = nullptr;

    ~Device();
    // A queue of the graphics family no other session uses (VK_NULL_HANDLE
    // when every one is taken), and its return. Thread-safe.
    VkQueue take_queue();
    void give_back_queue(VkQueue q);
    // A memory type of `bits` with all of `want`; -1 when none.
    int memory_type(uint32_t bits, VkMemoryPropertyFlags want) const;
    bool format_has(VkFormat f, VkFormatFeatureFlags optimal_features) const;
    // Whether buffers of format f have the features (vertex input: VERTEX_BUFFER).
    bool buffer_format_has(VkFormat f, VkFormatFeatureFlags buffer_features) const;
    // Vertex input of Vulkan's packed formats (GL's 2_10_10_10 and
    // 10F_11F_11F attributes; only A2B10G10R10_UNORM is mandatory), asked once
    // at open: bit f - VK_FORMAT_A2R10G10B10_UNORM_PACK32 for the 2_10_10_10
    // ones, and B10G11R11 apart. packed_vertex_ok: any other format is true.
    uint32_t packed_vertex_formats = 0;
    bool vertex_b10g11r11 = false;
    bool packed_vertex_ok(VkFormat f) const {
        if (f == VK_FORMAT_B10G11R11_UFLOAT_PACK32) return vertex_b10g11r11;
        if (f < VK_FORMAT_A2R10G10B10_UNORM_PACK32 || f > VK_FORMAT_A2B10G10R10_SINT_PACK32) return true;
        return (packed_vertex_formats >> (f - VK_FORMAT_A2R10G10B10_UNORM_PACK32)) & 1u;
    }
    // Sample counts above 1 that an attachment of format f can have (0: none).
    VkSampleCountFlags msaa_counts(VkFormat f) const;
    // GL_MAX_SAMPLES: the most samples every attachment kind supports (1: none).
    int max_samples() const;

    // The queues created with the device (at most kMaxQueues of the family).
    void set_queues(std::vector<VkQueue> q);
    static constexpr uint32_t kMaxQueues = 8;

private:
    std::mutex queue_mutex_;
    std::vector<VkQueue> queues_;
    std::vector<bool> queue_taken_;
};

// The device a new session renders on, and in *queue a queue of its own on
// it (Device::give_back_queue when the session is done with it). Opening a device costs 60-140 ms on
// NVIDIA's driver (H100, 2026-12-05), paid inside the program's
// eglCreateContext, so a device is opened only when none can serve:
// - shared: a live session's device with a queue to spare (NVIDIA's graphics
//   family has 16; lavapipe's one, so there every live session has a device
//   of its own). Sessions on one device share nothing but the VkDevice, as
//   GL contexts on one native driver do; a lost or hung device ends every
//   session on it (and is shared no more).
// - kept: the device of the last session to end (idle, every object of the
//   sessions destroyed), or the server's start-up probe's, kept open for the
//   next session. Closed instead: a lost device, a second one, or when
//   MOBILEGL_MAGMA_KEEP_DEVICE=0 or a layer is asked for (VK_INSTANCE_LAYERS:
//   the validation layer reports leaked objects at vkDestroyDevice).
// - opened: selection by MOBILEGL_MAGMA_DEVICE (an index into
//   vkEnumeratePhysicalDevices or a substring of the device name), else the
//   first discrete GPU, then integrated, virtual, CPU. The loader's own
//   variables (VK_ICD_FILENAMES, VK_DRIVER_FILES, VK_INSTANCE_LAYERS...) apply.
// MOBILEGL_MAGMA_SHARE_DEVICE=0 gives every session a device of its own.
std::shared_ptr<Device> open_device(spdlog::logger& log, std::string* why, VkQueue* queue);

const char* vk_result_name(VkResult r);

}  // namespace mgl::magma
