#include "device.h"

#include <utility>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

namespace mgl::magma {

const char* vk_result_name(VkResult r) {
    switch (r) {
        case VK_SUCCESS: return "VK_SUCCESS";
        case VK_NOT_READY: return "VK_NOT_READY";
        case VK_TIMEOUT: return "VK_TIMEOUT";
        case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
        case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
        case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
        case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
        case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
        case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
        case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
        case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
        case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
        default: return "VkResult(other)";
    }
}

namespace {

std::once_flag g_instance_once;
VkInstance g_instance = VK_NULL_HANDLE;
std::string g_instance_error;

VkInstance new_instance(std::string* why) {
    uint32_t version = 0;
    if (vkEnumerateInstanceVersion(&version) != VK_SUCCESS || version < VK_API_VERSION_1_1) {
        if (why) *why = "the Vulkan loader is older than 1.1";
        return VK_NULL_HANDLE;
    }
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "mobilegl-magma";
    app.pEngineName = "MobileGL Magma";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    // Layers come from the loader's own VK_INSTANCE_LAYERS; nothing forced here.
    VkInstance instance = VK_NULL_HANDLE;
    const VkResult r = vkCreateInstance(&ci, nullptr, &instance);
    if (r != VK_SUCCESS) {
        if (why) *why = std::string("vkCreateInstance failed: ") + vk_result_name(r);
        return VK_NULL_HANDLE;
    }
    return instance;
}

void create_instance() { g_instance = new_instance(&g_instance_error); }

// Instances whose device is gone, for the next device: never two live
// devices on one instance, and no instance destroyed (lavapipe leaks a few
// objects at each vkDestroyInstance, which LeakSanitizer reports; a pooled
// instance stays listed by the loader). At most as many as devices were
// ever alive at once.
std::mutex g_free_instances_mutex;
std::vector<VkInstance> g_free_instances;

VkInstance take_instance(std::string* why) {
    {
        std::lock_guard lock(g_free_instances_mutex);
        if (!g_free_instances.empty()) {
            VkInstance i = g_free_instances.back();
            g_free_instances.pop_back();
            return i;
        }
    }
    return new_instance(why);
}

void give_back_instance(VkInstance i) {
    std::lock_guard lock(g_free_instances_mutex);
    g_free_instances.push_back(i);
}

// Holds an instance until a Device takes it (back to the pool otherwise).
struct InstanceGuard {
    VkInstance instance = VK_NULL_HANDLE;
    ~InstanceGuard() {
        if (instance) give_back_instance(instance);
    }
};

int type_rank(VkPhysicalDeviceType t) {
    switch (t) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
        default: return 4;
    }
}

}  // namespace

VkInstance shared_instance(std::string* why) {
    std::call_once(g_instance_once, create_instance);
    if (!g_instance && why) *why = g_instance_error;
    return g_instance;
}

Device::~Device() {
    if (dev) {
        vkDeviceWaitIdle(dev);
        vkDestroyDevice(dev, nullptr);
    }
    if (instance) give_back_instance(instance);  // to the next device, not destroyed
}

void Device::set_queues(std::vector<VkQueue> q) {
    std::lock_guard lock(queue_mutex_);
    queues_ = std::move(q);
    queue_taken_.assign(queues_.size(), false);
}

VkQueue Device::take_queue() {
    std::lock_guard lock(queue_mutex_);
    for (size_t i = 0; i < queues_.size(); ++i) {
        if (!queue_taken_[i]) {
            queue_taken_[i] = true;
            return queues_[i];
        }
    }
    return VK_NULL_HANDLE;
}

void Device::give_back_queue(VkQueue q) {
    std::lock_guard lock(queue_mutex_);
    for (size_t i = 0; i < queues_.size(); ++i)
        if (queues_[i] == q) queue_taken_[i] = false;
}

int Device::memory_type(uint32_t bits, VkMemoryPropertyFlags want) const {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & want) == want) return int(i);
    return -1;
}

