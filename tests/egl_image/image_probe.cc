// EGLImages of GL objects as an application uses them (EGL_KHR_image_base,
// EGL_KHR_gl_texture_2D_image, _cubemap_image, EGL_KHR_gl_renderbuffer_image,
// GL_OES_EGL_image, GL_OES_EGL_image_external): images made in one context
// and bound as the storage of textures and renderbuffers in another of its
// share group, on a desktop GL 3.3 core context and on an OpenGL ES 3.0 one.
// run_image_probe.sh runs it natively (Mesa's llvmpipe) and through `mgl run`;
// every line of its output must be the same.
//
// What is printed is what EGL and GL fix: which calls succeed, the EGL and GL
// errors of those that must fail, sizes, and texels read back through
// framebuffers (a sibling's contents are the image's: a write through one is
// seen through the other, and outlive the image and the texture it came from).
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

#ifndef GL_TEXTURE_EXTERNAL_OES
#define GL_TEXTURE_EXTERNAL_OES 0x8D65
#endif

PFNEGLCREATEIMAGEKHRPROC create_image;
PFNEGLDESTROYIMAGEKHRPROC destroy_image;
void (*target_texture)(GLenum, void*);
void (*target_renderbuffer)(GLenum, void*);

EGLDisplay dpy;
EGLConfig cfg;

bool open_display() {
    auto get_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    dpy = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                      : eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (!eglInitialize(dpy, nullptr, nullptr)) return std::fprintf(stderr, "eglInitialize failed\n"), false;
    const char* ext = eglQueryString(dpy, EGL_EXTENSIONS);
    for (const char* want : {"EGL_KHR_image_base", "EGL_KHR_gl_texture_2D_image", "EGL_KHR_gl_texture_cubemap_image",
                             "EGL_KHR_gl_renderbuffer_image"})
        std::printf("%s: %s\n", want, ext && std::strstr(ext, want) ? "listed" : "missing");
    create_image = reinterpret_cast<PFNEGLCREATEIMAGEKHRPROC>(eglGetProcAddress("eglCreateImageKHR"));
    destroy_image = reinterpret_cast<PFNEGLDESTROYIMAGEKHRPROC>(eglGetProcAddress("eglDestroyImageKHR"));
    target_texture = reinterpret_cast<void (*)(GLenum, void*)>(eglGetProcAddress("glEGLImageTargetTexture2DOES"));
    target_renderbuffer =
        reinterpret_cast<void (*)(GLenum, void*)>(eglGetProcAddress("glEGLImageTargetRenderbufferStorageOES"));
    if (!create_image || !destroy_image || !target_texture || !target_renderbuffer)
        return std::fprintf(stderr, "an image entry point is missing\n"), false;
    const EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT | EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE,
                               EGL_PBUFFER_BIT, EGL_NONE};
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1) return std::fprintf(stderr, "no config\n"), false;
    return true;
}

EGLContext make_context(EGLenum api, EGLContext share) {
    eglBindAPI(api);
    const EGLint desktop[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint es[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLContext c = eglCreateContext(dpy, cfg, share, api == EGL_OPENGL_API ? desktop : es);
    if (c == EGL_NO_CONTEXT) std::fprintf(stderr, "eglCreateContext failed: 0x%x\n", eglGetError());
    return c;
}

bool use(EGLContext c) { return eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c); }

// eglCreateImageKHR's outcome: "ok", or the EGL error it reported.
EGLImageKHR image(const char* what, EGLContext ctx, EGLenum target, GLuint name, const EGLint* attribs) {
    EGLImageKHR img = create_image(dpy, ctx, target, reinterpret_cast<EGLClientBuffer>(uintptr_t(name)), attribs);
    if (img == EGL_NO_IMAGE_KHR) std::printf("image %s: EGL error 0x%x\n", what, eglGetError());
    else std::printf("image %s: ok\n", what);
    return img;
}

void gl_error(const char* step) { std::printf("%s: GL error 0x%x\n", step, glGetError()); }

// RGBA8 texels of a level: a gradient that differs per level.
std::vector<uint8_t> texels(int w, int h, int level) {
    std::vector<uint8_t> t(size_t(w) * h * 4);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = &t[(size_t(y) * w + x) * 4];
            p[0] = uint8_t(x * 8 + level * 50), p[1] = uint8_t(y * 8), p[2] = uint8_t(level * 90), p[3] = 255;
        }
    return t;
}

