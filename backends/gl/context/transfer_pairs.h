// The format/type pair a GLES 3.2 device accepts for each sized internal
// format (GLES 3.2 table 8.10's first row per format). Desktop GL lets an
// upload name any pair and converts; where a desktop program specifies a
// level without data (glTexImage* with a null pointer), no texel is
// converted and the device is given this pair instead of the program's.
#pragma once

#include <cstdint>

namespace mgl::gl {

struct TransferPair {
    uint32_t internalformat, format, type;
};

inline constexpr uint32_t kRed = 0x1903, kRg = 0x8227, kRgb = 0x1907, kRgba = 0x1908, kRedInt = 0x8D94,
                          kRgInt = 0x8228, kRgbInt = 0x8D98, kRgbaInt = 0x8D99, kDepth = 0x1902, kDepthStencil = 0x84F9;
inline constexpr uint32_t kUByte = 0x1401, kByte = 0x1400, kUShort = 0x1403, kShort = 0x1402, kUInt = 0x1405,
                          kInt = 0x1404, kHalf = 0x140B, kFloat = 0x1406, kUInt2101010Rev = 0x8368,
                          kUInt248 = 0x84FA, kFloat32UInt248Rev = 0x8DAD;

inline constexpr TransferPair kTransferPairs[] = {
    {0x8229, kRed, kUByte}, {0x8F94, kRed, kByte}, {0x822D, kRed, kHalf}, {0x822E, kRed, kFloat},
    {0x8232, kRedInt, kUByte}, {0x8231, kRedInt, kByte}, {0x8234, kRedInt, kUShort}, {0x8233, kRedInt, kShort},
    {0x8236, kRedInt, kUInt}, {0x8235, kRedInt, kInt}, {0x822A, kRed, kUShort},  // R16 (EXT_texture_norm16)
    {0x822B, kRg, kUByte}, {0x8F95, kRg, kByte}, {0x822F, kRg, kHalf}, {0x8230, kRg, kFloat},
    {0x8238, kRgInt, kUByte}, {0x8237, kRgInt, kByte}, {0x823A, kRgInt, kUShort}, {0x8239, kRgInt, kShort},
    {0x823C, kRgInt, kUInt}, {0x823B, kRgInt, kInt}, {0x822C, kRg, kUShort},  // RG16
    {0x8051, kRgb, kUByte}, {0x8C41, kRgb, kUByte}, {0x8D62, kRgb, kUByte}, {0x8F96, kRgb, kByte},
    {0x8C3A, kRgb, kFloat}, {0x8C3D, kRgb, kFloat}, {0x881B, kRgb, kHalf}, {0x8815, kRgb, kFloat},
    {0x8D7D, kRgbInt, kUByte}, {0x8D8F, kRgbInt, kByte}, {0x8D77, kRgbInt, kUShort}, {0x8D89, kRgbInt, kShort},
    {0x8D71, kRgbInt, kUInt}, {0x8D83, kRgbInt, kInt}, {0x8054, kRgb, kUShort},  // RGB16
    {0x8058, kRgba, kUByte}, {0x8C43, kRgba, kUByte}, {0x8F97, kRgba, kByte}, {0x8057, kRgba, kUByte},
    {0x8056, kRgba, kUByte}, {0x8059, kRgba, kUInt2101010Rev}, {0x881A, kRgba, kHalf}, {0x8814, kRgba, kFloat},
    {0x8D7C, kRgbaInt, kUByte}, {0x8D8E, kRgbaInt, kByte}, {0x906F, kRgbaInt, kUInt2101010Rev},
    {0x8D76, kRgbaInt, kUShort}, {0x8D88, kRgbaInt, kShort}, {0x8D70, kRgbaInt, kUInt}, {0x8D82, kRgbaInt, kInt},
    {0x805B, kRgba, kUShort},  // RGBA16
    // R16_SNORM, RG16_SNORM, RGB16_SNORM, RGBA16_SNORM (EXT_texture_norm16)
    {0x8F98, kRed, kShort}, {0x8F99, kRg, kShort}, {0x8F9A, kRgb, kShort}, {0x8F9B, kRgba, kShort},
    {0x81A5, kDepth, kUShort}, {0x81A6, kDepth, kUInt}, {0x8CAC, kDepth, kFloat},
    {0x88F0, kDepthStencil, kUInt248}, {0x8CAD, kDepthStencil, kFloat32UInt248Rev},
};

// The device's pair for a sized internal format; false for an unsized or
// unknown one (the program's pair stands).
inline bool transfer_pair(uint32_t internalformat, uint32_t* format, uint32_t* type) {
    for (const TransferPair& p : kTransferPairs)
        if (p.internalformat == internalformat) {
            *format = p.format;
            *type = p.type;
            return true;
        }
    return false;
}

}  // namespace mgl::gl
