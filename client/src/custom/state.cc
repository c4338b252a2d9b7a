// Hooks of state-setting verbs: each updates the shadow (client/src/state/)
// and forwards the call. A call the client can prove invalid raises its
// error locally and is not sent (a GL command with an error has no effect).

#include "compat/ff.h"
#include "compat/program_builtins.h"
#include "custom/common.h"

namespace mgl_custom {

// ---- bindings ----

void glActiveTexture(GLenum texture) {
    MGL_CTX_OR_RETURN("glActiveTexture");
    if (texture < GL_TEXTURE0 || !ctx->st.set_active_unit(texture - GL_TEXTURE0)) {
        gl_error(*ctx, GL_INVALID_ENUM, "glActiveTexture");
        return;
    }
    ctx->enc->glActiveTexture(texture);
}

void glBindBuffer(GLenum target, GLuint buffer) {
    MGL_CTX_OR_RETURN("glBindBuffer");
    if (server_write_target(target)) mark_server_writes(*ctx, buffer);
    if (uint32_t* slot = ctx->st.buffer_slot(target)) *slot = buffer;
    ctx->enc->glBindBuffer(target, buffer);
}

void glBindBufferBase(GLenum target, GLuint index, GLuint buffer) {
    MGL_CTX_OR_RETURN("glBindBufferBase");
    if (server_write_target(target)) mark_server_writes(*ctx, buffer);
    if (auto* v = ctx->st.indexed(target); v && index < v->size()) (*v)[index] = {buffer, 0, 0};
    if (uint32_t* slot = ctx->st.buffer_slot(target)) *slot = buffer;
    ctx->enc->glBindBufferBase(target, index, buffer);
}

void glBindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size) {
    MGL_CTX_OR_RETURN("glBindBufferRange");
    if (server_write_target(target)) mark_server_writes(*ctx, buffer);
    if (auto* v = ctx->st.indexed(target); v && index < v->size()) (*v)[index] = {buffer, offset, size};
    if (uint32_t* slot = ctx->st.buffer_slot(target)) *slot = buffer;
    ctx->enc->glBindBufferRange(target, index, buffer, offset, size);
}

void glBindTexture(GLenum target, GLuint texture) {
    MGL_CTX_OR_RETURN("glBindTexture");
    if (uint32_t* slot = ctx->st.unit().slot(target)) *slot = texture;
    ctx->enc->glBindTexture(target, texture);
}

void glBindFramebuffer(GLenum target, GLuint framebuffer) {
    MGL_CTX_OR_RETURN("glBindFramebuffer");
    switch (target) {
        case GL_FRAMEBUFFER: ctx->st.draw_fbo = ctx->st.read_fbo = framebuffer; break;
        case GL_DRAW_FRAMEBUFFER: ctx->st.draw_fbo = framebuffer; break;
        case GL_READ_FRAMEBUFFER: ctx->st.read_fbo = framebuffer; break;
        default: gl_error(*ctx, GL_INVALID_ENUM, "glBindFramebuffer"); return;
    }
    ctx->enc->glBindFramebuffer(target, framebuffer);
}

// EXT_framebuffer_object's binds (compatibility contexts: glmark2's desktop
// build) are verbs of their own on the wire, but bind the same objects: the
// shadow must see them, or GL_DRAW_FRAMEBUFFER_BINDING answers 0 while a
// framebuffer object is bound (apitrace then grows the window to the FBO's
// viewport).
void glBindFramebufferEXT(GLenum target, GLuint framebuffer) {
    MGL_CTX_OR_RETURN("glBindFramebufferEXT");
    if (!::mgl::gen::verb_in_api(uint16_t(::mgl::gen::Op::glBindFramebufferEXT), ctx->api_kind, ctx->api_version)) {
        ::mgl::client::profile_error(*ctx, "glBindFramebufferEXT");
        return;
    }
    // GL_EXT_framebuffer_blit adds the read and draw targets to it.
    const bool blit = (target == GL_DRAW_FRAMEBUFFER || target == GL_READ_FRAMEBUFFER) &&
                      lists_extension(*ctx, "GL_EXT_framebuffer_blit");
    if (target != GL_FRAMEBUFFER && !blit) {
        gl_error(*ctx, GL_INVALID_ENUM, "glBindFramebufferEXT");
        return;
    }
    if (target != GL_READ_FRAMEBUFFER) ctx->st.draw_fbo = framebuffer;
    if (target != GL_DRAW_FRAMEBUFFER) ctx->st.read_fbo = framebuffer;
    ctx->enc->glBindFramebufferEXT(target, framebuffer);
}

