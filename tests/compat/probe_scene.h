// What the compatibility probes (ff_probe.cc, glsl_probe.cc) share: a legacy
// (compatibility) desktop context on the surfaceless platform with an RGBA8 +
// depth framebuffer of its own, and a lit sphere drawn in immediate mode.
#pragma once

#include <GL/gl.h>
#include <GL/glext.h>

#include "../egl_probe_context.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace probe {

// False (with a line on stderr) when no context could be made current.
inline bool make_context_and_framebuffer(int w, int h) {
    if (!make_desktop_context(nullptr)) return false;  // legacy: compatibility
    GLuint fbo, rb[2];
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    glViewport(0, 0, w, h);
    return true;
}

inline void release_context() {
    EGLDisplay dpy = eglGetCurrentDisplay();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
}

// A sphere of quad strips with per-vertex normals.
inline void sphere(float r, int slices, int stacks) {
    for (int i = 0; i < stacks; ++i) {
        const float a0 = float(M_PI) * (float(i) / stacks - 0.5f), a1 = float(M_PI) * (float(i + 1) / stacks - 0.5f);
        glBegin(GL_QUAD_STRIP);
        for (int j = 0; j <= slices; ++j) {
            const float b = 2 * float(M_PI) * float(j) / slices;
            for (float a : {a1, a0}) {
                const float x = cosf(a) * cosf(b), y = sinf(a), z = cosf(a) * sinf(b);
                glNormal3f(x, y, z);
                glVertex3f(r * x, r * y, r * z);
            }
        }
        glEnd();
    }
}

}  // namespace probe
