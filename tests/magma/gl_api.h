// The GL calls the Magma tests make, twice: natively on the host GLES
// (NativeGl) and encoded through the wire into Magma (WireGl). Scenes are
// written once against GlApi and rendered by both.
#pragma once

#include <array>

#include "harness.h"

namespace magma_test {

struct GlApi {
    virtual ~GlApi() = default;
    virtual GLuint shader(GLenum type, const char* src) = 0;
    virtual GLuint program(GLuint vs, GLuint fs, const char* bind0 = nullptr) = 0;  // bind0: attribute at index 0
    virtual GLuint gen_buffer() = 0;
    virtual void bind_buffer(GLenum t, GLuint b) = 0;
    virtual void buffer_data(GLenum t, const void* d, size_t n) = 0;
    virtual void buffer_sub_data(GLenum t, size_t off, const void* d, size_t n) = 0;
    virtual GLuint gen_texture() = 0;
    virtual void bind_texture(GLenum t, GLuint tex) = 0;
    virtual void active_texture(GLenum unit) = 0;
    virtual void tex_image(GLenum target, GLint level, GLint ifmt, int w, int h, GLenum fmt, GLenum type, const void* px,
                           size_t bytes) = 0;
    virtual void tex_parameter(GLenum target, GLenum p, GLint v) = 0;
    virtual void generate_mipmap(GLenum target) = 0;
    virtual void pixel_store(GLenum p, GLint v) = 0;
    virtual void use(GLuint p) = 0;
    virtual GLint uniform_location(GLuint p, const char* n) = 0;
    virtual GLint attrib_location(GLuint p, const char* n) = 0;
    virtual void uniform4f(GLint l, float a, float b, float c, float d) = 0;
    virtual void uniform1i(GLint l, GLint v) = 0;
    virtual void uniform1f(GLint l, float v) = 0;
    virtual void uniform2f(GLint l, float a, float b) = 0;
    virtual void uniform_matrix4(GLint l, const float* m) = 0;
    virtual void attrib(GLuint i, GLint size, GLenum type, bool norm, GLsizei stride, size_t offset) = 0;
    virtual void enable_attrib(GLuint i) = 0;
    virtual void vertex_attrib4f(GLuint i, float a, float b, float c, float d) = 0;
    virtual void draw_arrays(GLenum mode, int first, int n) = 0;
    virtual void draw_elements(GLenum mode, int n, GLenum type, size_t offset) = 0;                        // element buffer
    virtual void draw_elements_client(GLenum mode, int n, GLenum type, const void* idx, size_t bytes) = 0;  // client memory
    virtual void viewport(int x, int y, int w, int h) = 0;
    virtual void scissor(int x, int y, int w, int h) = 0;
    virtual void clear_color(float r, float g, float b, float a) = 0;
    virtual void clear_depth(float d) = 0;
    virtual void clear(GLbitfield m) = 0;
    virtual void enable(GLenum cap) = 0;
    virtual void disable(GLenum cap) = 0;
    virtual void blend_func(GLenum s, GLenum d) = 0;
    virtual void depth_func(GLenum f) = 0;
    virtual void cull_face(GLenum f) = 0;
    virtual void front_face(GLenum f) = 0;
    virtual void stencil_func(GLenum f, GLint ref, GLuint mask) = 0;
    virtual void stencil_op(GLenum fail, GLenum zfail, GLenum zpass) = 0;
    virtual void color_mask(bool r, bool g, bool b, bool a) = 0;
    virtual GLuint gen_framebuffer() = 0;
    virtual void bind_framebuffer(GLuint fb) = 0;
    virtual void framebuffer_texture(GLenum att, GLuint tex, int level) = 0;
    virtual GLuint gen_renderbuffer() = 0;
    virtual void renderbuffer_storage(GLuint rb, GLenum fmt, int w, int h) = 0;
    virtual void framebuffer_renderbuffer(GLenum att, GLuint rb) = 0;
    virtual GLenum check_framebuffer() = 0;
    virtual void bind_read_framebuffer(GLuint fb) = 0;
    virtual void copy_tex_image(GLenum ifmt, int x, int y, int w, int h) = 0;
    virtual void copy_tex_sub_image(int xo, int yo, int x, int y, int w, int h) = 0;
    virtual void blit(int sx0, int sy0, int sx1, int sy1, int dx0, int dy0, int dx1, int dy1, GLenum filter) = 0;
    virtual void sample_coverage(float value, bool invert) = 0;
    virtual std::vector<uint8_t> read(int x, int y, int w, int h) = 0;
    virtual void flush() = 0;
    virtual GLenum error() = 0;
    // Queries.
    virtual GLuint gen_query() = 0;
    virtual void begin_query(GLenum target, GLuint q) = 0;
    virtual void end_query(GLenum target) = 0;
    virtual GLuint query_object(GLuint q, GLenum pname) = 0;
    virtual GLint current_query(GLenum target) = 0;
    virtual bool is_query(GLuint q) = 0;
    // Draw/read buffers, integer attributes and reads, compressed textures.
    virtual void draw_buffers(std::vector<GLenum> bufs) = 0;
    virtual void read_buffer(GLenum src) = 0;
    virtual void attrib_i(GLuint i, GLint size, GLenum type, GLsizei stride, size_t offset) = 0;
    virtual void vertex_attrib_i4i(GLuint i, GLint a, GLint b, GLint c, GLint d) = 0;
    virtual void vertex_attrib_i4ui(GLuint i, GLuint a, GLuint b, GLuint c, GLuint d) = 0;
    virtual void divisor(GLuint i, GLuint d) = 0;
    virtual void draw_arrays_instanced(GLenum mode, int first, int n, int instances) = 0;
    // glReadPixels with any format/type into `bytes` bytes.
    virtual std::vector<uint8_t> read_as(int x, int y, int w, int h, GLenum fmt, GLenum type, size_t bytes) = 0;
    virtual void compressed_tex_image(GLenum target, GLint level, GLenum ifmt, int w, int h, const void* data, size_t bytes) = 0;
    virtual void compressed_tex_sub_image(GLenum target, GLint level, int x, int y, int w, int h, GLenum fmt,
                                          const void* data, size_t bytes) = 0;
    virtual GLint get_integer(GLenum pname) = 0;
    virtual void clear_buffer_iv(GLenum buffer, GLint i, std::array<GLint, 4> v) = 0;
    virtual void clear_buffer_uiv(GLenum buffer, GLint i, std::array<GLuint, 4> v) = 0;
    virtual void clear_buffer_fv(GLenum buffer, GLint i, std::array<GLfloat, 4> v) = 0;
    // glGetVertexAttrib{fv ('f'), iv ('i'), Iiv ('I')}: up to 4 values as raw 32-bit words.
    virtual std::array<uint32_t, 4> vertex_attrib(GLuint i, GLenum pname, char kind) = 0;
    // Multisampling: glRenderbufferStorageMultisample, glGetInternalformativ (GL_RENDERBUFFER), glGetRenderbufferParameteriv.
    virtual void renderbuffer_storage_ms(GLuint rb, int samples, GLenum fmt, int w, int h) = 0;
    virtual std::vector<GLint> internalformat(GLenum fmt, GLenum pname, int n) = 0;
    virtual GLint renderbuffer_param(GLenum pname) = 0;
    // glGetUniform{fv ('f'), iv ('i'), uiv ('u')}: 16 raw 32-bit words (a mat4 at most), the rest 0xCDCDCDCD.
    virtual std::array<uint32_t, 16> get_uniform(GLuint p, GLint loc, char kind) = 0;
    // Transform feedback: a program linked with glTransformFeedbackVaryings
    // (0 when it does not link), objects, indexed bindings (size 0:
    // glBindBufferBase), Begin ('b', with mode) / End ('e') / Pause ('p') /
    // Resume ('r'), glGetTransformFeedbackVarying, a buffer's bytes.
    virtual GLuint program_xfb(GLuint vs, GLuint fs, const char* bind0, std::vector<const char*> varyings, GLenum mode) = 0;
    virtual GLuint gen_xfb() = 0;
    virtual void bind_xfb(GLuint x) = 0;
    virtual void bind_buffer_range(GLenum t, GLuint index, GLuint b, size_t off, size_t size) = 0;
    virtual void xfb(char op, GLenum mode = 0) = 0;
    virtual std::string xfb_varying(GLuint p, GLuint i, GLint& size, GLenum& type) = 0;
    virtual std::vector<uint8_t> buffer_bytes(GLenum t, size_t off, size_t n) = 0;

