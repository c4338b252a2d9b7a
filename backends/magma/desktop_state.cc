// Desktop GL state on Magma: the GL front end's DesktopState (backends/gl/state)
// decides what each desktop-only cap, hint and query is; this file says what
// the Vulkan device does with it. Depth clamp is the pipeline's
// depthClampEnable; primitive restart is the device's fixed-index restart
// (another index is rewritten to all ones: draw_vertex.cc); the provoking
// vertex is VK_EXT_provoking_vertex's mode (pipeline.cc).
#include <GLES3/gl32.h>

#include "backend.h"
#include "context/desktop_context.h"

namespace mgl::magma {

namespace {
constexpr GLenum kDepthClamp = 0x864F, kFramebufferSrgb = 0x8DB9, kClipDistance0 = 0x3000,
                 kFirstVertex = 0x8E4D, kLastVertex = 0x8E4E;
}  // namespace

bool MagmaBackend::desktop_cap(GLenum cap, bool on) {
    if (!cur_->desktop()) return false;
    Context& c = *cur_;
    switch (gl::cap_route(cap)) {
        case gl::CapRoute::state_only:
        case gl::CapRoute::restart: c.dstate.set_cap(cap, on); return true;
        case gl::CapRoute::host:
            if (cap == kDepthClamp) {
                if (!gpu_->dev().features.depthClamp) {
                    refuse(on ? gen::Op::glEnable : gen::Op::glDisable, GL_INVALID_ENUM,
                           "GL_DEPTH_CLAMP: the device has no depthClamp");
                    return true;
                }
                c.st.depth_clamp = on;
            } else if (cap == kFramebufferSrgb) {
                c.framebuffer_srgb = on;  // state only: Magma's colour buffers are not sRGB
            } else {
                // GL_CLIP_DISTANCEi: state; the shader's gl_ClipDistance clips.
                c.dstate.note_clip_enable(cap, on);
                const uint32_t bit = 1u << (cap - kClipDistance0);
                c.clip_planes = on ? (c.clip_planes | bit) : (c.clip_planes & ~bit);
            }
            return true;
        default: return false;
    }
}

bool MagmaBackend::desktop_is_enabled(GLenum cap, GLboolean& out) {
    if (!cur_->desktop()) return false;
    const Context& c = *cur_;
    switch (gl::cap_route(cap)) {
        case gl::CapRoute::state_only:
        case gl::CapRoute::restart: out = c.dstate.cap(cap); return true;
        case gl::CapRoute::host:
            out = cap == kDepthClamp ? c.st.depth_clamp
                : cap == kFramebufferSrgb ? c.framebuffer_srgb
                : (c.clip_planes >> (cap - kClipDistance0)) & 1;
            return true;
        default: return false;
    }
}

bool MagmaBackend::desktop_get(GLenum pname, double out[4], int* count) {
    if (!cur_ || !cur_->desktop()) return false;
    const VkPhysicalDeviceLimits& l = gpu_->dev().props.limits;
    GLboolean on = GL_FALSE;
    // EXT_texture_integer's GL_RGBA_INTEGER_MODE_EXT: whether a draw buffer
    // of the draw framebuffer holds integers, as Mesa answers.
    if (pname == 0x8D9E) {
        bool integer = false;
        if (const Framebuffer* fb = cur_->draw_fb.get())
            for (GLenum b : fb->draw_buffers) {
                if (b < GL_COLOR_ATTACHMENT0 || b >= GLenum(GL_COLOR_ATTACHMENT0 + kMaxColorAttachments)) continue;
                const Attachment& a = fb->color[b - GL_COLOR_ATTACHMENT0];
                const Image* img = a.kind == GL_TEXTURE && a.tex        ? &a.tex->img
                                   : a.kind == GL_RENDERBUFFER && a.rb ? &a.rb->img
                                                                       : nullptr;
                integer = integer || (img && img->image && is_integer_format(img->format));
            }
        out[0] = integer ? 1 : 0;
        *count = 1;
        return true;
    }
    // GL_ARB_texture_gather's limits: Vulkan's gathers read any component,
    // at the device's offsets.
    if (pname == 0x8F9F || pname == 0x8E5E || pname == 0x8E5F) {
        out[0] = pname == 0x8F9F ? 4 : pname == 0x8E5E ? l.minTexelGatherOffset : l.maxTexelGatherOffset;
        *count = 1;
        return true;
    }
    if (gl::cap_route(pname) == gl::CapRoute::host && desktop_is_enabled(pname, on)) {
        out[0] = on;
        *count = 1;
        return true;
    }
    if (gpu_->dev().features.tessellationShader && gl::patch_get(cur_->patch, pname, out, count)) return true;
    return cur_->dstate.get(pname, cur_->profile == 2, l.lineWidthRange, l.pointSizeRange, out, count);
}

// Tessellation's patch state (the front end's rules, tessellation_rules.h).
void MagmaBackend::glPatchParameteri(GLenum pname, GLint value) {
    if (!need_context(gen::Op::glPatchParameteri)) return;
    if (!cur_->desktop() || !gpu_->dev().features.tessellationShader) return unsupported(gen::Op::glPatchParameteri);
    const int max = int(std::min<uint32_t>(gpu_->dev().props.limits.maxTessellationPatchSize, 32));
    if (const gl::RuleError e = gl::set_patch_vertices(cur_->patch, pname, value, max))
        return refuse(gen::Op::glPatchParameteri, e.error, e.why);
}

void MagmaBackend::glPatchParameterfv(GLenum pname, wire::In<GLfloat> values) {
    if (!need_context(gen::Op::glPatchParameterfv)) return;
    if (!cur_->desktop() || !gpu_->dev().features.tessellationShader) return unsupported(gen::Op::glPatchParameterfv);
    float v[4] = {};
    for (uint32_t i = 0; i < 4 && i < values.count(); ++i) v[i] = values.data[i];
    if (pname == gl::kPatchDefaultOuter ? values.count() < 4 : pname == gl::kPatchDefaultInner && values.count() < 2)
        return refuse(gen::Op::glPatchParameterfv, GL_INVALID_VALUE, "too few levels");
    if (const gl::RuleError e = gl::set_patch_levels(cur_->patch, pname, v))
        return refuse(gen::Op::glPatchParameterfv, e.error, e.why);
}

void MagmaBackend::glHint(GLenum target, GLenum mode) {
    if (!need_context(gen::Op::glHint)) return;
    if (mode != GL_FASTEST && mode != GL_NICEST && mode != GL_DONT_CARE)
        return refuse(gen::Op::glHint, GL_INVALID_ENUM, "hint mode");
    if (cur_->desktop() && cur_->dstate.hint(target, mode)) return;
    // GLES's own targets are hints a Vulkan device has no use for.
}

void MagmaBackend::glPrimitiveRestartIndex(GLuint index) {
    if (!need_context(gen::Op::glPrimitiveRestartIndex)) return;
    if (!cur_->desktop()) return unsupported(gen::Op::glPrimitiveRestartIndex);
    cur_->dstate.restart_index = index;
}

void MagmaBackend::glProvokingVertex(GLenum mode) {
    if (!need_context(gen::Op::glProvokingVertex)) return;
    if (!cur_->desktop()) return unsupported(gen::Op::glProvokingVertex);
    if (mode != kFirstVertex && mode != kLastVertex) return refuse(gen::Op::glProvokingVertex, GL_INVALID_ENUM, "mode");
    // Vulkan's own convention is the first vertex; the last needs the extension.
    if (mode == kLastVertex && !gpu_->dev().provoking_last)
        return refuse(gen::Op::glProvokingVertex, GL_INVALID_OPERATION,
                      "GL_LAST_VERTEX_CONVENTION: the device has no VK_EXT_provoking_vertex");
    cur_->dstate.provoking_vertex = mode;
}

// glClipPlane (eye space, from the client's compatibility layer): kept in
// the GL front end; the compatibility lowering's vertex stages clip against
// the hidden kClipPlaneUniform (compat_builtins.h), which draw() sets from
// the enabled planes.
void MagmaBackend::glClipPlane(GLenum plane, wire::In<GLdouble> equation) {
    if (!need_context(gen::Op::glClipPlane)) return;
    if (!cur_->desktop()) return unsupported(gen::Op::glClipPlane);
    if (!equation.data || equation.count() < 4) return refuse(gen::Op::glClipPlane, GL_INVALID_VALUE, "equation");
    if (!cur_->dstate.set_clip_plane(plane, equation.data)) return refuse(gen::Op::glClipPlane, GL_INVALID_ENUM, "plane");
}

// glAlphaFunc, which the client sends before a draw of an application's
// program in a compatibility context (GL alpha-tests those too): kept in the
// GL front end; draw() hands it to the program's alpha-test epilogue
// (link_program, shaders.h).
void MagmaBackend::glAlphaFunc(GLenum func, GLfloat ref) {
    if (!need_context(gen::Op::glAlphaFunc)) return;
    if (gl::api_kind(cur_->api, cur_->profile, cur_->served) != gen::ApiKind::compat)
        return refuse(gen::Op::glAlphaFunc, GL_INVALID_OPERATION, "a compatibility-profile verb");
    if (cur_->dstate.set_alpha_func(func, ref)) return refuse(gen::Op::glAlphaFunc, GL_INVALID_ENUM, "func");
}

// glPointSize: kept and answered (the client fills gl_Point.size from it).
// Vulkan sizes points by the shader's PointSize only: a vertex stage that
// writes none writes this size (the hidden kPointSizeUniform, shaders.cc);
// one that writes its own keeps it even while GL_PROGRAM_POINT_SIZE is off
// (said once in the log).
void MagmaBackend::glPointSize(GLfloat size) {
    if (!need_context(gen::Op::glPointSize)) return;
    if (!cur_->desktop()) return refuse(gen::Op::glPointSize, GL_INVALID_OPERATION, "a desktop GL verb");
    if (!(size > 0)) return refuse(gen::Op::glPointSize, GL_INVALID_VALUE, "size");
    cur_->dstate.point_size = size;
    if (size != 1 && !cur_->point_size_said) {
        cur_->point_size_said = true;
        log().warn("magma: glPointSize({}): a program that writes gl_PointSize keeps its own size even while "
                   "GL_PROGRAM_POINT_SIZE is off (not emulated)", size);
    }
}

// The point parameters of a core context (a compatibility context's are the
// client's lowering's): the GL front end's rule and state; the origin
// reaches gl_PointCoord through the hidden kPointOriginUniform (shaders.cc).
void MagmaBackend::point_parameter(gen::Op op, GLenum pname, float value) {
    if (!need_context(op)) return;
    if (!cur_->desktop()) return unsupported(op);
    const char* why = "";
    if (const uint32_t e = cur_->dstate.set_point_parameter(pname, value, &why)) return refuse(op, e, why);
}

void MagmaBackend::glPointParameterf(GLenum pname, GLfloat param) {
    point_parameter(gen::Op::glPointParameterf, pname, param);
}
void MagmaBackend::glPointParameteri(GLenum pname, GLint param) {
    point_parameter(gen::Op::glPointParameteri, pname, float(param));
}
void MagmaBackend::glPointParameterfv(GLenum pname, wire::In<GLfloat> params) {
    if (!params.data || params.size < sizeof(GLfloat)) return refuse(gen::Op::glPointParameterfv, GL_INVALID_VALUE, "no value");
    point_parameter(gen::Op::glPointParameterfv, pname, params.data[0]);
}
void MagmaBackend::glPointParameteriv(GLenum pname, wire::In<GLint> params) {
    if (!params.data || params.size < sizeof(GLint)) return refuse(gen::Op::glPointParameteriv, GL_INVALID_VALUE, "no value");
    point_parameter(gen::Op::glPointParameteriv, pname, float(params.data[0]));
}

}  // namespace mgl::magma
