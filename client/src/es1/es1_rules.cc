// OpenGL ES 1.1's texture-image rules where they differ from the
// compatibility profile that serves an ES 1.x context (es1_context.h), and
// GL_OES_compressed_paletted_texture, which ES 1.1 requires: the client
// decodes a paletted image into the palette's own format and uploads it with
// glTexImage2D, one call per level (no host carries paletted textures).
//
// The generated entry points call these first in an ES 1.x context
// (codegen/emit_client.cc, kEs1Rules); true: handled here (an error raised,
// or the call carried out another way).
#include <algorithm>
#include <cstring>
#include <vector>

#include "custom/common.h"
#include "es1/es1_context.h"
#include "gen/client_entry.h"

namespace mgl::client::es1 {

namespace {

// ES 1.1 §3.7.1's formats and types, with what Mesa's ES 1.1 also takes:
// GL_EXT_texture_format_BGRA8888 (listed) and GL_OES_rgb8_rgba8's and
// GL_OES_required_internalformat's sized internal formats.
constexpr GLenum kBgra = 0x80E1;
bool es1_format(GLenum f) {
    return f == GL_ALPHA || f == GL_RGB || f == GL_RGBA || f == GL_LUMINANCE || f == GL_LUMINANCE_ALPHA || f == kBgra;
}
// The format an internal format takes its texels in; 0: not an ES 1.1 one.
GLenum base_of(GLenum internal) {
    switch (internal) {
        case 0x8051: case 0x8D62: return GL_RGB;                          // RGB8, RGB565
        case 0x8058: case 0x8056: case 0x8057: return GL_RGBA;            // RGBA8, RGBA4, RGB5_A1
        case 0x803C: return GL_ALPHA;                                     // ALPHA8
        case 0x8040: return GL_LUMINANCE;                                 // LUMINANCE8
        case 0x8045: return GL_LUMINANCE_ALPHA;                           // LUMINANCE8_ALPHA8
        default: return es1_format(internal) ? internal : 0;
    }
}
bool es1_type(GLenum t) {
    return t == GL_UNSIGNED_BYTE || t == GL_UNSIGNED_SHORT_5_6_5 || t == GL_UNSIGNED_SHORT_4_4_4_4 ||
           t == GL_UNSIGNED_SHORT_5_5_5_1;
}
// A pixel type of some GL API: ES 1.1 refuses it with GL_INVALID_OPERATION,
// an enum that is no type at all with the verb's "bad value" error.
bool any_type(GLenum t) {
    return (t >= 0x1400 && t <= 0x1406) || t == 0x140B || (t >= 0x8032 && t <= 0x8036) ||
           (t >= 0x8362 && t <= 0x8368) || t == 0x8C3B || t == 0x8C3E || t == 0x84FA || t == 0x8DAD || t == 0x8D61;
}
// The packed types go with one format each (Table 3.4).
bool type_fits(GLenum format, GLenum type) {
    if (type == GL_UNSIGNED_SHORT_5_6_5) return format == GL_RGB;
    if (type == GL_UNSIGNED_SHORT_4_4_4_4 || type == GL_UNSIGNED_SHORT_5_5_5_1) return format == GL_RGBA;
    return true;
}

// The format and type pair's error (`bad`: an enum that is no format or
// type), or GL_NO_ERROR.
GLenum pixel_error(GLenum format, GLenum type, GLenum bad) {
    if (!es1_format(format)) return bad;
    if (!es1_type(type)) return any_type(type) ? GL_INVALID_OPERATION : bad;
    if (!type_fits(format, type)) return GL_INVALID_OPERATION;
    return GL_NO_ERROR;
}

struct Palette {
    int index_bits;
    int entry_bytes;
    GLenum format, type;  // of a palette entry, as glTexImage2D takes it
};

// GL_PALETTE4_RGB8_OES .. GL_PALETTE8_RGB5_A1_OES, in enum order.
constexpr Palette kPalettes[] = {
    {4, 3, GL_RGB, GL_UNSIGNED_BYTE},          {4, 4, GL_RGBA, GL_UNSIGNED_BYTE},
    {4, 2, GL_RGB, GL_UNSIGNED_SHORT_5_6_5},   {4, 2, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4},
    {4, 2, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1}, {8, 3, GL_RGB, GL_UNSIGNED_BYTE},
    {8, 4, GL_RGBA, GL_UNSIGNED_BYTE},         {8, 2, GL_RGB, GL_UNSIGNED_SHORT_5_6_5},
    {8, 2, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4}, {8, 2, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1},
};

int64_t index_bytes(const Palette& p, int64_t w, int64_t h) {
    return p.index_bits == 8 ? w * h : (w * h + 1) / 2;
}

// Uploads the levels 0..-level of a paletted image (the extension puts a
// whole mipmap chain in one call when level is negative).
void upload_paletted(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLsizei width, GLsizei height,
                     GLint border, GLsizei image_size, const uint8_t* data) {
    const char* verb = "glCompressedTexImage2D";
    const Palette& p = kPalettes[internalformat - kFirstPalette];
    const int levels = 1 - level;
    if (level > 0 || width < 0 || height < 0 || border != 0) return gl_error(ctx, GL_INVALID_VALUE, verb);
    if (levels > 1 && (width >> (levels - 1)) == 0 && (height >> (levels - 1)) == 0)
        return gl_error(ctx, GL_INVALID_VALUE, verb);  // more levels than the image has
    const int64_t palette_bytes = int64_t(1) << p.index_bits;
    int64_t expected = palette_bytes * p.entry_bytes;
    for (int l = 0; l < levels; ++l)
        expected += index_bytes(p, std::max<int64_t>(1, width >> l), std::max<int64_t>(1, height >> l));
    if (int64_t(image_size) != expected) return gl_error(ctx, GL_INVALID_VALUE, verb);
    if (!data) return gl_error(ctx, GL_INVALID_VALUE, verb);

    const uint8_t* palette = data;
    const uint8_t* indices = data + palette_bytes * p.entry_bytes;
    const int64_t align = std::max(1, ctx.st.unpack.alignment);
    std::vector<uint8_t> texels;
    for (int l = 0; l < levels; ++l) {
        const int64_t w = std::max<int64_t>(1, width >> l), h = std::max<int64_t>(1, height >> l);
        const int64_t row = (w * p.entry_bytes + align - 1) / align * align;
        texels.assign(size_t(row * h), 0);
        for (int64_t i = 0; i < w * h; ++i) {
            unsigned idx = p.index_bits == 8 ? indices[i] : (i & 1 ? indices[i / 2] & 0xF : indices[i / 2] >> 4);
            std::memcpy(&texels[size_t((i / w) * row + (i % w) * p.entry_bytes)], palette + idx * p.entry_bytes,
                        size_t(p.entry_bytes));
        }
        mgl_glTexImage2D(target, l, GLint(p.format), GLsizei(w), GLsizei(h), 0, p.format, p.type, texels.data());
        indices += index_bytes(p, w, h);
    }
}

}  // namespace

}  // namespace mgl::client::es1

