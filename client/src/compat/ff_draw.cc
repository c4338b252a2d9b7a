// Fixed-function draws: the state key, the program cache, the uniforms, and
// the vertex arrays of a lowered draw (immediate mode and display lists).
//
// A lowered draw binds a vertex array object of the lowering's own (one for
// immediate mode, one per display-list primitive), so the application's
// vertex array state on the server is never touched; it puts the
// application's binding back afterwards. The program stays bound on the
// server while the application has none (the application's glUseProgram
// replaces it, and the shadow always answers the application's own).
// GL_QUADS, GL_QUAD_STRIP and GL_POLYGON are drawn as triangles through an
// index pattern (one buffer per kind, grown when needed, never re-sent), with
// the triangles Mesa's draw module makes of them, so that flat shading takes
// GL's provoking vertex (the last, the first for a polygon) and the
// rasterised pixels match.
#include <cmath>
#include <cstring>

#include "compat/ff.h"
#include "compat/program_builtins.h"
#include "custom/common.h"

namespace mgl::client::compat {

namespace {

constexpr GLenum kQuads = 0x0007, kQuadStrip = 0x0008, kPolygon = 0x0009;

void normalize3(float* v) {
    const float len = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (len) {
        const float inv = 1.0F / sqrtf(len);
        v[0] = v[0] * inv, v[1] = v[1] * inv, v[2] = v[2] * inv;
    }
}

// A pixel rectangle's key: only the fragment state applies to it (its
// colour, texture coordinates and fog distance are the raster position's).
Key pixel_key(const FixedFunction& f) {
    Key k;
    k.pixel = f.pixel.kind;
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (const uint8_t target = sampled_target(f.texture_enables[u])) {
            k.tex_enabled |= 1 << u, k.tex_env[u] = uint16_t(f.tex_env[u].mode), k.tex_combine[u] = combine_key(f.tex_env[u]);
            k.tex_target[u] = target;
        }
    if (f.alpha_test && f.alpha_func != 0x0207) k.alpha_test = uint8_t(f.alpha_func - 0x0200 + 1);
    if (f.fog) k.fog = f.fog_mode == 0x2601 ? 1 : f.fog_mode == 0x0800 ? 2 : 3;
    return k;
}

Key make_key(Context& ctx, FixedFunction& f, const Layout& l, bool points) {
    if (f.pixel.kind != kPixelNone) return pixel_key(f);
    Key k;
    k.flat = f.shade_model == 0x1D00;  // GL_FLAT
    k.color_array = l.size[kColor] > 0;
    if (f.lighting) {
        k.lighting = 1;
        for (int i = 0; i < kMaxLights; ++i) {
            const Light& li = f.lights[i];
            if (!li.enabled) continue;
            k.lights |= 1 << i;
            if (li.position[3] != 0.0F) k.positional |= 1 << i;
            if (li.att[0] != 1.0F || li.att[1] != 0.0F || li.att[2] != 0.0F) k.attenuated |= 1 << i;
            if (li.spot_cutoff != 180.0F) k.spot |= 1 << i;
        }
        k.normalize = f.normalize;
        k.rescale = f.rescale;
        k.local_viewer = f.local_viewer;
        k.separate_specular = f.separate_specular;
        uint8_t cm = 0;
        if (f.color_material) {
            switch (f.color_material_mode) {
                case 0x1200: cm = 1; break;      // GL_AMBIENT
                case 0x1201: cm = 2; break;      // GL_DIFFUSE
                case 0x1202: cm = 4; break;      // GL_SPECULAR
                case 0x1600: cm = 8; break;      // GL_EMISSION
                default: cm = 1 | 2; break;      // GL_AMBIENT_AND_DIFFUSE
            }
        }
        // the faces the colour follows (GL_FRONT, GL_BACK, GL_FRONT_AND_BACK)
        k.color_material = f.color_material_face != 0x0405 ? cm : 0;
        k.shininess_zero = f.front.shininess == 0.0F;
        if (f.two_side) {
            k.two_side = 1;
            k.back_color_material = f.color_material_face != 0x0404 ? cm : 0;
            k.back_shininess_zero = f.back.shininess == 0.0F;
        }
        k.need_eye = k.positional || k.local_viewer || !f.top(0).length_preserving();
    }
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (const uint8_t target = sampled_target(f.texture_enables[u])) {
            k.tex_enabled |= 1 << u, k.tex_env[u] = uint16_t(f.tex_env[u].mode), k.tex_combine[u] = combine_key(f.tex_env[u]);
            k.tex_target[u] = target;
            k.tex_format[u] = bound_tex_format(ctx, f, u, target);
            if (bool floating = false; bound_tex_compares(ctx, f, u, target, &floating)) {
                k.tex_shadow |= uint8_t(1 << u);
                if (floating) k.tex_shadow_float |= uint8_t(1 << u);
            }
        }
    for (int u = 0; u < kMaxTexUnits; ++u) {
        if (!(k.tex_enabled & (1 << u))) continue;
        for (int c = 0; c < 4; ++c) {
            if (!(f.texgen_enabled[size_t(u)] & (1 << c))) continue;
            const GLenum m = f.texgen[size_t(u)][size_t(c)].mode;
            const int code = m == 0x2401 ? 1 : m == 0x2400 ? 2 : m == 0x2402 ? 3 : m == 0x8511 ? 4 : 5;
            k.texgen[size_t(u)] = uint16_t(k.texgen[size_t(u)] | (code << (3 * c)));
        }
    }
    if (points && f.point_sprite) {
        for (int u = 0; u < kMaxTexUnits; ++u)
            if ((k.tex_enabled & (1 << u)) && f.tex_env[size_t(u)].coord_replace) k.sprite |= uint8_t(1 << u);
        k.sprite_lower_left = k.sprite && f.point_lower_left;
    }
    k.point_params = points && point_params_set(f);
    k.point_round = points && !f.point_sprite;
    k.clip = f.clip_enabled;
    if (f.alpha_test && f.alpha_func != 0x0207) k.alpha_test = uint8_t(f.alpha_func - 0x0200 + 1);
    if (f.fog) k.fog = f.fog_mode == 0x2601 ? 1 : f.fog_mode == 0x0800 ? 2 : 3;  // GL_LINEAR, GL_EXP, GL_EXP2
    k.zoff = f.zoff != 0.0F;
    (void)ctx;
    return k;
}

uint32_t compile(Context& ctx, GLenum stage, const std::string& src) {
    const uint32_t sh = mgl_glCreateShader(stage);
    const char* s = src.c_str();
    mgl_glShaderSource(sh, 1, &s, nullptr);
    mgl_glCompileShader(sh);
    (void)ctx;
    return sh;
}

Program& program_for(Context& ctx, FixedFunction& f, const Key& k) {
    for (auto& [key, p] : f.programs)
        if (key == k) return *p;
    auto p = std::make_unique<Program>();
    const uint32_t vs = compile(ctx, GL_VERTEX_SHADER, vertex_source(k));
    const uint32_t fs = compile(ctx, GL_FRAGMENT_SHADER, fragment_source(k));
    p->name = mgl_glCreateProgram();
    mgl_glAttachShader(p->name, vs);
    mgl_glAttachShader(p->name, fs);
    for (int a = 0; a < kAttrCount; ++a) mgl_glBindAttribLocation(p->name, GLuint(a), kAttrNames[size_t(a)]);
    mgl_glLinkProgram(p->name);
    mgl_glDeleteShader(vs);
    mgl_glDeleteShader(fs);
    GLint ok = 0;
    mgl_glGetProgramiv(p->name, GL_LINK_STATUS, &ok);
    if (!ok && first_time("ff-link")) {
        char logbuf[2048] = {};
        mgl_glGetProgramInfoLog(p->name, sizeof logbuf, nullptr, logbuf);
        log().error("fixed-function program failed to link (a lowering bug): {}", logbuf);
    }
    ++f.generations;
    f.programs.emplace_back(k, std::move(p));
    return *f.programs.back().second;
}

int loc(Program& p, const char* name) {
    auto it = p.loc.find(name);
    if (it != p.loc.end()) return it->second;
    const int l = mgl_glGetUniformLocation(p.name, name);
    p.loc.emplace(name, l);
    return l;
}

// Sends a uniform when its value differs from what the program has.
void uni(Context& ctx, Program& p, const char* name, const float* v, int n) {
    const int l = loc(p, name);
    if (l < 0) return;
    auto& sent = p.sent[l];
    if (sent.size() == size_t(n) && std::memcmp(sent.data(), v, size_t(n) * 4) == 0) return;
    sent.assign(v, v + n);
    gen::Encoder& e = *ctx.enc;
    const wire::Blob b{v, uint32_t(n * 4)};
    switch (n) {
        case 1: e.glUniform1fv(l, 1, b); break;
        case 2: e.glUniform2fv(l, 1, b); break;
        case 3: e.glUniform3fv(l, 1, b); break;
        case 4: e.glUniform4fv(l, 1, b); break;
        case 16: e.glUniformMatrix4fv(l, 1, GL_FALSE, b); break;
        case 9: e.glUniformMatrix3fv(l, 1, GL_FALSE, b); break;
        default: break;
    }
}

void uni_int(Context& ctx, Program& p, const char* name, int v) {
    const int l = loc(p, name);
    if (l < 0) return;
    auto& sent = p.sent[l];
    const float fv = float(v);
    if (sent.size() == 1 && sent[0] == fv) return;
    sent.assign(1, fv);
    ctx.enc->glUniform1i(l, v);
}

// The uniforms of the fragment stage's texture environments, alpha test and fog.
void fragment_uniforms(Context& ctx, FixedFunction& f, Program& p, const Key& k) {
    for (int u = 0; u < kMaxTexUnits; ++u) {
        if (!(k.tex_enabled & (1 << u))) continue;
        uni_int(ctx, p, ("mgl_tex" + std::to_string(u)).c_str(), u);
        if (k.tex_env[u] == 0x0BE2 || k.tex_env[u] == 0x8570) {  // GL_BLEND, GL_COMBINE
            float color[4], scales[2];
            texenv_values(f, u, color, scales);
            uni(ctx, p, ("mgl_envc" + std::to_string(u)).c_str(), color, 4);
            if (k.tex_env[u] == 0x8570) uni(ctx, p, ("mgl_envs" + std::to_string(u)).c_str(), scales, 2);
        }
    }
    if (k.alpha_test) uni(ctx, p, "mgl_alpha_ref", &f.alpha_ref, 1);
    if (k.fog) {
        uni(ctx, p, "mgl_fog_color", f.fog_color, 4);
        const float range = f.fog_end - f.fog_start;
        const float lin = range == 0 ? 1.0F : -1.0F / range;
        const float params[4] = {lin, f.fog_end * -lin, f.fog_density, 0};
        uni(ctx, p, "mgl_fog_params", params, 4);
    }
}

void pixel_uniforms(Context& ctx, FixedFunction& f, Program& p, const Key& k) {
    const Raster& r = f.raster;
    uni(ctx, p, "mgl_pix_org", f.pixel.origin, 4);
    uni(ctx, p, "mgl_pix_z", &f.pixel.z, 1);
    uni(ctx, p, "mgl_pix_col", r.color, 4);
    uni_int(ctx, p, "mgl_pix_img", f.pixel.unit);
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (k.tex_enabled & (1 << u)) uni(ctx, p, ("mgl_pix_tc" + std::to_string(u)).c_str(), r.tex[size_t(u)].data(), 4);
    if (k.fog) uni(ctx, p, "mgl_pix_dist", &r.distance, 1);
    fragment_uniforms(ctx, f, p, k);
}

void set_uniforms(Context& ctx, FixedFunction& f, Program& p, const Key& k) {
    if (k.pixel) return pixel_uniforms(ctx, f, p, k);
    const Mat& mv = f.top(0);
    float mvp[16];
    mat_mul(mvp, f.top(1).m, mv.m);
    uni(ctx, p, "mgl_mvp", mvp, 16);
    if (k.zoff) uni(ctx, p, "mgl_zoff", &f.zoff, 1);
    uni(ctx, p, "mgl_point_size", &f.point_size, 1);
    if (k.point_round) {
        const float vp[4] = {float(ctx.st.viewport[0]), float(ctx.st.viewport[1]), float(ctx.st.viewport[2]),
                             float(ctx.st.viewport[3])};
        uni(ctx, p, "mgl_viewport", vp, 4);
    }
    if (k.point_params) {
        const float range[2] = {f.point_size_min, f.point_size_max < 0 ? max_point_size(ctx) : f.point_size_max};
        uni(ctx, p, "mgl_point_atten", f.point_attenuation, 3);
        uni(ctx, p, "mgl_point_range", range, 2);
    }
    if (key_needs_eye(k)) uni(ctx, p, "mgl_mv", mv.m, 16);
    if (key_needs_eye_normal(k)) {
        float inv[16], n[9];
        mv.inverse(inv);
        for (int c = 0; c < 3; ++c)  // the normal matrix: transpose of the inverse's upper 3x3
            for (int r = 0; r < 3; ++r) n[c * 3 + r] = inv[r * 4 + c];
        uni(ctx, p, "mgl_nmat", n, 9);
    }
    for (int u = 0; u < kMaxTexUnits; ++u)
        for (int c = 0; c < 4; ++c) {
            const int code = (k.texgen[size_t(u)] >> (3 * c)) & 7;
            if (code != 1 && code != 2) continue;
            const TexGen& g = f.texgen[size_t(u)][size_t(c)];
            const std::string n = "mgl_tg" + std::to_string(u) + "_" + std::to_string(c);
            uni(ctx, p, n.c_str(), code == 1 ? g.object : g.eye, 4);
        }
    for (int i = 0; i < kMaxClipPlanes; ++i)
        if (k.clip & (1 << i)) uni(ctx, p, ("mgl_clip" + std::to_string(i)).c_str(), f.clip_planes[size_t(i)].data(), 4);
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (k.tex_enabled & (1 << u)) uni(ctx, p, ("mgl_texmat" + std::to_string(u)).c_str(), f.top(2 + u).m, 16);
    fragment_uniforms(ctx, f, p, k);
    if (!k.lighting) return;
    float inv[16];
    mv.inverse(inv);
    if (k.need_eye) {
        const float r0[3] = {inv[0], inv[1], inv[2]}, r1[3] = {inv[4], inv[5], inv[6]}, r2[3] = {inv[8], inv[9], inv[10]};
        uni(ctx, p, "mgl_nrow0", r0, 3);
        uni(ctx, p, "mgl_nrow1", r1, 3);
        uni(ctx, p, "mgl_nrow2", r2, 3);
    }
    {
        // Mesa's _ModelViewInvScale: rescales normals in the space lighting runs in
        const float* m = mv.m;
        float s = m[2] * m[2] + m[6] * m[6] + m[10] * m[10];
        if (s < 1e-12F) s = 1.0F;
        const float scale = k.need_eye ? 1.0F / sqrtf(s) : sqrtf(s);
        uni(ctx, p, "mgl_nscale", &scale, 1);
    }
    // Per face: the scene colour, the material where colour material reads
    // it, the shininess ("mgl_" front, "mgl_b" back).
    auto face = [&](const Material& mat, const std::string& pre, uint8_t cm, bool shininess_zero) {
        float scene[4];
        for (int i = 0; i < 3; ++i) scene[i] = f.light_model_ambient[i] * mat.ambient[i] + mat.emission[i];
        scene[3] = mat.diffuse[3];
        uni(ctx, p, (pre + "scene").c_str(), scene, 4);
        if (cm) {
            uni(ctx, p, "mgl_lm_ambient", f.light_model_ambient, 4);
            uni(ctx, p, (pre + "mat_ambient").c_str(), mat.ambient, 4);
            uni(ctx, p, (pre + "mat_diffuse").c_str(), mat.diffuse, 4);
            uni(ctx, p, (pre + "mat_specular").c_str(), mat.specular, 4);
            uni(ctx, p, (pre + "mat_emission").c_str(), mat.emission, 4);
        }
        if (!shininess_zero) uni(ctx, p, (pre + "shininess").c_str(), &mat.shininess, 1);
    };
    face(f.front, "mgl_", k.color_material, k.shininess_zero);
    if (k.two_side) face(f.back, "mgl_b", k.back_color_material, k.back_shininess_zero);
    for (int i = 0; i < kMaxLights; ++i) {
        if (!(k.lights & (1 << i))) continue;
        const Light& li = f.lights[i];
        const std::string L = "mgl_l" + std::to_string(i);
        float pos[4];
        if (k.need_eye) {
            std::memcpy(pos, li.position, sizeof pos);
        } else {  // object space (Mesa's TRANSFORM_POINT by the inverse modelview)
            const float* P = li.position;
            for (int r = 0; r < 4; ++r) pos[r] = inv[r] * P[0] + inv[4 + r] * P[1] + inv[8 + r] * P[2] + inv[12 + r] * P[3];
        }
        const bool positional = k.positional & (1 << i);
        if (!positional) normalize3(pos);
        uni(ctx, p, (L + "_pos").c_str(), pos, 4);
        auto prod = [&](uint8_t cm, int bit, const float* light, const float* m, const char* suffix) {
            float v[4];
            if (cm & bit) std::memcpy(v, light, sizeof v);
            else {
                for (int c = 0; c < 3; ++c) v[c] = light[c] * m[c];
                v[3] = m[3];
            }
            uni(ctx, p, (L + suffix).c_str(), v, 4);
        };
        prod(k.color_material, 1, li.ambient, f.front.ambient, "_amb");
        prod(k.color_material, 2, li.diffuse, f.front.diffuse, "_dif");
        prod(k.color_material, 4, li.specular, f.front.specular, "_spe");
        if (k.two_side) {
            prod(k.back_color_material, 1, li.ambient, f.back.ambient, "_bamb");
            prod(k.back_color_material, 2, li.diffuse, f.back.diffuse, "_bdif");
            prod(k.back_color_material, 4, li.specular, f.back.specular, "_bspe");
        }
        const float att[4] = {li.att[0], li.att[1], li.att[2], li.spot_exp};
        uni(ctx, p, (L + "_att").c_str(), att, 4);
        if (k.spot & (1 << i)) {
            float sd[4] = {li.spot_dir[0], li.spot_dir[1], li.spot_dir[2], 0};
            normalize3(sd);
            sd[3] = cosf(float(li.spot_cutoff * M_PI / 180.0));
            uni(ctx, p, (L + "_spot").c_str(), sd, 4);
        }
        if (!k.shininess_zero && !positional) {
            float h[4] = {pos[0], pos[1], pos[2], 1};
            normalize3(h);  // already normalised: Mesa normalises _Position again
            h[2] += 1.0F;
            normalize3(h);
            h[3] = 1;
            uni(ctx, p, (L + "_half").c_str(), h, 4);
        }
    }
}

// Mesa splits a smooth-shaded quad on the 0-2 diagonal, (0,1,2)(0,2,3) (the
// interpolated values follow the diagonal); a flat-shaded one as (0,1,3)(1,2,3),
// so that the last vertex, GL's provoking vertex, ends both triangles (the
// covered pixels are the same either way).
// Under GL_FIRST_VERTEX_CONVENTION the server turns every triangle round so
// that its first vertex ends it (backends/gl/state/provoking.h: (a,b,c) ->
// (b,c,a)), and GL provokes a quad and a quad strip's quad by its first
// vertex (GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION is true), a polygon by
// vertex 0 in both conventions: the patterns then START with that vertex.
enum Pattern {
    kPatFlatQuads,        // (0,1,3)(1,2,3)
    kPatQuadStrip,        // (2,0,3)(0,1,3)
    kPatPolygon,          // (i+1,i+2,0)
    kPatSmoothQuads,      // (0,1,2)(0,2,3); flat quads under the first convention too
    kPatQuadStripFirst,   // (0,1,3)(0,3,2)
    kPatPolygonFirst,     // (0,i+1,i+2)
    kPatCount,
};
static_assert(kPatCount == std::tuple_size_v<decltype(FixedFunction::pattern_buffer)>);

int pattern_kind(GLenum mode, bool flat, bool first) {
    if (mode == kQuads) return flat && !first ? kPatFlatQuads : kPatSmoothQuads;
    if (mode == kQuadStrip) return first ? kPatQuadStripFirst : kPatQuadStrip;
    if (mode == kPolygon) return first ? kPatPolygonFirst : kPatPolygon;
    return -1;
}

int64_t pattern_indices(int kind, int count) {
    if (kind == kPatFlatQuads || kind == kPatSmoothQuads) return int64_t(count / 4) * 6;
    if (kind == kPatQuadStrip || kind == kPatQuadStripFirst) return count >= 4 ? int64_t((count - 2) / 2) * 6 : 0;
    return count >= 3 ? int64_t(count - 2) * 3 : 0;
}

// Appends the triangles of pattern `kind` over the vertices I(0)..I(n-1).
template <typename F>
void append_pattern(int kind, int n, F I, std::vector<uint32_t>& out) {
    switch (kind) {
        case kPatFlatQuads:
            for (int i = 0; i + 3 < n; i += 4) out.insert(out.end(), {I(i), I(i + 1), I(i + 3), I(i + 1), I(i + 2), I(i + 3)});
            break;
        case kPatSmoothQuads:
            for (int i = 0; i + 3 < n; i += 4) out.insert(out.end(), {I(i), I(i + 1), I(i + 2), I(i), I(i + 2), I(i + 3)});
            break;
        case kPatQuadStrip:
            for (int i = 0; i + 3 < n; i += 2) out.insert(out.end(), {I(i + 2), I(i), I(i + 3), I(i), I(i + 1), I(i + 3)});
            break;
        case kPatQuadStripFirst:
            for (int i = 0; i + 3 < n; i += 2) out.insert(out.end(), {I(i), I(i + 1), I(i + 3), I(i), I(i + 3), I(i + 2)});
            break;
        case kPatPolygon:
            for (int i = 0; i + 2 < n; ++i) out.insert(out.end(), {I(i + 1), I(i + 2), I(0)});
            break;
        case kPatPolygonFirst:
            for (int i = 0; i + 2 < n; ++i) out.insert(out.end(), {I(0), I(i + 1), I(i + 2)});
            break;
        default: break;
    }
}

// Binds the index pattern of `kind` (covering `count` vertices) to the bound
// vertex array object.
void bind_pattern(Context& ctx, FixedFunction& f, int kind, int count) {
    gen::Encoder& e = *ctx.enc;
    if (!f.pattern_buffer[kind]) {
        f.pattern_buffer[kind] = mint_one(ctx, MintKind::buffer);
        e.glGenBuffers(1, wire::Blob{&f.pattern_buffer[kind], 4});
    }
    e.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, f.pattern_buffer[kind]);
    if (count <= f.pattern_count[kind]) return;
    int n = std::max(count, 1024);
    while (n < count) n *= 2;
    std::vector<uint32_t> idx;
    idx.reserve(size_t(pattern_indices(kind, n)));
    append_pattern(kind, n, [](int i) { return uint32_t(i); }, idx);
    e.glBufferData(GL_ELEMENT_ARRAY_BUFFER, int64_t(idx.size() * 4), wire::Blob{idx.data(), uint32_t(idx.size() * 4)},
                   GL_STATIC_DRAW);
    f.pattern_count[kind] = n;
}

// The attribute arrays of layout `l` at `base` in the buffer bound to GL_ARRAY_BUFFER.
void point_attribs(Context& ctx, const Layout& l, int64_t base, uint32_t* enabled) {
    gen::Encoder& e = *ctx.enc;
    for (int a = 0; a < std::max<int>(kAttrCount, kMaxGeneric); ++a) {
        const bool generic = a < kMaxGeneric && (l.generic & (1u << a));
        const bool on = generic || (a < kAttrCount && l.size[a] > 0);
        if (on)
            e.glVertexAttribPointer(GLuint(a), generic ? 4 : l.size[a], GL_FLOAT, GL_FALSE, l.stride,
                                    wire::OffsetOrBlob{uint64_t(base + (generic ? l.generic_offset[a] : l.offset[a])),
                                                       nullptr, 0});
        if (on != bool(*enabled & (1u << a))) {
            if (on) e.glEnableVertexAttribArray(GLuint(a));
            else e.glDisableVertexAttribArray(GLuint(a));
            *enabled ^= 1u << a;
        }
    }
}

// The current values of the attributes a draw takes no array for.
void send_current(Context& ctx, FixedFunction& f, const Layout& l) {
    for (int a = 0; a < kAttrCount; ++a) {
        if (l.size[a] > 0) {
            f.sent_current_valid &= ~(1u << a);  // the array overwrote nothing, but keep it simple
            continue;
        }
        if ((f.sent_current_valid & (1u << a)) && f.sent_current[a] == f.current[a]) continue;
        ctx.enc->glVertexAttrib4fv(GLuint(a), wire::Blob{f.current[a].data(), 16});
        f.sent_current[a] = f.current[a];
        f.sent_current_valid |= 1u << a;
        f.generic_clobbered |= 1u << a;
    }
}

// Binds the program for the current state, for primitives of `mode` (points
// may be sprites); false if nothing may be drawn.
Program* prepare(Context& ctx, FixedFunction& f, const Layout& l, Key* key, GLenum mode) {
    *key = make_key(ctx, f, l, mode == GL_POINTS);
    Program& p = program_for(ctx, f, *key);
    if (f.server_program != p.name) {
        ctx.enc->glUseProgram(p.name);
        f.server_program = p.name;
    }
    set_uniforms(ctx, f, p, *key);
    send_current(ctx, f, l);
    return &p;
}

bool flat(const FixedFunction& f) { return f.shade_model == 0x1D00; }

int pattern_for(const Context& ctx, const FixedFunction& f, GLenum mode) {
    return pattern_kind(mode, flat(f), ctx.st.provoking_first);
}

// 32-bit indices at `offset` of the bound element buffer, `instances` times.
void draw_indexed(Context& ctx, GLenum mode, GLsizei n, uint64_t offset, int instances) {
    const wire::OffsetOrBlob at{offset, nullptr, 0};
    if (instances == 1) ctx.enc->glDrawElements(mode, n, GL_UNSIGNED_INT, at);
    else ctx.enc->glDrawElementsInstanced(mode, n, GL_UNSIGNED_INT, at, instances);
}

void issue(Context& ctx, FixedFunction& f, GLenum mode, int count, int instances) {
    const int kind = pattern_for(ctx, f, mode);
    if (kind < 0) {
        if (instances == 1) ctx.enc->glDrawArrays(mode, 0, count);
        else ctx.enc->glDrawArraysInstanced(mode, 0, count, instances);
        return;
    }
    const int64_t n = pattern_indices(kind, count);
    if (n <= 0) return;
    bind_pattern(ctx, f, kind, count);
    draw_indexed(ctx, GL_TRIANGLES, GLsizei(n), 0, instances);
}



}  // namespace

