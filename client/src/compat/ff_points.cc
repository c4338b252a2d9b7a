// Point parameters of the compatibility profile and ES 1.1 (GL 2.1 §3.4,
// GL_ARB_point_parameters, and GL 2.0's point sprite origin): glPointParameter*
// keeps GL_POINT_SIZE_MIN / _MAX, GL_POINT_FADE_THRESHOLD_SIZE,
// GL_POINT_DISTANCE_ATTENUATION and GL_POINT_SPRITE_COORD_ORIGIN on the
// client, and the lowering's vertex stage derives each point's size as GL
// says: clamp(size * sqrt(1 / (a + b d + c d^2)), min, max), d the eye
// distance (Key::point_params). A GLES host has no point parameters: in a
// context without the lowering (core profile) they go to the server, whose
// GL front end keeps the two core ones (the origin reaches the programs'
// gl_PointCoord there) and refuses the others. The origin of a
// compatibility context stays here: the lowering's programs mirror their
// sprite coordinates themselves (Key::sprite_lower_left), and the
// application's programs there keep GLES's upper-left origin (not yet).
#include <algorithm>
#include <cmath>

#include "compat/ff_verbs.h"

namespace mgl::client::compat {

namespace {

constexpr GLenum kSizeMin = 0x8126, kSizeMax = 0x8127, kFade = 0x8128, kAttenuation = 0x8129,
                 kOrigin = 0x8CA0, kLowerLeft = 0x8CA1, kUpperLeft = 0x8CA2;

int value_count(GLenum pname) { return pname == kAttenuation ? 3 : 1; }

// One glPointParameter* call with its values as floats. Without the
// lowering (a core context) they go to the server as glPointParameterfv.
void point_parameter(const char* verb, GLenum pname, const float* v) {
    MGL_CTX_OR_RETURN(verb);
    FixedFunction* f = ff(*ctx);
    if (!f) return ctx->enc->glPointParameterfv(pname, wire::Blob{v, uint32_t(value_count(pname) * 4)});
    NOT_IN_BEGIN(verb);
    switch (pname) {
        case kSizeMin: case kSizeMax: case kFade:
            if (v[0] < 0) return gl_error(*ctx, GL_INVALID_VALUE, verb);
            (pname == kSizeMin ? f->point_size_min : pname == kSizeMax ? f->point_size_max : f->point_fade) = v[0];
            return;
        case kAttenuation:
            std::copy(v, v + 3, f->point_attenuation);
            return;
        case kOrigin:
            if (GLenum(v[0]) != kLowerLeft && GLenum(v[0]) != kUpperLeft) return gl_error(*ctx, GL_INVALID_VALUE, verb);
            f->point_lower_left = GLenum(v[0]) == kLowerLeft;
            return;
        default:
            return gl_error(*ctx, GL_INVALID_ENUM, verb);
    }
}

}  // namespace

bool point_params_get(const Context& ctx, const FixedFunction& f, GLenum pname, QueryValue* out) {
    switch (pname) {
        case 0x0B11: *out = QueryValue::floats({f.point_size}); return true;  // GL_POINT_SIZE (a GLES host has none)
        case kSizeMin: *out = QueryValue::floats({f.point_size_min}); return true;
        case kSizeMax: *out = QueryValue::floats({f.point_size_max < 0 ? max_point_size(ctx) : f.point_size_max}); return true;
        case kFade: *out = QueryValue::floats({f.point_fade}); return true;
        case kAttenuation:
            *out = QueryValue::floats({f.point_attenuation[0], f.point_attenuation[1], f.point_attenuation[2]});
            return true;
        case kOrigin: *out = QueryValue::ints({f.point_lower_left ? kLowerLeft : kUpperLeft}); return true;
        default: return false;
    }
}

bool point_params_set(const FixedFunction& f) {
    return f.point_attenuation[0] != 1.0F || f.point_attenuation[1] != 0.0F || f.point_attenuation[2] != 0.0F ||
           f.point_size_min != 0.0F || f.point_size_max >= 0.0F;
}

}  // namespace mgl::client::compat

namespace mgl_custom {

using namespace mgl::client;
using namespace mgl::client::compat;

void glPointParameterf(GLenum pname, GLfloat param) {
    if (value_count(pname) != 1) {  // GL_POINT_DISTANCE_ATTENUATION has no scalar form
        MGL_CTX_OR_RETURN("glPointParameterf");
        return gl_error(*ctx, GL_INVALID_ENUM, "glPointParameterf");
    }
    point_parameter("glPointParameterf", pname, &param);
}
void glPointParameterfv(GLenum pname, const GLfloat* params) {
    if (params) point_parameter("glPointParameterfv", pname, params);
}
void glPointParameteri(GLenum pname, GLint param) {
    if (value_count(pname) != 1) {
        MGL_CTX_OR_RETURN("glPointParameteri");
        return gl_error(*ctx, GL_INVALID_ENUM, "glPointParameteri");
    }
    const float v = float(param);
    point_parameter("glPointParameteri", pname, &v);
}
void glPointParameteriv(GLenum pname, const GLint* params) {
    if (!params) return;
    float v[3] = {};
    for (int i = 0; i < value_count(pname); ++i) v[i] = float(params[i]);
    point_parameter("glPointParameteriv", pname, v);
}

}  // namespace mgl_custom
