// OpenGL ES 1.1 scenes (EGL_CONTEXT_CLIENT_VERSION 1, a pbuffer on the
// surfaceless platform), each read back and printed as a hash of its pixels,
// plus lines of query results and GL errors. run_ff_probe.sh runs it natively
// (Mesa's own ES 1.1 on llvmpipe) and through `mgl run`: every line must be
// the same. It uses ES 1.1's own verbs: fixed-point (`x`) and single-precision
// (`f`) forms, GL_FIXED and GL_BYTE arrays, paletted textures.
#include "scene_report.h"
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES/gl.h>
#include <GLES/glext.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int W = 160, H = 120;
constexpr GLfixed X1 = 1 << 16;  // 1.0 in fixed point

bool make_context() {
    auto get_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    EGLDisplay dpy = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                                 : eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (!eglInitialize(dpy, nullptr, nullptr)) return std::fprintf(stderr, "eglInitialize failed\n"), false;
    eglBindAPI(EGL_OPENGL_ES_API);
    const EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                               EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                               EGL_DEPTH_SIZE, 16, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1) return std::fprintf(stderr, "no config\n"), false;
    const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    const EGLint pb_attr[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    EGLSurface pb = eglCreatePbufferSurface(dpy, cfg, pb_attr);
    if (ctx == EGL_NO_CONTEXT || pb == EGL_NO_SURFACE || !eglMakeCurrent(dpy, pb, pb, ctx))
        return std::fprintf(stderr, "no ES 1.1 context (0x%x)\n", eglGetError()), false;
    std::fprintf(stderr, "GL_RENDERER %s\nGL_VERSION %s\n", glGetString(GL_RENDERER), glGetString(GL_VERSION));
    return true;
}

void report(const char* scene) {
    std::vector<uint8_t> px(size_t(W) * H * 4);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    probe::print_scene(scene, px, glGetError());
}

void reset() {
    glClearColorx(0, 0, 0, X1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glDisableClientState(GL_COLOR_ARRAY);
    glDisableClientState(GL_NORMAL_ARRAY);
    glDisableClientState(GL_TEXTURE_COORD_ARRAY);
    glColor4x(X1, X1, X1, X1);
}

// A sphere as triangle strips of float positions and normals (ES 1.1 has no glBegin).
void sphere(float r, int slices, int stacks) {
    std::vector<GLfloat> v, nrm;
    for (int i = 0; i < stacks; ++i) {
        v.clear(), nrm.clear();
        const float a0 = float(M_PI) * (float(i) / stacks - 0.5f), a1 = float(M_PI) * (float(i + 1) / stacks - 0.5f);
        for (int j = 0; j <= slices; ++j) {
            const float b = 2 * float(M_PI) * float(j) / slices;
            for (float a : {a1, a0}) {
                const float x = cosf(a) * cosf(b), y = sinf(a), z = cosf(a) * sinf(b);
                nrm.insert(nrm.end(), {x, y, z});
                v.insert(v.end(), {r * x, r * y, r * z});
            }
        }
        glEnableClientState(GL_VERTEX_ARRAY);
        glEnableClientState(GL_NORMAL_ARRAY);
        glVertexPointer(3, GL_FLOAT, 0, v.data());
        glNormalPointer(GL_FLOAT, 0, nrm.data());
        glDrawArrays(GL_TRIANGLE_STRIP, 0, GLsizei(v.size() / 3));
    }
    glDisableClientState(GL_NORMAL_ARRAY);
}

}  // namespace

