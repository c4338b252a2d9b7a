#include "pixels.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

namespace mgl::espryt {

uint32_t parameter_count(uint32_t pname) {
    switch (pname) {
        case GL_TEXTURE_BORDER_COLOR:
        case 0x8B9D:  // GL_TEXTURE_CROP_RECT_OES
        case 0x8E46:  // GL_TEXTURE_SWIZZLE_RGBA
            return 4;
        default:
            return 1;
    }
}

bool pixel_store(PixelStore& unpack, PixelStore& pack, uint32_t pname, int32_t value) {
    int32_t* slot = nullptr;
    bool is_alignment = false;
    switch (pname) {
        case GL_UNPACK_ALIGNMENT: slot = &unpack.alignment; is_alignment = true; break;
        case GL_UNPACK_ROW_LENGTH: slot = &unpack.row_length; break;
        case GL_UNPACK_IMAGE_HEIGHT: slot = &unpack.image_height; break;
        case GL_UNPACK_SKIP_PIXELS: slot = &unpack.skip_pixels; break;
        case GL_UNPACK_SKIP_ROWS: slot = &unpack.skip_rows; break;
        case GL_UNPACK_SKIP_IMAGES: slot = &unpack.skip_images; break;
        case GL_PACK_ALIGNMENT: slot = &pack.alignment; is_alignment = true; break;
        case GL_PACK_ROW_LENGTH: slot = &pack.row_length; break;
        case GL_PACK_SKIP_PIXELS: slot = &pack.skip_pixels; break;
        case GL_PACK_SKIP_ROWS: slot = &pack.skip_rows; break;
        default: return true;  // not ours to track (or INVALID_ENUM from the host)
    }
    if (is_alignment ? (value != 1 && value != 2 && value != 4 && value != 8) : value < 0) return false;
    *slot = value;
    return true;
}

}  // namespace mgl::espryt
