// glReadPixels of depth and stencil values on a GLES host, which reads
// neither. The read framebuffer's depth/stencil values are blitted into a
// scratch texture of the same format (a GLES blit wants matching formats),
// sampled by a small program of the backend's own into a 32-bit colour
// target (depth as a float, stencil as an unsigned integer, GLES 3.1 stencil
// texturing), read back as that and converted as GL 4.6 §18.2 says, with the
// pack state applied on the way out. glGetTexImage of depth and stencil
// textures reads through here (desktop_get_tex_image.cc). Every host state
// the detour touches is put back as it was.
#include <GLES3/gl32.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "backend.h"
#include "context/texel_pack.h"
#include "host_detour.h"

namespace mgl::espryt {

namespace {


const char* kDepthFragment = "#version 310 es\n"
                             "uniform highp sampler2D t;\n"
                             "out highp vec4 o;\n"
                             "void main() { o = vec4(texelFetch(t, ivec2(gl_FragCoord.xy), 0).r); }\n";
const char* kStencilFragment = "#version 310 es\n"
                               "uniform highp usampler2D t;\n"
                               "out highp uvec4 o;\n"
                               "void main() { o = uvec4(texelFetch(t, ivec2(gl_FragCoord.xy), 0).r); }\n";

// The scratch format a blit from the read framebuffer's depth/stencil accepts.
GLenum scratch_format(GLint depth_bits, bool depth_float, GLint stencil_bits) {
    if (depth_bits == 0) return stencil_bits ? GL_STENCIL_INDEX8 : GL_NONE;
    if (depth_float) return stencil_bits ? GL_DEPTH32F_STENCIL8 : GL_DEPTH_COMPONENT32F;
    if (depth_bits <= 16 && !stencil_bits) return GL_DEPTH_COMPONENT16;
    return stencil_bits ? GL_DEPTH24_STENCIL8 : GL_DEPTH_COMPONENT24;
}

}  // namespace

bool EsprytBackend::read_depth_stencil(GLint x, GLint y, GLsizei w, GLsizei h, bool stencil, std::vector<float>* depth,
                                       std::vector<uint32_t>* stencil_out) {
    GLint read_fb = 0;
    host_gl.glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    const GLenum depth_att = read_fb ? GL_DEPTH_ATTACHMENT : GL_DEPTH;
    const GLenum stencil_att = read_fb ? GL_STENCIL_ATTACHMENT : GL_STENCIL;
    GLint depth_type = GL_NONE, stencil_type = GL_NONE, depth_bits = 0, stencil_bits = 0, kind = GL_NONE;
    host_gl.glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, depth_att,
                                                  GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &depth_type);
    host_gl.glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, stencil_att,
                                                  GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &stencil_type);
    if (depth_type != GL_NONE) {
        host_gl.glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, depth_att,
                                                      GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &depth_bits);
        host_gl.glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, depth_att,
                                                      GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &kind);
    }
    if (stencil_type != GL_NONE)
        host_gl.glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, stencil_att,
                                                      GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE, &stencil_bits);
    if (stencil ? stencil_bits == 0 : depth_bits == 0) return false;  // nothing to read: GL_INVALID_OPERATION
    const GLenum format = scratch_format(depth_bits, kind == GL_FLOAT, stencil_bits);

    ShareGroup& g = *cur_->share;
    GLuint& program = stencil ? g.stencil_read_program : g.depth_read_program;
    if (!program) program = detour::link(stencil ? kStencilFragment : kDepthFragment);
    if (!program) return false;

    detour::SavedState saved;
    saved.save();
    saved.neutral();
    GLuint tex[2] = {}, fb[2] = {}, vao = 0;
    host_gl.glGenTextures(2, tex);
    host_gl.glGenFramebuffers(2, fb);
    host_gl.glGenVertexArrays(1, &vao);
    // The values, blitted into a texture of their own format at (0, 0).
    host_gl.glBindTexture(GL_TEXTURE_2D, tex[0]);
    host_gl.glTexStorage2D(GL_TEXTURE_2D, 1, format, w, h);
    host_gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    host_gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    if (stencil && depth_bits) host_gl.glTexParameteri(GL_TEXTURE_2D, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_STENCIL_INDEX);
    host_gl.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb[0]);
    const GLenum scratch_att = depth_bits && stencil_bits ? GL_DEPTH_STENCIL_ATTACHMENT
                               : depth_bits               ? GL_DEPTH_ATTACHMENT
                                                          : GL_STENCIL_ATTACHMENT;
    host_gl.glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, scratch_att, GL_TEXTURE_2D, tex[0], 0);
    const GLbitfield bits = (depth_bits ? GL_DEPTH_BUFFER_BIT : 0u) | (stencil_bits ? GL_STENCIL_BUFFER_BIT : 0u);
    if (const GLenum older = host_gl.glGetError()) set_error(older);  // the application's, kept for it
    host_gl.glBlitFramebuffer(x, y, x + w, y + h, 0, 0, w, h, bits, GL_NEAREST);
    bool ok = host_gl.glGetError() == GL_NO_ERROR;

    // Sampled into a 32-bit colour target and read back.
    if (ok) {
        host_gl.glBindTexture(GL_TEXTURE_2D, tex[1]);
        host_gl.glTexStorage2D(GL_TEXTURE_2D, 1, stencil ? GL_R32UI : GL_R32F, w, h);
        host_gl.glBindFramebuffer(GL_FRAMEBUFFER, fb[1]);
        host_gl.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[1], 0);
        const GLenum draw_buffer = GL_COLOR_ATTACHMENT0;
        host_gl.glDrawBuffers(1, &draw_buffer);
        host_gl.glReadBuffer(GL_COLOR_ATTACHMENT0);
        host_gl.glBindTexture(GL_TEXTURE_2D, tex[0]);
        host_gl.glUseProgram(program);
        host_gl.glUniform1i(host_gl.glGetUniformLocation(program, "t"), 0);
        host_gl.glBindVertexArray(vao);
        host_gl.glViewport(0, 0, w, h);
        host_gl.glDrawArrays(GL_TRIANGLES, 0, 3);
        const size_t n = size_t(w) * size_t(h);
        if (stencil) {
            std::vector<uint32_t> rgba(n * 4);
            host_gl.glReadPixels(0, 0, w, h, GL_RGBA_INTEGER, GL_UNSIGNED_INT, rgba.data());
            stencil_out->resize(n);
            for (size_t i = 0; i < n; ++i) (*stencil_out)[i] = rgba[i * 4];
        } else {
            std::vector<float> rgba(n * 4);
            host_gl.glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, rgba.data());
            depth->resize(n);
            for (size_t i = 0; i < n; ++i) (*depth)[i] = rgba[i * 4];
        }
        ok = host_gl.glGetError() == GL_NO_ERROR;
    }
    saved.restore();
    host_gl.glDeleteVertexArrays(1, &vao);
    host_gl.glDeleteFramebuffers(2, fb);
    host_gl.glDeleteTextures(2, tex);
    return ok;
}

