#include "legacy_wrap.h"

namespace mgl::gl {

int wrap_axis(uint32_t pname) {
    switch (pname) {
        case 0x2802: return 0;  // GL_TEXTURE_WRAP_S
        case 0x2803: return 1;  // GL_TEXTURE_WRAP_T
        case 0x8072: return 2;  // GL_TEXTURE_WRAP_R
        default: return -1;
    }
}

void LegacyClamps::note(uint32_t object, uint32_t pname, uint32_t value) {
    const int axis = wrap_axis(pname);
    if (axis < 0) return;
    const uint8_t bit = uint8_t(1u << axis);
    if (value == kLegacyClamp) {
        axes_[object] |= bit;
        return;
    }
    auto it = axes_.find(object);
    if (it == axes_.end()) return;
    it->second &= uint8_t(~bit);
    if (!it->second) axes_.erase(it);
}

uint32_t LegacyClamps::answer(uint32_t object, uint32_t pname, uint32_t device_value) const {
    const int axis = wrap_axis(pname);
    if (axis < 0 || device_value != device_wrap(kLegacyClamp)) return device_value;
    auto it = axes_.find(object);
    return it != axes_.end() && (it->second >> axis & 1) ? kLegacyClamp : device_value;
}

}  // namespace mgl::gl
