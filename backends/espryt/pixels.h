// How many bytes the host GL will read or write for the arguments whose
// length gl.xml leaves to COMPSIZE: images (through the pixel store state),
// indices, parameter vectors. The decoder cannot know these; the backend
// checks them before the host driver dereferences a client array.
#pragma once

#include <cstdint>

namespace mgl::espryt {

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

// Bytes the host touches for a width x height (x depth) image, from the
// start of the client pointer; kUnknownSize for an unknown format/type;
// 0 for an empty image. `three_d` applies image height and skipped images.
uint64_t image_bytes(const PixelStore& ps, uint32_t format, uint32_t type, int32_t width, int32_t height,
                     int32_t depth, bool three_d);

// Bytes of `count` indices of `type`; kUnknownSize for an unknown type.
uint64_t index_bytes(int32_t count, uint32_t type);

// Values read by glTexParameter*v / glSamplerParameter*v for `pname`.
uint32_t parameter_count(uint32_t pname);

// Values read by glClearBuffer*v for `buffer`.
uint32_t clear_value_count(uint32_t buffer);

// Applies glPixelStorei to the state it concerns, with GL's validation
// (the host rejects the same values, leaving its state unchanged).
// Returns false when the host will raise an error.
bool pixel_store(PixelStore& unpack, PixelStore& pack, uint32_t pname, int32_t value);

}  // namespace mgl::espryt