int FixedFunction::current_stack() const {
    if (matrix_mode == 0x1700) return 0;  // GL_MODELVIEW
    if (matrix_mode == 0x1701) return 1;  // GL_PROJECTION
    return 2 + int(active_texture - 0x84C0);
}

FixedFunction::FixedFunction() {
    for (auto& s : stacks) s.assign(1, Mat{});
    lights[0].diffuse[0] = lights[0].diffuse[1] = lights[0].diffuse[2] = 1;
    lights[0].specular[0] = lights[0].specular[1] = lights[0].specular[2] = 1;
    for (auto& c : current) c = {0, 0, 0, 1};
    for (auto& g : generic) g = {0, 0, 0, 1};
    current[kNormal] = {0, 0, 1, 1};
    current[kColor] = {1, 1, 1, 1};
    for (auto& unit : texgen) {  // GL's initial planes: s = (1, 0, 0, 0), t = (0, 1, 0, 0)
        unit[0].object[0] = unit[0].eye[0] = 1;
        unit[1].object[1] = unit[1].eye[1] = 1;
    }
}

FixedFunction* ff(Context& ctx) {
    if (!ctx.ff) {
        if (ctx.api_kind != gen::ApiKind::compat) return nullptr;
        ctx.ff = std::make_unique<FixedFunction>();
    }
    return ctx.ff.get();
}

