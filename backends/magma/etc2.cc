// ETC2/EAC block decoding as the OpenGL ES 3.0 specification (appendix C)
// defines it. A block is 64 bits, most significant byte first; pixel i of a
// 4x4 block is column i / 4, row i % 4 (row 0 first in memory, like GL's
// first row).
#include "etc2.h"

#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>

namespace mgl::magma::etc2 {

namespace {

// ETC1/ETC2 intensity modifiers, by table codeword and pixel index (msb, lsb).
constexpr int kModifiers[8][4] = {{2, 8, -2, -8},     {5, 17, -5, -17},    {9, 29, -9, -29},    {13, 42, -13, -42},
                                  {18, 60, -18, -60}, {24, 80, -24, -80}, {33, 106, -33, -106}, {47, 183, -47, -183}};
// T and H mode distances.
constexpr int kDistances[8] = {3, 6, 11, 16, 23, 32, 41, 64};
// EAC modifiers, by table index and 3-bit pixel index.
constexpr int kEac[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

uint64_t load(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
    return v;
}
int bits(uint64_t b, int hi, int lo) { return int((b >> lo) & ((uint64_t(1) << (hi - lo + 1)) - 1)); }
int bit(uint64_t b, int i) { return int((b >> i) & 1); }
int ext4(int v) { return v << 4 | v; }
int ext5(int v) { return v << 3 | v >> 2; }
int ext6(int v) { return v << 2 | v >> 4; }
int ext7(int v) { return v << 1 | v >> 6; }
int sext3(int v) { return v >= 4 ? v - 8 : v; }
uint8_t clamp8(int v) { return uint8_t(std::clamp(v, 0, 255)); }

struct Rgb {
    int r, g, b;
};

// The 2-bit index of pixel i (column-major) from the low 32 bits.
int pixel_index(uint64_t b, int i) { return bit(b, i + 16) << 1 | bit(b, i); }

// An ETC2 RGB block (a1: the punch-through alpha variant, where bit 33 says
// "opaque" and there is no individual mode). out: 16 RGBA8 texels, row-major.
void decode_rgb(uint64_t b, bool a1, uint8_t out[16][4]) {
    const bool diff = a1 || bit(b, 33);
    const bool opaque = !a1 || bit(b, 33);
    auto put = [&](int i, Rgb c, bool transparent) {
        uint8_t* o = out[(i % 4) * 4 + i / 4];
        if (transparent) {
            o[0] = o[1] = o[2] = o[3] = 0;
            return;
        }
        o[0] = clamp8(c.r), o[1] = clamp8(c.g), o[2] = clamp8(c.b), o[3] = 255;
    };
    auto paint = [&](const Rgb p[4]) {
        for (int i = 0; i < 16; ++i) {
            const int idx = pixel_index(b, i);
            put(i, p[idx], !opaque && idx == 2);
        }
    };
    Rgb c1, c2;
    if (!diff) {
        c1 = {ext4(bits(b, 63, 60)), ext4(bits(b, 55, 52)), ext4(bits(b, 47, 44))};
        c2 = {ext4(bits(b, 59, 56)), ext4(bits(b, 51, 48)), ext4(bits(b, 43, 40))};
    } else {
        const int r = bits(b, 63, 59), g = bits(b, 55, 51), bl = bits(b, 47, 43);
        const int r2 = r + sext3(bits(b, 58, 56)), g2 = g + sext3(bits(b, 50, 48)), b2 = bl + sext3(bits(b, 42, 40));
        if (r2 < 0 || r2 > 31) {  // T mode
            const Rgb t1{ext4(bits(b, 60, 59) << 2 | bits(b, 57, 56)), ext4(bits(b, 55, 52)), ext4(bits(b, 51, 48))};
            const Rgb t2{ext4(bits(b, 47, 44)), ext4(bits(b, 43, 40)), ext4(bits(b, 39, 36))};
            const int d = kDistances[bits(b, 35, 34) << 1 | bit(b, 32)];
            const Rgb p[4] = {t1, {t2.r + d, t2.g + d, t2.b + d}, t2, {t2.r - d, t2.g - d, t2.b - d}};
            return paint(p);
        }
        if (g2 < 0 || g2 > 31) {  // H mode
            const int hr1 = bits(b, 62, 59), hg1 = bits(b, 58, 56) << 1 | bit(b, 52), hb1 = bit(b, 51) << 3 | bits(b, 49, 47);
            const int hr2 = bits(b, 46, 43), hg2 = bits(b, 42, 39), hb2 = bits(b, 38, 35);
            const Rgb h1{ext4(hr1), ext4(hg1), ext4(hb1)}, h2{ext4(hr2), ext4(hg2), ext4(hb2)};
            const int order = (hr1 << 8 | hg1 << 4 | hb1) >= (hr2 << 8 | hg2 << 4 | hb2);
            const int d = kDistances[bit(b, 34) << 2 | bit(b, 32) << 1 | order];
            const Rgb p[4] = {{h1.r + d, h1.g + d, h1.b + d}, {h1.r - d, h1.g - d, h1.b - d},
                              {h2.r + d, h2.g + d, h2.b + d}, {h2.r - d, h2.g - d, h2.b - d}};
            return paint(p);
        }
        if (b2 < 0 || b2 > 31) {  // planar mode: always opaque
            const Rgb o{ext6(bits(b, 62, 57)), ext7(bit(b, 56) << 6 | bits(b, 54, 49)),
                        ext6(bit(b, 48) << 5 | bits(b, 44, 43) << 3 | bits(b, 41, 39))};
            const Rgb h{ext6(bits(b, 38, 34) << 1 | bit(b, 32)), ext7(bits(b, 31, 25)), ext6(bits(b, 24, 19))};
            const Rgb v{ext6(bits(b, 18, 13)), ext7(bits(b, 12, 6)), ext6(bits(b, 5, 0))};
            for (int i = 0; i < 16; ++i) {
                const int x = i / 4, y = i % 4;
                auto f = [&](int co, int ch, int cv) { return (x * (ch - co) + y * (cv - co) + 4 * co + 2) >> 2; };
                put(i, {f(o.r, h.r, v.r), f(o.g, h.g, v.g), f(o.b, h.b, v.b)}, false);
            }
            return;
        }
        c1 = {ext5(r), ext5(g), ext5(bl)};
        c2 = {ext5(r2), ext5(g2), ext5(b2)};
    }
    // Individual or differential: two sub-blocks with their own base color and table.
    const bool flip = bit(b, 32);
    const int cw[2] = {bits(b, 39, 37), bits(b, 36, 34)};
    for (int i = 0; i < 16; ++i) {
        const int x = i / 4, y = i % 4;
        const int s = flip ? y >= 2 : x >= 2;
        const int idx = pixel_index(b, i);
        // Punch-through, not opaque: index 2 is transparent and the "a" modifiers are 0.
        const int m = (!opaque && (idx & 1) == 0) ? 0 : kModifiers[cw[s]][idx];
        const Rgb& c = s ? c2 : c1;
        put(i, {c.r + m, c.g + m, c.b + m}, !opaque && idx == 2);
    }
}

// An EAC block's 16 values (column-major pixel order), before scaling:
// 8-bit alpha, or 11-bit unsigned / signed.
enum class Eac { alpha8, unsigned11, signed11 };
void decode_eac(uint64_t b, Eac kind, int out[16]) {
    const int base_u = bits(b, 63, 56), mult = bits(b, 55, 52), table = bits(b, 51, 48);
    int base_s = int(int8_t(uint8_t(base_u)));
    if (base_s == -128) base_s = -127;
    for (int i = 0; i < 16; ++i) {
        const int m = kEac[table][bits(b, 47 - 3 * i, 45 - 3 * i)];
        int v;
        switch (kind) {
            case Eac::alpha8: v = std::clamp(base_u + m * mult, 0, 255); break;
            case Eac::unsigned11: v = std::clamp(base_u * 8 + 4 + (mult ? m * mult * 8 : m), 0, 2047); break;
            default: v = std::clamp(base_s * 8 + (mult ? m * mult * 8 : m), -1023, 1023); break;
        }
        out[(i % 4) * 4 + i / 4] = v;  // row-major
    }
}

uint16_t unorm16_of_11(int v) { return uint16_t(v << 5 | v >> 6); }
int16_t snorm16_of_11(int v) {
    return v >= 0 ? int16_t(v << 5 | v >> 5) : int16_t(-((-v) << 5 | (-v) >> 5));
}

}  // namespace

bool format(uint32_t f, Format& o) {
    switch (f) {
        case GL_ETC1_RGB8_OES:
        case GL_COMPRESSED_RGB8_ETC2: o = {Kind::rgb8, 8, VK_FORMAT_R8G8B8A8_UNORM, 4}; return true;
        case GL_COMPRESSED_SRGB8_ETC2: o = {Kind::rgb8, 8, VK_FORMAT_R8G8B8A8_SRGB, 4}; return true;
        case GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2: o = {Kind::rgb8_a1, 8, VK_FORMAT_R8G8B8A8_UNORM, 4}; return true;
        case GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2: o = {Kind::rgb8_a1, 8, VK_FORMAT_R8G8B8A8_SRGB, 4}; return true;
        case GL_COMPRESSED_RGBA8_ETC2_EAC: o = {Kind::rgba8, 16, VK_FORMAT_R8G8B8A8_UNORM, 4}; return true;
        case GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC: o = {Kind::rgba8, 16, VK_FORMAT_R8G8B8A8_SRGB, 4}; return true;
        case GL_COMPRESSED_R11_EAC: o = {Kind::r11, 8, VK_FORMAT_R16_UNORM, 2}; return true;
        case GL_COMPRESSED_SIGNED_R11_EAC: o = {Kind::r11_signed, 8, VK_FORMAT_R16_SNORM, 2}; return true;
        case GL_COMPRESSED_RG11_EAC: o = {Kind::rg11, 16, VK_FORMAT_R16G16_UNORM, 4}; return true;
        case GL_COMPRESSED_SIGNED_RG11_EAC: o = {Kind::rg11_signed, 16, VK_FORMAT_R16G16_SNORM, 4}; return true;
        default: return false;
    }
}

void decode(const Format& f, const uint8_t* src, uint32_t w, uint32_t h, uint8_t* dst) {
    const uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
    for (uint32_t by = 0; by < bh; ++by) {
        for (uint32_t bx = 0; bx < bw; ++bx, src += f.block_bytes) {
            uint8_t texels[16][4]{};  // row-major within the block, bytes of one texel
            switch (f.kind) {
                case Kind::rgb8: decode_rgb(load(src), false, texels); break;
                case Kind::rgb8_a1: decode_rgb(load(src), true, texels); break;
                case Kind::rgba8: {
                    int a[16];
                    decode_eac(load(src), Eac::alpha8, a);
                    decode_rgb(load(src + 8), false, texels);
                    for (int i = 0; i < 16; ++i) texels[i][3] = uint8_t(a[i]);
                    break;
                }
                default: {
                    const bool sign = f.kind == Kind::r11_signed || f.kind == Kind::rg11_signed;
                    const int channels = f.kind == Kind::rg11 || f.kind == Kind::rg11_signed ? 2 : 1;
                    for (int c = 0; c < channels; ++c) {
                        int v[16];
                        decode_eac(load(src + 8 * c), sign ? Eac::signed11 : Eac::unsigned11, v);
                        for (int i = 0; i < 16; ++i) {
                            const uint16_t u = sign ? uint16_t(snorm16_of_11(v[i])) : unorm16_of_11(v[i]);
                            std::memcpy(&texels[i][2 * c], &u, 2);
                        }
                    }
                }
            }
            for (uint32_t y = 0; y < 4 && by * 4 + y < h; ++y)
                for (uint32_t x = 0; x < 4 && bx * 4 + x < w; ++x)
                    std::memcpy(dst + ((size_t(by) * 4 + y) * w + bx * 4 + x) * f.texel_bytes, texels[y * 4 + x],
                                f.texel_bytes);
        }
    }
}

}  // namespace mgl::magma::etc2
