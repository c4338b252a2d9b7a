// Desktop texture uploads on the GLES host (issues 12 and 13). A level whose
// internal format GLES lacks, or whose data comes in a pair GLES refuses for
// it, is given the device format, pair and swizzle of the GL front end's
// table (backends/gl/context/texel_convert.h) and its texels are converted
// there. Data in a pixel unpack buffer is read back from the host (mapped),
// converted and uploaded from memory. What is not converted (stencil
// indices, bitmaps, a pair of another class than the format: integer data
// for a colour format...) is refused with GL_INVALID_OPERATION and one log
// line. The program's internal format is kept per level (texture_levels.h):
// sub-image uploads convert to the level's device pair, and
// glGetTexLevelParameter answers with the program's format and sizes.
#include <GLES3/gl32.h>

#include <cstring>
#include <vector>

#include "backend.h"
#include "context/texel_convert.h"
#include "state/depth_texture_mode.h"

namespace mgl::espryt {

namespace {

struct Target {
    GLenum texture = 0, binding = 0;  // the texture target (cube faces: the cube map) and its binding
    uint32_t face = 0;
};

bool target_of(GLenum target, Target* t) {
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
        *t = {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP, target - GL_TEXTURE_CUBE_MAP_POSITIVE_X};
        return true;
    }
    switch (target) {
        case GL_TEXTURE_2D: *t = {target, GL_TEXTURE_BINDING_2D, 0}; return true;
        case GL_TEXTURE_3D: *t = {target, GL_TEXTURE_BINDING_3D, 0}; return true;
        case GL_TEXTURE_2D_ARRAY: *t = {target, GL_TEXTURE_BINDING_2D_ARRAY, 0}; return true;
        case GL_TEXTURE_CUBE_MAP: *t = {target, GL_TEXTURE_BINDING_CUBE_MAP, 0}; return true;
        case GL_TEXTURE_CUBE_MAP_ARRAY: *t = {target, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY, 0}; return true;
        default: return false;
    }
}

constexpr GLenum kSwizzle[4] = {GL_TEXTURE_SWIZZLE_R, GL_TEXTURE_SWIZZLE_G, GL_TEXTURE_SWIZZLE_B,
                                GL_TEXTURE_SWIZZLE_A};

}  // namespace

uint32_t EsprytBackend::bound_texture(GLenum binding) {
    GLint host = 0;
    host_gl.glGetIntegerv(binding, &host);
    return uint32_t(host);
}

// The swizzle a level's format reads through, set on the texture when the
// level is specified (a texture of several formats takes its last one's),
// composed with the application's own swizzle (desktop_texture_swizzle.cc).
// A depth format reads through GL_DEPTH_TEXTURE_MODE's swizzle, set
// explicitly: GLES hosts sample unsized depth formats (d, d, d, 1) and sized
// ones (d, 0, 0, 1), a desktop context one of the two for all of them.
void EsprytBackend::format_swizzle(GLenum texture_target, uint32_t texture, const gl::HostFormat* hf,
                                   uint32_t internalformat) {
    TextureLevels& levels = cur_->share->levels;
    const bool was = levels.swizzled(texture);
    const bool depth = gl::depth_internal_format(internalformat);
    if (!(hf && hf->swizzled) && !depth && !was) return;
    TextureLevels::Texture& t = levels.textures[texture];
    t.depth_format = depth;
    t.swizzled = (hf && hf->swizzled) || depth;
    if (depth) depth_format_swizzle(t);
    else
        for (int i = 0; i < 4; ++i) t.format_swizzle[i] = t.swizzled ? hf->swizzle[i] : TextureLevels::kRed + uint32_t(i);
    for (int i = 0; i < 4; ++i)
        host_gl.glTexParameteri(texture_target, kSwizzle[i], GLint(gl::composed_swizzle(t.format_swizzle, t.app_swizzle[i])));
}

