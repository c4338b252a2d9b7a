// GL's rules for image load/store (GL 4.2 / GL_ARB_shader_image_load_store),
// once for every backend (DESIGN.md §11): the image formats glBindImageTexture
// takes (GL 4.6 table 8.33), which error a glBindImageTexture call gets and
// why, and the GL_MAX_*IMAGE* figures a context answers (and its shaders see
// as built-in constants). What a backend does with a call that passes is its own.
#pragma once

#include <cstdint>

#include "compute_rules.h"

namespace mgl::gl {

// The figures served (glslang's built-in constants are the same, shaders.cc).
struct ImageLimits {
    static constexpr uint32_t kUnits = 8;           // GL_MAX_IMAGE_UNITS
    static constexpr uint32_t kStageUniforms = 8;   // GL_MAX_{FRAGMENT,COMPUTE,COMBINED}_IMAGE_UNIFORMS
    bool served = false;
};

// GL 4.6 table 8.33: the formats an image unit takes.
inline bool is_image_unit_format(uint32_t f) {
    switch (f) {
        case 0x8814: case 0x881A: case 0x8230: case 0x822F: case 0x8C3A: case 0x822E: case 0x822D:  // RGBA32F RGBA16F RG32F RG16F R11F_G11F_B10F R32F R16F
        case 0x8D70: case 0x8D76: case 0x906F: case 0x8D7C: case 0x823C: case 0x823A: case 0x8238:  // RGBA32UI RGBA16UI RGB10_A2UI RGBA8UI RG32UI RG16UI RG8UI
        case 0x8236: case 0x8234: case 0x8232:                                                        // R32UI R16UI R8UI
        case 0x8D82: case 0x8D88: case 0x8D8E: case 0x823B: case 0x8239: case 0x8237:                // RGBA32I RGBA16I RGBA8I RG32I RG16I RG8I
        case 0x8235: case 0x8233: case 0x8231:                                                        // R32I R16I R8I
        case 0x805B: case 0x8059: case 0x8058: case 0x822C: case 0x822B: case 0x822A: case 0x8229:  // RGBA16 RGB10_A2 RGBA8 RG16 RG8 R16 R8
        case 0x8F9B: case 0x8F97: case 0x8F99: case 0x8F95: case 0x8F98: case 0x8F94:                // RGBA16_SNORM RGBA8_SNORM RG16_SNORM RG8_SNORM R16_SNORM R8_SNORM
            return true;
        default: return false;
    }
}

// glBindImageTexture (GL 4.6 §8.26): the unit below GL_MAX_IMAGE_UNITS, an
// existing texture (or 0), level and layer non-negative, a known access and
// a format of table 8.33.
inline RuleError check_bind_image_texture(uint32_t unit, bool texture_ok, int32_t level, int32_t layer, uint32_t access,
                                          uint32_t format) {
    if (unit >= ImageLimits::kUnits) return {kInvalidValue, "unit >= GL_MAX_IMAGE_UNITS"};
    if (!texture_ok) return {kInvalidValue, "texture is not the name of an existing texture object"};
    if (level < 0) return {kInvalidValue, "negative level"};
    if (layer < 0) return {kInvalidValue, "negative layer"};
    if (access != 0x88B8 && access != 0x88B9 && access != 0x88BA)  // GL_READ_ONLY, GL_WRITE_ONLY, GL_READ_WRITE
        return {kInvalidEnum, "access"};
    if (!is_image_unit_format(format)) return {kInvalidValue, "format is not an image unit format (GL 4.6 table 8.33)"};
    return {};
}

// The GL_MAX_*IMAGE* queries (vertex, geometry and tessellation stages: 0,
// images are served in fragment and compute shaders). false: not one of them.
inline bool image_limit(uint32_t pname, const ImageLimits& l, int64_t* v) {
    const int64_t on = l.served ? 1 : 0;
    switch (pname) {
        case 0x8F38: *v = on * ImageLimits::kUnits; return true;  // GL_MAX_IMAGE_UNITS
        case 0x8F39: *v = on * (ImageLimits::kUnits + 8); return true;  // GL_MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS
        case 0x906D: *v = 0; return true;                         // GL_MAX_IMAGE_SAMPLES
        case 0x90CE:                                              // GL_MAX_FRAGMENT_IMAGE_UNIFORMS
        case 0x91BD:                                              // GL_MAX_COMPUTE_IMAGE_UNIFORMS
        case 0x90CF:                                              // GL_MAX_COMBINED_IMAGE_UNIFORMS
            *v = on * ImageLimits::kStageUniforms;
            return true;
        case 0x90CA: case 0x90CB: case 0x90CC: case 0x90CD:       // GL_MAX_{VERTEX,TESS_CONTROL,TESS_EVALUATION,GEOMETRY}_IMAGE_UNIFORMS
            *v = 0;
            return true;
        default: return false;
    }
}

}  // namespace mgl::gl
