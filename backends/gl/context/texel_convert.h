// Desktop texture uploads on a GLES 3.2 device. Desktop GL lets glTexImage*
// and glTexSubImage* name any format/type pair for any internal format and
// converts (GL 4.6 §8.4.4); it also has internal formats GLES lacks
// (luminance, alpha and intensity ones, RGB10, RGBA12, R3_G3_B2...). GLES
// takes only its table's pairs (GLES 3.2 table 8.10). One table here says
// where each desktop internal format lives on the device (a device format,
// the pair the device takes for it, which desktop component each device
// channel holds, and the swizzle that reads it back as desktop GL would),
// and one converter turns any desktop pair into the device's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mgl::gl {

// An IEEE half float's value (denormals, infinities and NaN included).
float half_to_float(uint16_t h);

// An unsigned small float of GL_UNSIGNED_INT_10F_11F_11F_REV (a 5-bit exponent
// and `mantissa_bits` of mantissa: 6 or 5), infinities and NaN included.
float unsigned_small_float(uint32_t bits, int mantissa_bits);

// Desktop GL's unpack state (§8.4.4.1), byte swapping included.
struct UnpackState {
    int32_t alignment = 4, row_length = 0, image_height = 0, skip_pixels = 0, skip_rows = 0, skip_images = 0;
    bool swap_bytes = false;
};

// What a device channel holds: a component of the desktop RGBA group
// (luminance and intensity are its R, §8.4.4.3), or a constant.
enum class Chan : uint8_t { r, g, b, a, zero, one };

struct HostFormat {
    uint32_t desktop = 0;           // the internal format the program named
    uint32_t base = 0;              // its base internal format (GL_LUMINANCE, GL_RGB...)
    uint32_t internalformat = 0;    // what the device allocates
    uint32_t format = 0, type = 0;  // the device pair texels are converted to
    uint8_t channels = 0;           // components of `format`
    Chan chan[4] = {Chan::r, Chan::g, Chan::b, Chan::a};
    uint32_t swizzle[4] = {0x1903, 0x1904, 0x1905, 0x1906};  // GL_TEXTURE_SWIZZLE_{R,G,B,A}
    bool swizzled = false;          // swizzle is not the identity
    bool integer = false, depth = false, stencil = false;
};

// The device's swizzle for one channel whose application swizzle is `app`
// (GL_RED..GL_ALPHA, GL_ZERO, GL_ONE) on a texture stored through the
// format swizzle `format` (HostFormat::swizzle): the application's swizzle
// picks from the channels the desktop format shows, which the device reads
// through the format swizzle.
inline uint32_t composed_swizzle(const uint32_t format[4], uint32_t app) {
    return app >= 0x1903 && app <= 0x1906 ? format[app - 0x1903] : app;
}

// The device shape of a desktop internal format; false for one not known
// here (compressed formats, GLES formats this table has no pair for). An
// unsized format resolves to the sized one desktop GL allocates for it.
bool host_format(uint32_t internalformat, HostFormat* out);

// GLES 3.2 takes this triple for glTexImage* as it is (tables 8.10 and 8.8,
// norm16 and BGRA8888 extensions): no conversion, no remapping.
bool es_accepts(uint32_t internalformat, uint32_t format, uint32_t type);

// The device takes texels of (format, type) as they are into
// host.internalformat, each component where desktop GL puts it: no conversion.
bool device_takes(const HostFormat& host, uint32_t format, uint32_t type);

// Bytes per pixel of a desktop pair (0: not a pair converted here).
uint32_t source_pixel_bytes(uint32_t format, uint32_t type);

// Whether a desktop pair can be converted into `host` (class matches:
// integer to integer, depth to depth, colour to colour).
bool convertible(uint32_t format, uint32_t type, const HostFormat& host);

// Bytes of client memory a w x h x d image of (format, type) reads.
size_t source_bytes(const UnpackState& u, uint32_t format, uint32_t type, uint32_t w, uint32_t h, uint32_t d,
                    bool three_d);

// w x h x d pixels of (format, type) at src under `u` into host.format /
// host.type, tightly packed (alignment 1). False: a pair not converted here
// or src shorter than source_bytes().
bool convert_texels(const UnpackState& u, uint32_t format, uint32_t type, const HostFormat& host, uint32_t w,
                    uint32_t h, uint32_t d, bool three_d, const uint8_t* src, size_t size, std::vector<uint8_t>* out);

// A packed type's fields in component order: widths, the first field in the
// high bits (the low bits for the _REV types). False: not a packed type
// listed here (the 8-bit to 32-bit RGB/RGBA ones).
struct PackedLayout {
    uint8_t bytes, n, bits[4];
    bool rev;
};
bool packed_layout(uint32_t type, PackedLayout* out);

// The components a client pixel format holds, in order, as indices into
// RGBA (4: luminance), and whether it is an integer format. False: not a
// colour or depth format converted here.
struct ComponentLayout {
    uint8_t n, slot[4];
    bool integer;
};
bool component_layout(uint32_t format, ComponentLayout* out);

// What a level of `host` reads as desktop RGBA (GL 4.6 §8.11.4: luminance
// and intensity to R, alpha to A, G and B 0, A 1): device channels `dev`
// (device pair order) to rgba.
void device_to_rgba(const HostFormat& host, const double* dev, double rgba[4]);

// Desktop glGetTexLevelParameter's component sizes and types for a desktop
// internal format: pname one of GL_TEXTURE_{RED,GREEN,BLUE,ALPHA,LUMINANCE,
// INTENSITY,DEPTH,STENCIL}_{SIZE,TYPE}. False: not a format or pname known here.
bool desktop_level_parameter(uint32_t internalformat, uint32_t pname, int32_t* value);

}  // namespace mgl::gl
