// Desktop-only verbs that GLES 3 carries under another name or shape, mapped
// onto the host's GLES verbs. (gl.xml aliases such as glGenFramebuffersEXT
// never get here: the client encodes the canonical verb.) Each mapping is
// exact for what a desktop context on a single-buffered host surface can
// mean; anything else is the GL error a native driver gives.
#include <GLES3/gl32.h>

#include "backend.h"
#include "context/desktop_context.h"
#include "desktop_verbs.h"

#include <algorithm>
#include <vector>

namespace mgl::espryt {

using gl::default_color_buffer;
using gl::is_stereo_right;

// EXT_framebuffer_object's binds differ from the core ones only in accepting
// names that glGen* never returned, which the generated bind already does
// (bind_to_host creates the object, as GLES 2 allows).
void EsprytBackend::glBindFramebufferEXT(GLenum target, GLuint framebuffer) { glBindFramebuffer(target, framebuffer); }
void EsprytBackend::glBindRenderbufferEXT(GLenum target, GLuint renderbuffer) {
    glBindRenderbuffer(target, renderbuffer);
}

// EXT_transform_feedback's glBindBufferOffsetEXT binds the buffer from
// `offset` to its end: GLES 3's glBindBufferRange with the size the buffer
// has now (a buffer respecified later keeps the range bound here).
void EsprytBackend::glBindBufferOffsetEXT(GLenum target, GLuint index, GLuint buffer, GLintptr offset) {
    constexpr gen::Op op = gen::Op::glBindBufferOffsetEXT;
    if (!cur_) return unavailable(op);
    if (target != GL_TRANSFORM_FEEDBACK_BUFFER) return set_error(GL_INVALID_ENUM);
    if (offset < 0 || offset % 4) return set_error(GL_INVALID_VALUE);
    GLuint h = 0;
    if (!bind_to_host(Kind::buffer, buffer, h)) return name_error(op, Kind::buffer, buffer);
    GLint64 size = 0;
    if (h) {
        GLint had = 0;
        host_gl.glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &had);
        host_gl.glBindBuffer(GL_COPY_READ_BUFFER, h);
        host_gl.glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
        host_gl.glBindBuffer(GL_COPY_READ_BUFFER, GLuint(had));
    }
    // Nothing past the offset: GL_INVALID_VALUE, as the host says for a range of size 0.
    EsprytGenerated::glBindBufferRange(target, index, buffer, offset, GLsizeiptr(size - offset));
}

// glDrawBuffer(b) is glDrawBuffers with one entry on the default framebuffer,
// and on a framebuffer object the array that sends output 0 to attachment i.
void EsprytBackend::glDrawBuffer(GLenum buf) {
    if (!cur_) return unavailable(gen::Op::glDrawBuffer);
    GLint fb = 0;
    host_gl.glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fb);
    if (fb == 0) {
        if (buf == GL_NONE) {
            host_gl.glDrawBuffers(1, &buf);
        } else if (const GLenum b = default_color_buffer(buf)) {
            host_gl.glDrawBuffers(1, &b);
        } else {
            // Stereo buffers do not exist here; attachments are not the default framebuffer's.
            set_error(is_stereo_right(buf) || (buf >= GL_COLOR_ATTACHMENT0 && buf <= GL_COLOR_ATTACHMENT31)
                          ? GL_INVALID_OPERATION
                          : GL_INVALID_ENUM);
        }
        return;
    }
    if (buf == GL_NONE) {
        host_gl.glDrawBuffers(1, &buf);
    } else if (buf >= GL_COLOR_ATTACHMENT0 && buf <= GL_COLOR_ATTACHMENT31) {
        GLenum bufs[32];
        const GLsizei n = GLsizei(buf - GL_COLOR_ATTACHMENT0) + 1;
        for (GLsizei i = 0; i + 1 < n; ++i) bufs[i] = GL_NONE;
        bufs[n - 1] = buf;
        host_gl.glDrawBuffers(n, bufs);  // the host checks n against GL_MAX_DRAW_BUFFERS
    } else {
        set_error(default_color_buffer(buf) || is_stereo_right(buf) ? GL_INVALID_OPERATION : GL_INVALID_ENUM);
    }
}

// glReadBuffer is GLES 3.0's too; a desktop context may also name the front
// or left buffers of the default framebuffer, which are the host's GL_BACK.
void EsprytBackend::glReadBuffer(GLenum src) {
    if (cur_ && cur_->desktop() && src != GL_NONE) {
        GLint fb = 0;
        host_gl.glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fb);
        if (fb == 0) {
            if (const GLenum b = default_color_buffer(src); b && src != GL_FRONT_AND_BACK) src = b;
        }
    }
    EsprytGenerated::glReadBuffer(src);
}

// GL_ARB_viewport_array's doubles: the host's GLES has float ranges only
// (GL_OES_viewport_array), as GLES's glDepthRangef; GL clamps them to [0, 1]
// either way, so the float carries every value GL keeps.
void EsprytBackend::glDepthRangeArrayv(GLuint first, GLsizei count, wire::In<GLdouble> v) {
    std::vector<GLfloat> f(v.count());
    for (size_t i = 0; i < f.size(); ++i) f[i] = GLfloat(v.data[i]);
    glDepthRangeArrayfvOES(first, count, wire::In<GLfloat>{f.data(), uint32_t(f.size() * sizeof(GLfloat))});
}

void EsprytBackend::glDepthRangeIndexed(GLuint index, GLdouble n, GLdouble f) {
    glDepthRangeIndexedfOES(index, GLfloat(n), GLfloat(f));
}

void EsprytBackend::glGetDoublei_v(GLenum target, GLuint index, wire::Out<GLdouble> data) {
    GLfloat f[4] = {};
    glGetFloati_v(target, index, wire::Out<GLfloat>{f, uint32_t(std::min<size_t>(data.count(), 4) * sizeof(GLfloat))});
    for (size_t i = 0; i < data.count() && i < 4; ++i) data.data[i] = GLdouble(f[i]);
}

}  // namespace mgl::espryt
