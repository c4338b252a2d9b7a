#include "texture_targets.h"

namespace mgl::gl {

namespace {

constexpr uint32_t kTexture1D = 0x0DE0, kTexture1DArray = 0x8C18, kTextureRectangle = 0x84F5;
constexpr uint32_t kTexture2D = 0x0DE1, kTexture2DArray = 0x8C1A;
constexpr uint32_t kBinding2D = 0x8069, kBinding2DArray = 0x8C1D;
constexpr uint32_t kMinFilter = 0x2801, kWrapS = 0x2802, kWrapT = 0x2803, kWrapR = 0x8072, kBaseLevel = 0x813C;
constexpr uint32_t kNearest = 0x2600, kLinear = 0x2601;
constexpr uint32_t kClamp = 0x2900, kClampToEdge = 0x812F, kClampToBorder = 0x812D;
constexpr uint32_t kInvalidEnum = 0x0500, kInvalidOperation = 0x0502;
constexpr uint32_t kTextureHeight = 0x1001, kTextureDepth = 0x8071;

}  // namespace

Lowered lowered_target(uint32_t target) {
    switch (target) {
        case kTexture1D: return Lowered::d1;
        case kTexture1DArray: return Lowered::d1_array;
        case kTextureRectangle: return Lowered::rect;
        default: return Lowered::none;
    }
}

uint32_t device_target(Lowered k) { return k == Lowered::d1_array ? kTexture2DArray : kTexture2D; }
uint32_t device_binding(Lowered k) { return k == Lowered::d1_array ? kBinding2DArray : kBinding2D; }

uint32_t LoweredBindings::bound(uint32_t unit, Lowered k) const {
    if (k == Lowered::none || unit >= units_.size()) return 0;
    return units_[unit][int(k) - 1];
}

void LoweredBindings::bind(uint32_t unit, Lowered k, uint32_t texture) {
    if (k == Lowered::none || unit >= 1024) return;
    if (unit >= units_.size()) units_.resize(unit + 1, {0, 0, 0});
    units_[unit][int(k) - 1] = texture;
}

void LoweredBindings::forget(uint32_t texture) {
    if (texture == 0) return;
    for (auto& u : units_)
        for (uint32_t& t : u)
            if (t == texture) t = 0;
}

uint32_t rect_parameter_error(uint32_t pname, double value) {
    const uint32_t v = uint32_t(value);
    switch (pname) {
        case kMinFilter: return v == kNearest || v == kLinear ? 0 : kInvalidEnum;
        case kWrapS:
        case kWrapT:
        case kWrapR: return v == kClampToEdge || v == kClampToBorder || v == kClamp ? 0 : kInvalidEnum;
        case kBaseLevel: return value == 0 ? 0 : kInvalidOperation;
        default: return 0;
    }
}

LevelQuery level_query(Lowered k, uint32_t pname) {
    LevelQuery q;
    q.device_pname = pname;
    if (k != Lowered::d1_array) return q;
    if (pname == kTextureHeight) q.device_pname = kTextureDepth;
    if (pname == kTextureDepth) q.fixed = true, q.value = 1;
    return q;
}

}  // namespace mgl::gl
