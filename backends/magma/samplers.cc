// Texture parameters and sampler objects, the Vulkan sampler a texture is
// sampled with, and the image views it is sampled or rendered through.
#include <cstdint>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "backend.h"
#include "state/depth_texture_mode.h"
#include "state/texture_targets.h"
#include "gl_to_vk.h"
#include "legacy_wrap.h"

namespace mgl::magma {

namespace {
constexpr GLenum kSwizzleRgba = 0x8E46;  // desktop GL: GL_TEXTURE_SWIZZLE_R..A at once

bool needs_mips(GLenum min_filter) { return min_filter != GL_NEAREST && min_filter != GL_LINEAR; }

VkSamplerAddressMode wrap(GLenum w) {
    switch (gl::device_wrap(w)) {  // GL_CLAMP: gl/state/legacy_wrap.h
        case GL_CLAMP_TO_EDGE: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        case GL_MIRRORED_REPEAT: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
        case GL_CLAMP_TO_BORDER: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;  // with the border colour
        default: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    }
}


}  // namespace

// ---- parameters and samplers -------------------------------------------------------------

namespace {
// Float parameters (glTexParameteri arrives as a float) as an enum or an int
// without the undefined float-to-integer cast of an out-of-range value (found
// by fuzz-backend): out of range is a value no enum has, or the nearest int;
// NaN is -1, which the level checks refuse.
GLenum enum_param(float v) { return v >= 0.0f && v < 4294967296.0f ? GLenum(v) : GLenum(0xFFFFFFFFu); }
int int_param(float v) {
    if (v != v) return -1;
    return v <= -2147483648.0f ? INT32_MIN : v >= 2147483648.0f ? INT32_MAX : int(v);
}
}  // namespace

void MagmaBackend::tex_parameter(TexParams& p, int* base, int* max, GLenum pname, float v) {
    const GLenum e = enum_param(v);
    switch (pname) {
        case GL_TEXTURE_MIN_FILTER: p.min_filter = e; break;
        case GL_TEXTURE_MAG_FILTER: p.mag_filter = e; break;
        case GL_TEXTURE_WRAP_S: p.wrap_s = e; break;
        case GL_TEXTURE_WRAP_T: p.wrap_t = e; break;
        case GL_TEXTURE_WRAP_R: p.wrap_r = e; break;
        case GL_TEXTURE_MIN_LOD: p.min_lod = v; break;
        case GL_TEXTURE_MAX_LOD: p.max_lod = v; break;
        case GL_TEXTURE_COMPARE_MODE: p.compare_mode = e; break;
        case GL_TEXTURE_COMPARE_FUNC: p.compare_func = e; break;
        case GL_TEXTURE_MAX_ANISOTROPY_EXT: p.anisotropy = v; break;
        case 0x8501: p.lod_bias = v == v ? v : 0.0f; break;  // GL_TEXTURE_LOD_BIAS
        case GL_TEXTURE_BASE_LEVEL:
            if (base) *base = int_param(v);
            break;
        case GL_TEXTURE_MAX_LEVEL:
            if (max) *max = int_param(v);
            break;
        case GL_TEXTURE_SWIZZLE_R:
        case GL_TEXTURE_SWIZZLE_G:
        case GL_TEXTURE_SWIZZLE_B:
        case GL_TEXTURE_SWIZZLE_A:
            if (e != GLenum(GL_RED + (pname - GL_TEXTURE_SWIZZLE_R)))
                refuse(gen::Op::glTexParameteri, GL_INVALID_OPERATION, "texture swizzles are not supported yet");
            break;
        default: {
            const std::string why = fmt::format("pname 0x{:04X} is not a texture parameter Magma keeps", pname);
            refuse(gen::Op::glTexParameteri, GL_INVALID_ENUM, why.c_str());
        }
    }
}

void MagmaBackend::glTexParameteri(GLenum target, GLenum pname, GLint param) {
    glTexParameterf(target, pname, float(param));
}

void MagmaBackend::glTexParameterf(GLenum target, GLenum pname, GLfloat param) {
    if (!need_context(gen::Op::glTexParameterf)) return;
    Texture* t = bound_texture(gen::Op::glTexParameterf, target);
    if (!t) return;
    if (pname >= GL_TEXTURE_SWIZZLE_R && pname <= GL_TEXTURE_SWIZZLE_A) {
        const GLenum v = GLenum(param);
        if (v != GL_RED && v != GL_GREEN && v != GL_BLUE && v != GL_ALPHA && v != GL_ZERO && v != GL_ONE)
            return refuse(gen::Op::glTexParameterf, GL_INVALID_ENUM, "swizzle value");
        t->swizzle[pname - GL_TEXTURE_SWIZZLE_R] = v;
        return;
    }
    if (pname == gl::kDepthTextureMode) {
        // Compatibility contexts only (core profiles removed it).
        if (!cur_->compatibility() || !gl::valid_depth_texture_mode(uint32_t(param)))
            return refuse(gen::Op::glTexParameterf, GL_INVALID_ENUM, "GL_DEPTH_TEXTURE_MODE");
        t->depth_mode = GLenum(param);
        return;
    }
    if (t->target == GL_TEXTURE_RECTANGLE)
        if (const uint32_t e = gl::rect_parameter_error(pname, param))
            return refuse(gen::Op::glTexParameterf, e, "not a rectangle texture's value (ARB_texture_rectangle)");
    tex_parameter(t->params, &t->base_level, &t->max_level, pname, param);
}

namespace {
// GL_TEXTURE_BORDER_COLOR: NaN as 0; from ints, GL's normalized conversion
// of a signed int to [-1, 1]. One rule for textures and sampler objects.
void set_border(TexParams& p, const float* v) {
    for (size_t i = 0; i < 4; ++i) p.border[i] = v[i] == v[i] ? v[i] : 0.0f;
}
void border_from_ints(const GLint* i, float v[4]) {
    for (int c = 0; c < 4; ++c) v[c] = float(i[c] / 2147483647.0);
}
}  // namespace

void MagmaBackend::glTexParameteriv(GLenum target, GLenum pname, wire::In<GLint> params) {
    if (pname == kSwizzleRgba && cur_ && cur_->desktop()) {  // desktop GL: the four swizzles at once
        if (params.count() < 4) return refuse(gen::Op::glTexParameteriv, GL_INVALID_VALUE, "GL_TEXTURE_SWIZZLE_RGBA");
        for (GLenum i = 0; i < 4; ++i) glTexParameterf(target, GL_TEXTURE_SWIZZLE_R + i, float(params.data[i]));
        return;
    }
    if (pname == GL_TEXTURE_BORDER_COLOR && params.count() >= 4) {
        float v[4];
        border_from_ints(params.data, v);
        return border_color(target, v);
    }
    if (params.count()) glTexParameterf(target, pname, float(params.data[0]));
}

void MagmaBackend::glTexParameterfv(GLenum target, GLenum pname, wire::In<GLfloat> params) {
    if (pname == GL_TEXTURE_BORDER_COLOR && params.count() >= 4) return border_color(target, params.data);
    if (params.count()) glTexParameterf(target, pname, params.data[0]);
}

void MagmaBackend::border_color(GLenum target, const float* v) {
    if (!need_context(gen::Op::glTexParameterfv)) return;
    Texture* t = bound_texture(gen::Op::glTexParameterfv, target);
    if (!t) return;
    set_border(t->params, v);
}

namespace {
// The sampler state a texture and a sampler object share, as GL answers it
// (enums and ints exact, floats as they were set); false: another pname.
bool sampler_state(const TexParams& p, GLenum pname, double out[4], int* n) {
    *n = 1;
    switch (pname) {
        case GL_TEXTURE_MIN_FILTER: out[0] = p.min_filter; return true;
        case GL_TEXTURE_MAG_FILTER: out[0] = p.mag_filter; return true;
        case GL_TEXTURE_WRAP_S: out[0] = p.wrap_s; return true;
        case GL_TEXTURE_WRAP_T: out[0] = p.wrap_t; return true;
        case GL_TEXTURE_WRAP_R: out[0] = p.wrap_r; return true;
        case GL_TEXTURE_MIN_LOD: out[0] = p.min_lod; return true;
        case GL_TEXTURE_MAX_LOD: out[0] = p.max_lod; return true;
        case GL_TEXTURE_COMPARE_MODE: out[0] = p.compare_mode; return true;
        case GL_TEXTURE_COMPARE_FUNC: out[0] = p.compare_func; return true;
        case GL_TEXTURE_MAX_ANISOTROPY_EXT: out[0] = p.anisotropy; return true;
        case 0x8501: out[0] = p.lod_bias; return true;  // GL_TEXTURE_LOD_BIAS
        case GL_TEXTURE_BORDER_COLOR:
            for (int i = 0; i < 4; ++i) out[i] = p.border[size_t(i)];
            *n = 4;
            return true;
        default: return false;
    }
}

// Floats into an int query: rounded; a colour: GL's normalized-to-int mapping.
void write_ints(GLenum pname, const double* v, int n, wire::Out<GLint> out) {
    for (int i = 0; i < n && uint32_t(i) < out.count(); ++i)
        out.data[i] = pname == GL_TEXTURE_BORDER_COLOR
                          ? GLint(std::clamp(std::round(v[i] * 2147483647.0), -2147483648.0, 2147483647.0))
                          : GLint(std::clamp(std::round(v[i]), -2147483648.0, 2147483647.0));
}
}  // namespace

// The sampler object `name`'s state; null (refused with the GL error) when there is none.
TexParams* MagmaBackend::sampler_params(gen::Op verb, GLuint name) {
    if (!need_context(verb)) return nullptr;
    auto it = cur_->share->samplers.find(name);
    if (it == cur_->share->samplers.end() || !it->second) {
        refuse(verb, GL_INVALID_OPERATION, "unknown sampler");
        return nullptr;
    }
    return &it->second->params;
}

void MagmaBackend::glGetSamplerParameterfv(GLuint sampler, GLenum pname, wire::Out<GLfloat> out) {
    const TexParams* p = sampler_params(gen::Op::glGetSamplerParameterfv, sampler);
    if (!p) return;
    double v[4];
    int n = 0;
    if (!sampler_state(*p, pname, v, &n)) return refuse(gen::Op::glGetSamplerParameterfv, GL_INVALID_ENUM, "pname");
    for (int i = 0; i < n && uint32_t(i) < out.count(); ++i) out.data[i] = GLfloat(v[i]);
}

void MagmaBackend::glGetSamplerParameteriv(GLuint sampler, GLenum pname, wire::Out<GLint> out) {
    const TexParams* p = sampler_params(gen::Op::glGetSamplerParameteriv, sampler);
    if (!p) return;
    double v[4];
    int n = 0;
    if (!sampler_state(*p, pname, v, &n)) return refuse(gen::Op::glGetSamplerParameteriv, GL_INVALID_ENUM, "pname");
    write_ints(pname, v, n, out);
}

void MagmaBackend::glGetTexParameterfv(GLenum target, GLenum pname, wire::Out<GLfloat> out) {
    if (!need_context(gen::Op::glGetTexParameterfv)) return;
    Texture* t = bound_texture(gen::Op::glGetTexParameterfv, target);
    if (!t || !out.count()) return;
    double v[4];
    int n = 0;
    if (sampler_state(t->params, pname, v, &n)) {
        for (int i = 0; i < n && uint32_t(i) < out.count(); ++i) out.data[i] = GLfloat(v[i]);
        return;
    }
    GLint iv[4] = {};
    glGetTexParameteriv(target, pname, wire::Out<GLint>{iv, sizeof iv});
    out.data[0] = GLfloat(iv[0]);
}

void MagmaBackend::glGetTexParameteriv(GLenum target, GLenum pname, wire::Out<GLint> out) {
    if (!need_context(gen::Op::glGetTexParameteriv)) return;
    Texture* t = bound_texture(gen::Op::glGetTexParameteriv, target);
    if (!t || !out.count()) return;
    const TexParams& p = t->params;
    GLint v = 0;
    switch (pname) {
        case GL_TEXTURE_BASE_LEVEL: v = t->base_level; break;
        case GL_TEXTURE_MAX_LEVEL: v = t->max_level; break;
        case GL_TEXTURE_IMMUTABLE_FORMAT: v = t->immutable; break;
        case GL_TEXTURE_IMMUTABLE_LEVELS: v = t->immutable_levels; break;
        case GL_TEXTURE_SWIZZLE_R:
        case GL_TEXTURE_SWIZZLE_G:
        case GL_TEXTURE_SWIZZLE_B:
        case GL_TEXTURE_SWIZZLE_A: v = GLint(t->swizzle[pname - GL_TEXTURE_SWIZZLE_R]); break;
        case kSwizzleRgba:
            for (uint32_t i = 0; i < 4 && i < out.count(); ++i) out.data[i] = GLint(t->swizzle[i]);
            return;
        case gl::kDepthTextureMode:
            if (!cur_->compatibility()) return refuse(gen::Op::glGetTexParameteriv, GL_INVALID_ENUM, "pname");
            v = GLint(t->depth_mode ? t->depth_mode : gl::initial_depth_texture_mode(true));
            break;
        default: {
            double sv[4];
            int n = 0;
            if (!sampler_state(p, pname, sv, &n)) return refuse(gen::Op::glGetTexParameteriv, GL_INVALID_ENUM, "pname");
            return write_ints(pname, sv, n, out);
        }
    }
    out.data[0] = v;
}

void MagmaBackend::glGenSamplers(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glGenSamplers)) return;
    for (uint32_t i = 0; i < names.count(); ++i)
        if (names.data[i]) cur_->share->samplers[names.data[i]] = std::make_shared<Sampler>();
}