bool app_program_bound(const Context& ctx) { return ctx.st.program != 0 || ctx.st.pipeline != 0; }

bool ff_active(Context& ctx) { return !app_program_bound(ctx) && ff(ctx) != nullptr; }

void begin_draw(Context& ctx, FixedFunction& f) {
    gen::Encoder& e = *ctx.enc;
    if (!f.imm_vao) {
        f.imm_vao = mint_one(ctx, MintKind::vertex_array);
        e.glGenVertexArrays(1, wire::Blob{&f.imm_vao, 4});
    }
    e.glBindVertexArray(f.imm_vao);
}

void finish_draw(Context& ctx, FixedFunction& f, GLenum mode, const Layout& l, int count,
                 const std::vector<uint32_t>* indices, int instances) {
    gen::Encoder& e = *ctx.enc;
    Key key;
    if (!app_program_bound(ctx)) prepare(ctx, f, l, &key, mode);
    else upload_program_builtins(ctx, &l);
    if (!indices) {
        issue(ctx, f, mode, count, instances);
    } else {
        // Element draws of quads and polygons: the pattern applied to the indices.
        const int kind = pattern_for(ctx, f, mode);
        std::vector<uint32_t> tri;
        const std::vector<uint32_t>* use = indices;
        if (kind >= 0) {
            const auto& I = *indices;
            append_pattern(kind, count, [&I](int i) { return I[size_t(i)]; }, tri);
            use = &tri;
            mode = GL_TRIANGLES;
        }
        if (!use->empty()) {
            const int64_t off = stream_upload(ctx, use->data(), int64_t(use->size() * 4));
            e.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ctx.vertex_stream.name);
            draw_indexed(ctx, mode, GLsizei(use->size()), uint64_t(off), instances);
        }
    }
    if (f.imm_generic) {  // the application's generic arrays leave the lowering's vertex array object
        for (GLuint i = 0; i < 32; ++i) {
            if (!(f.imm_generic & (1u << i))) continue;
            e.glDisableVertexAttribArray(i);
            e.glVertexAttribDivisor(i, 0);
        }
        f.imm_enabled &= ~f.imm_generic;  // a location the lowering shares is pointed again at its next draw
        f.imm_generic = 0;
    }
    e.glBindVertexArray(ctx.st.vao_name());
    e.glBindBuffer(GL_ARRAY_BUFFER, ctx.st.bound_buffer(GL_ARRAY_BUFFER));
}

