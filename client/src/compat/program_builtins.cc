// Built-in state uniforms of an application's program (program_builtins.h).
//
// The values are Mesa's (native is Mesa: piglit and the probes compare
// against it): the matrices and their inverses with the client's Mesa-exact
// arithmetic (matrix.h: the inverse by matrix kind), the modelview-projection
// as P * MV, gl_NormalMatrix the transpose of the modelview's inverse (upper
// 3x3), gl_NormalScale Mesa's _ModelViewInvScaleEyespace, light products with
// the material's alpha, spotCosCutoff clamped at 0, the fog scale clamped as
// Mesa's STATE_FOG_PARAMS does.
#include "compat/program_builtins.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compat/ff.h"
#include "custom/common.h"

namespace mgl::client::compat {

namespace {

constexpr GLenum kFloat = 0x1406, kVec3 = 0x8B51, kVec4 = 0x8B52, kMat3 = 0x8B5B, kMat4 = 0x8B5C;
constexpr GLenum kActiveUniforms = 0x8B86, kActiveUniformMaxLength = 0x8B87, kActiveAttributes = 0x8B89,
                 kActiveAttributeMaxLength = 0x8B8A;

// What a slot holds. Matrices: which matrix and which form of it.
enum class What : uint8_t {
    matrix,        // `mat`, `form`, `unit` (texture matrices: an array from `unit`)
    normal_matrix,
    normal_scale,
    light,         // gl_LightSource[index].member
    light_model,   // gl_LightModel.ambient
    scene_color,   // gl_Front/BackLightModelProduct.sceneColor (`back`)
    light_product, // gl_Front/BackLightProduct[index].member (`back`)
    material,      // gl_Front/BackMaterial.member (`back`)
    fog,           // gl_Fog.member
    point,         // gl_Point.member
    plane_array,   // gl_ClipPlane[], gl_TextureEnvColor[], gl_EyePlaneS[]...: `plane`, an array from `index`
    two_side,      // GL_VERTEX_PROGRAM_TWO_SIDE (the fragment stage's gl_Color of back faces)
    clamp_colour,  // GL_CLAMP_VERTEX_COLOR (the vertex stage's colour outputs clamped to [0, 1])
};
// The vec4 arrays of What::plane_array.
enum Plane : uint8_t { kClipPlane, kEnvColor, kEyePlane, kObjectPlane = kEyePlane + 4 };
enum Mat4 : uint8_t { kModelView, kProjection, kMvp, kTexture };
enum Form : uint8_t { kPlain, kInverse, kTranspose, kInverseTranspose };

struct Slot {
    What what = What::matrix;
    uint8_t mat = 0, form = 0, index = 0, back = 0, plane = 0;
    std::string member;
    int location = -1;
    GLenum type = 0;
    int count = 1;  // array elements (texture matrices)
    // Matrices: the serials of the matrices the value came from (no
    // recomputation while they stay); `valid`: something was sent.
    std::array<uint64_t, kMaxTexUnits + 1> serials{};
    bool valid = false;
    std::vector<float> sent;
};

struct Entry {
    uint64_t links = ~0ull;  // the link this entry describes
    std::vector<Slot> slots;
    uint32_t attribs = 0;  // bit per compat::Attr the program reads (gl_Normal, gl_Color...)
};


bool parse(const std::string& full, Slot& s) {
    if (full.rfind("mgl_", 0) != 0) return false;
    std::string n = full.substr(4);
    // "Name[3].member" -> Name, 3, member; "Name[0]" -> Name, 0
    int index = 0;
    std::string member;
    if (const size_t dot = n.find('.'); dot != std::string::npos) {
        member = n.substr(dot + 1);
        n.resize(dot);
    }
    if (const size_t br = n.find('['); br != std::string::npos) {
        index = std::atoi(n.c_str() + br + 1);
        n.resize(br);
    }
    if (index < 0 || index >= kMaxLights) return false;
    s.index = uint8_t(index);
    s.member = member;
    static const struct {
        const char* name;
        Mat4 mat;
    } kMats[] = {{"ModelViewMatrix", kModelView}, {"ProjectionMatrix", kProjection},
                 {"ModelViewProjectionMatrix", kMvp}, {"TextureMatrix", kTexture}};
    static const struct {
        const char* suffix;
        Form form;
    } kForms[] = {{"", kPlain}, {"Inverse", kInverse}, {"Transpose", kTranspose}, {"InverseTranspose", kInverseTranspose}};
    for (const auto& m : kMats)
        for (const auto& f : kForms)
            if (n == std::string(m.name) + f.suffix) {
                s.what = What::matrix;
                s.mat = m.mat;
                s.form = f.form;
                return member.empty();
            }
    if (n == "NormalMatrix") return s.what = What::normal_matrix, true;
    if (n == "NormalScale") return s.what = What::normal_scale, true;
    if (n == "LightSource") return s.what = What::light, true;
    if (n == "LightModel") return s.what = What::light_model, true;
    if (n == "FrontLightModelProduct" || n == "BackLightModelProduct")
        return s.what = What::scene_color, s.back = n[0] == 'B', true;
    if (n == "FrontLightProduct" || n == "BackLightProduct")
        return s.what = What::light_product, s.back = n[0] == 'B', true;
    if (n == "FrontMaterial" || n == "BackMaterial") return s.what = What::material, s.back = n[0] == 'B', true;
    if (n == "Fog") return s.what = What::fog, true;
    if (n == "Point") return s.what = What::point, true;
    s.what = What::plane_array;
    if (n == "UserClipPlane") return s.plane = kClipPlane, true;
    if (n == "TextureEnvColor") return s.plane = kEnvColor, true;
    static const char kCoords[] = "STRQ";
    for (int c = 0; c < 4; ++c) {
        if (n == std::string("EyePlane") + kCoords[c]) return s.plane = uint8_t(kEyePlane + c), true;
        if (n == std::string("ObjectPlane") + kCoords[c]) return s.plane = uint8_t(kObjectPlane + c), true;
    }
    if (n == "VertexTwoSide") return s.what = What::two_side, true;
    if (n == "ClampVertexColor") return s.what = What::clamp_colour, true;
    return false;  // one of ours that is not state (a varying, an attribute)
}

// The program's `mgl_*` uniforms and attributes: three batches of pipelined
// queries (counts; names; uniform locations).
void query(Context& ctx, uint32_t program, Entry& en) {
    gen::Encoder& e = *ctx.enc;
    e.glGetProgramiv(program, kActiveUniforms, 4);
    e.glGetProgramiv(program, kActiveUniformMaxLength, 4);
    e.glGetProgramiv(program, kActiveAttributes, 4);
    e.glGetProgramiv(program, kActiveAttributeMaxLength, 4);
    GLint count = 0, max_len = 0, attr_count = 0, attr_len = 0;
    if (!gen::read_reply_glGetProgramiv(wait(ctx), &count, 4)) count = 0;
    if (!gen::read_reply_glGetProgramiv(wait(ctx), &max_len, 4)) max_len = 0;
    if (!gen::read_reply_glGetProgramiv(wait(ctx), &attr_count, 4)) attr_count = 0;
    if (!gen::read_reply_glGetProgramiv(wait(ctx), &attr_len, 4)) attr_len = 0;
    std::vector<Slot>& slots = en.slots;
    slots.clear();
    en.attribs = 0;
    if (max_len <= 0) count = 0;
    if (attr_len <= 0) attr_count = 0;
    const uint32_t cap = uint32_t(std::min(std::max(max_len, attr_len), 4096)) + 1;
    for (GLint i = 0; i < count; ++i) e.glGetActiveUniform(program, GLuint(i), GLsizei(cap), 4, 4, 4, cap);
    for (GLint i = 0; i < attr_count; ++i) e.glGetActiveAttrib(program, GLuint(i), GLsizei(cap), 4, 4, 4, cap);
    std::vector<char> name(cap);
    std::vector<std::string> names;
    for (GLint i = 0; i < count; ++i) {
        GLsizei len = 0;
        GLint size = 0;
        GLenum type = 0;
        std::fill(name.begin(), name.end(), 0);
        if (!gen::read_reply_glGetActiveUniform(wait(ctx), &len, 4, &size, 4, &type, 4,
                                                reinterpret_cast<::mgl::GLchar*>(name.data()), cap))
            continue;
        Slot s;
        const std::string full(name.data(), strnlen(name.data(), cap));
        if (!parse(full, s)) continue;
        s.type = type;
        s.count = std::max(size, 1);
        if (s.what == What::matrix && s.mat == kTexture) s.count = std::min(s.count, kMaxTexUnits + 4);
        if (s.what == What::plane_array) s.count = std::min(s.count, 8 - s.index);
        slots.push_back(std::move(s));
        names.push_back(full);
    }
    for (GLint i = 0; i < attr_count; ++i) {
        GLsizei len = 0;
        GLint size = 0;
        GLenum type = 0;
        std::fill(name.begin(), name.end(), 0);
        if (!gen::read_reply_glGetActiveAttrib(wait(ctx), &len, 4, &size, 4, &type, 4,
                                               reinterpret_cast<::mgl::GLchar*>(name.data()), cap))
            continue;
        for (int a = 1; a < kAttrCount; ++a)  // gl_Vertex (0) is the application's attribute 0 as well
            if (std::strcmp(name.data(), kAttrNames[size_t(a)]) == 0) en.attribs |= 1u << a;
    }
    for (const std::string& n : names) e.glGetUniformLocation(program, cstring_blob(n.c_str()));
    for (Slot& s : slots) {
        GLint loc = -1;
        if (!gen::read_reply_glGetUniformLocation(wait(ctx), &loc)) loc = -1;
        s.location = loc;
    }
    std::erase_if(slots, [](const Slot& s) { return s.location < 0; });
}

void transpose(float* m) {
    for (int r = 0; r < 4; ++r)
        for (int c = r + 1; c < 4; ++c) std::swap(m[c * 4 + r], m[r * 4 + c]);
}

// The modelview-projection as Mesa keeps it (_ModelProjectMatrix: P * MV,
// flags of both, which pick its inverse).
Mat mvp_of(FixedFunction& f) {
    Mat p;
    mat_mul(p.m, f.top(1).m, f.top(0).m);
    p.flags = f.top(1).flags | f.top(0).flags;
    return p;
}

// One 4x4 matrix in the slot's form into out[16].
void matrix_value(const Mat& m, Form form, float* out) {
    if (form == kInverse || form == kInverseTranspose) m.inverse(out);
    else std::memcpy(out, m.m, 64);
    if (form == kTranspose || form == kInverseTranspose) transpose(out);
}

void copy4(std::vector<float>& v, const float* p) { v.assign(p, p + 4); }

// The slot's value now; false: not a member we know (left alone).
// State of the context outside the lowering's FixedFunction.
struct ContextState {
    bool two_side = false;       // GL_VERTEX_PROGRAM_TWO_SIDE
    bool clamp_colour = true;    // GL_CLAMP_VERTEX_COLOR (GL_FIXED_ONLY counts as on)
    // The implementation's largest point size: gl_Point.sizeMax's initial
    // value (GL_POINT_SIZE_MAX's, as Mesa; glPointParameter is not served,
    // so the initial values are the state).
    float max_point_size = 1;
};

bool value(FixedFunction& f, Slot& s, std::vector<float>& v, const ContextState& cs) {
    switch (s.what) {
        case What::matrix: {
            v.resize(size_t(16 * s.count));
            for (int i = 0; i < s.count; ++i) {
                if (s.mat == kTexture) {
                    const int unit = s.index + i;
                    if (unit < kMaxTexUnits) matrix_value(f.top(2 + unit), Form(s.form), &v[size_t(16 * i)]);
                    else matrix_value(Mat{}, Form(s.form), &v[size_t(16 * i)]);  // units without a stack: identity
                } else {
                    const Mat m = s.mat == kModelView ? f.top(0) : s.mat == kProjection ? f.top(1) : mvp_of(f);
                    matrix_value(m, Form(s.form), v.data());
                }
            }
            return true;
        }
        case What::normal_matrix: {
            float inv[16];
            f.top(0).inverse(inv);
            v.resize(9);
            for (int c = 0; c < 3; ++c)
                for (int r = 0; r < 3; ++r) v[size_t(c * 3 + r)] = inv[r * 4 + c];
            return true;
        }
        case What::normal_scale: {
            float scale = 1.0F;
            if (!f.top(0).length_preserving()) {
                float inv[16];
                f.top(0).inverse(inv);
                float s2 = inv[2] * inv[2] + inv[6] * inv[6] + inv[10] * inv[10];
                if (s2 < 1e-12F) s2 = 1.0F;
                scale = 1.0F / sqrtf(s2);
            }
            v.assign(1, scale);
            return true;
        }
        case What::light: {
            const Light& l = f.lights[s.index];
            const std::string& m = s.member;
            if (m == "ambient") copy4(v, l.ambient);
            else if (m == "diffuse") copy4(v, l.diffuse);
            else if (m == "specular") copy4(v, l.specular);
            else if (m == "position") copy4(v, l.position);
            else if (m == "halfVector") {
                // GLSL 1.10 §7.5's infinite-light half vector: normalize(normalize(P) + (0, 0, 1))
                float h[3] = {l.position[0], l.position[1], l.position[2]};
                float len = sqrtf(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
                if (len > 0) h[0] /= len, h[1] /= len, h[2] /= len;
                h[2] += 1.0F;
                len = sqrtf(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
                if (len > 0) h[0] /= len, h[1] /= len, h[2] /= len;
                v = {h[0], h[1], h[2], 1.0F};
            } else if (m == "spotDirection") v.assign(l.spot_dir, l.spot_dir + 3);
            else if (m == "spotExponent") v.assign(1, l.spot_exp);
            else if (m == "spotCutoff") v.assign(1, l.spot_cutoff);
            else if (m == "spotCosCutoff") v.assign(1, std::max(0.0F, float(cosf(float(l.spot_cutoff * M_PI / 180.0)))));
            else if (m == "constantAttenuation") v.assign(1, l.att[0]);
            else if (m == "linearAttenuation") v.assign(1, l.att[1]);
            else if (m == "quadraticAttenuation") v.assign(1, l.att[2]);
            else return false;
            return true;
        }
        case What::light_model:
            copy4(v, f.light_model_ambient);
            return true;
        case What::scene_color: {
            const Material& mat = s.back ? f.back : f.front;
            v.resize(4);
            for (int i = 0; i < 3; ++i) v[size_t(i)] = f.light_model_ambient[i] * mat.ambient[i] + mat.emission[i];
            v[3] = mat.diffuse[3];
            return true;
        }
        case What::light_product: {
            const Light& l = f.lights[s.index];
            const Material& mat = s.back ? f.back : f.front;
            const float *lc, *mc;
            if (s.member == "ambient") lc = l.ambient, mc = mat.ambient;
            else if (s.member == "diffuse") lc = l.diffuse, mc = mat.diffuse;
            else if (s.member == "specular") lc = l.specular, mc = mat.specular;
            else return false;
            v = {lc[0] * mc[0], lc[1] * mc[1], lc[2] * mc[2], mc[3]};  // the material's alpha, as Mesa
            return true;
        }
        case What::material: {
            const Material& mat = s.back ? f.back : f.front;
            const std::string& m = s.member;
            if (m == "emission") copy4(v, mat.emission);
            else if (m == "ambient") copy4(v, mat.ambient);
            else if (m == "diffuse") copy4(v, mat.diffuse);
            else if (m == "specular") copy4(v, mat.specular);
            else if (m == "shininess") v.assign(1, mat.shininess);
            else return false;
            return true;
        }
        case What::fog: {
            const std::string& m = s.member;
            if (m == "color") copy4(v, f.fog_color);
            else if (m == "density") v.assign(1, f.fog_density);
            else if (m == "start") v.assign(1, f.fog_start);
            else if (m == "end") v.assign(1, f.fog_end);
            else if (m == "scale")
                v.assign(1, std::clamp(1.0F / (f.fog_end - f.fog_start), FLT_MIN / 2, FLT_MAX / 2));
            else return false;
            return true;
        }
        case What::point: {
            const std::string& m = s.member;
            if (m == "size") v.assign(1, f.point_size);
            else if (m == "sizeMin") v.assign(1, 0.0F);
            else if (m == "sizeMax") v.assign(1, cs.max_point_size);
            else if (m == "fadeThresholdSize" || m == "distanceConstantAttenuation") v.assign(1, 1.0F);
            else if (m == "distanceLinearAttenuation" || m == "distanceQuadraticAttenuation") v.assign(1, 0.0F);
            else return false;
            return true;
        }
        case What::plane_array:
            v.resize(size_t(4 * s.count));
            for (int i = 0; i < s.count; ++i) {
                const int at = s.index + i;  // < 8: parse() and query() bound it
                const float* p = s.plane == kClipPlane ? f.clip_planes[size_t(at)].data()
                                 : s.plane == kEnvColor ? f.tex_env[size_t(at)].color
                                 : s.plane < kObjectPlane ? f.texgen[size_t(at)][s.plane - kEyePlane].eye
                                                          : f.texgen[size_t(at)][s.plane - kObjectPlane].object;
                std::copy(p, p + 4, v.begin() + 4 * i);
            }
            return true;
        case What::two_side:
            v.assign(1, cs.two_side ? 1.0F : 0.0F);
            return true;
        case What::clamp_colour:
            v.assign(1, cs.clamp_colour ? 1.0F : 0.0F);
            return true;
    }
    return false;
}

// The serials a matrix slot's value comes from.
std::array<uint64_t, kMaxTexUnits + 1> serials_of(FixedFunction& f, const Slot& s) {
    std::array<uint64_t, kMaxTexUnits + 1> k{};
    if (s.what == What::matrix && s.mat == kTexture) {
        for (int i = 0; i < s.count && s.index + i < kMaxTexUnits; ++i) k[size_t(i)] = f.top(2 + s.index + i).serial;
    } else if (s.what == What::matrix && s.mat == kProjection) {
        k[0] = f.top(1).serial;
    } else if (s.what == What::matrix && s.mat == kMvp) {
        k[0] = f.top(0).serial, k[1] = f.top(1).serial;
    } else {
        k[0] = f.top(0).serial;  // the modelview and what is derived from it
    }
    return k;
}

void send(Context& ctx, const Slot& s, const std::vector<float>& v) {
    gen::Encoder& e = *ctx.enc;
    const wire::Blob b{v.data(), uint32_t(v.size() * 4)};
    switch (s.type) {
        case kMat4: e.glUniformMatrix4fv(s.location, GLsizei(v.size() / 16), GL_FALSE, b); break;
        case kMat3: e.glUniformMatrix3fv(s.location, 1, GL_FALSE, b); break;
        case kVec4: e.glUniform4fv(s.location, GLsizei(v.size() / 4), b); break;
        case kVec3: e.glUniform3fv(s.location, 1, b); break;
        case kFloat: e.glUniform1fv(s.location, 1, b); break;
        default:
            if (first_time("compat-builtin-type"))
                log().warn("fixed-function uniform at location {} has the unexpected type 0x{:04X}: not set",
                           s.location, s.type);
            break;
    }
}

}  // namespace

// The implementation's largest point size (the limits fetched at the
// context's first make-current).
float max_point_size(const Context& ctx) {
    const auto it = ctx.limits.find(0x846D);  // GL_ALIASED_POINT_SIZE_RANGE
    return it == ctx.limits.end() || it->second.count < 2 ? 1.0F : float(it->second.f[1]);
}


struct AppPrograms {
    std::unordered_map<uint32_t, Entry> programs;
    std::vector<float> scratch;
    bool two_side = false;  // GL_VERTEX_PROGRAM_TWO_SIDE
    float max_point_size = -1;  // gl_Point.sizeMax's value, looked up once
};

namespace {
constexpr GLenum kVertexProgramTwoSide = 0x8643;

AppPrograms* app_programs(Context& ctx) {
    FixedFunction* f = ff(ctx);
    if (!f) return nullptr;
    if (!f->app_programs) f->app_programs = std::make_shared<AppPrograms>();
    return f->app_programs.get();
}
}  // namespace

bool program_cap(Context& ctx, GLenum cap, bool on) {
    if (cap != kVertexProgramTwoSide) return false;
    AppPrograms* ap = app_programs(ctx);
    if (!ap) return false;
    ap->two_side = on;
    return true;
}

bool program_cap_enabled(Context& ctx, GLenum cap, bool* out) {
    if (cap != kVertexProgramTwoSide) return false;
    AppPrograms* ap = app_programs(ctx);
    if (!ap) return false;
    *out = ap->two_side;
    return true;
}

void program_linked(Context& ctx, uint32_t program) {
    std::lock_guard<std::mutex> g(ctx.group->mu);
    ++ctx.group->compat_programs[program].first;
}

// The current values of the fixed-function attributes the program reads and
// no enabled array feeds (the lowering's own record of what the server has:
// FixedFunction::sent_current).
void send_current(Context& ctx, FixedFunction& f, uint32_t attribs, const Layout* arrays) {
    for (int a = 1; a < kAttrCount; ++a) {
        if (!(attribs & (1u << a))) continue;
        bool from_array;
        if (arrays) {
            from_array = arrays->size[size_t(a)] > 0;
        } else {
            const auto& va = ctx.st.vao().attribs;
            from_array = size_t(a) < va.size() && va[size_t(a)].enabled;
        }
        if (from_array) {
            f.sent_current_valid &= ~(1u << a);
            continue;
        }
        if ((f.sent_current_valid & (1u << a)) && f.sent_current[size_t(a)] == f.current[size_t(a)]) continue;
        ctx.enc->glVertexAttrib4fv(GLuint(a), wire::Blob{f.current[size_t(a)].data(), 16});
        f.sent_current[size_t(a)] = f.current[size_t(a)];
        f.sent_current_valid |= 1u << a;
        f.generic_clobbered |= 1u << a;
    }
}

namespace {
// GL alpha-tests the fragments of an application's program too: the server
// tests them against the state sent here (GL_ALWAYS while the test is off),
// sent when it changed since this context's last program draw.
void send_alpha_test(Context& ctx, FixedFunction& f) {
    const GLenum func = f.alpha_test ? f.alpha_func : 0x0207;
    const float ref = func == 0x0207 ? f.sent_alpha_ref : f.alpha_ref;
    if (func == f.sent_alpha_func && ref == f.sent_alpha_ref) return;
    ctx.enc->glAlphaFunc(func, ref);
    f.sent_alpha_func = func;
    f.sent_alpha_ref = ref;
}
}  // namespace

// The current program's record, asked again after a link.
Entry* current_entry(Context& ctx) {
    const uint32_t program = ctx.st.program;
    if (program == 0) return nullptr;
    AppPrograms* app = app_programs(ctx);
    if (!app) return nullptr;
    uint64_t links;
    bool other_context;
    {
        std::lock_guard<std::mutex> g(ctx.group->mu);
        auto& shared = ctx.group->compat_programs[program];
        links = shared.first;
        other_context = shared.second != ctx.id;
        shared.second = ctx.id;
    }
    Entry& en = app->programs[program];
    if (en.links != links) {
        query(ctx, program, en);
        en.links = links;
    } else if (other_context) {
        for (Slot& s : en.slots) s.valid = false;  // another context put its own state there
    }
    return &en;
}

uint32_t program_builtin_attribs(Context& ctx) {
    const Entry* en = current_entry(ctx);
    return en ? en->attribs | 1u : ~0u;
}

void upload_program_builtins(Context& ctx, const Layout* arrays) {
    if (FixedFunction* f = ff(ctx); f && !ctx.es1) send_alpha_test(ctx, *f);
    Entry* const entry = current_entry(ctx);
    if (!entry) return;
    Entry& en = *entry;
    AppPrograms& ap = *app_programs(ctx);
    FixedFunction* f = ctx.ff.get();
    // The client cannot run the application's vertex stage, so it cannot find its polygons' facing.
    if (f && (f->polygon_mode[0] != 0x1B02 || f->polygon_mode[1] != 0x1B02) && first_time("ff-polygon-mode-program"))
        log().warn("glPolygonMode GL_LINE/GL_POINT is not lowered for draws of GLSL programs: their polygons are filled");
    ContextState cs;
    cs.two_side = ap.two_side;
    cs.clamp_colour = ctx.st.clamp_vertex_color != 0;  // GL_FALSE
    if (ap.max_point_size < 0) ap.max_point_size = max_point_size(ctx);  // the limits are fixed per context
    cs.max_point_size = ap.max_point_size;
    for (Slot& s : en.slots) {
        const bool derived = s.what == What::matrix || s.what == What::normal_matrix || s.what == What::normal_scale;
        std::array<uint64_t, kMaxTexUnits + 1> k{};
        if (derived) {
            k = serials_of(*f, s);
            if (s.valid && k == s.serials) continue;
        }
        if (!value(*f, s, ap.scratch, cs)) continue;
        if (s.valid && s.sent == ap.scratch) {
            s.serials = k;
            continue;
        }
        send(ctx, s, ap.scratch);
        s.sent = ap.scratch;
        s.serials = k;
        s.valid = true;
    }
    if (en.attribs) send_current(ctx, *f, en.attribs, arrays);
    if (f->generic_clobbered & ~en.attribs) restore_generics(ctx, *f, en.attribs);
}

}  // namespace mgl::client::compat

namespace mgl_custom {

void glLinkProgram(GLuint program) {
    MGL_CTX_OR_RETURN("glLinkProgram");
    if (ctx->desktop()) mgl::client::compat::program_linked(*ctx, program);
    ctx->enc->glLinkProgram(program);
}

}  // namespace mgl_custom