void MagmaBackend::glDeleteSamplers(GLsizei n, wire::In<GLuint> names) {
    if (!need_context(gen::Op::glDeleteSamplers)) return;
    for (uint32_t i = 0; i < names.count(); ++i) {
        auto it = cur_->share->samplers.find(names.data[i]);
        if (it == cur_->share->samplers.end()) continue;
        for (auto& u : cur_->units)
            if (u.sampler == it->second) u.sampler.reset();
        cur_->share->samplers.erase(it);
    }
}

void MagmaBackend::glBindSampler(GLuint unit, GLuint name) {
    if (!need_context(gen::Op::glBindSampler)) return;
    if (unit >= cur_->unit_count()) return refuse(gen::Op::glBindSampler, GL_INVALID_VALUE, "unit");
    if (name == 0) {
        cur_->units[unit].sampler.reset();
        return;
    }
    auto it = cur_->share->samplers.find(name);
    if (it == cur_->share->samplers.end()) return refuse(gen::Op::glBindSampler, GL_INVALID_OPERATION, "unknown sampler");
    cur_->units[unit].sampler = it->second;
}

GLboolean MagmaBackend::glIsSampler(GLuint name) {
    return need_context(gen::Op::glIsSampler) && cur_->share->samplers.count(name);
}

void MagmaBackend::glSamplerParameteri(GLuint sampler, GLenum pname, GLint param) {
    glSamplerParameterf(sampler, pname, float(param));
}

