// Desktop texture targets a GLES-class device has none of, and what they
// become there (DESIGN §11: the rule lives here once; a backend binds and
// forwards): a 1D texture is a 2D texture of height 1, a 1D array texture a
// 2D array texture of height 1 whose layers stay layers (so mipmaps,
// filtering, texelFetch and textureSize keep their meaning), a rectangle
// texture a 2D texture with one level. The shaders' side of the same mapping
// is backends/gl/shaders/spirv_textures.h.
//
// These targets share the device's 2D / 2D array binding point of a unit
// with the desktop 2D / 2D array target, so the desktop bindings of the
// lowered targets are kept here per unit; a verb on a lowered target binds
// that texture on the device's target around the verb. A draw samples what
// the device's binding point holds: the texture of the target bound last on
// that unit (a program that samples a 1D and a 2D texture on one unit is the
// known gap).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace mgl::gl {

enum class Lowered : uint8_t { none, d1, d1_array, rect };

// GL_TEXTURE_1D, GL_TEXTURE_1D_ARRAY, GL_TEXTURE_RECTANGLE; proxies are none
// (the device refuses them: no proxy textures on GLES).
Lowered lowered_target(uint32_t target);
uint32_t device_target(Lowered k);   // GL_TEXTURE_2D or GL_TEXTURE_2D_ARRAY
uint32_t device_binding(Lowered k);  // GL_TEXTURE_BINDING_2D or _2D_ARRAY

// The desktop bindings of the lowered targets (client names), per unit.
class LoweredBindings {
public:
    uint32_t bound(uint32_t unit, Lowered k) const;
    void bind(uint32_t unit, Lowered k, uint32_t texture);
    void forget(uint32_t texture);  // glDeleteTextures: its bindings revert to 0

private:
    std::vector<std::array<uint32_t, 3>> units_;
};

// ARB_texture_rectangle's rules on glTexParameter: the GL error of setting
// `pname` to `value` on a rectangle texture, 0 when it is allowed (no
// mipmap filters, no repeating wraps, base level 0).
uint32_t rect_parameter_error(uint32_t pname, double value);

// glGetTexLevelParameter on a lowered target: the device's pname to ask, or
// (when `fixed`) the value to answer. A 1D array's layers are the device's
// depth but the desktop's height; its desktop depth is 1.
struct LevelQuery {
    uint32_t device_pname = 0;
    bool fixed = false;
    int value = 0;
};
LevelQuery level_query(Lowered k, uint32_t pname);

}  // namespace mgl::gl
