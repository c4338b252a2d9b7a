// Desktop reads into client memory (glReadPixels, glGetTexImage): colour
// values, as desktop RGBA components, written as any format/type pair
// desktop GL takes (GL 4.6 §8.4.4 and §18.2: component selection, clamping,
// conversion to the type, packed types, the pack state's addressing). The
// backends read their images in their own device format, turn texels into
// RGBA and call this, so both backends write the same bytes for a read.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mgl::gl {

struct PackState {
    int32_t alignment = 4, row_length = 0, skip_pixels = 0, skip_rows = 0;
};

// What a luminance component reads as: glReadPixels sums R, G and B
// (clamped, §18.2.3); glGetTexImage takes R (§8.11.4).
enum class LuminanceRead : uint8_t { sum, red };

// Bytes one pixel of (format, type) takes, and of one component (the pack
// alignment rule: rows are padded unless a component is at least the
// alignment); 0: a colour pair not written here (depth, stencil, half
// floats, bitmaps). GL_DEPTH_COMPONENT is written from R.
size_t packed_pixel_bytes(uint32_t format, uint32_t type, size_t* component_bytes);

// The bytes from the start of `out` to the end of the last pixel of a
// w x h image under `ps` (0 for a pair not written here).
size_t packed_image_bytes(uint32_t format, uint32_t type, const PackState& ps, int32_t w, int32_t h);

// Bytes from one row to the next of a w-pixel-wide image under `ps`.
size_t packed_row_stride(uint32_t format, uint32_t type, const PackState& ps, int32_t w);

// Writes w x h pixels, given as RGBA (rgba: w*h*4 values, rows in GL's
// order, bottom first), as (format, type) under `ps` into `out`, which holds
// at least packed_image_bytes(). Integer formats (GL_RGBA_INTEGER...) write
// the values as integers clamped to the type's range (a packed type's field), the others clamp
// normalized types to [0, 1] ([-1, 1] signed) and scale. False: a pair not
// written here (the caller refuses it).
bool pack_rgba(uint32_t format, uint32_t type, const PackState& ps, int32_t w, int32_t h, const double* rgba,
               LuminanceRead luminance, uint8_t* out);

// Depth and stencil reads (§18.2: GL_DEPTH_COMPONENT, GL_STENCIL_INDEX,
// GL_DEPTH_STENCIL with UNSIGNED_INT_24_8 or FLOAT_32_UNSIGNED_INT_24_8_REV):
// bytes of one pixel (0: a pair not written here) and the bytes from `out`
// to the end of a w x h image under `ps`.
size_t depth_stencil_pixel_bytes(uint32_t format, uint32_t type, size_t* component_bytes);
size_t depth_stencil_image_bytes(uint32_t format, uint32_t type, const PackState& ps, int32_t w, int32_t h);

// Writes w x h depth values (`depth`, in [0, 1]; null for GL_STENCIL_INDEX)
// and stencil indices (`stencil`, null for GL_DEPTH_COMPONENT), rows bottom
// first, as (format, type) under `ps`: depth as a normalized or float
// component, a stencil index as an integer of the type (its low bits) or a
// float, the depth/stencil pairs packed as GL packs them. False: a pair not
// written here.
bool pack_depth_stencil(uint32_t format, uint32_t type, const PackState& ps, int32_t w, int32_t h, const float* depth,
                        const uint32_t* stencil, uint8_t* out);

// One normalized or float value as one component of `type` (§18.2.6).
void store_normalized(double v, uint32_t type, uint8_t* out);

}  // namespace mgl::gl
