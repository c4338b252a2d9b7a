// Desktop GL accepts an unsized base format where a device wants a sized one
// (glTexImage*Multisample of GL_RGBA, GL_DEPTH_COMPONENT...): the sized
// format a desktop driver allocates for it, one rule for every backend.
#pragma once

#include <cstdint>

namespace mgl::gl {

// The sized format for an unsized base format; any other format unchanged.
inline uint32_t sized_renderable_format(uint32_t internalformat) {
    switch (internalformat) {
        case 0x1908: return 0x8058;  // GL_RGBA -> GL_RGBA8
        case 0x1907: return 0x8051;  // GL_RGB -> GL_RGB8
        case 0x8227: return 0x822B;  // GL_RG -> GL_RG8
        case 0x1903: return 0x8229;  // GL_RED -> GL_R8
        case 0x1902: return 0x81A6;  // GL_DEPTH_COMPONENT -> GL_DEPTH_COMPONENT24
        case 0x84F9: return 0x88F0;  // GL_DEPTH_STENCIL -> GL_DEPTH24_STENCIL8
        case 0x1901: return 0x8D48;  // GL_STENCIL_INDEX -> GL_STENCIL_INDEX8
        case 0x8C40: return 0x8C43;  // GL_SRGB -> GL_SRGB8_ALPHA8 (GLES renders sRGB with alpha only)
        case 0x8C42: return 0x8C43;  // GL_SRGB_ALPHA -> GL_SRGB8_ALPHA8
        // 32-bit normalized depth is desktop only: 32-bit float depth holds
        // every value of [0, 1] a program writes through glClearDepth or a draw.
        case 0x81A7: return 0x8CAC;  // GL_DEPTH_COMPONENT32 -> GL_DEPTH_COMPONENT32F
        default: return internalformat;
    }
}

}  // namespace mgl::gl
