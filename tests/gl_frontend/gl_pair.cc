#include "gl_pair.h"

#include <cstring>

#include "translate.h"

namespace glfe_test {

namespace {

EGLContext make_context(EGLDisplay dpy, EGLenum api, const EGLint* attrs) {
    if (!eglBindAPI(api)) return EGL_NO_CONTEXT;
    return eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
}

GLuint compile(GLenum type, const std::vector<std::string>& sources, std::string& log) {
    const GLuint s = glCreateShader(type);
    std::vector<const char*> p;
    for (const std::string& x : sources) p.push_back(x.c_str());
    glShaderSource(s, GLsizei(p.size()), p.data(), nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char buf[4096] = {};
        glGetShaderInfoLog(s, sizeof buf, nullptr, buf);
        log += std::string("compile: ") + buf;
    }
    return s;
}

Image draw(const Case& c, const std::vector<std::string>& vs, const std::vector<std::string>& fs, bool desktop) {
    Image img;
    const GLuint v = compile(GL_VERTEX_SHADER, vs, img.log), f = compile(GL_FRAGMENT_SHADER, fs, img.log);
    const GLuint prog = glCreateProgram();
    glAttachShader(prog, v);
    glAttachShader(prog, f);
    glBindAttribLocation(prog, 0, "position");
    if (desktop)
        for (const auto& [name, loc] : c.frag_bindings) GlPair::get().BindFragDataLocation(prog, GLuint(loc), name.c_str());
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!linked) {
        char buf[4096] = {};
        glGetProgramInfoLog(prog, sizeof buf, nullptr, buf);
        img.log += std::string("link: ") + buf;
    }
    GLuint fbo, rb[2], vao, vbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(2, rb);
    for (int i = 0; i < 2; ++i) {
        glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kSize, kSize);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, GL_RENDERBUFFER, rb[i]);
    }
    const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glDrawBuffers(2, bufs);
    glViewport(0, 0, kSize, kSize);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    const float quad[] = {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1};
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    if (linked) {
        glUseProgram(prog);
        if (c.setup) c.setup(prog);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    for (int i = 0; i < 2; ++i) {
        img.colour[i].assign(size_t(kSize) * kSize * 4, 0);
        glReadBuffer(GL_COLOR_ATTACHMENT0 + i);
        glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, img.colour[i].data());
    }
    img.ok = linked && glGetError() == GL_NO_ERROR;
    glUseProgram(0);
    glDeleteProgram(prog);
    glDeleteShader(v);
    glDeleteShader(f);
    glDeleteBuffers(1, &vbo);
    glDeleteVertexArrays(1, &vao);
    glDeleteRenderbuffers(2, rb);
    glDeleteFramebuffers(1, &fbo);
    return img;
}

}  // namespace

GlPair& GlPair::get() {
    static GlPair p = [] {
        GlPair g;
        g.dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (g.dpy == EGL_NO_DISPLAY || !eglInitialize(g.dpy, nullptr, nullptr)) {
            g.why = "no surfaceless EGL display";
            return g;
        }
        const EGLint es_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
        const EGLint gl_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        g.es = make_context(g.dpy, EGL_OPENGL_ES_API, es_attrs);
        g.desktop = make_context(g.dpy, EGL_OPENGL_API, gl_attrs);
        if (g.es == EGL_NO_CONTEXT || g.desktop == EGL_NO_CONTEXT) g.why = "no GLES 3.2 or GL 4.5 core context";
        g.BindFragDataLocation =
            reinterpret_cast<void (*)(GLuint, GLuint, const char*)>(eglGetProcAddress("glBindFragDataLocation"));
        return g;
    }();
    return p;
}

bool GlPair::use_es() {
    eglBindAPI(EGL_OPENGL_ES_API);
    return eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, es);
}

bool GlPair::use_desktop() {
    eglBindAPI(EGL_OPENGL_API);
    return eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, desktop);
}

Image render_native(const Case& c) {
    if (!GlPair::get().use_desktop()) return {};
    return draw(c, c.vs, c.fs, true);
}

Image render_translated(const Case& c) {
    if (!GlPair::get().use_es()) return {};
    mgl::gl::EsslOptions opt;
    auto translate = [&](mgl::gl::Stage stage, const std::vector<std::string>& src, std::string& log) {
        mgl::gl::ShaderInput in;
        in.stage = stage;
        in.sources = src;
        auto t = mgl::gl::translate(in, opt);
        if (!t->ok) {
            log += "translate: " + t->log;
            return std::string();
        }
        if (stage != mgl::gl::Stage::fragment || c.frag_bindings.empty()) return t->essl;
        std::string essl, why;  // bound outputs: re-emitted as Espryt does at link
        if (!mgl::gl::spirv_to_essl(*t, opt, mgl::gl::OutputBindings(c.frag_bindings.begin(), c.frag_bindings.end()),
                                    essl, why))
            log += "re-emit: " + why;
        return essl;
    };
    std::string log;
    const std::string vs = translate(mgl::gl::Stage::vertex, c.vs, log);
    const std::string fs = translate(mgl::gl::Stage::fragment, c.fs, log);
    Image img = draw(c, {vs}, {fs}, false);
    img.log = log + img.log;
    img.ok = img.ok && log.empty();
    return img;
}

void bind_test_texture(GLenum target) {
    uint8_t texels[4 * 4 * 4];
    for (int i = 0; i < 16; ++i) {
        texels[i * 4 + 0] = uint8_t(i * 16);
        texels[i * 4 + 1] = uint8_t(255 - i * 12);
        texels[i * 4 + 2] = uint8_t((i * 37) & 255);
        texels[i * 4 + 3] = 255;
    }
    GLuint tex;
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(target, tex);
    if (target == GL_TEXTURE_CUBE_MAP)
        for (int f = 0; f < 6; ++f)
            glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    else
        glTexImage2D(target, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

}  // namespace glfe_test