void EsprytBackend::read_depth_stencil_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format,
                                              GLenum type, wire::OutOrOffset<uint8_t> pixels) {
    constexpr gen::Op op = gen::Op::glReadPixels;
    const auto& ps = cur_->pack;
    const gl::PackState pack{ps.alignment, ps.row_length, ps.skip_pixels, ps.skip_rows};
    size_t csize = 0;
    const size_t pixel_size = gl::depth_stencil_pixel_bytes(format, type, &csize);
    if (!pixel_size || pixel_bytes(format, type) != pixel_size)
        return refuse(op, GL_INVALID_OPERATION, "this depth/stencil format/type pair is not read on a GLES host");
    GLint pack_buffer = 0;
    host_gl.glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
    if (pack_buffer)
        return refuse(op, GL_INVALID_OPERATION, "depth and stencil values are not read into a pixel pack buffer");
    void* out = nullptr;
    if (!resolve_out(op, pixels.data, pixels.size, pixels.offset, pack_bytes(format, type, width, height), out)) return;

    std::vector<float> depth;
    std::vector<uint32_t> stencil;
    const bool want_depth = format != GL_STENCIL_INDEX, want_stencil = format != GL_DEPTH_COMPONENT;
    if ((want_depth && !read_depth_stencil(x, y, width, height, false, &depth, nullptr)) ||
        (want_stencil && !read_depth_stencil(x, y, width, height, true, nullptr, &stencil)))
        return refuse(op, GL_INVALID_OPERATION,
                      "the read framebuffer has no such buffer, or its depth/stencil values could not be read");

    gl::pack_depth_stencil(format, type, pack, width, height, want_depth ? depth.data() : nullptr,
                           want_stencil ? stencil.data() : nullptr, static_cast<uint8_t*>(out));
}

}  // namespace mgl::espryt
