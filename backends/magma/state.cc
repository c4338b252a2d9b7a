// Fixed-function state: kept in the context, turned into pipeline state and
// dynamic state at each draw (draw.cc).
#include <algorithm>

#include "backend.h"

namespace mgl::magma {

void MagmaBackend::set_cap(GLenum cap, bool on) {
    if (!need_context(on ? gen::Op::glEnable : gen::Op::glDisable)) return;
    if (desktop_cap(cap, on) || sample_mask_cap(cap, on) || cur_->debug.set_cap(cap, on)) return;
    State& s = cur_->st;
    switch (cap) {
        case GL_BLEND: s.blend = on; break;
        case GL_CULL_FACE: s.cull = on; break;
        case GL_DEPTH_TEST: s.depth_test = on; break;
        case GL_STENCIL_TEST: s.stencil_test = on; break;
        case GL_SCISSOR_TEST: s.scissor_test = on; break;
        case GL_POLYGON_OFFSET_FILL: s.polygon_offset = on; break;
        case GL_PRIMITIVE_RESTART_FIXED_INDEX: s.primitive_restart = on; break;
        case GL_RASTERIZER_DISCARD: s.rasterizer_discard = on; break;
        case GL_DITHER: s.dither = on; break;
        case GL_SAMPLE_COVERAGE: s.sample_coverage = on; break;
        case GL_SAMPLE_ALPHA_TO_COVERAGE: s.alpha_to_coverage = on; break;
        default: refuse(on ? gen::Op::glEnable : gen::Op::glDisable, GL_INVALID_ENUM, "unknown capability");
    }
}

void MagmaBackend::glSampleCoverage(GLfloat value, GLboolean invert) {
    if (!need_context(gen::Op::glSampleCoverage)) return;
    cur_->st.coverage_value = std::clamp(value, 0.0f, 1.0f);
    cur_->st.coverage_invert = invert != GL_FALSE;
}

void MagmaBackend::glBlendFuncSeparate(GLenum sr, GLenum dr, GLenum sa, GLenum da) {
    if (!need_context(gen::Op::glBlendFuncSeparate)) return;
    State& s = cur_->st;
    s.blend_src_rgb = sr, s.blend_dst_rgb = dr, s.blend_src_a = sa, s.blend_dst_a = da;
}

void MagmaBackend::glBlendEquationSeparate(GLenum rgb, GLenum alpha) {
    if (!need_context(gen::Op::glBlendEquationSeparate)) return;
    cur_->st.blend_eq_rgb = rgb;
    cur_->st.blend_eq_a = alpha;
}

void MagmaBackend::glBlendColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
    if (!need_context(gen::Op::glBlendColor)) return;
    float* c = cur_->st.blend_color;
    c[0] = r, c[1] = g, c[2] = b, c[3] = a;
}

void MagmaBackend::glColorMask(GLboolean r, GLboolean g, GLboolean b, GLboolean a) {
    if (!need_context(gen::Op::glColorMask)) return;
    bool* m = cur_->st.color_mask;
    m[0] = r, m[1] = g, m[2] = b, m[3] = a;
}

void MagmaBackend::glDepthFunc(GLenum func) {
    if (need_context(gen::Op::glDepthFunc)) cur_->st.depth_func = func;
}
void MagmaBackend::glDepthMask(GLboolean flag) {
    if (need_context(gen::Op::glDepthMask)) cur_->st.depth_mask = flag;
}
void MagmaBackend::glDepthRangef(GLfloat n, GLfloat f) {
    if (!need_context(gen::Op::glDepthRangef)) return;
    cur_->st.depth_near = std::clamp(n, 0.0f, 1.0f);
    cur_->st.depth_far = std::clamp(f, 0.0f, 1.0f);
}
void MagmaBackend::glCullFace(GLenum mode) {
    if (need_context(gen::Op::glCullFace)) cur_->st.cull_face = mode;
}
void MagmaBackend::glFrontFace(GLenum mode) {
    if (need_context(gen::Op::glFrontFace)) cur_->st.front_face = mode;
}

void MagmaBackend::glViewport(GLint x, GLint y, GLsizei w, GLsizei h) {
    if (!need_context(gen::Op::glViewport)) return;
    if (w < 0 || h < 0) return refuse(gen::Op::glViewport, GL_INVALID_VALUE, "negative size");
    int* v = cur_->st.viewport;
    v[0] = x, v[1] = y, v[2] = w, v[3] = h;
    cur_->viewport_set = true;
}

