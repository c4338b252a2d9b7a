// The probes' desktop GL context (tests/compat, tests/debug_output): EGL on the
// surfaceless platform, a config with EGL_OPENGL_BIT, made current without a
// surface, its renderer and version on stderr (the run scripts check that the
// stack's run reports MobileGL's renderer). The same code natively and through
// `mgl run`.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

#include <cstdio>

namespace probe {

// `attribs`: eglCreateContext's (nullptr: a legacy context, compatibility).
// False (with a line on stderr) when no context could be made current.
inline bool make_desktop_context(const EGLint* attribs) {
    auto get_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    EGLDisplay dpy = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                                 : eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (!eglInitialize(dpy, nullptr, nullptr)) return std::fprintf(stderr, "eglInitialize failed\n"), false;
    eglBindAPI(EGL_OPENGL_API);
    const EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1) return std::fprintf(stderr, "no config\n"), false;
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attribs);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
        return std::fprintf(stderr, "no context\n"), false;
    std::fprintf(stderr, "GL_RENDERER %s\nGL_VERSION %s\n", glGetString(GL_RENDERER), glGetString(GL_VERSION));
    return true;
}

}  // namespace probe
