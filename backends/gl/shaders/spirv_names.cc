#include "spirv_names.h"

#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace mgl::gl {

namespace {

constexpr uint32_t kOpName = 5, kOpTypeArray = 28, kOpTypeRuntimeArray = 29, kOpTypePointer = 32, kOpVariable = 59,
                   kOpDecorate = 71;
constexpr uint32_t kBlock = 2, kBufferBlock = 3, kLocation = 30, kBinding = 33, kDescriptorSet = 34;

std::string literal(const uint32_t* w, size_t words) {
    std::string s(reinterpret_cast<const char*>(w), words * 4);
    s.resize(std::strlen(s.c_str()));
    return s;
}

}  // namespace

void strip_invented_layouts(std::vector<uint32_t>& spv, const std::set<std::string>& keep_locations,
                            const std::set<std::string>& keep_bindings) {
    if (spv.size() < 5) return;
    std::unordered_map<uint32_t, std::string> names;
    std::unordered_map<uint32_t, uint32_t> pointee, var_type, element;
    std::unordered_set<uint32_t> blocks;
    for (size_t i = 5; i < spv.size();) {
        const uint32_t words = spv[i] >> 16, op = spv[i] & 0xFFFF;
        if (words == 0 || i + words > spv.size()) return;
        const uint32_t* w = &spv[i];
        if (op == kOpName && words >= 3) names[w[1]] = literal(w + 2, words - 2);
        else if (op == kOpTypePointer && words >= 4) pointee[w[1]] = w[3];
        else if (op == kOpVariable && words >= 4) var_type[w[2]] = w[1];
        else if ((op == kOpTypeArray || op == kOpTypeRuntimeArray) && words >= 3) element[w[1]] = w[2];
        else if (op == kOpDecorate && words >= 3 && (w[2] == kBlock || w[2] == kBufferBlock)) blocks.insert(w[1]);
        i += words;
    }
    auto key = [&](uint32_t id) -> std::string {
        auto v = var_type.find(id);
        if (v != var_type.end()) {
            auto p = pointee.find(v->second);
            if (p != pointee.end()) {
                uint32_t type = p->second;  // an array of blocks is named by its block
                for (int depth = 0; depth < 8 && element.count(type); ++depth) type = element[type];
                if (blocks.count(type)) return names[type];
            }
        }
        auto n = names.find(id);
        return n == names.end() ? std::string() : n->second;
    };
    std::vector<uint32_t> out(spv.begin(), spv.begin() + 5);
    out.reserve(spv.size());
    for (size_t i = 5; i < spv.size();) {
        const uint32_t words = spv[i] >> 16, op = spv[i] & 0xFFFF;
        bool drop = false;
        if (op == kOpDecorate && words >= 3 && var_type.count(spv[i + 1])) {
            const uint32_t d = spv[i + 2];
            if (d == kDescriptorSet) drop = true;
            else if (d == kLocation) drop = !keep_locations.count(key(spv[i + 1]));
            else if (d == kBinding) drop = !keep_bindings.count(key(spv[i + 1]));
        }
        if (!drop) out.insert(out.end(), spv.begin() + long(i), spv.begin() + long(i + words));
        i += words;
    }
    spv.swap(out);
}

}  // namespace mgl::gl