void glBindRenderbufferEXT(GLenum target, GLuint renderbuffer) {
    MGL_CTX_OR_RETURN("glBindRenderbufferEXT");
    if (!::mgl::gen::verb_in_api(uint16_t(::mgl::gen::Op::glBindRenderbufferEXT), ctx->api_kind, ctx->api_version)) {
        ::mgl::client::profile_error(*ctx, "glBindRenderbufferEXT");
        return;
    }
    if (target == GL_RENDERBUFFER) ctx->st.renderbuffer = renderbuffer;
    ctx->enc->glBindRenderbufferEXT(target, renderbuffer);
}

void glBindRenderbuffer(GLenum target, GLuint renderbuffer) {
    MGL_CTX_OR_RETURN("glBindRenderbuffer");
    if (target == GL_RENDERBUFFER) ctx->st.renderbuffer = renderbuffer;
    ctx->enc->glBindRenderbuffer(target, renderbuffer);
}

void glBindVertexArray(GLuint array) {
    MGL_CTX_OR_RETURN("glBindVertexArray");
    ctx->st.bind_vertex_array(array);
    ctx->enc->glBindVertexArray(array);
}

void glUseProgram(GLuint program) {
    MGL_CTX_OR_RETURN("glUseProgram");
    ctx->st.program = program;
    if (ctx->ff) ctx->ff->server_program = 0;  // the fixed-function program is no longer bound
    ctx->enc->glUseProgram(program);
}

// A bound program pipeline draws while no program is current: the
// compatibility lowering's own program, if it is current on the server, makes
// way (compat/ff.h, app_program_bound).
void glBindProgramPipeline(GLuint pipeline) {
    MGL_CTX_OR_RETURN("glBindProgramPipeline");
    ctx->st.pipeline = pipeline;
    if (ctx->ff && ctx->ff->server_program != 0 && ctx->st.program == 0) {
        ctx->enc->glUseProgram(0);
        ctx->ff->server_program = 0;
    }
    ctx->enc->glBindProgramPipeline(pipeline);
}

void glBindSampler(GLuint unit, GLuint sampler) {
    MGL_CTX_OR_RETURN("glBindSampler");
    if (unit < ctx->st.units().size()) ctx->st.units()[unit].sampler = sampler;
    ctx->enc->glBindSampler(unit, sampler);
}

void glBindTransformFeedback(GLenum target, GLuint id) {
    MGL_CTX_OR_RETURN("glBindTransformFeedback");
    if (target == GL_TRANSFORM_FEEDBACK) ctx->st.transform_feedback = id;
    ctx->enc->glBindTransformFeedback(target, id);
}

// ---- deletion: bindings of deleted objects revert to 0 ----

namespace {
bool names_blob(Context& ctx, const char* verb, GLsizei n, const GLuint* names, wire::Blob& out) {
    if (n < 0) {
        gl_error(ctx, GL_INVALID_VALUE, verb);
        return false;
    }
    out = {names, names ? uint32_t(n) * 4u : 0u};
    if (n > 0 && !names) out = {zeros(int64_t(n) * 4), uint32_t(n) * 4u};
    return true;
}
}  // namespace

void glDeleteBuffers(GLsizei n, const GLuint* buffers) {
    MGL_CTX_OR_RETURN("glDeleteBuffers");
    wire::Blob b;
    if (!names_blob(*ctx, "glDeleteBuffers", n, buffers, b)) return;
    {
        std::lock_guard<std::mutex> g(ctx->group->mu);
        for (GLsizei i = 0; buffers && i < n; ++i) {
            auto it = ctx->group->buffers.find(buffers[i]);
            if (it == ctx->group->buffers.end()) continue;
            drop_shadow(*ctx->group, it->second);
            ctx->group->buffers.erase(it);
        }
    }
    for (GLsizei i = 0; buffers && i < n; ++i) ctx->st.forget_buffer(buffers[i]);
    ctx->enc->glDeleteBuffers(n, b);
}