    // One triangle that covers the viewport, fed to attribute `index` from a
    // new array buffer (left bound); returns the buffer.
    GLuint fullscreen_triangle(GLuint index = 0) {
        static const float tri[] = {-1, -1, 3, -1, -1, 3};
        const GLuint b = gen_buffer();
        bind_buffer(GL_ARRAY_BUFFER, b);
        buffer_data(GL_ARRAY_BUFFER, tri, sizeof tri);
        attrib(index, 2, GL_FLOAT, false, 0, 0);
        enable_attrib(index);
        return b;
    }
};

struct NativeGl final : GlApi {
    GLuint shader(GLenum type, const char* src) override {
        GLuint s = glCreateShader(type);
        glShaderSource(s, 1, &src, nullptr);
        glCompileShader(s);
        GLint ok = 0;
        glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
        return ok ? s : 0;
    }
    GLuint program(GLuint vs, GLuint fs, const char* bind0) override {
        GLuint p = glCreateProgram();
        glAttachShader(p, vs);
        glAttachShader(p, fs);
        if (bind0) glBindAttribLocation(p, 0, bind0);
        glLinkProgram(p);
        GLint ok = 0;
        glGetProgramiv(p, GL_LINK_STATUS, &ok);
        return ok ? p : 0;
    }
    void flush() override { glFlush(); }
    GLuint gen_buffer() override { GLuint b; glGenBuffers(1, &b); return b; }
    void bind_buffer(GLenum t, GLuint b) override { glBindBuffer(t, b); }
    void buffer_data(GLenum t, const void* d, size_t n) override { glBufferData(t, GLsizeiptr(n), d, GL_STATIC_DRAW); }
    void buffer_sub_data(GLenum t, size_t off, const void* d, size_t n) override { glBufferSubData(t, GLintptr(off), GLsizeiptr(n), d); }
    GLuint gen_texture() override { GLuint t; glGenTextures(1, &t); return t; }
    void bind_texture(GLenum t, GLuint tex) override { glBindTexture(t, tex); }
    void active_texture(GLenum unit) override { glActiveTexture(unit); }
    void tex_image(GLenum target, GLint level, GLint ifmt, int w, int h, GLenum fmt, GLenum type, const void* px, size_t) override {
        glTexImage2D(target, level, ifmt, w, h, 0, fmt, type, px);
    }
    void tex_parameter(GLenum target, GLenum p, GLint v) override { glTexParameteri(target, p, v); }
    void generate_mipmap(GLenum target) override { glGenerateMipmap(target); }
    void pixel_store(GLenum p, GLint v) override { glPixelStorei(p, v); }
    void use(GLuint p) override { glUseProgram(p); }
    GLint uniform_location(GLuint p, const char* n) override { return glGetUniformLocation(p, n); }
    GLint attrib_location(GLuint p, const char* n) override { return glGetAttribLocation(p, n); }
    void uniform4f(GLint l, float a, float b, float c, float d) override { glUniform4f(l, a, b, c, d); }
    void uniform1i(GLint l, GLint v) override { glUniform1i(l, v); }
    void uniform1f(GLint l, float v) override { glUniform1f(l, v); }
    void uniform2f(GLint l, float a, float b) override { glUniform2f(l, a, b); }
    void uniform_matrix4(GLint l, const float* m) override { glUniformMatrix4fv(l, 1, GL_FALSE, m); }
    void attrib(GLuint i, GLint size, GLenum type, bool norm, GLsizei stride, size_t offset) override {
        glVertexAttribPointer(i, size, type, norm, stride, reinterpret_cast<const void*>(offset));
    }
    void enable_attrib(GLuint i) override { glEnableVertexAttribArray(i); }
    void vertex_attrib4f(GLuint i, float a, float b, float c, float d) override { glVertexAttrib4f(i, a, b, c, d); }
    void draw_arrays(GLenum mode, int first, int n) override { glDrawArrays(mode, first, n); }
    void draw_elements(GLenum mode, int n, GLenum type, size_t offset) override {
        glDrawElements(mode, n, type, reinterpret_cast<const void*>(offset));
    }
    void draw_elements_client(GLenum mode, int n, GLenum type, const void* idx, size_t) override { glDrawElements(mode, n, type, idx); }
    void viewport(int x, int y, int w, int h) override { glViewport(x, y, w, h); }
    void scissor(int x, int y, int w, int h) override { glScissor(x, y, w, h); }
    void clear_color(float r, float g, float b, float a) override { glClearColor(r, g, b, a); }
    void clear_depth(float d) override { glClearDepthf(d); }
    void clear(GLbitfield m) override { glClear(m); }
    void enable(GLenum cap) override { glEnable(cap); }
    void disable(GLenum cap) override { glDisable(cap); }
    void blend_func(GLenum s, GLenum d) override { glBlendFunc(s, d); }
    void depth_func(GLenum f) override { glDepthFunc(f); }
    void cull_face(GLenum f) override { glCullFace(f); }
    void front_face(GLenum f) override { glFrontFace(f); }
    void stencil_func(GLenum f, GLint ref, GLuint mask) override { glStencilFunc(f, ref, mask); }
    void stencil_op(GLenum fail, GLenum zfail, GLenum zpass) override { glStencilOp(fail, zfail, zpass); }
    void color_mask(bool r, bool g, bool b, bool a) override { glColorMask(r, g, b, a); }
    GLuint gen_framebuffer() override { GLuint f; glGenFramebuffers(1, &f); return f; }
    void bind_framebuffer(GLuint fb) override { glBindFramebuffer(GL_FRAMEBUFFER, fb); }
    void framebuffer_texture(GLenum att, GLuint tex, int level) override {
        glFramebufferTexture2D(GL_FRAMEBUFFER, att, GL_TEXTURE_2D, tex, level);
    }
    GLuint gen_renderbuffer() override { GLuint r; glGenRenderbuffers(1, &r); return r; }
    void renderbuffer_storage(GLuint rb, GLenum fmt, int w, int h) override {
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, fmt, w, h);
    }
    void framebuffer_renderbuffer(GLenum att, GLuint rb) override {
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, att, GL_RENDERBUFFER, rb);
    }
    GLenum check_framebuffer() override { return glCheckFramebufferStatus(GL_FRAMEBUFFER); }
    void bind_read_framebuffer(GLuint fb) override { glBindFramebuffer(GL_READ_FRAMEBUFFER, fb); }
    void copy_tex_image(GLenum ifmt, int x, int y, int w, int h) override { glCopyTexImage2D(GL_TEXTURE_2D, 0, ifmt, x, y, w, h, 0); }
    void copy_tex_sub_image(int xo, int yo, int x, int y, int w, int h) override {
        glCopyTexSubImage2D(GL_TEXTURE_2D, 0, xo, yo, x, y, w, h);
    }
    void sample_coverage(float value, bool invert) override { glSampleCoverage(value, invert); }
    void blit(int sx0, int sy0, int sx1, int sy1, int dx0, int dy0, int dx1, int dy1, GLenum filter) override {
        glBlitFramebuffer(sx0, sy0, sx1, sy1, dx0, dy0, dx1, dy1, GL_COLOR_BUFFER_BIT, filter);
    }
    std::vector<uint8_t> read(int x, int y, int w, int h) override {
        std::vector<uint8_t> px(size_t(w) * h * 4);
        glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        return px;
    }
    GLenum error() override { return glGetError(); }
    GLuint gen_query() override { GLuint q; glGenQueries(1, &q); return q; }
    void begin_query(GLenum target, GLuint q) override { glBeginQuery(target, q); }
    void end_query(GLenum target) override { glEndQuery(target); }
    GLuint query_object(GLuint q, GLenum pname) override { GLuint v = 0xDEAD; glGetQueryObjectuiv(q, pname, &v); return v; }
    GLint current_query(GLenum target) override { GLint v = -1; glGetQueryiv(target, GL_CURRENT_QUERY, &v); return v; }
    bool is_query(GLuint q) override { return glIsQuery(q); }
    void draw_buffers(std::vector<GLenum> bufs) override { glDrawBuffers(GLsizei(bufs.size()), bufs.data()); }
    void read_buffer(GLenum src) override { glReadBuffer(src); }
    void attrib_i(GLuint i, GLint size, GLenum type, GLsizei stride, size_t offset) override {
        glVertexAttribIPointer(i, size, type, stride, reinterpret_cast<const void*>(offset));
    }
    void vertex_attrib_i4i(GLuint i, GLint a, GLint b, GLint c, GLint d) override { glVertexAttribI4i(i, a, b, c, d); }
    void vertex_attrib_i4ui(GLuint i, GLuint a, GLuint b, GLuint c, GLuint d) override { glVertexAttribI4ui(i, a, b, c, d); }
    void divisor(GLuint i, GLuint d) override { glVertexAttribDivisor(i, d); }
    void draw_arrays_instanced(GLenum mode, int first, int n, int instances) override { glDrawArraysInstanced(mode, first, n, instances); }
    std::vector<uint8_t> read_as(int x, int y, int w, int h, GLenum fmt, GLenum type, size_t bytes) override {
        std::vector<uint8_t> px(bytes, 0xAB);
        glReadPixels(x, y, w, h, fmt, type, px.data());
        return px;
    }
    void compressed_tex_image(GLenum target, GLint level, GLenum ifmt, int w, int h, const void* data, size_t bytes) override {
        glCompressedTexImage2D(target, level, ifmt, w, h, 0, GLsizei(bytes), data);
    }
    void compressed_tex_sub_image(GLenum target, GLint level, int x, int y, int w, int h, GLenum fmt, const void* data,
                                  size_t bytes) override {
        glCompressedTexSubImage2D(target, level, x, y, w, h, fmt, GLsizei(bytes), data);
    }
    GLint get_integer(GLenum pname) override { GLint v = -1; glGetIntegerv(pname, &v); return v; }
    void clear_buffer_iv(GLenum buffer, GLint i, std::array<GLint, 4> v) override { glClearBufferiv(buffer, i, v.data()); }
    void clear_buffer_uiv(GLenum buffer, GLint i, std::array<GLuint, 4> v) override { glClearBufferuiv(buffer, i, v.data()); }
    void clear_buffer_fv(GLenum buffer, GLint i, std::array<GLfloat, 4> v) override { glClearBufferfv(buffer, i, v.data()); }
    void renderbuffer_storage_ms(GLuint rb, int samples, GLenum fmt, int w, int h) override {
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, fmt, w, h);
    }
    std::vector<GLint> internalformat(GLenum fmt, GLenum pname, int n) override {
        std::vector<GLint> v(size_t(n), -1);
        glGetInternalformativ(GL_RENDERBUFFER, fmt, pname, n, v.data());
        return v;
    }
    GLint renderbuffer_param(GLenum pname) override { GLint v = -1; glGetRenderbufferParameteriv(GL_RENDERBUFFER, pname, &v); return v; }
    std::array<uint32_t, 4> vertex_attrib(GLuint i, GLenum pname, char kind) override {
        std::array<uint32_t, 4> v{};
        if (kind == 'f') glGetVertexAttribfv(i, pname, reinterpret_cast<GLfloat*>(v.data()));
        else if (kind == 'i') glGetVertexAttribiv(i, pname, reinterpret_cast<GLint*>(v.data()));
        else glGetVertexAttribIiv(i, pname, reinterpret_cast<GLint*>(v.data()));
        return v;
    }
    std::array<uint32_t, 16> get_uniform(GLuint p, GLint loc, char kind) override {
        std::array<uint32_t, 16> v;
        v.fill(0xCDCDCDCDu);
        if (kind == 'f') glGetUniformfv(p, loc, reinterpret_cast<GLfloat*>(v.data()));
        else if (kind == 'i') glGetUniformiv(p, loc, reinterpret_cast<GLint*>(v.data()));
        else glGetUniformuiv(p, loc, v.data());
        return v;
    }
    GLuint program_xfb(GLuint vs, GLuint fs, const char* bind0, std::vector<const char*> varyings, GLenum mode) override {
        GLuint p = glCreateProgram();
        glAttachShader(p, vs);
        glAttachShader(p, fs);
        if (bind0) glBindAttribLocation(p, 0, bind0);
        glTransformFeedbackVaryings(p, GLsizei(varyings.size()), varyings.data(), mode);
        glLinkProgram(p);
        GLint ok = 0;
        glGetProgramiv(p, GL_LINK_STATUS, &ok);
        return ok ? p : 0;
    }
    GLuint gen_xfb() override { GLuint x = 0; glGenTransformFeedbacks(1, &x); return x; }
    void bind_xfb(GLuint x) override { glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, x); }
    void bind_buffer_range(GLenum t, GLuint index, GLuint b, size_t off, size_t size) override {
        if (size) glBindBufferRange(t, index, b, GLintptr(off), GLsizeiptr(size));
        else glBindBufferBase(t, index, b);
    }
    void xfb(char op, GLenum mode) override {
        if (op == 'b') glBeginTransformFeedback(mode);
        else if (op == 'e') glEndTransformFeedback();
        else if (op == 'p') glPauseTransformFeedback();
        else glResumeTransformFeedback();
    }
    std::string xfb_varying(GLuint p, GLuint i, GLint& size, GLenum& type) override {
        char name[64] = {};
        GLsizei len = 0;
        size = -1, type = 0;
        glGetTransformFeedbackVarying(p, i, sizeof name, &len, &size, &type, name);
        return std::string(name, size_t(len));
    }
    std::vector<uint8_t> buffer_bytes(GLenum t, size_t off, size_t n) override {
        std::vector<uint8_t> v(n, 0xAB);
        if (const void* m = glMapBufferRange(t, GLintptr(off), GLsizeiptr(n), GL_MAP_READ_BIT)) {
            std::memcpy(v.data(), m, n);
            glUnmapBuffer(t);
        }
        return v;
    }
};