void MagmaBackend::glSamplerParameterf(GLuint sampler, GLenum pname, GLfloat param) {
    if (TexParams* p = sampler_params(gen::Op::glSamplerParameterf, sampler))
        tex_parameter(*p, nullptr, nullptr, pname, param);
}

// The vector forms: GL_TEXTURE_BORDER_COLOR's four values, else the first.
void MagmaBackend::glSamplerParameterfv(GLuint sampler, GLenum pname, wire::In<GLfloat> params) {
    TexParams* p = sampler_params(gen::Op::glSamplerParameterfv, sampler);
    if (!p) return;
    if (pname == GL_TEXTURE_BORDER_COLOR) {
        if (params.count() < 4) return refuse(gen::Op::glSamplerParameterfv, GL_INVALID_VALUE, "four values");
        return set_border(*p, params.data);
    }
    if (params.count()) tex_parameter(*p, nullptr, nullptr, pname, params.data[0]);
}

void MagmaBackend::glSamplerParameteriv(GLuint sampler, GLenum pname, wire::In<GLint> params) {
    if (pname == GL_TEXTURE_BORDER_COLOR && params.count() >= 4) {
        GLfloat v[4];
        border_from_ints(params.data, v);
        return glSamplerParameterfv(sampler, pname, wire::In<GLfloat>{v, sizeof v});
    }
    if (params.count()) glSamplerParameterf(sampler, pname, float(params.data[0]));
}