void glDeleteTextures(GLsizei n, const GLuint* textures) {
    MGL_CTX_OR_RETURN("glDeleteTextures");
    wire::Blob b;
    if (!names_blob(*ctx, "glDeleteTextures", n, textures, b)) return;
    for (GLsizei i = 0; textures && i < n; ++i) {
        if (textures[i] == 0) continue;
        for (TextureUnit& u : ctx->st.units())
            for (uint32_t* s : {&u.tex_2d, &u.tex_cube, &u.tex_3d, &u.tex_2d_array, &u.tex_external, &u.tex_cube_array,
                                &u.tex_2d_ms, &u.tex_2d_ms_array, &u.tex_buffer, &u.tex_1d, &u.tex_1d_array,
                                &u.tex_rect})
                if (*s == textures[i]) *s = 0;
    }
    compat::forget_tex_formats(*ctx, n, textures);
    ctx->enc->glDeleteTextures(n, b);
}

void glDeleteFramebuffers(GLsizei n, const GLuint* framebuffers) {
    MGL_CTX_OR_RETURN("glDeleteFramebuffers");
    wire::Blob b;
    if (!names_blob(*ctx, "glDeleteFramebuffers", n, framebuffers, b)) return;
    for (GLsizei i = 0; framebuffers && i < n; ++i) {
        if (framebuffers[i] == 0) continue;
        if (ctx->st.draw_fbo == framebuffers[i]) ctx->st.draw_fbo = 0;
        if (ctx->st.read_fbo == framebuffers[i]) ctx->st.read_fbo = 0;
    }
    ctx->enc->glDeleteFramebuffers(n, b);
}

void glDeleteRenderbuffers(GLsizei n, const GLuint* renderbuffers) {
    MGL_CTX_OR_RETURN("glDeleteRenderbuffers");
    wire::Blob b;
    if (!names_blob(*ctx, "glDeleteRenderbuffers", n, renderbuffers, b)) return;
    for (GLsizei i = 0; renderbuffers && i < n; ++i)
        if (renderbuffers[i] && ctx->st.renderbuffer == renderbuffers[i]) ctx->st.renderbuffer = 0;
    ctx->enc->glDeleteRenderbuffers(n, b);
}

void glDeleteVertexArrays(GLsizei n, const GLuint* arrays) {
    MGL_CTX_OR_RETURN("glDeleteVertexArrays");
    wire::Blob b;
    if (!names_blob(*ctx, "glDeleteVertexArrays", n, arrays, b)) return;
    for (GLsizei i = 0; arrays && i < n; ++i) ctx->st.delete_vertex_array(arrays[i]);
    ctx->enc->glDeleteVertexArrays(n, b);
}

void glDeleteProgramPipelines(GLsizei n, const GLuint* pipelines) {
    MGL_CTX_OR_RETURN("glDeleteProgramPipelines");
    wire::Blob b;
    if (!names_blob(*ctx, "glDeleteProgramPipelines", n, pipelines, b)) return;
    for (GLsizei i = 0; pipelines && i < n; ++i)
        if (pipelines[i] != 0 && pipelines[i] == ctx->st.pipeline) ctx->st.pipeline = 0;  // the binding reverts to 0
    ctx->enc->glDeleteProgramPipelines(n, b);
}

void glDeleteSamplers(GLsizei count, const GLuint* samplers) {
    MGL_CTX_OR_RETURN("glDeleteSamplers");
    wire::Blob b;
    if (!names_blob(*ctx, "glDeleteSamplers", count, samplers, b)) return;
    for (GLsizei i = 0; samplers && i < count; ++i)
        for (TextureUnit& u : ctx->st.units())
            if (samplers[i] && u.sampler == samplers[i]) u.sampler = 0;
    ctx->enc->glDeleteSamplers(count, b);
}

void glDeleteTransformFeedbacks(GLsizei n, const GLuint* ids) {
    MGL_CTX_OR_RETURN("glDeleteTransformFeedbacks");
    wire::Blob b;
    if (!names_blob(*ctx, "glDeleteTransformFeedbacks", n, ids, b)) return;
    for (GLsizei i = 0; ids && i < n; ++i)
        if (ids[i] && ctx->st.transform_feedback == ids[i]) ctx->st.transform_feedback = 0;
    ctx->enc->glDeleteTransformFeedbacks(n, b);
}

