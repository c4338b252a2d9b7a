#include "context/texel_pack.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "context/texel_convert.h"

namespace mgl::gl {

namespace {

constexpr uint32_t kUByte = 0x1401, kByte = 0x1400, kUShort = 0x1403, kShort = 0x1402, kUInt = 0x1405, kInt = 0x1404,
                   kFloat = 0x1406;

constexpr uint32_t kDepthComponent = 0x1902, kStencilIndex = 0x1901, kDepthStencil = 0x84F9, kUInt248 = 0x84FA,
                   kFloat32UInt248Rev = 0x8DAD;

// A row's bytes under the pack state: padded to the alignment unless a
// component is at least that wide.
size_t padded_stride(const PackState& ps, int32_t w, size_t pixel, size_t comp) {
    const size_t row_pixels = ps.row_length > 0 ? size_t(ps.row_length) : size_t(std::max(w, 0));
    size_t stride = row_pixels * pixel;
    const size_t align = ps.alignment > 0 ? size_t(ps.alignment) : 1;
    if (comp < align) stride = (stride + align - 1) / align * align;
    return stride;
}

size_t type_bytes(uint32_t type) {
    switch (type) {
        case kUByte: case kByte: return 1;
        case kUShort: case kShort: return 2;
        case kUInt: case kInt: case kFloat: return 4;
        default: return 0;
    }
}

// An integer component clamped to the range of `type` (§18.2.6).
void store_integer(double v, uint32_t type, uint8_t* out) {
    auto put = [&](auto x) { std::memcpy(out, &x, sizeof x); };
    if (!(v == v)) v = 0;
    switch (type) {
        case kUByte: put(uint8_t(std::clamp(v, 0.0, 255.0))); break;
        case kByte: put(int8_t(std::clamp(v, -128.0, 127.0))); break;
        case kUShort: put(uint16_t(std::clamp(v, 0.0, 65535.0))); break;
        case kShort: put(int16_t(std::clamp(v, -32768.0, 32767.0))); break;
        case kUInt: put(uint32_t(std::clamp(v, 0.0, 4294967295.0))); break;
        case kInt: put(int32_t(std::clamp(v, -2147483648.0, 2147483647.0))); break;
        default: break;
    }
}

}  // namespace

void store_normalized(double v, uint32_t type, uint8_t* out) {
    if (!(v == v) && type != kFloat) v = 0;
    auto unorm = [&](double max) { return std::nearbyint(std::clamp(v, 0.0, 1.0) * max); };
    auto snorm = [&](double max) { return std::nearbyint(std::clamp(v, -1.0, 1.0) * max); };
    auto put = [&](auto x) { std::memcpy(out, &x, sizeof x); };
    switch (type) {
        case kUByte: put(uint8_t(unorm(255.0))); break;
        case kByte: put(int8_t(snorm(127.0))); break;
        case kUShort: put(uint16_t(unorm(65535.0))); break;
        case kShort: put(int16_t(snorm(32767.0))); break;
        case kUInt: put(uint32_t(unorm(4294967295.0))); break;
        case kInt: put(int32_t(snorm(2147483647.0))); break;
        case kFloat: put(float(v)); break;
        default: break;
    }
}

size_t packed_pixel_bytes(uint32_t format, uint32_t type, size_t* component_bytes) {
    ComponentLayout l;
    if (!component_layout(format, &l)) return 0;
    PackedLayout pl;
    if (packed_layout(type, &pl)) {
        if (pl.n != l.n) return 0;  // integer formats take packed types too (EXT_texture_integer)
        *component_bytes = pl.bytes;
        return pl.bytes;
    }
    const size_t b = type_bytes(type);
    if (!b || (l.integer && type == kFloat)) return 0;
    *component_bytes = b;
    return b * l.n;
}

size_t packed_image_bytes(uint32_t format, uint32_t type, const PackState& ps, int32_t w, int32_t h) {
    size_t comp = 0;
    const size_t pixel = packed_pixel_bytes(format, type, &comp);
    if (!pixel || w <= 0 || h <= 0) return 0;
    const size_t row_pixels = ps.row_length > 0 ? size_t(ps.row_length) : size_t(w);
    size_t stride = row_pixels * pixel;
    const size_t align = ps.alignment > 0 ? size_t(ps.alignment) : 1;
    if (comp < align) stride = (stride + align - 1) / align * align;
    return (size_t(std::max(ps.skip_rows, 0)) + size_t(h) - 1) * stride +
           (size_t(std::max(ps.skip_pixels, 0)) + size_t(w)) * pixel;
}

size_t packed_row_stride(uint32_t format, uint32_t type, const PackState& ps, int32_t w) {
    size_t comp = 0;
    const size_t pixel = packed_pixel_bytes(format, type, &comp);
    const size_t row_pixels = ps.row_length > 0 ? size_t(ps.row_length) : size_t(std::max(w, 0));
    size_t stride = row_pixels * pixel;
    const size_t align = ps.alignment > 0 ? size_t(ps.alignment) : 1;
    if (comp < align) stride = (stride + align - 1) / align * align;
    return stride;
}

bool pack_rgba(uint32_t format, uint32_t type, const PackState& ps, int32_t w, int32_t h, const double* rgba,
               LuminanceRead luminance, uint8_t* out) {
    ComponentLayout l;
    size_t comp = 0;
    const size_t pixel = packed_pixel_bytes(format, type, &comp);
    if (!pixel || !component_layout(format, &l)) return false;
    if (w <= 0 || h <= 0) return true;
    PackedLayout pl{};
    const bool packed = packed_layout(type, &pl);
    const size_t row_pixels = ps.row_length > 0 ? size_t(ps.row_length) : size_t(w);
    size_t stride = row_pixels * pixel;
    const size_t align = ps.alignment > 0 ? size_t(ps.alignment) : 1;
    if (comp < align) stride = (stride + align - 1) / align * align;
    uint8_t* row = out + size_t(std::max(ps.skip_rows, 0)) * stride + size_t(std::max(ps.skip_pixels, 0)) * pixel;
    for (int32_t y = 0; y < h; ++y, row += stride) {
        uint8_t* p = row;
        for (int32_t x = 0; x < w; ++x) {
            const double* s = rgba + (size_t(y) * size_t(w) + size_t(x)) * 4;
            double v[5] = {s[0], s[1], s[2], s[3], 0};
            v[4] = luminance == LuminanceRead::red ? s[0]
                   : l.integer                      ? s[0] + s[1] + s[2]
                                                    : std::min(1.0, s[0] + s[1] + s[2]);
            if (packed) {
                uint32_t bits = 0;
                int shift = pl.rev ? 0 : pl.bytes * 8;
                for (int c = 0; c < l.n; ++c) {
                    const int b = pl.bits[c];
                    if (!pl.rev) shift -= b;
                    const double max = double((1ull << b) - 1);
                    const double x = v[l.slot[c]] == v[l.slot[c]] ? v[l.slot[c]] : 0.0;
                    // An integer is clamped to the field, a normalized value scaled to it.
                    const double field = l.integer ? std::clamp(x, 0.0, max) : std::nearbyint(std::clamp(x, 0.0, 1.0) * max);
                    bits |= uint32_t(field) << shift;
                    if (pl.rev) shift += b;
                }
                std::memcpy(p, &bits, pl.bytes);  // little-endian host: the low bytes
                p += pl.bytes;
                continue;
            }
            for (int c = 0; c < l.n; ++c, p += comp) {
                if (l.integer) store_integer(v[l.slot[c]], type, p);
                else store_normalized(v[l.slot[c]], type, p);
            }
        }
    }
    return true;
}

size_t depth_stencil_pixel_bytes(uint32_t format, uint32_t type, size_t* component_bytes) {
    size_t b = 0, pixel = 0;
    if (format == kDepthStencil) {
        if (type == kUInt248) b = pixel = 4;
        else if (type == kFloat32UInt248Rev) b = 4, pixel = 8;
    } else if (format == kDepthComponent || format == kStencilIndex) {
        b = pixel = type_bytes(type);
    }
    *component_bytes = b;
    return pixel;
}

size_t depth_stencil_image_bytes(uint32_t format, uint32_t type, const PackState& ps, int32_t w, int32_t h) {
    size_t comp = 0;
    const size_t pixel = depth_stencil_pixel_bytes(format, type, &comp);
    if (!pixel || w <= 0 || h <= 0) return 0;
    const size_t stride = padded_stride(ps, w, pixel, comp);
    return (size_t(std::max(ps.skip_rows, 0)) + size_t(h) - 1) * stride +
           (size_t(std::max(ps.skip_pixels, 0)) + size_t(w)) * pixel;
}

bool pack_depth_stencil(uint32_t format, uint32_t type, const PackState& ps, int32_t w, int32_t h, const float* depth,
                        const uint32_t* stencil, uint8_t* out) {
    size_t comp = 0;
    const size_t pixel = depth_stencil_pixel_bytes(format, type, &comp);
    if (!pixel || (format != kStencilIndex && !depth) || (format != kDepthComponent && !stencil)) return false;
    if (w <= 0 || h <= 0) return true;
    const size_t stride = padded_stride(ps, w, pixel, comp);
    uint8_t* row = out + size_t(std::max(ps.skip_rows, 0)) * stride + size_t(std::max(ps.skip_pixels, 0)) * pixel;
    for (int32_t y = 0; y < h; ++y, row += stride) {
        uint8_t* p = row;
        for (int32_t x = 0; x < w; ++x, p += pixel) {
            const size_t i = size_t(y) * size_t(w) + size_t(x);
            if (format == kDepthComponent) {
                store_normalized(double(depth[i]), type, p);
            } else if (format == kStencilIndex) {
                if (type == kFloat) {
                    const float f = float(stencil[i]);
                    std::memcpy(p, &f, 4);
                } else {
                    std::memcpy(p, &stencil[i], comp);  // an index keeps its low bits; little-endian host
                }
            } else if (type == kUInt248) {
                const double d = std::clamp(double(depth[i]), 0.0, 1.0);
                const uint32_t v = uint32_t(std::nearbyint(d * 16777215.0)) << 8 | (stencil[i] & 0xFF);
                std::memcpy(p, &v, 4);
            } else {
                const float f = std::clamp(depth[i], 0.0f, 1.0f);
                const uint32_t s = stencil[i] & 0xFF;
                std::memcpy(p, &f, 4);
                std::memcpy(p + 4, &s, 4);
            }
        }
    }
    return true;
}

}  // namespace mgl::gl