SamplerKey MagmaBackend::sampler_key(const TexParams& p, const Texture& t) const {
    SamplerKey k;
    k.mag = p.mag_filter == GL_NEAREST ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
    const GLenum m = p.min_filter;
    k.min = (m == GL_NEAREST || m == GL_NEAREST_MIPMAP_NEAREST || m == GL_NEAREST_MIPMAP_LINEAR) ? VK_FILTER_NEAREST
                                                                                                : VK_FILTER_LINEAR;
    if (needs_mips(m)) {
        k.mip = (m == GL_NEAREST_MIPMAP_LINEAR || m == GL_LINEAR_MIPMAP_LINEAR) ? VK_SAMPLER_MIPMAP_MODE_LINEAR
                                                                               : VK_SAMPLER_MIPMAP_MODE_NEAREST;
        k.min_lod = std::max(p.min_lod, 0.0f);
        k.max_lod = std::max(p.max_lod, k.min_lod);
    } else {
        // GL's non-mipmapped minification: level base only; lod 0..0.25 keeps
        // the mag/min choice (as GL makes it at lod 0).
        k.mip = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        k.min_lod = 0.0f;
        k.max_lod = 0.25f;
    }
    k.u = wrap(p.wrap_s);
    k.v = wrap(p.wrap_t);
    k.w = wrap(p.wrap_r);
    k.anisotropy = p.anisotropy;
    k.lod_bias = p.lod_bias;
    for (int i = 0; i < 4; ++i) k.border[i] = std::clamp(p.border[size_t(i)], 0.0f, 1.0f);  // GL clamps it for fixed-point formats
    if (p.compare_mode == GL_COMPARE_REF_TO_TEXTURE && t.fmt.depth) {
        k.compare_enable = true;
        k.compare = compare(p.compare_func);
    }
    return k;
}