void glDeleteProgram(GLuint program) {
    MGL_CTX_OR_RETURN("glDeleteProgram");
    // A current program stays in use until it is replaced (GL ES 3.2 §7.3):
    // GL_CURRENT_PROGRAM keeps reporting it.
    ctx->enc->glDeleteProgram(program);
}

// ---- caps ----

void glEnable(GLenum cap) {
    MGL_CTX_OR_RETURN("glEnable");
    if (cap == GL_DEBUG_OUTPUT_SYNCHRONOUS && first_time("debug-synchronous"))
        log().info("GL_DEBUG_OUTPUT_SYNCHRONOUS: the server's debug messages reach the callback at the next swap, "
                   "glGetError or glDebugMessageInsert, not inside the call that raised them");
    if (compat::ff_cap(*ctx, cap, true) || compat::program_cap(*ctx, cap, true)) return;
    ctx->st.set_cap(cap, true);
    ctx->enc->glEnable(cap);
}

void glDisable(GLenum cap) {
    MGL_CTX_OR_RETURN("glDisable");
    if (compat::ff_cap(*ctx, cap, false) || compat::program_cap(*ctx, cap, false)) return;
    ctx->st.set_cap(cap, false);
    ctx->enc->glDisable(cap);
}

// Indexed blend state and caps (ES 3.2, EXT/OES_draw_buffers_indexed; the
// scissor test of OES_viewport_array): index 0 is what the non-indexed queries answer (glIsEnabled(GL_BLEND),
// GL_BLEND_SRC_RGB, GL_COLOR_WRITEMASK...), so the shadow follows it.
void glEnablei(GLenum target, GLuint index) {
    MGL_CTX_OR_RETURN("glEnablei");
    if (index == 0 && (target == GL_BLEND || target == GL_SCISSOR_TEST)) ctx->st.set_cap(target, true);
    ctx->enc->glEnablei(target, index);
}

void glDisablei(GLenum target, GLuint index) {
    MGL_CTX_OR_RETURN("glDisablei");
    if (index == 0 && (target == GL_BLEND || target == GL_SCISSOR_TEST)) ctx->st.set_cap(target, false);
    ctx->enc->glDisablei(target, index);
}

// ---- fixed-function state ----

void glViewport(GLint x, GLint y, GLsizei width, GLsizei height) {
    MGL_CTX_OR_RETURN("glViewport");
    if (width < 0 || height < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glViewport");
        return;
    }
    auto clampd = [&](GLsizei v, int k) {
        auto it = ctx->limits.find(GL_MAX_VIEWPORT_DIMS);
        return it == ctx->limits.end() ? v : GLsizei(std::min<int64_t>(v, it->second.i[k]));
    };
    ctx->st.viewport[0] = x;
    ctx->st.viewport[1] = y;
    ctx->st.viewport[2] = clampd(width, 0);
    ctx->st.viewport[3] = clampd(height, 1);
    ctx->enc->glViewport(x, y, width, height);
}

void glScissor(GLint x, GLint y, GLsizei width, GLsizei height) {
    MGL_CTX_OR_RETURN("glScissor");
    if (width < 0 || height < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glScissor");
        return;
    }
    ctx->st.scissor[0] = x;
    ctx->st.scissor[1] = y;
    ctx->st.scissor[2] = width;
    ctx->st.scissor[3] = height;
    ctx->enc->glScissor(x, y, width, height);
}

void glClearColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
    MGL_CTX_OR_RETURN("glClearColor");
    ctx->st.clear_color[0] = r;
    ctx->st.clear_color[1] = g;
    ctx->st.clear_color[2] = b;
    ctx->st.clear_color[3] = a;
    ctx->enc->glClearColor(r, g, b, a);
}

void glClearDepthf(GLfloat d) {
    MGL_CTX_OR_RETURN("glClearDepthf");
    ctx->st.clear_depth = std::clamp(d, 0.0f, 1.0f);
    ctx->enc->glClearDepthf(d);
}

// Desktop GL's double-precision forms: the host is GLES, whose float forms
// carry the same clamped [0, 1] values, so the wire gets those.
void glClearDepth(GLdouble d) { glClearDepthf(GLfloat(d)); }

