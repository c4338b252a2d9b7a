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
#include <map>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "backend.h"
#include "state/compute_rules.h"

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
        GLint name = 0, level = 0, layered = 0, layer = 0, access = 0, format = 0;
        host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_NAME, GLuint(u), &name);
        if (GLuint(name) != old_host) continue;
        host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_LEVEL, GLuint(u), &level);
        host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_LAYERED, GLuint(u), &layered);
        host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_LAYER, GLuint(u), &layer);
        host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_ACCESS, GLuint(u), &access);
        host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_FORMAT, GLuint(u), &format);
        host_gl.glBindImageTexture(GLuint(u), made, level, GLboolean(layered), layer, GLenum(access), GLenum(format));
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

// Image uniforms. Desktop GL sets an image uniform's unit with glUniform1i
// (its layout binding is only the initial value); GLES fixes it at link and
// refuses glUniform* on it. A program keeps working when the application
// sets the unit the uniform already has (the usual `glUniform1i(loc, 0)` of
// an unbound image, or the binding it declared); another unit would need the
// image units remapped around each draw: not done, refused loudly.
namespace {
bool is_image_type(GLenum type) { return type >= GL_IMAGE_2D && type <= 0x906C; }  // GL_IMAGE_* .. GL_UNSIGNED_INT_IMAGE_2D_MULTISAMPLE_ARRAY
}  // namespace

void EsprytBackend::record_image_uniforms(GLuint host_program) {
    DesktopShaders& d = *cur_->share->desktop;
    d.image_uniforms.erase(host_program);
    GLint linked = GL_FALSE, count = 0, longest = 0;
    host_gl.glGetProgramiv(host_program, GL_LINK_STATUS, &linked);
    if (!linked) return;
    host_gl.glGetProgramiv(host_program, GL_ACTIVE_UNIFORMS, &count);
    host_gl.glGetProgramiv(host_program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &longest);
    std::vector<char> name(size_t(std::max(longest, 1)) + 16);
    std::map<int32_t, int32_t> units;
    for (GLint i = 0; i < count; ++i) {
        GLint size = 0;
        GLenum type = 0;
        host_gl.glGetActiveUniform(host_program, GLuint(i), GLsizei(name.size()), nullptr, &size, &type, name.data());
        if (!is_image_type(type)) continue;
        std::string base(name.data());
        if (base.size() > 3 && base.compare(base.size() - 3, 3, "[0]") == 0) base.resize(base.size() - 3);
        for (GLint e = 0; e < std::max(size, 1); ++e) {
            const std::string element = size > 1 ? base + "[" + std::to_string(e) + "]" : base;
            const GLint loc = host_gl.glGetUniformLocation(host_program, element.c_str());
            if (loc < 0) continue;
            GLint unit = 0;
            host_gl.glGetUniformiv(host_program, loc, &unit);
            units[loc] = unit;
        }
    }
    if (!units.empty()) d.image_uniforms[host_program] = std::move(units);
}

bool EsprytBackend::image_uniform_set(gen::Op op, GLuint host_program, GLint location, GLsizei count,
                                      const GLint* values) {
    if (!cur_ || !cur_->desktop() || !cur_->share->desktop || cur_->share->desktop->image_uniforms.empty()) return false;
    auto p = cur_->share->desktop->image_uniforms.find(host_program);
    if (p == cur_->share->desktop->image_uniforms.end() || !p->second.count(location)) return false;
    for (GLsizei i = 0; i < count; ++i) {
        auto u = p->second.find(location + i);
        if (u == p->second.end()) break;  // past the array: GL ignores the rest
        if (u->second != values[i]) {
            refuse(op, GL_INVALID_OPERATION,
                   "an image uniform's unit other than its layout binding (GLES fixes image units at link; not emulated)");
            return true;
        }
    }
    return true;
}

// Whether any linked program of the share group has an image uniform at
// `location`: the current program is asked of the host only then.
bool EsprytBackend::may_be_image_location(GLint location) const {
    if (!cur_ || !cur_->share->desktop) return false;
    for (const auto& [program, units] : cur_->share->desktop->image_uniforms)
        if (units.count(location)) return true;
    return false;
}

void EsprytBackend::glUniform1i(GLint location, GLint v0) {
    GLint program = 0;
    if (may_be_image_location(location)) host_gl.glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    if (program && image_uniform_set(gen::Op::glUniform1i, GLuint(program), location, 1, &v0)) return;
    EsprytGenerated::glUniform1i(location, v0);
}

void EsprytBackend::glUniform1iv(GLint location, GLsizei count, wire::In<GLint> value) {
    GLint program = 0;
    if (may_be_image_location(location)) host_gl.glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    if (program && count > 0 && value.count() >= uint32_t(count) &&
        image_uniform_set(gen::Op::glUniform1iv, GLuint(program), location, count, value.data))
        return;
    EsprytGenerated::glUniform1iv(location, count, value);
}

void EsprytBackend::glProgramUniform1i(GLuint program, GLint location, GLint v0) {
    GLuint host = 0;
    if (cur_ && cur_->share->desktop && !cur_->share->desktop->image_uniforms.empty() &&
        to_host(Kind::program, program, host) && image_uniform_set(gen::Op::glProgramUniform1i, host, location, 1, &v0))
        return;
    EsprytGenerated::glProgramUniform1i(program, location, v0);
}

void EsprytBackend::glProgramUniform1iv(GLuint program, GLint location, GLsizei count, wire::In<GLint> value) {
    GLuint host = 0;
    if (cur_ && cur_->share->desktop && !cur_->share->desktop->image_uniforms.empty() && count > 0 &&
        value.count() >= uint32_t(count) && to_host(Kind::program, program, host) &&
        image_uniform_set(gen::Op::glProgramUniform1iv, host, location, count, value.data))
        return;
    EsprytGenerated::glProgramUniform1iv(program, location, count, value);
}

// glShaderStorageBlockBinding: GLES fixes a storage block's binding at link
// as it does an image uniform's unit. Naming the binding the block already has
// is served (GL's errors checked first); another one is refused loudly.
void EsprytBackend::glShaderStorageBlockBinding(GLuint program, GLuint block, GLuint binding) {
    constexpr gen::Op op = gen::Op::glShaderStorageBlockBinding;
    if (!cur_) return unavailable(op);
    GLuint host = 0;
    if (!to_host(Kind::program, program, host) || !host) return name_error(op, Kind::program, program);
    GLint blocks = 0, max_bindings = 0;
    host_gl.glGetProgramInterfaceiv(host, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
    host_gl.glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &max_bindings);
    gl::ComputeLimits limits;
    limits.storage_bindings = uint32_t(std::max(max_bindings, 0));
    if (const gl::RuleError e = gl::check_storage_block_binding(block, uint32_t(std::max(blocks, 0)), binding, limits))
        return refuse(op, e.error, e.why);
    const GLenum prop = GL_BUFFER_BINDING;
    GLint now = -1;
    host_gl.glGetProgramResourceiv(host, GL_SHADER_STORAGE_BLOCK, block, 1, &prop, 1, nullptr, &now);
    if (GLuint(now) == binding) return;
    refuse(op, GL_INVALID_OPERATION,
           "a storage block binding other than its layout binding (GLES fixes block bindings at link; not emulated)");
}

}  // namespace mgl::espryt
