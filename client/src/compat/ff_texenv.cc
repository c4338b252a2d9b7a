// The texture environment of the fixed-function lowering (GL 2.1 §3.13,
// ARB_texture_env_combine and _crossbar): glTexEnv*, glGetTexEnv*, and the
// fragment stage's code for one texture unit.
//
// GL_COMBINE's configuration goes into the program key (one 64-bit word per
// unit: the functions, sources and operands pick the generated code); the
// environment colour and the scales are uniforms (mgl_envc<u>, mgl_envs<u>).
#include <cstring>
#include <sstream>

#include "compat/ff.h"
#include "compat/ff_verbs.h"
#include "custom/common.h"

namespace mgl::client::compat {

namespace {

constexpr GLenum kPointSprite = 0x8861, kCoordReplace = 0x8862;  // GL_POINT_SPRITE's texture environment
constexpr GLenum kTextureEnv = 0x2300, kEnvMode = 0x2200, kEnvColor = 0x2201, kCombine = 0x8570,
                 kCombineRgb = 0x8571, kCombineAlpha = 0x8572, kRgbScale = 0x8573, kAlphaScale = 0x0D1C,
                 kSource0Rgb = 0x8580, kSource0Alpha = 0x8588, kOperand0Rgb = 0x8590, kOperand0Alpha = 0x8598;
constexpr GLenum kModulate = 0x2100, kReplace = 0x1E01, kDecal = 0x2101, kAdd = 0x0104, kBlend = 0x0BE2,
                 kAddSigned = 0x8574, kInterpolate = 0x8575, kSubtract = 0x84E7, kDot3Rgb = 0x86AE,
                 kDot3Rgba = 0x86AF, kDot3RgbExt = 0x8740, kDot3RgbaExt = 0x8741;
constexpr GLenum kTexture = 0x1702, kConstant = 0x8576, kPrimaryColor = 0x8577, kPrevious = 0x8578,
                 kTexture0 = 0x84C0;
constexpr GLenum kSrcColor = 0x0300, kOneMinusSrcColor = 0x0301, kSrcAlpha = 0x0302, kOneMinusSrcAlpha = 0x0303;

// The key's codes (0 is never a valid function, so a zero word means "not combine").
const GLenum kFuncs[] = {0, kReplace, kModulate, kAdd, kAddSigned, kInterpolate, kSubtract, kDot3Rgb, kDot3Rgba};
const GLenum kSources[] = {kTexture, kConstant, kPrimaryColor, kPrevious, kTexture0, kTexture0 + 1, kTexture0 + 2,
                           kTexture0 + 3};

// A function's key code: its index in kFuncs (EXT_texture_env_dot3's enums
// are ARB's functions); 0 when not a combine function.
int func_code(GLenum f) {
    if (f == kDot3RgbExt) return 7;
    if (f == kDot3RgbaExt) return 8;
    for (int i = 1; i < 9; ++i)
        if (kFuncs[i] == f) return i;
    return 0;
}

int index_of(const GLenum* table, int n, GLenum v) {
    for (int i = 0; i < n; ++i)
        if (table[i] == v) return i;
    return -1;
}

bool valid_mode(GLenum m) {
    return m == kModulate || m == kReplace || m == kDecal || m == kAdd || m == kBlend || m == kCombine;
}

// Sets one pname of the active unit's environment; false: GL_INVALID_ENUM.
bool set(TexEnv& e, GLenum pname, const float* v) {
    const GLenum g = GLenum(v[0]);
    if (pname == kEnvMode) {
        if (!valid_mode(g)) return false;
        e.mode = g;
    } else if (pname == kEnvColor) {
        for (int i = 0; i < 4; ++i) e.color[i] = std::min(std::max(v[i], 0.0F), 1.0F);
    } else if (pname == kCombineRgb) {
        if (func_code(g) == 0) return false;
        e.combine_rgb = g;
    } else if (pname == kCombineAlpha) {
        if (func_code(g) == 0 || func_code(g) >= 7) return false;
        e.combine_alpha = g;
    } else if (pname == kRgbScale || pname == kAlphaScale) {
        if (v[0] != 1.0F && v[0] != 2.0F && v[0] != 4.0F) return false;
        (pname == kRgbScale ? e.rgb_scale : e.alpha_scale) = v[0];
    } else if (pname >= kSource0Rgb && pname < kSource0Rgb + 3) {
        if (index_of(kSources, 8, g) < 0) return false;
        e.source_rgb[pname - kSource0Rgb] = g;
    } else if (pname >= kSource0Alpha && pname < kSource0Alpha + 3) {
        if (index_of(kSources, 8, g) < 0) return false;
        e.source_alpha[pname - kSource0Alpha] = g;
    } else if (pname >= kOperand0Rgb && pname < kOperand0Rgb + 3) {
        if (g < kSrcColor || g > kOneMinusSrcAlpha) return false;
        e.operand_rgb[pname - kOperand0Rgb] = g;
    } else if (pname >= kOperand0Alpha && pname < kOperand0Alpha + 3) {
        if (g != kSrcAlpha && g != kOneMinusSrcAlpha) return false;
        e.operand_alpha[pname - kOperand0Alpha] = g;
    } else {
        return false;
    }
    return true;
}

// How many values a pname takes.
int value_count(GLenum pname) { return pname == kEnvColor ? 4 : 1; }

void tex_env(const char* verb, GLenum target, GLenum pname, const float* v) {
    FF_OR_RETURN(verb);
    NOT_IN_BEGIN(verb);
    if (target == kPointSprite) {  // GL_COORD_REPLACE is its one pname, a boolean
        if (pname != kCoordReplace) return gl_error(*ctx, GL_INVALID_ENUM, verb);
        const bool on = v[0] != 0.0F;
        f->tex_env[std::min<uint32_t>(ctx->st.active_unit(), kMaxTexUnits - 1)].coord_replace = on;
        return;
    }
    if (target != kTextureEnv) {
        if (first_time(std::string(verb) + ":target"))
            log().warn("{}: target 0x{:04X} is not served by the fixed-function lowering: GL_INVALID_ENUM", verb, target);
        return gl_error(*ctx, GL_INVALID_ENUM, verb);
    }
    std::array<float, 4> vals{};
    std::memcpy(vals.data(), v, size_t(value_count(pname)) * sizeof(float));
    // The scales' wrong values are GL_INVALID_VALUE, every other refusal GL_INVALID_ENUM.
    if ((pname == kRgbScale || pname == kAlphaScale) && vals[0] != 1.0F && vals[0] != 2.0F && vals[0] != 4.0F)
        return gl_error(*ctx, GL_INVALID_VALUE, verb);
    TexEnv probe;
    if (!set(probe, pname, vals.data())) return gl_error(*ctx, GL_INVALID_ENUM, verb);
    auto run = [pname, vals](Context& c) {
        FixedFunction& g = *ff(c);
        set(g.tex_env[std::min<uint32_t>(c.st.active_unit(), kMaxTexUnits - 1)], pname, vals.data());
    };
    run(*ctx);
}

template <class T>
void get_tex_env(const char* verb, GLenum target, GLenum pname, T* out) {
    FF_OR_RETURN(verb);
    NOT_IN_BEGIN(verb);
    const TexEnv& e = f->tex_env[std::min<uint32_t>(ctx->st.active_unit(), kMaxTexUnits - 1)];
    if (target == kPointSprite && pname == kCoordReplace) {
        out[0] = T(e.coord_replace ? 1 : 0);
        return;
    }
    if (target != kTextureEnv) return gl_error(*ctx, GL_INVALID_ENUM, verb);
    auto one = [&](GLenum v) { out[0] = T(v); };
    if (pname == kEnvMode) one(e.mode);
    else if (pname == kEnvColor) {
        for (int i = 0; i < 4; ++i)
            // glGetTexEnviv maps the colour's [0, 1] onto the integers (GL 2.1 §6.1.2)
            out[i] = std::is_integral_v<T> ? T(double(e.color[i]) * 2147483647.0) : T(e.color[i]);
    } else if (pname == kCombineRgb) one(e.combine_rgb);
    else if (pname == kCombineAlpha) one(e.combine_alpha);
    else if (pname == kRgbScale) out[0] = T(e.rgb_scale);
    else if (pname == kAlphaScale) out[0] = T(e.alpha_scale);
    else if (pname >= kSource0Rgb && pname < kSource0Rgb + 3) one(e.source_rgb[pname - kSource0Rgb]);
    else if (pname >= kSource0Alpha && pname < kSource0Alpha + 3) one(e.source_alpha[pname - kSource0Alpha]);
    else if (pname >= kOperand0Rgb && pname < kOperand0Rgb + 3) one(e.operand_rgb[pname - kOperand0Rgb]);
    else if (pname >= kOperand0Alpha && pname < kOperand0Alpha + 3) one(e.operand_alpha[pname - kOperand0Alpha]);
    else gl_error(*ctx, GL_INVALID_ENUM, verb);
}

// GLSL of one combine argument: source `s` under operand `op` (rgb: vec3, alpha: float).
// GL_TEXTUREn of a unit without texturing is undefined (ARB_texture_env_crossbar): white.
std::string argument(const Key& k, int source, int operand, bool alpha, int unit) {
    std::string x;
    switch (source) {
        case 0: x = "t" + std::to_string(unit); break;
        case 1: x = "mgl_envc" + std::to_string(unit); break;
        case 2: x = "primary"; break;
        case 3: x = "c"; break;
        default: x = (k.tex_enabled & (1 << (source - 4))) ? "t" + std::to_string(source - 4) : "vec4(1.0)"; break;
    }
    if (alpha) return operand == 0 ? x + ".a" : "(1.0 - " + x + ".a)";
    switch (operand) {
        case 0: return x + ".rgb";
        case 1: return "(vec3(1.0) - " + x + ".rgb)";
        case 2: return "vec3(" + x + ".a)";
        default: return "vec3(1.0 - " + x + ".a)";
    }
}

std::string function(int func, const std::string a[3], bool alpha) {
    const std::string half = alpha ? "0.5" : "vec3(0.5)";
    switch (func) {
        case 1: return a[0];
        case 2: return a[0] + " * " + a[1];
        case 3: return a[0] + " + " + a[1];
        case 4: return a[0] + " + " + a[1] + " - " + half;
        case 5: return a[0] + " * " + a[2] + " + " + a[1] + " * ((" + (alpha ? "1.0" : "vec3(1.0)") + ") - " + a[2] + ")";
        case 6: return a[0] + " - " + a[1];
        default:  // DOT3_RGB(A): 4 * ((r0 - 0.5)(r1 - 0.5) + ...), in every channel
            return "vec3(4.0 * dot(" + a[0] + " - vec3(0.5), " + a[1] + " - vec3(0.5)))";
    }
}

constexpr GLenum kDepthTextureMode = 0x884B, kTextureCompareMode = 0x884C, kCompareRefToTexture = 0x884E;

bool depth_format(GLenum f) {
    switch (f) {
        case 0x1902: case 0x81A5: case 0x81A6: case 0x81A7: case 0x8CAC:  // DEPTH_COMPONENT(16, 24, 32, 32F)
        case 0x84F9: case 0x88F0: case 0x8CAD: return true;            // DEPTH_STENCIL, DEPTH24_STENCIL8, DEPTH32F_STENCIL8
        default: return false;
    }
}

// The base format of an internal format (GL 2.1 table 3.16; GL 3's red and
// red-green formats and depth formats as GL_DEPTH_TEXTURE_MODE's default,
// luminance, of a compatibility context); RGBA for what is not listed.
uint8_t base_format(GLenum f) {
    switch (f) {
        case 1: case 0x1909: case 0x803F: case 0x8040: case 0x8041: case 0x8042: case 0x8C46: case 0x8C47:
        case 0x1902: case 0x81A5: case 0x81A6: case 0x81A7: case 0x8CAC: case 0x88F0: case 0x84F9: case 0x8CAD:
            return kFormatLuminance;  // LUMINANCE(4..16), SLUMINANCE(8), DEPTH_COMPONENT(16..32, 32F), DEPTH_STENCIL
        case 2: case 0x190A: case 0x8043: case 0x8044: case 0x8045: case 0x8046: case 0x8047: case 0x8048:
        case 0x8C44: case 0x8C45:
            return kFormatLuminanceAlpha;
        case 0x1906: case 0x803B: case 0x803C: case 0x803D: case 0x803E: return kFormatAlpha;
        case 0x8049: case 0x804A: case 0x804B: case 0x804C: case 0x804D: return kFormatIntensity;
        case 3: case 0x1907: case 0x2A10: case 0x804F: case 0x8050: case 0x8051: case 0x8052: case 0x8053: case 0x8054:
        case 0x8C40: case 0x8C41: case 0x8D62: case 0x881B: case 0x8815: case 0x8C3A: case 0x8C3D: case 0x83F0:
        case 0x1903: case 0x8227: case 0x8229: case 0x822A: case 0x822B: case 0x822C: case 0x822D: case 0x822E:
        case 0x822F: case 0x8230: case 0x8F94: case 0x8F95:
            return kFormatRgb;  // RGB*, R3_G3_B2, SRGB(8), RGB565, float RGB, DXT1 RGB; RED and RG (blue 0, alpha 1)
        default: return kFormatRgba;
    }
}

// The texture a unit has bound for a fixed-function target (TexTarget).
uint32_t bound_for(const TextureUnit& unit, uint8_t target) {
    switch (target) {
        case kTex1D: return unit.tex_1d;
        case kTex3D: return unit.tex_3d;
        case kTexCube: return unit.tex_cube;
        case kTexRect: return unit.tex_rect;
        default: return unit.tex_2d;
    }
}

// Level 0 of a target fixed-function texturing samples (a cube map's faces too).
uint8_t sampled_target_of(GLenum target) {
    switch (target) {
        case 0x0DE0: return kTex1D;
        case 0x0DE1: return kTex2D;
        case 0x806F: return kTex3D;
        case 0x84F5: return kTexRect;
        default: return target >= 0x8515 && target <= 0x851A ? kTexCube : 0;
    }
}

void note_format(GLenum target, GLint level, GLenum internalformat) {
    const uint8_t t = sampled_target_of(target);
    if (!t || level != 0) return;
    Context* ctx = current();
    FixedFunction* f = ctx ? ff(*ctx) : nullptr;
    if (!f) return;
    const uint32_t tex = bound_for(ctx->st.units()[std::min<size_t>(ctx->st.active_unit(), ctx->st.units().size() - 1)], t);
    if (!tex) return;
    f->tex_formats[tex] = base_format(internalformat);
    if (depth_format(internalformat)) f->depth_textures[tex] = internalformat == 0x8CAC || internalformat == 0x8CAD;
    else f->depth_textures.erase(tex);
}

// glTexParameter* of GL_DEPTH_TEXTURE_MODE and GL_TEXTURE_COMPARE_MODE on the
// active unit's texture of `target` (a value GL refuses is not kept: the
// server raises its error).
void note_depth_parameter(GLenum target, GLenum pname, double value) {
    if (pname != kDepthTextureMode && pname != kTextureCompareMode) return;
    const uint8_t t = target == 0x8513 ? uint8_t(kTexCube) : sampled_target_of(target);
    Context* ctx = current();
    FixedFunction* f = ctx ? ff(*ctx) : nullptr;
    if (!t || !f) return;
    const uint32_t tex = bound_for(ctx->st.units()[std::min<size_t>(ctx->st.active_unit(), ctx->st.units().size() - 1)], t);
    if (!(value >= 0 && value < 65536)) return;  // no enum (the server refuses it)
    FixedFunction::DepthParams& p = f->depth_params[tex];
    if (pname == kTextureCompareMode) {
        if (value == 0 || value == kCompareRefToTexture) p.compare = value == kCompareRefToTexture;
        return;
    }
    switch (uint32_t(value)) {
        case 0x1909: p.mode_format = kFormatLuminance; break;  // GL_LUMINANCE
        case 0x8049: p.mode_format = kFormatIntensity; break;  // GL_INTENSITY
        case 0x1906: p.mode_format = kFormatAlpha; break;      // GL_ALPHA
        case 0x1903: p.mode_format = kFormatRgb; break;        // GL_RED: (d, 0, 0, 1)
        default: break;
    }
}

}  // namespace

void forget_tex_formats(Context& ctx, GLsizei n, const GLuint* textures) {
    FixedFunction* f = ff(ctx);
    if (!f || !textures) return;
    for (GLsizei i = 0; i < n; ++i) {
        f->tex_formats.erase(textures[i]);
        f->depth_textures.erase(textures[i]);
        f->depth_params.erase(textures[i]);
    }
}

uint8_t sampled_target(uint8_t enables) {
    for (uint8_t t : {kTexCube, kTex3D, kTexRect, kTex2D, kTex1D})
        if (enables & t) return t;
    return 0;
}

uint8_t bound_tex_format(Context& ctx, const FixedFunction& f, int unit, uint8_t target) {
    if (size_t(unit) >= ctx.st.units().size()) return kFormatRgba;
    const uint32_t tex = bound_for(ctx.st.units()[size_t(unit)], target);
    // a depth texture reads as its GL_DEPTH_TEXTURE_MODE's base format (the
    // server samples it so: backends/gl/state/depth_texture_mode.h)
    if (f.depth_textures.count(tex)) {
        const auto p = f.depth_params.find(tex);
        return p == f.depth_params.end() || !p->second.mode_format ? uint8_t(kFormatLuminance) : p->second.mode_format;
    }
    const auto found = f.tex_formats.find(tex);
    return found == f.tex_formats.end() ? uint8_t(kFormatRgba) : found->second;
}

bool bound_tex_compares(Context& ctx, const FixedFunction& f, int unit, uint8_t target, bool* floating) {
    if (size_t(unit) >= ctx.st.units().size() || (target != kTex1D && target != kTex2D && target != kTexRect)) return false;
    const uint32_t tex = bound_for(ctx.st.units()[size_t(unit)], target);
    const auto p = f.depth_params.find(tex);
    const auto d = f.depth_textures.find(tex);
    if (p == f.depth_params.end() || !p->second.compare || d == f.depth_textures.end()) return false;
    *floating = d->second;
    return true;
}

uint64_t combine_key(const TexEnv& e) {
    if (e.mode != kCombine) return 0;
    uint64_t k = uint64_t(func_code(e.combine_rgb)) | uint64_t(func_code(e.combine_alpha)) << 4;
    for (int i = 0; i < 3; ++i) {
        k |= uint64_t(index_of(kSources, 8, e.source_rgb[i])) << (8 + 3 * i);
        k |= uint64_t(index_of(kSources, 8, e.source_alpha[i])) << (17 + 3 * i);
        k |= uint64_t(e.operand_rgb[i] - kSrcColor) << (26 + 2 * i);
        k |= uint64_t(e.operand_alpha[i] - kSrcColor) << (32 + 2 * i);
    }
    return k;
}

std::string texenv_declarations(const Key& k, int u) {
    std::string d;
    if (k.tex_env[size_t(u)] == kBlend || k.tex_env[size_t(u)] == kCombine) d += "uniform vec4 mgl_envc" + std::to_string(u) + ";\n";
    if (k.tex_env[size_t(u)] == kCombine) d += "uniform vec2 mgl_envs" + std::to_string(u) + ";\n";
    return d;
}

std::string texenv_fragment(const Key& k, int u) {
    std::ostringstream o;
    const std::string t = "t" + std::to_string(u);
    const uint8_t fmt = k.tex_format[size_t(u)];
    if (fmt != kFormatRgba && k.tex_env[size_t(u)] != kCombine) {
        // GL 2.1 table 3.22: a texture without alpha keeps the fragment's
        // alpha, one without colour its colour; luminance and intensity are
        // the sample's red; intensity is the alpha too.
        const bool color = fmt != kFormatAlpha;
        const bool alpha = fmt == kFormatAlpha || fmt == kFormatLuminanceAlpha || fmt == kFormatIntensity;
        const std::string ct = fmt == kFormatRgb ? t + ".rgb" : "vec3(" + t + ".r)";
        const std::string at = fmt == kFormatIntensity ? t + ".r" : t + ".a";
        switch (k.tex_env[size_t(u)]) {
            case kReplace:
                if (color) o << "    c.rgb = " << ct << ";\n";
                if (alpha) o << "    c.a = " << at << ";\n";
                break;
            case kDecal:  // RGB: the texture's colour; undefined for the others (their colour as RGB)
                if (color) o << "    c.rgb = " << ct << ";\n";
                break;
            case kAdd:
                if (color) o << "    c.rgb = c.rgb + " << ct << ";\n";
                if (fmt == kFormatIntensity) o << "    c.a = c.a + " << at << ";\n";
                else if (alpha) o << "    c.a = c.a * " << at << ";\n";
                break;
            case kBlend:
                if (color) o << "    c.rgb = mix(c.rgb, mgl_envc" << u << ".rgb, " << ct << ");\n";
                if (fmt == kFormatIntensity) o << "    c.a = mix(c.a, mgl_envc" << u << ".a, " << at << ");\n";
                else if (alpha) o << "    c.a = c.a * " << at << ";\n";
                break;
            default:  // GL_MODULATE
                if (color) o << "    c.rgb = c.rgb * " << ct << ";\n";
                if (alpha) o << "    c.a = c.a * " << at << ";\n";
                break;
        }
        return o.str();
    }
    switch (k.tex_env[size_t(u)]) {
        case kReplace: o << "    c = " << t << ";\n"; break;
        case kDecal: o << "    c.rgb = mix(c.rgb, " << t << ".rgb, " << t << ".a);\n"; break;
        case kAdd: o << "    c.rgb = c.rgb + " << t << ".rgb;\n    c.a = c.a * " << t << ".a;\n"; break;
        case kBlend:  // Cf (1 - Ct) + Cc Ct, Af At
            o << "    c.rgb = mix(c.rgb, mgl_envc" << u << ".rgb, " << t << ".rgb);\n    c.a = c.a * " << t << ".a;\n";
            break;
        case kCombine: {
            const uint64_t key = k.tex_combine[size_t(u)];
            std::string rgb[3], alpha[3];
            for (int i = 0; i < 3; ++i) {
                rgb[i] = argument(k, int((key >> (8 + 3 * i)) & 7), int((key >> (26 + 2 * i)) & 3), false, u);
                alpha[i] = argument(k, int((key >> (17 + 3 * i)) & 7), int((key >> (32 + 2 * i)) & 3) - 2, true, u);
            }
            const int frgb = int(key & 15), falpha = int((key >> 4) & 15);
            o << "    {\n        vec3 rgb = " << function(frgb, rgb, false) << ";\n";
            if (frgb == 8)  // GL_DOT3_RGBA: the dot product is the alpha too
                o << "        float a = rgb.r;\n";
            else
                o << "        float a = " << function(falpha, alpha, true) << ";\n";
            o << "        c = clamp(vec4(rgb * mgl_envs" << u << ".x, a * mgl_envs" << u << ".y), 0.0, 1.0);\n    }\n";
            break;
        }
        default: o << "    c = c * " << t << ";\n"; break;  // GL_MODULATE
    }
    return o.str();
}

void texenv_values(const FixedFunction& f, int unit, float color[4], float scales[2]) {
    const TexEnv& e = f.tex_env[size_t(unit)];
    std::memcpy(color, e.color, 16);
    scales[0] = e.rgb_scale;
    scales[1] = e.alpha_scale;
}

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

void glTexEnvi(GLenum target, GLenum pname, GLint param) {
    const float v = float(param);
    tex_env("glTexEnvi", target, pname, &v);
}
void glTexEnvf(GLenum target, GLenum pname, GLfloat param) { tex_env("glTexEnvf", target, pname, &param); }
void glTexEnvfv(GLenum target, GLenum pname, const GLfloat* params) {
    if (!params) return;
    tex_env("glTexEnvfv", target, pname, params);
}
void glTexEnviv(GLenum target, GLenum pname, const GLint* params) {
    if (!params) return;
    float v[4] = {};
    for (int i = 0; i < value_count(pname); ++i)
        // an integer colour maps [-2^31, 2^31 - 1] onto [-1, 1] (GL 2.1 §2.1.1)
        v[i] = pname == kEnvColor ? float(double(params[i]) / 2147483647.0) : float(params[i]);
    tex_env("glTexEnviv", target, pname, v);
}
void glGetTexEnviv(GLenum target, GLenum pname, GLint* params) {
    if (params) get_tex_env("glGetTexEnviv", target, pname, params);
}
void glGetTexEnvfv(GLenum target, GLenum pname, GLfloat* params) {
    if (params) get_tex_env("glGetTexEnvfv", target, pname, params);
}

// The base formats the texture environment follows (codegen/emit_client.cc, kObserved).
void observe_glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei, GLsizei, GLint, GLenum, GLenum,
                          const void*) {
    note_format(target, level, GLenum(internalformat));
}
void observe_glCopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint, GLint, GLsizei, GLsizei, GLint) {
    note_format(target, level, internalformat);
}
void observe_glTexStorage2D(GLenum target, GLsizei, GLenum internalformat, GLsizei, GLsizei) {
    if (target == 0x8513) {  // GL_TEXTURE_CUBE_MAP: its faces
        for (GLenum face = 0x8515; face <= 0x851A; ++face) note_format(face, 0, internalformat);
        return;
    }
    note_format(target, 0, internalformat);
}
void observe_glTexImage1D(GLenum target, GLint level, GLint internalformat, GLsizei, GLint, GLenum, GLenum, const void*) {
    note_format(target, level, GLenum(internalformat));
}
void observe_glCopyTexImage1D(GLenum target, GLint level, GLenum internalformat, GLint, GLint, GLsizei, GLint) {
    note_format(target, level, internalformat);
}
void observe_glTexStorage1D(GLenum target, GLsizei, GLenum internalformat, GLsizei) {
    note_format(target, 0, internalformat);
}
void observe_glTexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei, GLsizei, GLsizei, GLint, GLenum,
                          GLenum, const void*) {
    note_format(target, level, GLenum(internalformat));
}
void observe_glTexStorage3D(GLenum target, GLsizei, GLenum internalformat, GLsizei, GLsizei, GLsizei) {
    note_format(target, 0, internalformat);
}
void observe_glTexParameteri(GLenum target, GLenum pname, GLint param) { note_depth_parameter(target, pname, param); }
void observe_glTexParameterf(GLenum target, GLenum pname, GLfloat param) { note_depth_parameter(target, pname, param); }
void observe_glTexParameteriv(GLenum target, GLenum pname, const GLint* params) {
    if (params && (pname == kDepthTextureMode || pname == kTextureCompareMode)) note_depth_parameter(target, pname, params[0]);
}
void observe_glTexParameterfv(GLenum target, GLenum pname, const GLfloat* params) {
    if (params && (pname == kDepthTextureMode || pname == kTextureCompareMode)) note_depth_parameter(target, pname, params[0]);
}

}  // namespace mgl_custom