void glClearStencil(GLint s) {
    MGL_CTX_OR_RETURN("glClearStencil");
    ctx->st.clear_stencil = s;
    ctx->enc->glClearStencil(s);
}

void glPixelStorei(GLenum pname, GLint param) {
    MGL_CTX_OR_RETURN("glPixelStorei");
    if (desktop_pixel_store(*ctx, pname, param)) return;
    const bool alignment = pname == GL_UNPACK_ALIGNMENT || pname == GL_PACK_ALIGNMENT;
    if (alignment && param != 1 && param != 2 && param != 4 && param != 8) {
        gl_error(*ctx, GL_INVALID_VALUE, "glPixelStorei");
        return;
    }
    if (!alignment && param < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glPixelStorei");
        return;
    }
    if (!ctx->st.set_pixel_store(pname, param)) {
        gl_error(*ctx, GL_INVALID_ENUM, "glPixelStorei");
        return;
    }
    ctx->enc->glPixelStorei(pname, param);
}

void glColorMask(GLboolean r, GLboolean g, GLboolean b, GLboolean a) {
    MGL_CTX_OR_RETURN("glColorMask");
    ctx->st.color_mask[0] = r ? GL_TRUE : GL_FALSE;
    ctx->st.color_mask[1] = g ? GL_TRUE : GL_FALSE;
    ctx->st.color_mask[2] = b ? GL_TRUE : GL_FALSE;
    ctx->st.color_mask[3] = a ? GL_TRUE : GL_FALSE;
    ctx->enc->glColorMask(r, g, b, a);
}

void glColorMaski(GLuint index, GLboolean r, GLboolean g, GLboolean b, GLboolean a) {
    MGL_CTX_OR_RETURN("glColorMaski");
    if (index == 0) {
        ctx->st.color_mask[0] = r ? GL_TRUE : GL_FALSE;
        ctx->st.color_mask[1] = g ? GL_TRUE : GL_FALSE;
        ctx->st.color_mask[2] = b ? GL_TRUE : GL_FALSE;
        ctx->st.color_mask[3] = a ? GL_TRUE : GL_FALSE;
    }
    ctx->enc->glColorMaski(index, r, g, b, a);
}

void glDepthMask(GLboolean flag) {
    MGL_CTX_OR_RETURN("glDepthMask");
    ctx->st.depth_mask = flag ? GL_TRUE : GL_FALSE;
    ctx->enc->glDepthMask(flag);
}

void glDepthFunc(GLenum func) {
    MGL_CTX_OR_RETURN("glDepthFunc");
    if (func >= GL_NEVER && func <= GL_ALWAYS) ctx->st.depth_func = func;
    ctx->enc->glDepthFunc(func);
}

void glDepthRangef(GLfloat n, GLfloat f) {
    MGL_CTX_OR_RETURN("glDepthRangef");
    ctx->st.depth_range[0] = std::clamp(n, 0.0f, 1.0f);
    ctx->st.depth_range[1] = std::clamp(f, 0.0f, 1.0f);
    ctx->enc->glDepthRangef(n, f);
}

void glDepthRange(GLdouble n, GLdouble f) { glDepthRangef(GLfloat(n), GLfloat(f)); }

void glCullFace(GLenum mode) {
    MGL_CTX_OR_RETURN("glCullFace");
    if (mode == GL_FRONT || mode == GL_BACK || mode == GL_FRONT_AND_BACK) ctx->st.cull_face = mode;
    ctx->enc->glCullFace(mode);
}

void glFrontFace(GLenum mode) {
    MGL_CTX_OR_RETURN("glFrontFace");
    if (mode == GL_CW || mode == GL_CCW) ctx->st.front_face = mode;
    ctx->enc->glFrontFace(mode);
}

void glBlendFunc(GLenum sfactor, GLenum dfactor) {
    MGL_CTX_OR_RETURN("glBlendFunc");
    ctx->st.blend_src_rgb = ctx->st.blend_src_alpha = sfactor;
    ctx->st.blend_dst_rgb = ctx->st.blend_dst_alpha = dfactor;
    ctx->enc->glBlendFunc(sfactor, dfactor);
}

