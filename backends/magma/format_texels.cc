// A VkFormat's texels: their size and kind (integer, depth, stencil), and one
// texel read back as RGBA8, float or integer (glReadPixels, surface and image
// readback). The formats and uploads: formats.cc.
#include "formats.h"

#include "context/texel_convert.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace mgl::magma {

namespace {

uint8_t unorm8(float f) { return uint8_t(std::lround(std::clamp(f, 0.0f, 1.0f) * 255.0f)); }

}  // namespace

uint32_t format_bytes(VkFormat f) {
    switch (f) {
        case VK_FORMAT_R8_UNORM:
        case VK_FORMAT_R8_SNORM:
        case VK_FORMAT_R8_UINT:
        case VK_FORMAT_R8_SINT: return 1;
        case VK_FORMAT_R8G8_SNORM:
        case VK_FORMAT_R8G8_UNORM:
        case VK_FORMAT_R8G8_UINT:
        case VK_FORMAT_R8G8_SINT:
        case VK_FORMAT_R16_SFLOAT:
        case VK_FORMAT_R16_UNORM:
        case VK_FORMAT_R16_SNORM:
        case VK_FORMAT_R16_UINT:
        case VK_FORMAT_R16_SINT:
        case VK_FORMAT_D16_UNORM: return 2;
        case VK_FORMAT_R16G16B16A16_SFLOAT:
        case VK_FORMAT_R16G16B16A16_UNORM:
        case VK_FORMAT_R16G16B16A16_SNORM:
        case VK_FORMAT_R16G16B16A16_UINT:
        case VK_FORMAT_R16G16B16A16_SINT:
        case VK_FORMAT_R32G32_SFLOAT:
        case VK_FORMAT_R32G32_UINT:
        case VK_FORMAT_R32G32_SINT:
        case VK_FORMAT_D32_SFLOAT_S8_UINT: return 8;
        case VK_FORMAT_R32G32B32A32_SFLOAT:
        case VK_FORMAT_R32G32B32A32_UINT:
        case VK_FORMAT_R32G32B32A32_SINT: return 16;
        default: return 4;
    }
}

namespace {
// Integer formats: components and bytes per component.
bool int_layout(VkFormat f, int& comps, int& bytes, bool& is_signed) {
    switch (f) {
        case VK_FORMAT_R8_UINT: comps = 1, bytes = 1, is_signed = false; return true;
        case VK_FORMAT_R8_SINT: comps = 1, bytes = 1, is_signed = true; return true;
        case VK_FORMAT_R8G8_UINT: comps = 2, bytes = 1, is_signed = false; return true;
        case VK_FORMAT_R8G8_SINT: comps = 2, bytes = 1, is_signed = true; return true;
        case VK_FORMAT_R8G8B8A8_UINT: comps = 4, bytes = 1, is_signed = false; return true;
        case VK_FORMAT_R8G8B8A8_SINT: comps = 4, bytes = 1, is_signed = true; return true;
        case VK_FORMAT_R16_UINT: comps = 1, bytes = 2, is_signed = false; return true;
        case VK_FORMAT_R16_SINT: comps = 1, bytes = 2, is_signed = true; return true;
        case VK_FORMAT_R16G16_UINT: comps = 2, bytes = 2, is_signed = false; return true;
        case VK_FORMAT_R16G16_SINT: comps = 2, bytes = 2, is_signed = true; return true;
        case VK_FORMAT_R16G16B16A16_UINT: comps = 4, bytes = 2, is_signed = false; return true;
        case VK_FORMAT_R16G16B16A16_SINT: comps = 4, bytes = 2, is_signed = true; return true;
        case VK_FORMAT_R32_UINT: comps = 1, bytes = 4, is_signed = false; return true;
        case VK_FORMAT_R32_SINT: comps = 1, bytes = 4, is_signed = true; return true;
        case VK_FORMAT_R32G32_UINT: comps = 2, bytes = 4, is_signed = false; return true;
        case VK_FORMAT_R32G32_SINT: comps = 2, bytes = 4, is_signed = true; return true;
        case VK_FORMAT_R32G32B32A32_UINT: comps = 4, bytes = 4, is_signed = false; return true;
        case VK_FORMAT_R32G32B32A32_SINT: comps = 4, bytes = 4, is_signed = true; return true;
        default: return false;
    }
}
}  // namespace