// The view a shader samples: the levels GL would sample with `min_filter`
// (the texture's, or the bound sampler object's), or nothing when the
// texture is incomplete (it then samples as black).
bool sampled_levels(const Texture& t, GLenum min_filter, uint32_t& base, uint32_t& count) {
    if (!t.img.image) return false;
    const uint32_t levels = t.img.levels;
    base = uint32_t(std::clamp(t.base_level, 0, int(levels) - 1));
    if (!(t.defined & (1u << base))) return false;
    count = 1;
    const bool ms = t.img.samples > 1;  // multisample textures have one level and no sampler state
    if (!ms && needs_mips(min_filter)) {
        const uint32_t last = std::min<uint32_t>(uint32_t(std::max(t.max_level, 0)), levels - 1);
        for (uint32_t l = base + 1; l <= last; ++l) {
            if (!(t.defined & (1u << l))) return false;  // incomplete mipmap chain
            ++count;
        }
    }
    return true;
}

VkImageView MagmaBackend::sampled_view(Texture& t, GLenum min_filter, bool& complete) {
    uint32_t base = 0, count = 0;
    complete = sampled_levels(t, min_filter, base, count);
    if (!complete) return VK_NULL_HANDLE;
    // A depth texture sampled without comparison reads as its depth texture
    // mode says, and the texture's swizzle applies after that (the front end's rule).
    std::array<GLenum, 4> swizzle = t.swizzle;
    const uint32_t mode = t.fmt.depth ? gl::sampled_depth_texture_mode(t.depth_mode,
                                                                       t.params.compare_mode == GL_COMPARE_REF_TO_TEXTURE,
                                                                       cur_ && cur_->compatibility())
                                      : 0;
    if (mode) {
        const std::array<uint32_t, 4> user{t.swizzle[0], t.swizzle[1], t.swizzle[2], t.swizzle[3]};
        const std::array<uint32_t, 4> d = gl::depth_swizzle(mode, user);
        swizzle = {GLenum(d[0]), GLenum(d[1]), GLenum(d[2]), GLenum(d[3])};
    }
    if (t.view && t.view_base == base && t.view_levels == count && t.view_swizzle == swizzle) return t.view;
    if (t.view) {
        VkImageView old = t.view;
        gpu_->defer([old](VkDevice d) { vkDestroyImageView(d, old, nullptr); });
    }
    VkImageViewType type = VK_IMAGE_VIEW_TYPE_2D;
    if (t.target == GL_TEXTURE_CUBE_MAP) type = VK_IMAGE_VIEW_TYPE_CUBE;
    else if (t.target == GL_TEXTURE_3D) type = VK_IMAGE_VIEW_TYPE_3D;
    else if (t.target == GL_TEXTURE_2D_ARRAY || t.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY || t.target == GL_TEXTURE_1D_ARRAY)
        type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    // GL's swizzle picks among the format's components (which LUMINANCE/ALPHA
    // formats map themselves), or 0 / 1.
    const VkComponentSwizzle fmt_of[4] = {t.fmt.swizzle.r, t.fmt.swizzle.g, t.fmt.swizzle.b, t.fmt.swizzle.a};
    VkComponentSwizzle out[4];
    for (int c = 0; c < 4; ++c) {
        const GLenum s = swizzle[size_t(c)];
        if (s == GL_ZERO) out[c] = VK_COMPONENT_SWIZZLE_ZERO;
        else if (s == GL_ONE) out[c] = VK_COMPONENT_SWIZZLE_ONE;
        else {
            const int from = s == GL_RED ? 0 : s == GL_GREEN ? 1 : s == GL_BLUE ? 2 : 3;
            out[c] = fmt_of[from] == VK_COMPONENT_SWIZZLE_IDENTITY ? VkComponentSwizzle(VK_COMPONENT_SWIZZLE_R + from) : fmt_of[from];
        }
    }
    t.view = gpu_->create_view(t.img, type, base, count, 0, t.img.layers, {out[0], out[1], out[2], out[3]}, true);
    t.view_base = base;
    t.view_levels = count;
    t.view_swizzle = swizzle;
    return t.view;
}

VkImageView MagmaBackend::attachment_view(Texture& t, int level, int layer) {
    const uint64_t key = (uint64_t(uint32_t(level)) << 32) | uint32_t(layer);
    auto it = t.attach_views.find(key);
    if (it != t.attach_views.end()) return it->second;
    VkImageView v = gpu_->create_view(t.img, VK_IMAGE_VIEW_TYPE_2D, uint32_t(level), 1, uint32_t(layer), 1);
    t.attach_views[key] = v;
    return v;
}

}  // namespace mgl::magma
