#include "copy_image_rules.h"

namespace mgl::gl {

namespace {

// View classes of table 8.22 (and the ES 3.2 / EXT_texture_view ETC2/EAC
// classes, and S3TC's as drivers class them), numbered here.
enum Class : uint16_t {
    k128 = 1, k96, k64, k48, k32, k24, k16, k8,
    kRgtc1, kRgtc2, kBptcUnorm, kBptcFloat,
    kDxt1Rgb, kDxt1Rgba, kDxt3, kDxt5,
    kEacR11, kEacRg11, kEtc2Rgb, kEtc2Rgba1, kEtc2EacRgba, kEtc1,
};

struct Entry {
    uint32_t format;
    uint16_t view_class;
    uint16_t bits;
    bool compressed;
};

constexpr Entry kFormats[] = {
    {0x8814, k128, 128, false}, {0x8D70, k128, 128, false}, {0x8D82, k128, 128, false},  // RGBA32F/UI/I
    {0x8815, k96, 96, false},   {0x8D71, k96, 96, false},   {0x8D83, k96, 96, false},    // RGB32F/UI/I
    // RGBA16F, RG32F, RGBA16UI, RG32UI, RGBA16I, RG32I, RGBA16, RGBA16_SNORM
    {0x881A, k64, 64, false}, {0x8230, k64, 64, false}, {0x8D76, k64, 64, false}, {0x823C, k64, 64, false},
    {0x8D88, k64, 64, false}, {0x823B, k64, 64, false}, {0x805B, k64, 64, false}, {0x8F9B, k64, 64, false},
    // RGB16, RGB16_SNORM, RGB16F, RGB16UI, RGB16I
    {0x8054, k48, 48, false}, {0x8F9A, k48, 48, false}, {0x881B, k48, 48, false}, {0x8D77, k48, 48, false},
    {0x8D89, k48, 48, false},
    // RG16F, R11F_G11F_B10F, R32F, RGB10_A2UI, RGBA8UI, RG16UI, R32UI, RGBA8I, RG16I, R32I,
    // RGB10_A2, RGBA8, RG16, RGBA8_SNORM, RG16_SNORM, SRGB8_ALPHA8, RGB9_E5
    {0x822F, k32, 32, false}, {0x8C3A, k32, 32, false}, {0x822E, k32, 32, false}, {0x906F, k32, 32, false},
    {0x8D7C, k32, 32, false}, {0x823A, k32, 32, false}, {0x8236, k32, 32, false}, {0x8D8E, k32, 32, false},
    {0x8239, k32, 32, false}, {0x8235, k32, 32, false}, {0x8059, k32, 32, false}, {0x8058, k32, 32, false},
    {0x822C, k32, 32, false}, {0x8F97, k32, 32, false}, {0x8F99, k32, 32, false}, {0x8C43, k32, 32, false},
    {0x8C3D, k32, 32, false},
    // RGB8, RGB8_SNORM, SRGB8, RGB8UI, RGB8I
    {0x8051, k24, 24, false}, {0x8F96, k24, 24, false}, {0x8C41, k24, 24, false}, {0x8D7D, k24, 24, false},
    {0x8D8F, k24, 24, false},
    // R16F, RG8UI, R16UI, RG8I, R16I, RG8, R16, RG8_SNORM, R16_SNORM
    {0x822D, k16, 16, false}, {0x8238, k16, 16, false}, {0x8234, k16, 16, false}, {0x8237, k16, 16, false},
    {0x8233, k16, 16, false}, {0x822B, k16, 16, false}, {0x822A, k16, 16, false}, {0x8F95, k16, 16, false},
    {0x8F98, k16, 16, false},
    // R8UI, R8I, R8, R8_SNORM
    {0x8232, k8, 8, false}, {0x8231, k8, 8, false}, {0x8229, k8, 8, false}, {0x8F94, k8, 8, false},
    // Compressed: RGTC, BPTC, S3TC (and its sRGB forms), ETC2/EAC, ETC1.
    {0x8DBB, kRgtc1, 64, true}, {0x8DBC, kRgtc1, 64, true}, {0x8DBD, kRgtc2, 128, true}, {0x8DBE, kRgtc2, 128, true},
    {0x8E8C, kBptcUnorm, 128, true}, {0x8E8D, kBptcUnorm, 128, true},
    {0x8E8E, kBptcFloat, 128, true}, {0x8E8F, kBptcFloat, 128, true},
    {0x83F0, kDxt1Rgb, 64, true}, {0x8C4C, kDxt1Rgb, 64, true}, {0x83F1, kDxt1Rgba, 64, true}, {0x8C4D, kDxt1Rgba, 64, true},
    {0x83F2, kDxt3, 128, true}, {0x8C4E, kDxt3, 128, true}, {0x83F3, kDxt5, 128, true}, {0x8C4F, kDxt5, 128, true},
    {0x9270, kEacR11, 64, true}, {0x9271, kEacR11, 64, true}, {0x9272, kEacRg11, 128, true}, {0x9273, kEacRg11, 128, true},
    {0x9274, kEtc2Rgb, 64, true}, {0x9275, kEtc2Rgb, 64, true}, {0x9276, kEtc2Rgba1, 64, true}, {0x9277, kEtc2Rgba1, 64, true},
    {0x9278, kEtc2EacRgba, 128, true}, {0x9279, kEtc2EacRgba, 128, true},
    {0x8D64, kEtc1, 64, true},
};

constexpr uint32_t kRenderbuffer = 0x8D41;
constexpr uint32_t kCubeMap = 0x8513;

bool copy_target(uint32_t t) {
    switch (t) {
        case kRenderbuffer:
        case 0x0DE0:  // GL_TEXTURE_1D
        case 0x8C18:  // GL_TEXTURE_1D_ARRAY
        case 0x0DE1:  // GL_TEXTURE_2D
        case 0x8C1A:  // GL_TEXTURE_2D_ARRAY
        case 0x84F5:  // GL_TEXTURE_RECTANGLE
        case kCubeMap:
        case 0x9009:  // GL_TEXTURE_CUBE_MAP_ARRAY
        case 0x806F:  // GL_TEXTURE_3D
        case 0x9100:  // GL_TEXTURE_2D_MULTISAMPLE
        case 0x9102:  // GL_TEXTURE_2D_MULTISAMPLE_ARRAY
            return true;
        default: return false;  // proxies, GL_TEXTURE_BUFFER, cube faces...
    }
}

// The checks of one side that need no region: target, name, storage, level.
CopyImageVerdict check_side(const CopyImageSide& s) {
    if (!copy_target(s.target)) return {0x0500, "target is not GL_RENDERBUFFER or a texture target that has images"};
    if (!s.named) return {0x0501, "name is not a texture or renderbuffer of that target"};
    if (s.target != kRenderbuffer && s.object_target == 0) return {0x0502, "the texture has no images (never bound)"};
    if (s.target != kRenderbuffer && s.object_target != s.target) return {0x0500, "target is not the texture's"};
    if (!s.complete) return {0x0502, s.target == kRenderbuffer ? "the renderbuffer has no storage" : "the texture is not complete"};
    if (s.level < 0 || !s.level_exists || (s.target == kRenderbuffer && s.level != 0))
        return {0x0501, "no such level"};
    return {};
}

// A compressed image's region must start on a block and cover whole blocks
// (or reach the level's edge).
bool block_aligned(const CopyImageSide& s, const CopyFormat& f, int w, int h) {
    if (!f.compressed) return true;
    if (s.x % f.block_w || s.y % f.block_h) return false;
    if (w % f.block_w && s.x + w != s.width) return false;
    if (h % f.block_h && s.y + h != s.height) return false;
    return true;
}

bool inside(const CopyImageSide& s, int w, int h, int d) {
    return s.x >= 0 && s.y >= 0 && s.z >= 0 && int64_t(s.x) + w <= s.width && int64_t(s.y) + h <= s.height &&
           int64_t(s.z) + d <= s.depth;
}

}  // namespace

CopyFormat copy_format(uint32_t internalformat) {
    for (const Entry& e : kFormats)
        if (e.format == internalformat) {
            CopyFormat f;
            f.view_class = e.view_class;
            f.bits = e.bits;
            f.compressed = e.compressed;
            if (e.compressed) f.block_w = f.block_h = 4;
            return f;
        }
    return {};
}

void copy_image_dst_extent(uint32_t src_format, uint32_t dst_format, int w, int h, int* dst_w, int* dst_h) {
    const CopyFormat s = copy_format(src_format), d = copy_format(dst_format);
    *dst_w = w;
    *dst_h = h;
    if (s.compressed && !d.compressed) {
        *dst_w = (w + s.block_w - 1) / s.block_w;
        *dst_h = (h + s.block_h - 1) / s.block_h;
    } else if (!s.compressed && d.compressed) {
        *dst_w = w * d.block_w;
        *dst_h = h * d.block_h;
    }
}

CopyImageVerdict check_copy_image(const CopyImageSide& src, const CopyImageSide& dst, int w, int h, int d) {
    if (CopyImageVerdict v = check_side(src); v.error) return v;
    if (CopyImageVerdict v = check_side(dst); v.error) return v;
    if (w < 0 || h < 0 || d < 0) return {0x0501, "negative width, height or depth"};
    const CopyFormat sf = copy_format(src.internalformat), df = copy_format(dst.internalformat);
    if (!block_aligned(src, sf, w, h)) return {0x0501, "the source region is not aligned to the compressed blocks"};
    int dw = 0, dh = 0;
    copy_image_dst_extent(src.internalformat, dst.internalformat, w, h, &dw, &dh);
    if (!block_aligned(dst, df, dw, dh)) return {0x0501, "the destination region is not aligned to the compressed blocks"};
    if (!inside(src, w, h, d)) return {0x0501, "the region is outside the source level"};
    if (!inside(dst, dw, dh, d)) return {0x0501, "the region is outside the destination level"};
    if (src.internalformat != dst.internalformat) {
        if (sf.compressed != df.compressed) {
            if (!sf.bits || sf.bits != df.bits)
                return {0x0502, "the uncompressed texel size is not the compressed block size"};
        } else if (!sf.view_class || sf.view_class != df.view_class) {
            return {0x0502, "the internal formats are not compatible"};
        }
    }
    if (src.samples != dst.samples) return {0x0502, "the sample counts differ"};
    return {};
}

}  // namespace mgl::gl
