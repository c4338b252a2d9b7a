// GL_CLAMP, GL 1.x's wrap mode (compatibility profile only): texture
// coordinates clamped to [0, 1], so that linear filtering at the edge blends
// the edge texel with the border colour. Neither GLES nor Vulkan has it. The
// device is given GL_CLAMP_TO_EDGE, which samples exactly as GL_CLAMP does
// with nearest filtering and leaves out the border's share of linear
// filtering at the edge (what NVIDIA's desktop driver does by default, and
// what programs that asked for GL_CLAMP mostly meant). A query answers
// GL_CLAMP again, so the application sees what it set (DESIGN §11: the rule
// lives here once; Espryt and Magma apply it).
#pragma once

#include <cstdint>
#include <unordered_map>

namespace mgl::gl {

constexpr uint32_t kLegacyClamp = 0x2900;  // GL_CLAMP

// GL_TEXTURE_WRAP_S/T/R: 0/1/2; -1 for any other pname.
int wrap_axis(uint32_t pname);

// The value the device gets for `value` set on wrap `pname`.
inline uint32_t device_wrap(uint32_t value) { return value == kLegacyClamp ? 0x812F : value; }

// Which axes of which objects (textures, samplers: by the backend's own
// names) were set to GL_CLAMP.
class LegacyClamps {
public:
    // `pname` set to `value` on `object`: remembered when it is GL_CLAMP,
    // forgotten when it is anything else.
    void note(uint32_t object, uint32_t pname, uint32_t value);
    // The answer to a query of `pname` whose device value is `device_value`.
    uint32_t answer(uint32_t object, uint32_t pname, uint32_t device_value) const;
    void forget(uint32_t object) { axes_.erase(object); }
    bool empty() const { return axes_.empty(); }

private:
    std::unordered_map<uint32_t, uint8_t> axes_;  // bit per wrap axis
};

}  // namespace mgl::gl
