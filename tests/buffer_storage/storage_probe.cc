// Buffers with immutable storage as an application uses them
// (GL_ARB_buffer_storage on a desktop GL 3.3 core context,
// GL_EXT_buffer_storage on an OpenGL ES 3 one): persistent coherent mappings
// written between draws with no call, persistent mappings flushed
// explicitly, a persistent read mapping filled by the GPU and read after a
// fence, a non-persistent write map, the storage queries and the errors GL
// fixes. tests/run_same_output.sh runs it natively (Mesa's llvmpipe) and
// through `mgl run`; every line of its output must be the same.
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace {

EGLDisplay dpy;
EGLConfig cfg;
void (*buffer_storage)(GLenum, GLsizeiptr, const void*, GLbitfield);

bool open_display() {
    auto get_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    dpy = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                      : eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (!eglInitialize(dpy, nullptr, nullptr)) return std::fprintf(stderr, "eglInitialize failed\n"), false;
    const EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT | EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE,
                               EGL_PBUFFER_BIT, EGL_NONE};
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1) return std::fprintf(stderr, "no config\n"), false;
    return true;
}

bool has_extension(const char* want) {
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i)
        if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), want) == 0) return true;
    return false;
}

void error(const char* what) { std::printf("  %s: error 0x%x\n", what, glGetError()); }

GLuint program(bool desktop) {
    const char* vs_desktop =
        "#version 330 core\nlayout(location=0) in vec2 p; layout(location=1) in vec4 c; out vec4 v;\n"
        "void main() { v = c; gl_Position = vec4(p, 0.0, 1.0); }\n";
    const char* fs_desktop = "#version 330 core\nin vec4 v; out vec4 o; void main() { o = v; }\n";
    const char* vs_es =
        "#version 300 es\nlayout(location=0) in vec2 p; layout(location=1) in vec4 c; out vec4 v;\n"
        "void main() { v = c; gl_Position = vec4(p, 0.0, 1.0); }\n";
    const char* fs_es = "#version 300 es\nprecision mediump float; in vec4 v; out vec4 o; void main() { o = v; }\n";
    GLuint prog = glCreateProgram();
    for (auto [type, src] : {std::pair{GL_VERTEX_SHADER, desktop ? vs_desktop : vs_es},
                             std::pair{GL_FRAGMENT_SHADER, desktop ? fs_desktop : fs_es}}) {
        GLuint s = glCreateShader(type);
        glShaderSource(s, 1, &src, nullptr);
        glCompileShader(s);
        glAttachShader(prog, s);
        glDeleteShader(s);
    }
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) std::fprintf(stderr, "link failed\n");
    return prog;
}

// A whole-viewport triangle of one colour: 3 vertices of (x, y, r, g, b, a).
void fill_triangle(float* v, float r, float g, float b) {
    const float pos[3][2] = {{-1.f, -1.f}, {3.f, -1.f}, {-1.f, 3.f}};
    for (int i = 0; i < 3; ++i) {
        float* o = v + i * 6;
        o[0] = pos[i][0], o[1] = pos[i][1], o[2] = r, o[3] = g, o[4] = b, o[5] = 1.f;
    }
}

void layout_vertices() {
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 24, nullptr);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 24, reinterpret_cast<void*>(8));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
}

