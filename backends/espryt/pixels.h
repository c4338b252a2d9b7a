// How many bytes the host GL will read or write for the arguments whose
// length gl.xml leaves to COMPSIZE: images (through the pixel store state),
// indices, parameter vectors. The decoder cannot know these; the backend
// checks them before the host driver dereferences a client array.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mgl/wire/gl_sizes.h"

namespace mgl::espryt {

// Image, index and clear-value sizes are shared with the client
// (libwire's gl_sizes.h), so that what one end sends the other accepts.
using wire::image_bytes;
using wire::index_bytes;
using wire::kUnknownSize;
using wire::pixel_bytes;
using wire::PixelStore;

// Values read by glTexParameter*v / glSamplerParameter*v for `pname`.
uint32_t parameter_count(uint32_t pname);

// Values read by glClearBuffer*v for `buffer`; 4 (the most any reads) for
// a buffer GL will refuse, so the check never lets a short array through.
inline uint32_t clear_value_count(uint32_t buffer) {
    const uint32_t n = wire::clear_value_count(buffer);
    return n ? n : 4;
}

// Applies glPixelStorei to the state it concerns, with GL's validation
// (the host rejects the same values, leaving its state unchanged).
// Returns false when the host will raise an error.
bool pixel_store(PixelStore& unpack, PixelStore& pack, uint32_t pname, int32_t value);

}  // namespace mgl::espryt
