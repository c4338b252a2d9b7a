// glVertexAttribP{1,2,3,4}ui[v] (GL 3.3, ARB_vertex_type_2_10_10_10_rev; GL
// 4.4's 10F_11F_11F_REV for up to three components): a generic attribute's value
// given as one packed word. Neither a GLES host nor Vulkan has these verbs;
// the client unpacks the word as GL 4.6 §10.2.1 and §2.3.5 say and sets the
// value through glVertexAttrib4f, which every backend serves (and which
// display lists and immediate mode already follow).
#include <cmath>
#include <cstring>

#include "context/texel_convert.h"
#include "custom/common.h"

namespace mgl_custom {

namespace {

constexpr GLenum kUnsigned101111Rev = 0x8C3B;  // GL_UNSIGNED_INT_10F_11F_11F_REV

// The four components of `word` (w is 1 where the verb gives fewer); false:
// a type GL refuses for this verb.
bool unpack(GLenum type, GLboolean normalized, int comps, uint32_t word, float out[4]) {
    out[0] = out[1] = out[2] = 0.0f;
    out[3] = 1.0f;
    float v[4];
    if (type == GL_UNSIGNED_INT_2_10_10_10_REV || type == GL_INT_2_10_10_10_REV) {
        const int bits[4] = {10, 10, 10, 2};
        int shift = 0;
        for (int c = 0; c < 4; shift += bits[c], ++c) {
            const uint32_t raw = (word >> shift) & ((1u << bits[c]) - 1);
            if (type == GL_UNSIGNED_INT_2_10_10_10_REV) {
                v[c] = normalized ? float(raw) / float((1u << bits[c]) - 1) : float(raw);
            } else {
                const int32_t s = int32_t(raw << (32 - bits[c])) >> (32 - bits[c]);  // sign-extended
                v[c] = normalized ? std::fmax(float(s) / float((1 << (bits[c] - 1)) - 1), -1.0f) : float(s);
            }
        }
    } else if (type == kUnsigned101111Rev && comps < 4) {
        v[0] = mgl::gl::unsigned_small_float(word & 0x7FFu, 6);  // the front end's texel decoder
        v[1] = mgl::gl::unsigned_small_float((word >> 11) & 0x7FFu, 6);
        v[2] = mgl::gl::unsigned_small_float(word >> 22, 5);
    } else {
        return false;
    }
    for (int c = 0; c < comps; ++c) out[c] = v[c];
    return true;
}

void packed(const char* verb, int comps, GLuint index, GLenum type, GLboolean normalized, const GLuint* value) {
    MGL_CTX_OR_RETURN(verb);
    float v[4];
    if (!value) return;  // nothing to read (the application's fault; GL reads it)
    if (!unpack(type, normalized, comps, *value, v)) {
        gl_error(*ctx, GL_INVALID_ENUM, verb);
        return;
    }
    mgl_glVertexAttrib4f(index, v[0], v[1], v[2], v[3]);
}

}  // namespace

void glVertexAttribP1ui(GLuint i, GLenum t, GLboolean n, GLuint v) { packed("glVertexAttribP1ui", 1, i, t, n, &v); }
void glVertexAttribP2ui(GLuint i, GLenum t, GLboolean n, GLuint v) { packed("glVertexAttribP2ui", 2, i, t, n, &v); }
void glVertexAttribP3ui(GLuint i, GLenum t, GLboolean n, GLuint v) { packed("glVertexAttribP3ui", 3, i, t, n, &v); }
void glVertexAttribP4ui(GLuint i, GLenum t, GLboolean n, GLuint v) { packed("glVertexAttribP4ui", 4, i, t, n, &v); }
void glVertexAttribP1uiv(GLuint i, GLenum t, GLboolean n, const GLuint* v) { packed("glVertexAttribP1uiv", 1, i, t, n, v); }
void glVertexAttribP2uiv(GLuint i, GLenum t, GLboolean n, const GLuint* v) { packed("glVertexAttribP2uiv", 2, i, t, n, v); }
void glVertexAttribP3uiv(GLuint i, GLenum t, GLboolean n, const GLuint* v) { packed("glVertexAttribP3uiv", 3, i, t, n, v); }
void glVertexAttribP4uiv(GLuint i, GLenum t, GLboolean n, const GLuint* v) { packed("glVertexAttribP4uiv", 4, i, t, n, v); }

}  // namespace mgl_custom
