// Desktop 1D, 1D array and rectangle textures on a GLES host, which has none
// of them: the GL front end says what each becomes (backends/gl/state/
// texture_targets.h: 2D of height 1, 2D array of height 1, 2D of one level);
// here every verb on such a target binds the texture the desktop target
// names on the host's target for the verb, and puts back what was there.
#include <GLES3/gl32.h>

#include <functional>

#include "backend.h"
#include "context/transfer_pairs.h"
#include "texture_targets.h"

namespace mgl::espryt {

namespace {
constexpr GLenum kTextureRectangle = 0x84F5;
constexpr GLenum kSwizzleRgba = 0x8E46;  // desktop only: GL_TEXTURE_SWIZZLE_R..A at once
}  // namespace

// GL_TEXTURE_SWIZZLE_RGBA (desktop GL, EXT_texture_swizzle): GLES has the
// four swizzles one by one; set and read as those. True when served here.
template <typename T>
bool EsprytBackend::swizzle_rgba_set(GLenum target, GLenum pname, const wire::In<T>& params) {
    if (pname != kSwizzleRgba || !cur_ || !cur_->desktop()) return false;
    if (params.count() < 4) return set_error(GL_INVALID_VALUE), true;
    for (GLenum i = 0; i < 4; ++i) glTexParameteri(target, GL_TEXTURE_SWIZZLE_R + i, GLint(params.data[i]));
    return true;
}

template <typename T>
bool EsprytBackend::swizzle_rgba_get(GLenum target, GLenum pname, wire::Out<T>& params) {
    if (pname != kSwizzleRgba || !cur_ || !cur_->desktop()) return false;
    for (GLenum i = 0; i < 4 && i < params.count(); ++i) {
        GLint v = 0;
        glGetTexParameteriv(target, GL_TEXTURE_SWIZZLE_R + i, wire::Out<GLint>{&v, sizeof v});
        params.data[i] = T(v);
    }
    return true;
}

gl::Lowered EsprytBackend::lowered(GLenum target) const {
    if (!cur_ || !cur_->desktop()) return gl::Lowered::none;
    return gl::lowered_target(target);
}

void EsprytBackend::on_lowered(gl::Lowered k, const std::function<void(GLenum)>& verb) {
    const GLenum target = gl::device_target(k);
    GLint unit = GL_TEXTURE0;
    host_gl.glGetIntegerv(GL_ACTIVE_TEXTURE, &unit);
    GLuint want = 0;
    if (!to_host(Kind::texture, cur_->dstate.lowered.bound(uint32_t(unit - GL_TEXTURE0), k), want)) want = 0;
    GLint had = 0;
    host_gl.glGetIntegerv(gl::device_binding(k), &had);
    if (GLuint(had) != want) host_gl.glBindTexture(target, want);
    verb(target);
    if (GLuint(had) != want) host_gl.glBindTexture(target, GLuint(had));
}

void EsprytBackend::glBindTexture(GLenum target, GLuint texture) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glBindTexture(target, texture);
    const GLenum host_target = gl::device_target(k);
    GLuint h = 0;
    if (!bind_to_host(Kind::texture, texture, h)) return name_error(gen::Op::glBindTexture, Kind::texture, texture);
    host_gl.glBindTexture(host_target, h);
    // The kind the texture is made with (copy_image.cc checks names against it).
    const bool made = h && cur_->share->lowered_kinds.emplace(h, uint8_t(k)).second;
    GLint unit = GL_TEXTURE0;
    host_gl.glGetIntegerv(GL_ACTIVE_TEXTURE, &unit);
    cur_->dstate.lowered.bind(uint32_t(unit - GL_TEXTURE0), k, texture);
    // A new rectangle texture starts with the desktop's rectangle defaults
    // (linear minification, clamped wraps); the host's 2D defaults would
    // make its single level incomplete.
    if (k == gl::Lowered::rect && made) {
        host_gl.glTexParameteri(host_target, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        host_gl.glTexParameteri(host_target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        host_gl.glTexParameteri(host_target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        host_gl.glTexParameteri(host_target, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    }
}

void EsprytBackend::glDeleteTextures(GLsizei n, wire::In<GLuint> textures) {
    if (cur_ && cur_->desktop()) {
        for (GLsizei i = 0; i < n && size_t(i) < textures.count(); ++i) {
            cur_->dstate.lowered.forget(textures.data[i]);
            GLuint h = 0;
            if (to_host(Kind::texture, textures.data[i], h) && h) {
                cur_->share->lowered_kinds.erase(h);
                cur_->share->legacy_clamps.forget(h);
                if (cur_->share->desktop) cur_->share->desktop->image_ready.erase(h);
            }
        }
    }
    forget_texture_levels(n, textures);
    EsprytGenerated::glDeleteTextures(n, textures);
}

// ---- images ----------------------------------------------------------------

void EsprytBackend::glTexImage1D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLint border,
                                 GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    if (proxy_specify({gl::ProxyRequest::Verb::image, target, 1, level, GLenum(internalformat), width, 1, 1, border, format, type})) return;
    if (lowered(target) != gl::Lowered::d1)
        return refuse(gen::Op::glTexImage1D, GL_INVALID_ENUM, "not GL_TEXTURE_1D");
    on_lowered(gl::Lowered::d1, [&](GLenum t) {
        glTexImage2D(t, level, internalformat, width, 1, border, format, type, pixels);
    });
}

void EsprytBackend::glTexSubImage1D(GLenum target, GLint level, GLint xoffset, GLsizei width, GLenum format,
                                    GLenum type, wire::InOrOffset<uint8_t> pixels) {
    if (lowered(target) != gl::Lowered::d1) return refuse(gen::Op::glTexSubImage1D, GL_INVALID_ENUM, "not GL_TEXTURE_1D");
    on_lowered(gl::Lowered::d1, [&](GLenum t) {
        converted_tex_sub_image_2d(t, level, xoffset, 0, width, 1, format, type, pixels);
    });
}

void EsprytBackend::glCopyTexImage1D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
                                     GLsizei width, GLint border) {
    if (lowered(target) != gl::Lowered::d1) return refuse(gen::Op::glCopyTexImage1D, GL_INVALID_ENUM, "not GL_TEXTURE_1D");
    on_lowered(gl::Lowered::d1, [&](GLenum t) {
        EsprytGenerated::glCopyTexImage2D(t, level, internalformat, x, y, width, 1, border);
    });
}

void EsprytBackend::glCopyTexSubImage1D(GLenum target, GLint level, GLint xoffset, GLint x, GLint y, GLsizei width) {
    if (lowered(target) != gl::Lowered::d1)
        return refuse(gen::Op::glCopyTexSubImage1D, GL_INVALID_ENUM, "not GL_TEXTURE_1D");
    on_lowered(gl::Lowered::d1, [&](GLenum t) {
        EsprytGenerated::glCopyTexSubImage2D(t, level, xoffset, 0, x, y, width, 1);
    });
}

void EsprytBackend::glTexStorage1D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width) {
    if (proxy_specify({gl::ProxyRequest::Verb::storage, target, 1, levels, internalformat, width})) return;
    if (lowered(target) != gl::Lowered::d1) return refuse(gen::Op::glTexStorage1D, GL_INVALID_ENUM, "not GL_TEXTURE_1D");
    on_lowered(gl::Lowered::d1, [&](GLenum t) { glTexStorage2D(t, levels, internalformat, width, 1); });
}

// The 2D verbs on GL_TEXTURE_1D_ARRAY (rows are layers) and GL_TEXTURE_RECTANGLE.
bool EsprytBackend::lowered_tex_image_2d(GLenum target, GLint level, GLint internalformat, GLsizei width,
                                         GLsizei height, GLint border, GLenum format, GLenum type,
                                         wire::InOrOffset<uint8_t> pixels) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none || k == gl::Lowered::d1) return false;
    if (k == gl::Lowered::rect && level != 0) {
        set_error(GL_INVALID_VALUE);
        return true;
    }
    on_lowered(k, [&](GLenum t) {
        if (k == gl::Lowered::rect) glTexImage2D(t, level, internalformat, width, height, border, format, type, pixels);
        else glTexImage3D(t, level, internalformat, width, 1, height, border, format, type, pixels);
    });
    return true;
}

