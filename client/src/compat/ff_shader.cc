// GLSL of the fixed-function stages for one state key.
//
// The vertex stage follows Mesa's ffvertex_prog.c operation for operation
// (a MUL/MAD chain on the columns of the MVP matrix, lighting in object
// space while the modelview keeps lengths, the degenerate LIT when the
// shininess is 0, the colour accumulation order), because the traces are
// compared with Mesa's own fixed function pixel for pixel: the same
// arithmetic in the same order gives the same bits. The text is desktop GLSL
// 3.30; the server's shader front end translates it like any application
// shader, so every backend runs it.
#include <sstream>

#include "compat/ff.h"

namespace mgl::client::compat {

namespace {

// A unit's sampler and the coordinates it is sampled at: projective for 1D,
// 2D, rectangle and 3D; a cube map takes the direction as it is (GL 2.1
// §3.8.6). 1D and rectangle textures are the GL front end's lowering on the
// server, as for an application's shader.
const char* sampler_type(uint8_t target) {
    switch (target) {
        case kTex1D: return "sampler1D";
        case kTex3D: return "sampler3D";
        case kTexCube: return "samplerCube";
        case kTexRect: return "sampler2DRect";
        default: return "sampler2D";
    }
}

// A unit's (s, t, r, q): a point sprite's are (s, t, 0, 1) across the point
// (gl_PointCoord: upper-left origin, GL's default).
std::string texture_coords(int u, int sprite) {
    return sprite == 1   ? "vec4(gl_PointCoord, 0.0, 1.0)"
           : sprite == 2 ? "vec4(gl_PointCoord.x, 1.0 - gl_PointCoord.y, 0.0, 1.0)"  // GL_LOWER_LEFT
                         : "mgl_tc" + std::to_string(u);
}

std::string sample_coords(uint8_t target, int u, int sprite) {
    const std::string tc = texture_coords(u, sprite);
    switch (target) {
        case kTex1D: return tc + ".x / " + tc + ".w";
        case kTex3D: return tc + ".xyz / " + tc + ".w";
        case kTexCube: return tc + ".xyz";
        default: return tc + ".xy / " + tc + ".w";
    }
}

// MUL/MAD transform by the columns of a matrix (Mesa's emit_transpose_matrix_transform_vec4).
std::string mat_mad(const std::string& m, const std::string& v) {
    return "(" + v + ".w * " + m + "[3] + (" + v + ".z * " + m + "[2] + (" + v + ".y * " + m + "[1] + " + m + "[0] * " + v +
           ".x)))";
}

const char* kAlphaOps[] = {"false", "<", "==", "<=", ">", "!=", ">=", "true"};

bool texgen_uses(const Key& k, int lo, int hi) {
    for (uint16_t t : k.texgen)
        for (int c = 0; c < 4; ++c) {
            const int code = (t >> (3 * c)) & 7;
            if (code >= lo && code <= hi) return true;
        }
    return false;
}

}  // namespace

bool key_needs_eye(const Key& k) {
    return (k.lighting && (k.positional || k.local_viewer)) || k.fog || k.clip || texgen_uses(k, 2, 5) ||
           k.point_params;
}
bool key_needs_eye_normal(const Key& k) { return texgen_uses(k, 3, 5); }

// A pixel rectangle's vertex stage: the rectangle comes in clip coordinates;
// colour, texture coordinates and fog distance are the raster position's.
std::string pixel_vertex_source(const Key& k) {
    std::ostringstream o;
    o << "#version 330 core\nin vec4 mgl_Vertex;\nuniform vec4 mgl_pix_col;\nout vec4 mgl_col0;\n";
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (k.tex_enabled & (1 << u)) o << "uniform vec4 mgl_pix_tc" << u << ";\nout vec4 mgl_tc" << u << ";\n";
    if (k.fog) o << "uniform float mgl_pix_dist;\nout float mgl_fogc;\n";
    o << "void main() {\n    gl_Position = mgl_Vertex;\n    mgl_col0 = mgl_pix_col;\n";
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (k.tex_enabled & (1 << u)) o << "    mgl_tc" << u << " = mgl_pix_tc" << u << ";\n";
    if (k.fog) o << "    mgl_fogc = mgl_pix_dist;\n";
    o << "}\n";
    return o.str();
}

std::string vertex_source(const Key& k) {
    if (k.pixel) return pixel_vertex_source(k);
    std::ostringstream o;
    const char* interp = k.flat ? "flat " : "";
    o << "#version 330 core\n"
      << "in vec4 mgl_Vertex;\nin vec3 mgl_Normal;\nin vec4 mgl_Color;\nin vec4 mgl_SecondaryColor;\n"
      << "uniform mat4 mgl_mvp;\n"
      << interp << "out vec4 mgl_col0;\n";
    if (k.zoff) o << "uniform float mgl_zoff;\n";  // polygon offset of unfilled polygons (ff_unfilled.cc)
    o << "uniform float mgl_point_size;\n";  // glPointSize (a GLES host sizes points by gl_PointSize only)
    if (k.point_params) o << "uniform vec3 mgl_point_atten;\nuniform vec2 mgl_point_range;\n";
    if (k.point_round) o << "uniform vec4 mgl_viewport;\n";
    if (k.separate_specular && k.lighting) o << interp << "out vec4 mgl_col1;\n";
    if (k.two_side) {
        o << interp << "out vec4 mgl_bcol0;\n";
        if (k.separate_specular) o << interp << "out vec4 mgl_bcol1;\n";
    }
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (k.tex_enabled & (1 << u))
            o << "in vec4 mgl_MultiTexCoord" << u << ";\nuniform mat4 mgl_texmat" << u << ";\nout vec4 mgl_tc" << u << ";\n";
    const bool eye_pos = key_needs_eye(k);
    if (eye_pos) o << "uniform mat4 mgl_mv;\n";
    if (key_needs_eye_normal(k)) o << "uniform mat3 mgl_nmat;\n";
    for (int u = 0; u < kMaxTexUnits; ++u)
        for (int c = 0; c < 4; ++c) {
            const int code = (k.texgen[size_t(u)] >> (3 * c)) & 7;
            if (code == 1 || code == 2) o << "uniform vec4 mgl_tg" << u << "_" << c << ";\n";
        }
    for (int i = 0; i < kMaxClipPlanes; ++i)
        if (k.clip & (1 << i)) o << "uniform vec4 mgl_clip" << i << ";\n";
    if (k.fog) o << "out float mgl_fogc;\n";
    if (k.lighting) {
        o << "uniform vec4 mgl_scene;\nuniform vec3 mgl_nrow0, mgl_nrow1, mgl_nrow2;\nuniform float mgl_nscale;\n"
          << "uniform vec4 mgl_lm_ambient, mgl_mat_ambient, mgl_mat_diffuse, mgl_mat_specular, mgl_mat_emission;\n"
          << "uniform float mgl_shininess;\n";
        for (int i = 0; i < kMaxLights; ++i)
            if (k.lights & (1 << i))
                o << "uniform vec4 mgl_l" << i << "_pos, mgl_l" << i << "_amb, mgl_l" << i << "_dif, mgl_l" << i
                  << "_spe, mgl_l" << i << "_att, mgl_l" << i << "_spot, mgl_l" << i << "_half;\n";
        if (k.two_side) {
            o << "uniform vec4 mgl_bscene, mgl_bmat_ambient, mgl_bmat_diffuse, mgl_bmat_specular, mgl_bmat_emission;\n"
              << "uniform float mgl_bshininess;\n";
            for (int i = 0; i < kMaxLights; ++i)
                if (k.lights & (1 << i))
                    o << "uniform vec4 mgl_l" << i << "_bamb, mgl_l" << i << "_bdif, mgl_l" << i << "_bspe;\n";
        }
    }
    o << "void main() {\n    vec4 p = mgl_Vertex;\n    gl_Position = " << mat_mad("mgl_mvp", "p") << ";\n";
    if (k.zoff) o << "    gl_Position.z += mgl_zoff * gl_Position.w;\n";
    o << "    gl_PointSize = mgl_point_size;\n";
    if (eye_pos) o << "    vec4 eye = " << mat_mad("mgl_mv", "p") << ";\n";
    // GL 2.1 (3.1): the size attenuated by the eye distance, clamped; the
    // distance is |z_eye|, as Mesa's fixed-function vertex program takes it
    // (GL allows that approximation of the distance to the eye)
    if (k.point_params)
        o << "    float pd = abs(eye.z);\n"
          << "    gl_PointSize = clamp(mgl_point_size * inversesqrt(mgl_point_atten.x + mgl_point_atten.y * pd + "
             "mgl_point_atten.z * pd * pd), mgl_point_range.x, mgl_point_range.y);\n";
    if (k.point_round) {
        // the size rounded, the centre snapped as GL places a non-antialiased
        // point: a pixel centre for odd sizes, a pixel corner for even ones
        o << "    gl_PointSize = max(floor(gl_PointSize + 0.5), 1.0);\n"
          << "    if (gl_Position.w > 0.0) {\n"
          << "        vec2 win = (gl_Position.xy / gl_Position.w * 0.5 + 0.5) * mgl_viewport.zw + mgl_viewport.xy;\n"
          << "        win = mod(gl_PointSize, 2.0) == 1.0 ? floor(win) + 0.5 : floor(win + 0.5);\n"
          << "        gl_Position.xy = ((win - mgl_viewport.xy) / mgl_viewport.zw * 2.0 - 1.0) * gl_Position.w;\n"
          << "    }\n";
    }
    for (int i = 0; i < kMaxClipPlanes; ++i)
        if (k.clip & (1 << i)) o << "    gl_ClipDistance[" << i << "] = dot(eye, mgl_clip" << i << ");\n";
    if (!k.lighting) {
        o << "    mgl_col0 = clamp(mgl_Color, 0.0, 1.0);\n";
    } else {
        o << "    vec3 n = mgl_Normal;\n";
        if (k.need_eye) o << "    n = vec3(dot(n, mgl_nrow0), dot(n, mgl_nrow1), dot(n, mgl_nrow2));\n";
        if (k.normalize) o << "    n = n * inversesqrt(dot(n, n));\n";
        else if (k.need_eye == k.rescale) o << "    n = n * mgl_nscale;\n";
        // One face's lighting (the back face's with the normal turned round
        // and the back material, GL 2.1 §2.14.1), in a block of its own.
        auto side = [&](bool back) {
        const uint8_t cm = back ? k.back_color_material : k.color_material;
        const bool shininess_zero = back ? k.back_shininess_zero : k.shininess_zero;
        const std::string b = back ? "b" : "";
        auto mat = [&](int bit, const char* name) {
            return (cm & bit) ? std::string("mgl_Color") : "mgl_" + b + "mat_" + name;
        };
        o << "    {\n";
        if (back) o << "    vec3 n = -front_n;\n";
        // scene colour: a constant unless colour material feeds it (Mesa's get_scenecolor)
        if (cm & (1 | 2 | 8))
            o << "    vec4 col0 = " << mat(2, "diffuse") << ";\n    col0.xyz = mgl_lm_ambient.xyz * " << mat(1, "ambient")
              << ".xyz + " << mat(8, "emission") << ".xyz;\n";
        else
            o << "    vec4 col0 = mgl_" << b << "scene;\n";
        const bool sep = k.separate_specular;
        o << "    vec4 col1 = " << (sep ? "vec4(0.0, 0.0, 0.0, 1.0)" : "col0") << ";\n";
        o << "    vec4 out0 = col0;\n    vec4 out1 = col1;\n    vec4 dots = vec4(0.0);\n    vec4 lit;\n";
        if (!shininess_zero) o << "    dots.w = mgl_" << b << "shininess;\n";
        if (k.local_viewer) o << "    vec3 eye_hat = eye.xyz * inversesqrt(dot(eye.xyz, eye.xyz));\n";
        int nr = 0, count = 0;
        for (int i = 0; i < kMaxLights; ++i) nr += (k.lights >> i) & 1;
        for (int i = 0; i < kMaxLights; ++i) {
            if (!(k.lights & (1 << i))) continue;
            ++count;
            const std::string L = "mgl_l" + std::to_string(i);
            const bool positional = k.positional & (1 << i);
            const bool attenuated = positional && (k.attenuated & (1 << i));
            const bool spot = k.spot & (1 << i);
            o << "    {\n";
            if (!positional) {
                o << "        vec4 vp = " << L << "_pos;\n";
            } else {
                o << "        vec4 vp = " << L << "_pos - eye;\n"
                  << "        vec4 dist = vec4(inversesqrt(dot(vp.xyz, vp.xyz)));\n        vp = vp * dist;\n";
            }
            const bool has_att = spot || attenuated;
            if (spot)
                o << "        float sp = dot(-vp.xyz, " << L << "_spot.xyz);\n"
                  << "        float slt = " << L << "_spot.w < sp ? 1.0 : 0.0;\n"
                  << "        float att = slt * pow(abs(sp), " << L << "_att.w);\n";
            if (attenuated) {
                o << "        dist.yz = 1.0 / dist.yz;\n        dist.xz = dist.xz * dist.y;\n"
                  << "        float da = dot(" << L << "_att.xyz, dist.xyz);\n";
                if (spot) o << "        att = (1.0 / da) * att;\n";
                else o << "        float att = 1.0 / da;\n";
            }
            if (!shininess_zero) {
                if (k.local_viewer)
                    o << "        vec3 h = vp.xyz - eye_hat;\n        h = h * inversesqrt(dot(h, h));\n";
                else if (!positional)
                    o << "        vec3 h = " << L << "_half.xyz;\n";
                else
                    o << "        vec3 h = vp.xyz + vec3(0.0, 0.0, 1.0);\n        h = h * inversesqrt(dot(h, h));\n";
                o << "        dots.x = dot(n, vp.xyz);\n        dots.y = dot(n, h);\n";
            } else {
                o << "        dots.xyz = vec3(dot(n, vp.xyz));\n";
            }
            // light products: constants, or light colour times the colour when colour material feeds them
            auto prod = [&](int bit, const char* suffix) {
                return (cm & bit) ? "(" + L + "_" + b + suffix + " * mgl_Color)" : L + "_" + b + suffix;
            };
            const std::string amb = prod(1, "amb"), dif = prod(2, "dif"), spe = prod(4, "spe");
            if (has_att || !shininess_zero) {
                o << "        lit = vec4(1.0, max(dots.x, 0.0), dots.x <= 0.0 ? 0.0 : pow(max(dots.y, 0.0), "
                     "max(min(dots.w, 128.0), -128.0)), 1.0);\n";
                if (has_att) o << "        lit = lit * att;\n        col0 = lit.x * " << amb << " + col0;\n";
                else o << "        col0 = " << amb << " + col0;\n";
            } else {
                o << "        lit = max(vec4(0.0, 0.0, 0.0, 1.0), dots.xxxx);\n        lit.z = 0.0 < dots.x ? 1.0 : 0.0;\n"
                  << "        col0 = " << amb << " + col0;\n";
            }
            if (!sep && count == nr) {
                o << "        col0 = lit.y * " << dif << " + col0;\n        out0.xyz = (lit.z * " << spe << " + col0).xyz;\n";
            } else if (!sep) {
                o << "        col0 = lit.y * " << dif << " + col0;\n        col0 = lit.z * " << spe << " + col0;\n";
            } else if (count == nr) {
                o << "        out0.xyz = (lit.y * " << dif << " + col0).xyz;\n        out1.xyz = (lit.z * " << spe
                  << " + col1).xyz;\n";
            } else {
                o << "        col0 = lit.y * " << dif << " + col0;\n        col1 = lit.z * " << spe << " + col1;\n";
            }
            o << "    }\n";
        }
        o << "    mgl_" << b << "col0 = clamp(out0, 0.0, 1.0);\n";
        if (sep) o << "    mgl_" << b << "col1 = clamp(out1, 0.0, 1.0);\n";
        o << "    }\n";
        };
        side(false);
        if (k.two_side) {
            o << "    vec3 front_n = n;\n";
            side(true);
        }
    }
    if (key_needs_eye_normal(k)) {
        // texture coordinate generation from the eye-space normal (GL 2.1 §2.12.4)
        o << "    vec3 tg_n = mgl_nmat * mgl_Normal;\n";
        if (k.normalize) o << "    tg_n = normalize(tg_n);\n";
        o << "    vec3 tg_u = normalize(eye.xyz);\n    vec3 tg_r = tg_u - 2.0 * tg_n * dot(tg_n, tg_u);\n"
          << "    float tg_m = 2.0 * sqrt(tg_r.x * tg_r.x + tg_r.y * tg_r.y + (tg_r.z + 1.0) * (tg_r.z + 1.0));\n";
    }
    for (int u = 0; u < kMaxTexUnits; ++u) {
        if (!(k.tex_enabled & (1 << u))) continue;
        const std::string U = std::to_string(u);
        std::string tc = "mgl_MultiTexCoord" + U;
        if (k.texgen[size_t(u)]) {
            o << "    vec4 tc" << U << " = " << tc << ";\n";
            for (int c = 0; c < 4; ++c) {
                const int code = (k.texgen[size_t(u)] >> (3 * c)) & 7;
                const std::string dst = "tc" + U + "[" + std::to_string(c) + "]";
                const std::string plane = "mgl_tg" + U + "_" + std::to_string(c);
                switch (code) {
                    case 1: o << "    " << dst << " = dot(p, " << plane << ");\n"; break;
                    case 2: o << "    " << dst << " = dot(eye, " << plane << ");\n"; break;
                    case 3: o << "    " << dst << " = tg_r[" << c << "] / tg_m + 0.5;\n"; break;
                    case 4: o << "    " << dst << " = tg_n[" << c << "];\n"; break;
                    case 5: o << "    " << dst << " = tg_r[" << c << "];\n"; break;
                    default: break;
                }
            }
            tc = "tc" + U;
        }
        o << "    mgl_tc" << u << " = " << mat_mad("mgl_texmat" + U, tc) << ";\n";
    }
    if (k.fog) o << "    mgl_fogc = abs(eye.z);\n";
    o << "}\n";
    return o.str();
}

std::string fragment_source(const Key& k) {
    std::ostringstream o;
    const char* interp = k.flat ? "flat " : "";
    // marked as the lowering's: it tests alpha itself (backends/gl/shaders/driver_uniforms.h)
    o << "#version 330 core\n#pragma mgl_fixed_function\n" << interp << "in vec4 mgl_col0;\n";
    if (k.separate_specular && k.lighting) o << interp << "in vec4 mgl_col1;\n";
    if (k.two_side) {
        o << interp << "in vec4 mgl_bcol0;\n";
        if (k.separate_specular) o << interp << "in vec4 mgl_bcol1;\n";
    }
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (k.tex_enabled & (1 << u))
            o << "in vec4 mgl_tc" << u << ";\nuniform " << sampler_type(k.tex_target[size_t(u)])
              << ((k.tex_shadow >> u) & 1 ? "Shadow" : "") << " mgl_tex" << u << ";\n" << texenv_declarations(k, u);
    if (k.alpha_test) o << "uniform float mgl_alpha_ref;\n";
    if (k.fog) o << "in float mgl_fogc;\nuniform vec4 mgl_fog_color;\nuniform vec4 mgl_fog_params;\n";
    if (k.pixel) o << "uniform vec4 mgl_pix_org;\nuniform float mgl_pix_z;\nuniform sampler2D mgl_pix_img;\n";
    o << "out vec4 mgl_frag;\nvoid main() {\n    vec4 c = "
      << (k.two_side ? "gl_FrontFacing ? mgl_col0 : mgl_bcol0" : "mgl_col0") << ";\n";
    if (k.pixel) {
        // the image's pixel under this fragment: zoomed pixel (i, j) covers
        // [x + zx i, x + zx (i + 1)) (GL 2.1 §3.6.4), zoom negative included
        o << "    ivec2 ip = ivec2(floor((gl_FragCoord.xy - mgl_pix_org.xy) / mgl_pix_org.zw));\n"
          << "    vec4 img = texelFetch(mgl_pix_img, clamp(ip, ivec2(0), textureSize(mgl_pix_img, 0) - 1), 0);\n";
        if (k.pixel == kPixelColor) o << "    c = img;\n";
        if (k.pixel == kPixelBitmap) o << "    if (img.r < 0.5) discard;\n";
        o << "    gl_FragDepth = " << (k.pixel == kPixelDepth ? "img.r" : "mgl_pix_z") << ";\n";
    }
    // every unit's sample first: GL_COMBINE may read another unit's (crossbar)
    if (k.tex_enabled) o << "    vec4 primary = c;\n";
    for (int u = 0; u < kMaxTexUnits; ++u) {
        if (!(k.tex_enabled & (1 << u))) continue;
        const int sprite = (k.sprite >> u) & 1 ? 1 + k.sprite_lower_left : 0;
        if ((k.tex_shadow >> u) & 1) {
            // GL_ARB_shadow: r / q compared with the texel, clamped to [0, 1]
            // for a fixed-point depth format (the host may store the texture
            // as a float one); the result is the texel the depth texture
            // mode's base format reads (tex_format)
            const std::string tc = texture_coords(u, sprite);
            const std::string ref = (k.tex_shadow_float >> u) & 1 ? tc + ".z / " + tc + ".w"
                                                                  : "clamp(" + tc + ".z / " + tc + ".w, 0.0, 1.0)";
            const std::string at = k.tex_target[size_t(u)] == kTex1D ? tc + ".x / " + tc + ".w, 0.0" : tc + ".xy / " + tc + ".w";
            o << "    vec4 t" << u << " = vec4(texture(mgl_tex" << u << ", vec3(" << at << ", " << ref << ")));\n";
            continue;
        }
        o << "    vec4 t" << u << " = texture(mgl_tex" << u << ", " << sample_coords(k.tex_target[size_t(u)], u, sprite)
          << ");\n";
    }
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (k.tex_enabled & (1 << u)) o << texenv_fragment(k, u);
    if (k.separate_specular && k.lighting)
        o << "    c.rgb = c.rgb + " << (k.two_side ? "(gl_FrontFacing ? mgl_col1 : mgl_bcol1)" : "mgl_col1") << ".rgb;\n";
    if (k.fog) {
        // mgl_fog_params: linear: (-1/(end-start), end/(end-start)); exp/exp2: density
        if (k.fog == 1) o << "    float f = clamp(mgl_fogc * mgl_fog_params.x + mgl_fog_params.y, 0.0, 1.0);\n";
        else if (k.fog == 2) o << "    float f = clamp(exp(-mgl_fog_params.z * mgl_fogc), 0.0, 1.0);\n";
        else o << "    float f = clamp(exp(-(mgl_fog_params.z * mgl_fogc) * (mgl_fog_params.z * mgl_fogc)), 0.0, 1.0);\n";
        o << "    c.rgb = mix(mgl_fog_color.rgb, c.rgb, f);\n";
    }
    if (k.alpha_test == 1) o << "    discard;\n";  // GL_NEVER
    else if (k.alpha_test) o << "    if (!(c.a " << kAlphaOps[k.alpha_test - 1] << " mgl_alpha_ref)) discard;\n";
    o << "    mgl_frag = c;\n}\n";
    return o.str();
}

}  // namespace mgl::client::compat
