// Texture parameters a GLES host does not hold as desktop GL defines them,
// set and answered here around the host's:
//  - GL_CLAMP on compatibility contexts (the rule: backends/gl/state/
//    legacy_wrap.h): the host gets GL_CLAMP_TO_EDGE, queries answer GL_CLAMP;
//    which textures and samplers hold it is kept per share group by host name;
//  - the application's GL_TEXTURE_SWIZZLE_* on a texture whose desktop format
//    the host stores through a format swizzle (luminance, alpha, intensity:
//    gl::HostFormat::swizzle): the host gets their composition, queries
//    answer the application's;
//  - GL_DEPTH_TEXTURE_MODE on compatibility contexts (the rule:
//    backends/gl/state/depth_texture_mode.h): kept per texture, the host gets
//    the mode's swizzle composed with the application's (desktop_uploads.cc).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include "backend.h"
#include "context/texel_convert.h"
#include "state/depth_texture_mode.h"

namespace mgl::espryt {

bool EsprytBackend::legacy_wraps_apply(GLenum pname) const {
    return cur_ && cur_->desktop() && cur_->profile == 2 && gl::wrap_axis(pname) >= 0;
}

uint32_t EsprytBackend::bound_texture_host_name(GLenum target) {
    uint32_t face = 0, name = 0;
    const gl::Lowered k = lowered(target);
    if (k != gl::Lowered::none) {
        on_lowered(k, [&](GLenum t) { name = bound_texture(texture_binding(t, &face)); });
    } else if (const GLenum b = texture_binding(target, &face)) {
        name = bound_texture(b);
    }
    return name;
}

// A texture parameter set on the host's target for `target`, past the overrides.
void EsprytBackend::host_tex_parameteri(GLenum target, GLenum pname, GLint value) {
    const gl::Lowered k = lowered(target);
    if (k == gl::Lowered::none) return EsprytGenerated::glTexParameteri(target, pname, value);
    on_lowered(k, [&](GLenum t) { EsprytGenerated::glTexParameteri(t, pname, value); });
}

bool EsprytBackend::desktop_tex_parameter(GLenum target, GLenum pname, double value) {
    return app_swizzle_set(target, pname, value) || legacy_clamp_texture(target, pname, value) ||
           depth_mode_set(target, pname, value);
}

// GL_DEPTH_TEXTURE_MODE, and GL_TEXTURE_COMPARE_MODE, which decides whether
// the mode applies (TextureLevels::Texture::compare); the latter goes on to
// the host. Core contexts have no depth mode: the host's GL_INVALID_ENUM
// answers them.
bool EsprytBackend::depth_mode_set(GLenum target, GLenum pname, double value) {
    if (!cur_ || !cur_->desktop()) return false;
    const uint32_t v = value >= 0 && value < 65536 ? uint32_t(value) : 0;
    TextureLevels::Texture* t = nullptr;
    if (pname == GL_TEXTURE_COMPARE_MODE) {
        t = &cur_->share->levels.textures[bound_texture_host_name(target)];
        const bool was = t->compare;
        t->compare = v == GL_COMPARE_REF_TO_TEXTURE;
        if (!t->depth_format || t->compare == was) return false;
    } else if (pname == gl::kDepthTextureMode && cur_->profile == 2) {
        if (!gl::valid_depth_texture_mode(v)) {
            set_error(GL_INVALID_ENUM);
            return true;
        }
        t = &cur_->share->levels.textures[bound_texture_host_name(target)];
        t->depth_mode = v;
        if (!t->depth_format) return true;
    } else {
        return false;
    }
    depth_format_swizzle(*t);
    for (GLenum i = 0; i < 4; ++i)
        host_tex_parameteri(target, GL_TEXTURE_SWIZZLE_R + i,
                            GLint(gl::composed_swizzle(t->format_swizzle, t->app_swizzle[i])));
    return pname == gl::kDepthTextureMode;
}

template <typename T>
bool EsprytBackend::depth_mode_get(GLenum target, GLenum pname, wire::Out<T>& params) {
    if (pname != gl::kDepthTextureMode || !cur_ || !cur_->desktop() || cur_->profile != 2) return false;
    const TextureLevels::Texture* t = cur_->share->levels.texture(bound_texture_host_name(target));
    if (params.count() >= 1)
        params.data[0] = T(t && t->depth_mode ? t->depth_mode : gl::initial_depth_texture_mode(true));
    return true;
}
template bool EsprytBackend::depth_mode_get(GLenum, GLenum, wire::Out<GLint>&);
template bool EsprytBackend::depth_mode_get(GLenum, GLenum, wire::Out<GLuint>&);
template bool EsprytBackend::depth_mode_get(GLenum, GLenum, wire::Out<GLfloat>&);

template <typename T>
void EsprytBackend::desktop_tex_parameter_answer(GLenum target, GLenum pname, wire::Out<T>& params) {
    if (params.count() < 1 || !cur_ || !cur_->desktop()) return;
    app_swizzle_answer(target, pname, params);
    legacy_clamp_texture_answer(target, pname, params);
}
template void EsprytBackend::desktop_tex_parameter_answer(GLenum, GLenum, wire::Out<GLint>&);
template void EsprytBackend::desktop_tex_parameter_answer(GLenum, GLenum, wire::Out<GLuint>&);
template void EsprytBackend::desktop_tex_parameter_answer(GLenum, GLenum, wire::Out<GLfloat>&);

bool EsprytBackend::app_swizzle_set(GLenum target, GLenum pname, double value) {
    if (!cur_ || !cur_->desktop() || pname < GL_TEXTURE_SWIZZLE_R || pname > GL_TEXTURE_SWIZZLE_A) return false;
    TextureLevels::Texture* t = cur_->share->levels.texture(bound_texture_host_name(target));
    if (!t) return false;  // no desktop format recorded: the host's swizzle is the application's
    const uint32_t v = value >= 0 && value < 65536 ? uint32_t(value) : 0xFFFFFFFFu;
    if (v != GL_ZERO && v != GL_ONE && (v < GL_RED || v > GL_ALPHA)) return false;  // the host refuses it
    t->app_swizzle[pname - GL_TEXTURE_SWIZZLE_R] = v;
    if (!t->swizzled) return false;
    host_tex_parameteri(target, pname, GLint(gl::composed_swizzle(t->format_swizzle, v)));
    return true;
}

template <typename T>
void EsprytBackend::app_swizzle_answer(GLenum target, GLenum pname, wire::Out<T>& params) {
    if (pname < GL_TEXTURE_SWIZZLE_R || pname > GL_TEXTURE_SWIZZLE_A) return;
    if (const TextureLevels::Texture* t = cur_->share->levels.texture(bound_texture_host_name(target)))
        params.data[0] = T(t->app_swizzle[pname - GL_TEXTURE_SWIZZLE_R]);
}

bool EsprytBackend::legacy_clamp_texture(GLenum target, GLenum pname, double value) {
    if (!legacy_wraps_apply(pname)) return false;
    gl::LegacyClamps& clamps = cur_->share->legacy_clamps;
    const bool clamp = value == gl::kLegacyClamp;
    if (!clamp && clamps.empty()) return false;
    if (const uint32_t tex = bound_texture_host_name(target)) clamps.note(tex, pname, uint32_t(value));
    if (!clamp) return false;
    host_tex_parameteri(target, pname, GLint(gl::device_wrap(gl::kLegacyClamp)));
    return true;
}

template <typename T>
void EsprytBackend::legacy_clamp_texture_answer(GLenum target, GLenum pname, wire::Out<T>& params) {
    if (!legacy_wraps_apply(pname) || cur_->share->legacy_clamps.empty()) return;
    const uint32_t tex = bound_texture_host_name(target);
    params.data[0] = T(cur_->share->legacy_clamps.answer(tex, pname, uint32_t(params.data[0])));
}

// Samplers: the same, by the sampler's host name.
bool EsprytBackend::legacy_clamp_sampler(GLuint sampler, GLenum pname, double value) {
    if (!legacy_wraps_apply(pname)) return false;
    gl::LegacyClamps& clamps = cur_->share->legacy_clamps_samplers;
    GLuint host = 0;
    if (!to_host(Kind::sampler, sampler, host) || !host) return false;  // the host's own error follows
    clamps.note(host, pname, uint32_t(value));
    if (value != gl::kLegacyClamp) return false;
    EsprytGenerated::glSamplerParameteri(sampler, pname, GLint(gl::device_wrap(gl::kLegacyClamp)));
    return true;
}

void EsprytBackend::glSamplerParameteri(GLuint sampler, GLenum pname, GLint param) {
    if (!legacy_clamp_sampler(sampler, pname, param)) EsprytGenerated::glSamplerParameteri(sampler, pname, param);
}
void EsprytBackend::glSamplerParameterf(GLuint sampler, GLenum pname, GLfloat param) {
    if (!legacy_clamp_sampler(sampler, pname, param)) EsprytGenerated::glSamplerParameterf(sampler, pname, param);
}
void EsprytBackend::glSamplerParameteriv(GLuint sampler, GLenum pname, wire::In<GLint> param) {
    if (param.count() < 1 || !legacy_clamp_sampler(sampler, pname, param.data[0]))
        EsprytGenerated::glSamplerParameteriv(sampler, pname, param);
}
void EsprytBackend::glSamplerParameterfv(GLuint sampler, GLenum pname, wire::In<GLfloat> param) {
    if (param.count() < 1 || !legacy_clamp_sampler(sampler, pname, param.data[0]))
        EsprytGenerated::glSamplerParameterfv(sampler, pname, param);
}

template <typename T>
static void answer_sampler(const gl::LegacyClamps& clamps, GLuint host, GLenum pname, wire::Out<T>& params) {
    if (params.count() >= 1) params.data[0] = T(clamps.answer(host, pname, uint32_t(params.data[0])));
}

void EsprytBackend::glGetSamplerParameteriv(GLuint sampler, GLenum pname, wire::Out<GLint> params) {
    EsprytGenerated::glGetSamplerParameteriv(sampler, pname, params);
    GLuint host = 0;
    if (legacy_wraps_apply(pname) && to_host(Kind::sampler, sampler, host))
        answer_sampler(cur_->share->legacy_clamps_samplers, host, pname, params);
}
void EsprytBackend::glGetSamplerParameterfv(GLuint sampler, GLenum pname, wire::Out<GLfloat> params) {
    EsprytGenerated::glGetSamplerParameterfv(sampler, pname, params);
    GLuint host = 0;
    if (legacy_wraps_apply(pname) && to_host(Kind::sampler, sampler, host))
        answer_sampler(cur_->share->legacy_clamps_samplers, host, pname, params);
}

void EsprytBackend::glDeleteSamplers(GLsizei count, wire::In<GLuint> samplers) {
    if (cur_ && !cur_->share->legacy_clamps_samplers.empty()) {
        for (GLsizei i = 0; i < count && size_t(i) < samplers.count(); ++i) {
            GLuint host = 0;
            if (to_host(Kind::sampler, samplers.data[i], host)) cur_->share->legacy_clamps_samplers.forget(host);
        }
    }
    EsprytGenerated::glDeleteSamplers(count, samplers);
}

}  // namespace mgl::espryt
