// The desktop internal format each texture level was specified with, kept
// for a desktop share group: the host holds some of them in another format
// (texel_convert.h), so sub-image uploads convert to the host's pair and
// queries answer with the program's format.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

namespace mgl::espryt {

struct TextureLevels {
    // (host texture, cube face, level) -> the program's internal format.
    std::unordered_map<uint64_t, uint32_t> format;
    std::unordered_set<uint32_t> swizzled;  // host textures given a format swizzle

    static uint64_t key(uint32_t texture, uint32_t face, int32_t level) {
        return uint64_t(texture) << 32 | uint64_t(face) << 8 | uint64_t(uint32_t(level) & 0xFF);
    }
    const uint32_t* find(uint32_t texture, uint32_t face, int32_t level) const {
        auto it = format.find(key(texture, face, level));
        return it == format.end() ? nullptr : &it->second;
    }
    void forget(uint32_t texture) {
        for (auto it = format.begin(); it != format.end();)
            it = (it->first >> 32) == texture ? format.erase(it) : std::next(it);
        swizzled.erase(texture);
    }
};

}  // namespace mgl::espryt