void draw_pixel_rect(Context& ctx, FixedFunction& f, float x0, float y0, float x1, float y1) {
    gen::Encoder& e = *ctx.enc;
    // Pixel rectangles are not clipped to the viewport (only to the window and
    // the scissor box): the rectangle is drawn through a viewport larger than
    // any window, a power of two so that window coordinates map exactly.
    constexpr float kV = 8192;
    auto ndc = [](float w) { return w * (2.0F / kV) - 1.0F; };
    const float v[16] = {ndc(x0), ndc(y0), 0, 1, ndc(x1), ndc(y0), 0, 1, ndc(x1), ndc(y1), 0, 1, ndc(x0), ndc(y1), 0, 1};
    Layout l;
    l.size[kPos] = 4;
    l.stride = 16;
    begin_draw(ctx, f);
    const int64_t off = stream_upload(ctx, v, sizeof v);
    point_attribs(ctx, l, off, &f.imm_enabled);
    Key key;
    prepare(ctx, f, l, &key, GL_TRIANGLE_FAN);  // the lowering's program even while the application has one (a known gap)
    e.glViewport(0, 0, GLsizei(kV), GLsizei(kV));
    bool cull = false;  // a negative zoom turns the rectangle round; GL culls no pixel rectangle
    ctx.st.cap(GL_CULL_FACE, &cull);
    if (cull) e.glDisable(GL_CULL_FACE);
    e.glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    if (cull) e.glEnable(GL_CULL_FACE);
    e.glViewport(ctx.st.viewport[0], ctx.st.viewport[1], ctx.st.viewport[2], ctx.st.viewport[3]);
    if (app_program_bound(ctx)) {
        e.glUseProgram(ctx.st.program);
        f.server_program = 0;
    }
    e.glBindVertexArray(ctx.st.vao_name());
    e.glBindBuffer(GL_ARRAY_BUFFER, ctx.st.bound_buffer(GL_ARRAY_BUFFER));
}