// A few texels of what framebuffer `fb`'s color attachment holds.
void read_back(const char* what, GLuint fb, int w, int h) {
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    std::printf("%s: framebuffer 0x%x", what, glCheckFramebufferStatus(GL_FRAMEBUFFER));
    std::vector<uint8_t> px(size_t(w) * h * 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    for (int i : {0, w - 1, (h / 2) * w + w / 2, w * h - 1})
        std::printf(" [%d]=%u,%u,%u,%u", i, px[i * 4], px[i * 4 + 1], px[i * 4 + 2], px[i * 4 + 3]);
    std::printf("\n");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

GLuint texture_framebuffer(GLenum target, GLuint tex, int level) {
    GLuint fb = 0;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, target, tex, level);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return fb;
}

void desktop_images() {
    std::printf("-- desktop GL 3.3 core, two contexts of one share group\n");
    EGLContext a = make_context(EGL_OPENGL_API, EGL_NO_CONTEXT);
    EGLContext b = make_context(EGL_OPENGL_API, a);
    if (!a || !b || !use(a)) return;
    std::fprintf(stderr, "GL_RENDERER %s\nGL_VERSION %s\n", glGetString(GL_RENDERER), glGetString(GL_VERSION));
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    bool listed = false;
    for (GLint i = 0; i < n; ++i)
        if (const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))))
            listed |= std::strcmp(e, "GL_OES_EGL_image") == 0;
    std::printf("GL_OES_EGL_image: %s\n", listed ? "listed" : "missing");

    // A two-level texture in context a; the image is its level 1.
    GLuint ta = 0;
    glGenTextures(1, &ta);
    glBindTexture(GL_TEXTURE_2D, ta);
    for (int level = 0; level < 2; ++level) {
        const int s = 16 >> level;
        glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA8, s, s, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels(s, s, level).data());
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glFinish();
    const EGLint level1[] = {EGL_GL_TEXTURE_LEVEL_KHR, 1, EGL_NONE};
    const EGLint level7[] = {EGL_GL_TEXTURE_LEVEL_KHR, 7, EGL_NONE};
    const EGLint bogus[] = {EGL_GL_TEXTURE_LEVEL_KHR, 0, 0x3999, 1, EGL_NONE};
    EGLImageKHR img = image("texture level 1", a, EGL_GL_TEXTURE_2D_KHR, ta, level1);
    image("default texture", a, EGL_GL_TEXTURE_2D_KHR, 0, nullptr);
    image("level 7", a, EGL_GL_TEXTURE_2D_KHR, ta, level7);
    image("unknown attribute", a, EGL_GL_TEXTURE_2D_KHR, ta, bogus);
    // (EGL_NO_CONTEXT is not asked: Mesa 22.3's eglCreateImageKHR crashes on it.)
    image("unknown target", a, 0x30C0, ta, nullptr);
    if (img == EGL_NO_IMAGE_KHR) return;

    // Context b: a texture whose storage is the image.
    if (!use(b)) return;
    GLuint tb = 0;
    glGenTextures(1, &tb);
    glBindTexture(GL_TEXTURE_2D, tb);
    target_texture(GL_TEXTURE_CUBE_MAP_ARRAY, img);
    gl_error("target the image on a cube map array");
    // (An unknown image is not tried: Mesa 22.3 crashes on one.)
    target_texture(GL_TEXTURE_2D, img);
    gl_error("target the image");
    GLint w = 0, h = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
    std::printf("sibling texture: %dx%d\n", w, h);
    const GLuint fb_b = texture_framebuffer(GL_TEXTURE_2D, tb, 0);
    read_back("sibling reads level 1", fb_b, 8, 8);
    // A write through the sibling is the source's too.
    glBindFramebuffer(GL_FRAMEBUFFER, fb_b);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 4, 4);
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glFinish();
    if (!use(a)) return;
    const GLuint fb_a = texture_framebuffer(GL_TEXTURE_2D, ta, 1);
    read_back("source level 1 after the sibling's clear", fb_a, 8, 8);

    // Renderbuffers: a cleared source is seen through its sibling.
    GLuint rb[2] = {0, 0}, fb_rb[2] = {0, 0};
    glGenRenderbuffers(2, rb);
    glGenFramebuffers(2, fb_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 8, 8);
    EGLImageKHR rimg = image("renderbuffer", a, EGL_GL_RENDERBUFFER_KHR, rb[0], nullptr);
    // (A name that is no renderbuffer is not tried: EGL says EGL_BAD_PARAMETER,
    // Mesa 22.3 answers EGL_BAD_ALLOC, and the stack the former.)
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    if (rimg != EGL_NO_IMAGE_KHR) target_renderbuffer(GL_RENDERBUFFER, rimg);
    gl_error("renderbuffer from the image");
    for (int i = 0; i < 2; ++i) {
        glBindFramebuffer(GL_FRAMEBUFFER, fb_rb[i]);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[i]);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, fb_rb[0]);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    read_back("renderbuffer sibling", fb_rb[1], 8, 8);

    // A cube map face.
    GLuint cube = 0;
    glGenTextures(1, &cube);
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
    for (int f = 0; f < 6; ++f)
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     texels(8, 8, f).data());
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    EGLImageKHR fimg = image("cube map +Z face", a, EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_Z_KHR, cube, nullptr);
    GLuint tf = 0;
    glGenTextures(1, &tf);
    glBindTexture(GL_TEXTURE_2D, tf);
    if (fimg != EGL_NO_IMAGE_KHR) target_texture(GL_TEXTURE_2D, fimg);
    gl_error("texture from the face");
    read_back("face sibling", texture_framebuffer(GL_TEXTURE_2D, tf, 0), 8, 8);

    // The siblings keep the contents after the images and the source go.
    const EGLBoolean first = destroy_image(dpy, img);
    const EGLBoolean again = destroy_image(dpy, img);
    std::printf("destroy: %d, again: %d (EGL error 0x%x)\n", first, again, eglGetError());
    if (rimg != EGL_NO_IMAGE_KHR) destroy_image(dpy, rimg);
    if (fimg != EGL_NO_IMAGE_KHR) destroy_image(dpy, fimg);
    glDeleteTextures(1, &ta);
    glFinish();
    if (!use(b)) return;
    read_back("sibling after the image and its source are gone", fb_b, 8, 8);
    use(EGL_NO_CONTEXT);
    eglDestroyContext(dpy, b);
    eglDestroyContext(dpy, a);
}