bool is_integer_format(VkFormat f) {
    int c, b;
    bool s;
    return int_layout(f, c, b, s);
}

bool is_signed_integer_format(VkFormat f) {
    int c, b;
    bool s = false;
    return int_layout(f, c, b, s) && s;
}

bool texel_rgba_int(VkFormat f, const uint8_t* t, int32_t o[4]) {
    int comps, bytes;
    bool sgn;
    if (!int_layout(f, comps, bytes, sgn)) return false;
    o[0] = o[1] = o[2] = 0, o[3] = 1;  // missing components: (0, 0, 0, 1)
    for (int i = 0; i < comps; ++i) {
        const uint8_t* p = t + i * bytes;
        if (bytes == 1) o[i] = sgn ? int32_t(int8_t(p[0])) : int32_t(p[0]);
        else if (bytes == 2) {
            uint16_t v;
            std::memcpy(&v, p, 2);
            o[i] = sgn ? int32_t(int16_t(v)) : int32_t(v);
        } else {
            std::memcpy(&o[i], p, 4);
        }
    }
    return true;
}

bool is_depth_format(VkFormat f) {
    return f == VK_FORMAT_D16_UNORM || f == VK_FORMAT_D32_SFLOAT || f == VK_FORMAT_D24_UNORM_S8_UINT ||
           f == VK_FORMAT_D32_SFLOAT_S8_UINT || f == VK_FORMAT_X8_D24_UNORM_PACK32;
}

bool has_stencil(VkFormat f) { return f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D32_SFLOAT_S8_UINT; }

namespace {
// Normalized and float formats of one to four equal components.
enum class Comp : uint8_t { unorm, snorm, sfloat };
bool plain_layout(VkFormat f, int& comps, int& bytes, Comp& kind) {
    switch (f) {
        case VK_FORMAT_R8_SNORM: comps = 1, bytes = 1, kind = Comp::snorm; return true;
        case VK_FORMAT_R8G8_SNORM: comps = 2, bytes = 1, kind = Comp::snorm; return true;
        case VK_FORMAT_R8G8B8A8_SNORM: comps = 4, bytes = 1, kind = Comp::snorm; return true;
        case VK_FORMAT_R16_UNORM: comps = 1, bytes = 2, kind = Comp::unorm; return true;
        case VK_FORMAT_R16G16_UNORM: comps = 2, bytes = 2, kind = Comp::unorm; return true;
        case VK_FORMAT_R16G16B16A16_UNORM: comps = 4, bytes = 2, kind = Comp::unorm; return true;
        case VK_FORMAT_R16_SNORM: comps = 1, bytes = 2, kind = Comp::snorm; return true;
        case VK_FORMAT_R16G16_SNORM: comps = 2, bytes = 2, kind = Comp::snorm; return true;
        case VK_FORMAT_R16G16B16A16_SNORM: comps = 4, bytes = 2, kind = Comp::snorm; return true;
        case VK_FORMAT_R16_SFLOAT: comps = 1, bytes = 2, kind = Comp::sfloat; return true;
        case VK_FORMAT_R16G16_SFLOAT: comps = 2, bytes = 2, kind = Comp::sfloat; return true;
        default: return false;
    }
}
}  // namespace

