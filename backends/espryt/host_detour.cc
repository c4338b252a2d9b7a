#include "host_detour.h"

#include "gen/espryt_host.h"

namespace mgl::espryt::detour {

namespace {
constexpr GLenum kPack[4] = {GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS, GL_PACK_SKIP_ROWS};

GLuint compile(GLenum type, const char* src) {
    const GLuint s = host_gl.glCreateShader(type);
    host_gl.glShaderSource(s, 1, &src, nullptr);
    host_gl.glCompileShader(s);
    return s;
}

void enable(GLenum cap, GLboolean on) { on ? host_gl.glEnable(cap) : host_gl.glDisable(cap); }
}  // namespace

const char* const kVertex = "#version 310 es\n"
                            "void main() {\n"
                            "    vec2 p = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 4.0 - 1.0;\n"
                            "    gl_Position = vec4(p, 0.0, 1.0);\n"
                            "}\n";

GLuint link(const char* fragment) {
    const GLuint vs = compile(GL_VERTEX_SHADER, kVertex), fs = compile(GL_FRAGMENT_SHADER, fragment);
    const GLuint p = host_gl.glCreateProgram();
    host_gl.glAttachShader(p, vs);
    host_gl.glAttachShader(p, fs);
    host_gl.glLinkProgram(p);
    host_gl.glDeleteShader(vs);
    host_gl.glDeleteShader(fs);
    GLint ok = GL_FALSE;
    host_gl.glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (ok) return p;
    host_gl.glDeleteProgram(p);
    return 0;
}

void SavedState::save() {
    host_gl.glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    host_gl.glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    host_gl.glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    host_gl.glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    host_gl.glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    host_gl.glActiveTexture(GL_TEXTURE0);
    host_gl.glGetIntegerv(GL_TEXTURE_BINDING_2D, &tex2d);
    host_gl.glGetIntegerv(GL_SAMPLER_BINDING, &sampler);
    host_gl.glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
    host_gl.glGetIntegerv(GL_VIEWPORT, viewport);
    for (int i = 0; i < 4; ++i) host_gl.glGetIntegerv(kPack[i], &pack[i]);
    host_gl.glGetBooleani_v(GL_COLOR_WRITEMASK, 0, mask);
    scissor = host_gl.glIsEnabled(GL_SCISSOR_TEST);
    blend = host_gl.glIsEnabledi(GL_BLEND, 0);
    cull = host_gl.glIsEnabled(GL_CULL_FACE);
    discard = host_gl.glIsEnabled(GL_RASTERIZER_DISCARD);
}

void SavedState::neutral() {
    host_gl.glBindSampler(0, 0);
    host_gl.glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    host_gl.glPixelStorei(GL_PACK_ALIGNMENT, 4);
    for (int i = 1; i < 4; ++i) host_gl.glPixelStorei(kPack[i], 0);
    host_gl.glColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    host_gl.glDisable(GL_SCISSOR_TEST);
    host_gl.glDisablei(GL_BLEND, 0);
    host_gl.glDisable(GL_CULL_FACE);
    host_gl.glDisable(GL_RASTERIZER_DISCARD);
}

void SavedState::restore() {
    host_gl.glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(read_fb));
    host_gl.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(draw_fb));
    host_gl.glUseProgram(GLuint(program));
    host_gl.glBindVertexArray(GLuint(vao));
    host_gl.glBindTexture(GL_TEXTURE_2D, GLuint(tex2d));
    host_gl.glBindSampler(0, GLuint(sampler));
    host_gl.glActiveTexture(GLenum(active));
    host_gl.glBindBuffer(GL_PIXEL_PACK_BUFFER, GLuint(pack_buffer));
    host_gl.glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    for (int i = 0; i < 4; ++i) host_gl.glPixelStorei(kPack[i], pack[i]);
    host_gl.glColorMaski(0, mask[0], mask[1], mask[2], mask[3]);
    enable(GL_SCISSOR_TEST, scissor);
    blend ? host_gl.glEnablei(GL_BLEND, 0) : host_gl.glDisablei(GL_BLEND, 0);
    enable(GL_CULL_FACE, cull);
    enable(GL_RASTERIZER_DISCARD, discard);
}

}  // namespace mgl::espryt::detour
