// Bytes that GL reads or writes for arguments gl.xml sizes as COMPSIZE:
// pixel rectangles under the pixel store state, indices, clear values.
// One implementation for both ends: the client sizes what it sends with it,
// the backend checks what arrived with it, so the two can never disagree.
#pragma once

#include <cstdint>

namespace mgl::wire {

// GL pixel store state of one direction (unpack for uploads, pack for reads).
struct PixelStore {
    int32_t alignment = 4;
    int32_t row_length = 0;
    int32_t image_height = 0;  // unpack only
    int32_t skip_pixels = 0;
    int32_t skip_rows = 0;
    int32_t skip_images = 0;   // unpack only
};

inline constexpr uint64_t kUnknownSize = ~uint64_t(0);

// Bytes of one pixel of format/type; 0 when the pair is unknown.
uint32_t pixel_bytes(uint32_t format, uint32_t type);

// Bytes GL touches for a width x height (x depth) image from the start of the
// pointer: kUnknownSize for an unknown format/type, 0 for an empty image.
// `three_d`: a 3D/array upload, where image height and skipped images apply.
// Saturates instead of overflowing.
uint64_t image_bytes(const PixelStore& ps, uint32_t format, uint32_t type, int64_t width, int64_t height,
                     int64_t depth, bool three_d);

// Bytes of `count` indices of `type`; kUnknownSize for an unknown type.
uint64_t index_bytes(int64_t count, uint32_t type);

// Values of glClearBuffer*v's value for `buffer`; 0 for an unknown buffer.
uint32_t clear_value_count(uint32_t buffer);

}  // namespace mgl::wire