bool texel_rgba32f(VkFormat f, const uint8_t* t, float o[4]) {
    int comps = 0, bytes = 0;
    Comp kind;
    if (plain_layout(f, comps, bytes, kind)) {
        o[0] = o[1] = o[2] = 0, o[3] = 1;
        for (int i = 0; i < comps; ++i) {
            const uint8_t* p = t + i * bytes;
            if (bytes == 1) {
                o[i] = std::max(float(int8_t(p[0])) / 127.0f, -1.0f);  // (only snorm 8-bit formats are listed)
                continue;
            }
            uint16_t v;
            std::memcpy(&v, p, 2);
            o[i] = kind == Comp::unorm   ? float(v) / 65535.0f
                   : kind == Comp::snorm ? std::max(float(int16_t(v)) / 32767.0f, -1.0f)
                                         : gl::half_to_float(v);
        }
        return true;
    }
    switch (f) {
        case VK_FORMAT_A2B10G10R10_UNORM_PACK32: {
            uint32_t v;
            std::memcpy(&v, t, 4);
            for (int i = 0; i < 3; ++i) o[i] = float((v >> (10 * i)) & 0x3FF) / 1023.0f;
            o[3] = float(v >> 30) / 3.0f;
            return true;
        }
        // Depth aspects as copied out of their images (read_image).
        case VK_FORMAT_D32_SFLOAT:
        case VK_FORMAT_D32_SFLOAT_S8_UINT: std::memcpy(o, t, 4), o[1] = o[2] = 0, o[3] = 1; return true;
        case VK_FORMAT_D16_UNORM: {
            uint16_t v;
            std::memcpy(&v, t, 2);
            o[0] = float(v) / 65535.0f, o[1] = o[2] = 0, o[3] = 1;
            return true;
        }
        case VK_FORMAT_D24_UNORM_S8_UINT:
        case VK_FORMAT_X8_D24_UNORM_PACK32: {
            uint32_t v;
            std::memcpy(&v, t, 4);
            o[0] = float(double(v & 0xFFFFFF) / 16777215.0), o[1] = o[2] = 0, o[3] = 1;
            return true;
        }
        case VK_FORMAT_R8G8B8A8_UNORM:
        case VK_FORMAT_R8G8B8A8_SRGB:
            for (int i = 0; i < 4; ++i) o[i] = t[i] / 255.0f;
            return true;
        case VK_FORMAT_B8G8R8A8_UNORM:
            o[0] = t[2] / 255.0f, o[1] = t[1] / 255.0f, o[2] = t[0] / 255.0f, o[3] = t[3] / 255.0f;
            return true;
        case VK_FORMAT_R8_UNORM: o[0] = t[0] / 255.0f, o[1] = o[2] = 0, o[3] = 1; return true;
        case VK_FORMAT_R8G8_UNORM: o[0] = t[0] / 255.0f, o[1] = t[1] / 255.0f, o[2] = 0, o[3] = 1; return true;
        case VK_FORMAT_R32G32B32A32_SFLOAT: std::memcpy(o, t, 16); return true;
        case VK_FORMAT_R32_SFLOAT: std::memcpy(o, t, 4), o[1] = o[2] = 0, o[3] = 1; return true;
        case VK_FORMAT_R32G32_SFLOAT: std::memcpy(o, t, 8), o[2] = 0, o[3] = 1; return true;
        case VK_FORMAT_R16G16B16A16_SFLOAT:
            for (int i = 0; i < 4; ++i) {
                uint16_t h;
                std::memcpy(&h, t + 2 * i, 2);
                o[i] = gl::half_to_float(h);
            }
            return true;
        default: return false;
    }
}

bool texel_rgba8(VkFormat f, const uint8_t* t, uint8_t o[4]) {
    if (f == VK_FORMAT_R8G8B8A8_UNORM || f == VK_FORMAT_R8G8B8A8_SRGB) {
        std::memcpy(o, t, 4);
        return true;
    }
    float v[4];
    if (!texel_rgba32f(f, t, v)) return false;
    for (int i = 0; i < 4; ++i) o[i] = unorm8(v[i]);
    return true;
}

}  // namespace mgl::magma
