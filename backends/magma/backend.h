// The Magma backend class: every GL verb Magma serves is an override here, the
// rest stay the generated "unsupported" (GL_INVALID_OPERATION, one log line per
// verb per session). Each group names its files; docs/ARCHITECTURE-magma.md maps all.
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "clear_masked.h"
#include "desktop_caps.h"
#include "draw_input.h"
#include "draw_recorded.h"
#include "gpu.h"
#include "mgl/magma/magma.h"
#include "objects.h"
#include "target.h"

namespace mgl::magma {


class MagmaBackend final : public Magma {
public:
    MagmaBackend(const Options& options, std::shared_ptr<Device> device, VkQueue queue);
    ~MagmaBackend() override;

    // ---- Magma (session.cc) ------------------------------------------------
    uint32_t take_error() override;
    void set_present(PresentFn fn) override { present_ = std::move(fn); }
    void release() override;
    Counters frame_counters() const override { return last_frame_; }
    Counters total_counters() const override { return gpu_ ? gpu_->totals : Counters{}; }
    bool default_block_per_copy() const override { return gpu_ && gpu_->dev().default_block_storage; }
    std::string device_name() const override { return device_name_; }
    bool lost() const override { return gpu_ && gpu_->lost(); }
    void unsupported(gen::Op verb) override;
    // Device lost or GPU hang (see Gpu::loss).
    const char* fault() const override { return lost() ? gpu_->loss().c_str() : nullptr; }
    void lose_device_for_testing() override { if (gpu_) gpu_->check(VK_ERROR_DEVICE_LOST, "lose_device_for_testing"); }

