// Desktop-only verbs that Magma's ES objects already carry under another
// name or shape. (gl.xml aliases such as glGenFramebuffersEXT never get
// here: the client encodes the canonical verb; glMapBuffer, glClearDepth and
// glDepthRange are the client's too.) The GL rules they follow are shared
// with Espryt (backends/gl/context/desktop_context.h).
#include <GLES3/gl32.h>

#include "backend.h"
#include "context/desktop_context.h"

namespace mgl::magma {

// EXT_framebuffer_object's binds differ from the core ones in accepting names
// that glGen* never returned, which Magma's binds already do (GLES 2 rules).
void MagmaBackend::glBindFramebufferEXT(GLenum target, GLuint framebuffer) { glBindFramebuffer(target, framebuffer); }
void MagmaBackend::glBindRenderbufferEXT(GLenum target, GLuint renderbuffer) { glBindRenderbuffer(target, renderbuffer); }

// glDrawBuffer(b): glDrawBuffers of one entry on the default framebuffer (its
// front/back/left names are the surface's one buffer), and on a framebuffer
// object the array that sends output 0 to attachment i.
void MagmaBackend::glDrawBuffer(GLenum buf) {
    if (!need_context(gen::Op::glDrawBuffer)) return;
    GLenum bufs[kMaxColorAttachments] = {};
    GLsizei n = 1;
    if (!cur_->draw_fb) {
        if (buf != GL_NONE) {
            bufs[0] = gl::default_color_buffer(buf);
            if (!bufs[0])
                return refuse(gen::Op::glDrawBuffer,
                              gl::is_stereo_right(buf) || gl::is_color_attachment(buf) ? GL_INVALID_OPERATION : GL_INVALID_ENUM,
                              "not a buffer of the default framebuffer");
        }
    } else if (gl::is_color_attachment(buf)) {
        n = GLsizei(buf - GL_COLOR_ATTACHMENT0) + 1;
        if (n > max_draw_buffers()) return refuse(gen::Op::glDrawBuffer, GL_INVALID_OPERATION, "attachment >= GL_MAX_DRAW_BUFFERS");
        bufs[n - 1] = buf;
    } else if (buf != GL_NONE) {
        return refuse(gen::Op::glDrawBuffer,
                      gl::default_color_buffer(buf) || gl::is_stereo_right(buf) ? GL_INVALID_OPERATION : GL_INVALID_ENUM,
                      "a default framebuffer buffer for a framebuffer object");
    }
    glDrawBuffers(n, wire::In<GLenum>{bufs, uint32_t(sizeof(GLenum) * size_t(n))});
}

// EXT_texture_integer's integer clear colour, kept in the front end's
// DesktopState until the next glClearColor; glClear writes it (clears.cc).
void MagmaBackend::glClearColorIiEXT(GLint r, GLint g, GLint b, GLint a) {
    if (!need_context(gen::Op::glClearColorIiEXT)) return;
    gl::DesktopState& d = cur_->dstate;
    d.clear_kind = gl::DesktopState::ClearKind::signed_int;
    const GLint v[4] = {r, g, b, a};
    for (int i = 0; i < 4; ++i) d.clear_int[i] = uint32_t(v[i]);
}

void MagmaBackend::glClearColorIuiEXT(GLuint r, GLuint g, GLuint b, GLuint a) {
    if (!need_context(gen::Op::glClearColorIuiEXT)) return;
    gl::DesktopState& d = cur_->dstate;
    d.clear_kind = gl::DesktopState::ClearKind::unsigned_int;
    const GLuint v[4] = {r, g, b, a};
    for (int i = 0; i < 4; ++i) d.clear_int[i] = v[i];
}

// The integer forms of the texture parameters: Magma keeps no integer
// border colour, so every parameter they can name is a single value the
// plain forms take (the border colour is refused there, loudly).
void MagmaBackend::glTexParameterIiv(GLenum target, GLenum pname, wire::In<GLint> params) {
    glTexParameteriv(target, pname, params);
}

void MagmaBackend::glTexParameterIuiv(GLenum target, GLenum pname, wire::In<GLuint> params) {
    if (!params.count()) return;
    // Enums and levels fit an int; a larger value is out of every range anyway.
    glTexParameterf(target, pname, float(params.data[0]));
}

void MagmaBackend::glGetTexParameterIiv(GLenum target, GLenum pname, wire::Out<GLint> params) {
    glGetTexParameteriv(target, pname, params);
}

void MagmaBackend::glGetTexParameterIuiv(GLenum target, GLenum pname, wire::Out<GLuint> params) {
    GLint v[4] = {};
    if (!params.count()) return;
    glGetTexParameteriv(target, pname, wire::Out<GLint>{v, sizeof v});
    params.data[0] = GLuint(v[0]);
}

}  // namespace mgl::magma
