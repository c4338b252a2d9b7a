// glReadPixels of a desktop context. Desktop GL reads a colour buffer into
// any format/type pair (GL_RGB, GL_BGRA, GL_LUMINANCE, GL_FLOAT from a
// normalized buffer, ...); GLES 3 only into RGBA/UNSIGNED_BYTE (normalized
// buffers), RGBA/FLOAT (float buffers), RGBA_INTEGER (integer buffers) and
// one implementation-chosen pair. Every other pair is read here as the
// buffer's GLES pair into scratch memory and converted as GL 4.6 §8.4.4 and
// §18.2 say, with the pack state (alignment, row length, skips) applied on
// the way out. Depth and stencil values are read by desktop_depth_read.cc.
// What is not converted (half floats, a bound pack buffer) is refused with
// GL_INVALID_OPERATION and one log line.
#include <GLES3/gl32.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "backend.h"
#include "context/texel_convert.h"

namespace mgl::espryt {

namespace {

constexpr GLenum kBGR = 0x80E0, kBGRA = 0x80E1, kLuminance = 0x1909, kLuminanceAlpha = 0x190A, kRed = GL_RED,
                 kGreen = 0x1904, kBlue = 0x1905, kABGR = 0x8000;

// The components a format writes, as indices into RGBA (4: luminance, the
// clamped sum of R, G and B, as GL defines it for reads).
bool components(GLenum format, int* n, int comp[4]) {
    switch (format) {
        case kRed: *n = 1, comp[0] = 0; return true;
        case kGreen: *n = 1, comp[0] = 1; return true;
        case kBlue: *n = 1, comp[0] = 2; return true;
        case GL_ALPHA: *n = 1, comp[0] = 3; return true;
        case GL_RG: *n = 2, comp[0] = 0, comp[1] = 1; return true;
        case GL_RGB: *n = 3, comp[0] = 0, comp[1] = 1, comp[2] = 2; return true;
        case kBGR: *n = 3, comp[0] = 2, comp[1] = 1, comp[2] = 0; return true;
        case GL_RGBA: *n = 4, comp[0] = 0, comp[1] = 1, comp[2] = 2, comp[3] = 3; return true;
        case kBGRA: *n = 4, comp[0] = 2, comp[1] = 1, comp[2] = 0, comp[3] = 3; return true;
        case kABGR: *n = 4, comp[0] = 3, comp[1] = 2, comp[2] = 1, comp[3] = 0; return true;
        case kLuminance: *n = 1, comp[0] = 4; return true;
        case kLuminanceAlpha: *n = 2, comp[0] = 4, comp[1] = 3; return true;
        default: return false;
    }
}

// Bytes of one component (0: not a type converted here).
int component_size(GLenum type) {
    switch (type) {
        case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
        case GL_UNSIGNED_SHORT: case GL_SHORT: return 2;
        case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT: return 4;
        default: return 0;
    }
}

}  // namespace

void store_normalized(double v, uint32_t type, uint8_t* out) {
    auto unorm = [&](double max) { return std::nearbyint(std::clamp(v, 0.0, 1.0) * max); };
    auto snorm = [&](double max) { return std::nearbyint(std::clamp(v, -1.0, 1.0) * max); };
    switch (type) {
        case GL_UNSIGNED_BYTE: { uint8_t x = uint8_t(unorm(255.0)); std::memcpy(out, &x, 1); break; }
        case GL_BYTE: { int8_t x = int8_t(snorm(127.0)); std::memcpy(out, &x, 1); break; }
        case GL_UNSIGNED_SHORT: { uint16_t x = uint16_t(unorm(65535.0)); std::memcpy(out, &x, 2); break; }
        case GL_SHORT: { int16_t x = int16_t(snorm(32767.0)); std::memcpy(out, &x, 2); break; }
        case GL_UNSIGNED_INT: { uint32_t x = uint32_t(unorm(4294967295.0)); std::memcpy(out, &x, 4); break; }
        case GL_INT: { int32_t x = int32_t(snorm(2147483647.0)); std::memcpy(out, &x, 4); break; }
        case GL_FLOAT: { float x = float(v); std::memcpy(out, &x, 4); break; }
        default: break;
    }
}

void EsprytBackend::glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                                 wire::OutOrOffset<uint8_t> pixels) {
    constexpr gen::Op op = gen::Op::glReadPixels;
    if (!cur_ || !cur_->desktop() || width <= 0 || height <= 0)
        return EsprytGenerated::glReadPixels(x, y, width, height, format, type, pixels);
    if (format == GL_DEPTH_COMPONENT || format == GL_STENCIL_INDEX || format == GL_DEPTH_STENCIL)
        return read_depth_stencil_pixels(x, y, width, height, format, type, pixels);
    // What the read buffer holds decides which pair GLES reads it with.
    GLint read_fb = 0, read_buffer = GL_NONE, kind = GL_UNSIGNED_NORMALIZED;
    host_gl.glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    host_gl.glGetIntegerv(GL_READ_BUFFER, &read_buffer);
    if (read_buffer != GL_NONE)
        host_gl.glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, read_fb ? GLenum(read_buffer) : GL_BACK,
                                                      GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &kind);
    // A level read back by glGetTexImage whose device channels are not the
    // desktop components (luminance, alpha, intensity formats) is converted.
    const bool es_pair = !read_remap_ && ((format == GL_RGBA && type == GL_UNSIGNED_BYTE && kind == GL_UNSIGNED_NORMALIZED) ||
                         (format == GL_RGBA && type == GL_FLOAT && kind == GL_FLOAT) ||
                         format == GL_RGBA_INTEGER || kind == GL_INT || kind == GL_UNSIGNED_INT ||
                         read_buffer == GL_NONE);
    if (es_pair) return EsprytGenerated::glReadPixels(x, y, width, height, format, type, pixels);

    int n = 0, comp[4] = {};
    const bool known_format = components(format, &n, comp);
    gl::PackedLayout pl{};
    const bool packed = known_format && gl::packed_layout(type, &pl) && pl.n == n;
    const int csize = packed ? pl.bytes : component_size(type);
    if (!known_format || csize == 0 || (kind != GL_UNSIGNED_NORMALIZED && kind != GL_FLOAT)) {
        return refuse(op, GL_INVALID_OPERATION,
                      "this format/type pair (depth, stencil, half-float or packed reads, or an integer or "
                      "non-colour buffer) is not converted on a GLES host");
    }
    GLint pack_buffer = 0;
    host_gl.glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
    if (pack_buffer) {
        return refuse(op, GL_INVALID_OPERATION,
                      "a format/type pair GLES cannot read is not converted into a pixel pack buffer");
    }
    // The output is bounded by pack_bytes (libwire's image_bytes, the size the
    // decoder's reply holds): it must describe the pixels written below.
    const size_t pixel_size = packed ? pl.bytes : size_t(n) * size_t(csize);
    if (pixel_bytes(format, type) != pixel_size)
        return refuse(op, GL_INVALID_OPERATION, "this format/type pair is not converted on a GLES host");
    void* out = nullptr;
    if (!resolve_out(op, pixels.data, pixels.size, pixels.offset, pack_bytes(format, type, width, height), out)) return;

    // The host's pair, tightly packed.
    const bool is_float = kind == GL_FLOAT;
    const size_t count = size_t(width) * size_t(height) * 4;
    std::vector<uint8_t> bytes;
    std::vector<float> floats;
    host_gl.glPixelStorei(GL_PACK_ALIGNMENT, 4);
    host_gl.glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    host_gl.glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
    host_gl.glPixelStorei(GL_PACK_SKIP_ROWS, 0);
    if (is_float) {
        floats.resize(count);
        host_gl.glReadPixels(x, y, width, height, GL_RGBA, GL_FLOAT, floats.data());
    } else {
        bytes.resize(count);
        host_gl.glReadPixels(x, y, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
    }
    const PixelStore& ps = cur_->pack;
    host_gl.glPixelStorei(GL_PACK_ALIGNMENT, ps.alignment);
    host_gl.glPixelStorei(GL_PACK_ROW_LENGTH, ps.row_length);
    host_gl.glPixelStorei(GL_PACK_SKIP_PIXELS, ps.skip_pixels);
    host_gl.glPixelStorei(GL_PACK_SKIP_ROWS, ps.skip_rows);

    const PackRows rows = pack_rows(ps, width, pixel_size, size_t(csize), out);
    uint8_t* dst = rows.first;
    for (GLsizei row = 0; row < height; ++row, dst += rows.stride) {
        uint8_t* p = dst;
        for (GLsizei col = 0; col < width; ++col) {
            const size_t s = (size_t(row) * size_t(width) + size_t(col)) * 4;
            double rgba[5];
            for (int c = 0; c < 4; ++c) rgba[c] = is_float ? double(floats[s + c]) : double(bytes[s + c]) / 255.0;
            if (read_remap_) {
                const double dev[4] = {rgba[0], rgba[1], rgba[2], rgba[3]};
                gl::device_to_rgba(*read_remap_, dev, rgba);
            }
            rgba[4] = std::min(1.0, rgba[0] + rgba[1] + rgba[2]);
            if (packed) {
                uint32_t v = 0;
                int shift = pl.rev ? 0 : pl.bytes * 8;
                for (int c = 0; c < n; ++c) {
                    const int b = pl.bits[c];
                    if (!pl.rev) shift -= b;
                    const double max = double((1u << b) - 1);
                    v |= uint32_t(std::nearbyint(std::clamp(rgba[comp[c]], 0.0, 1.0) * max)) << shift;
                    if (pl.rev) shift += b;
                }
                std::memcpy(p, &v, pl.bytes);  // little-endian host: the low bytes
                p += pl.bytes;
                continue;
            }
            for (int c = 0; c < n; ++c, p += csize) {
                // 8-bit sources keep their exact bytes for 8-bit reads.
                if (!is_float && !read_remap_ && type == GL_UNSIGNED_BYTE && comp[c] < 4) *p = bytes[s + size_t(comp[c])];
                else store_normalized(rgba[comp[c]], type, p);
            }
        }
    }
}

}  // namespace mgl::espryt