    // ---- session verbs (session.cc, state_queries.cc, surfaces.cc, desktop_state.cc) ----
    GLuint64 mglPing(GLuint64 cookie) override { return cookie; }
    void mglCreateContext(GLuint context, GLuint share, GLint major, GLint minor, GLbitfield flags, GLenum api,
                          GLbitfield profile) override;
    GLint mglGetContextVersion(GLuint context) override;
    // EGLImages are not served yet: eglCreateImage fails with one log line (session.cc).
    GLenum mglCreateImage(GLuint image, GLuint context, GLenum target, GLuint buffer, GLint level, GLint zoffset,
                          GLboolean preserved) override;
    void mglDestroyImage(GLuint) override {}
    void mglDestroyContext(GLuint context) override;
    void mglCreateSurface(GLuint surface, GLenum kind, GLint width, GLint height, GLint red, GLint green, GLint blue,
                          GLint alpha, GLint depth, GLint stencil, GLint samples) override;
    void mglResizeSurface(GLuint surface, GLint width, GLint height) override;
    void mglDestroySurface(GLuint surface) override;
    void mglMakeCurrent(GLuint draw, GLuint read, GLuint context) override;
    void mglSwapBuffers(GLuint surface, GLuint64 frame) override;
    void mglReadSurface(GLuint surface, GLint x, GLint y, GLint width, GLint height, wire::Out<GLubyte> pixels) override;
    GLint mglGetString(GLenum name, GLint index, GLsizei bufSize, wire::Out<GLchar> value) override;
    void mglReadBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, wire::Out<GLubyte> data) override;
    // Buffer storage mapped for an in-process client (buffer_storage.cc)
    void set_peer_in_process(bool in_process) override { peer_in_process_ = in_process; }
    GLuint64 mglMapBufferHost(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) override;
    void mglUnmapBufferHost(GLenum target) override;
    void mglFlushBufferHost(GLenum target, GLintptr offset, GLsizeiptr length) override;
    void glBufferStorage(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLbitfield flags) override;
    void glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, wire::Out<uint8_t> data) override;
    void glBufferStorageEXT(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLbitfield flags) override {
        glBufferStorage(target, size, data, flags);
    }
    GLenum mglGetError() override { return take_error(); }
    GLenum glGetError() override { return take_error(); }
    void glGetIntegerv(GLenum pname, wire::Out<GLint> data) override;
    void glGetFloatv(GLenum pname, wire::Out<GLfloat> data) override;
    void glGetInteger64v(GLenum pname, wire::Out<GLint64> data) override;
    void glGetBooleanv(GLenum pname, wire::Out<GLboolean> data) override;
    GLboolean glIsEnabled(GLenum cap) override;
    void glFlush() override;
    void glFinish() override;
    void glFenceSync(GLenum condition, GLbitfield flags, GLsync result) override;
    GLenum glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) override;
    void glWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) override {}
    void glDeleteSync(GLsync sync) override;
    GLboolean glIsSync(GLsync sync) override;
    void glGetSynciv(GLsync sync, GLenum pname, GLsizei count, wire::Out<GLsizei> length, wire::Out<GLint> values) override;
    void glHint(GLenum target, GLenum mode) override;  // desktop_state.cc
    // KHR_debug (debug_output.cc)
    void glDebugMessageInsert(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                              wire::In<GLchar> buf) override;
    void glDebugMessageControl(GLenum source, GLenum type, GLenum severity, GLsizei count, wire::In<GLuint> ids,
                               GLboolean enabled) override;
    GLuint glGetDebugMessageLog(GLuint count, GLsizei bufSize, wire::Out<GLenum> sources, wire::Out<GLenum> types,
                                wire::Out<GLuint> ids, wire::Out<GLenum> severities, wire::Out<GLsizei> lengths,
                                wire::Out<GLchar> messageLog) override;
    void glPushDebugGroup(GLenum source, GLuint id, GLsizei length, wire::In<GLchar> message) override;
    void glPopDebugGroup() override;
    void glObjectLabel(GLenum identifier, GLuint name, GLsizei length, wire::In<GLchar> label) override;
    void glGetObjectLabel(GLenum identifier, GLuint name, GLsizei bufSize, wire::Out<GLsizei> length,
                          wire::Out<GLchar> label) override;
    void glPointSize(GLfloat size) override;              // desktop_state.cc
    void glPointParameterf(GLenum pname, GLfloat param) override;
    void glPointParameterfv(GLenum pname, wire::In<GLfloat> params) override;
    void glPointParameteri(GLenum pname, GLint param) override;
    void glPointParameteriv(GLenum pname, wire::In<GLint> params) override;
    void point_parameter(gen::Op op, GLenum pname, float value);
    void glAlphaFunc(GLenum func, GLfloat ref) override;  // desktop_state.cc
    void glPrimitiveRestartIndex(GLuint index) override;
    void glPatchParameteri(GLenum pname, GLint value) override;
    void glPatchParameterfv(GLenum pname, wire::In<GLfloat> values) override;
    void glProvokingVertex(GLenum mode) override;
    void glClipPlane(GLenum plane, wire::In<GLdouble> equation) override;
    void glReleaseShaderCompiler() override {}
    void glGetShaderPrecisionFormat(GLenum shadertype, GLenum precisiontype, wire::Out<GLint> range,
                                    wire::Out<GLint> precision) override;

    // ---- state (state.cc) ----------------------------------------------------
    void glEnable(GLenum cap) override { set_cap(cap, true); }
    void glDisable(GLenum cap) override { set_cap(cap, false); }
    void glBlendFunc(GLenum s, GLenum d) override { glBlendFuncSeparate(s, d, s, d); }
    void glBlendFuncSeparate(GLenum sr, GLenum dr, GLenum sa, GLenum da) override;
    void glBlendEquation(GLenum mode) override { glBlendEquationSeparate(mode, mode); }
    void glBlendEquationSeparate(GLenum rgb, GLenum alpha) override;
    void glBlendColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) override;
    void glColorMask(GLboolean r, GLboolean g, GLboolean b, GLboolean a) override;
    void glDepthFunc(GLenum func) override;
    void glDepthMask(GLboolean flag) override;
    void glDepthRangef(GLfloat n, GLfloat f) override;
    void glCullFace(GLenum mode) override;
    void glFrontFace(GLenum mode) override;
    void glViewport(GLint x, GLint y, GLsizei w, GLsizei h) override;
    void glScissor(GLint x, GLint y, GLsizei w, GLsizei h) override;
    void glClearColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) override;
    void glClearDepthf(GLfloat d) override;
    void glClearStencil(GLint s) override;
    void glStencilFunc(GLenum func, GLint ref, GLuint mask) override { glStencilFuncSeparate(GL_FRONT_AND_BACK, func, ref, mask); }
    void glStencilFuncSeparate(GLenum face, GLenum func, GLint ref, GLuint mask) override;
    void glStencilOp(GLenum f, GLenum zf, GLenum zp) override { glStencilOpSeparate(GL_FRONT_AND_BACK, f, zf, zp); }
    void glStencilOpSeparate(GLenum face, GLenum f, GLenum zf, GLenum zp) override;
    void glStencilMask(GLuint mask) override { glStencilMaskSeparate(GL_FRONT_AND_BACK, mask); }
    void glStencilMaskSeparate(GLenum face, GLuint mask) override;
    void glLineWidth(GLfloat width) override;
    void glPolygonOffset(GLfloat factor, GLfloat units) override;
    void glPixelStorei(GLenum pname, GLint param) override;
    void glSampleCoverage(GLfloat value, GLboolean invert) override;

    // ---- buffers and vertex arrays (buffers.cc) ----------------------------
    void glGenBuffers(GLsizei n, wire::In<GLuint> buffers) override;
    void glDeleteBuffers(GLsizei n, wire::In<GLuint> buffers) override;
    void glBindBuffer(GLenum target, GLuint buffer) override;
    void glBufferData(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLenum usage) override;
    void glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, wire::In<uint8_t> data) override;
    void glCopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset, GLintptr writeOffset,
                             GLsizeiptr size) override;
    void glBindBufferBase(GLenum target, GLuint index, GLuint buffer) override;
    void glBindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size) override;
    // compute (compute.cc): dispatches, storage block bindings, barriers
    void glDispatchCompute(GLuint x, GLuint y, GLuint z) override;
    void glDispatchComputeIndirect(GLintptr indirect) override;
    void glMemoryBarrier(GLbitfield barriers) override;
    void glShaderStorageBlockBinding(GLuint program, GLuint block, GLuint binding) override;
    // image load/store (images.cc)
    void glBindImageTexture(GLuint unit, GLuint texture, GLint level, GLboolean layered, GLint layer, GLenum access, GLenum format) override;
    // atomic counters (atomic_counters.cc)
    void glGetActiveAtomicCounterBufferiv(GLuint program, GLuint bufferIndex, GLenum pname, wire::Out<GLint> params) override;
    GLboolean glIsBuffer(GLuint buffer) override;
    void glGetBufferParameteriv(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    void glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) override {}
    GLboolean glUnmapBuffer(GLenum target) override { return GL_TRUE; }
    void glFlushMappedBufferRange(GLenum target, GLintptr offset, GLsizeiptr length) override {}
    void glGenVertexArrays(GLsizei n, wire::In<GLuint> arrays) override;
    void glDeleteVertexArrays(GLsizei n, wire::In<GLuint> arrays) override;
    void glBindVertexArray(GLuint array) override;
    void glGenVertexArraysOES(GLsizei n, wire::In<GLuint> arrays) override { glGenVertexArrays(n, arrays); }
    void glDeleteVertexArraysOES(GLsizei n, wire::In<GLuint> arrays) override { glDeleteVertexArrays(n, arrays); }
    void glBindVertexArrayOES(GLuint array) override { glBindVertexArray(array); }
    GLboolean glIsVertexArray(GLuint name) override;
    GLboolean glIsVertexArrayOES(GLuint name) override { return glIsVertexArray(name); }
    void glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                               wire::InOrOffset<uint8_t> pointer) override;
    void glVertexAttribIPointer(GLuint index, GLint size, GLenum type, GLsizei stride,
                                wire::InOrOffset<uint8_t> pointer) override;
    void glEnableVertexAttribArray(GLuint index) override;
    void glDisableVertexAttribArray(GLuint index) override;
    void glVertexAttribDivisor(GLuint index, GLuint divisor) override;
    void glVertexAttrib4f(GLuint i, GLfloat x, GLfloat y, GLfloat z, GLfloat w) override;
    void glVertexAttrib1f(GLuint i, GLfloat x) override { glVertexAttrib4f(i, x, 0, 0, 1); }
    void glVertexAttrib2f(GLuint i, GLfloat x, GLfloat y) override { glVertexAttrib4f(i, x, y, 0, 1); }
    void glVertexAttrib3f(GLuint i, GLfloat x, GLfloat y, GLfloat z) override { glVertexAttrib4f(i, x, y, z, 1); }
    void glVertexAttrib1fv(GLuint i, wire::In<GLfloat> v) override { attrib_fv(i, v, 1); }
    void glVertexAttrib2fv(GLuint i, wire::In<GLfloat> v) override { attrib_fv(i, v, 2); }
    void glVertexAttrib3fv(GLuint i, wire::In<GLfloat> v) override { attrib_fv(i, v, 3); }
    void glVertexAttrib4fv(GLuint i, wire::In<GLfloat> v) override { attrib_fv(i, v, 4); }
    void glVertexAttribI4i(GLuint i, GLint x, GLint y, GLint z, GLint w) override;
    void glVertexAttribI4ui(GLuint i, GLuint x, GLuint y, GLuint z, GLuint w) override;
    void glVertexAttribI4iv(GLuint i, wire::In<GLint> v) override;
    void glVertexAttribI4uiv(GLuint i, wire::In<GLuint> v) override;
    // Attribute state; GL_CURRENT_VERTEX_ATTRIB is the generic value (the
    // client shadows the rest, but answers here match).
    void glGetVertexAttribfv(GLuint i, GLenum pname, wire::Out<GLfloat> p) override { get_attrib(gen::Op::glGetVertexAttribfv, i, pname, p.data, p.count(), 'f'); }
    void glGetVertexAttribiv(GLuint i, GLenum pname, wire::Out<GLint> p) override { get_attrib(gen::Op::glGetVertexAttribiv, i, pname, p.data, p.count(), 'i'); }
    void glGetVertexAttribIiv(GLuint i, GLenum pname, wire::Out<GLint> p) override { get_attrib(gen::Op::glGetVertexAttribIiv, i, pname, p.data, p.count(), 'I'); }
    void glGetVertexAttribIuiv(GLuint i, GLenum pname, wire::Out<GLuint> p) override { get_attrib(gen::Op::glGetVertexAttribIuiv, i, pname, p.data, p.count(), 'I'); }

    // ---- textures and samplers (textures.cc, samplers.cc) -----------------
    void glGenTextures(GLsizei n, wire::In<GLuint> textures) override;
    void glDeleteTextures(GLsizei n, wire::In<GLuint> textures) override;
    void glBindTexture(GLenum target, GLuint texture) override;
    void glActiveTexture(GLenum texture) override;
    GLboolean glIsTexture(GLuint texture) override;
    void glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height, GLint border,
                      GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) override;
    void glTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width, GLsizei height,
                         GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) override;
    void glTexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height, GLsizei depth,
                      GLint border, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) override;
    void glTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset, GLsizei width,
                         GLsizei height, GLsizei depth, GLenum format, GLenum type,
                         wire::InOrOffset<uint8_t> pixels) override;
    void glTexImage1D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLint border, GLenum format,
                      GLenum type, wire::InOrOffset<uint8_t> pixels) override;
    void glTexSubImage1D(GLenum target, GLint level, GLint x, GLsizei width, GLenum format, GLenum type,
                         wire::InOrOffset<uint8_t> pixels) override;
    void glTexStorage1D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width) override;
    void glTexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height) override;
    void glTexStorage3D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height,
                        GLsizei depth) override;
    void glTexParameteri(GLenum target, GLenum pname, GLint param) override;
    void glTexParameterf(GLenum target, GLenum pname, GLfloat param) override;
    void glTexParameteriv(GLenum target, GLenum pname, wire::In<GLint> params) override;
    void glTexParameterfv(GLenum target, GLenum pname, wire::In<GLfloat> params) override;
    void glGetTexParameteriv(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    void glGenerateMipmap(GLenum target) override;
    void glCopyTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x, GLint y,
                             GLsizei width, GLsizei height) override;
    void glCopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y, GLsizei width,
                          GLsizei height, GLint border) override;
    // GL 4.3's image copies between textures and renderbuffers (copy_image.cc).
    void glCopyImageSubData(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY, GLint srcZ,
                            GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX, GLint dstY, GLint dstZ,
                            GLsizei srcWidth, GLsizei srcHeight, GLsizei srcDepth) override;
    // ETC2/EAC (and ETC1), decoded on upload (compressed.cc).
    void glCompressedTexImage2D(GLenum target, GLint level, GLenum ifmt, GLsizei w, GLsizei h, GLint border,
                                GLsizei size, wire::InOrOffset<uint8_t> data) override;
    void glCompressedTexSubImage2D(GLenum target, GLint level, GLint x, GLint y, GLsizei w, GLsizei h, GLenum format,
                                   GLsizei size, wire::InOrOffset<uint8_t> data) override;
    void glCompressedTexImage3D(GLenum target, GLint level, GLenum ifmt, GLsizei w, GLsizei h, GLsizei d, GLint border,
                                GLsizei size, wire::InOrOffset<uint8_t> data) override;
    void glCompressedTexSubImage3D(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w, GLsizei h,
                                   GLsizei d, GLenum format, GLsizei size, wire::InOrOffset<uint8_t> data) override;
    void glGenSamplers(GLsizei count, wire::In<GLuint> samplers) override;
    void glDeleteSamplers(GLsizei count, wire::In<GLuint> samplers) override;
    void glBindSampler(GLuint unit, GLuint sampler) override;
    GLboolean glIsSampler(GLuint name) override;
    void glSamplerParameteri(GLuint sampler, GLenum pname, GLint param) override;
    void glSamplerParameterf(GLuint sampler, GLenum pname, GLfloat param) override;
    void glSamplerParameterfv(GLuint sampler, GLenum pname, wire::In<GLfloat> params) override;
    void glGetSamplerParameterfv(GLuint sampler, GLenum pname, wire::Out<GLfloat> params) override;
    void glGetSamplerParameteriv(GLuint sampler, GLenum pname, wire::Out<GLint> params) override;
    void glGetTexParameterfv(GLenum target, GLenum pname, wire::Out<GLfloat> params) override;
    void glSamplerParameteriv(GLuint sampler, GLenum pname, wire::In<GLint> params) override;
    // Multisample textures, the sample mask and positions (textures_multisample.cc).
    void glTexImage2DMultisample(GLenum target, GLsizei samples, GLenum ifmt, GLsizei w, GLsizei h, GLboolean fixed) override;
    void glTexStorage2DMultisample(GLenum target, GLsizei samples, GLenum ifmt, GLsizei w, GLsizei h, GLboolean fixed) override;
    void glTexImage3DMultisample(GLenum target, GLsizei samples, GLenum ifmt, GLsizei w, GLsizei h, GLsizei d,
                                 GLboolean fixed) override;
    void glTexStorage3DMultisample(GLenum target, GLsizei samples, GLenum ifmt, GLsizei w, GLsizei h, GLsizei d,
                                   GLboolean fixed) override;
    void glSampleMaski(GLuint index, GLbitfield mask) override;
    void glGetMultisamplefv(GLenum pname, GLuint index, wire::Out<GLfloat> val) override;
    void glGetTexLevelParameteriv(GLenum target, GLint level, GLenum pname, wire::Out<GLint> params) override;
    void glGetTexLevelParameterfv(GLenum target, GLint level, GLenum pname, wire::Out<GLfloat> params) override;

    // ---- framebuffers (framebuffers.cc, framebuffer_queries.cc, clears.cc, blit_read.cc) ----
    void glGenRenderbuffers(GLsizei n, wire::In<GLuint> renderbuffers) override;
    void glDeleteRenderbuffers(GLsizei n, wire::In<GLuint> renderbuffers) override;
    void glBindRenderbuffer(GLenum target, GLuint renderbuffer) override;
    void glRenderbufferStorage(GLenum target, GLenum internalformat, GLsizei width, GLsizei height) override;
    void glRenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                                          GLsizei height) override;
    void glGetInternalformativ(GLenum target, GLenum internalformat, GLenum pname, GLsizei count,
                               wire::Out<GLint> params) override;
    void glGenFramebuffers(GLsizei n, wire::In<GLuint> framebuffers) override;
    void glDeleteFramebuffers(GLsizei n, wire::In<GLuint> framebuffers) override;
    void glBindFramebuffer(GLenum target, GLuint framebuffer) override;
    void glFramebufferTexture1D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture, GLint level) override;
    void attach_texture(gen::Op verb, GLenum target, GLenum attachment, GLenum textarget, GLuint texture, GLint level);
    void attach_layer(gen::Op verb, GLenum target, GLenum attachment, GLuint texture, GLint level, GLint layer);
    void glFramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                GLint level) override;
    void glFramebufferRenderbuffer(GLenum target, GLenum attachment, GLenum renderbuffertarget,
                                   GLuint renderbuffer) override;
    void glFramebufferTexture3D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture, GLint level,
                                GLint zoffset) override;
    void glFramebufferTextureLayer(GLenum target, GLenum attachment, GLuint texture, GLint level,
                                   GLint layer) override;
    GLenum glCheckFramebufferStatus(GLenum target) override;
    void glGetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment, GLenum pname,
                                               wire::Out<GLint> params) override;
    void glGetRenderbufferParameteriv(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    void glInvalidateFramebuffer(GLenum target, GLsizei n, wire::In<GLenum> attachments) override;
    void glDiscardFramebufferEXT(GLenum target, GLsizei n, wire::In<GLenum> attachments) override;
    void glClear(GLbitfield mask) override;
    void glClearBufferfv(GLenum buffer, GLint drawbuffer, wire::In<GLfloat> value) override;
    void glClearBufferiv(GLenum buffer, GLint drawbuffer, wire::In<GLint> value) override;
    void glClearBufferuiv(GLenum buffer, GLint drawbuffer, wire::In<GLuint> value) override;
    void glClearBufferfi(GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil) override;
    void glDrawBuffers(GLsizei n, wire::In<GLenum> bufs) override;
    void glDrawBuffersEXT(GLsizei n, wire::In<GLenum> bufs) override { glDrawBuffers(n, bufs); }
    void glReadBuffer(GLenum src) override;
    // Desktop-only verbs (desktop_verbs.cc; glGetTexImage: desktop_get_tex_image.cc).
    void glGetTexImage(GLenum target, GLint level, GLenum format, GLenum type, wire::OutOrOffset<uint8_t> pixels) override;
    // depth_stencil_read.cc
    void get_depth_stencil_image(GLenum target, GLint level, GLenum format, GLenum type, wire::OutOrOffset<uint8_t> pixels);
    void read_depth_stencil_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                                   wire::OutOrOffset<uint8_t> pixels);
    Image* read_ds_source(bool stencil, uint32_t& level, uint32_t& layer, uint32_t& w, uint32_t& h);
    bool read_depth_stencil(Image& img, uint32_t level, uint32_t layer, int x, int y, int w, int h,
                            std::vector<float>* depth, std::vector<uint32_t>* stencil);
    void glClearColorIiEXT(GLint r, GLint g, GLint b, GLint a) override;
    void glClearColorIuiEXT(GLuint r, GLuint g, GLuint b, GLuint a) override;
    void glTexParameterIiv(GLenum target, GLenum pname, wire::In<GLint> params) override;
    void glTexParameterIuiv(GLenum target, GLenum pname, wire::In<GLuint> params) override;
    void glGetTexParameterIiv(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    void glGetTexParameterIuiv(GLenum target, GLenum pname, wire::Out<GLuint> params) override;
    void glBindFramebufferEXT(GLenum target, GLuint framebuffer) override;
    void glBindRenderbufferEXT(GLenum target, GLuint renderbuffer) override;
    void glDrawBuffer(GLenum buf) override;
    GLboolean glIsFramebuffer(GLuint name) override;
    GLboolean glIsRenderbuffer(GLuint name) override;
    void glBlitFramebuffer(GLint srcX0, GLint srcY0, GLint srcX1, GLint srcY1, GLint dstX0, GLint dstY0, GLint dstX1,
                           GLint dstY1, GLbitfield mask, GLenum filter) override;
    void glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                      wire::OutOrOffset<uint8_t> pixels) override;
    bool pack_destination(gen::Op verb, const wire::OutOrOffset<uint8_t>& pixels, size_t need, uint8_t** out);
    uint8_t* pack_bytes(const wire::OutOrOffset<uint8_t>& pixels, uint8_t* out);  // blit_read.cc
    void desktop_read_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                             wire::OutOrOffset<uint8_t> pixels);  // blit_read.cc

    // ---- programs (programs.cc, uniform_set.cc) ----------------------------
    void glCreateShader(GLenum type, GLuint result) override;
    void glShaderSource(GLuint shader, GLsizei count, wire::Strings string) override;
    void glCompileShader(GLuint shader) override;
    void glGetShaderiv(GLuint shader, GLenum pname, wire::Out<GLint> params) override;
    void glGetShaderInfoLog(GLuint shader, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> log) override;
    void glGetShaderSource(GLuint shader, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> src) override;
    void glDeleteShader(GLuint shader) override;
    GLboolean glIsShader(GLuint shader) override;
    void glCreateProgram(GLuint result) override;
    void glAttachShader(GLuint program, GLuint shader) override;
    void glDetachShader(GLuint program, GLuint shader) override;
    void glBindAttribLocation(GLuint program, GLuint index, wire::In<GLchar> name) override;
    void glBindFragDataLocation(GLuint program, GLuint color, wire::In<GLchar> name) override;
    void glBindFragDataLocationIndexed(GLuint program, GLuint colorNumber, GLuint index, wire::In<GLchar> name) override;
    GLint glGetFragDataLocation(GLuint program, wire::In<GLchar> name) override;
    GLint glGetFragDataLocationEXT(GLuint program, wire::In<GLchar> name) override { return glGetFragDataLocation(program, name); }
    void glLinkProgram(GLuint program) override;
    void glGetProgramiv(GLuint program, GLenum pname, wire::Out<GLint> params) override;
    void glGetProgramInfoLog(GLuint program, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> log) override;
    void glDeleteProgram(GLuint program) override;
    GLboolean glIsProgram(GLuint program) override;
    void glValidateProgram(GLuint program) override;
    void glUseProgram(GLuint program) override;
    GLint glGetUniformLocation(GLuint program, wire::In<GLchar> name) override;
    GLint glGetAttribLocation(GLuint program, wire::In<GLchar> name) override;
    void glGetActiveUniform(GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                            wire::Out<GLint> size, wire::Out<GLenum> type, wire::Out<GLchar> name) override;
    void glGetActiveAttrib(GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                           wire::Out<GLint> size, wire::Out<GLenum> type, wire::Out<GLchar> name) override;
    GLuint glGetUniformBlockIndex(GLuint program, wire::In<GLchar> name) override;
    void glGetActiveUniformsiv(GLuint program, GLsizei uniformCount, wire::In<GLuint> uniformIndices, GLenum pname,
                               wire::Out<GLint> params) override;
    void glGetUniformIndices(GLuint program, GLsizei uniformCount, wire::Strings uniformNames,
                             wire::Out<GLuint> uniformIndices) override;
    void glGetActiveUniformName(GLuint program, GLuint uniformIndex, GLsizei bufSize, wire::Out<GLsizei> length,
                                wire::Out<GLchar> uniformName) override;
    void glGetActiveUniformBlockName(GLuint program, GLuint uniformBlockIndex, GLsizei bufSize,
                                     wire::Out<GLsizei> length, wire::Out<GLchar> uniformBlockName) override;
    void glGetActiveUniformBlockiv(GLuint program, GLuint uniformBlockIndex, GLenum pname,
                                   wire::Out<GLint> params) override;
    template <class NameOf>
    void name_query(gen::Op op, GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                    wire::Out<GLchar> out, NameOf name_of);  // uniform_blocks.cc
    void glUniformBlockBinding(GLuint program, GLuint index, GLuint binding) override;
    // glGetUniform{f,i,ui}v: the session verb the client sends for them (uniform_get.cc).
    GLint mglGetUniform(GLuint program, GLint location, GLenum type, wire::Out<GLuint> values) override;
    // Transform feedback (transform_feedback.cc).
    void glGenTransformFeedbacks(GLsizei n, wire::In<GLuint> ids) override;
    void glDeleteTransformFeedbacks(GLsizei n, wire::In<GLuint> ids) override;
    GLboolean glIsTransformFeedback(GLuint id) override;
    void glBindTransformFeedback(GLenum target, GLuint id) override;
    void glBeginTransformFeedback(GLenum primitiveMode) override;
    void glEndTransformFeedback() override;
    void glPauseTransformFeedback() override;
    void glResumeTransformFeedback() override;
    void glTransformFeedbackVaryings(GLuint program, GLsizei count, wire::Strings varyings, GLenum bufferMode) override;
    void glGetTransformFeedbackVarying(GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                                       wire::Out<GLsizei> size, wire::Out<GLenum> type, wire::Out<GLchar> name) override;
    void glGetIntegeri_v(GLenum target, GLuint index, wire::Out<GLint> data) override;
    // Uniform setters: all land in uniform() with the component layout.
    void glUniform1f(GLint l, GLfloat a) override { uniform_f(l, 1, 1, &a); }
    void glUniform2f(GLint l, GLfloat a, GLfloat b) override { const float v[] = {a, b}; uniform_f(l, 1, 2, v); }
    void glUniform3f(GLint l, GLfloat a, GLfloat b, GLfloat c) override { const float v[] = {a, b, c}; uniform_f(l, 1, 3, v); }
    void glUniform4f(GLint l, GLfloat a, GLfloat b, GLfloat c, GLfloat d) override { const float v[] = {a, b, c, d}; uniform_f(l, 1, 4, v); }
    void glUniform1i(GLint l, GLint a) override { uniform_i(l, 1, 1, &a); }
    void glUniform2i(GLint l, GLint a, GLint b) override { const GLint v[] = {a, b}; uniform_i(l, 1, 2, v); }
    void glUniform3i(GLint l, GLint a, GLint b, GLint c) override { const GLint v[] = {a, b, c}; uniform_i(l, 1, 3, v); }
    void glUniform4i(GLint l, GLint a, GLint b, GLint c, GLint d) override { const GLint v[] = {a, b, c, d}; uniform_i(l, 1, 4, v); }
    void glUniform1fv(GLint l, GLsizei n, wire::In<GLfloat> v) override { uniform_f(l, n, 1, v.data, v.count()); }
    void glUniform2fv(GLint l, GLsizei n, wire::In<GLfloat> v) override { uniform_f(l, n, 2, v.data, v.count()); }
    void glUniform3fv(GLint l, GLsizei n, wire::In<GLfloat> v) override { uniform_f(l, n, 3, v.data, v.count()); }
    void glUniform4fv(GLint l, GLsizei n, wire::In<GLfloat> v) override { uniform_f(l, n, 4, v.data, v.count()); }
    void glUniform1iv(GLint l, GLsizei n, wire::In<GLint> v) override { uniform_i(l, n, 1, v.data, v.count()); }
    void glUniform2iv(GLint l, GLsizei n, wire::In<GLint> v) override { uniform_i(l, n, 2, v.data, v.count()); }
    void glUniform3iv(GLint l, GLsizei n, wire::In<GLint> v) override { uniform_i(l, n, 3, v.data, v.count()); }
    void glUniform4iv(GLint l, GLsizei n, wire::In<GLint> v) override { uniform_i(l, n, 4, v.data, v.count()); }
    // Unsigned setters store the same 32-bit patterns as the signed ones.
    void glUniform1ui(GLint l, GLuint a) override { const GLint v[] = {GLint(a)}; uniform_i(l, 1, 1, v); }
    void glUniform2ui(GLint l, GLuint a, GLuint b) override { const GLint v[] = {GLint(a), GLint(b)}; uniform_i(l, 1, 2, v); }
    void glUniform3ui(GLint l, GLuint a, GLuint b, GLuint c) override { const GLint v[] = {GLint(a), GLint(b), GLint(c)}; uniform_i(l, 1, 3, v); }
    void glUniform4ui(GLint l, GLuint a, GLuint b, GLuint c, GLuint d) override { const GLint v[] = {GLint(a), GLint(b), GLint(c), GLint(d)}; uniform_i(l, 1, 4, v); }
    void glUniform1uiv(GLint l, GLsizei n, wire::In<GLuint> v) override { uniform_i(l, n, 1, reinterpret_cast<const GLint*>(v.data), v.count()); }
    void glUniform2uiv(GLint l, GLsizei n, wire::In<GLuint> v) override { uniform_i(l, n, 2, reinterpret_cast<const GLint*>(v.data), v.count()); }
    void glUniform3uiv(GLint l, GLsizei n, wire::In<GLuint> v) override { uniform_i(l, n, 3, reinterpret_cast<const GLint*>(v.data), v.count()); }
    void glUniform4uiv(GLint l, GLsizei n, wire::In<GLuint> v) override { uniform_i(l, n, 4, reinterpret_cast<const GLint*>(v.data), v.count()); }
    // glUniformMatrixCxRfv: C columns of R rows.
    void glUniformMatrix2x3fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 2, 3, v); }
    void glUniformMatrix3x2fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 3, 2, v); }
    void glUniformMatrix2x4fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 2, 4, v); }
    void glUniformMatrix4x2fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 4, 2, v); }
    void glUniformMatrix3x4fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 3, 4, v); }
    void glUniformMatrix4x3fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 4, 3, v); }
    void glUniformMatrix2fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 2, 2, v); }
    void glUniformMatrix3fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 3, 3, v); }
    void glUniformMatrix4fv(GLint l, GLsizei n, GLboolean t, wire::In<GLfloat> v) override { uniform_m(l, n, t, 4, 4, v); }

    // ---- queries (queries.cc) ------------------------------------------------
    void glGenQueries(GLsizei n, wire::In<GLuint> ids) override;
    void glDeleteQueries(GLsizei n, wire::In<GLuint> ids) override;
    GLboolean glIsQuery(GLuint id) override;
    void glBeginQuery(GLenum target, GLuint id) override;
    void glEndQuery(GLenum target) override;
    void glGetQueryiv(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    void glGetQueryObjectuiv(GLuint id, GLenum pname, wire::Out<GLuint> params) override;
    void glGetQueryObjectiv(GLuint id, GLenum pname, wire::Out<GLint> params) override;
    void glGetQueryObjectui64v(GLuint id, GLenum pname, wire::Out<GLuint64> params) override;
    void glGetQueryObjecti64v(GLuint id, GLenum pname, wire::Out<GLint64> params) override;
    bool query_object(gen::Op op, GLuint id, GLenum pname, uint64_t& out);
    // GL_EXT_occlusion_query_boolean: the same verbs.
    void glGenQueriesEXT(GLsizei n, wire::In<GLuint> ids) override { glGenQueries(n, ids); }
    void glDeleteQueriesEXT(GLsizei n, wire::In<GLuint> ids) override { glDeleteQueries(n, ids); }
    GLboolean glIsQueryEXT(GLuint id) override { return glIsQuery(id); }
    void glBeginQueryEXT(GLenum target, GLuint id) override { glBeginQuery(target, id); }
    void glEndQueryEXT(GLenum target) override { glEndQuery(target); }
    void glGetQueryivEXT(GLenum target, GLenum pname, wire::Out<GLint> params) override { glGetQueryiv(target, pname, params); }
    void glGetQueryObjectuivEXT(GLuint id, GLenum pname, wire::Out<GLuint> params) override { glGetQueryObjectuiv(id, pname, params); }

    // ---- draws (draw.cc) ---------------------------------------------------
    void glDrawArrays(GLenum mode, GLint first, GLsizei count) override { draw(mode, first, count, 0, {}, 1); }
    void glDrawArraysInstanced(GLenum mode, GLint first, GLsizei count, GLsizei n) override { draw(mode, first, count, 0, {}, n); }
    void glDrawElements(GLenum mode, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> idx) override { draw(mode, 0, count, type, idx, 1); }
    void glDrawElementsInstanced(GLenum mode, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> idx, GLsizei n) override { draw(mode, 0, count, type, idx, n); }
    void glDrawRangeElements(GLenum mode, GLuint, GLuint, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> idx) override { draw(mode, 0, count, type, idx, 1); }
    // GL 3.2 / ARB_draw_elements_base_vertex (ES: EXT/OES_draw_elements_base_vertex): the device adds
    // the base to each index after restart and widening, as GL does (vertexOffset).
    void glDrawElementsBaseVertex(GLenum mode, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> idx, GLint base) override { draw(mode, 0, count, type, idx, 1, base); }
    void glDrawRangeElementsBaseVertex(GLenum mode, GLuint, GLuint, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> idx, GLint base) override { draw(mode, 0, count, type, idx, 1, base); }
    void glDrawElementsInstancedBaseVertex(GLenum mode, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> idx, GLsizei n, GLint base) override { draw(mode, 0, count, type, idx, n, base); }
    // GL 4.2's base instance: Vulkan's firstInstance (gl_InstanceID leaves it out: shaders.cc).
    void glDrawArraysInstancedBaseInstance(GLenum mode, GLint first, GLsizei count, GLsizei n, GLuint bi) override { draw(mode, first, count, 0, {}, n, 0, bi); }
    void glDrawElementsInstancedBaseInstance(GLenum mode, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> idx, GLsizei n, GLuint bi) override { draw(mode, 0, count, type, idx, n, 0, bi); }
    void glDrawElementsInstancedBaseVertexBaseInstance(GLenum mode, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> idx, GLsizei n, GLint base, GLuint bi) override { draw(mode, 0, count, type, idx, n, base, bi); }
    // GL 4.0 / 4.3 indirect draws, one draw per command (draw_indirect.cc).
    void glDrawArraysIndirect(GLenum mode, wire::InOrOffset<uint8_t> indirect) override { draw_arrays_indirect(gen::Op::glDrawArraysIndirect, mode, indirect, 1, 0); }
    void glDrawElementsIndirect(GLenum mode, GLenum type, wire::InOrOffset<uint8_t> indirect) override { draw_elements_indirect(gen::Op::glDrawElementsIndirect, mode, type, indirect, 1, 0); }
    void glMultiDrawArraysIndirect(GLenum mode, wire::InOrOffset<uint8_t> indirect, GLsizei n, GLsizei stride) override { draw_arrays_indirect(gen::Op::glMultiDrawArraysIndirect, mode, indirect, n, stride); }
    void glMultiDrawElementsIndirect(GLenum mode, GLenum type, wire::InOrOffset<uint8_t> indirect, GLsizei n, GLsizei stride) override { draw_elements_indirect(gen::Op::glMultiDrawElementsIndirect, mode, type, indirect, n, stride); }

private:
    bool images_said_ = false;  // mglCreateImage's refusal logged
    bool peer_in_process_ = false;  // the client shares our address space (buffer_storage.cc)
    // errors
    void set_error(GLenum e);
    // The error flag and its debug message (debug_output.cc): `verb` and `why` may be null.
    void raise_error(GLenum e, const char* verb, const char* why);
    void debug_verb_error(gen::Op verb, uint32_t e);  // e == 0: nothing
    std::shared_ptr<void> labelled_object(GLenum identifier, GLuint name, bool* known);
    void refuse(gen::Op verb, GLenum e, const char* why);
    bool first_time(std::vector<bool>& seen, gen::Op verb);
    void session_error(const char* verb, const std::string& what);
    bool need_context(gen::Op verb);
    // GL_MAX_DRAW_BUFFERS and GL_MAX_COLOR_ATTACHMENTS of the current context
    // (state_queries.cc): the device's, at most GL 3.0's 8 (ES contexts: ES 3.0's 4).
    int max_draw_buffers() const;
    // session
    void destroy_surface(Surface& s);
    bool make_surface_images(Surface& s);
    void resolve_surface(Surface& s);
    VkSampleCountFlagBits surface_samples(int samples);
    // Copies a region of one level and layer out (waits for the GPU). A
    // depth/stencil image gives its depth aspect, or its stencil (one byte a
    // texel; format S8_UINT) with `stencil`.
    bool read_image(Image& img, uint32_t level, uint32_t layer, int x, int y, int w, int h, VkFormat& format,
                    std::vector<uint8_t>& out, bool stencil = false);
    bool read_surface_rgba(Surface& s, int x, int y, int w, int h, uint8_t* out);
    void end_frame();
    // Presents the window frames whose batches completed, oldest first;
    // wait: all of them, waiting (bounded) for the GPU.
    void present_ready(Surface& s, bool wait);
    // state
    void set_cap(GLenum cap, bool on);
    VkClearValue colour_clear_value(const Image* img) const;  // clears.cc
    // Desktop-only caps and queries (desktop_state.cc); false: not one of them.
    bool desktop_cap(GLenum cap, bool on);
    bool desktop_is_enabled(GLenum cap, GLboolean& out);
    bool desktop_get(GLenum pname, double out[4], int* count);
    // buffers
    std::shared_ptr<Buffer>* buffer_slot(GLenum target);
    // The buffer bound to `target`, or null after refusing the verb
    // (GL_INVALID_ENUM: no such target; GL_INVALID_OPERATION: none bound).
    Buffer* bound_buffer(gen::Op verb, GLenum target);
    std::shared_ptr<Buffer> buffer_for_bind(GLuint name);
    bool write_buffer(Buffer& b, uint64_t offset, const void* data, uint64_t size, bool discard);
    void bound_stream();  // submits a batch that streamed past its limit (buffers.cc)
    // The buffer's bytes as the host must read them (waits if a staged GPU copy is pending).
    uint8_t* host_bytes(Buffer& b);
    void attrib_fv(GLuint index, wire::In<GLfloat> v, int n);
    void attrib_bits(gen::Op verb, GLuint index, const uint32_t v[4]);
    // kind: 'f' floats, 'i' ints converted from the current value, 'I' its raw 32-bit values.
    void get_attrib(gen::Op verb, GLuint index, GLenum pname, void* out, uint32_t count, char kind);
    void attrib_pointer(gen::Op verb, GLuint index, GLint size, GLenum type, bool normalized, bool integer,
                        GLsizei stride, wire::InOrOffset<uint8_t> pointer);
    // textures
    std::shared_ptr<Texture>* texture_slot(GLenum target);
    Texture* bound_texture(gen::Op verb, GLenum target);
    bool define_image(Texture& t, GLenum target, int level, const TexFormat& f, uint32_t w, uint32_t h, uint32_t d);
    bool upload(gen::Op verb, Texture& t, GLenum target, int level, int x, int y, int z, uint32_t w, uint32_t h,
                uint32_t d, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels);
    // The client's pixels, inline or in the pixel unpack buffer (*src null: no data); false: refused.
    bool unpack_source(gen::Op verb, wire::InOrOffset<uint8_t> pixels, const uint8_t** src, size_t* size);
    // Uploads into a level whose format came from desktop_tex_format (desktop_textures.cc).
    bool desktop_upload(gen::Op verb, Texture& t, GLenum target, int level, int x, int y, int z, uint32_t w,
                        uint32_t h, uint32_t d, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels);
    // The texture format of glTexImage*/glTexStorage*: the desktop table first in desktop contexts.
    bool level_format(uint32_t internalformat, GLenum format, GLenum type, TexFormat& f);
    int verb_dims(GLenum target);  // 1, 2 or 3: the glTex*Image verbs that take `target`; 0 none
    void tex_image_2d(gen::Op verb, GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                      GLint border, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels);
    void tex_sub_image_2d(gen::Op verb, GLenum target, GLint level, GLint x, GLint y, GLsizei width, GLsizei height,
                          GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels);
    // Copies w*h*d tight texels of t's format, staged at s, into the image.
    // Where work outside a render pass that reads or writes `img` is recorded
    // so that GL's order holds: init if this batch has not used the image,
    // the open pass's prologue if that pass has not used it (the pass stays
    // open), else in order in main (the pass ends).
    VkCommandBuffer image_work(const Image& img);
    bool stage_texels(gen::Op verb, Texture& t, GLenum target, int level, int x, int y, int z, uint32_t w, uint32_t h,
                      uint32_t d, const TexFormat& f, const PixelStore& ps, bool three_d, const uint8_t* src, size_t size);
    void copy_texels(Texture& t, GLenum target, int level, int x, int y, int z, uint32_t w, uint32_t h, uint32_t d,
                     const Gpu::Slice& s);
    // Compressed uploads (compressed.cc): the client bytes (inline or from the pixel unpack buffer).
    const uint8_t* compressed_source(gen::Op verb, wire::InOrOffset<uint8_t> data, size_t need);
    void compressed_image(gen::Op verb, GLenum target, GLint level, GLenum ifmt, GLsizei w, GLsizei h, GLsizei d,
                          GLint border, GLsizei size, wire::InOrOffset<uint8_t> data);
    void compressed_sub_image(gen::Op verb, GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w, GLsizei h,
                              GLsizei d, GLenum format, GLsizei size, wire::InOrOffset<uint8_t> data);
    void tex_parameter(TexParams& p, int* base, int* max, GLenum pname, float value);
    void border_color(GLenum target, const float* rgba);  // GL_TEXTURE_BORDER_COLOR (samplers.cc)
    TexParams* sampler_params(gen::Op verb, GLuint sampler);  // null: refused
    VkImageView sampled_view(Texture& t, GLenum min_filter, bool& complete);
    VkImageView attachment_view(Texture& t, int level, int layer);
    SamplerKey sampler_key(const TexParams& p, const Texture& t) const;
    VkSampleCountFlagBits texture_samples(VkFormat f, GLsizei samples);
    void multisample_storage(gen::Op verb, GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                             GLsizei height, GLsizei depth, bool fixed_locations, bool immutable);
    bool sample_mask_cap(GLenum cap, bool on);
    // framebuffers
    Framebuffer* fb_for(GLenum target);
    Attachment* attachment_slot(Framebuffer& fb, GLenum attachment, Attachment** second);
    bool resolve_target(Target& t, bool draw_fb);
    void renderbuffer_storage(gen::Op verb, GLsizei samples, GLenum internalformat, GLsizei width, GLsizei height);
    // GL_SAMPLES of the draw (or read) framebuffer: 0 when single-sampled.
    int fb_samples(bool draw_fb);
    int framebuffer_bits(GLenum pname);  // GL_RED_BITS .. GL_STENCIL_BITS of the draw framebuffer
    bool ensure_pass(Target& t);
    void check_discard(gen::Op verb, GLenum target, GLsizei n, wire::In<GLenum> attachments);
    // glClearBuffer*: one draw buffer's color (raw 32-bit values) or depth and/or stencil.
    void clear_buffer(gen::Op verb, GLenum buffer, GLint drawbuffer, const uint32_t color[4], bool depth, float d,
                      bool stencil, GLint s);
    Image* read_source(uint32_t& level, uint32_t& layer, uint32_t& w, uint32_t& h);
    Image* attachment_image(Attachment& a, uint32_t& level, uint32_t& layer, uint32_t& w, uint32_t& h);
    // programs
    std::shared_ptr<Program> program_for(gen::Op verb, GLuint name);
    std::shared_ptr<Shader> shader_for(gen::Op verb, GLuint name);
    bool build_executable(Program& p, std::string& log);  // executable.cc
    bool build_compute(Program& p, const Shader& cs, std::string& log);  // compute.cc
    gl::ComputeLimits compute_limits() const;                            // compute.cc
    void bind_counter_buffer(GLuint index, GLuint name, GLintptr offset, GLsizeiptr size);  // atomic_counters.cc
    // Set 0's storage descriptors of the program's counter buffers (false: refused, loudly).
    bool counter_descriptors(gen::Op verb, const Executable& exe, std::vector<VkDescriptorBufferInfo>& infos,
                             std::vector<uint32_t>& bindings, std::vector<uint64_t>& key);
    void dispatch(gen::Op verb, Executable& exe, const uint32_t groups[3]);
    // The shading language family of the current context's shaders.
    Api shader_api() const { return cur_ && cur_->desktop() ? Api::desktop : Api::es; }
    void uniform_f(GLint loc, GLsizei count, int comps, const float* v, uint32_t have = ~0u);
    void uniform_i(GLint loc, GLsizei count, int comps, const GLint* v, uint32_t have = ~0u);
    void uniform_m(GLint loc, GLsizei count, GLboolean transpose, int cols, int rows, wire::In<GLfloat> v);
    Executable* current_exe();
    // draws
    void draw(GLenum mode, GLint first, GLsizei count, GLenum index_type, wire::InOrOffset<uint8_t> indices,
              GLsizei instances, GLint base_vertex = 0, GLuint base_instance = 0);
    // Indirect draws (draw_indirect.cc): the commands' first byte, after GL's checks.
    const uint8_t* indirect_commands(gen::Op verb, wire::InOrOffset<uint8_t> indirect, GLsizei drawcount,
                                     GLsizei stride, uint32_t command_bytes, bool elements);
    void draw_arrays_indirect(gen::Op verb, GLenum mode, wire::InOrOffset<uint8_t> indirect, GLsizei drawcount,
                              GLsizei stride);
    void draw_elements_indirect(gen::Op verb, GLenum mode, GLenum type, wire::InOrOffset<uint8_t> indirect,
                                GLsizei drawcount, GLsizei stride);
    VkPipeline pipeline(Executable& exe, const Target& t, VkPrimitiveTopology topo, const std::string& vertex_key,
                        const std::vector<VkVertexInputBindingDescription>& bindings,
                        const std::vector<VkVertexInputAttributeDescription>& attrs);
    bool bind_descriptors(Executable& exe);
    // The draw's pieces; false: the draw is refused (GL error set).
    // false: refused (an image uniform's unit cannot be served).
    bool draw_textures(gen::Op verb, Executable& exe, std::vector<SampledImage>& images);  // draw_descriptors.cc
    // images.cc: an image uniform's storage image; an image unit query (false: not one).
    bool storage_image(gen::Op verb, const UniformInfo& u, int unit, uint32_t element, SampledImage& out);
    bool image_unit_get(GLenum pname, GLuint index, GLint* v);
    bool draw_descriptors(gen::Op verb, Executable& exe, const std::vector<SampledImage>& images);
    bool draw_vertices(gen::Op verb, Executable& exe, GLsizei instances, GLuint base_instance,
                       VertexInput& in);  // draw_vertex.cc
    bool draw_indices(gen::Op verb, GLenum mode, GLint first, GLsizei count, GLenum index_type,
                      wire::InOrOffset<uint8_t> indices, IndexInput& out);
    void record_dynamic_state(VkCommandBuffer cb, const Target& t, VkPrimitiveTopology topo,
                              const VertexInput& in);  // draw_dynamic.cc
    // transform feedback (transform_feedback.cc); xfb_draw_check false: the draw is refused (GL error set).
    // index_type 0: glDrawArrays; else the indices (desktop contexts capture
    // indexed draws, primitives counted between restarts).
    bool xfb_draw_check(gen::Op verb, GLenum mode, GLsizei count, GLsizei instances, GLenum index_type,
                        const wire::InOrOffset<uint8_t>& indices, XfbDraw& d);
    void xfb_begin(VkCommandBuffer cb, const XfbDraw& d);
    void xfb_end(VkCommandBuffer cb, const XfbDraw& d);
    void xfb_unavailable(gen::Op verb);
    void bind_xfb_buffer(GLuint index, GLuint name, GLintptr offset, GLsizeiptr size, bool range);
    bool xfb_blocks_program_change() const;
    bool xfb_get(GLenum pname, int64_t* v);  // glGet of transform feedback state
    VkBufferUsageFlags buffer_usage() const;
    // glClear with a partial color mask: the color drawn (clear_masked.cc).
    // false: not drawn (integer buffers), the caller clears every channel.
    bool clear_color_masked(Target& t, int x0, int y0, int x1, int y1);
    VkPipeline masked_clear_pipeline(const Target& t, uint32_t ncolor, uint8_t write_mask);
    void release_masked_clear();
    MaskedClear masked_clear_;

    spdlog::logger& log() const { return *log_; }

    std::shared_ptr<spdlog::logger> log_;
    std::unique_ptr<Gpu> gpu_;
    std::string device_name_;
    std::vector<bool> logged_unsupported_, logged_refused_;
    std::map<GLuint, std::unique_ptr<Context>> contexts_;
    std::map<GLuint, std::unique_ptr<Surface>> surfaces_;
    std::vector<std::unique_ptr<Context>> doomed_contexts_;
    std::vector<std::unique_ptr<Surface>> doomed_surfaces_;
    Context* cur_ = nullptr;
    Surface* draw_ = nullptr;
    Surface* read_ = nullptr;
    PresentFn present_;
    Counters last_frame_{};
    uint64_t frames_ = 0;
    // MOBILEGL_MAGMA_STATS=1: one line of counters per swapped frame on stderr
    // (tools/bench/traces/magma-counters.sh checks them on every trace).
    const bool frame_stats_ = [] {
        const char* v = std::getenv("MOBILEGL_MAGMA_STATS");
        return v && (v[0] == '1' || v[0] == '2');
    }();
    std::chrono::steady_clock::time_point last_frame_end_ = std::chrono::steady_clock::now();
    uint64_t last_frame_cpu_us_ = 0;
    // MOBILEGL_MAGMA_STATS=2: also one line per pipeline created, with its
    // key, to find out which state made a late one.
    const bool pipeline_stats_ = [] {
        const char* v = std::getenv("MOBILEGL_MAGMA_STATS");
        return v && v[0] == '2';
    }();
    // The open render pass: its target, so that draws to the same attachments continue it.
    const void* open_id_ = nullptr;
    uint64_t open_generation_ = 0;
    Recorded recorded_;  // what the main command buffer has bound (draw_recorded.h)
    // 1x1 stand-ins for incomplete or missing textures (draw_input.h: kDummy*).
    Image dummy_[kDummyKinds][kDummies];
    VkImageView dummy_view_[kDummyKinds][kDummies] = {};
};

}  // namespace mgl::magma