bool EsprytBackend::lowered_tex_storage_2d(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                                           GLsizei height) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none || k == gl::Lowered::d1) return false;
    if (k == gl::Lowered::rect && levels != 1) {
        set_error(GL_INVALID_OPERATION);
        return true;
    }
    on_lowered(k, [&](GLenum t) {
        if (k == gl::Lowered::rect) glTexStorage2D(t, levels, internalformat, width, height);
        else glTexStorage3D(t, levels, internalformat, width, 1, height);
    });
    return true;
}

void EsprytBackend::glTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                                    GLsizei height, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none || k == gl::Lowered::d1)
        return converted_tex_sub_image_2d(target, level, xoffset, yoffset, width, height, format, type, pixels);
    on_lowered(k, [&](GLenum t) {
        if (k == gl::Lowered::rect)
            converted_tex_sub_image_2d(t, level, xoffset, yoffset, width, height, format, type, pixels);
        else
            glTexSubImage3D(t, level, xoffset, 0, yoffset, width, 1, height, format, type, pixels);
    });
}

void EsprytBackend::glCopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
                                     GLsizei width, GLsizei height, GLint border) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none || k == gl::Lowered::d1)
        return EsprytGenerated::glCopyTexImage2D(target, level, internalformat, x, y, width, height, border);
    if (k == gl::Lowered::rect && level != 0) return set_error(GL_INVALID_VALUE);
    on_lowered(k, [&](GLenum t) {
        if (k == gl::Lowered::rect) return EsprytGenerated::glCopyTexImage2D(t, level, internalformat, x, y, width, height, border);
        // A 1D array from rows: the layers' storage, then one row per layer.
        uint32_t f = GL_RGBA, ty = GL_UNSIGNED_BYTE;
        gl::transfer_pair(internalformat, &f, &ty);
        glTexImage3D(t, level, GLint(internalformat), width, 1, height, border, f, ty, {});
        for (GLsizei row = 0; row < height; ++row)
            EsprytGenerated::glCopyTexSubImage3D(t, level, 0, 0, row, x, y + row, width, 1);
    });
}

