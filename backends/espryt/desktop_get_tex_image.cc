// glGetTexImage on a GLES host, which has no such verb: the level is
// attached to a framebuffer of our own and read with glReadPixels (the
// desktop read path, so every format/type pair desktop_read_pixels.cc
// converts works here too), a layer at a time for 3D and array levels.
// Depth and stencil levels go through the depth read path
// (desktop_depth_read.cc). What a GLES host cannot attach and read
// (compressed formats) is refused with GL_INVALID_OPERATION and one log line.
#include <GLES3/gl32.h>

#include "backend.h"
#include "context/texel_convert.h"

namespace mgl::espryt {

namespace {

// The binding that names the texture of a glGetTexImage target, and whether
// the level has layers.
GLenum image_binding(GLenum target, bool* layered) {
    *layered = false;
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
        return GL_TEXTURE_BINDING_CUBE_MAP;
    switch (target) {
        case GL_TEXTURE_2D: return GL_TEXTURE_BINDING_2D;
        case GL_TEXTURE_3D: *layered = true; return GL_TEXTURE_BINDING_3D;
        case GL_TEXTURE_2D_ARRAY: *layered = true; return GL_TEXTURE_BINDING_2D_ARRAY;
        case GL_TEXTURE_CUBE_MAP_ARRAY: *layered = true; return GL_TEXTURE_BINDING_CUBE_MAP_ARRAY;
        default: return 0;
    }
}

}  // namespace

void EsprytBackend::glGetTexImage(GLenum target, GLint level, GLenum format, GLenum type,
                                  wire::OutOrOffset<uint8_t> pixels) {
    constexpr gen::Op op = gen::Op::glGetTexImage;
    if (!cur_ || !cur_->desktop()) return unavailable(op);
    if (lowered_get_tex_image(target, level, format, type, pixels)) return;
    bool layered = false;
    const GLenum binding = image_binding(target, &layered);
    if (!binding) return refuse(op, GL_INVALID_ENUM, "not a target whose image a GLES host can read back");
    if (level < 0) return set_error(GL_INVALID_VALUE);
    GLint texture = 0;
    host_gl.glGetIntegerv(binding, &texture);
    if (texture == 0) return refuse(op, GL_INVALID_OPERATION, "the default texture cannot be read on a GLES host");
    GLint width = 0, height = 0, depth = 0;
    host_gl.glGetTexLevelParameteriv(target, level, GL_TEXTURE_WIDTH, &width);
    host_gl.glGetTexLevelParameteriv(target, level, GL_TEXTURE_HEIGHT, &height);
    host_gl.glGetTexLevelParameteriv(target, level, GL_TEXTURE_DEPTH, &depth);
    if (width <= 0 || height <= 0 || depth <= 0) return;  // an undefined level: nothing is written
    // Depth and stencil levels are attached as such and read by the depth
    // read path (desktop_depth_read.cc); GL says which formats suit which.
    GLint depth_bits = 0, stencil_bits = 0;
    host_gl.glGetTexLevelParameteriv(target, level, GL_TEXTURE_DEPTH_SIZE, &depth_bits);
    host_gl.glGetTexLevelParameteriv(target, level, GL_TEXTURE_STENCIL_SIZE, &stencil_bits);
    const bool ds_format = format == GL_DEPTH_COMPONENT || format == GL_STENCIL_INDEX || format == GL_DEPTH_STENCIL;
    if (ds_format != (depth_bits > 0 || stencil_bits > 0) || (format == GL_DEPTH_COMPONENT && !depth_bits) ||
        (format == GL_STENCIL_INDEX && !stencil_bits) || (format == GL_DEPTH_STENCIL && !(depth_bits && stencil_bits)))
        return set_error(GL_INVALID_OPERATION);  // GL 4.6 §8.11.4: the format does not suit the level's
    const GLenum attachment = depth_bits && stencil_bits ? GL_DEPTH_STENCIL_ATTACHMENT
                              : depth_bits               ? GL_DEPTH_ATTACHMENT
                              : stencil_bits             ? GL_STENCIL_ATTACHMENT
                                                         : GL_COLOR_ATTACHMENT0;

    // A level the host holds in other channels than the program's format
    // (luminance, alpha, intensity...) reads back as desktop GL's components.
    gl::HostFormat hf;
    const uint32_t face = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z
                              ? target - GL_TEXTURE_CUBE_MAP_POSITIVE_X : 0;
    const uint32_t* rec = cur_->share->levels.find(uint32_t(texture), face, level);
    bool remap = false;
    if (rec && gl::host_format(*rec, &hf))
        for (int i = 0; i < hf.channels; ++i) remap |= hf.chan[i] != gl::Chan(i);
    if (remap) read_remap_ = &hf;

    GLint read_fb = 0;
    host_gl.glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    GLuint fb = 0;
    host_gl.glGenFramebuffers(1, &fb);
    host_gl.glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
    host_gl.glReadBuffer(GL_COLOR_ATTACHMENT0);
    // Layers go one after another in the reply: each is read with the rows
    // it skips grown by the layers before it.
    const PixelStore saved = cur_->pack;
    for (GLint layer = 0; layer < (layered ? depth : 1); ++layer) {
        if (layered)
            host_gl.glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, attachment, GLuint(texture), level, layer);
        else
            host_gl.glFramebufferTexture2D(GL_READ_FRAMEBUFFER, attachment, target, GLuint(texture), level);
        if (host_gl.glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            refuse(op, GL_INVALID_OPERATION, "this texture's format cannot be attached and read on a GLES host");
            break;
        }
        cur_->pack.skip_rows = saved.skip_rows + layer * height;
        host_gl.glPixelStorei(GL_PACK_SKIP_ROWS, cur_->pack.skip_rows);
        glReadPixels(0, 0, width, height, format, type, pixels);
    }
    read_remap_ = nullptr;
    cur_->pack = saved;
    host_gl.glPixelStorei(GL_PACK_SKIP_ROWS, saved.skip_rows);
    host_gl.glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(read_fb));
    host_gl.glDeleteFramebuffers(1, &fb);
}

}  // namespace mgl::espryt
