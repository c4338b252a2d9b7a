#include "spirv_locations.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace mgl::magma {

namespace {
constexpr uint32_t kOpTypeInt = 21, kOpTypeFloat = 22, kOpTypeVector = 23, kOpTypeMatrix = 24, kOpTypeArray = 28,
                   kOpTypeStruct = 30, kOpTypePointer = 32, kOpConstant = 43, kOpVariable = 59, kOpDecorate = 71,
                   kOpTypeBool = 20;
constexpr uint32_t kDecorationLocation = 30, kInput = 1, kOutput = 3;

struct Types {
    std::map<uint32_t, std::vector<uint32_t>> def;  // type id -> its instruction words
    std::map<uint32_t, uint32_t> constant;          // 32-bit integer constants (array lengths)

    // Locations a value of `type` takes (GLSL 4.60 §4.4.1, Vulkan's interface
    // matching): 64-bit 3- and 4-vectors take two, matrices a location per
    // column, arrays and structures the sum of their parts.
    uint32_t size(uint32_t type, int depth = 0) const {
        auto it = def.find(type);
        if (it == def.end() || depth > 16) return 1;
        const std::vector<uint32_t>& w = it->second;
        switch (w[0] & 0xFFFF) {
            case kOpTypeVector: {
                auto c = def.find(w[2]);
                const bool wide = c != def.end() && c->second.size() > 2 && c->second[2] == 64;
                return wide && w[3] > 2 ? 2 : 1;
            }
            case kOpTypeMatrix: return w[3] * size(w[2], depth + 1);
            case kOpTypeArray: {
                auto n = constant.find(w[3]);
                return (n == constant.end() ? 1 : n->second) * size(w[2], depth + 1);
            }
            case kOpTypeStruct: {
                uint32_t sum = 0;
                for (size_t i = 2; i < w.size(); ++i) sum += size(w[i], depth + 1);
                return sum;
            }
            default: return 1;  // scalars
        }
    }
};
}  // namespace

uint32_t interface_locations(const std::vector<uint32_t>& spv, bool outputs) {
    if (spv.size() < 5 || spv[0] != 0x07230203u) return 0;
    Types t;
    std::map<uint32_t, uint32_t> location;  // variable -> Location
    std::map<uint32_t, uint32_t> pointee;   // pointer type -> pointee
    std::vector<std::pair<uint32_t, uint32_t>> vars;  // (variable, pointer type)
    const uint32_t want = outputs ? kOutput : kInput;
    for (size_t i = 5; i < spv.size();) {
        const uint32_t words = spv[i] >> 16, op = spv[i] & 0xFFFF;
        if (words == 0 || i + words > spv.size()) return 0;
        const uint32_t* w = &spv[i];
        if (op == kOpDecorate && words >= 4 && w[2] == kDecorationLocation) location[w[1]] = w[3];
        if ((op == kOpTypeVector || op == kOpTypeMatrix || op == kOpTypeArray || op == kOpTypeStruct ||
             op == kOpTypeInt || op == kOpTypeFloat || op == kOpTypeBool) && words >= 2)
            t.def[w[1]].assign(w, w + words);
        if (op == kOpConstant && words == 4) t.constant[w[2]] = w[3];
        if (op == kOpTypePointer && words == 4 && w[2] == want) pointee[w[1]] = w[3];
        if (op == kOpVariable && words >= 4 && w[3] == want) vars.emplace_back(w[2], w[1]);
        i += words;
    }
    uint32_t end = 0;
    for (const auto& [var, ptr] : vars) {
        auto l = location.find(var);
        auto p = pointee.find(ptr);
        if (l == location.end() || p == pointee.end()) continue;  // built-ins carry no Location
        end = std::max(end, l->second + t.size(p->second));
    }
    return end;
}

bool varyings_fit(const LinkedProgram& lp, const VkPhysicalDeviceLimits& lim, std::string& why) {
    const struct {
        const std::vector<uint32_t>* code;
        bool outputs;
        uint32_t components;
        const char* what;
    } checks[] = {{&lp.vs, true, lim.maxVertexOutputComponents, "vertex outputs"},
                  {&lp.gs, true, lim.maxGeometryOutputComponents, "geometry outputs"},
                  {&lp.fs, false, lim.maxFragmentInputComponents, "fragment inputs"}};
    for (const auto& c : checks) {
        const uint32_t used = c.code->empty() ? 0 : interface_locations(*c.code, c.outputs);
        if (used > c.components / 4) {
            why = fmt::format("the {} take {} locations (one per varying: varyings are not packed yet); the device has {}",
                              c.what, used, c.components / 4);
            return false;
        }
    }
    return true;
}

}  // namespace mgl::magma