namespace mgl_custom {

using namespace mgl::client;

// Mesa's order (checked against its ES 1.1 on llvmpipe): the internal format
// (GL_INVALID_VALUE), then format and type, then their agreement.
bool es1_glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height, GLint border,
                      GLenum format, GLenum type, const void* pixels) {
    Context& ctx = *current();
    const GLenum base = es1::base_of(GLenum(internalformat));
    GLenum err = base ? es1::pixel_error(format, type, GL_INVALID_VALUE) : GL_INVALID_VALUE;
    const bool bgra_pair = (base == GL_RGBA || base == es1::kBgra) && (format == GL_RGBA || format == es1::kBgra);
    if (err == GL_NO_ERROR && base != format && !bgra_pair) err = GL_INVALID_OPERATION;
    if (err != GL_NO_ERROR) {
        gl_error(ctx, err, "glTexImage2D");
        return true;
    }
    if (GLenum(internalformat) != es1::kBgra) return false;
    // Desktop GL has no BGRA internal format: its texels are RGBA's.
    mgl_glTexImage2D(target, level, GL_RGBA, width, height, border, format, type, pixels);
    return true;
}

bool es1_glTexSubImage2D(GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum format, GLenum type, const void*) {
    const GLenum err = es1::pixel_error(format, type, GL_INVALID_ENUM);
    if (err == GL_NO_ERROR) return false;
    gl_error(*current(), err, "glTexSubImage2D");
    return true;
}

// ES 1.1 copies into the base formats (and their sized forms) only.
bool es1_glCopyTexImage2D(GLenum, GLint, GLenum internalformat, GLint, GLint, GLsizei, GLsizei, GLint) {
    if (es1::base_of(internalformat) && internalformat != es1::kBgra) return false;
    gl_error(*current(), GL_INVALID_ENUM, "glCopyTexImage2D");
    return true;
}

bool es1_glCompressedTexImage2D(GLenum target, GLint level, GLenum internalformat, GLsizei width, GLsizei height,
                                GLint border, GLsizei imageSize, const void* data) {
    if (internalformat == es1::kEtc1 && lists_extension(*current(), "GL_OES_compressed_ETC1_RGB8_texture")) {
        mgl_glCompressedTexImage2D(target, level, es1::kEtc2Rgb8, width, height, border, imageSize, data);
        return true;
    }
    if (internalformat < es1::kFirstPalette || internalformat > es1::kLastPalette) return false;
    es1::upload_paletted(*current(), target, level, internalformat, width, height, border, imageSize,
                         static_cast<const uint8_t*>(data));
    return true;
}

// A paletted image cannot be replaced in part (the extension's errors),
bool es1_glCompressedTexSubImage2D(GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum format, GLsizei,
                                   const void*) {
    // (nor an ETC1 one: GL_OES_compressed_ETC1_RGB8_texture)
    if ((format < es1::kFirstPalette || format > es1::kLastPalette) && format != es1::kEtc1) return false;
    gl_error(*current(), GL_INVALID_OPERATION, "glCompressedTexSubImage2D");
    return true;
}

}  // namespace mgl_custom