void EsprytBackend::depth_format_swizzle(TextureLevels::Texture& t) {
    const std::array<uint32_t, 4> identity{GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
    const uint32_t mode = gl::sampled_depth_texture_mode(t.depth_mode, t.compare, cur_->profile == 2);
    const std::array<uint32_t, 4> s = mode ? gl::depth_swizzle(mode, identity) : identity;
    for (int i = 0; i < 4; ++i) t.format_swizzle[i] = s[size_t(i)];
}

bool EsprytBackend::desktop_upload(const Upload& u) {
    Target t;
    if (!target_of(u.target, &t) || u.level < 0 || u.level > 0xFF) return false;  // the host says what is wrong
    const uint32_t texture = bound_texture(t.binding);  // 0: the default texture, a texture in GLES too
    TextureLevels& levels = cur_->share->levels;

    gl::HostFormat hf;
    if (u.sub) {
        uint32_t ifmt = 0;
        if (const uint32_t* rec = levels.find(texture, t.face, u.level)) {
            ifmt = *rec;
        } else {
            GLint host_ifmt = 0;
            host_gl.glGetTexLevelParameteriv(u.target, u.level, GL_TEXTURE_INTERNAL_FORMAT, &host_ifmt);
            ifmt = uint32_t(host_ifmt);
        }
        if (!gl::host_format(ifmt, &hf)) return false;
        if (!cur_->unpack_swap && gl::device_takes(hf, u.format, u.type)) return false;
    } else {
        levels.set(texture, t.face, u.level, uint32_t(u.internalformat));
        if (!gl::host_format(uint32_t(u.internalformat), &hf)) {
            format_swizzle(t.texture, texture, nullptr, uint32_t(u.internalformat));
            return false;
        }
        format_swizzle(t.texture, texture, &hf, uint32_t(u.internalformat));
        if (!cur_->unpack_swap && gl::device_takes(hf, u.format, u.type)) {
            // The device takes the data as it is, in its own internal format.
            if (u.three_d)
                EsprytGenerated::glTexImage3D(u.target, u.level, GLint(hf.internalformat), u.w, u.h, u.d, u.border,
                                              u.format, u.type, *u.pixels);
            else
                EsprytGenerated::glTexImage2D(u.target, u.level, GLint(hf.internalformat), u.w, u.h, u.border,
                                              u.format, u.type, *u.pixels);
            return true;
        }
    }

    const bool has_data = u.pixels->data || u.pixels->offset || bound(Src::pixel_unpack_buffer);
    std::vector<uint8_t> texels;
    const void* data = nullptr;
    if (has_data) {
        if (!gl::convertible(u.format, u.type, hf)) {
            if (!gl::source_pixel_bytes(u.format, u.type)) return false;  // not a pair GL takes: the host refuses it
            refuse(u.op, GL_INVALID_OPERATION,
                   "this format/type pair is not converted into the texture's format on a GLES host "
                   "(another class of data: integer for colour, colour for depth...)");
            return true;
        }
        const gl::UnpackState us{cur_->unpack.alignment,   cur_->unpack.row_length, cur_->unpack.image_height,
                                 cur_->unpack.skip_pixels, cur_->unpack.skip_rows,  cur_->unpack.skip_images,
                                 cur_->unpack_swap};
        const size_t need = gl::source_bytes(us, u.format, u.type, uint32_t(u.w), uint32_t(u.h), uint32_t(u.d),
                                             u.three_d);
        if (u.w <= 0 || u.h <= 0 || u.d <= 0) {
            // Nothing to convert: the host checks the sizes.
        } else if (u.pixels->data) {
            if (!gl::convert_texels(us, u.format, u.type, hf, uint32_t(u.w), uint32_t(u.h), uint32_t(u.d), u.three_d,
                                    u.pixels->data, u.pixels->size, &texels)) {
                refuse(u.op, GL_INVALID_OPERATION, "inline data shorter than the image it describes");
                return true;
            }
            data = texels.data();
        } else {
            // A pixel unpack buffer: read back from the host and converted.
            GLint64 size = 0;
            host_gl.glGetBufferParameteri64v(GL_PIXEL_UNPACK_BUFFER, GL_BUFFER_SIZE, &size);
            if (u.pixels->offset > uint64_t(size) || need > uint64_t(size) - u.pixels->offset) {
                refuse(u.op, GL_INVALID_OPERATION, "the image reads past the end of the pixel unpack buffer");
                return true;
            }
            const void* mapped = host_gl.glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, GLintptr(u.pixels->offset),
                                                          GLsizeiptr(need), GL_MAP_READ_BIT);
            if (!mapped) {
                refuse(u.op, GL_INVALID_OPERATION,
                       "the pixel unpack buffer cannot be read back for conversion (mapped already?)");
                return true;
            }
            gl::convert_texels(us, u.format, u.type, hf, uint32_t(u.w), uint32_t(u.h), uint32_t(u.d), u.three_d,
                               static_cast<const uint8_t*>(mapped), need, &texels);
            host_gl.glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
            data = texels.data();
        }
    }

    // The converted texels are tightly packed in memory: the host reads them
    // with the default unpack state and no unpack buffer, restored after.
    GLint unpack_buffer = 0;
    if (data) {
        host_gl.glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack_buffer);
        if (unpack_buffer) host_gl.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        host_gl.glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        host_gl.glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        host_gl.glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
        host_gl.glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
        host_gl.glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
        host_gl.glPixelStorei(GL_UNPACK_SKIP_IMAGES, 0);
    }
    const GLenum f = hf.format, ty = hf.type;
    const GLint ifmt = GLint(hf.internalformat);
    if (u.sub && u.three_d)
        host_gl.glTexSubImage3D(u.target, u.level, u.x, u.y, u.z, u.w, u.h, u.d, f, ty, data);
    else if (u.sub)
        host_gl.glTexSubImage2D(u.target, u.level, u.x, u.y, u.w, u.h, f, ty, data);
    else if (u.three_d)
        host_gl.glTexImage3D(u.target, u.level, ifmt, u.w, u.h, u.d, u.border, f, ty, data);
    else
        host_gl.glTexImage2D(u.target, u.level, ifmt, u.w, u.h, u.border, f, ty, data);
    if (data) {
        const PixelStore& ps = cur_->unpack;
        host_gl.glPixelStorei(GL_UNPACK_ALIGNMENT, ps.alignment);
        host_gl.glPixelStorei(GL_UNPACK_ROW_LENGTH, ps.row_length);
        host_gl.glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, ps.image_height);
        host_gl.glPixelStorei(GL_UNPACK_SKIP_PIXELS, ps.skip_pixels);
        host_gl.glPixelStorei(GL_UNPACK_SKIP_ROWS, ps.skip_rows);
        host_gl.glPixelStorei(GL_UNPACK_SKIP_IMAGES, ps.skip_images);
        if (unpack_buffer) host_gl.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, GLuint(unpack_buffer));
    }
    return true;
}