void EsprytBackend::glCopyTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x, GLint y,
                                        GLsizei width, GLsizei height) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none || k == gl::Lowered::d1)
        return EsprytGenerated::glCopyTexSubImage2D(target, level, xoffset, yoffset, x, y, width, height);
    on_lowered(k, [&](GLenum t) {
        if (k == gl::Lowered::rect)
            return EsprytGenerated::glCopyTexSubImage2D(t, level, xoffset, yoffset, x, y, width, height);
        for (GLsizei row = 0; row < height; ++row)
            EsprytGenerated::glCopyTexSubImage3D(t, level, xoffset, 0, yoffset + row, x, y + row, width, 1);
    });
}

void EsprytBackend::glGenerateMipmap(GLenum target) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glGenerateMipmap(target);
    if (k == gl::Lowered::rect) return set_error(GL_INVALID_ENUM);  // rectangle textures have one level
    on_lowered(k, [&](GLenum t) { EsprytGenerated::glGenerateMipmap(t); });
}

// ---- parameters and queries ------------------------------------------------

bool EsprytBackend::rect_parameter_refused(GLenum target, GLenum pname, double value) {
    if (lowered(target) != gl::Lowered::rect) return false;
    const uint32_t e = gl::rect_parameter_error(pname, value);
    if (e) set_error(e);
    return e != 0;
}

void EsprytBackend::glTexParameteri(GLenum target, GLenum pname, GLint param) {
    if (desktop_tex_parameter(target, pname, param)) return;
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glTexParameteri(target, pname, param);
    if (rect_parameter_refused(target, pname, param)) return;
    on_lowered(k, [&](GLenum t) { EsprytGenerated::glTexParameteri(t, pname, param); });
}

void EsprytBackend::glTexParameterf(GLenum target, GLenum pname, GLfloat param) {
    if (desktop_tex_parameter(target, pname, param)) return;
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glTexParameterf(target, pname, param);
    if (rect_parameter_refused(target, pname, param)) return;
    on_lowered(k, [&](GLenum t) { EsprytGenerated::glTexParameterf(t, pname, param); });
}

void EsprytBackend::glTexParameteriv(GLenum target, GLenum pname, wire::In<GLint> params) {
    if (params.count() >= 1 && desktop_tex_parameter(target, pname, params.data[0])) return;
    if (swizzle_rgba_set(target, pname, params)) return;
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glTexParameteriv(target, pname, params);
    if (params.count() >= 1 && rect_parameter_refused(target, pname, params.data[0])) return;
    on_lowered(k, [&](GLenum t) { EsprytGenerated::glTexParameteriv(t, pname, params); });
}

void EsprytBackend::glTexParameterfv(GLenum target, GLenum pname, wire::In<GLfloat> params) {
    if (params.count() >= 1 && desktop_tex_parameter(target, pname, params.data[0])) return;
    if (swizzle_rgba_set(target, pname, params)) return;
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glTexParameterfv(target, pname, params);
    if (params.count() >= 1 && rect_parameter_refused(target, pname, params.data[0])) return;
    on_lowered(k, [&](GLenum t) { EsprytGenerated::glTexParameterfv(t, pname, params); });
}

void EsprytBackend::glTexParameterIiv(GLenum target, GLenum pname, wire::In<GLint> params) {
    if (params.count() >= 1 && desktop_tex_parameter(target, pname, params.data[0])) return;
    if (swizzle_rgba_set(target, pname, params)) return;
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glTexParameterIiv(target, pname, params);
    if (params.count() >= 1 && rect_parameter_refused(target, pname, params.data[0])) return;
    on_lowered(k, [&](GLenum t) { EsprytGenerated::glTexParameterIiv(t, pname, params); });
}

void EsprytBackend::glTexParameterIuiv(GLenum target, GLenum pname, wire::In<GLuint> params) {
    if (params.count() >= 1 && desktop_tex_parameter(target, pname, params.data[0])) return;
    if (swizzle_rgba_set(target, pname, params)) return;
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glTexParameterIuiv(target, pname, params);
    if (params.count() >= 1 && rect_parameter_refused(target, pname, params.data[0])) return;
    on_lowered(k, [&](GLenum t) { EsprytGenerated::glTexParameterIuiv(t, pname, params); });
}