bool Device::format_has(VkFormat f, VkFormatFeatureFlags want) const {
    VkFormatProperties p{};
    vkGetPhysicalDeviceFormatProperties(phys, f, &p);
    return (p.optimalTilingFeatures & want) == want;
}

bool Device::buffer_format_has(VkFormat f, VkFormatFeatureFlags want) const {
    VkFormatProperties p{};
    vkGetPhysicalDeviceFormatProperties(phys, f, &p);
    return (p.bufferFeatures & want) == want;
}

VkSampleCountFlags Device::msaa_counts(VkFormat f) const {
    const bool ds = f == VK_FORMAT_D16_UNORM || f == VK_FORMAT_D32_SFLOAT || f == VK_FORMAT_D24_UNORM_S8_UINT ||
                    f == VK_FORMAT_D32_SFLOAT_S8_UINT || f == VK_FORMAT_X8_D24_UNORM_PACK32 || f == VK_FORMAT_S8_UINT;
    const VkImageUsageFlags usage = (ds ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImageFormatProperties p{};
    if (vkGetPhysicalDeviceImageFormatProperties(phys, f, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage, 0, &p) != VK_SUCCESS)
        return 0;
    // Only counts a framebuffer of any attachment mix can use, so that GL's
    // "the same samples everywhere" always has a Vulkan answer.
    const VkPhysicalDeviceLimits& l = props.limits;
    return p.sampleCounts & l.framebufferColorSampleCounts & l.framebufferDepthSampleCounts &
           l.framebufferStencilSampleCounts & ~VkSampleCountFlags(VK_SAMPLE_COUNT_1_BIT);
}

int Device::max_samples() const {
    const VkPhysicalDeviceLimits& l = props.limits;
    const VkSampleCountFlags c = l.framebufferColorSampleCounts & l.framebufferDepthSampleCounts &
                                 l.framebufferStencilSampleCounts;
    int best = 1;
    for (int n = 2; n <= 64; n *= 2)
        if (c & VkSampleCountFlags(n)) best = n;
    return best;
}

namespace {

std::mutex g_devices_mutex;
// Never destroyed (as the instances above): a device closed during the
// process's exit could outlive its driver.
Device* g_kept = nullptr;
// The device the last session was given: the next one shares it while it
// lives and has a queue to spare.
std::weak_ptr<Device> g_live;

std::unique_ptr<Device> open_new_device(spdlog::logger& log, std::string* why);

// The variables open_new_device reads: a kept or shared device serves only
// an open that would have made the same one.
std::string device_options() {
    std::string o;
    for (const char* v : {"MOBILEGL_MAGMA_DEVICE", "MOBILEGL_MAGMA_NO_XFB", "MOBILEGL_MAGMA_DYNAMIC_STATE"}) {
        const char* x = std::getenv(v);
        o += x ? x : "-";
        o += '\0';
    }
    return o;
}

bool env_off(const char* name) {
    const char* v = std::getenv(name);
    return v && std::strcmp(v, "0") == 0;
}

bool keeping_allowed() {
    static const bool allowed = [] {
        const char* layers = std::getenv("VK_INSTANCE_LAYERS");
        return !env_off("MOBILEGL_MAGMA_KEEP_DEVICE") && !(layers && *layers);
    }();
    return allowed;
}

bool sharing_allowed() {
    static const bool allowed = !env_off("MOBILEGL_MAGMA_SHARE_DEVICE");
    return allowed;
}

// The last session on `d` has ended (its objects destroyed, its queue idle).
void release_device(Device* d) {
    if (d->dev && !d->lost && keeping_allowed()) {
        std::lock_guard lock(g_devices_mutex);
        if (!g_kept) {
            g_kept = d;
            return;
        }
    }
    delete d;
}

std::shared_ptr<Device> share(std::unique_ptr<Device> d) {
    std::shared_ptr<Device> s(d.release(), release_device);
    g_live = s;
    return s;
}

}  // namespace

std::shared_ptr<Device> open_device(spdlog::logger& log, std::string* why, VkQueue* queue) {
    const std::string options = device_options();
    // Declared before the lock: when it is the last reference, its release
    // (release_device) takes the lock.
    std::shared_ptr<Device> live;
    {
        std::lock_guard lock(g_devices_mutex);
        live = g_live.lock();
        if (live && sharing_allowed() && !live->lost && live->options == options) {
            if ((*queue = live->take_queue())) {
                log.info("magma: Vulkan device {}, shared with a live session", live->description);
                return live;
            }
        }
        if (g_kept && g_kept->options != options) delete std::exchange(g_kept, nullptr);
        if (g_kept) {
            log.info("magma: Vulkan device {}, kept open beforehand", g_kept->description);
            *queue = g_kept->take_queue();
            return share(std::unique_ptr<Device>(std::exchange(g_kept, nullptr)));
        }
    }
    std::unique_ptr<Device> d = open_new_device(log, why);
    if (!d) return nullptr;
    *queue = d->take_queue();
    std::lock_guard lock(g_devices_mutex);
    return share(std::move(d));
}

namespace {

std::unique_ptr<Device> open_new_device(spdlog::logger& log, std::string* why) {
    const auto t0 = std::chrono::steady_clock::now();
    auto ms = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    // An instance of its own for every live device: lavapipe (Mesa 22.3)
    // shares one rasterizer screen between the devices of an instance, and
    // two of them drawing at once crashed its executor (a use of memory it
    // had not initialised: reproduced with MALLOC_PERTURB_=29 and two piglit
    // tests on one server, 2026-12-05). Two devices never share an instance.
    InstanceGuard owned{take_instance(why)};
    VkInstance instance = owned.instance;
    if (!instance) return nullptr;
    const double instance_ms = ms();
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, nullptr);
    std::vector<VkPhysicalDevice> all(n);
    if (n) vkEnumeratePhysicalDevices(instance, &n, all.data());
    struct Candidate {
        VkPhysicalDevice phys;
        VkPhysicalDeviceProperties props;
        uint32_t family;
    };
    std::vector<Candidate> usable;
    for (VkPhysicalDevice p : all) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(p, &props);
        if (props.apiVersion < VK_API_VERSION_1_1) continue;
        uint32_t qn = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(p, &qn, nullptr);
        std::vector<VkQueueFamilyProperties> qs(qn);
        vkGetPhysicalDeviceQueueFamilyProperties(p, &qn, qs.data());
        for (uint32_t i = 0; i < qn; ++i) {
            if (qs[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
                usable.push_back({p, props, i});
                break;
            }
        }
    }
    if (usable.empty()) {
        if (why) *why = fmt::format("no Vulkan 1.1 device with a graphics queue ({} devices enumerated)", n);
        return nullptr;
    }
    const Candidate* pick = nullptr;
    if (const char* want = std::getenv("MOBILEGL_MAGMA_DEVICE"); want && *want) {
        char* end = nullptr;
        const long idx = std::strtol(want, &end, 10);
        if (end && *end == 0) {
            if (idx >= 0 && size_t(idx) < usable.size()) pick = &usable[size_t(idx)];
        } else {
            for (const Candidate& c : usable)
                if (std::strstr(c.props.deviceName, want)) { pick = &c; break; }
        }
        if (!pick) {
            if (why) *why = std::string("MOBILEGL_MAGMA_DEVICE=") + want + ": no such Vulkan device";
            return nullptr;
        }
    } else {
        pick = &*std::min_element(usable.begin(), usable.end(), [](const Candidate& a, const Candidate& b) {
            return type_rank(a.props.deviceType) < type_rank(b.props.deviceType);
        });
    }

    auto d = std::make_unique<Device>();
    d->instance = std::exchange(owned.instance, VK_NULL_HANDLE);  // back to the pool with the device
    d->phys = pick->phys;
    d->props = pick->props;
    d->queue_family = pick->family;
    {
        uint32_t qn = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(pick->phys, &qn, nullptr);
        std::vector<VkQueueFamilyProperties> qs(qn);
        vkGetPhysicalDeviceQueueFamilyProperties(pick->phys, &qn, qs.data());
        d->compute = pick->family < qn && (qs[pick->family].queueFlags & VK_QUEUE_COMPUTE_BIT);
    }
    d->name = pick->props.deviceName;
    d->options = device_options();
    d->default_block_storage = d->name.find("llvmpipe") != std::string::npos;
    vkGetPhysicalDeviceMemoryProperties(d->phys, &d->memory);

    VkPhysicalDeviceFeatures have{};
    vkGetPhysicalDeviceFeatures(d->phys, &have);
    VkPhysicalDeviceFeatures enable{};
    enable.independentBlend = have.independentBlend;
    enable.wideLines = have.wideLines;
    enable.largePoints = have.largePoints;
    enable.samplerAnisotropy = have.samplerAnisotropy;
    enable.fullDrawIndexUint32 = have.fullDrawIndexUint32;
    enable.depthBiasClamp = have.depthBiasClamp;
    enable.fillModeNonSolid = have.fillModeNonSolid;
    enable.textureCompressionETC2 = have.textureCompressionETC2;
    enable.vertexPipelineStoresAndAtomics = have.vertexPipelineStoresAndAtomics;
    enable.fragmentStoresAndAtomics = have.fragmentStoresAndAtomics;
    enable.shaderClipDistance = have.shaderClipDistance;
    // Desktop GL image load/store (images.cc): writeonly images without a
    // format qualifier, and the formats beyond the basic storage ones.
    enable.shaderStorageImageWriteWithoutFormat = have.shaderStorageImageWriteWithoutFormat;
    enable.shaderStorageImageExtendedFormats = have.shaderStorageImageExtendedFormats;
    // Desktop GL: geometry shaders (GL 3.2), depth clamp (GL 3.2).
    enable.geometryShader = have.geometryShader;
    enable.tessellationShader = have.tessellationShader;  // GL 4.0's tessellation (GL_ARB_tessellation_shader)
    enable.depthClamp = have.depthClamp;
    enable.occlusionQueryPrecise = have.occlusionQueryPrecise;  // GL_SAMPLES_PASSED
    enable.robustBufferAccess = have.robustBufferAccess;  // a bad offset never reads outside a buffer
    d->features = enable;
    for (int f = VK_FORMAT_A2R10G10B10_UNORM_PACK32; f <= VK_FORMAT_A2B10G10R10_SINT_PACK32; ++f)
        if (d->buffer_format_has(VkFormat(f), VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
            d->packed_vertex_formats |= 1u << (f - VK_FORMAT_A2R10G10B10_UNORM_PACK32);
    d->vertex_b10g11r11 = d->buffer_format_has(VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT);

    uint32_t en = 0;
    vkEnumerateDeviceExtensionProperties(d->phys, nullptr, &en, nullptr);
    std::vector<VkExtensionProperties> exts(en);
    vkEnumerateDeviceExtensionProperties(d->phys, nullptr, &en, exts.data());
    auto has_ext = [&](const char* name) {
        for (auto& e : exts)
            if (std::strcmp(e.extensionName, name) == 0) return true;
        return false;
    };
    std::vector<const char*> enabled;
    VkPhysicalDeviceIndexTypeUint8FeaturesEXT u8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT};
    if (has_ext(VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        f2.pNext = &u8;
        vkGetPhysicalDeviceFeatures2(d->phys, &f2);
        if (u8.indexTypeUint8) {
            enabled.push_back(VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME);
            d->index_uint8 = true;
        }
    }
    // GL takes flat-shaded values from the last vertex of a primitive, Vulkan
    // from the first unless VK_EXT_provoking_vertex says otherwise.
    VkPhysicalDeviceProvokingVertexFeaturesEXT pv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
    if (has_ext(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        f2.pNext = &pv;
        vkGetPhysicalDeviceFeatures2(d->phys, &f2);
        if (pv.provokingVertexLast) {
            enabled.push_back(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME);
            d->provoking_last = true;
            pv = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
            pv.provokingVertexLast = VK_TRUE;
        }
    }
    // GL's transform feedback: captured vertex outputs, one stream.
    // MOBILEGL_MAGMA_NO_XFB=1 leaves it off, as on a device without it (tests).
    VkPhysicalDeviceTransformFeedbackFeaturesEXT xf{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
    const char* no_xfb = std::getenv("MOBILEGL_MAGMA_NO_XFB");
    if (has_ext(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME) && !(no_xfb && *no_xfb == '1')) {
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        f2.pNext = &xf;
        vkGetPhysicalDeviceFeatures2(d->phys, &f2);
        if (xf.transformFeedback) {
            enabled.push_back(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
            d->xfb = true;
            xf = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
            xf.transformFeedback = VK_TRUE;
        }
    }
    if (!d->provoking_last)
        log.warn("magma: {} has no VK_EXT_provoking_vertex: flat varyings come from the first vertex, not GL's last",
                 d->name);
    // Pipeline state that GL changes freely between draws is dynamic where the
    // device allows it, so that a combination first met late (an object drawn
    // with the depth test on for the first time) needs no new pipeline.
    const char* dyn_env = std::getenv("MOBILEGL_MAGMA_DYNAMIC_STATE");
    const bool want_dynamic = !(dyn_env && dyn_env[0] == '0');
    VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT};
    if (want_dynamic && has_ext(VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        f2.pNext = &eds;
        vkGetPhysicalDeviceFeatures2(d->phys, &f2);
        if (eds.extendedDynamicState) {
            enabled.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME);
            d->dynamic_state = true;
            eds = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT};
            eds.extendedDynamicState = VK_TRUE;
        }
    }
    VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vid{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
    if (want_dynamic && has_ext(VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        f2.pNext = &vid;
        vkGetPhysicalDeviceFeatures2(d->phys, &f2);
        if (vid.vertexInputDynamicState) {
            enabled.push_back(VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME);
            d->dynamic_vertex_input = true;
            vid = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
            vid.vertexInputDynamicState = VK_TRUE;
        }
    }
    // GL_TEXTURE_BORDER_COLOR of any value (GL 1.0); without it the nearest
    // of Vulkan's three fixed border colours (samplers.cc says so once).
    VkPhysicalDeviceCustomBorderColorFeaturesEXT cb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
    if (has_ext(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        f2.pNext = &cb;
        vkGetPhysicalDeviceFeatures2(d->phys, &f2);
        if (cb.customBorderColors && cb.customBorderColorWithoutFormat) {
            enabled.push_back(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
            d->custom_border = true;
            cb = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
            cb.customBorderColors = cb.customBorderColorWithoutFormat = VK_TRUE;
        }
    }
    if (has_ext("VK_KHR_driver_properties")) {
        VkPhysicalDeviceDriverProperties dp{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        p2.pNext = &dp;
        vkGetPhysicalDeviceProperties2(d->phys, &p2);
        d->driver = std::string(dp.driverName) + " " + dp.driverInfo;
    }

    // Queues for sessions sharing the device, one each (open_device).
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d->phys, &qn, nullptr);
    std::vector<VkQueueFamilyProperties> families(qn);
    vkGetPhysicalDeviceQueueFamilyProperties(d->phys, &qn, families.data());
    const uint32_t queue_count = std::clamp(families[d->queue_family].queueCount, 1u, Device::kMaxQueues);
    const std::vector<float> priorities(queue_count, 1.0f);
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = d->queue_family;
    qi.queueCount = queue_count;
    qi.pQueuePriorities = priorities.data();
    VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    // Feature chain: what is enabled.
    const void* chain = nullptr;
    if (d->provoking_last) pv.pNext = const_cast<void*>(chain), chain = &pv;
    if (d->custom_border) cb.pNext = const_cast<void*>(chain), chain = &cb;
    if (d->index_uint8) u8.pNext = const_cast<void*>(chain), chain = &u8;
    if (d->dynamic_state) eds.pNext = const_cast<void*>(chain), chain = &eds;
    if (d->dynamic_vertex_input) vid.pNext = const_cast<void*>(chain), chain = &vid;
    if (d->xfb) xf.pNext = const_cast<void*>(chain), chain = &xf;
    ci.pNext = chain;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &qi;
    ci.enabledExtensionCount = uint32_t(enabled.size());
    ci.ppEnabledExtensionNames = enabled.data();
    ci.pEnabledFeatures = &enable;
    const VkResult r = vkCreateDevice(d->phys, &ci, nullptr, &d->dev);
    if (r != VK_SUCCESS) {
        d->dev = VK_NULL_HANDLE;
        if (why) *why = fmt::format("vkCreateDevice on {} failed: {}", d->name, vk_result_name(r));
        return nullptr;
    }
    std::vector<VkQueue> queues(queue_count);
    for (uint32_t i = 0; i < queue_count; ++i) vkGetDeviceQueue(d->dev, d->queue_family, i, &queues[i]);
    d->set_queues(std::move(queues));
    if (d->dynamic_state) {
        auto get = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(vkGetDeviceProcAddr(d->dev, name));
            return fn != nullptr;
        };
        d->dynamic_state = get(d->cmd_set_cull_mode, "vkCmdSetCullModeEXT") &&
                           get(d->cmd_set_front_face, "vkCmdSetFrontFaceEXT") &&
                           get(d->cmd_set_primitive_topology, "vkCmdSetPrimitiveTopologyEXT") &&
                           get(d->cmd_set_depth_test_enable, "vkCmdSetDepthTestEnableEXT") &&
                           get(d->cmd_set_depth_write_enable, "vkCmdSetDepthWriteEnableEXT") &&
                           get(d->cmd_set_depth_compare_op, "vkCmdSetDepthCompareOpEXT") &&
                           get(d->cmd_set_stencil_test_enable, "vkCmdSetStencilTestEnableEXT") &&
                           get(d->cmd_set_stencil_op, "vkCmdSetStencilOpEXT");
        if (d->dynamic_vertex_input)
            d->dynamic_vertex_input = get(d->cmd_set_vertex_input, "vkCmdSetVertexInputEXT");
    }
    if (!d->dynamic_state) d->dynamic_vertex_input = false;  // only used together
    if (d->xfb) {
        d->cmd_bind_xfb = reinterpret_cast<PFN_vkCmdBindTransformFeedbackBuffersEXT>(
            vkGetDeviceProcAddr(d->dev, "vkCmdBindTransformFeedbackBuffersEXT"));
        d->cmd_begin_xfb = reinterpret_cast<PFN_vkCmdBeginTransformFeedbackEXT>(
            vkGetDeviceProcAddr(d->dev, "vkCmdBeginTransformFeedbackEXT"));
        d->cmd_end_xfb = reinterpret_cast<PFN_vkCmdEndTransformFeedbackEXT>(
            vkGetDeviceProcAddr(d->dev, "vkCmdEndTransformFeedbackEXT"));
        d->xfb = d->cmd_bind_xfb && d->cmd_begin_xfb && d->cmd_end_xfb;
    }
    const VkFormatFeatureFlags ds = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    d->depth_stencil_format = d->format_has(VK_FORMAT_D24_UNORM_S8_UINT, ds) ? VK_FORMAT_D24_UNORM_S8_UINT
                                                                          : VK_FORMAT_D32_SFLOAT_S8_UINT;
    d->description = fmt::format(
        "{} ({}, Vulkan {}.{}.{}{}{}{})", d->name, type_rank(d->props.deviceType) == 3 ? "CPU" : "GPU",
        VK_API_VERSION_MAJOR(d->props.apiVersion), VK_API_VERSION_MINOR(d->props.apiVersion),
        VK_API_VERSION_PATCH(d->props.apiVersion), d->driver.empty() ? "" : ", ", d->driver,
        d->dynamic_vertex_input ? ", dynamic state and vertex input" : d->dynamic_state ? ", dynamic state" : "");
    log.info("magma: Vulkan device {}, opened in {:.1f} ms ({:.1f} ms for its instance)", d->description, ms(),
             instance_ms);
    return d;
}

}  // namespace

}  // namespace mgl::magma
