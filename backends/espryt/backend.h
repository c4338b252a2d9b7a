// The Espryt backend: session verbs (contexts, surfaces, make-current,
// swap, readback, strings) and the few GL verbs whose generated
// pass-through needs a hand-written step before or after it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "gen/espryt_pass.h"
#include "desktop_shaders.h"
#include "host_egl.h"
#include "proxy_textures.h"
#include "texture_targets.h"
#include "legacy_wrap.h"

namespace mgl::gl {
struct HostFormat;
}

namespace mgl::espryt {

// GL_OES_EGL_image(_external) on an ES context: served by egl_images.cc
// where the host has the entry points.
bool served_image_extension(std::string_view name);

class EsprytBackend final : public EsprytGenerated {
public:
    EsprytBackend(const Options& options, const HostDisplay& host);
    ~EsprytBackend() override;

    void set_present(PresentFn fn) override { present_ = std::move(fn); }
    void release() override;
    void begin_span() override;
    std::mutex* session_lock() override;  // session.cc: Mesa's software rasterizers race across threads

    // ---- session verbs (session.cc, surfaces.cc) ----
    GLuint64 mglPing(GLuint64 cookie) override { return cookie; }
    void mglCreateContext(GLuint context, GLuint share, GLint major, GLint minor, GLbitfield flags, GLenum api,
                          GLbitfield profile) override;
    GLint mglGetContextVersion(GLuint context) override;
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
    // Mappings in the host driver's memory for an in-process client (host_maps.cc)
    void set_peer_in_process(bool in_process) override { peer_in_process_ = in_process; }
    GLuint64 mglMapBufferHost(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) override;
    void mglUnmapBufferHost(GLenum target) override;
    void mglFlushBufferHost(GLenum target, GLintptr offset, GLsizeiptr length) override;
    GLenum mglGetError() override { return take_error(); }
    GLint mglGetUniform(GLuint program, GLint location, GLenum type, wire::Out<GLuint> values) override;  // queries.cc
    // EGLImages of the session (egl_images.cc)
    GLenum mglCreateImage(GLuint image, GLuint context, GLenum target, GLuint buffer, GLint level, GLint zoffset,
                          GLboolean preserved) override;
    void mglDestroyImage(GLuint image) override;
    void glEGLImageTargetTexture2DOES(GLenum target, GLeglImageOES image) override;
    void glEGLImageTargetRenderbufferStorageOES(GLenum target, GLeglImageOES image) override;
    void glEGLImageTargetTexStorageEXT(GLenum target, GLeglImageOES image, wire::In<GLint> attrib_list) override;
    // indirect_draws.cc: a compatibility context's commands in client memory
    void glDrawArraysIndirect(GLenum mode, wire::InOrOffset<uint8_t> indirect) override;
    void glDrawElementsIndirect(GLenum mode, GLenum type, wire::InOrOffset<uint8_t> indirect) override;
    enum class IndirectFrom { buffer, client, refused };
    IndirectFrom indirect_from(gen::Op op, const wire::InOrOffset<uint8_t>& indirect, uint32_t bytes);
    // copy_image.cc: names by target, lowered desktop targets
    void glCopyImageSubData(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY, GLint srcZ,
                            GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX, GLint dstY, GLint dstZ,
                            GLsizei srcWidth, GLsizei srcHeight, GLsizei srcDepth) override;
    void glCopyImageSubDataEXT(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY, GLint srcZ,
                               GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX, GLint dstY, GLint dstZ,
                               GLsizei srcWidth, GLsizei srcHeight, GLsizei srcDepth) override;
    void glCopyImageSubDataOES(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY, GLint srcZ,
                               GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX, GLint dstY, GLint dstZ,
                               GLsizei srcWidth, GLsizei srcHeight, GLsizei srcDepth) override;

    // ---- errors ----
    GLenum glGetError() override { return take_error(); }

    // ---- state mirrored for pointer checks (tracking.cc) ----
    void glPixelStorei(GLenum pname, GLint param) override;