// The texture parameter queries: the desktop-only answers (swizzle RGBA,
// GL_CLAMP) around the host's, on the host target a lowered one binds.
template <typename T>
void EsprytBackend::get_tex_parameter(GLenum target, GLenum pname, wire::Out<T>& params,
                                      const std::function<void(GLenum)>& host_query) {
    if (swizzle_rgba_get(target, pname, params) || depth_mode_get(target, pname, params)) return;
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) host_query(target);
    else on_lowered(k, host_query);
    desktop_tex_parameter_answer(target, pname, params);
}

void EsprytBackend::glGetTexParameteriv(GLenum target, GLenum pname, wire::Out<GLint> params) {
    get_tex_parameter(target, pname, params, [&](GLenum t) { EsprytGenerated::glGetTexParameteriv(t, pname, params); });
}

void EsprytBackend::glGetTexParameterfv(GLenum target, GLenum pname, wire::Out<GLfloat> params) {
    get_tex_parameter(target, pname, params, [&](GLenum t) { EsprytGenerated::glGetTexParameterfv(t, pname, params); });
}

void EsprytBackend::glGetTexParameterIiv(GLenum target, GLenum pname, wire::Out<GLint> params) {
    get_tex_parameter(target, pname, params,
                      [&](GLenum t) { EsprytGenerated::glGetTexParameterIiv(t, pname, params); });
}

void EsprytBackend::glGetTexParameterIuiv(GLenum target, GLenum pname, wire::Out<GLuint> params) {
    get_tex_parameter(target, pname, params,
                      [&](GLenum t) { EsprytGenerated::glGetTexParameterIuiv(t, pname, params); });
}

void EsprytBackend::glGetTexLevelParameteriv(GLenum target, GLint level, GLenum pname, wire::Out<GLint> params) {
    if (GLint v = 0; params.count() >= 1 && proxy_level_parameter(target, level, pname, &v)) {
        params.data[0] = v;
        return;
    }
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return converted_level_parameteriv(target, level, pname, params);
    const gl::LevelQuery q = gl::level_query(k, pname);
    if (q.fixed) {
        if (params.count() >= 1) params.data[0] = q.value;
        return;
    }
    on_lowered(k, [&](GLenum t) { converted_level_parameteriv(t, level, q.device_pname, params); });
}

void EsprytBackend::glGetTexLevelParameterfv(GLenum target, GLint level, GLenum pname, wire::Out<GLfloat> params) {
    if (GLint v = 0; params.count() >= 1 && proxy_level_parameter(target, level, pname, &v)) {
        params.data[0] = GLfloat(v);
        return;
    }
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return converted_level_parameterfv(target, level, pname, params);
    const gl::LevelQuery q = gl::level_query(k, pname);
    if (q.fixed) {
        if (params.count() >= 1) params.data[0] = GLfloat(q.value);
        return;
    }
    on_lowered(k, [&](GLenum t) { converted_level_parameterfv(t, level, q.device_pname, params); });
}

bool EsprytBackend::lowered_get_tex_image(GLenum target, GLint level, GLenum format, GLenum type,
                                          wire::OutOrOffset<uint8_t> pixels) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return false;
    on_lowered(k, [&](GLenum t) { glGetTexImage(t, level, format, type, pixels); });
    return true;
}

// ---- framebuffer attachments -----------------------------------------------

void EsprytBackend::glFramebufferTexture1D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                           GLint level) {
    if (texture != 0 && lowered(textarget) != gl::Lowered::d1)
        return refuse(gen::Op::glFramebufferTexture1D, GL_INVALID_OPERATION, "textarget is not GL_TEXTURE_1D");
    EsprytGenerated::glFramebufferTexture2D(target, attachment, GL_TEXTURE_2D, texture, level);
}

// A layer of a 3D texture: GLES attaches it with glFramebufferTextureLayer.
void EsprytBackend::glFramebufferTexture3D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                           GLint level, GLint zoffset) {
    if (texture != 0 && textarget != GL_TEXTURE_3D)
        return refuse(gen::Op::glFramebufferTexture3D, GL_INVALID_OPERATION, "textarget is not GL_TEXTURE_3D");
    EsprytGenerated::glFramebufferTextureLayer(target, attachment, texture, level, zoffset);
}

void EsprytBackend::glFramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                           GLint level) {
    if (cur_ && cur_->desktop() && textarget == kTextureRectangle) textarget = GL_TEXTURE_2D;
    EsprytGenerated::glFramebufferTexture2D(target, attachment, textarget, texture, level);
}

}  // namespace mgl::espryt
