// glGet* of the fixed-function state and limits, answered by the client's
// lowering (the state lives here, the host GLES knows none of it): matrices
// and stack depths, current attributes, lighting, fog, alpha test, display
// lists, client-state arrays; and glGetLight*, glGetMaterial*, glGetTexEnv*.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "compat/ff.h"
#include "custom/common.h"

namespace mgl::client::compat {

namespace {

using Q = QueryValue;

Q floats(const float* v, int n, bool normalized = false) {
    Q q;
    q.kind = Q::Kind::floating;
    q.normalized = normalized;
    q.count = uint8_t(n);
    for (int i = 0; i < n; ++i) q.f[size_t(i)] = v[i];
    return q;
}

int unit_of(const FixedFunction& f, GLenum texture) { return std::min<int>(int(texture - 0x84C0), kMaxTexUnits - 1); }

// The client-state array a pname of glGet describes, and which of its fields.
bool array_pname(FixedFunction& f, GLenum pname, QueryValue* out) {
    int a = -1, field = 0;  // field: 0 enabled, 1 size, 2 type, 3 stride, 4 buffer
    switch (pname) {
        case 0x8074: a = kPos; break;
        case 0x807A: a = kPos, field = 1; break;
        case 0x807B: a = kPos, field = 2; break;
        case 0x807C: a = kPos, field = 3; break;
        case 0x8896: a = kPos, field = 4; break;
        case 0x8075: a = kNormal; break;
        case 0x807E: a = kNormal, field = 2; break;
        case 0x807F: a = kNormal, field = 3; break;
        case 0x8897: a = kNormal, field = 4; break;
        case 0x8076: a = kColor; break;
        case 0x8081: a = kColor, field = 1; break;
        case 0x8082: a = kColor, field = 2; break;
        case 0x8083: a = kColor, field = 3; break;
        case 0x8898: a = kColor, field = 4; break;
        case 0x845E: a = kColor2; break;
        case 0x845A: a = kColor2, field = 1; break;
        case 0x845B: a = kColor2, field = 2; break;
        case 0x845C: a = kColor2, field = 3; break;
        case 0x889C: a = kColor2, field = 4; break;
        case 0x8457: a = kFog; break;
        case 0x8454: a = kFog, field = 2; break;
        case 0x8455: a = kFog, field = 3; break;
        case 0x889D: a = kFog, field = 4; break;
        case 0x8078: case 0x8088: case 0x8089: case 0x808A: case 0x889A:
            a = kTex0 + unit_of(f, f.client_active_texture);
            field = pname == 0x8078 ? 0 : pname == 0x8088 ? 1 : pname == 0x8089 ? 2 : pname == 0x808A ? 3 : 4;
            break;
        case 0x8079: a = kEdge; break;
        case 0x808C: a = kEdge, field = 3; break;
        case 0x889B: a = kEdge, field = 4; break;
        case 0x8077: a = kIndex; break;
        case 0x8085: a = kIndex, field = 2; break;
        case 0x8086: a = kIndex, field = 3; break;
        case 0x8899: a = kIndex, field = 4; break;
        default: return false;
    }
    const ClientArray& c = f.all_arrays(a);
    switch (field) {
        case 0: *out = Q::bools({c.enabled}); break;
        case 1: *out = Q::ints({c.size}); break;
        case 2: *out = Q::ints({c.type}); break;
        case 3: *out = Q::ints({c.stride}); break;
        default: *out = Q::ints({c.buffer}); break;
    }
    return true;
}

}  // namespace

bool ff_get(Context& ctx, GLenum pname, QueryValue* out) {
    FixedFunction* fp = ff(ctx);
    if (!fp) return false;
    FixedFunction& f = *fp;
    const int unit = std::min<int>(int(ctx.st.active_unit()), kMaxTexUnits - 1);
    auto matrix = [&](int stack, bool transpose) {
        const float* m = f.top(stack).m;
        float t[16];
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) t[r * 4 + c] = transpose ? m[c * 4 + r] : m[r * 4 + c];
        *out = floats(t, 16);
    };
    if (raster_get(ctx, pname, out)) return true;
    if (point_params_get(ctx, f, pname, out)) return true;
    switch (pname) {
        // limits
        case 0x0D31: *out = Q::ints({kMaxLights}); return true;         // GL_MAX_LIGHTS
        case 0x0D32: *out = Q::ints({kMaxClipPlanes}); return true;     // GL_MAX_CLIP_PLANES
        case 0x0D36: case 0x0D38: case 0x0D39: *out = Q::ints({kStackDepth}); return true;  // matrix stack depths
        case 0x0D35: case 0x0D3B: *out = Q::ints({kAttribStackDepth}); return true;  // (client) attribute stacks
        case 0x0D37: *out = Q::ints({64}); return true;                  // GL_MAX_NAME_STACK_DEPTH
        case 0x0B31: *out = Q::ints({kMaxListNesting}); return true;     // GL_MAX_LIST_NESTING
        case 0x0D30: *out = Q::ints({8}); return true;                   // GL_MAX_EVAL_ORDER (evaluators: refused)
        case 0x0D34: *out = Q::ints({256}); return true;                 // GL_MAX_PIXEL_MAP_TABLE
        case 0x84E2: case 0x8871: *out = Q::ints({kMaxTexUnits}); return true;  // GL_MAX_TEXTURE_UNITS, _COORDS
        case 0x0C00: *out = Q::ints({0}); return true;                    // GL_AUX_BUFFERS
        // polygon mode (ff_unfilled.cc)
        case 0x0B40: *out = Q::ints({f.polygon_mode[0], f.polygon_mode[1]}); return true;  // GL_POLYGON_MODE
        case 0x0B43: *out = Q::bools({f.edge_flag}); return true;                          // GL_EDGE_FLAG
        case 0x2A01: *out = Q::bools({f.offset_point}); return true;  // GL_POLYGON_OFFSET_POINT
        case 0x2A02: *out = Q::bools({f.offset_line}); return true;   // GL_POLYGON_OFFSET_LINE
        // matrices
        case 0x0BA0: *out = Q::ints({f.matrix_mode}); return true;
        case 0x0BA6: matrix(0, false); return true;
        case 0x0BA7: matrix(1, false); return true;
        case 0x0BA8: matrix(2 + unit, false); return true;
        case 0x84E3: matrix(0, true); return true;
        case 0x84E4: matrix(1, true); return true;
        case 0x84E5: matrix(2 + unit, true); return true;
        case 0x0BA3: *out = Q::ints({int64_t(f.stacks[0].size())}); return true;
        case 0x0BA4: *out = Q::ints({int64_t(f.stacks[1].size())}); return true;
        case 0x0BA5: *out = Q::ints({int64_t(f.stacks[size_t(2 + unit)].size())}); return true;
        case 0x84E1: *out = Q::ints({f.client_active_texture}); return true;
        // current attributes
        case 0x0B00: *out = floats(f.current[kColor].data(), 4, true); return true;
        case 0x8459: *out = floats(f.current[kColor2].data(), 4, true); return true;
        case 0x0B02: *out = floats(f.current[kNormal].data(), 3); return true;
        case 0x0B03: *out = floats(f.current[size_t(kTex0 + unit)].data(), 4); return true;
        case 0x8453: *out = floats(f.current[kFog].data(), 1); return true;
        // lighting
        case 0x0B54: *out = Q::ints({f.shade_model}); return true;
        case 0x0B53: *out = floats(f.light_model_ambient, 4, true); return true;
        case 0x0B51: *out = Q::bools({f.local_viewer}); return true;
        case 0x0B52: *out = Q::bools({f.two_side}); return true;
        case 0x81F8: *out = Q::ints({f.separate_specular ? 0x81FA : 0x81F9}); return true;
        case 0x0B55: *out = Q::ints({f.color_material_face}); return true;
        case 0x0B56: *out = Q::ints({f.color_material_mode}); return true;
        // fog, alpha test
        case 0x0B65: *out = Q::ints({f.fog_mode}); return true;
        case 0x0B62: *out = floats(&f.fog_density, 1); return true;
        case 0x0B63: *out = floats(&f.fog_start, 1); return true;
        case 0x0B64: *out = floats(&f.fog_end, 1); return true;
        case 0x0B66: *out = floats(f.fog_color, 4, true); return true;
        case 0x0BC1: *out = Q::ints({f.alpha_func}); return true;
        case 0x0BC2: *out = floats(&f.alpha_ref, 1, true); return true;
        // display lists
        case 0x0B32: *out = Q::ints({f.list_base}); return true;
        case 0x0B33: *out = Q::ints({f.compiling}); return true;
        case 0x0B30: *out = Q::ints({f.compiling ? (f.compile_and_execute ? 0x1301 : 0x1300) : 0}); return true;
        default: {
            if (array_pname(f, pname, out)) return true;
            // glGet of a fixed-function capability (GL_LIGHTING, GL_CLIP_PLANEi...) is its enable
            bool on = false;
            if (!ff_is_enabled(ctx, pname, &on)) return false;
            *out = Q::bools({on});
            return true;
        }
    }
}

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