void glBlendFuncSeparate(GLenum srgb, GLenum drgb, GLenum salpha, GLenum dalpha) {
    MGL_CTX_OR_RETURN("glBlendFuncSeparate");
    ctx->st.blend_src_rgb = srgb;
    ctx->st.blend_dst_rgb = drgb;
    ctx->st.blend_src_alpha = salpha;
    ctx->st.blend_dst_alpha = dalpha;
    ctx->enc->glBlendFuncSeparate(srgb, drgb, salpha, dalpha);
}

void glBlendEquation(GLenum mode) {
    MGL_CTX_OR_RETURN("glBlendEquation");
    ctx->st.blend_eq_rgb = ctx->st.blend_eq_alpha = mode;
    ctx->enc->glBlendEquation(mode);
}

void glBlendEquationSeparate(GLenum rgb, GLenum alpha) {
    MGL_CTX_OR_RETURN("glBlendEquationSeparate");
    ctx->st.blend_eq_rgb = rgb;
    ctx->st.blend_eq_alpha = alpha;
    ctx->enc->glBlendEquationSeparate(rgb, alpha);
}

void glBlendFunci(GLuint buf, GLenum src, GLenum dst) {
    MGL_CTX_OR_RETURN("glBlendFunci");
    if (buf == 0) {
        ctx->st.blend_src_rgb = ctx->st.blend_src_alpha = src;
        ctx->st.blend_dst_rgb = ctx->st.blend_dst_alpha = dst;
    }
    ctx->enc->glBlendFunci(buf, src, dst);
}

void glBlendFuncSeparatei(GLuint buf, GLenum srgb, GLenum drgb, GLenum salpha, GLenum dalpha) {
    MGL_CTX_OR_RETURN("glBlendFuncSeparatei");
    if (buf == 0) {
        ctx->st.blend_src_rgb = srgb;
        ctx->st.blend_dst_rgb = drgb;
        ctx->st.blend_src_alpha = salpha;
        ctx->st.blend_dst_alpha = dalpha;
    }
    ctx->enc->glBlendFuncSeparatei(buf, srgb, drgb, salpha, dalpha);
}

void glBlendEquationi(GLuint buf, GLenum mode) {
    MGL_CTX_OR_RETURN("glBlendEquationi");
    if (buf == 0) ctx->st.blend_eq_rgb = ctx->st.blend_eq_alpha = mode;
    ctx->enc->glBlendEquationi(buf, mode);
}

void glBlendEquationSeparatei(GLuint buf, GLenum rgb, GLenum alpha) {
    MGL_CTX_OR_RETURN("glBlendEquationSeparatei");
    if (buf == 0) {
        ctx->st.blend_eq_rgb = rgb;
        ctx->st.blend_eq_alpha = alpha;
    }
    ctx->enc->glBlendEquationSeparatei(buf, rgb, alpha);
}

void glBlendColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
    MGL_CTX_OR_RETURN("glBlendColor");
    ctx->st.blend_color[0] = r;
    ctx->st.blend_color[1] = g;
    ctx->st.blend_color[2] = b;
    ctx->st.blend_color[3] = a;
    ctx->enc->glBlendColor(r, g, b, a);
}

namespace {
void for_faces(Context& ctx, GLenum face, void (*f)(StencilFace&, const void*), const void* arg) {
    if (face == GL_FRONT || face == GL_FRONT_AND_BACK) f(ctx.st.stencil_front, arg);
    if (face == GL_BACK || face == GL_FRONT_AND_BACK) f(ctx.st.stencil_back, arg);
}
struct FuncArg { GLenum func; GLint ref; GLuint mask; };
struct OpArg { GLenum fail, zfail, zpass; };
}  // namespace

void glStencilFuncSeparate(GLenum face, GLenum func, GLint ref, GLuint mask) {
    MGL_CTX_OR_RETURN("glStencilFuncSeparate");
    const FuncArg a{func, ref, mask};
    for_faces(*ctx, face, [](StencilFace& s, const void* p) {
        auto* a = static_cast<const FuncArg*>(p);
        s.func = a->func, s.ref = a->ref, s.value_mask = a->mask;
    }, &a);
    ctx->enc->glStencilFuncSeparate(face, func, ref, mask);
}