void draw_packed(Context& ctx, GLenum mode, const Layout& l, const uint8_t* data, int count, const uint8_t* edges) {
    FixedFunction& f = *ff(ctx);
    if (!app_program_bound(ctx) && unfilled(f, mode)) return draw_unfilled(ctx, f, mode, l, data, count, edges, nullptr);
    // An application's program reads the built-ins it has at their locations
    // (the shader front end gives them the lowering's); its own attributes
    // may sit where the others would go.
    Layout use = l;
    if (app_program_bound(ctx)) {
        const uint32_t reads = program_builtin_attribs(ctx);
        for (int a = 1; a < kAttrCount; ++a)
            if (!(reads & (1u << a))) use.size[size_t(a)] = 0;
    }
    begin_draw(ctx, f);
    const int64_t off = stream_upload(ctx, data, int64_t(l.stride) * count);  // leaves the stream bound to GL_ARRAY_BUFFER
    point_attribs(ctx, use, off, &f.imm_enabled);
    finish_draw(ctx, f, mode, use, count, nullptr);
}

void draw_batches(Context& ctx, FixedFunction& f, const Layout& l, const uint8_t* data, int vertices,
                  const std::vector<Batch>& batches) {
    if (batches.empty()) return;
    gen::Encoder& e = *ctx.enc;
    begin_draw(ctx, f);
    const int64_t off = stream_upload(ctx, data, int64_t(l.stride) * vertices);
    point_attribs(ctx, l, off, &f.imm_enabled);
    for (const Batch& b : batches) {
        f.zoff = b.zoff;
        Key key;
        prepare(ctx, f, l, &key, b.prim);
        e.glDrawArrays(b.prim, b.first, b.count);
    }
    f.zoff = 0;
    e.glBindVertexArray(ctx.st.vao_name());
    e.glBindBuffer(GL_ARRAY_BUFFER, ctx.st.bound_buffer(GL_ARRAY_BUFFER));
}