void MagmaBackend::glScissor(GLint x, GLint y, GLsizei w, GLsizei h) {
    if (!need_context(gen::Op::glScissor)) return;
    if (w < 0 || h < 0) return refuse(gen::Op::glScissor, GL_INVALID_VALUE, "negative size");
    int* v = cur_->st.scissor;
    v[0] = x, v[1] = y, v[2] = w, v[3] = h;
}

void MagmaBackend::glClearColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
    if (!need_context(gen::Op::glClearColor)) return;
    float* c = cur_->st.clear_color;
    c[0] = r, c[1] = g, c[2] = b, c[3] = a;
    cur_->dstate.clear_kind = gl::DesktopState::ClearKind::floating;  // ends an EXT_texture_integer colour
}
void MagmaBackend::glClearDepthf(GLfloat d) {
    if (need_context(gen::Op::glClearDepthf)) cur_->st.clear_depth = std::clamp(d, 0.0f, 1.0f);
}
void MagmaBackend::glClearStencil(GLint s) {
    if (need_context(gen::Op::glClearStencil)) cur_->st.clear_stencil = s;
}

void MagmaBackend::glStencilFuncSeparate(GLenum face, GLenum func, GLint ref, GLuint mask) {
    if (!need_context(gen::Op::glStencilFuncSeparate)) return;
    for (int i = 0; i < 2; ++i) {
        if ((i == 0 && face == GL_BACK) || (i == 1 && face == GL_FRONT)) continue;
        StencilFace& f = cur_->st.stencil[i];
        f.func = func, f.ref = ref, f.mask = mask;
    }
}

void MagmaBackend::glStencilOpSeparate(GLenum face, GLenum fail, GLenum zfail, GLenum zpass) {
    if (!need_context(gen::Op::glStencilOpSeparate)) return;
    for (int i = 0; i < 2; ++i) {
        if ((i == 0 && face == GL_BACK) || (i == 1 && face == GL_FRONT)) continue;
        StencilFace& f = cur_->st.stencil[i];
        f.fail = fail, f.zfail = zfail, f.zpass = zpass;
    }
}

void MagmaBackend::glStencilMaskSeparate(GLenum face, GLuint mask) {
    if (!need_context(gen::Op::glStencilMaskSeparate)) return;
    for (int i = 0; i < 2; ++i) {
        if ((i == 0 && face == GL_BACK) || (i == 1 && face == GL_FRONT)) continue;
        cur_->st.stencil[i].writemask = mask;
    }
}

void MagmaBackend::glLineWidth(GLfloat width) {
    if (!need_context(gen::Op::glLineWidth)) return;
    if (width <= 0) return refuse(gen::Op::glLineWidth, GL_INVALID_VALUE, "width <= 0");
    cur_->st.line_width = width;
}

void MagmaBackend::glPolygonOffset(GLfloat factor, GLfloat units) {
    if (!need_context(gen::Op::glPolygonOffset)) return;
    cur_->st.offset_factor = factor;
    cur_->st.offset_units = units;
}

void MagmaBackend::glPixelStorei(GLenum pname, GLint param) {
    if (!need_context(gen::Op::glPixelStorei)) return;
    PixelStore& u = cur_->unpack;
    PixelStore& p = cur_->pack;
    switch (pname) {
        case GL_UNPACK_ALIGNMENT: u.alignment = param; break;
        case GL_UNPACK_ROW_LENGTH: u.row_length = param; break;
        case GL_UNPACK_SKIP_ROWS: u.skip_rows = param; break;
        case GL_UNPACK_SKIP_PIXELS: u.skip_pixels = param; break;
        case GL_UNPACK_IMAGE_HEIGHT: u.image_height = param; break;
        case GL_UNPACK_SKIP_IMAGES: u.skip_images = param; break;
        case GL_PACK_ALIGNMENT: p.alignment = param; break;
        case GL_PACK_ROW_LENGTH: p.row_length = param; break;
        case GL_PACK_SKIP_ROWS: p.skip_rows = param; break;
        case GL_PACK_SKIP_PIXELS: p.skip_pixels = param; break;
        case 0x0CF0:  // desktop GL_UNPACK_SWAP_BYTES: desktop uploads swap in the front end's converter
            if (!cur_->desktop()) return refuse(gen::Op::glPixelStorei, GL_INVALID_ENUM, "pname");
            cur_->unpack_swap = param != 0;
            break;
        default: refuse(gen::Op::glPixelStorei, GL_INVALID_ENUM, "pname");
    }
}

}  // namespace mgl::magma
