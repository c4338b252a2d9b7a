// The texel converter (texel_convert.h): a desktop pixel group is unpacked
// to RGBA as GL 4.6 §8.4.4 says (components to [0, 1] or [-1, 1] for
// normalized types, integers as they are, luminance copied to R, G and B,
// missing G and B 0, missing A 1), its device channels are picked from it
// and written in the device's pair.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "context/texel_convert.h"
#include "context/transfer_pairs.h"

namespace mgl::gl {

float unsigned_small_float(uint32_t v, int mbits) {
    const uint32_t e = (v >> mbits) & 31u, m = v & ((1u << mbits) - 1);
    if (e == 0) return std::ldexp(float(m), -14 - mbits);
    if (e == 31) return m ? NAN : INFINITY;
    return std::ldexp(float(m + (1u << mbits)), int(e) - 15 - mbits);
}

float half_to_float(uint16_t h) {
    const uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0) v = std::ldexp(float(m), -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = std::ldexp(float(m + 1024), int(e) - 25);
    return s ? -v : v;
}

namespace {

constexpr uint32_t kGreen = 0x1904, kBlue = 0x1905, kAlphaF = 0x1906, kLum = 0x1909, kLumAlpha = 0x190A,
                   kBgr = 0x80E0, kBgra = 0x80E1, kAbgr = 0x8000, kGreenInt = 0x8D95, kBlueInt = 0x8D96,
                   kAlphaInt = 0x8D97, kBgrInt = 0x8D9A, kBgraInt = 0x8D9B, kLumInt = 0x8D9C, kLumAlphaInt = 0x8D9D;
constexpr uint32_t kDouble = 0x140A;

// Where each component of a format goes in RGBA (4: luminance, to R, G and B).
struct Layout {
    uint8_t n;
    uint8_t slot[4];
    bool integer;
};

bool layout(uint32_t format, Layout* l) {
    auto set = [&](bool integer, std::initializer_list<uint8_t> s) {
        l->n = uint8_t(s.size());
        std::copy(s.begin(), s.end(), l->slot);
        l->integer = integer;
        return true;
    };
    switch (format) {
        case kRed: return set(false, {0});
        case kGreen: return set(false, {1});
        case kBlue: return set(false, {2});
        case kAlphaF: return set(false, {3});
        case kRg: return set(false, {0, 1});
        case kRgb: return set(false, {0, 1, 2});
        case kBgr: return set(false, {2, 1, 0});
        case kRgba: return set(false, {0, 1, 2, 3});
        case kBgra: return set(false, {2, 1, 0, 3});
        case kAbgr: return set(false, {3, 2, 1, 0});
        case kLum: return set(false, {4});
        case kLumAlpha: return set(false, {4, 3});
        case kDepth: return set(false, {0});
        case kRedInt: return set(true, {0});
        case kGreenInt: return set(true, {1});
        case kBlueInt: return set(true, {2});
        case kAlphaInt: return set(true, {3});
        case kRgInt: return set(true, {0, 1});
        case kRgbInt: return set(true, {0, 1, 2});
        case kBgrInt: return set(true, {2, 1, 0});
        case kRgbaInt: return set(true, {0, 1, 2, 3});
        case kBgraInt: return set(true, {2, 1, 0, 3});
        case kLumInt: return set(true, {4});
        case kLumAlphaInt: return set(true, {4, 3});
        default: return false;
    }
}

// Packed types: field widths in component order, the first field in the
// high bits (or the low bits for the _REV types).
struct Packed {
    uint32_t type;
    uint8_t bytes, n, bits[4];
    bool rev;
};

constexpr Packed kPacked[] = {
    {0x8032, 1, 3, {3, 3, 2}, false},    {0x8362, 1, 3, {3, 3, 2}, true},      // 3_3_2, 2_3_3_REV
    {0x8363, 2, 3, {5, 6, 5}, false},    {0x8364, 2, 3, {5, 6, 5}, true},      // 5_6_5, _REV
    {0x8033, 2, 4, {4, 4, 4, 4}, false}, {0x8365, 2, 4, {4, 4, 4, 4}, true},   // 4_4_4_4, _REV
    {0x8034, 2, 4, {5, 5, 5, 1}, false}, {0x8366, 2, 4, {5, 5, 5, 1}, true},   // 5_5_5_1, 1_5_5_5_REV
    {0x8035, 4, 4, {8, 8, 8, 8}, false}, {0x8367, 4, 4, {8, 8, 8, 8}, true},   // 8_8_8_8, _REV
    {0x8036, 4, 4, {10, 10, 10, 2}, false}, {0x8368, 4, 4, {10, 10, 10, 2}, true},  // 10_10_10_2, 2_10_10_10_REV
};

const Packed* packed(uint32_t type) {
    for (const Packed& p : kPacked)
        if (p.type == type) return &p;
    return nullptr;
}

uint32_t component_bytes(uint32_t type) {
    switch (type) {
        case kUByte: case kByte: return 1;
        case kUShort: case kShort: case kHalf: return 2;
        case kUInt: case kInt: case kFloat: return 4;
        default: return 0;
    }
}

uint32_t load(const uint8_t* p, uint32_t bytes, bool swap) {
    uint8_t b[4] = {};
    std::memcpy(b, p, bytes);
    if (swap) std::reverse(b, b + bytes);
    if (bytes == 1) return b[0];
    if (bytes == 2) {
        uint16_t v;
        std::memcpy(&v, b, 2);
        return v;
    }
    uint32_t v;
    std::memcpy(&v, b, 4);
    return v;
}

// One component of a plain type: normalized for colour formats, as it is
// for integer formats.
double component(uint32_t raw, uint32_t type, bool integer) {
    switch (type) {
        case kUByte: return integer ? raw : raw / 255.0;
        case kByte: return integer ? int8_t(raw) : std::max(int8_t(raw) / 127.0, -1.0);
        case kUShort: return integer ? raw : raw / 65535.0;
        case kShort: return integer ? int16_t(raw) : std::max(int16_t(raw) / 32767.0, -1.0);
        case kUInt: return integer ? raw : raw / 4294967295.0;
        case kInt: return integer ? int32_t(raw) : std::max(int32_t(raw) / 2147483647.0, -1.0);
        case kHalf: return half_to_float(uint16_t(raw));
        case kFloat: {
            float f;
            std::memcpy(&f, &raw, 4);
            return f;
        }
        default: return 0;
    }
}

// One pixel group of (format, type) into its components, in format order.
void unpack_group(const uint8_t* p, const Layout& l, uint32_t type, bool swap, double out[4]) {
    if (const Packed* k = packed(type)) {
        const uint32_t v = load(p, k->bytes, swap);
        int shift = k->rev ? 0 : k->bytes * 8;
        for (int i = 0; i < k->n; ++i) {
            const int b = k->bits[i];
            if (!k->rev) shift -= b;
            const uint32_t f = (v >> shift) & ((1u << b) - 1);
            if (k->rev) shift += b;
            out[i] = l.integer ? double(f) : f / double((1u << b) - 1);
        }
        return;
    }
    if (type == 0x8C3B) {  // UNSIGNED_INT_10F_11F_11F_REV
        const uint32_t v = load(p, 4, swap);
        out[0] = unsigned_small_float(v & 0x7FF, 6), out[1] = unsigned_small_float((v >> 11) & 0x7FF, 6),
        out[2] = unsigned_small_float(v >> 22, 5);
        return;
    }
    if (type == 0x8C3E) {  // UNSIGNED_INT_5_9_9_9_REV
        const uint32_t v = load(p, 4, swap);
        const int e = int(v >> 27) - 15 - 9;
        for (int i = 0; i < 3; ++i) out[i] = std::ldexp(double((v >> (9 * i)) & 0x1FF), e);
        return;
    }
    const uint32_t cb = component_bytes(type);
    for (int i = 0; i < l.n; ++i) out[i] = component(load(p + i * cb, cb, swap), type, l.integer);
}

template <typename T>
void put(uint8_t*& o, T v) {
    std::memcpy(o, &v, sizeof v);
    o += sizeof v;
}

double clamp_round(double v, double lo, double hi) { return std::nearbyint(std::clamp(v, lo, hi)); }

// One device component of the device's type.
void store(double v, uint32_t type, bool integer, uint8_t*& o) {
    if (std::isnan(v)) v = 0;
    switch (type) {
        case kUByte: put<uint8_t>(o, uint8_t(integer ? clamp_round(v, 0, 255) : clamp_round(v * 255, 0, 255))); break;
        case kByte: put<int8_t>(o, int8_t(integer ? clamp_round(v, -128, 127) : clamp_round(v * 127, -127, 127))); break;
        case kUShort:
            put<uint16_t>(o, uint16_t(integer ? clamp_round(v, 0, 65535) : clamp_round(v * 65535, 0, 65535)));
            break;
        case kShort:
            put<int16_t>(o, int16_t(integer ? clamp_round(v, -32768, 32767) : clamp_round(v * 32767, -32767, 32767)));
            break;
        case kUInt:
            put<uint32_t>(o, uint32_t(integer ? clamp_round(v, 0, 4294967295.0)
                                              : clamp_round(v * 4294967295.0, 0, 4294967295.0)));
            break;
        case kInt:
            put<int32_t>(o, int32_t(integer ? clamp_round(v, -2147483648.0, 2147483647.0)
                                            : clamp_round(v * 2147483647.0, -2147483647.0, 2147483647.0)));
            break;
        case kFloat: put<float>(o, float(v)); break;
        default: break;
    }
}

}  // namespace

bool component_layout(uint32_t format, ComponentLayout* out) {
    Layout l;
    if (!layout(format, &l)) return false;
    out->n = l.n;
    for (int i = 0; i < 4; ++i) out->slot[i] = i < l.n ? l.slot[i] : 0;
    out->integer = l.integer;
    return true;
}

bool packed_layout(uint32_t type, PackedLayout* out) {
    const Packed* k = packed(type);
    if (!k) return false;
    *out = {k->bytes, k->n, {k->bits[0], k->bits[1], k->bits[2], k->bits[3]}, k->rev};
    return true;
}

void device_to_rgba(const HostFormat& host, const double* dev, double rgba[4]) {
    rgba[0] = rgba[1] = rgba[2] = 0, rgba[3] = 1;
    for (int i = host.channels - 1; i >= 0; --i)  // the first channel wins (sRGB luminance's copies)
        if (host.chan[i] <= Chan::a) rgba[int(host.chan[i])] = dev[i];
}

uint32_t source_pixel_bytes(uint32_t format, uint32_t type) {
    if (format == kDepthStencil)
        return type == kUInt248 ? 4 : type == kFloat32UInt248Rev ? 8 : 0;
    Layout l;
    if (!layout(format, &l)) return 0;
    if (const Packed* k = packed(type)) return k->n == l.n ? k->bytes : 0;
    if (type == 0x8C3B || type == 0x8C3E) return l.n == 3 ? 4 : 0;
    return l.n * component_bytes(type);
}

bool convertible(uint32_t format, uint32_t type, const HostFormat& host) {
    if (type == kDouble || !source_pixel_bytes(format, type)) return false;
    if (format == kDepthStencil) return host.stencil;
    if (host.stencil) return false;
    if ((format == kDepth) != host.depth) return false;
    Layout l;
    layout(format, &l);
    const bool float_type = type == kFloat || type == kHalf || type == 0x8C3B || type == 0x8C3E;
    return l.integer == host.integer && !(l.integer && float_type);
}

size_t source_bytes(const UnpackState& u, uint32_t format, uint32_t type, uint32_t w, uint32_t h, uint32_t d,
                    bool three_d) {
    const size_t bpp = source_pixel_bytes(format, type);
    if (!bpp || !w || !h || !d) return 0;
    const size_t row_pixels = u.row_length > 0 ? size_t(u.row_length) : w;
    const size_t a = size_t(std::max(u.alignment, 1));
    const size_t stride = (row_pixels * bpp + a - 1) / a * a;
    const size_t rows = three_d && u.image_height > 0 ? size_t(u.image_height) : h;
    const size_t skip_images = three_d ? size_t(std::max(u.skip_images, 0)) : 0;
    return (skip_images + d - 1) * rows * stride + (size_t(std::max(u.skip_rows, 0)) + h - 1) * stride +
           (size_t(std::max(u.skip_pixels, 0)) + w) * bpp;
}

bool convert_texels(const UnpackState& u, uint32_t format, uint32_t type, const HostFormat& host, uint32_t w,
                    uint32_t h, uint32_t d, bool three_d, const uint8_t* src, size_t size, std::vector<uint8_t>* out) {
    if (!convertible(format, type, host)) return false;
    const size_t need = source_bytes(u, format, type, w, h, d, three_d);
    if (need > size || (need && !src)) return false;
    const size_t bpp = source_pixel_bytes(format, type);
    const size_t row_pixels = u.row_length > 0 ? size_t(u.row_length) : w;
    const size_t a = size_t(std::max(u.alignment, 1));
    const size_t stride = (row_pixels * bpp + a - 1) / a * a;
    const size_t rows = three_d && u.image_height > 0 ? size_t(u.image_height) : h;
    const size_t image = rows * stride;
    const uint32_t out_bytes = host.type == kUInt248 ? 4 : host.type == kFloat32UInt248Rev ? 8
                             : host.type == kUInt2101010Rev ? 4 : host.channels * component_bytes(host.type);
    out->resize(size_t(w) * h * d * out_bytes);
    uint8_t* o = out->data();
    Layout l{};
    if (format != kDepthStencil) layout(format, &l);
    const size_t first = (three_d ? size_t(std::max(u.skip_images, 0)) * image : 0) +
                         size_t(std::max(u.skip_rows, 0)) * stride + size_t(std::max(u.skip_pixels, 0)) * bpp;
    for (uint32_t z = 0; z < d; ++z)
        for (uint32_t y = 0; y < h; ++y) {
            const uint8_t* p = src + first + z * image + y * stride;
            for (uint32_t x = 0; x < w; ++x, p += bpp) {
                if (format == kDepthStencil) {
                    // Depth and stencil: depth in [0, 1], stencil its low 8 bits.
                    double depth;
                    uint32_t stencil;
                    if (type == kUInt248) {
                        const uint32_t v = load(p, 4, u.swap_bytes);
                        depth = (v >> 8) / 16777215.0, stencil = v & 0xFF;
                    } else {
                        depth = component(load(p, 4, u.swap_bytes), kFloat, false);
                        stencil = load(p + 4, 4, u.swap_bytes) & 0xFF;
                    }
                    if (host.type == kUInt248) {
                        put<uint32_t>(o, uint32_t(clamp_round(depth * 16777215.0, 0, 16777215.0)) << 8 | stencil);
                    } else {
                        put<float>(o, float(std::clamp(depth, 0.0, 1.0)));
                        put<uint32_t>(o, stencil);
                    }
                    continue;
                }
                double c[4] = {};
                unpack_group(p, l, type, u.swap_bytes, c);
                double rgba[4] = {0, 0, 0, 1};
                for (int i = 0; i < l.n; ++i) {
                    if (l.slot[i] == 4) rgba[0] = rgba[1] = rgba[2] = c[i];
                    else rgba[l.slot[i]] = c[i];
                }
                if (host.depth && host.type == kFloat) rgba[0] = std::clamp(rgba[0], 0.0, 1.0);
                double v[4];
                for (int i = 0; i < host.channels; ++i) {
                    const Chan ch = host.chan[i];
                    v[i] = ch == Chan::zero ? 0.0 : ch == Chan::one ? 1.0 : rgba[int(ch)];
                }
                if (host.type == kUInt2101010Rev) {
                    uint32_t word = 0;
                    for (int i = 0; i < 4; ++i) {
                        const double max = i == 3 ? 3.0 : 1023.0;
                        const double q = host.integer ? clamp_round(v[i], 0, max) : clamp_round(v[i] * max, 0, max);
                        word |= uint32_t(q) << (10 * i);
                    }
                    put<uint32_t>(o, word);
                    continue;
                }
                for (int i = 0; i < host.channels; ++i) store(v[i], host.type, host.integer, o);
            }
        }
    return true;
}

}  // namespace mgl::gl