struct WireGl final : GlApi {
    gen::Encoder& enc;  // into a Wire, or into a real transport's connection
    GLuint next = 1000;  // client-minted names, unlike any native ones
    explicit WireGl(Wire& wire) : enc(wire.enc) {}
    explicit WireGl(gen::Encoder& e) : enc(e) {}
    static wire::Blob blob(const char* s) { return wire::Blob{s, uint32_t(std::strlen(s) + 1)}; }
    GLuint shader(GLenum type, const char* src) override {
        GLuint s = next++;
        enc.glCreateShader(type, s);
        std::string b = strings_blob({src});
        enc.glShaderSource(s, 1, wire::Blob{b.data(), uint32_t(b.size())});
        enc.glCompileShader(s);
        GLint ok = 0;
        enc.glGetShaderiv(s, GL_COMPILE_STATUS, sizeof ok);
        gen::read_reply_glGetShaderiv(enc.wait_reply(), &ok, sizeof ok);
        return ok ? s : 0;
    }
    GLuint program(GLuint vs, GLuint fs, const char* bind0) override {
        GLuint p = next++;
        enc.glCreateProgram(p);
        enc.glAttachShader(p, vs);
        enc.glAttachShader(p, fs);
        if (bind0) enc.glBindAttribLocation(p, 0, blob(bind0));
        enc.glLinkProgram(p);
        GLint ok = 0;
        enc.glGetProgramiv(p, GL_LINK_STATUS, sizeof ok);
        gen::read_reply_glGetProgramiv(enc.wait_reply(), &ok, sizeof ok);
        return ok ? p : 0;
    }
    void flush() override { enc.glFlush(); }
    GLuint gen_buffer() override { GLuint b = next++; enc.glGenBuffers(1, wire::Blob{&b, 4}); return b; }
    void bind_buffer(GLenum t, GLuint b) override { enc.glBindBuffer(t, b); }
    void buffer_data(GLenum t, const void* d, size_t n) override {
        enc.glBufferData(t, GLsizeiptr(n), wire::Blob{d, d ? uint32_t(n) : 0u}, GL_STATIC_DRAW);  // null: no data
    }
    void buffer_sub_data(GLenum t, size_t off, const void* d, size_t n) override {
        enc.glBufferSubData(t, GLintptr(off), GLsizeiptr(n), wire::Blob{d, uint32_t(n)});
    }
    GLuint gen_texture() override { GLuint t = next++; enc.glGenTextures(1, wire::Blob{&t, 4}); return t; }
    void bind_texture(GLenum t, GLuint tex) override { enc.glBindTexture(t, tex); }
    void active_texture(GLenum unit) override { enc.glActiveTexture(unit); }
    void tex_image(GLenum target, GLint level, GLint ifmt, int wd, int h, GLenum fmt, GLenum type, const void* px,
                   size_t bytes) override {
        enc.glTexImage2D(target, level, ifmt, wd, h, 0, fmt, type, wire::OffsetOrBlob{0, px, uint32_t(px ? bytes : 0)});
    }
    void tex_parameter(GLenum target, GLenum p, GLint v) override { enc.glTexParameteri(target, p, v); }
    void generate_mipmap(GLenum target) override { enc.glGenerateMipmap(target); }
    void pixel_store(GLenum p, GLint v) override { enc.glPixelStorei(p, v); }
    void use(GLuint p) override { enc.glUseProgram(p); }
    GLint uniform_location(GLuint p, const char* n) override {
        enc.glGetUniformLocation(p, blob(n));
        GLint loc = -2;
        gen::read_reply_glGetUniformLocation(enc.wait_reply(), &loc);
        return loc;
    }
    GLint attrib_location(GLuint p, const char* n) override {
        enc.glGetAttribLocation(p, blob(n));
        GLint loc = -2;
        gen::read_reply_glGetAttribLocation(enc.wait_reply(), &loc);
        return loc;
    }
    void uniform4f(GLint l, float a, float b, float c, float d) override { enc.glUniform4f(l, a, b, c, d); }
    void uniform1i(GLint l, GLint v) override { enc.glUniform1i(l, v); }
    void uniform1f(GLint l, float v) override { enc.glUniform1f(l, v); }
    void uniform2f(GLint l, float a, float b) override { enc.glUniform2f(l, a, b); }
    void uniform_matrix4(GLint l, const float* m) override { enc.glUniformMatrix4fv(l, 1, GL_FALSE, wire::Blob{m, 64}); }
    void attrib(GLuint i, GLint size, GLenum type, bool norm, GLsizei stride, size_t offset) override {
        enc.glVertexAttribPointer(i, size, type, norm, stride, wire::OffsetOrBlob{offset, nullptr, 0});
    }
    void enable_attrib(GLuint i) override { enc.glEnableVertexAttribArray(i); }
    void vertex_attrib4f(GLuint i, float a, float b, float c, float d) override { enc.glVertexAttrib4f(i, a, b, c, d); }
    void draw_arrays(GLenum mode, int first, int n) override { enc.glDrawArrays(mode, first, n); }
    void draw_elements(GLenum mode, int n, GLenum type, size_t offset) override {
        enc.glDrawElements(mode, n, type, wire::OffsetOrBlob{offset, nullptr, 0});
    }
    void draw_elements_client(GLenum mode, int n, GLenum type, const void* idx, size_t bytes) override {
        enc.glDrawElements(mode, n, type, wire::OffsetOrBlob{0, idx, uint32_t(bytes)});
    }
    void viewport(int x, int y, int wd, int h) override { enc.glViewport(x, y, wd, h); }
    void scissor(int x, int y, int wd, int h) override { enc.glScissor(x, y, wd, h); }
    void clear_color(float r, float g, float b, float a) override { enc.glClearColor(r, g, b, a); }
    void clear_depth(float d) override { enc.glClearDepthf(d); }
    void clear(GLbitfield m) override { enc.glClear(m); }
    void enable(GLenum cap) override { enc.glEnable(cap); }
    void disable(GLenum cap) override { enc.glDisable(cap); }
    void blend_func(GLenum s, GLenum d) override { enc.glBlendFunc(s, d); }
    void depth_func(GLenum f) override { enc.glDepthFunc(f); }
    void cull_face(GLenum f) override { enc.glCullFace(f); }
    void front_face(GLenum f) override { enc.glFrontFace(f); }
    void stencil_func(GLenum f, GLint ref, GLuint mask) override { enc.glStencilFunc(f, ref, mask); }
    void stencil_op(GLenum fail, GLenum zfail, GLenum zpass) override { enc.glStencilOp(fail, zfail, zpass); }
    void color_mask(bool r, bool g, bool b, bool a) override { enc.glColorMask(r, g, b, a); }
    GLuint gen_framebuffer() override { GLuint f = next++; enc.glGenFramebuffers(1, wire::Blob{&f, 4}); return f; }
    void bind_framebuffer(GLuint fb) override { enc.glBindFramebuffer(GL_FRAMEBUFFER, fb); }
    void framebuffer_texture(GLenum att, GLuint tex, int level) override {
        enc.glFramebufferTexture2D(GL_FRAMEBUFFER, att, GL_TEXTURE_2D, tex, level);
    }
    GLuint gen_renderbuffer() override { GLuint r = next++; enc.glGenRenderbuffers(1, wire::Blob{&r, 4}); return r; }
    void renderbuffer_storage(GLuint rb, GLenum fmt, int wd, int h) override {
        enc.glBindRenderbuffer(GL_RENDERBUFFER, rb);
        enc.glRenderbufferStorage(GL_RENDERBUFFER, fmt, wd, h);
    }
    void framebuffer_renderbuffer(GLenum att, GLuint rb) override {
        enc.glFramebufferRenderbuffer(GL_FRAMEBUFFER, att, GL_RENDERBUFFER, rb);
    }
    GLenum check_framebuffer() override {
        enc.glCheckFramebufferStatus(GL_FRAMEBUFFER);
        GLenum s = 0;
        gen::read_reply_glCheckFramebufferStatus(enc.wait_reply(), &s);
        return s;
    }
    void bind_read_framebuffer(GLuint fb) override { enc.glBindFramebuffer(GL_READ_FRAMEBUFFER, fb); }
    void copy_tex_image(GLenum ifmt, int x, int y, int wd, int h) override { enc.glCopyTexImage2D(GL_TEXTURE_2D, 0, ifmt, x, y, wd, h, 0); }
    void copy_tex_sub_image(int xo, int yo, int x, int y, int wd, int h) override {
        enc.glCopyTexSubImage2D(GL_TEXTURE_2D, 0, xo, yo, x, y, wd, h);
    }
    void sample_coverage(float value, bool invert) override { enc.glSampleCoverage(value, invert); }
    void blit(int sx0, int sy0, int sx1, int sy1, int dx0, int dy0, int dx1, int dy1, GLenum filter) override {
        enc.glBlitFramebuffer(sx0, sy0, sx1, sy1, dx0, dy0, dx1, dy1, GL_COLOR_BUFFER_BIT, filter);
    }
    std::vector<uint8_t> read(int x, int y, int wd, int h) override {
        std::vector<uint8_t> px(size_t(wd) * h * 4, 0xAB);
        enc.glReadPixels(x, y, wd, h, GL_RGBA, GL_UNSIGNED_BYTE, 0, uint32_t(px.size()));
        if (!gen::read_reply_glReadPixels(enc.wait_reply(), px.data(), uint32_t(px.size()))) px.clear();
        return px;
    }
    GLenum error() override {
        enc.mglGetError();
        GLenum e = 0xFFFF;
        gen::read_reply_mglGetError(enc.wait_reply(), &e);
        return e;
    }
    GLuint gen_query() override { GLuint q = next++; enc.glGenQueries(1, wire::Blob{&q, 4}); return q; }
    void begin_query(GLenum target, GLuint q) override { enc.glBeginQuery(target, q); }
    void end_query(GLenum target) override { enc.glEndQuery(target); }
    GLuint query_object(GLuint q, GLenum pname) override {
        GLuint v = 0xDEAD;
        enc.glGetQueryObjectuiv(q, pname, sizeof v);
        gen::read_reply_glGetQueryObjectuiv(enc.wait_reply(), &v, sizeof v);
        return v;
    }
    GLint current_query(GLenum target) override {
        GLint v = -1;
        enc.glGetQueryiv(target, GL_CURRENT_QUERY, sizeof v);
        gen::read_reply_glGetQueryiv(enc.wait_reply(), &v, sizeof v);
        return v;
    }
    bool is_query(GLuint q) override {
        enc.glIsQuery(q);
        GLboolean b = 2;
        gen::read_reply_glIsQuery(enc.wait_reply(), &b);
        return b == GL_TRUE;
    }
    void draw_buffers(std::vector<GLenum> bufs) override {
        enc.glDrawBuffers(GLsizei(bufs.size()), wire::Blob{bufs.data(), uint32_t(bufs.size() * 4)});
    }
    void read_buffer(GLenum src) override { enc.glReadBuffer(src); }
    void attrib_i(GLuint i, GLint size, GLenum type, GLsizei stride, size_t offset) override {
        enc.glVertexAttribIPointer(i, size, type, stride, wire::OffsetOrBlob{offset, nullptr, 0});
    }
    void vertex_attrib_i4i(GLuint i, GLint a, GLint b, GLint c, GLint d) override { enc.glVertexAttribI4i(i, a, b, c, d); }
    void vertex_attrib_i4ui(GLuint i, GLuint a, GLuint b, GLuint c, GLuint d) override { enc.glVertexAttribI4ui(i, a, b, c, d); }
    void divisor(GLuint i, GLuint d) override { enc.glVertexAttribDivisor(i, d); }
    void draw_arrays_instanced(GLenum mode, int first, int n, int instances) override {
        enc.glDrawArraysInstanced(mode, first, n, instances);
    }
    std::vector<uint8_t> read_as(int x, int y, int wd, int h, GLenum fmt, GLenum type, size_t bytes) override {
        std::vector<uint8_t> px(bytes, 0xAB);
        enc.glReadPixels(x, y, wd, h, fmt, type, 0, uint32_t(px.size()));
        if (!gen::read_reply_glReadPixels(enc.wait_reply(), px.data(), uint32_t(px.size()))) px.clear();
        return px;
    }
    void compressed_tex_image(GLenum target, GLint level, GLenum ifmt, int wd, int h, const void* data, size_t bytes) override {
        enc.glCompressedTexImage2D(target, level, ifmt, wd, h, 0, GLsizei(bytes), wire::OffsetOrBlob{0, data, uint32_t(bytes)});
    }
    void compressed_tex_sub_image(GLenum target, GLint level, int x, int y, int wd, int h, GLenum fmt, const void* data,
                                  size_t bytes) override {
        enc.glCompressedTexSubImage2D(target, level, x, y, wd, h, fmt, GLsizei(bytes), wire::OffsetOrBlob{0, data, uint32_t(bytes)});
    }
    void clear_buffer_iv(GLenum buffer, GLint i, std::array<GLint, 4> v) override {
        enc.glClearBufferiv(buffer, i, wire::Blob{v.data(), uint32_t(buffer == GL_COLOR ? 16 : 4)});
    }
    void clear_buffer_uiv(GLenum buffer, GLint i, std::array<GLuint, 4> v) override {
        enc.glClearBufferuiv(buffer, i, wire::Blob{v.data(), 16});
    }
    void clear_buffer_fv(GLenum buffer, GLint i, std::array<GLfloat, 4> v) override {
        enc.glClearBufferfv(buffer, i, wire::Blob{v.data(), uint32_t(buffer == GL_COLOR ? 16 : 4)});
    }
    void renderbuffer_storage_ms(GLuint rb, int samples, GLenum fmt, int wd, int h) override {
        enc.glBindRenderbuffer(GL_RENDERBUFFER, rb);
        enc.glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, fmt, wd, h);
    }
    std::vector<GLint> internalformat(GLenum fmt, GLenum pname, int n) override {
        std::vector<GLint> v(size_t(n), -1);
        enc.glGetInternalformativ(GL_RENDERBUFFER, fmt, pname, n, uint32_t(n * sizeof(GLint)));
        gen::read_reply_glGetInternalformativ(enc.wait_reply(), v.data(), uint32_t(n * sizeof(GLint)));
        return v;
    }
    GLint renderbuffer_param(GLenum pname) override {
        GLint v = -1;
        enc.glGetRenderbufferParameteriv(GL_RENDERBUFFER, pname, sizeof v);
        gen::read_reply_glGetRenderbufferParameteriv(enc.wait_reply(), &v, sizeof v);
        return v;
    }
    std::array<uint32_t, 4> vertex_attrib(GLuint i, GLenum pname, char kind) override {
        std::array<uint32_t, 4> v{};
        const uint32_t bytes = 16;  // the wire's capacity for these verbs is always 4 values
        if (kind == 'f') {
            enc.glGetVertexAttribfv(i, pname, bytes);
            gen::read_reply_glGetVertexAttribfv(enc.wait_reply(), reinterpret_cast<GLfloat*>(v.data()), bytes);
        } else if (kind == 'i') {
            enc.glGetVertexAttribiv(i, pname, bytes);
            gen::read_reply_glGetVertexAttribiv(enc.wait_reply(), reinterpret_cast<GLint*>(v.data()), bytes);
        } else {
            enc.glGetVertexAttribIiv(i, pname, bytes);
            gen::read_reply_glGetVertexAttribIiv(enc.wait_reply(), reinterpret_cast<GLint*>(v.data()), bytes);
        }
        return v;
    }
    GLint get_integer(GLenum pname) override {
        GLint v = -1;
        enc.glGetIntegerv(pname, sizeof v);
        gen::read_reply_glGetIntegerv(enc.wait_reply(), &v, sizeof v);
        return v;
    }
    // The session verb the client sends for glGetUniform*v: it answers how
    // many values the uniform has, and the client writes that many.
    std::array<uint32_t, 16> get_uniform(GLuint p, GLint loc, char kind) override {
        std::array<uint32_t, 16> v, got{};
        v.fill(0xCDCDCDCDu);
        const GLenum type = kind == 'f' ? GL_FLOAT : kind == 'i' ? GL_INT : GL_UNSIGNED_INT;
        enc.mglGetUniform(p, loc, type, 64);
        GLint n = 0;
        if (gen::read_reply_mglGetUniform(enc.wait_reply(), &n, got.data(), 64))
            for (GLint k = 0; k < n && k < 16; ++k) v[size_t(k)] = got[size_t(k)];
        return v;
    }
    GLuint program_xfb(GLuint vs, GLuint fs, const char* bind0, std::vector<const char*> varyings, GLenum mode) override {
        GLuint p = next++;
        enc.glCreateProgram(p);
        enc.glAttachShader(p, vs);
        enc.glAttachShader(p, fs);
        if (bind0) enc.glBindAttribLocation(p, 0, blob(bind0));
        std::string b;
        for (const char* v : varyings) b.append(v, std::strlen(v) + 1);
        enc.glTransformFeedbackVaryings(p, GLsizei(varyings.size()), wire::Blob{b.data(), uint32_t(b.size())}, mode);
        enc.glLinkProgram(p);
        GLint ok = 0;
        enc.glGetProgramiv(p, GL_LINK_STATUS, sizeof ok);
        gen::read_reply_glGetProgramiv(enc.wait_reply(), &ok, sizeof ok);
        return ok ? p : 0;
    }
    GLuint gen_xfb() override { GLuint x = next++; enc.glGenTransformFeedbacks(1, wire::Blob{&x, 4}); return x; }
    void bind_xfb(GLuint x) override { enc.glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, x); }
    void bind_buffer_range(GLenum t, GLuint index, GLuint b, size_t off, size_t size) override {
        if (size) enc.glBindBufferRange(t, index, b, GLintptr(off), GLsizeiptr(size));
        else enc.glBindBufferBase(t, index, b);
    }
    void xfb(char op, GLenum mode) override {
        if (op == 'b') enc.glBeginTransformFeedback(mode);
        else if (op == 'e') enc.glEndTransformFeedback();
        else if (op == 'p') enc.glPauseTransformFeedback();
        else enc.glResumeTransformFeedback();
    }
    std::string xfb_varying(GLuint p, GLuint i, GLint& size, GLenum& type) override {
        char name[64] = {};
        GLsizei len = 0;
        size = -1, type = 0;
        enc.glGetTransformFeedbackVarying(p, i, sizeof name, 4, 4, 4, sizeof name);
        gen::read_reply_glGetTransformFeedbackVarying(enc.wait_reply(), &len, 4, &size, 4, &type, 4,
                                                      reinterpret_cast<mgl::GLchar*>(name), sizeof name);
        return std::string(name, size_t(std::max(len, 0)));
    }
    std::vector<uint8_t> buffer_bytes(GLenum t, size_t off, size_t n) override {
        std::vector<uint8_t> v(n, 0xAB);
        enc.mglReadBufferRange(t, GLintptr(off), GLsizeiptr(n), uint32_t(n));
        gen::read_reply_mglReadBufferRange(enc.wait_reply(), v.data(), uint32_t(n));
        return v;
    }
};

}  // namespace magma_test
