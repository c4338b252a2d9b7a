// glClear with an integer clear colour (EXT_texture_integer's
// glClearColorIiEXT/IuiEXT) on a GLES host, which clears integer colour
// buffers with glClearBuffer{i,ui}v only: each draw buffer is cleared with
// the verb its format takes, the other buffers with one glClear.
#include <GLES3/gl32.h>

#include <cstring>

#include "backend.h"

namespace mgl::espryt {

using ClearKind = gl::DesktopState::ClearKind;

void EsprytBackend::glClearColorIiEXT(GLint r, GLint g, GLint b, GLint a) {
    if (!cur_ || !cur_->desktop()) return unavailable(gen::Op::glClearColorIiEXT);
    gl::DesktopState& d = cur_->dstate;
    d.clear_kind = ClearKind::signed_int;
    const GLint v[4] = {r, g, b, a};
    for (int i = 0; i < 4; ++i) d.clear_int[i] = uint32_t(v[i]);
}

void EsprytBackend::glClearColorIuiEXT(GLuint r, GLuint g, GLuint b, GLuint a) {
    if (!cur_ || !cur_->desktop()) return unavailable(gen::Op::glClearColorIuiEXT);
    gl::DesktopState& d = cur_->dstate;
    d.clear_kind = ClearKind::unsigned_int;
    const GLuint v[4] = {r, g, b, a};
    for (int i = 0; i < 4; ++i) d.clear_int[i] = v[i];
}

void EsprytBackend::glClearColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
    if (cur_) cur_->dstate.clear_kind = ClearKind::floating;
    EsprytGenerated::glClearColor(r, g, b, a);
}

void EsprytBackend::glClear(GLbitfield mask) {
    constexpr GLbitfield kBuffers = GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT;
    if (!cur_ || cur_->dstate.clear_kind == ClearKind::floating || !(mask & GL_COLOR_BUFFER_BIT) || (mask & ~kBuffers))
        return EsprytGenerated::glClear(mask);
    const gl::DesktopState& d = cur_->dstate;
    GLint fbo = 0, max_buffers = 1;
    host_gl.glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    host_gl.glGetIntegerv(GL_MAX_DRAW_BUFFERS, &max_buffers);
    for (GLint i = 0; i < max_buffers; ++i) {
        GLint buffer = GL_NONE;
        host_gl.glGetIntegerv(GL_DRAW_BUFFER0 + i, &buffer);
        if (buffer == GL_NONE) continue;
        GLint type = GL_UNSIGNED_NORMALIZED;
        if (fbo != 0)
            host_gl.glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GLenum(buffer),
                                                          GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &type);
        const ClearKind kind = type == GL_INT            ? ClearKind::signed_int
                               : type == GL_UNSIGNED_INT ? ClearKind::unsigned_int
                                                         : ClearKind::floating;
        const float unused[4] = {};  // the colour is an integer one here
        uint32_t words[4];
        d.clear_words(kind, unused, words);
        if (kind == ClearKind::signed_int) {
            GLint v[4];
            std::memcpy(v, words, sizeof v);
            host_gl.glClearBufferiv(GL_COLOR, i, v);
        } else if (kind == ClearKind::unsigned_int) {
            host_gl.glClearBufferuiv(GL_COLOR, i, words);
        } else {
            GLfloat v[4];
            std::memcpy(v, words, sizeof v);
            host_gl.glClearBufferfv(GL_COLOR, i, v);
        }
    }
    if (mask & ~GLbitfield(GL_COLOR_BUFFER_BIT)) EsprytGenerated::glClear(mask & ~GLbitfield(GL_COLOR_BUFFER_BIT));
}

}  // namespace mgl::espryt