void upload_list(Context& ctx, DisplayList& dl) {
    if (dl.draws.empty()) return;
    FixedFunction& f = *ff(ctx);
    gen::Encoder& e = *ctx.enc;
    std::vector<uint8_t> all;
    for (auto& d : dl.draws) {
        while (all.size() % 16) all.push_back(0);
        d->offset = int64_t(all.size());
        all.insert(all.end(), d->data.begin(), d->data.end());
    }
    dl.buffer = mint_one(ctx, MintKind::buffer);
    e.glGenBuffers(1, wire::Blob{&dl.buffer, 4});
    e.glBindBuffer(GL_ARRAY_BUFFER, dl.buffer);
    e.glBufferData(GL_ARRAY_BUFFER, int64_t(all.size()), wire::Blob{all.data(), uint32_t(all.size())}, GL_STATIC_DRAW);
    for (auto& d : dl.draws) {
        d->vao = mint_one(ctx, MintKind::vertex_array);
        e.glGenVertexArrays(1, wire::Blob{&d->vao, 4});
        e.glBindVertexArray(d->vao);
        uint32_t enabled = 0;
        point_attribs(ctx, d->layout, d->offset, &enabled);
        const int kind = pattern_for(ctx, f, d->mode);
        if (kind >= 0) bind_pattern(ctx, f, kind, d->count);
        // polygons keep a copy for glPolygonMode GL_LINE/GL_POINT at glCallList time
        if (d->mode >= GL_TRIANGLES && d->mode <= kPolygon) d->cpu = std::move(d->data);
        d->data.clear();
        d->data.shrink_to_fit();
    }
    e.glBindVertexArray(ctx.st.vao_name());
    e.glBindBuffer(GL_ARRAY_BUFFER, ctx.st.bound_buffer(GL_ARRAY_BUFFER));
}