// Immutable storage in a format GLES lacks: the device format and swizzle,
// every level recorded.
GLenum EsprytBackend::desktop_storage(GLenum target, GLenum internalformat, GLsizei levels) {
    Target t;
    if (!target_of(target, &t)) return internalformat;
    const uint32_t texture = bound_texture(t.binding);
    TextureLevels& rec = cur_->share->levels;
    rec.forget(texture);
    gl::HostFormat hf;
    const bool known = gl::host_format(internalformat, &hf);
    for (GLsizei l = 0; l < levels && l <= 0xFF; ++l)
        for (uint32_t face = 0; face < (target == GL_TEXTURE_CUBE_MAP ? 6u : 1u); ++face)
            rec.set(texture, face, l, internalformat);
    format_swizzle(t.texture, texture, known ? &hf : nullptr, internalformat);
    return known ? GLenum(hf.internalformat) : internalformat;
}

void EsprytBackend::converted_tex_sub_image_2d(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                                               GLsizei height, GLenum format, GLenum type,
                                               wire::InOrOffset<uint8_t> pixels) {
    if (cur_ && cur_->desktop() && avail_[hidx::glTexSubImage2D] &&
        desktop_upload({gen::Op::glTexSubImage2D, target, level, 0, xoffset, yoffset, 0, width, height, 1, 0, format,
                        type, &pixels, false, true}))
        return;
    EsprytGenerated::glTexSubImage2D(target, level, xoffset, yoffset, width, height, format, type, pixels);
}

void EsprytBackend::glTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                                    GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
                                    wire::InOrOffset<uint8_t> pixels) {
    if (cur_ && cur_->desktop() && avail_[hidx::glTexSubImage3D] &&
        desktop_upload({gen::Op::glTexSubImage3D, target, level, 0, xoffset, yoffset, zoffset, width, height, depth,
                        0, format, type, &pixels, true, true}))
        return;
    EsprytGenerated::glTexSubImage3D(target, level, xoffset, yoffset, zoffset, width, height, depth, format, type,
                                     pixels);
}

void EsprytBackend::forget_texture_levels(GLsizei n, const wire::In<GLuint>& textures) {
    if (cur_ && n > 0 && textures.data) {
        const NameMap& names = *cur_->maps[int(Kind::texture)];
        for (uint32_t i = 0; i < textures.count() && i < uint32_t(n); ++i) {
            uint32_t host = 0;
            if (names.find(textures.data[i], host) && host) cur_->share->levels.forget(host);
        }
    }
}

// Desktop level queries: the program's internal format, and the component
// sizes and types desktop GL gives its format (the host's are its device
// format's; GLES has no luminance or intensity ones).
bool EsprytBackend::desktop_level_query(GLenum target, GLint level, GLenum pname, GLint* value) {
    if (!cur_ || !cur_->desktop()) return false;
    Target t;
    if (!target_of(target, &t) || level < 0) return false;
    const uint32_t texture = bound_texture(t.binding);
    const uint32_t* rec = cur_->share->levels.find(texture, t.face, level);
    if (rec && pname == GL_TEXTURE_INTERNAL_FORMAT) {
        *value = GLint(*rec);
        return true;
    }
    int32_t v = 0;
    if (rec && gl::desktop_level_parameter(*rec, pname, &v)) {
        *value = v;
        return true;
    }
    switch (pname) {
        case 0x8060: case 0x8061: case 0x8C14: case 0x8C15: *value = 0; return true;  // LUMINANCE, INTENSITY
        default: return false;
    }
}

void EsprytBackend::converted_level_parameteriv(GLenum target, GLint level, GLenum pname, wire::Out<GLint> params) {
    GLint v = 0;
    if (params.data && params.count() >= 1 && desktop_level_query(target, level, pname, &v)) {
        params.data[0] = v;
        return;
    }
    EsprytGenerated::glGetTexLevelParameteriv(target, level, pname, params);
}

void EsprytBackend::converted_level_parameterfv(GLenum target, GLint level, GLenum pname, wire::Out<GLfloat> params) {
    GLint v = 0;
    if (params.data && params.count() >= 1 && desktop_level_query(target, level, pname, &v)) {
        params.data[0] = GLfloat(v);
        return;
    }
    EsprytGenerated::glGetTexLevelParameterfv(target, level, pname, params);
}

}  // namespace mgl::espryt
