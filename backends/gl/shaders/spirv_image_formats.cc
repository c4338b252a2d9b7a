#include "spirv_image_formats.h"

#include <spirv_cross/spirv.h>

#include <cstddef>
#include <map>
#include <set>

namespace mgl::gl {

bool format_writeonly_images(std::vector<uint32_t>& spirv) {
    constexpr size_t kHeader = 5;
    if (spirv.size() < kHeader) return false;
    std::set<uint32_t> non_readable;              // variables decorated NonReadable
    std::map<uint32_t, size_t> image_at;          // image type id -> word index of its instruction
    std::map<uint32_t, uint32_t> element_of;      // pointer / array type -> the type it holds
    std::map<uint32_t, uint32_t> variable_type;   // variable -> its pointer type
    std::map<uint32_t, bool> scalar_signed;       // int type -> signedness; float types are absent
    std::set<uint32_t> float_types;
    for (size_t i = kHeader; i < spirv.size();) {
        const uint32_t count = spirv[i] >> 16, op = spirv[i] & 0xffff;
        if (count == 0 || i + count > spirv.size()) return false;
        const uint32_t* w = &spirv[i];
        switch (op) {
            case SpvOpDecorate:
                if (count >= 3 && w[2] == SpvDecorationNonReadable) non_readable.insert(w[1]);
                break;
            case SpvOpTypeImage:
                if (count >= 9) image_at[w[1]] = i;
                break;
            case SpvOpTypePointer:
                if (count >= 4) element_of[w[1]] = w[3];
                break;
            case SpvOpTypeArray:
            case SpvOpTypeRuntimeArray:
                if (count >= 3) element_of[w[1]] = w[2];
                break;
            case SpvOpTypeInt:
                if (count >= 4) scalar_signed[w[1]] = w[3] != 0;
                break;
            case SpvOpTypeFloat:
                if (count >= 3) float_types.insert(w[1]);
                break;
            case SpvOpVariable:
                if (count >= 4) variable_type[w[2]] = w[1];
                break;
            default: break;
        }
        i += count;
    }
    for (uint32_t var : non_readable) {
        auto t = variable_type.find(var);
        if (t == variable_type.end()) continue;
        uint32_t type = t->second;
        for (int depth = 0; depth < 4 && !image_at.count(type); ++depth) {
            auto e = element_of.find(type);
            if (e == element_of.end()) break;
            type = e->second;
        }
        auto img = image_at.find(type);
        if (img == image_at.end()) continue;
        uint32_t* w = &spirv[img->second];
        if (w[8] != SpvImageFormatUnknown || w[7] != 2) continue;  // has a format, or is a sampled texture
        if (float_types.count(w[2])) w[8] = SpvImageFormatRgba32f;
        else if (auto s = scalar_signed.find(w[2]); s != scalar_signed.end())
            w[8] = s->second ? SpvImageFormatRgba32i : SpvImageFormatRgba32ui;
    }
    return true;
}

}  // namespace mgl::gl
