// glGetTexImage on a GLES host, which has no such verb: the level is
// attached to a framebuffer of our own and read with glReadPixels (the
// desktop read path, so every format/type pair desktop_read_pixels.cc
// converts works here too), a layer at a time for 3D and array levels.
// Depth and stencil levels go through the depth read path
// (desktop_depth_read.cc); a level of the default texture, which cannot be
// attached, is copied by a draw into one that can first. What a GLES host cannot attach and read
// (compressed formats) is refused with GL_INVALID_OPERATION and one log line.
#include <GLES3/gl32.h>

#include "backend.h"
#include "context/texel_convert.h"
#include "host_detour.h"

namespace mgl::espryt {

namespace {

// The texels of the bound texture's base level (the host channels: no
// swizzle), into a 32-bit float target; an sRGB level into an sRGB target,
// which encodes on write what the fetch decoded.
const char* kCopyFragment = "#version 310 es\n"
                            "uniform highp sampler2D t;\n"
                            "out highp vec4 o;\n"
                            "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), 0); }\n";

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

    // The default texture cannot be attached: its level is copied first.
    GLuint staged = 0;
    if (texture == 0) {
        GLint red_type = GL_NONE;
        host_gl.glGetTexLevelParameteriv(target, level, GL_TEXTURE_RED_TYPE, &red_type);
        if (target != GL_TEXTURE_2D || attachment != GL_COLOR_ATTACHMENT0 || red_type == GL_INT ||
            red_type == GL_UNSIGNED_INT || !(staged = stage_default_texture(level, width, height))) {
            read_remap_ = nullptr;
            return refuse(op, GL_INVALID_OPERATION, "this level of the default texture cannot be read on a GLES host");
        }
    }

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
        else if (staged)
            host_gl.glFramebufferTexture2D(GL_READ_FRAMEBUFFER, attachment, GL_TEXTURE_2D, staged, 0);
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
    if (staged) host_gl.glDeleteTextures(1, &staged);
}

GLuint EsprytBackend::stage_default_texture(GLint level, GLint width, GLint height) {
    ShareGroup& g = *cur_->share;
    if (!g.texel_copy_program) g.texel_copy_program = detour::link(kCopyFragment);
    if (!g.texel_copy_program) return 0;
    detour::SavedState saved;
    saved.save();
    saved.neutral();
    host_gl.glBindTexture(GL_TEXTURE_2D, 0);
    // What decides what a fetch returns, set for the copy and put back.
    const GLenum params[] = {GL_TEXTURE_MIN_FILTER,  GL_TEXTURE_BASE_LEVEL,  GL_TEXTURE_MAX_LEVEL,
                             GL_TEXTURE_SWIZZLE_R,   GL_TEXTURE_SWIZZLE_G,   GL_TEXTURE_SWIZZLE_B,
                             GL_TEXTURE_SWIZZLE_A};
    const GLint copy[] = {GL_NEAREST, level, level, GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
    GLint was[7] = {};
    for (int i = 0; i < 7; ++i) {
        host_gl.glGetTexParameteriv(GL_TEXTURE_2D, params[i], &was[i]);
        host_gl.glTexParameteri(GL_TEXTURE_2D, params[i], copy[i]);
    }
    GLint internal = 0;
    host_gl.glGetTexLevelParameteriv(GL_TEXTURE_2D, level, GL_TEXTURE_INTERNAL_FORMAT, &internal);
    const bool srgb = internal == GL_SRGB8 || internal == GL_SRGB8_ALPHA8;
    GLuint out = 0, fb = 0, vao = 0;
    host_gl.glGenTextures(1, &out);
    host_gl.glGenFramebuffers(1, &fb);
    host_gl.glGenVertexArrays(1, &vao);
    host_gl.glBindTexture(GL_TEXTURE_2D, out);
    host_gl.glTexStorage2D(GL_TEXTURE_2D, 1, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA32F, width, height);
    host_gl.glBindTexture(GL_TEXTURE_2D, 0);
    host_gl.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb);
    host_gl.glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, out, 0);
    const GLenum draw_buffer = GL_COLOR_ATTACHMENT0;
    host_gl.glDrawBuffers(1, &draw_buffer);
    host_gl.glUseProgram(g.texel_copy_program);
    host_gl.glUniform1i(host_gl.glGetUniformLocation(g.texel_copy_program, "t"), 0);
    host_gl.glBindVertexArray(vao);
    host_gl.glViewport(0, 0, width, height);
    host_gl.glDrawArrays(GL_TRIANGLES, 0, 3);
    for (int i = 0; i < 7; ++i) host_gl.glTexParameteri(GL_TEXTURE_2D, params[i], was[i]);
    saved.restore();
    host_gl.glDeleteVertexArrays(1, &vao);
    host_gl.glDeleteFramebuffers(1, &fb);
    return out;
}

}  // namespace mgl::espryt
