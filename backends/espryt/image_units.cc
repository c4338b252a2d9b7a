// Image units of desktop contexts (GL_ARB_shader_image_load_store) on a GLES
// 3.1 host. GLES binds only immutable textures to image units
// (glBindImageTexture: GL_INVALID_OPERATION otherwise); desktop GL binds any
// complete level, and most programs make their textures with glTexImage*.
// Such a texture is remade here, once, as an immutable host texture with the
// same levels, texels (glCopyImageSubData) and parameters, and takes the old
// one's place under the application's name: in the current context's
// texture units, image units and framebuffer attachments. What stays behind:
// another context of the share group that has the old texture bound keeps
// drawing with the old copy until it binds the name again, and a later
// glTexImage* redefinition of the texture is refused by the host (immutable).
#include <GLES3/gl32.h>

#include <algorithm>
#include <array>
#include <vector>

#include <spdlog/spdlog.h>

#include "backend.h"
#include "image_unit_state.h"

namespace mgl::espryt {

namespace {

constexpr std::array<std::pair<GLenum, GLenum>, 5> kTargets = {{
    {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D},
    {GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY},
    {GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D},
    {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP},
    {GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY},
}};

// The texture parameters an immutable copy must keep (GLES 3.2's).
constexpr GLenum kIntParameters[] = {GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER, GL_TEXTURE_WRAP_S,
                                     GL_TEXTURE_WRAP_T,     GL_TEXTURE_WRAP_R,     GL_TEXTURE_BASE_LEVEL,
                                     GL_TEXTURE_MAX_LEVEL,  GL_TEXTURE_COMPARE_MODE, GL_TEXTURE_COMPARE_FUNC,
                                     GL_TEXTURE_SWIZZLE_R,  GL_TEXTURE_SWIZZLE_G,  GL_TEXTURE_SWIZZLE_B,
                                     GL_TEXTURE_SWIZZLE_A,  GL_DEPTH_STENCIL_TEXTURE_MODE};
constexpr GLenum kFloatParameters[] = {GL_TEXTURE_MIN_LOD, GL_TEXTURE_MAX_LOD};

}  // namespace

void EsprytBackend::glBindImageTexture(GLuint unit, GLuint texture, GLint level, GLboolean layered, GLint layer,
                                       GLenum access, GLenum format) {
    put_back_units();  // a unit a routed draw displaced is the application's again before it binds
    if (cur_ && unit < 4096) {
        if (cur_->image_units_bound.size() <= unit) cur_->image_units_bound.resize(unit + 1);
        cur_->image_units_bound[unit] = true;
    }
    GLuint host = 0;
    // A texture checked (or remade) once is bound without asking the host again.
    if (cur_ && cur_->desktop() && texture && to_host(Kind::texture, texture, host) && host &&
        !desktop_shaders().image_ready.count(host) && host_gl.glIsTexture(host)) {
        GLint immutable = 1;
        GLenum target = 0;
        if (texture_target_of(host, target)) {
            GLint was = 0;
            host_gl.glGetIntegerv(binding_of(target), &was);
            host_gl.glBindTexture(target, host);
            host_gl.glGetTexParameteriv(target, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
            host_gl.glBindTexture(target, GLuint(was));
            GLuint now = host;
            if (!immutable) {
                make_immutable(texture, host, target);
                to_host(Kind::texture, texture, now);
            }
            if (immutable || now != host) desktop_shaders().image_ready.insert(now);  // not when the remake failed
        }
    }
    EsprytGenerated::glBindImageTexture(unit, texture, level, layered, layer, access, format);
}

GLenum EsprytBackend::binding_of(GLenum target) {
    for (const auto& [t, b] : kTargets)
        if (t == target) return b;
    return 0;
}

// The host target a texture was created with: GLES has no query for it, but
// binding it to another target is GL_INVALID_OPERATION. The active unit's
// bindings are put back; an older host error is kept for the application.
bool EsprytBackend::texture_target_of(GLuint host, GLenum& target) {
    if (const GLenum older = host_gl.glGetError()) set_error(older);
    for (const auto& [t, b] : kTargets) {
        GLint was = 0;
        host_gl.glGetIntegerv(b, &was);
        if (GLuint(was) == host) {
            target = t;
            return true;
        }
    }
    for (const auto& [t, b] : kTargets) {
        GLint was = 0;
        host_gl.glGetIntegerv(b, &was);
        host_gl.glBindTexture(t, host);
        const bool fits = host_gl.glGetError() == GL_NO_ERROR;
        host_gl.glBindTexture(t, GLuint(was));
        if (fits) {
            target = t;
            return true;
        }
    }
    return false;
}

void EsprytBackend::make_immutable(GLuint texture, GLuint old_host, GLenum target) {
    GLint active = 0, was = 0;
    host_gl.glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    host_gl.glGetIntegerv(binding_of(target), &was);
    host_gl.glBindTexture(target, old_host);
    // The level chain the host can store immutably: level 0's size halving,
    // one internal format, as far as the application defined it.
    const GLenum face = target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : target;
    GLint w = 0, h = 0, d = 0, fmt = 0;
    host_gl.glGetTexLevelParameteriv(face, 0, GL_TEXTURE_WIDTH, &w);
    host_gl.glGetTexLevelParameteriv(face, 0, GL_TEXTURE_HEIGHT, &h);
    host_gl.glGetTexLevelParameteriv(face, 0, GL_TEXTURE_DEPTH, &d);
    host_gl.glGetTexLevelParameteriv(face, 0, GL_TEXTURE_INTERNAL_FORMAT, &fmt);
    const bool layers = target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY;
    GLsizei levels = 0;
    for (; w > 0 && levels < 16; ++levels) {
        GLint lw = 0, lh = 0, ld = 0, lf = 0;
        host_gl.glGetTexLevelParameteriv(face, levels, GL_TEXTURE_WIDTH, &lw);
        host_gl.glGetTexLevelParameteriv(face, levels, GL_TEXTURE_HEIGHT, &lh);
        host_gl.glGetTexLevelParameteriv(face, levels, GL_TEXTURE_DEPTH, &ld);
        host_gl.glGetTexLevelParameteriv(face, levels, GL_TEXTURE_INTERNAL_FORMAT, &lf);
        const GLint ew = std::max(1, w >> levels), eh = std::max(1, h >> levels);
        const GLint ed = layers ? d : std::max(1, d >> levels);
        if (lw != ew || lh != eh || ld != ed || lf != fmt) break;
        if (ew == 1 && eh == 1 && ed == 1) {
            ++levels;
            break;
        }
    }
    std::vector<GLint> ints(std::size(kIntParameters));
    std::vector<GLfloat> floats(std::size(kFloatParameters));
    for (size_t i = 0; i < ints.size(); ++i) host_gl.glGetTexParameteriv(target, kIntParameters[i], &ints[i]);
    for (size_t i = 0; i < floats.size(); ++i) host_gl.glGetTexParameterfv(target, kFloatParameters[i], &floats[i]);
    if (levels == 0) {
        host_gl.glBindTexture(target, GLuint(was));
        return;  // nothing defined: the host refuses the binding, as GL would an incomplete texture's
    }
    GLuint made = 0;
    host_gl.glGenTextures(1, &made);
    host_gl.glBindTexture(target, made);
    if (target == GL_TEXTURE_2D || target == GL_TEXTURE_CUBE_MAP)
        host_gl.glTexStorage2D(target, levels, GLenum(fmt), w, h);
    else
        host_gl.glTexStorage3D(target, levels, GLenum(fmt), w, h, d);
    for (size_t i = 0; i < ints.size(); ++i) host_gl.glTexParameteri(target, kIntParameters[i], ints[i]);
    for (size_t i = 0; i < floats.size(); ++i) host_gl.glTexParameterf(target, kFloatParameters[i], floats[i]);
    if (host_gl.glGetError() != GL_NO_ERROR) {
        log().warn("espryt: texture {} could not be remade immutable for an image unit (format 0x{:04X}): the "
                   "host refuses the binding",
                   texture, fmt);
        host_gl.glDeleteTextures(1, &made);
        host_gl.glBindTexture(target, GLuint(was));
        return;
    }
    // glCopyImageSubData reads only a complete texture: the old one (gone
    // after this) is made complete over the levels copied (a single level
    // under the default mipmap filter is not; integer formats filter nearest).
    host_gl.glBindTexture(target, old_host);
    host_gl.glTexParameteri(target, GL_TEXTURE_BASE_LEVEL, 0);
    host_gl.glTexParameteri(target, GL_TEXTURE_MAX_LEVEL, levels - 1);
    host_gl.glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    host_gl.glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    host_gl.glBindTexture(target, made);
    for (GLsizei l = 0; l < levels; ++l) {
        const GLint lw = std::max(1, w >> l), lh = std::max(1, h >> l);
        const GLint ld = target == GL_TEXTURE_CUBE_MAP ? 6 : layers ? d : std::max(1, d >> l);
        host_gl.glCopyImageSubData(old_host, target, l, 0, 0, 0, made, target, l, 0, 0, 0, lw, lh, ld);
    }
    // The new texture takes the old one's place under the application's name.
    cur_->maps[int(Kind::texture)]->erase(texture);
    cur_->maps[int(Kind::texture)]->set(texture, made);
    cur_->share->storage.move(Kind::texture, old_host, made);
    GLint units = 0;
    host_gl.glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    for (GLint u = 0; u < units; ++u) {
        host_gl.glActiveTexture(GLenum(GL_TEXTURE0 + u));
        GLint bound = 0;
        host_gl.glGetIntegerv(binding_of(target), &bound);
        if (GLuint(bound) == old_host) host_gl.glBindTexture(target, made);
    }
    host_gl.glActiveTexture(GLenum(active));
    GLint image_units = 0;
    host_gl.glGetIntegerv(GL_MAX_IMAGE_UNITS, &image_units);
    for (GLint u = 0; u < image_units; ++u) {
        GLint name = 0;
        host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_NAME, GLuint(u), &name);
        if (GLuint(name) == old_host) bind_image_unit(GLuint(u), read_image_unit(GLuint(u)), made);
    }
    reattach_texture(old_host, made);
    host_gl.glBindTexture(target, GLuint(was) == old_host ? made : GLuint(was));
    host_gl.glDeleteTextures(1, &old_host);
    while (host_gl.glGetError() != GL_NO_ERROR) {
    }  // this remake's own probes are not the application's errors
    log().debug("espryt: texture {} remade immutable ({} levels) for an image unit", texture, levels);
}

// Every framebuffer of the current context that has `from` attached gets
// `to` at the same attachment, level and layer (or cube face).
void EsprytBackend::reattach_texture(GLuint from, GLuint to) {
    GLint draw = 0, colours = 0;
    host_gl.glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
    host_gl.glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &colours);
    std::vector<GLenum> points;
    for (GLint i = 0; i < colours; ++i) points.push_back(GLenum(GL_COLOR_ATTACHMENT0 + i));
    points.push_back(GL_DEPTH_ATTACHMENT);
    points.push_back(GL_STENCIL_ATTACHMENT);
    cur_->maps[int(Kind::framebuffer)]->for_each([&](uint32_t, uint32_t fb) {
        host_gl.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb);
        for (GLenum p : points) {
            GLint type = 0, name = 0, level = 0, layer = 0, face = 0, layered = 0;
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, p, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
            if (type != GL_TEXTURE) continue;
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, p, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
            if (GLuint(name) != from) continue;
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, p, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, p, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER, &layer);
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, p,
                                                          GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &face);
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, p, GL_FRAMEBUFFER_ATTACHMENT_LAYERED, &layered);
            if (layered) host_gl.glFramebufferTexture(GL_DRAW_FRAMEBUFFER, p, to, level);
            else if (face) host_gl.glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, p, GLenum(face), to, level);
            else {
                // 2D textures report layer 0 too: a layer attachment only where the texture has layers.
                host_gl.glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, p, to, level, layer);
                if (host_gl.glGetError() != GL_NO_ERROR)
                    host_gl.glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, p, GL_TEXTURE_2D, to, level);
            }
        }
    });
    host_gl.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(draw));
}

}  // namespace mgl::espryt
