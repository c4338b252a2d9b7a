// Desktop proxy textures (GL 4.6 §8.22) on a device that has none (GLES,
// Vulkan): a glTexImage*, glTexStorage* or glTexImage*Multisample on a
// GL_PROXY_TEXTURE_* target is checked here as the real target's verb would
// be (the same GL errors), and the level state it would give is kept here:
// its sizes and format when the device could hold it, zeros when it could not
// (larger than the device's limits, or a border, which a GLES-class device
// has no place for). glGetTexLevelParameter on a proxy target answers from
// here. The device never sees a proxy target.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

namespace mgl::gl {

enum class ProxyKind : uint8_t { none, d1, d2, d3, cube, rect, d1_array, d2_array, cube_array, ms, ms_array };

ProxyKind proxy_kind(uint32_t target);  // none: not a proxy target

// The device's limits a proxy is checked against (its GL_MAX_* answers).
struct ProxyLimits {
    int32_t max_2d = 0, max_3d = 0, max_cube = 0, max_layers = 0;
    int32_t max_color_samples = 0, max_depth_samples = 0, max_integer_samples = 0;
    // The bytes one more texture may take (a backend's memory budget): a
    // native driver's proxy also says no to an image it could not allocate.
    uint64_t max_bytes = ~0ull;
};

struct ProxyRequest {
    enum class Verb : uint8_t { image, storage, multisample } verb = Verb::image;
    uint32_t target = 0;
    int dims = 2;            // 1, 2 or 3: which glTexImage*D / glTexStorage*D (multisample: 2 or 3)
    int32_t level = 0;       // image: the level; storage: the number of levels
    uint32_t internalformat = 0;
    int32_t width = 0, height = 1, depth = 1, border = 0;
    uint32_t format = 0, type = 0;  // image only
    int32_t samples = 0;
    bool fixed_locations = true;
    bool compatibility = false;  // borders exist only there
};

class ProxyTextures {
public:
    // The GL error of the request (0: none). Without an error the levels it
    // names take the state they would have, or zeros when the device could
    // not hold them.
    uint32_t specify(const ProxyRequest& r, const ProxyLimits& limits);
    // glGetTexLevelParameter on a proxy target: the GL error (0: `value` set).
    uint32_t level_parameter(uint32_t target, int32_t level, uint32_t pname, int32_t* value) const;

private:
    struct Level {
        int32_t width = 0, height = 0, depth = 0, border = 0;
        uint32_t internalformat = 0;
        int32_t samples = 0;
        bool fixed_locations = true;
    };
    std::map<std::pair<uint32_t, int32_t>, Level> levels_;
};

}  // namespace mgl::gl
