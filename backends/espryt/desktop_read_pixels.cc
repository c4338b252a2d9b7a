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
#include "context/texel_pack.h"

namespace mgl::espryt {

// Desktop GL's conversion of a read (the GL front end's, which Magma's reads use too).
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

    size_t csize = 0;
    const size_t pixel_size = gl::packed_pixel_bytes(format, type, &csize);
    gl::ComponentLayout layout{};
    if (!pixel_size || !gl::component_layout(format, &layout) || layout.integer ||
        (kind != GL_UNSIGNED_NORMALIZED && kind != GL_FLOAT)) {
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

    std::vector<double> rgba(count);
    for (size_t i = 0; i < count; i += 4) {
        double v[4];
        for (int c = 0; c < 4; ++c) v[c] = is_float ? double(floats[i + c]) : double(bytes[i + c]) / 255.0;
        if (read_remap_) gl::device_to_rgba(*read_remap_, v, &rgba[i]);
        else std::copy(v, v + 4, &rgba[i]);
    }
    const gl::PackState pack{ps.alignment, ps.row_length, ps.skip_pixels, ps.skip_rows};
    gl::pack_rgba(format, type, pack, width, height, rgba.data(), gl::LuminanceRead::sum, static_cast<uint8_t*>(out));
}

}  // namespace mgl::espryt