void draw_and_read(const char* what) {
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    uint8_t px[4] = {};
    glReadPixels(2, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    std::printf("  %s: pixel %u %u %u %u, error 0x%x\n", what, px[0], px[1], px[2], px[3], glGetError());
}

void run(const char* label, EGLenum api) {
    eglBindAPI(api);
    const EGLint desktop_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint es_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    const bool desktop = api == EGL_OPENGL_API;
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, desktop ? desktop_attr : es_attr);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        std::printf("%s: no context\n", label);
        return;
    }
    std::fprintf(stderr, "GL_RENDERER %s\nGL_VERSION %s\n", glGetString(GL_RENDERER), glGetString(GL_VERSION));
    const char* ext = desktop ? "GL_ARB_buffer_storage" : "GL_EXT_buffer_storage";
    const bool listed = has_extension(ext);
    std::printf("%s: %s %s\n", label, ext, listed ? "listed" : "missing");
    buffer_storage = reinterpret_cast<decltype(buffer_storage)>(
        eglGetProcAddress(desktop ? "glBufferStorage" : "glBufferStorageEXT"));
    if (!listed || !buffer_storage) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        return;
    }

    GLuint tex, fbo, vao;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glViewport(0, 0, 4, 4);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    GLuint prog = program(desktop);
    glUseProgram(prog);

    // 1. Persistent and coherent: written between draws, no call in between.
    std::printf(" coherent:\n");
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    const GLbitfield coherent = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    buffer_storage(GL_ARRAY_BUFFER, 4096, nullptr, coherent);
    error("storage");
    GLint v = 0;
    glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_IMMUTABLE_STORAGE, &v);
    std::printf("  immutable %d", v);
    glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_STORAGE_FLAGS, &v);
    std::printf(", flags 0x%x", v);
    glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &v);
    std::printf(", size %d\n", v);
    auto* p = static_cast<float*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, 4096, coherent));
    error(p ? "map: a pointer" : "map: null");
    if (!p) return;
    void* q = nullptr;
    glGetBufferPointerv(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &q);
    glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED, &v);
    std::printf("  map pointer %s, mapped %d\n", q == p ? "the same" : "another", v);
    layout_vertices();
    fill_triangle(p, 1.f, 0.f, 0.f);
    draw_and_read("red written");
    fill_triangle(p, 0.f, 1.f, 0.f);
    draw_and_read("green written over it");
    // A fence, then a write for the next draw: the ring-buffer pattern.
    // Already signaled or satisfied within the wait: a driver's timing, both success.
    GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    const GLenum waited = glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    if (waited == GL_ALREADY_SIGNALED || waited == GL_CONDITION_SATISFIED) std::printf("  wait: signaled\n");
    else std::printf("  wait: 0x%x\n", waited);
    glDeleteSync(s);
    fill_triangle(p + 18, 0.f, 0.f, 1.f);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 24, reinterpret_cast<void*>(72));
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 24, reinterpret_cast<void*>(80));
    draw_and_read("blue at offset 72");
    // Errors of a mapped immutable store.
    glBufferSubData(GL_ARRAY_BUFFER, 0, 4, p);
    error("glBufferSubData without GL_DYNAMIC_STORAGE_BIT");
    buffer_storage(GL_ARRAY_BUFFER, 16, nullptr, 0);
    error("glBufferStorage again");
    glBufferData(GL_ARRAY_BUFFER, 16, nullptr, GL_STATIC_DRAW);
    error("glBufferData on immutable storage");
    glMapBufferRange(GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT);
    error("map while mapped");
    std::printf("  unmap: %d\n", glUnmapBuffer(GL_ARRAY_BUFFER));
    error("unmapped");

    // 2. Persistent, not coherent: explicit flushes.
    std::printf(" flushed:\n");
    GLuint vbo2;
    glGenBuffers(1, &vbo2);
    glBindBuffer(GL_ARRAY_BUFFER, vbo2);
    buffer_storage(GL_ARRAY_BUFFER, 1024, nullptr, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT);
    p = static_cast<float*>(
        glMapBufferRange(GL_ARRAY_BUFFER, 0, 1024, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_FLUSH_EXPLICIT_BIT));
    error(p ? "map: a pointer" : "map: null");
    if (!p) return;
    layout_vertices();
    fill_triangle(p, 1.f, 1.f, 0.f);
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 0, 72);
    error("flush");
    draw_and_read("yellow flushed");
    glMapBufferRange(GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT | GL_MAP_COHERENT_BIT | GL_MAP_PERSISTENT_BIT);
    error("map again");
    glUnmapBuffer(GL_ARRAY_BUFFER);
    p = static_cast<float*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT | GL_MAP_COHERENT_BIT |
                                                                         GL_MAP_PERSISTENT_BIT));
    error(p ? "coherent map of non-coherent storage: a pointer" : "coherent map of non-coherent storage: null");
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 0, 16);
    error("flush without a mapping");

    // 3. Persistent reads: the GPU copies into a mapped store, read after a fence.
    std::printf(" read back:\n");
    GLuint src, dst;
    glGenBuffers(1, &src);
    glGenBuffers(1, &dst);
    uint32_t words[8];
    for (int i = 0; i < 8; ++i) words[i] = 0x01020304u * uint32_t(i + 1);
    glBindBuffer(GL_COPY_READ_BUFFER, src);
    glBufferData(GL_COPY_READ_BUFFER, sizeof words, words, GL_STATIC_DRAW);
    glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
    const GLbitfield reading = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    buffer_storage(GL_COPY_WRITE_BUFFER, sizeof words, nullptr, reading);
    auto* r = static_cast<const uint32_t*>(glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, sizeof words, reading));
    error(r ? "map: a pointer" : "map: null");
    if (!r) return;
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, sizeof words);
    s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    glDeleteSync(s);
    std::printf("  words:");
    for (int i = 0; i < 8; ++i) std::printf(" %08x", r[i]);
    std::printf("\n");
    glUnmapBuffer(GL_COPY_WRITE_BUFFER);

    // 4. A plain write map of immutable storage, and GL_DYNAMIC_STORAGE_BIT.
    std::printf(" plain maps:\n");
    GLuint vbo3;
    glGenBuffers(1, &vbo3);
    glBindBuffer(GL_ARRAY_BUFFER, vbo3);
    buffer_storage(GL_ARRAY_BUFFER, 72, nullptr, GL_MAP_WRITE_BIT | GL_DYNAMIC_STORAGE_BIT);
    p = static_cast<float*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, 72, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT));
    if (p) fill_triangle(p, 0.f, 1.f, 1.f);
    std::printf("  unmap: %d\n", glUnmapBuffer(GL_ARRAY_BUFFER));
    layout_vertices();
    draw_and_read("cyan through a plain map");
    float magenta[18];
    fill_triangle(magenta, 1.f, 0.f, 1.f);
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof magenta, magenta);
    draw_and_read("magenta through glBufferSubData");
    glMapBufferRange(GL_ARRAY_BUFFER, 0, 72, GL_MAP_READ_BIT);
    error("read map of write-only storage");
    glMapBufferRange(GL_ARRAY_BUFFER, 0, 72, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT);
    error("persistent map of non-persistent storage");
    GLuint vbo4;
    glGenBuffers(1, &vbo4);
    glBindBuffer(GL_ARRAY_BUFFER, vbo4);
    glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_DYNAMIC_DRAW);
    glMapBufferRange(GL_ARRAY_BUFFER, 0, 64, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT);
    error("persistent map of mutable storage");
    buffer_storage(GL_ARRAY_BUFFER, 0, nullptr, GL_MAP_WRITE_BIT);
    error("glBufferStorage of size 0");
    if (desktop) {
        // A refused read leaves the application's memory as it was.
        auto get_sub_data = reinterpret_cast<PFNGLGETBUFFERSUBDATAPROC>(eglGetProcAddress("glGetBufferSubData"));
        uint8_t out[8];
        std::memset(out, 0xAB, sizeof out);
        get_sub_data(GL_ARRAY_BUFFER, 60, 8, out);  // past vbo4's 64 bytes
        const GLenum e = glGetError();
        std::printf("  glGetBufferSubData past the store: error 0x%x, bytes %02x %02x\n", e, out[0], out[7]);
    }

    // 5. A buffer deleted while mapped persistently.
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glMapBufferRange(GL_ARRAY_BUFFER, 0, 64, coherent);
    GLuint doomed[] = {vbo, vbo2, vbo3, vbo4, src, dst};
    glDeleteBuffers(6, doomed);
    error("deleted while mapped");
    glDeleteProgram(prog);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    glDeleteVertexArrays(1, &vao);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
}

}  // namespace

// --desktop-only: the ES half is left out (Magma's ES contexts are 3.0,
// below GL_EXT_buffer_storage's 3.1).
int main(int argc, char** argv) {
    if (!open_display()) return 1;
    run("OpenGL 3.3 core", EGL_OPENGL_API);
    if (argc < 2 || std::strcmp(argv[1], "--desktop-only") != 0) run("OpenGL ES 3", EGL_OPENGL_ES_API);
    eglTerminate(dpy);
    return 0;
}
