// Two real contexts on llvmpipe through EGL (surfaceless): the host's GLES
// 3.2, where the front end's ESSL runs, and native desktop GL 4.5 core, the
// reference it is compared with. GL calls go through glvnd's libGLESv2
// dispatch, which serves whichever context is current; desktop-only entry
// points come from eglGetProcAddress.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace glfe_test {

struct GlPair {
    EGLDisplay dpy = EGL_NO_DISPLAY;
    EGLContext es = EGL_NO_CONTEXT, desktop = EGL_NO_CONTEXT;
    std::string why;  // empty when both contexts exist
    void (*BindFragDataLocation)(GLuint, GLuint, const char*) = nullptr;

    static GlPair& get();  // one per process
    bool use_es();
    bool use_desktop();
};

// A program's sources and link-time bindings, set up and drawn the same way
// on both contexts: a full-window quad whose corners feed the attribute
// "position" (bound to location 0 unless the source placed it), into a
// 16x16 framebuffer with two RGBA8 colour attachments.
struct Case {
    std::vector<std::string> vs, fs;
    std::map<std::string, int> frag_bindings;  // glBindFragDataLocation
    std::function<void(GLuint program)> setup; // uniforms, textures (current program bound)
};

struct Image {
    bool ok = false;
    std::string log;                   // compile/link logs on failure
    std::vector<uint8_t> colour[2];    // RGBA8 of each attachment
};

constexpr int kSize = 16;

// Native: the desktop sources on desktop GL.
Image render_native(const Case& c);
// Ours: the sources through the front end, the ESSL on GLES 3.2.
Image render_translated(const Case& c);

// A 4x4 RGBA8 texture of distinct texels on unit 0 (both contexts alike).
void bind_test_texture(GLenum target = GL_TEXTURE_2D);

}  // namespace glfe_test