void glStencilFunc(GLenum func, GLint ref, GLuint mask) {
    MGL_CTX_OR_RETURN("glStencilFunc");
    for (StencilFace* s : {&ctx->st.stencil_front, &ctx->st.stencil_back}) s->func = func, s->ref = ref, s->value_mask = mask;
    ctx->enc->glStencilFunc(func, ref, mask);
}

void glStencilOpSeparate(GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass) {
    MGL_CTX_OR_RETURN("glStencilOpSeparate");
    const OpArg a{sfail, dpfail, dppass};
    for_faces(*ctx, face, [](StencilFace& s, const void* p) {
        auto* a = static_cast<const OpArg*>(p);
        s.fail = a->fail, s.zfail = a->zfail, s.zpass = a->zpass;
    }, &a);
    ctx->enc->glStencilOpSeparate(face, sfail, dpfail, dppass);
}

void glStencilOp(GLenum fail, GLenum zfail, GLenum zpass) {
    MGL_CTX_OR_RETURN("glStencilOp");
    for (StencilFace* s : {&ctx->st.stencil_front, &ctx->st.stencil_back}) s->fail = fail, s->zfail = zfail, s->zpass = zpass;
    ctx->enc->glStencilOp(fail, zfail, zpass);
}

void glStencilMaskSeparate(GLenum face, GLuint mask) {
    MGL_CTX_OR_RETURN("glStencilMaskSeparate");
    if (face == GL_FRONT || face == GL_FRONT_AND_BACK) ctx->st.stencil_front.write_mask = mask;
    if (face == GL_BACK || face == GL_FRONT_AND_BACK) ctx->st.stencil_back.write_mask = mask;
    ctx->enc->glStencilMaskSeparate(face, mask);
}

void glStencilMask(GLuint mask) {
    MGL_CTX_OR_RETURN("glStencilMask");
    ctx->st.stencil_front.write_mask = ctx->st.stencil_back.write_mask = mask;
    ctx->enc->glStencilMask(mask);
}

void glLineWidth(GLfloat width) {
    MGL_CTX_OR_RETURN("glLineWidth");
    if (!(width > 0.0f)) {
        gl_error(*ctx, GL_INVALID_VALUE, "glLineWidth");
        return;
    }
    ctx->st.line_width = width;
    ctx->enc->glLineWidth(width);
}

void glPolygonOffset(GLfloat factor, GLfloat units) {
    MGL_CTX_OR_RETURN("glPolygonOffset");
    ctx->st.polygon_offset_factor = factor;
    ctx->st.polygon_offset_units = units;
    ctx->enc->glPolygonOffset(factor, units);
}

void glSampleCoverage(GLfloat value, GLboolean invert) {
    MGL_CTX_OR_RETURN("glSampleCoverage");
    ctx->st.sample_coverage_value = std::clamp(value, 0.0f, 1.0f);
    ctx->st.sample_coverage_invert = invert ? GL_TRUE : GL_FALSE;
    ctx->enc->glSampleCoverage(value, invert);
}

void glHint(GLenum target, GLenum mode) {
    MGL_CTX_OR_RETURN("glHint");
    if (mode == GL_FASTEST || mode == GL_NICEST || mode == GL_DONT_CARE) {
        if (target == GL_GENERATE_MIPMAP_HINT) ctx->st.hint_mipmap = mode;
        else if (target == GL_FRAGMENT_SHADER_DERIVATIVE_HINT) ctx->st.hint_derivative = mode;
    }
    ctx->enc->glHint(target, mode);
}

// Shadowed for the compatibility lowering (its quads and polygons are drawn
// as triangles that the server's first-vertex rewrite turns round:
// compat/ff_draw.cc); the server keeps and answers the state.
void glProvokingVertex(GLenum mode) {
    MGL_CTX_OR_RETURN("glProvokingVertex");
    if (mode == 0x8E4D || mode == 0x8E4E) ctx->st.provoking_first = mode == 0x8E4D;  // GL_FIRST/LAST_VERTEX_CONVENTION
    ctx->enc->glProvokingVertex(mode);
}

// ---- flush points ----

void glFlush() {
    MGL_CTX_OR_RETURN("glFlush");
    ctx->enc->glFlush();
    ctx->enc->flush();
}

}  // namespace mgl_custom