namespace {

// The values of glGetLight*/glGetMaterial* (false: an invalid name).
int light_values(FixedFunction& f, GLenum light, GLenum pname, float* v) {
    if (light < 0x4000 || light >= 0x4000 + kMaxLights) return -1;
    const Light& l = f.lights[light - 0x4000];
    auto put = [&](const float* p, int n) { std::memcpy(v, p, size_t(n) * 4); return n; };
    switch (pname) {
        case 0x1200: return put(l.ambient, 4);
        case 0x1201: return put(l.diffuse, 4);
        case 0x1202: return put(l.specular, 4);
        case 0x1203: return put(l.position, 4);
        case 0x1204: return put(l.spot_dir, 3);
        case 0x1205: return put(&l.spot_exp, 1);
        case 0x1206: return put(&l.spot_cutoff, 1);
        case 0x1207: return put(&l.att[0], 1);
        case 0x1208: return put(&l.att[1], 1);
        case 0x1209: return put(&l.att[2], 1);
        default: return -1;
    }
}

int material_values(FixedFunction& f, GLenum face, GLenum pname, float* v) {
    if (face != GL_FRONT && face != GL_BACK) return -1;
    const Material& m = face == GL_FRONT ? f.front : f.back;
    auto put = [&](const float* p, int n) { std::memcpy(v, p, size_t(n) * 4); return n; };
    switch (pname) {
        case 0x1200: return put(m.ambient, 4);
        case 0x1201: return put(m.diffuse, 4);
        case 0x1202: return put(m.specular, 4);
        case 0x1600: return put(m.emission, 4);
        case 0x1601: return put(&m.shininess, 1);
        default: return -1;
    }
}

template <class T, class Fn>
void get_ff(const char* verb, Fn values, GLenum a, GLenum pname, T* out, bool colour_ints) {
    MGL_CTX_OR_RETURN(verb);
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, verb);
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, verb);
    float v[4];
    const int n = values(*f, a, pname, v);
    if (n < 0) {
        gl_error(*ctx, GL_INVALID_ENUM, verb);
        return;
    }
    for (int i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, GLint>) {
            // colours map [-1, 1] to the integer range (GL 4.6 §2.2.2)
            out[i] = colour_ints && (pname <= 0x1202 || pname == 0x1600) ? GLint(std::clamp(double(v[i]), -1.0, 1.0) * 2147483647.0)
                                                    : GLint(std::lround(v[i]));
        } else {
            out[i] = v[i];
        }
    }
}

}  // namespace

void glGetLightfv(GLenum light, GLenum pname, GLfloat* p) { get_ff("glGetLightfv", light_values, light, pname, p, false); }
void glGetLightiv(GLenum light, GLenum pname, GLint* p) { get_ff("glGetLightiv", light_values, light, pname, p, true); }
void glGetMaterialfv(GLenum face, GLenum pname, GLfloat* p) {
    get_ff("glGetMaterialfv", material_values, face, pname, p, false);
}
void glGetMaterialiv(GLenum face, GLenum pname, GLint* p) {
    get_ff("glGetMaterialiv", material_values, face, pname, p, true);
}

}  // namespace mgl_custom
