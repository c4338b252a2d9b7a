// GL's rules for glCopyImageSubData (GL 4.3 / ARB_copy_image, ES 3.2 /
// EXT_copy_image), once for every backend that copies images itself: which
// targets and names it takes, which levels and regions, which pairs of
// internal formats are compatible (texture view classes, GL 4.6 table 8.22,
// and the compressed/uncompressed pairs of table 18.4) and the block
// alignment of compressed images. A backend fills one CopyImageSide per
// image from its own objects; the front end answers with GL's error.
#pragma once

#include <cstdint>

namespace mgl::gl {

// What glCopyImageSubData compares of an internal format.
struct CopyFormat {
    uint16_t view_class = 0;  // 0: in no view class (compatible with itself only)
    uint16_t bits = 0;        // bits per texel, or per block of a compressed format (0: unknown)
    uint8_t block_w = 1, block_h = 1;
    bool compressed = false;
};
CopyFormat copy_format(uint32_t internalformat);

// One image of the copy as the backend holds it.
struct CopyImageSide {
    uint32_t target = 0;          // as the application passed it
    bool named = false;           // the name exists in the namespace the target picks (textures or renderbuffers)
    uint32_t object_target = 0;   // the texture's target (0: never bound), GL_RENDERBUFFER for a renderbuffer
    bool complete = false;        // a complete texture, a renderbuffer with storage
    int level = 0;
    bool level_exists = false;    // the level is one the image has
    // The level's size as this verb counts it: a 1D array's layers, a 2D
    // array's layers, a cube map's 6 faces or a 3D level's slices in depth.
    int width = 0, height = 0, depth = 0;
    uint32_t internalformat = 0;  // sized
    int samples = 0;
    int x = 0, y = 0, z = 0;
};

struct CopyImageVerdict {
    uint32_t error = 0;     // 0: the copy is valid
    const char* why = "";   // the log line's reason
};

// GL's verdict on copying a w x h x d region of src (in source texels) to dst.
CopyImageVerdict check_copy_image(const CopyImageSide& src, const CopyImageSide& dst, int w, int h, int d);

// The destination region's width and height for a source region of w x h
// texels (a compressed source's blocks are an uncompressed destination's
// texels, and the other way round).
void copy_image_dst_extent(uint32_t src_format, uint32_t dst_format, int w, int h, int* dst_w, int* dst_h);

}  // namespace mgl::gl
