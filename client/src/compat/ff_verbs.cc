// The fixed-function verbs of the compatibility profile, answered by the
// client's lowering (compat/ff.h): immediate mode, matrices, lights and
// materials, shading and texture-environment state, display lists.
//
// Display lists are kept by the client as the operations that compiled them;
// the vertices of every glBegin/glEnd inside a list are uploaded once, at
// glEndList, into a buffer of the list's own (so glCallList sends no vertex
// data). DESIGN.md §11 wants the lists stored on the server as records: see
// docs/ARCHITECTURE-gl-frontend.md for why this first step keeps them here.
#include <cstring>

#include "compat/ff_verbs.h"

namespace mgl::client::compat {

bool record(Context& ctx, std::function<void(Context&)> op) {
    FixedFunction* f = ff(ctx);
    if (!f || !top_compile(*f)) return false;  // glCallList's replay executes
    f->building->ops.push_back(std::move(op));
    return !f->compile_and_execute;
}

// With GL_COLOR_MATERIAL on, the current colour is also the tracked material
// (and stays there once it is turned off).
void track_color(FixedFunction& f) {
    if (!f.color_material) return;
    const float* c = f.current[kColor].data();
    auto apply = [&](Material& m) {
        switch (f.color_material_mode) {
            case 0x1200: std::memcpy(m.ambient, c, 16); break;
            case 0x1201: std::memcpy(m.diffuse, c, 16); break;
            case 0x1202: std::memcpy(m.specular, c, 16); break;
            case 0x1600: std::memcpy(m.emission, c, 16); break;
            default: std::memcpy(m.ambient, c, 16), std::memcpy(m.diffuse, c, 16); break;
        }
    };
    if (f.color_material_face != GL_BACK) apply(f.front);
    if (f.color_material_face != GL_FRONT) apply(f.back);
}

void imm_attr(Context& ctx, int attr, int n, float x, float y, float z, float w) {
    FixedFunction* f = ff(ctx);
    if (!f) return;
    const std::array<float, 4> v{x, y, z, w};
    if (f->in_begin) {
        if (attr == kPos) {
            f->pos_size = std::max(f->pos_size, n);
            auto& vert = f->vertices.emplace_back(f->current);
            vert[kPos] = v;
            f->vertex_edges.push_back(f->edge_flag);
            if (f->generic_in_begin) f->generic_vertices.push_back(f->generic);
            return;
        }
        f->current[attr] = v;
        f->set_in_begin |= 1u << attr;
        if (attr == kColor) track_color(*f);
        return;
    }
    // Outside glBegin/glEnd a list keeps the call itself: run by glCallList
    // between glBegin and glEnd, its vertices and attributes join that primitive.
    if (record(ctx, [=](Context& c) { imm_attr(c, attr, n, x, y, z, w); })) return;
    if (attr == kPos) return;  // GL: undefined outside glBegin/glEnd
    f->current[attr] = v;
    if (attr == kColor) track_color(*f);
}

bool imm_generic(Context& ctx, GLuint index, int n, float x, float y, float z, float w) {
    FixedFunction* f = ff(ctx);
    if (!f || index >= GLuint(kMaxGeneric)) return false;  // past the attributes kept: the host's error
    if (index == 0) {
        // Generic attribute 0 is the vertex (GL 4.6 compatibility §10.7.5);
        // outside glBegin/glEnd it has no current value: the host's as before.
        if (!f->in_begin && !top_compile(*f)) return false;
        imm_attr(ctx, kPos, n, x, y, z, w);
        return true;
    }
    const std::array<float, 4> v{x, y, z, w};
    if (f->in_begin) {
        // the vertices before the first generic value take the current ones
        if (!f->generic_in_begin) f->generic_vertices.assign(f->vertices.size(), f->generic);
        f->generic[index] = v;
        f->generic_in_begin |= 1u << index;
        return true;
    }
    if (record(ctx, [=](Context&) { mgl_glVertexAttrib4f(index, x, y, z, w); })) return true;
    f->generic[index] = v;
    f->generic_clobbered &= ~(1u << index);          // the host has the application's value again
    f->sent_current_valid &= ~(1u << index);         // and no longer the lowering's
    return false;
}

void restore_generics(Context& ctx, FixedFunction& f, uint32_t keep) {
    const uint32_t back = f.generic_clobbered & ~keep;
    for (int g = 1; g < kMaxGeneric; ++g) {
        if (!(back & (1u << g))) continue;
        ctx.enc->glVertexAttrib4fv(GLuint(g), wire::Blob{f.generic[size_t(g)].data(), 16});
        f.sent_current_valid &= ~(1u << g);
    }
    f.generic_clobbered &= ~back;
}

// Generic values given between glBegin and glEnd stay current after glEnd.
void set_generics(Context& ctx, FixedFunction& f, uint32_t sets, const FixedFunction::Generics& values) {
    for (int g = 1; g < kMaxGeneric && sets; ++g) {
        if (!(sets & (1u << g))) continue;
        f.generic[size_t(g)] = values[size_t(g)];
        ctx.enc->glVertexAttrib4fv(GLuint(g), wire::Blob{values[size_t(g)].data(), 16});
        f.generic_clobbered &= ~(1u << g);
        f.sent_current_valid &= ~(1u << g);
    }
}

namespace {
uint8_t texture_enable_bit(GLenum cap) {
    switch (cap) {
        case 0x0DE0: return kTex1D;
        case 0x806F: return kTex3D;
        case 0x8513: return kTexCube;
        case 0x84F5: return kTexRect;
        default: return kTex2D;
    }
}
}  // namespace

int tex_coord_attr(Context& ctx, GLenum texture, const char* verb) {
    if (texture < 0x84C0 || texture >= 0x84C0 + kMaxTexUnits) {
        gl_error(ctx, GL_INVALID_ENUM, verb);
        return -1;
    }
    return kTex0 + int(texture - 0x84C0);
}

bool ff_cap(Context& ctx, GLenum cap, bool on) {
    FixedFunction* f = ff(ctx);
    if (!f) return false;
    // bits: GL_TEXTURE_GEN_S..Q of the active unit, GL_CLIP_PLANE0..7
    if ((cap >= 0x0C60 && cap <= 0x0C63) || (cap >= 0x3000 && cap < 0x3000 + kMaxClipPlanes)) {
        const bool clip = cap >= 0x3000;
        // texture coordinate generation exists on the coordinate units only (GL 4.6 compatibility §12.1.3)
        if (!clip && ctx.st.active_unit() >= uint32_t(kMaxTexUnits)) {
            gl_error(ctx, GL_INVALID_OPERATION, on ? "glEnable" : "glDisable");
            return true;
        }
        uint8_t& bits = clip ? f->clip_enabled
                             : f->texgen_enabled[std::min<uint32_t>(ctx.st.active_unit(), kMaxTexUnits - 1)];
        const uint8_t bit = uint8_t(1u << (clip ? cap - 0x3000 : cap - 0x0C60));
        bits = on ? uint8_t(bits | bit) : uint8_t(bits & ~bit);
        // GL_CLIP_PLANEi is GL_CLIP_DISTANCEi: the host clips by the generated gl_ClipDistance
        if (clip) on ? ctx.enc->glEnable(cap) : ctx.enc->glDisable(cap);
        return true;
    }
    bool* flag = nullptr;
    switch (cap) {
        case 0x0B50: flag = &f->lighting; break;          // GL_LIGHTING
        case 0x0BA1: flag = &f->normalize; break;         // GL_NORMALIZE
        case 0x803A: flag = &f->rescale; break;           // GL_RESCALE_NORMAL
        case 0x0B57: flag = &f->color_material; break;    // GL_COLOR_MATERIAL
        case 0x0BC0: flag = &f->alpha_test; break;        // GL_ALPHA_TEST
        case 0x8861: flag = &f->point_sprite; break;      // GL_POINT_SPRITE
        case 0x0B60: flag = &f->fog; break;               // GL_FOG
        case 0x2A01: flag = &f->offset_point; break;      // GL_POLYGON_OFFSET_POINT (ff_unfilled.cc)
        case 0x2A02: flag = &f->offset_line; break;       // GL_POLYGON_OFFSET_LINE
        case 0x0DE0: case 0x0DE1: case 0x806F: case 0x8513: case 0x84F5: {  // GL_TEXTURE_1D, _2D, _3D, _CUBE_MAP, _RECTANGLE
            uint8_t& e = f->texture_enables[std::min<uint32_t>(ctx.st.active_unit(), kMaxTexUnits - 1)];
            const uint8_t bit = texture_enable_bit(cap);
            e = on ? uint8_t(e | bit) : uint8_t(e & ~bit);
            return true;
        }
        default:
            if (cap >= 0x4000 && cap < 0x4000 + kMaxLights) flag = &f->lights[cap - 0x4000].enabled;  // GL_LIGHTi
            break;
    }
    if (!flag) return false;
    *flag = on;
    if (cap == 0x0B57) track_color(*f);  // GL_COLOR_MATERIAL takes the current colour at once
    return true;
}

bool ff_is_enabled(Context& ctx, GLenum cap, bool* out) {
    FixedFunction* f = ff(ctx);
    if (!f) return false;
    switch (cap) {
        case 0x0B50: *out = f->lighting; return true;
        case 0x0BA1: *out = f->normalize; return true;
        case 0x803A: *out = f->rescale; return true;
        case 0x0B57: *out = f->color_material; return true;
        case 0x0BC0: *out = f->alpha_test; return true;
        case 0x8861: *out = f->point_sprite; return true;
        case 0x0B60: *out = f->fog; return true;
        case 0x2A01: *out = f->offset_point; return true;
        case 0x2A02: *out = f->offset_line; return true;
        case 0x0DE0: case 0x0DE1: case 0x806F: case 0x8513: case 0x84F5:
            *out = f->texture_enables[std::min<uint32_t>(ctx.st.active_unit(), kMaxTexUnits - 1)] & texture_enable_bit(cap);
            return true;
        case 0x0C60: case 0x0C61: case 0x0C62: case 0x0C63:
            *out = (f->texgen_enabled[std::min<uint32_t>(ctx.st.active_unit(), kMaxTexUnits - 1)] >> (cap - 0x0C60)) & 1;
            return true;
        case 0x3000: case 0x3001: case 0x3002: case 0x3003: case 0x3004: case 0x3005: case 0x3006: case 0x3007:
            *out = (f->clip_enabled >> (cap - 0x3000)) & 1;
            return true;
        case 0x8074: case 0x8075: case 0x8076: case 0x8077: case 0x8078: case 0x8079: case 0x845E: case 0x8457: {
            QueryValue q;  // client-state arrays
            ff_get(ctx, cap, &q);
            *out = q.i[0] != 0;
            return true;
        }
        default:
            if (cap >= 0x4000 && cap < 0x4000 + kMaxLights) {
                *out = f->lights[cap - 0x4000].enabled;
                return true;
            }
            return false;
    }
}

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

namespace {

constexpr GLenum kModelview = 0x1700, kProjection = 0x1701, kTexture = 0x1702;

// Applies a matrix operation to the current matrix, now or when the list runs.
template <class Op>
void matrix_op(const char* verb, Op op) {
    FF_OR_RETURN(verb);
    NOT_IN_BEGIN(verb);
    auto run = [op](Context& c) {
        FixedFunction& g = *ff(c);
        g.active_texture = 0x84C0 + std::min<uint32_t>(c.st.active_unit(), kMaxTexUnits - 1);
        op(g.top(g.current_stack()));
    };
    run(*ctx);
}

void unsupported_pname(Context& ctx, const char* verb, GLenum pname) {
    if (first_time(std::string(verb) + ":" + std::to_string(pname)))
        log().warn("{}: pname 0x{:04X} is not served by the fixed-function lowering: GL_INVALID_ENUM", verb, pname);
    gl_error(ctx, GL_INVALID_ENUM, verb);
}

void light(Context& ctx, FixedFunction& f, GLenum l, GLenum pname, const float* p, const char* verb) {
    if (l < 0x4000 || l >= 0x4000 + kMaxLights) {
        gl_error(ctx, GL_INVALID_ENUM, verb);
        return;
    }
    Light& li = f.lights[l - 0x4000];
    const Mat& mv = f.top(0);
    switch (pname) {
        case 0x1200: std::memcpy(li.ambient, p, 16); break;
        case 0x1201: std::memcpy(li.diffuse, p, 16); break;
        case 0x1202: std::memcpy(li.specular, p, 16); break;
        case 0x1203:  // GL_POSITION: to eye space now (Mesa's TRANSFORM_POINT)
            for (int r = 0; r < 4; ++r)
                li.position[r] = mv.m[r] * p[0] + mv.m[4 + r] * p[1] + mv.m[8 + r] * p[2] + mv.m[12 + r] * p[3];
            break;
        case 0x1204:  // GL_SPOT_DIRECTION: by the upper 3x3 of the modelview
            for (int r = 0; r < 3; ++r) li.spot_dir[r] = mv.m[r] * p[0] + mv.m[4 + r] * p[1] + mv.m[8 + r] * p[2];
            break;
        case 0x1205: li.spot_exp = p[0]; break;
        case 0x1206: li.spot_cutoff = p[0]; break;
        case 0x1207: li.att[0] = p[0]; break;
        case 0x1208: li.att[1] = p[0]; break;
        case 0x1209: li.att[2] = p[0]; break;
        default: unsupported_pname(ctx, verb, pname); break;
    }
}

int light_count(GLenum pname) {
    switch (pname) {
        case 0x1200: case 0x1201: case 0x1202: case 0x1203: return 4;
        case 0x1204: return 3;
        default: return 1;
    }
}

void lightv(const char* verb, GLenum l, GLenum pname, const float* p) {
    FF_OR_RETURN(verb);
    NOT_IN_BEGIN(verb);
    std::array<float, 4> v{};
    std::memcpy(v.data(), p, size_t(light_count(pname)) * 4);
    auto run = [=](Context& c) { light(c, *ff(c), l, pname, v.data(), verb); };
    run(*ctx);
}

void material(Context& ctx, FixedFunction& f, GLenum face, GLenum pname, const float* p, const char* verb) {
    // With GL_COLOR_MATERIAL on, the current colour owns the tracked
    // parameters of the tracked faces: glMaterial leaves those alone (as Mesa).
    auto tracked = [&](bool front, GLenum which) {
        if (!f.color_material || f.color_material_face == (front ? GL_BACK : GL_FRONT)) return false;
        const GLenum mode = f.color_material_mode;
        return mode == which || (mode == 0x1602 && (which == 0x1200 || which == 0x1201));
    };
    auto apply = [&](Material& m, bool front) {
        auto set = [&](GLenum which, float* dst) {
            if (!tracked(front, which)) std::memcpy(dst, p, 16);
        };
        switch (pname) {
            case 0x1200: set(0x1200, m.ambient); break;
            case 0x1201: set(0x1201, m.diffuse); break;
            case 0x1202: set(0x1202, m.specular); break;
            case 0x1600: set(0x1600, m.emission); break;
            case 0x1601: m.shininess = p[0]; break;
            case 0x1602: set(0x1200, m.ambient), set(0x1201, m.diffuse); break;
            default: unsupported_pname(ctx, verb, pname); break;
        }
    };
    if (face == GL_FRONT || face == GL_FRONT_AND_BACK) apply(f.front, true);
    if (face == GL_BACK || face == GL_FRONT_AND_BACK) apply(f.back, false);
}

// glMaterial between glBegin and glEnd (compiled or not) is kept with the
// primitive (FixedFunction::begin_materials, glEnd): the lowering applies it
// before the draw (its materials are per primitive), an application's
// program sees the material of before the primitive (gl_FrontMaterial is not
// per vertex; GL's current material changes after it).
void materialv(const char* verb, GLenum face, GLenum pname, const float* p) {
    FF_OR_RETURN(verb);
    std::array<float, 4> v{};
    std::memcpy(v.data(), p, (pname == 0x1601 ? 1 : 4) * 4);
    auto run = [=](Context& c) { material(c, *ff(c), face, pname, v.data(), verb); };
    if (f->in_begin) return f->begin_materials.push_back(run);
    if (record(*ctx, run)) return;
    run(*ctx);
}

void draw_with_materials(Context& ctx, const std::vector<std::function<void(Context&)>>& materials,
                         const std::function<void()>& draw) {
    const bool program = app_program_bound(ctx);
    if (!program)
        for (const auto& m : materials) m(ctx);
    draw();
    if (program)
        for (const auto& m : materials) m(ctx);
}

void light_model(Context& ctx, FixedFunction& f, GLenum pname, const float* p, const char* verb) {
    switch (pname) {
        case 0x0B53: std::memcpy(f.light_model_ambient, p, 16); break;  // GL_LIGHT_MODEL_AMBIENT
        case 0x0B51: f.local_viewer = p[0] != 0; break;                  // GL_LIGHT_MODEL_LOCAL_VIEWER
        case 0x0B52:                                                     // GL_LIGHT_MODEL_TWO_SIDE
            f.two_side = p[0] != 0;
            break;
        case 0x81F8: f.separate_specular = p[0] == float(0x81FA); break;  // GL_LIGHT_MODEL_COLOR_CONTROL
        default: unsupported_pname(ctx, verb, pname); break;
    }
}

void light_modelv(const char* verb, GLenum pname, const float* p) {
    FF_OR_RETURN(verb);
    NOT_IN_BEGIN(verb);
    std::array<float, 4> v{};
    std::memcpy(v.data(), p, (pname == 0x0B53 ? 4 : 1) * 4);
    auto run = [=](Context& c) { light_model(c, *ff(c), pname, v.data(), verb); };
    run(*ctx);
}

void fog(Context& ctx, FixedFunction& f, GLenum pname, const float* p, const char* verb) {
    switch (pname) {
        case 0x0B65: f.fog_mode = GLenum(p[0]); break;  // GL_FOG_MODE
        case 0x0B62: f.fog_density = p[0]; break;
        case 0x0B63: f.fog_start = p[0]; break;
        case 0x0B64: f.fog_end = p[0]; break;
        case 0x0B66: std::memcpy(f.fog_color, p, 16); break;
        default: unsupported_pname(ctx, verb, pname); break;
    }
}

void fogv(const char* verb, GLenum pname, const float* p) {
    FF_OR_RETURN(verb);
    NOT_IN_BEGIN(verb);
    std::array<float, 4> v{};
    std::memcpy(v.data(), p, (pname == 0x0B66 ? 4 : 1) * 4);
    auto run = [=](Context& c) { fog(c, *ff(c), pname, v.data(), verb); };
    run(*ctx);
}

}  // namespace

void glBegin(GLenum mode) {
    FF_OR_RETURN("glBegin");
    NOT_IN_BEGIN("glBegin");
    if (mode > 0x0009 && mode != 0x000A && mode != 0x000B && mode != 0x000C && mode != 0x000D) {
        // Compiled as the error (raised when the list runs; GL_COMPILE_AND_EXECUTE: now too).
        if (top_compile(*f)) f->building->ops.push_back([](Context& c) { gl_error(c, GL_INVALID_ENUM, "glBegin"); });
        if (!top_compile(*f) || f->compile_and_execute) gl_error(*ctx, GL_INVALID_ENUM, "glBegin");
        return;
    }
    f->in_begin = true;
    f->begin_compile_only = top_compile(*f) && !f->compile_and_execute;
    f->begin_mode = mode;
    f->set_in_begin = 0;
    f->generic_in_begin = 0;
    f->generic_vertices.clear();
    f->begin_materials.clear();
    f->pos_size = 2;
    f->vertices.clear();
    f->vertex_edges.clear();
    refresh_gate(*ctx);
}

void glEnd() {
    FF_OR_RETURN("glEnd");
    if (!f->in_begin) {
        // A list may hold the glEnd of a glBegin that another list (or the application) gives.
        if (record(*ctx, [](Context&) { mgl_glEnd(); })) return;
        gl_error(*ctx, GL_INVALID_OPERATION, "glEnd");
        return;
    }
    f->in_begin = false;
    f->begin_compile_only = false;
    refresh_gate(*ctx);
    const int count = int(f->vertices.size());
    auto materials = std::move(f->begin_materials);
    f->begin_materials.clear();
    if (count == 0) {
        if (top_compile(*f)) {
            f->building->ops.insert(f->building->ops.end(), materials.begin(), materials.end());
            if (!f->compile_and_execute) return;
        }
        for (const auto& m : materials) m(*ctx);
        return;
    }
    // Layout: the position, then every attribute given between glBegin and glEnd.
    Layout l;
    int floats = 0;
    auto add = [&](int a, int n) {
        l.size[a] = n;
        l.offset[a] = floats * 4;
        floats += n;
    };
    add(kPos, f->pos_size);
    if (f->set_in_begin & (1u << kNormal)) add(kNormal, 3);
    if (f->set_in_begin & (1u << kColor)) add(kColor, 4);
    if (f->set_in_begin & (1u << kColor2)) add(kColor2, 4);
    if (f->set_in_begin & (1u << kFog)) add(kFog, 1);
    for (int u = 0; u < kMaxTexUnits; ++u)
        if (f->set_in_begin & (1u << (kTex0 + u))) add(kTex0 + u, 4);
    // Generic attributes: an application's program reads them (the
    // fixed-function stage does not); a list's draw keeps them either way.
    const uint32_t generics = app_program_bound(*ctx) || top_compile(*f) ? f->generic_in_begin : 0;
    for (int g = 1; g < kMaxGeneric; ++g) {
        if (!(generics & (1u << g))) continue;
        l.generic |= 1u << g;
        l.generic_offset[size_t(g)] = floats * 4;
        floats += 4;
    }
    l.stride = floats * 4;
    std::vector<uint8_t> data(size_t(l.stride) * size_t(count));
    float* out = reinterpret_cast<float*>(data.data());
    for (size_t i = 0; i < f->vertices.size(); ++i) {
        const auto& v = f->vertices[i];
        for (int a = 0; a < kAttrCount; ++a)
            for (int c = 0; c < l.size[a]; ++c) *out++ = v[a][c];
        for (int g = 1; g < kMaxGeneric && generics; ++g)
            if (generics & (1u << g))
                for (int c = 0; c < 4; ++c) *out++ = f->generic_vertices[i][size_t(g)][size_t(c)];
    }
    // The last value given stays current (the host's too: the draw read arrays).
    const uint32_t generic_sets = f->generic_in_begin;
    const FixedFunction::Generics generic_after = f->generic;
    // edge flags (glPolygonMode GL_LINE/GL_POINT): kept only when one is false
    std::vector<uint8_t> edges;
    if (std::find(f->vertex_edges.begin(), f->vertex_edges.end(), 0) != f->vertex_edges.end()) edges = f->vertex_edges;
    if (top_compile(*f)) {
        auto d = std::make_shared<ListDraw>();
        d->mode = f->begin_mode;
        d->layout = l;
        d->count = count;
        d->data = data;
        d->edges = edges;
        const uint32_t sets = f->set_in_begin;
        const auto after = f->current;
        f->building->draws.push_back(d);
        f->building->ops.push_back([d, sets, after, generic_sets, generic_after, materials](Context& c) {
            FixedFunction& g = *ff(c);
            draw_with_materials(c, materials, [&] { draw_list(c, *d); });
            for (int a = 0; a < kAttrCount; ++a)
                if (sets & (1u << a)) g.current[a] = after[a];
            if (sets & (1u << kColor)) track_color(g);
            set_generics(c, g, generic_sets, generic_after);
        });
        if (!f->compile_and_execute) {
            f->current = f->saved_current;  // GL_COMPILE executes nothing
            f->generic = f->saved_generic;
            return;
        }
    }
    draw_with_materials(*ctx, materials, [&] {
        draw_packed(*ctx, f->begin_mode, l, data.data(), count, edges.empty() ? nullptr : edges.data());
    });
    set_generics(*ctx, *f, generic_sets, generic_after);
}

// ---- matrices ----

void glMatrixMode(GLenum mode) {
    FF_OR_RETURN("glMatrixMode");
    NOT_IN_BEGIN("glMatrixMode");
    if (mode != kModelview && mode != kProjection && mode != kTexture) {
        if (mode == 0x1800 && first_time("ff-color-matrix")) log().warn("glMatrixMode(GL_COLOR) is not served: GL_INVALID_ENUM");
        gl_error(*ctx, GL_INVALID_ENUM, "glMatrixMode");
        return;
    }
    auto run = [mode](Context& c) {
        FixedFunction& g = *ff(c);
        g.matrix_mode = mode;
        g.active_texture = 0x84C0 + std::min<uint32_t>(c.st.active_unit(), kMaxTexUnits - 1);
    };
    run(*ctx);
}

void glLoadIdentity() { matrix_op("glLoadIdentity", [](Mat& m) { m.identity(); }); }

void glPushMatrix() {
    FF_OR_RETURN("glPushMatrix");
    NOT_IN_BEGIN("glPushMatrix");
    auto run = [](Context& c) {
        FixedFunction& g = *ff(c);
        g.active_texture = 0x84C0 + std::min<uint32_t>(c.st.active_unit(), kMaxTexUnits - 1);
        auto& s = g.stacks[size_t(g.current_stack())];
        if (s.size() >= kStackDepth) {
            gl_error(c, 0x0503, "glPushMatrix");  // GL_STACK_OVERFLOW
            return;
        }
        s.push_back(s.back());
    };
    run(*ctx);
}

void glPopMatrix() {
    FF_OR_RETURN("glPopMatrix");
    NOT_IN_BEGIN("glPopMatrix");
    auto run = [](Context& c) {
        FixedFunction& g = *ff(c);
        g.active_texture = 0x84C0 + std::min<uint32_t>(c.st.active_unit(), kMaxTexUnits - 1);
        auto& s = g.stacks[size_t(g.current_stack())];
        if (s.size() <= 1) {
            gl_error(c, 0x0504, "glPopMatrix");  // GL_STACK_UNDERFLOW
            return;
        }
        s.pop_back();
    };
    run(*ctx);
}

void glTranslatef(GLfloat x, GLfloat y, GLfloat z) { matrix_op("glTranslatef", [=](Mat& m) { m.translate(x, y, z); }); }
void glTranslated(GLdouble x, GLdouble y, GLdouble z) {
    matrix_op("glTranslated", [=](Mat& m) { m.translate(float(x), float(y), float(z)); });
}
void glRotatef(GLfloat a, GLfloat x, GLfloat y, GLfloat z) { matrix_op("glRotatef", [=](Mat& m) { m.rotate(a, x, y, z); }); }
void glRotated(GLdouble a, GLdouble x, GLdouble y, GLdouble z) {
    matrix_op("glRotated", [=](Mat& m) { m.rotate(float(a), float(x), float(y), float(z)); });
}
void glScalef(GLfloat x, GLfloat y, GLfloat z) { matrix_op("glScalef", [=](Mat& m) { m.scale(x, y, z); }); }
void glScaled(GLdouble x, GLdouble y, GLdouble z) {
    matrix_op("glScaled", [=](Mat& m) { m.scale(float(x), float(y), float(z)); });
}

void glFrustum(GLdouble l, GLdouble r, GLdouble b, GLdouble t, GLdouble n, GLdouble fa) {
    MGL_CTX_OR_RETURN("glFrustum");
    if (n <= 0 || fa <= 0 || n == fa || l == r || b == t) {
        gl_error(*ctx, GL_INVALID_VALUE, "glFrustum");
        return;
    }
    matrix_op("glFrustum", [=](Mat& m) { m.frustum(float(l), float(r), float(b), float(t), float(n), float(fa)); });
}

void glOrtho(GLdouble l, GLdouble r, GLdouble b, GLdouble t, GLdouble n, GLdouble fa) {
    MGL_CTX_OR_RETURN("glOrtho");
    if (n == fa || l == r || b == t) {
        gl_error(*ctx, GL_INVALID_VALUE, "glOrtho");
        return;
    }
    matrix_op("glOrtho", [=](Mat& m) { m.ortho(float(l), float(r), float(b), float(t), float(n), float(fa)); });
}

void glLoadMatrixf(const GLfloat* v) {
    std::array<float, 16> a{};
    std::memcpy(a.data(), v, 64);
    matrix_op("glLoadMatrixf", [a](Mat& m) { m.load(a.data()); });
}
void glLoadMatrixd(const GLdouble* v) {
    std::array<float, 16> a{};
    for (int i = 0; i < 16; ++i) a[size_t(i)] = float(v[i]);
    matrix_op("glLoadMatrixd", [a](Mat& m) { m.load(a.data()); });
}
void glMultMatrixf(const GLfloat* v) {
    std::array<float, 16> a{};
    std::memcpy(a.data(), v, 64);
    matrix_op("glMultMatrixf", [a](Mat& m) { m.mult(a.data(), kMatGeneral); });
}
void glMultMatrixd(const GLdouble* v) {
    std::array<float, 16> a{};
    for (int i = 0; i < 16; ++i) a[size_t(i)] = float(v[i]);
    matrix_op("glMultMatrixd", [a](Mat& m) { m.mult(a.data(), kMatGeneral); });
}

// ---- lights, materials, fog, texture environment ----

void glLightfv(GLenum l, GLenum pname, const GLfloat* p) { lightv("glLightfv", l, pname, p); }
void glLightf(GLenum l, GLenum pname, GLfloat p) { lightv("glLightf", l, pname, &p); }
void glLightiv(GLenum l, GLenum pname, const GLint* p) {
    float v[4] = {};
    for (int i = 0; i < light_count(pname); ++i) v[i] = float(p[i]);  // colours: GL maps ints to [-1, 1]
    if (pname == 0x1200 || pname == 0x1201 || pname == 0x1202)
        for (float& x : v) x = x / 2147483647.0f;
    lightv("glLightiv", l, pname, v);
}
void glLighti(GLenum l, GLenum pname, GLint p) {
    const float v = float(p);
    lightv("glLighti", l, pname, &v);
}

void glMaterialfv(GLenum face, GLenum pname, const GLfloat* p) { materialv("glMaterialfv", face, pname, p); }
void glMaterialf(GLenum face, GLenum pname, GLfloat p) { materialv("glMaterialf", face, pname, &p); }
void glMaterialiv(GLenum face, GLenum pname, const GLint* p) {
    float v[4] = {};
    for (int i = 0; i < (pname == 0x1601 ? 1 : 4); ++i) v[i] = pname == 0x1601 ? float(p[i]) : float(p[i]) / 2147483647.0f;
    materialv("glMaterialiv", face, pname, v);
}
void glMateriali(GLenum face, GLenum pname, GLint p) {
    const float v = float(p);
    materialv("glMateriali", face, pname, &v);
}

void glLightModelfv(GLenum pname, const GLfloat* p) { light_modelv("glLightModelfv", pname, p); }
void glLightModelf(GLenum pname, GLfloat p) { light_modelv("glLightModelf", pname, &p); }
void glLightModeliv(GLenum pname, const GLint* p) {
    float v[4] = {};
    for (int i = 0; i < (pname == 0x0B53 ? 4 : 1); ++i) v[i] = pname == 0x0B53 ? float(p[i]) / 2147483647.0f : float(p[i]);
    light_modelv("glLightModeliv", pname, v);
}
void glLightModeli(GLenum pname, GLint p) {
    const float v = float(p);
    light_modelv("glLightModeli", pname, &v);
}

void glColorMaterial(GLenum face, GLenum mode) {
    FF_OR_RETURN("glColorMaterial");
    NOT_IN_BEGIN("glColorMaterial");
    auto run = [=](Context& c) {
        ff(c)->color_material_face = face;
        ff(c)->color_material_mode = mode;
    };
    run(*ctx);
}

void glShadeModel(GLenum mode) {
    FF_OR_RETURN("glShadeModel");
    NOT_IN_BEGIN("glShadeModel");
    if (mode != 0x1D00 && mode != 0x1D01) {
        gl_error(*ctx, GL_INVALID_ENUM, "glShadeModel");
        return;
    }
    f->shade_model = mode;
}

void glAlphaFunc(GLenum func, GLfloat ref) {
    FF_OR_RETURN("glAlphaFunc");
    NOT_IN_BEGIN("glAlphaFunc");
    auto run = [=](Context& c) {
        ff(c)->alpha_func = func;
        ff(c)->alpha_ref = std::min(1.0f, std::max(0.0f, ref));
    };
    run(*ctx);
}

void glFogfv(GLenum pname, const GLfloat* p) { fogv("glFogfv", pname, p); }
void glFogf(GLenum pname, GLfloat p) { fogv("glFogf", pname, &p); }
void glFogi(GLenum pname, GLint p) {
    const float v = float(p);
    fogv("glFogi", pname, &v);
}
void glFogiv(GLenum pname, const GLint* p) {
    float v[4] = {};
    for (int i = 0; i < (pname == 0x0B66 ? 4 : 1); ++i) v[i] = pname == 0x0B66 ? float(p[i]) / 2147483647.0f : float(p[i]);
    fogv("glFogiv", pname, v);
}


}  // namespace mgl_custom
