// Planes of the fixed-function pipeline: texture coordinate generation
// (glTexGen*, GL_TEXTURE_GEN_S..Q) and user clip planes (glClipPlane,
// GL_CLIP_PLANE0..7). Eye-space planes are multiplied by the inverse of the
// modelview matrix when they are set, as GL says; the generated vertex stage
// (ff_shader.cc) evaluates them per vertex (clip planes as gl_ClipDistance,
// which the host serves through GL_EXT_clip_cull_distance).
#include <cstring>

#include "compat/ff.h"
#include "custom/common.h"

namespace mgl::client::compat {

namespace {

// p * M^-1 (a plane, a row vector, by the inverse modelview).
void to_eye(const Mat& mv, const float* p, float* out) {
    float inv[16];
    mv.inverse(inv);
    for (int c = 0; c < 4; ++c)
        out[c] = p[0] * inv[c * 4 + 0] + p[1] * inv[c * 4 + 1] + p[2] * inv[c * 4 + 2] + p[3] * inv[c * 4 + 3];
}

bool valid_mode(GLenum coord, GLenum mode) {
    switch (mode) {
        case 0x2400: case 0x2401: return true;                  // GL_EYE_LINEAR, GL_OBJECT_LINEAR
        case 0x2402: return coord == 0x2000 || coord == 0x2001;  // GL_SPHERE_MAP: s and t only
        case 0x8511: case 0x8512: return coord != 0x2003;        // GL_NORMAL_MAP, GL_REFLECTION_MAP: not q
        default: return false;
    }
}

void tex_gen(Context& ctx, GLenum coord, GLenum pname, const float* p, const char* verb) {
    FixedFunction& f = *ff(ctx);
    if (coord < 0x2000 || coord > 0x2003) return gl_error(ctx, GL_INVALID_ENUM, verb);  // GL_S..GL_Q
    const int unit = std::min<int>(int(ctx.st.active_unit()), kMaxTexUnits - 1);
    TexGen& g = f.texgen[size_t(unit)][coord - 0x2000];
    switch (pname) {
        case 0x2500:  // GL_TEXTURE_GEN_MODE
            if (!valid_mode(coord, GLenum(p[0]))) return gl_error(ctx, GL_INVALID_ENUM, verb);
            g.mode = GLenum(p[0]);
            break;
        case 0x2501: std::memcpy(g.object, p, 16); break;       // GL_OBJECT_PLANE
        case 0x2502: to_eye(f.top(0), p, g.eye); break;         // GL_EYE_PLANE
        default: gl_error(ctx, GL_INVALID_ENUM, verb); break;
    }
}

void tex_genv(const char* verb, GLenum coord, GLenum pname, const float* p) {
    MGL_CTX_OR_RETURN(verb);
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, verb);
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, verb);
    std::array<float, 4> v{};
    std::memcpy(v.data(), p, (pname == 0x2500 ? 1 : 4) * 4);
    auto run = [=](Context& c) { tex_gen(c, coord, pname, v.data(), verb); };
    run(*ctx);
}

template <class T>
void get_tex_gen(const char* verb, GLenum coord, GLenum pname, T* out) {
    MGL_CTX_OR_RETURN(verb);
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, verb);
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, verb);
    if (coord < 0x2000 || coord > 0x2003) return gl_error(*ctx, GL_INVALID_ENUM, verb);
    const int unit = std::min<int>(int(ctx->st.active_unit()), kMaxTexUnits - 1);
    const TexGen& g = f->texgen[size_t(unit)][coord - 0x2000];
    switch (pname) {
        case 0x2500: out[0] = T(g.mode); break;
        case 0x2501: for (int i = 0; i < 4; ++i) out[i] = T(g.object[i]); break;
        case 0x2502: for (int i = 0; i < 4; ++i) out[i] = T(g.eye[i]); break;
        default: gl_error(*ctx, GL_INVALID_ENUM, verb); break;
    }
}

}  // namespace

void send_clip_plane(Context& ctx, int index) {
    const auto& p = ff(ctx)->clip_planes[size_t(index)];
    const double eq[4] = {p[0], p[1], p[2], p[3]};
    ctx.enc->glClipPlane(GLenum(0x3000 + index), wire::Blob{eq, sizeof eq});
}

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

void glTexGeni(GLenum coord, GLenum pname, GLint param) {
    const float v = float(param);
    tex_genv("glTexGeni", coord, pname, &v);
}
void glTexGenf(GLenum coord, GLenum pname, GLfloat param) { tex_genv("glTexGenf", coord, pname, &param); }
void glTexGend(GLenum coord, GLenum pname, GLdouble param) {
    const float v = float(param);
    tex_genv("glTexGend", coord, pname, &v);
}
void glTexGeniv(GLenum coord, GLenum pname, const GLint* p) {
    float v[4] = {};
    for (int i = 0; i < (pname == 0x2500 ? 1 : 4); ++i) v[i] = float(p[i]);
    tex_genv("glTexGeniv", coord, pname, v);
}
void glTexGenfv(GLenum coord, GLenum pname, const GLfloat* p) { tex_genv("glTexGenfv", coord, pname, p); }
void glTexGendv(GLenum coord, GLenum pname, const GLdouble* p) {
    float v[4] = {};
    for (int i = 0; i < (pname == 0x2500 ? 1 : 4); ++i) v[i] = float(p[i]);
    tex_genv("glTexGendv", coord, pname, v);
}
void glGetTexGeniv(GLenum coord, GLenum pname, GLint* p) { get_tex_gen("glGetTexGeniv", coord, pname, p); }
void glGetTexGenfv(GLenum coord, GLenum pname, GLfloat* p) { get_tex_gen("glGetTexGenfv", coord, pname, p); }
void glGetTexGendv(GLenum coord, GLenum pname, GLdouble* p) { get_tex_gen("glGetTexGendv", coord, pname, p); }

void glClipPlane(GLenum plane, const GLdouble* eq) {
    MGL_CTX_OR_RETURN("glClipPlane");
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, "glClipPlane");
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, "glClipPlane");
    if (plane < 0x3000 || plane >= 0x3000 + kMaxClipPlanes) return gl_error(*ctx, GL_INVALID_ENUM, "glClipPlane");
    const std::array<float, 4> p{float(eq[0]), float(eq[1]), float(eq[2]), float(eq[3])};
    auto run = [plane, p](Context& c) {
        FixedFunction& g = *ff(c);
        to_eye(g.top(0), p.data(), g.clip_planes[plane - 0x3000].data());
        // The planes clip the application's vertex shaders on the server
        // (the fixed-function programs take them as their own uniforms).
        send_clip_plane(c, int(plane - 0x3000));
    };
    run(*ctx);
}

void glGetClipPlane(GLenum plane, GLdouble* eq) {
    MGL_CTX_OR_RETURN("glGetClipPlane");
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, "glGetClipPlane");
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, "glGetClipPlane");
    if (plane < 0x3000 || plane >= 0x3000 + kMaxClipPlanes) return gl_error(*ctx, GL_INVALID_ENUM, "glGetClipPlane");
    for (int i = 0; i < 4; ++i) eq[i] = f->clip_planes[plane - 0x3000][size_t(i)];
}

}  // namespace mgl_custom
