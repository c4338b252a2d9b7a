// The desktop internal format each texture level was specified with, kept
// for a desktop share group: the host holds some of them in another format
// (texel_convert.h), so sub-image uploads convert to the host's pair and
// queries answer with the program's format.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace mgl::espryt {

struct TextureLevels {
    struct Texture {
        std::unordered_map<uint32_t, uint32_t> format;  // (cube face, level) -> the program's internal format
        bool swizzled = false;                          // given a format swizzle
        // The format swizzle (HostFormat::swizzle) and the application's own
        // GL_TEXTURE_SWIZZLE_*; the host's is their composition.
        uint32_t format_swizzle[4] = {kRed, kRed + 1, kRed + 2, kRed + 3};
        uint32_t app_swizzle[4] = {kRed, kRed + 1, kRed + 2, kRed + 3};
        // GL_DEPTH_TEXTURE_MODE (0: never set, the context's initial mode) and
        // whether the last level specified has a depth format: such a texture
        // reads through the mode's swizzle (backends/gl/state/depth_texture_mode.h).
        uint32_t depth_mode = 0;
        bool depth_format = false;
        // GL_TEXTURE_COMPARE_MODE is GL_COMPARE_REF_TO_TEXTURE (the mode then
        // does not apply: gl::sampled_depth_texture_mode).
        bool compare = false;
    };
    static constexpr uint32_t kRed = 0x1903;
    std::unordered_map<uint32_t, Texture> textures;     // by host texture

    static uint32_t part(uint32_t face, int32_t level) { return face << 8 | (uint32_t(level) & 0xFF); }
    void set(uint32_t texture, uint32_t face, int32_t level, uint32_t format) {
        textures[texture].format[part(face, level)] = format;
    }
    const uint32_t* find(uint32_t texture, uint32_t face, int32_t level) const {
        auto t = textures.find(texture);
        if (t == textures.end()) return nullptr;
        auto it = t->second.format.find(part(face, level));
        return it == t->second.format.end() ? nullptr : &it->second;
    }
    Texture* texture(uint32_t name) {
        auto t = textures.find(name);
        return t == textures.end() ? nullptr : &t->second;
    }
    bool swizzled(uint32_t texture) const {
        auto t = textures.find(texture);
        return t != textures.end() && t->second.swizzled;
    }
    void set_swizzled(uint32_t texture, bool on) {
        if (on) textures[texture].swizzled = true;
        else if (auto t = textures.find(texture); t != textures.end()) t->second.swizzled = false;
    }
    void forget(uint32_t texture) { textures.erase(texture); }
};

}  // namespace mgl::espryt