void draw_list(Context& ctx, ListDraw& d) {
    FixedFunction& f = *ff(ctx);
    gen::Encoder& e = *ctx.enc;
    if (!app_program_bound(ctx) && unfilled(f, d.mode) && !d.cpu.empty())
        return draw_unfilled(ctx, f, d.mode, d.layout, d.cpu.data(), d.count, d.edges.empty() ? nullptr : d.edges.data(),
                             nullptr);
    e.glBindVertexArray(d.vao);
    Key key;
    if (!app_program_bound(ctx)) prepare(ctx, f, d.layout, &key, d.mode);
    else upload_program_builtins(ctx, &d.layout);
    const int kind = pattern_for(ctx, f, d.mode);
    // the pattern of the shade model and convention at the call (the list's VAO keeps the last one bound)
    if (kind >= 0) bind_pattern(ctx, f, kind, d.count);
    const int64_t n = kind >= 0 ? pattern_indices(kind, d.count) : d.count;
    if (n > 0) {
        if (kind >= 0)
            e.glDrawElements(GL_TRIANGLES, GLsizei(n), GL_UNSIGNED_INT, wire::OffsetOrBlob{0, nullptr, 0});
        else
            e.glDrawArrays(d.mode, 0, d.count);
    }
    e.glBindVertexArray(ctx.st.vao_name());
}

}  // namespace mgl::client::compat