    // ---- storage charged to the session's memory budget (storage.cc) ----
    void glBufferData(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLenum usage) override;
    void glBufferStorage(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLbitfield flags) override;
    void glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, wire::Out<uint8_t> data) override;  // buffer_reads.cc
    void glBufferStorageEXT(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLbitfield flags) override;
    void glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height, GLint border,
                      GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) override;
    void glTexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height, GLsizei depth,
                      GLint border, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) override;
    void glTexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height) override;
    void glTexStorage3D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height,
                        GLsizei depth) override;
    void glRenderbufferStorage(GLenum target, GLenum internalformat, GLsizei width, GLsizei height) override;
    void glRenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                                          GLsizei height) override;

    // ---- queries that answer with object names (queries.cc) ----
    void glGetIntegerv(GLenum pname, wire::Out<GLint> data) override;
    void glGetInteger64v(GLenum pname, wire::Out<GLint64> data) override;
    void glGetFloatv(GLenum pname, wire::Out<GLfloat> data) override;
    void glGetBooleanv(GLenum pname, wire::Out<GLboolean> data) override;
    void glGetIntegeri_v(GLenum target, GLuint index, wire::Out<GLint> data) override;
    void glGetInteger64i_v(GLenum target, GLuint index, wire::Out<GLint64> data) override;
    void glGetVertexAttribiv(GLuint index, GLenum pname, wire::Out<GLint> params) override;
    void glGetVertexAttribfv(GLuint index, GLenum pname, wire::Out<GLfloat> params) override;
    void glGetVertexAttribIiv(GLuint index, GLenum pname, wire::Out<GLint> params) override;
    void glGetVertexAttribIuiv(GLuint index, GLenum pname, wire::Out<GLuint> params) override;
    void glGetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment, GLenum pname,
                                               wire::Out<GLint> params) override;
    void glGetProgramPipelineiv(GLuint pipeline, GLenum pname, wire::Out<GLint> params) override;
    void glGetProgramPipelineivEXT(GLuint pipeline, GLenum pname, wire::Out<GLint> params) override;
    void glGetQueryiv(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    void glGetQueryivEXT(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    // GL_SAMPLES_PASSED on the host's GL_ANY_SAMPLES_PASSED (desktop_queries.cc)
    void glBeginQuery(GLenum target, GLuint id) override;
    void glEndQuery(GLenum target) override;
    void glDeleteQueries(GLsizei n, wire::In<GLuint> ids) override;
    GLuint samples_passed_active();
    void desktop_current_query(GLenum target, GLenum pname, wire::Out<GLint>& params);
    // The host's debug log, after the messages of errors Espryt raised itself (queries.cc).
    GLuint glGetDebugMessageLog(GLuint count, GLsizei bufSize, wire::Out<GLenum> sources, wire::Out<GLenum> types,
                                wire::Out<GLuint> ids, wire::Out<GLenum> severities, wire::Out<GLsizei> lengths,
                                wire::Out<GLchar> messageLog) override;
    GLuint glGetDebugMessageLogKHR(GLuint count, GLsizei bufSize, wire::Out<GLenum> sources, wire::Out<GLenum> types,
                                   wire::Out<GLuint> ids, wire::Out<GLenum> severities, wire::Out<GLsizei> lengths,
                                   wire::Out<GLchar> messageLog) override {
        return glGetDebugMessageLog(count, bufSize, sources, types, ids, severities, lengths, messageLog);
    }
    void glObjectLabel(GLenum identifier, GLuint name, GLsizei length, wire::In<GLchar> label) override;
    void glObjectLabelKHR(GLenum identifier, GLuint name, GLsizei length, wire::In<GLchar> label) override;
    void glGetObjectLabel(GLenum identifier, GLuint name, GLsizei bufSize, wire::Out<GLsizei> length,
                          wire::Out<GLchar> label) override;
    void glGetObjectLabelKHR(GLenum identifier, GLuint name, GLsizei bufSize, wire::Out<GLsizei> length,
                             wire::Out<GLchar> label) override;
    void glLabelObjectEXT(GLenum type, GLuint object, GLsizei length, wire::In<GLchar> label) override;
    void glGetObjectLabelEXT(GLenum type, GLuint object, GLsizei bufSize, wire::Out<GLsizei> length,
                             wire::Out<GLchar> label) override;

    // ---- desktop-only verbs mapped onto GLES (desktop_verbs.cc) ----
    void glBindFramebufferEXT(GLenum target, GLuint framebuffer) override;
    void glBindRenderbufferEXT(GLenum target, GLuint renderbuffer) override;
    void glBindBufferOffsetEXT(GLenum target, GLuint index, GLuint buffer, GLintptr offset) override;
    // GL_ARB_viewport_array's double-precision verbs on the host's
    // GL_OES_viewport_array (float); the float verbs are gl.xml aliases.
    void glDepthRangeArrayv(GLuint first, GLsizei count, wire::In<GLdouble> v) override;
    void glDepthRangeIndexed(GLuint index, GLdouble n, GLdouble f) override;
    void glGetDoublei_v(GLenum target, GLuint index, wire::Out<GLdouble> data) override;
    // image_units.cc: textures made with glTexImage* bound to image units
    void glBindImageTexture(GLuint unit, GLuint texture, GLint level, GLboolean layered, GLint layer, GLenum access,
                            GLenum format) override;
    static GLenum binding_of(GLenum target);
    bool texture_target_of(GLuint host, GLenum& target);
    void make_immutable(GLuint texture, GLuint old_host, GLenum target);
    void reattach_texture(GLuint from, GLuint to);
    // unit_routing.cc: image units and storage bindings as the application
    // set them (glUniform1i, glShaderStorageBlockBinding), routed around draws
    void record_program_units(GLuint host_program);  // after every desktop link
    void forget_program_units(GLuint host_program);
    // glUniform1i* of an image uniform. True when `location` is one (answered
    // here: no host call).
    bool image_uniform_set(gen::Op op, GLuint host_program, GLint location, GLsizei count, const GLint* values);
    bool may_be_image_location(GLint location) const;
    bool image_uniform_value(GLuint host_program, GLint location, GLint& unit) const;
    void route_units(bool compute);
    void put_back_units();
    void glUniform1i(GLint location, GLint v0) override;
    void glUniform1iv(GLint location, GLsizei count, wire::In<GLint> value) override;
    void glProgramUniform1i(GLuint program, GLint location, GLint v0) override;
    void glProgramUniform1iv(GLuint program, GLint location, GLsizei count, wire::In<GLint> value) override;
    void glShaderStorageBlockBinding(GLuint program, GLuint block, GLuint binding) override;
    void answer_storage_bindings(GLuint program, GLuint index, GLsizei propCount, const wire::In<GLenum>& props,
                                 GLsizei count, wire::Out<GLint>& params);
    void glDispatchCompute(GLuint num_groups_x, GLuint num_groups_y, GLuint num_groups_z) override;
    void glDispatchComputeIndirect(GLintptr indirect) override;
    void glBindBufferBase(GLenum target, GLuint index, GLuint buffer) override;
    void glBindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size) override;
    void glGetBooleani_v(GLenum target, GLuint index, wire::Out<GLboolean> data) override;
    void glProgramParameteri(GLuint program, GLenum pname, GLint value) override;  // desktop_shaders.cc
    void glDrawBuffer(GLenum buf) override;
    void glReadBuffer(GLenum src) override;
    // any format/type pair, converted from the GLES read (desktop_read_pixels.cc)
    void glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                      wire::OutOrOffset<uint8_t> pixels) override;

    // ---- desktop-only caps, hints and state (desktop_state.cc, rules in backends/gl/state) ----
    void glEnable(GLenum cap) override;
    void glDisable(GLenum cap) override;
    GLboolean glIsEnabled(GLenum cap) override;
    void glHint(GLenum target, GLenum mode) override;
    void glPrimitiveRestartIndex(GLuint index) override;
    void glProvokingVertex(GLenum mode) override;
    void glClipPlane(GLenum plane, wire::In<GLdouble> equation) override;
    void glPointSize(GLfloat size) override;
    void glPointParameterf(GLenum pname, GLfloat param) override;
    void glPointParameterfv(GLenum pname, wire::In<GLfloat> params) override;
    void glPointParameteri(GLenum pname, GLint param) override;
    void glPointParameteriv(GLenum pname, wire::In<GLint> params) override;
    void point_parameter(gen::Op op, GLenum pname, float value);
    void glAlphaFunc(GLenum func, GLfloat ref) override;
    void glClearColorIiEXT(GLint red, GLint green, GLint blue, GLint alpha) override;
    void glClearColorIuiEXT(GLuint red, GLuint green, GLuint blue, GLuint alpha) override;
    void glClearColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha) override;
    void glClear(GLbitfield mask) override;
    void glGetTexImage(GLenum target, GLint level, GLenum format, GLenum type, wire::OutOrOffset<uint8_t> pixels) override;
    void desktop_no_data_pair(GLint& internalformat, GLenum& format, GLenum& type, const wire::InOrOffset<uint8_t>& pixels);
    // desktop_proxy_textures.cc: true when `target` is a proxy one (served by the front end)
    bool proxy_specify(gl::ProxyRequest r);
    bool proxy_level_parameter(GLenum target, GLint level, GLenum pname, GLint* value);
    // desktop_texture_targets.cc
    gl::Lowered lowered(GLenum target) const;  // none on ES contexts
    void copy_image(gen::Op op, GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX,
                    GLint srcY, GLint srcZ, GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX, GLint dstY,
                    GLint dstZ, GLsizei width, GLsizei height, GLsizei depth);
    // Runs `verb` with the texture of desktop target `k` bound on the host's target (its argument).
    void on_lowered(gl::Lowered k, const std::function<void(GLenum)>& verb);
    bool rect_parameter_refused(GLenum target, GLenum pname, double value);
    template <typename T>
    bool swizzle_rgba_set(GLenum target, GLenum pname, const wire::In<T>& params);
    template <typename T>
    bool swizzle_rgba_get(GLenum target, GLenum pname, wire::Out<T>& params);
    // desktop_texture_parameters.cc: GL_CLAMP (gl/state/legacy_wrap.h) and the
    // application's swizzle over a format swizzle; true when served there
    bool desktop_tex_parameter(GLenum target, GLenum pname, double value);
    template <typename T>
    void desktop_tex_parameter_answer(GLenum target, GLenum pname, wire::Out<T>& params);
    void host_tex_parameteri(GLenum target, GLenum pname, GLint value);
    bool app_swizzle_set(GLenum target, GLenum pname, double value);
    template <typename T>
    void app_swizzle_answer(GLenum target, GLenum pname, wire::Out<T>& params);
    bool legacy_wraps_apply(GLenum pname) const;
    uint32_t bound_texture_host_name(GLenum target);
    bool legacy_clamp_texture(GLenum target, GLenum pname, double value);
    template <typename T>
    void legacy_clamp_texture_answer(GLenum target, GLenum pname, wire::Out<T>& params);
    template <typename T>
    void get_tex_parameter(GLenum target, GLenum pname, wire::Out<T>& params,
                           const std::function<void(GLenum)>& host_query);
    bool legacy_clamp_sampler(GLuint sampler, GLenum pname, double value);
    void glSamplerParameteri(GLuint sampler, GLenum pname, GLint param) override;
    void glSamplerParameterf(GLuint sampler, GLenum pname, GLfloat param) override;
    void glSamplerParameteriv(GLuint sampler, GLenum pname, wire::In<GLint> param) override;
    void glSamplerParameterfv(GLuint sampler, GLenum pname, wire::In<GLfloat> param) override;
    void glGetSamplerParameteriv(GLuint sampler, GLenum pname, wire::Out<GLint> params) override;
    void glGetSamplerParameterfv(GLuint sampler, GLenum pname, wire::Out<GLfloat> params) override;
    void glDeleteSamplers(GLsizei count, wire::In<GLuint> samplers) override;
    // The 2D verbs and glGetTexImage on a lowered target: true when served here.
    bool lowered_tex_image_2d(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                              GLint border, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels);
    bool lowered_tex_storage_2d(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height);
    bool lowered_get_tex_image(GLenum target, GLint level, GLenum format, GLenum type,
                               wire::OutOrOffset<uint8_t> pixels);
    // desktop uploads converted to the host's formats (desktop_uploads.cc); the
    // glTexSubImage2D, glDeleteTextures and level-query overrides are
    // desktop_texture_targets.cc's, which call these for the host's targets.
    // desktop_get_tex_image.cc: a level of the default texture copied into a
    // texture that can be attached (RGBA32F or sRGB, host channels); 0 on failure
    GLuint stage_default_texture(GLint level, GLint width, GLint height);
    // desktop_depth_read.cc: depth and stencil values of the read framebuffer
    bool read_depth_stencil(GLint x, GLint y, GLsizei w, GLsizei h, bool stencil, std::vector<float>* depth,
                            std::vector<uint32_t>* stencil_out);
    void read_depth_stencil_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                                   wire::OutOrOffset<uint8_t> pixels);
    void converted_tex_sub_image_2d(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                                    GLsizei height, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels);
    void forget_texture_levels(GLsizei n, const wire::In<GLuint>& textures);
    void converted_level_parameteriv(GLenum target, GLint level, GLenum pname, wire::Out<GLint> params);
    void converted_level_parameterfv(GLenum target, GLint level, GLenum pname, wire::Out<GLfloat> params);
    void glTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset, GLsizei width,
                         GLsizei height, GLsizei depth, GLenum format, GLenum type,
                         wire::InOrOffset<uint8_t> pixels) override;
    // desktop_textures.cc
    // desktop_texture_targets.cc: GL_TEXTURE_1D, _1D_ARRAY, _RECTANGLE on the host's 2D targets
    void glBindTexture(GLenum target, GLuint texture) override;
    void glDeleteTextures(GLsizei n, wire::In<GLuint> textures) override;
    void glTexImage1D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLint border, GLenum format,
                      GLenum type, wire::InOrOffset<uint8_t> pixels) override;
    void glTexSubImage1D(GLenum target, GLint level, GLint xoffset, GLsizei width, GLenum format, GLenum type,
                         wire::InOrOffset<uint8_t> pixels) override;
    void glCopyTexImage1D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y, GLsizei width,
                          GLint border) override;
    void glCopyTexSubImage1D(GLenum target, GLint level, GLint xoffset, GLint x, GLint y, GLsizei width) override;
    void glTexStorage1D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width) override;
    void glTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width, GLsizei height,
                         GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) override;
    void glCopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y, GLsizei width,
                          GLsizei height, GLint border) override;
    void glCopyTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x, GLint y,
                             GLsizei width, GLsizei height) override;
    void glGenerateMipmap(GLenum target) override;
    void glTexParameteri(GLenum target, GLenum pname, GLint param) override;
    void glTexParameterf(GLenum target, GLenum pname, GLfloat param) override;
    void glTexParameteriv(GLenum target, GLenum pname, wire::In<GLint> params) override;
    void glTexParameterfv(GLenum target, GLenum pname, wire::In<GLfloat> params) override;
    void glTexParameterIiv(GLenum target, GLenum pname, wire::In<GLint> params) override;
    void glTexParameterIuiv(GLenum target, GLenum pname, wire::In<GLuint> params) override;
    void glGetTexParameteriv(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    void glGetTexParameterfv(GLenum target, GLenum pname, wire::Out<GLfloat> params) override;
    void glGetTexParameterIiv(GLenum target, GLenum pname, wire::Out<GLint> params) override;
    void glGetTexParameterIuiv(GLenum target, GLenum pname, wire::Out<GLuint> params) override;
    void glGetTexLevelParameteriv(GLenum target, GLint level, GLenum pname, wire::Out<GLint> params) override;
    void glGetTexLevelParameterfv(GLenum target, GLint level, GLenum pname, wire::Out<GLfloat> params) override;
    void glFramebufferTexture3D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture, GLint level,
                                GLint zoffset) override;
    void glFramebufferTexture1D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                GLint level) override;
    void glFramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                GLint level) override;
    void glTexImage2DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width, GLsizei height,
                                 GLboolean fixedsamplelocations) override;
    void glTexImage3DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width, GLsizei height,
                                 GLsizei depth, GLboolean fixedsamplelocations) override;

    // ---- desktop GL shaders: translated by the GL front end (desktop_shaders.cc) ----
    void glCreateShader(GLenum type, GLuint result) override;
    void glDeleteShader(GLuint shader) override;
    void glDeleteProgram(GLuint program) override;
    void glShaderSource(GLuint shader, GLsizei count, wire::Strings string) override;
    void glCompileShader(GLuint shader) override;
    void compile_desktop(GLuint host, DesktopShader& s, GLuint shader);
    void glCreateShaderProgramv(GLenum type, GLsizei count, wire::Strings strings, GLuint result) override;
    void glGetShaderiv(GLuint shader, GLenum pname, wire::Out<GLint> params) override;
    void glGetShaderInfoLog(GLuint shader, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> infoLog) override;
    void glGetShaderSource(GLuint shader, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> source) override;
    void glBindFragDataLocation(GLuint program, GLuint color, wire::In<GLchar> name) override;
    void glBindFragDataLocationIndexed(GLuint program, GLuint colorNumber, GLuint index, wire::In<GLchar> name) override;
    void glLinkProgram(GLuint program) override;
    // several shader objects per stage (desktop_link.cc)
    void glAttachShader(GLuint program, GLuint shader) override;
    void glDetachShader(GLuint program, GLuint shader) override;
    void glGetAttachedShaders(GLuint program, GLsizei maxCount, wire::Out<GLsizei> count, wire::Out<GLuint> shaders) override;
    void glGetProgramiv(GLuint program, GLenum pname, wire::Out<GLint> params) override;
    void glGetProgramInfoLog(GLuint program, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> infoLog) override;

    // ---- program queries without the driver uniforms (driver_uniforms.cc) ----
    void hide_driver_uniforms(GLuint program, GLenum pname, wire::Out<GLint>& params);  // in glGetProgramiv's answer
    void glGetProgramInterfaceiv(GLuint program, GLenum programInterface, GLenum pname, wire::Out<GLint> params) override;
    void glGetActiveUniform(GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                            wire::Out<GLint> size, wire::Out<GLenum> type, wire::Out<GLchar> name) override;
    void glGetActiveUniformsiv(GLuint program, GLsizei uniformCount, wire::In<GLuint> uniformIndices, GLenum pname,
                               wire::Out<GLint> params) override;
    void glGetUniformIndices(GLuint program, GLsizei uniformCount, wire::Strings uniformNames,
                             wire::Out<GLuint> uniformIndices) override;
    GLint glGetUniformLocation(GLuint program, wire::In<GLchar> name) override;
    void glGetActiveUniformBlockiv(GLuint program, GLuint uniformBlockIndex, GLenum pname, wire::Out<GLint> params) override;
    GLuint glGetProgramResourceIndex(GLuint program, GLenum programInterface, wire::In<GLchar> name) override;
    GLint glGetProgramResourceLocation(GLuint program, GLenum programInterface, wire::In<GLchar> name) override;
    void glGetProgramResourceName(GLuint program, GLenum programInterface, GLuint index, GLsizei bufSize,
                                  wire::Out<GLsizei> length, wire::Out<GLchar> name) override;
    void glGetProgramResourceiv(GLuint program, GLenum programInterface, GLuint index, GLsizei propCount,
                                wire::In<GLenum> props, GLsizei count, wire::Out<GLsizei> length,
                                wire::Out<GLint> params) override;

    // Test hook (test_hooks.h): what mglCreateContext will carry once the
    // schema has it.
    bool set_context_api(GLuint context, uint32_t api, uint32_t profile, int major, int minor);

