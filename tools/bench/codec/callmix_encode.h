// One parsed call of a call mix through the generated encoder: what a
// generated client entry point does after its own argument handling.
#pragma once

#include "callmix.h"
#include "gen/encoder.h"

namespace mgl::bench {

// Inside namespace mgl: GLenum and friends are the wire typedefs.

inline void encode_call(gen::Encoder& e, const Call& c, uint64_t frame = 0) {
    const int32_t* i = c.i;
    const float* f = c.f;
    const wire::Blob blob{c.data, c.data_size};
    const wire::OffsetOrBlob ptr = c.data_is_offset ? wire::OffsetOrBlob{c.offset, nullptr, 0}
                                                    : wire::OffsetOrBlob{0, c.data, c.data_size};
    switch (c.verb) {
        case 0: e.glDrawElements(GLenum(i[0]), GLsizei(i[1]), GLenum(i[2]), ptr); break;
        case 1: e.glBindVertexArray(GLuint(i[0])); break;
        case 2: e.glUniform3f(GLint(i[0]), GLfloat(f[0]), GLfloat(f[1]), GLfloat(f[2])); break;
        case 3: e.glVertexAttribPointer(GLuint(i[0]), GLint(i[1]), GLenum(i[2]), GLboolean(i[3]), GLsizei(i[4]), ptr); break;
        case 4: e.glUniformMatrix4fv(GLint(i[0]), GLsizei(i[1]), GLboolean(i[2]), blob); break;
        case 5: e.glEnableVertexAttribArray(GLuint(i[0])); break;
        case 6: e.glDrawArrays(GLenum(i[0]), GLint(i[1]), GLsizei(i[2])); break;
        case 7: e.glDisableVertexAttribArray(GLuint(i[0])); break;
        case 8: e.glBindBuffer(GLenum(i[0]), GLuint(i[1])); break;
        case 9: e.glBindTexture(GLenum(i[0]), GLuint(i[1])); break;
        case 10: e.glUseProgram(GLuint(i[0])); break;
        case 11: e.glActiveTexture(GLenum(i[0])); break;
        case 12: e.glViewport(GLint(i[0]), GLint(i[1]), GLsizei(i[2]), GLsizei(i[3])); break;
        case 13: e.glBindFramebuffer(GLenum(i[0]), GLuint(i[1])); break;
        case 14: e.glBufferSubData(GLenum(i[0]), GLintptr(c.offset), GLsizeiptr(c.data_size), blob); break;
        case 15: e.glClear(GLbitfield(i[0])); break;
        case 16: e.glClearColor(GLfloat(f[0]), GLfloat(f[1]), GLfloat(f[2]), GLfloat(f[3])); break;
        case 17: e.mglSwapBuffers(1, frame); break;
        case 18: e.glClearDepthf(GLfloat(f[0])); break;
        case 19: e.glDisable(GLenum(i[0])); break;
        case 20: e.glEnable(GLenum(i[0])); break;
        case 21: e.glBlendFuncSeparate(GLenum(i[0]), GLenum(i[1]), GLenum(i[2]), GLenum(i[3])); break;
        case 22: e.glUniform4fv(GLint(i[0]), GLsizei(i[1]), blob); break;
        case 23: e.glUniform3fv(GLint(i[0]), GLsizei(i[1]), blob); break;
        case 24: e.glUniformMatrix3fv(GLint(i[0]), GLsizei(i[1]), GLboolean(i[2]), blob); break;
        case 25: e.glUniform1f(GLint(i[0]), GLfloat(f[0])); break;
        case 26: e.glUniform1i(GLint(i[0]), GLint(i[1])); break;
        case 27: e.glBlendFunc(GLenum(i[0]), GLenum(i[1])); break;
        case 28: e.glColorMask(GLboolean(i[0]), GLboolean(i[1]), GLboolean(i[2]), GLboolean(i[3])); break;
        case 29: e.glDepthMask(GLboolean(i[0])); break;
        case 30: e.glUniform2fv(GLint(i[0]), GLsizei(i[1]), blob); break;
        case 31: e.glTexParameteri(GLenum(i[0]), GLenum(i[1]), GLint(i[2])); break;
        case 32: e.glCullFace(GLenum(i[0])); break;
        case 33: e.glDepthFunc(GLenum(i[0])); break;
        case 34: e.glScissor(GLint(i[0]), GLint(i[1]), GLsizei(i[2]), GLsizei(i[3])); break;
        case 35: e.glFramebufferTexture2D(GLenum(i[0]), GLenum(i[1]), GLenum(i[2]), GLuint(i[3]), GLint(i[4])); break;
        case 36: e.glGenerateMipmap(GLenum(i[0])); break;
    }
}

}  // namespace mgl::bench
