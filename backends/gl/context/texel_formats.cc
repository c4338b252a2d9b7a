// The table of desktop internal formats on a GLES 3.2 device (texel_convert.h).
#include <cstring>

#include "context/texel_convert.h"
#include "context/transfer_pairs.h"

namespace mgl::gl {

namespace {

constexpr uint32_t kAlpha = 0x1906, kLum = 0x1909, kLumAlpha = 0x190A, kIntensity = 0x8049, kSrgb8 = 0x8C41,
                   kSrgb8A8 = 0x8C43;
constexpr uint32_t kR8 = 0x8229, kRG8 = 0x822B, kRGB8 = 0x8051, kRGBA8 = 0x8058, kR16 = 0x822A, kRG16 = 0x822C,
                   kRGB16 = 0x8054, kRGBA16 = 0x805B, kRGB10A2 = 0x8059, kR16F = 0x822D, kRG16F = 0x822F,
                   kR32F = 0x822E, kRG32F = 0x8230, kD32F = 0x8CAC;
constexpr uint32_t kR8I = 0x8231, kR8UI = 0x8232, kR16I = 0x8233, kR16UI = 0x8234, kR32I = 0x8235, kR32UI = 0x8236,
                   kRG8I = 0x8237, kRG8UI = 0x8238, kRG16I = 0x8239, kRG16UI = 0x823A, kRG32I = 0x823B,
                   kRG32UI = 0x823C;

enum Kind : uint8_t { kUnorm, kSnorm, kFlt, kSint, kUint };

// A desktop internal format GLES lacks (or an unsized one), where the device
// keeps it, and the component sizes desktop GL reports for it (R, G, B, A;
// luminance and intensity sizes in R).
struct Entry {
    uint32_t desktop, base, host;
    uint8_t bits[4];
    Kind kind;
};

constexpr Entry kEntries[] = {
    // Unsized formats, as a desktop driver sizes them (8 bits a component).
    {0x1908, kRgba, kRGBA8, {8, 8, 8, 8}, kUnorm}, {4, kRgba, kRGBA8, {8, 8, 8, 8}, kUnorm},
    {0x1907, kRgb, kRGB8, {8, 8, 8, 0}, kUnorm}, {3, kRgb, kRGB8, {8, 8, 8, 0}, kUnorm},
    {0x8227, kRg, kRG8, {8, 8, 0, 0}, kUnorm}, {0x1903, kRed, kR8, {8, 0, 0, 0}, kUnorm},
    {kAlpha, kAlpha, kR8, {0, 0, 0, 8}, kUnorm}, {kLum, kLum, kR8, {8, 0, 0, 0}, kUnorm},
    {1, kLum, kR8, {8, 0, 0, 0}, kUnorm}, {kLumAlpha, kLumAlpha, kRG8, {8, 0, 0, 8}, kUnorm},
    {2, kLumAlpha, kRG8, {8, 0, 0, 8}, kUnorm}, {kIntensity, kIntensity, kR8, {8, 0, 0, 0}, kUnorm},
    // (Unsized DEPTH_COMPONENT and DEPTH_STENCIL are left to the device: a
    // GLES driver samples them (d, d, d, 1), as GL_DEPTH_TEXTURE_MODE's
    // compatibility default does; its sized ones sample (d, 0, 0, 1).)
    {0x8C40, kRgb, kSrgb8, {8, 8, 8, 0}, kUnorm}, {0x8C42, kRgba, kSrgb8A8, {8, 8, 8, 8}, kUnorm},
    // sRGB luminance: its value in all three sRGB channels (no swizzle).
    {0x8C46, kLum, kSrgb8, {8, 0, 0, 0}, kUnorm}, {0x8C47, kLum, kSrgb8, {8, 0, 0, 0}, kUnorm},
    {0x8C44, kLumAlpha, kSrgb8A8, {8, 0, 0, 8}, kUnorm}, {0x8C45, kLumAlpha, kSrgb8A8, {8, 0, 0, 8}, kUnorm},
    // Generic compressed formats: the device keeps them uncompressed.
    {0x84E9, kAlpha, kR8, {0, 0, 0, 8}, kUnorm}, {0x84EA, kLum, kR8, {8, 0, 0, 0}, kUnorm},
    {0x84EB, kLumAlpha, kRG8, {8, 0, 0, 8}, kUnorm}, {0x84EC, kIntensity, kR8, {8, 0, 0, 0}, kUnorm},
    {0x84ED, kRgb, kRGB8, {8, 8, 8, 0}, kUnorm}, {0x84EE, kRgba, kRGBA8, {8, 8, 8, 8}, kUnorm},
    {0x8225, kRed, kR8, {8, 0, 0, 0}, kUnorm}, {0x8226, kRg, kRG8, {8, 8, 0, 0}, kUnorm},
    {0x8C48, kRgb, kSrgb8, {8, 8, 8, 0}, kUnorm}, {0x8C49, kRgba, kSrgb8A8, {8, 8, 8, 8}, kUnorm},
    {0x8C4A, kLum, kSrgb8, {8, 0, 0, 0}, kUnorm}, {0x8C4B, kLumAlpha, kSrgb8A8, {8, 0, 0, 8}, kUnorm},
    // RGTC named in glTexImage* (desktop compresses there; GLES takes
    // compressed data only through glCompressedTexImage*): kept uncompressed.
    {0x8DBB, kRed, kR8, {8, 0, 0, 0}, kUnorm}, {0x8DBC, kRed, 0x8F94, {8, 0, 0, 0}, kSnorm},
    {0x8DBD, kRg, kRG8, {8, 8, 0, 0}, kUnorm}, {0x8DBE, kRg, 0x8F95, {8, 8, 0, 0}, kSnorm},
    // Sized luminance, alpha and intensity formats: one or two channels read
    // through a swizzle; 12 and 16 bits on 16-bit normalized channels.
    {0x803B, kAlpha, kR8, {0, 0, 0, 4}, kUnorm}, {0x803C, kAlpha, kR8, {0, 0, 0, 8}, kUnorm},
    {0x803D, kAlpha, kR16, {0, 0, 0, 12}, kUnorm}, {0x803E, kAlpha, kR16, {0, 0, 0, 16}, kUnorm},
    {0x803F, kLum, kR8, {4, 0, 0, 0}, kUnorm}, {0x8040, kLum, kR8, {8, 0, 0, 0}, kUnorm},
    {0x8041, kLum, kR16, {12, 0, 0, 0}, kUnorm}, {0x8042, kLum, kR16, {16, 0, 0, 0}, kUnorm},
    {0x8043, kLumAlpha, kRG8, {4, 0, 0, 4}, kUnorm}, {0x8044, kLumAlpha, kRG8, {6, 0, 0, 2}, kUnorm},
    {0x8045, kLumAlpha, kRG8, {8, 0, 0, 8}, kUnorm}, {0x8046, kLumAlpha, kRG16, {12, 0, 0, 4}, kUnorm},
    {0x8047, kLumAlpha, kRG16, {12, 0, 0, 12}, kUnorm}, {0x8048, kLumAlpha, kRG16, {16, 0, 0, 16}, kUnorm},
    {0x804A, kIntensity, kR8, {4, 0, 0, 0}, kUnorm}, {0x804B, kIntensity, kR8, {8, 0, 0, 0}, kUnorm},
    {0x804C, kIntensity, kR16, {12, 0, 0, 0}, kUnorm}, {0x804D, kIntensity, kR16, {16, 0, 0, 0}, kUnorm},
    // Small and odd-sized colour formats on the next wider device format.
    {0x2A10, kRgb, kRGB8, {3, 3, 2, 0}, kUnorm}, {0x804F, kRgb, kRGB8, {4, 4, 4, 0}, kUnorm},
    {0x8050, kRgb, kRGB8, {5, 5, 5, 0}, kUnorm}, {0x8052, kRgb, kRGB10A2, {10, 10, 10, 0}, kUnorm},
    {0x8053, kRgb, kRGB16, {12, 12, 12, 0}, kUnorm}, {0x8055, kRgba, kRGBA8, {2, 2, 2, 2}, kUnorm},
    {0x805A, kRgba, kRGBA16, {12, 12, 12, 12}, kUnorm},
    {0x81A7, kDepth, kD32F, {32, 0, 0, 0}, kUnorm},  // DEPTH_COMPONENT32: float depth holds every value
    // ARB_texture_float's luminance/alpha/intensity formats.
    {0x8816, kAlpha, kR32F, {0, 0, 0, 32}, kFlt}, {0x8817, kIntensity, kR32F, {32, 0, 0, 0}, kFlt},
    {0x8818, kLum, kR32F, {32, 0, 0, 0}, kFlt}, {0x8819, kLumAlpha, kRG32F, {32, 0, 0, 32}, kFlt},
    {0x881C, kAlpha, kR16F, {0, 0, 0, 16}, kFlt}, {0x881D, kIntensity, kR16F, {16, 0, 0, 0}, kFlt},
    {0x881E, kLum, kR16F, {16, 0, 0, 0}, kFlt}, {0x881F, kLumAlpha, kRG16F, {16, 0, 0, 16}, kFlt},
    // EXT_texture_integer's luminance/alpha/intensity formats.
    {0x8D72, kAlpha, kR32UI, {0, 0, 0, 32}, kUint}, {0x8D73, kIntensity, kR32UI, {32, 0, 0, 0}, kUint},
    {0x8D74, kLum, kR32UI, {32, 0, 0, 0}, kUint}, {0x8D75, kLumAlpha, kRG32UI, {32, 0, 0, 32}, kUint},
    {0x8D78, kAlpha, kR16UI, {0, 0, 0, 16}, kUint}, {0x8D79, kIntensity, kR16UI, {16, 0, 0, 0}, kUint},
    {0x8D7A, kLum, kR16UI, {16, 0, 0, 0}, kUint}, {0x8D7B, kLumAlpha, kRG16UI, {16, 0, 0, 16}, kUint},
    {0x8D7E, kAlpha, kR8UI, {0, 0, 0, 8}, kUint}, {0x8D7F, kIntensity, kR8UI, {8, 0, 0, 0}, kUint},
    {0x8D80, kLum, kR8UI, {8, 0, 0, 0}, kUint}, {0x8D81, kLumAlpha, kRG8UI, {8, 0, 0, 8}, kUint},
    {0x8D84, kAlpha, kR32I, {0, 0, 0, 32}, kSint}, {0x8D85, kIntensity, kR32I, {32, 0, 0, 0}, kSint},
    {0x8D86, kLum, kR32I, {32, 0, 0, 0}, kSint}, {0x8D87, kLumAlpha, kRG32I, {32, 0, 0, 32}, kSint},
    {0x8D8A, kAlpha, kR16I, {0, 0, 0, 16}, kSint}, {0x8D8B, kIntensity, kR16I, {16, 0, 0, 0}, kSint},
    {0x8D8C, kLum, kR16I, {16, 0, 0, 0}, kSint}, {0x8D8D, kLumAlpha, kRG16I, {16, 0, 0, 16}, kSint},
    {0x8D90, kAlpha, kR8I, {0, 0, 0, 8}, kSint}, {0x8D91, kIntensity, kR8I, {8, 0, 0, 0}, kSint},
    {0x8D92, kLum, kR8I, {8, 0, 0, 0}, kSint}, {0x8D93, kLumAlpha, kRG8I, {8, 0, 0, 8}, kSint},
};

const Entry* find_entry(uint32_t internalformat) {
    for (const Entry& e : kEntries)
        if (e.desktop == internalformat) return &e;
    return nullptr;
}

constexpr uint32_t kSwR = 0x1903, kSwG = 0x1904, kSwB = 0x1905, kSwA = 0x1906, kSwZero = 0, kSwOne = 1;

uint8_t format_channels(uint32_t format) {
    switch (format) {
        case kRed: case kRedInt: case kDepth: return 1;
        case kRg: case kRgInt: case kDepthStencil: return 2;
        case kRgb: case kRgbInt: return 3;
        default: return 4;
    }
}

// The base internal format of a format the device holds as it is.
uint32_t native_base(uint32_t format) {
    switch (format) {
        case kRed: case kRedInt: return kRed;
        case kRg: case kRgInt: return kRg;
        case kRgb: case kRgbInt: return kRgb;
        case kDepth: return kDepth;
        case kDepthStencil: return kDepthStencil;
        default: return kRgba;
    }
}

void set_swizzle(HostFormat* h, uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
    h->swizzle[0] = r, h->swizzle[1] = g, h->swizzle[2] = b, h->swizzle[3] = a;
    h->swizzled = !(r == kSwR && g == kSwG && b == kSwB && a == kSwA);
}

// The device pair of a device format; 16-bit float formats take 32-bit
// floats (GLES takes FLOAT for them too), so the converter writes no halves.
bool device_pair(uint32_t internalformat, uint32_t* format, uint32_t* type) {
    if (!transfer_pair(internalformat, format, type)) return false;
    if (*type == kHalf) *type = kFloat;
    return true;
}

}  // namespace

bool host_format(uint32_t internalformat, HostFormat* out) {
    HostFormat h;
    h.desktop = internalformat;
    const Entry* e = find_entry(internalformat);
    h.internalformat = e ? e->host : internalformat;
    if (!device_pair(h.internalformat, &h.format, &h.type)) return false;
    h.channels = format_channels(h.format);
    h.base = e ? e->base : native_base(h.format);
    h.integer = h.format == kRedInt || h.format == kRgInt || h.format == kRgbInt || h.format == kRgbaInt;
    h.depth = h.base == kDepth || h.base == kDepthStencil;
    h.stencil = h.base == kDepthStencil;
    switch (h.base) {
        case kAlpha:
            h.chan[0] = Chan::a;
            set_swizzle(&h, kSwZero, kSwZero, kSwZero, kSwR);
            break;
        case kLum:
            if (h.channels == 1) set_swizzle(&h, kSwR, kSwR, kSwR, kSwOne);
            else h.chan[1] = h.chan[2] = Chan::r;  // sRGB luminance in three channels
            break;
        case kIntensity: set_swizzle(&h, kSwR, kSwR, kSwR, kSwR); break;
        case kLumAlpha:
            if (h.channels == 2) {
                h.chan[1] = Chan::a;
                set_swizzle(&h, kSwR, kSwR, kSwR, kSwG);
            } else {
                h.chan[1] = h.chan[2] = Chan::r;
            }
            break;
        case kRgb:
            if (h.channels == 4) h.chan[3] = Chan::one;  // RGB10 in RGB10_A2
            break;
        default: break;
    }
    *out = h;
    return true;
}

bool es_accepts(uint32_t ifmt, uint32_t format, uint32_t type) {
    uint32_t f = 0, t = 0;
    if (find_entry(ifmt)) {
        // Unsized formats GLES has too, with their GLES 2 pairs (table 8.8).
        switch (ifmt) {
            case 0x1908: return format == kRgba && (type == kUByte || type == 0x8033 || type == 0x8034);
            case 0x1907: return format == kRgb && (type == kUByte || type == 0x8363);
            case kAlpha: case kLum: case kLumAlpha: return format == ifmt && type == kUByte;
            default: return false;
        }
    }
    if (!transfer_pair(ifmt, &f, &t)) return true;  // not a format this table knows: the device decides
    if (format != f) return false;
    if (type == t) return true;
    // The other pairs GLES 3.2 table 8.10 takes for a format.
    switch (ifmt) {
        case 0x8056: return type == 0x8033;                   // RGBA4: 4_4_4_4
        case 0x8057: return type == 0x8034 || type == 0x8368;  // RGB5_A1: 5_5_5_1, 2_10_10_10_REV
        case 0x8D62: return type == 0x8363;                   // RGB565: 5_6_5
        case 0x8C3A: return type == 0x8C3B || type == kHalf;  // R11F_G11F_B10F
        case 0x8C3D: return type == 0x8C3E || type == kHalf;  // RGB9_E5
        case 0x881A: case 0x881B: case 0x822D: case 0x822F: return type == kFloat;  // 16-bit floats
        case 0x81A5: return type == kUInt;                    // DEPTH_COMPONENT16
        default: return false;
    }
}

bool device_takes(const HostFormat& host, uint32_t format, uint32_t type) {
    for (int i = 0; i < host.channels; ++i)
        if (host.chan[i] != Chan(i)) return false;  // components move: converted
    return es_accepts(host.internalformat, format, type);
}

bool desktop_level_parameter(uint32_t internalformat, uint32_t pname, int32_t* value) {
    const Entry* e = find_entry(internalformat);
    if (!e) return false;
    const bool lum = e->base == kLum || e->base == kLumAlpha, inten = e->base == kIntensity;
    const bool depth = e->base == kDepth || e->base == kDepthStencil;
    int32_t bits = -1;
    switch (pname) {
        case 0x805C: case 0x8C10: bits = (lum || inten || depth) ? 0 : e->bits[0]; break;  // RED
        case 0x805D: case 0x8C11: bits = (lum || inten || depth) ? 0 : e->bits[1]; break;  // GREEN
        case 0x805E: case 0x8C12: bits = (lum || inten || depth) ? 0 : e->bits[2]; break;  // BLUE
        case 0x805F: case 0x8C13: bits = e->bits[3]; break;                                // ALPHA
        case 0x8060: case 0x8C14: bits = lum ? e->bits[0] : 0; break;                       // LUMINANCE
        case 0x8061: case 0x8C15: bits = inten ? e->bits[0] : 0; break;                     // INTENSITY
        case 0x884A: case 0x8C16: bits = depth ? e->bits[0] : 0; break;                     // DEPTH
        case 0x88F1: bits = e->base == kDepthStencil ? e->bits[1] : 0; break;               // STENCIL
        default: return false;
    }
    const bool is_type = (pname >= 0x8C10 && pname <= 0x8C16);
    if (!is_type) {
        *value = bits;
        return true;
    }
    static constexpr int32_t kTypes[] = {0x8C17 /* UNSIGNED_NORMALIZED */, 0x8F9C /* SIGNED_NORMALIZED */,
                                         0x1406 /* FLOAT */, 0x1404 /* INT */, 0x1405 /* UNSIGNED_INT */};
    *value = bits > 0 ? kTypes[e->kind] : 0;
    return true;
}

}  // namespace mgl::gl