private:
    // desktop_uploads.cc: one glTexImage*/glTexSubImage* of a desktop context;
    // true when carried out (or refused) here, false: the caller passes it on.
    struct Upload {
        gen::Op op;
        GLenum target;
        GLint level, internalformat, x, y, z;
        GLsizei w, h, d;
        GLint border;
        GLenum format, type;
        const wire::InOrOffset<uint8_t>* pixels;
        bool three_d, sub;
    };
    bool desktop_upload(const Upload& u);
    GLenum desktop_storage(GLenum target, GLenum internalformat, GLsizei levels);
    bool desktop_level_query(GLenum target, GLint level, GLenum pname, GLint* value);
    uint32_t bound_texture(GLenum binding);
    // Set while glGetTexImage reads a level whose device channels are not its
    // desktop components (desktop_read_pixels.cc converts them).
    const gl::HostFormat* read_remap_ = nullptr;
    void format_swizzle(GLenum texture_target, uint32_t texture, const gl::HostFormat* hf, uint32_t internalformat);
    void depth_format_swizzle(TextureLevels::Texture& t);
    // GL_DEPTH_TEXTURE_MODE of compatibility contexts (desktop_texture_parameters.cc).
    bool depth_mode_set(GLenum target, GLenum pname, double value);
    template <typename T>
    bool depth_mode_get(GLenum target, GLenum pname, wire::Out<T>& params);
    // desktop_textures.cc
    bool fresh_storage(gen::Op op, GLenum target, GLenum binding);
    // desktop_state.cc
    bool desktop_get(GLenum pname, double out[4], int* count);
    template <typename T>
    bool answer_desktop(GLenum pname, wire::Out<T> data);  // queries.cc
    // converted_arrays.cc
    void glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                               wire::InOrOffset<uint8_t> pointer) override;
    bool convert_arrays(const ProvokingDraw& d) override;
    void forget_converted_array(uint32_t vao, GLuint index);
    // restart_draw.cc
    bool draw_restart_rewritten(const ProvokingDraw& d) override;
    bool restart_fixed_ok(gen::Op verb, GLenum type) override;
    void host_fixed_restart(bool on);
    // provoking_draw.cc
    bool draw_provoking_first(const ProvokingDraw& d) override;
    // The draw's indices widened to 32 bits (client bytes, or read back from
    // the bound element buffer); false when they cannot be read.
    bool read_draw_indices(const ProvokingDraw& d, std::vector<uint32_t>& out);
    // Draws `n` 32-bit indices through the share group's own element buffer,
    // putting back the application's binding.
    void draw_index_list(GLenum mode, const std::vector<uint32_t>& list, GLsizei instances, GLint basevertex,
                         GLuint baseinstance);
    void provoking_not_rewritten(gen::Op verb, GLenum mode) override;
    void provoking_said(uint8_t kind, gen::Op verb, GLenum mode, const char* why);
    bool provoking_stages_after_vertex();
    std::vector<uint32_t> provoking_in_, provoking_out_;
    // driver_uniforms.cc
    void set_driver_uniforms() override;
    void set_driver_uniforms_of(DesktopShaders& d, GLuint program, bool current, bool height, bool clip);
    void forget_entry(DesktopShaders& d, GLuint host_program);  // one program's driver uniforms
    GLint draw_framebuffer_height();
    void record_driver_uniforms(GLuint host_program);  // after every desktop link
    void forget_driver_uniforms(GLuint host_program);  // after glDeleteProgram
    const DriverUniforms* driver_uniforms_of(GLuint program, GLuint* host = nullptr);  // null: none hidden
    GLint visible_uniform_max_length(GLuint host_program, GLenum query);
    // desktop_shaders.cc
    GLuint missing_stage_for(GLuint host_program);  // attached for a link; 0 when not needed
    void link_desktop(GLuint program, GLuint host_program);
    DesktopShaders& desktop_shaders();
    DesktopShader* desktop_shader(gen::Op verb, GLuint shader, GLuint& host);  // null (and a GL error) when unknown
    // session.cc
    bool bind(Context* c, Surface* draw, Surface* read);  // eglMakeCurrent + our current state
    void prepare(Context& c);                             // first make-current: availability, extensions
    void destroy_context(Context& c);
    void destroy_surface(Surface& s);
    void session_error(const char* verb, const std::string& what);
    // surfaces.cc
    // Reads RGBA8 of a surface through the backend's own context, leaving
    // the client's context and bindings untouched.
    bool read_surface_pixels(Surface& s, int x, int y, int w, int h, uint8_t* out);
    bool internal_current(Surface& s);  // binds the internal context to s
    void restore_current();             // back to the client's binding
    // host eglMakeCurrent, remembering which session bound the thread last.
    bool make_current(EGLSurface draw, EGLSurface read, EGLContext context);

    // storage.cc: charges `bytes` for part `part` of the object bound at
    // `binding` (0: an invalid target, nothing charged); false: over budget.
    bool charge(gen::Op verb, Kind k, GLenum binding, uint32_t part, uint64_t bytes);

    // queries.cc: the host name of a labelled object.
    bool label_name(gen::Op verb, GLenum identifier, GLuint name, GLuint& host);

    // egl_images.cc: the session's host EGLImages by client id.
    void* host_image(gen::Op verb, GLeglImageOES image);  // null (and a GL error) when unknown
    void destroy_images();

    const HostDisplay& host_;
    std::unordered_map<GLuint, void*> images_;
    std::map<GLuint, std::unique_ptr<Context>> contexts_;
    std::map<GLuint, std::unique_ptr<Surface>> surfaces_;
    // Destroyed by the client while bound: kept until unbound (as EGL does).
    std::vector<std::unique_ptr<Context>> doomed_contexts_;
    std::vector<std::unique_ptr<Surface>> doomed_surfaces_;
    Surface* draw_ = nullptr;
    Surface* read_ = nullptr;
    EGLContext internal_ = EGL_NO_CONTEXT;  // for surface readback
    bool pbuffer_swap_failed_ = false;       // logged once
    bool peer_in_process_ = false;           // the client shares our address space (host_maps.cc)
    PresentFn present_;
    std::vector<uint8_t> frame_;             // swap readback scratch
};

}  // namespace mgl::espryt