GLuint compile(GLenum type, const char* src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {};
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        std::fprintf(stderr, "compile failed: %s\n", log);
    }
    std::printf("shader compiled: %d\n", ok);
    return s;
}

void es_external_texture() {
    std::printf("-- OpenGL ES 3.0, an external texture sampled by a shader\n");
    EGLContext c = make_context(EGL_OPENGL_ES_API, EGL_NO_CONTEXT);
    if (!c || !use(c)) return;
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    bool ext = false, essl3 = false;
    for (GLint i = 0; i < n; ++i)
        if (const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)))) {
            ext |= std::strcmp(e, "GL_OES_EGL_image_external") == 0;
            essl3 |= std::strcmp(e, "GL_OES_EGL_image_external_essl3") == 0;
        }
    std::printf("GL_OES_EGL_image_external: %s, _essl3: %s\n", ext ? "listed" : "missing", essl3 ? "listed" : "missing");
    GLuint src = 0;
    glGenTextures(1, &src);
    glBindTexture(GL_TEXTURE_2D, src);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels(8, 8, 2).data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    EGLImageKHR img = image("ES texture", c, EGL_GL_TEXTURE_2D_KHR, src, nullptr);
    if (img == EGL_NO_IMAGE_KHR) return;
    GLuint ext_tex = 0;
    glGenTextures(1, &ext_tex);
    glBindTexture(GL_TEXTURE_EXTERNAL_OES, ext_tex);
    target_texture(GL_TEXTURE_EXTERNAL_OES, img);
    gl_error("external texture from the image");
    GLint bound = 0;
    glGetIntegerv(0x8D67, &bound);  // GL_TEXTURE_BINDING_EXTERNAL_OES
    std::printf("external binding is the texture: %d\n", GLuint(bound) == ext_tex);
    glTexParameteri(GL_TEXTURE_EXTERNAL_OES, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_EXTERNAL_OES, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, compile(GL_VERTEX_SHADER,
                                 "#version 300 es\n"
                                 "out vec2 uv;\n"
                                 "void main() {\n"
                                 "  vec2 p = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 4.0 - 1.0;\n"
                                 "  uv = (p + 1.0) * 0.5;\n"
                                 "  gl_Position = vec4(p, 0.0, 1.0);\n"
                                 "}\n"));
    glAttachShader(prog, compile(GL_FRAGMENT_SHADER,
                                 "#version 300 es\n"
                                 "#extension GL_OES_EGL_image_external_essl3 : require\n"
                                 "precision mediump float;\n"
                                 "uniform samplerExternalOES tex;\n"
                                 "in vec2 uv;\n"
                                 "out vec4 color;\n"
                                 "void main() { color = texture(tex, uv); }\n"));
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    std::printf("program linked: %d\n", linked);
    GLuint rb = 0, fb = 0, vao = 0;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 8, 8);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glViewport(0, 0, 8, 8);
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "tex"), 0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    gl_error("draw sampling the external texture");
    read_back("drawn from the external texture", fb, 8, 8);
    destroy_image(dpy, img);
    use(EGL_NO_CONTEXT);
    eglDestroyContext(dpy, c);
}

}  // namespace

int main() {
    if (!open_display()) return 1;
    desktop_images();
    es_external_texture();
    eglTerminate(dpy);
    return 0;
}