int main() {
    if (!make_context()) return 1;
    glViewport(0, 0, W, H);
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    std::printf("version-prefix %.16s\n", version ? version : "(null)");
    const char* ext = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
    for (const char* e : {"GL_OES_fixed_point", "GL_OES_single_precision", "GL_OES_compressed_paletted_texture",
                          "GL_OES_byte_coordinates", "GL_OES_point_sprite", "GL_OES_framebuffer_object"})
        std::printf("extension-%s %d\n", e, ext && std::strstr(ext, e) ? 1 : 0);

    // 1. GL_FIXED positions, GL_UNSIGNED_BYTE colours, glOrthox
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrthox(-X1, X1, -X1, X1, -X1, X1);
    glMatrixMode(GL_MODELVIEW);
    const GLfixed tri[] = {-58982, -58982, 58982, -52429, 6554, 58982, -30000, 40000, 20000, 50000, -50000, -10000};
    const GLubyte col[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 255, 0, 255, 255, 255, 255, 0, 255, 255};
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(2, GL_FIXED, 0, tri);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    report("fixed-arrays");

    // 2. GL_BYTE coordinates, glFrustumf, glTranslatex/glRotatex/glScalex, depth test, flat shading
    reset();
    glMatrixMode(GL_PROJECTION);
    glFrustumf(-1, 1, -0.75f, 0.75f, 1, 10);
    glMatrixMode(GL_MODELVIEW);
    glTranslatex(0, 0, -4 * X1);
    glRotatex(30 * X1, X1, X1, 0);
    glScalex(X1 / 2, X1 / 2, X1 / 2);
    glEnable(GL_DEPTH_TEST);
    glShadeModel(GL_FLAT);
    const GLbyte cube[] = {-2, -2, 2, 2, -2, 2, -2, 2, 2, 2, 2, 2, -2, 2, -2, 2, 2, -2, -2, -2, -2, 2, -2, -2};
    const GLubyte cube_col[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 255,
                                255, 0, 255, 255, 0, 255, 255, 255, 128, 128, 128, 255, 255, 255, 255, 255};
    const GLubyte strip[] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1};
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(3, GL_BYTE, 0, cube);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, cube_col);
    glDrawElements(GL_TRIANGLE_STRIP, 10, GL_UNSIGNED_BYTE, strip);
    glDisable(GL_DEPTH_TEST);
    glShadeModel(GL_SMOOTH);
    report("byte-coords-frustum");

    // 3. lighting through the fixed-point verbs (glLightModelx's boolean passes unscaled)
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrthof(-1.3f, 1.3f, -1, 1, -2, 2);
    glMatrixMode(GL_MODELVIEW);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    const GLfixed pos[] = {X1, X1, 2 * X1, 0};
    const GLfixed diffuse[] = {X1, 52429, 26214, X1};
    const GLfixed ambient[] = {6554, 6554, 13107, X1};
    glLightxv(GL_LIGHT0, GL_POSITION, pos);
    glLightxv(GL_LIGHT0, GL_DIFFUSE, diffuse);
    glLightModelxv(GL_LIGHT_MODEL_AMBIENT, ambient);
    glLightModelx(GL_LIGHT_MODEL_TWO_SIDE, GL_TRUE);
    const GLfixed spec[] = {X1, X1, X1, X1};
    glMaterialxv(GL_FRONT_AND_BACK, GL_SPECULAR, spec);
    glMaterialx(GL_FRONT_AND_BACK, GL_SHININESS, 20 * X1);
    sphere(0.9f, 24, 16);
    glDisable(GL_LIGHTING);
    report("lit-sphere-fixed");

    // 4. linear fog set with glFogx (GL_FOG_MODE's enum passes unscaled)
    reset();
    glMatrixMode(GL_PROJECTION);
    glFrustumx(-X1, X1, -X1 * 3 / 4, X1 * 3 / 4, X1, 10 * X1);
    glMatrixMode(GL_MODELVIEW);
    glEnable(GL_FOG);
    glFogx(GL_FOG_MODE, GL_LINEAR);
    glFogx(GL_FOG_START, 2 * X1);
    glFogx(GL_FOG_END, 6 * X1);
    const GLfixed fog_col[] = {X1 / 2, X1 / 2, X1, X1};
    glFogxv(GL_FOG_COLOR, fog_col);
    glColor4x(X1, X1 / 4, 0, X1);
    for (int i = 0; i < 4; ++i) {
        glPushMatrix();
        glTranslatef(-1.2f + 0.8f * float(i), 0, -2 - 1.3f * float(i));
        sphere(0.45f, 16, 10);
        glPopMatrix();
    }
    glDisable(GL_FOG);
    report("fog-fixed");

    // 5. a paletted texture with its mip chain in one call, GL_SHORT texture
    //    coordinates, glTexParameterx / glTexEnvx with enum values
    reset();
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    std::vector<uint8_t> pal;
    for (int i = 0; i < 16; ++i) pal.insert(pal.end(), {uint8_t(i * 17), uint8_t(255 - i * 15), uint8_t((i * 53) & 255)});
    for (int l = 0, s = 8; l < 4; ++l, s /= 2)
        for (int i = 0; i < (s * s + 1) / 2; ++i) pal.push_back(uint8_t(((i + l) * 37) & 255));
    glCompressedTexImage2D(GL_TEXTURE_2D, -3, GL_PALETTE4_RGB8_OES, 8, 8, 0, GLsizei(pal.size()), pal.data());
    std::printf("paletted-upload error=0x%x\n", glGetError());
    glTexParameterx(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameterx(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexEnvx(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
    glEnable(GL_TEXTURE_2D);
    const GLshort quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    const GLshort uv[] = {0, 0, 3, 0, 0, 2, 3, 2};
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glVertexPointer(2, GL_SHORT, 0, quad);
    glTexCoordPointer(2, GL_SHORT, 0, uv);
    glColor4x(X1, X1 * 3 / 4, X1, X1);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glScalex(X1 / 3, X1 / 3, X1);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);  // a smaller level
    glDisable(GL_TEXTURE_2D);
    report("paletted-texture");

    // 6. alpha test and blending with fixed-point references, a user clip plane
    reset();
    glEnable(GL_ALPHA_TEST);
    glAlphaFuncx(GL_GREATER, X1 / 2);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    const GLfloat plane[] = {1, 0.5f, 0, 0.2f};
    glClipPlanef(GL_CLIP_PLANE0, plane);
    glEnable(GL_CLIP_PLANE0);
    const GLfloat fan[] = {0, 0, -1, -1, 1, -1, 1, 1, -1, 1, -1, -1};
    const GLfloat fan_col[] = {1, 1, 1, 1, 1, 0, 0, 0.2f, 0, 1, 0, 0.9f, 0, 0, 1, 0.6f, 1, 1, 0, 1, 1, 0, 0, 0.2f};
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, fan);
    glColorPointer(4, GL_FLOAT, 0, fan_col);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
    glDisable(GL_CLIP_PLANE0);
    glDisable(GL_BLEND);
    glDisable(GL_ALPHA_TEST);
    report("alpha-blend-clip");

    // 7. point sprites: a texture across each point (GL_OES_point_sprite), GL_FIXED point size
    reset();
    GLuint checker;
    glGenTextures(1, &checker);
    glBindTexture(GL_TEXTURE_2D, checker);
    GLubyte cells[4 * 4 * 4];
    for (int i = 0; i < 16; ++i) {
        const bool on = ((i % 4) + (i / 4)) % 2 == 0;
        cells[4 * i] = on ? 255 : 30, cells[4 * i + 1] = on ? 200 : 60, cells[4 * i + 2] = GLubyte(i * 15), cells[4 * i + 3] = 255;
    }
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, cells);
    glTexParameterx(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameterx(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glEnable(GL_POINT_SPRITE_OES);
    glTexEnvx(GL_POINT_SPRITE_OES, GL_COORD_REPLACE_OES, GL_TRUE);
    glPointSizex(24 * X1);
    const GLfloat points[] = {-0.6f, -0.4f, 0.1f, 0.3f, 0.7f, -0.5f};
    glVertexPointer(2, GL_FLOAT, 0, points);
    glDrawArrays(GL_POINTS, 0, 3);
    glTexEnvx(GL_POINT_SPRITE_OES, GL_COORD_REPLACE_OES, GL_FALSE);  // the point's one texture coordinate again
    glTranslatef(0.1f, 0.5f, 0);
    glDrawArrays(GL_POINTS, 0, 3);
    GLint replace = -1;
    glGetTexEnviv(GL_POINT_SPRITE_OES, GL_COORD_REPLACE_OES, &replace);
    glDisable(GL_POINT_SPRITE_OES);
    glDisable(GL_TEXTURE_2D);
    glPointSizex(X1);
    std::printf("coord-replace %d\n", replace);
    report("point-sprites");

    // points sized by distance attenuation and clamped, set in fixed point
    reset();
    glMatrixMode(GL_PROJECTION);
    glFrustumf(-1, 1, -0.75f, 0.75f, 1, 20);
    glMatrixMode(GL_MODELVIEW);
    const GLfixed atten[3] = {0, 0, X1 / 20};
    glPointParameterxv(GL_POINT_DISTANCE_ATTENUATION, atten);
    glPointParameterx(GL_POINT_SIZE_MAX, 20 * X1);
    glPointSizex(12 * X1);
    const GLfloat far_points[] = {-1, 0, -2, -0.4f, 0.2f, -4, 0.3f, -0.2f, -7, 1, 0.3f, -11};
    glVertexPointer(3, GL_FLOAT, 0, far_points);
    glColor4x(X1, X1 / 2, 0, X1);
    glDrawArrays(GL_POINTS, 0, 4);
    GLfixed got_max = 0;
    glGetFixedv(GL_POINT_SIZE_MAX, &got_max);
    std::printf("point-size-max-fixed %d\n", got_max);
    const GLfixed no_atten[3] = {X1, 0, 0};
    glPointParameterxv(GL_POINT_DISTANCE_ATTENUATION, no_atten);
    glPointSizex(X1);
    report("point-attenuation");

    // 8. a framebuffer object through GL_OES_framebuffer_object's entry points
    {
        auto gen_fb = reinterpret_cast<PFNGLGENFRAMEBUFFERSOESPROC>(eglGetProcAddress("glGenFramebuffersOES"));
        auto bind_fb = reinterpret_cast<PFNGLBINDFRAMEBUFFEROESPROC>(eglGetProcAddress("glBindFramebufferOES"));
        auto gen_rb = reinterpret_cast<PFNGLGENRENDERBUFFERSOESPROC>(eglGetProcAddress("glGenRenderbuffersOES"));
        auto bind_rb = reinterpret_cast<PFNGLBINDRENDERBUFFEROESPROC>(eglGetProcAddress("glBindRenderbufferOES"));
        auto storage = reinterpret_cast<PFNGLRENDERBUFFERSTORAGEOESPROC>(eglGetProcAddress("glRenderbufferStorageOES"));
        auto attach = reinterpret_cast<PFNGLFRAMEBUFFERRENDERBUFFEROESPROC>(eglGetProcAddress("glFramebufferRenderbufferOES"));
        auto status = reinterpret_cast<PFNGLCHECKFRAMEBUFFERSTATUSOESPROC>(eglGetProcAddress("glCheckFramebufferStatusOES"));
        if (gen_fb && bind_fb && gen_rb && bind_rb && storage && attach && status) {
            GLuint fb, rb;
            gen_fb(1, &fb);
            gen_rb(1, &rb);
            bind_rb(GL_RENDERBUFFER_OES, rb);
            storage(GL_RENDERBUFFER_OES, GL_RGBA8_OES, W, H);
            bind_fb(GL_FRAMEBUFFER_OES, fb);
            attach(GL_FRAMEBUFFER_OES, GL_COLOR_ATTACHMENT0_OES, GL_RENDERBUFFER_OES, rb);
            std::printf("oes-fbo-status 0x%x\n", status(GL_FRAMEBUFFER_OES));
            reset();
            glColor4x(0, X1, X1 / 2, X1);
            glVertexPointer(2, GL_FIXED, 0, tri);
            glDrawArrays(GL_TRIANGLES, 0, 3);
            report("oes-fbo");
            bind_fb(GL_FRAMEBUFFER_OES, 0);
        } else {
            std::printf("oes-fbo-status missing entry points\n");
        }
    }

    // 9. queries through the fixed-point and single-precision getters
    reset();
    glRotatex(90 * X1, 0, 0, X1);
    glTranslatex(X1 / 2, 0, 0);
    GLfixed m[16];
    glGetFixedv(GL_MODELVIEW_MATRIX, m);
    std::printf("modelview-fixed");
    for (GLfixed v : m) std::printf(" %d", v >= -2 && v <= 2 ? 0 : v);  // cos(90) is not exactly 0
    std::printf("\n");
    GLfixed light[4];
    glGetLightxv(GL_LIGHT0, GL_DIFFUSE, light);
    GLfloat eq[4];
    glGetClipPlanef(GL_CLIP_PLANE0, eq);
    GLfixed line;
    glGetFixedv(GL_LINE_WIDTH, &line);
    std::printf("light-fixed %d %d %d %d clip %.3f %.3f %.3f %.3f line %d error=0x%x\n", light[0], light[1], light[2],
                light[3], eq[0], eq[1], eq[2], eq[3], line, glGetError());
    // glGetFixedv scales enums and booleans too; glGetTexEnvxv passes an enum unscaled
    GLfixed fog_mode, two_side, matrix_mode, env_mode;
    glFogx(GL_FOG_MODE, GL_EXP2);
    glGetFixedv(GL_FOG_MODE, &fog_mode);
    glGetFixedv(GL_LIGHT_MODEL_TWO_SIDE, &two_side);
    glGetFixedv(GL_MATRIX_MODE, &matrix_mode);
    glGetTexEnvxv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, &env_mode);
    std::printf("enum-queries fog=%d two-side=%d matrix-mode=%d env-mode=%d error=0x%x\n", fog_mode, two_side,
                matrix_mode, env_mode, glGetError());

    // 10. ES 1.1's texture-image rules
    GLuint t2;
    glGenTextures(1, &t2);
    glBindTexture(GL_TEXTURE_2D, t2);
    const uint8_t px[16] = {};
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8_OES, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    const GLenum e_sized = glGetError();
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    const GLenum e_mismatch = glGetError();
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_SHORT_5_6_5, px);
    const GLenum e_packed = glGetError();
    glTexImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE, 2, 2, 0, GL_LUMINANCE, GL_UNSIGNED_BYTE, px);
    const GLenum e_ok = glGetError();
    std::printf("teximage-errors sized=0x%x mismatch=0x%x packed=0x%x ok=0x%x\n", e_sized, e_mismatch, e_packed, e_ok);
    return 0;
}
