// glx-probe: a small GLX program that exercises what unmodified GLX programs
// use (FBConfigs and visuals, legacy and attribute-list contexts, windows,
// GLXWindows and pbuffers, swap control, glXGetProcAddress) and prints one
// line per observation. tests/glx/run_glx_probe.sh runs it natively (Mesa's
// GLX under Xvfb) and through `mgl run`, and compares the lines that must be
// equal: pixels read back from each drawable, what the window shows after a
// swap, and which context requests succeed.
//
//   glx-probe            (DISPLAY must name an X server with GLX)
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

using CreateContextAttribs = GLXContext (*)(Display*, GLXFBConfig, GLXContext, Bool, const int*);
using SwapIntervalEXT = void (*)(Display*, GLXDrawable, int);

constexpr int W = 64, H = 48;

// "name value" lines, sorted by nothing: the order of the program is the order.
void line(const char* key, const std::string& value) { std::printf("%s %s\n", key, value.c_str()); }

std::string pixel_at(int x, int y) {
    unsigned char p[4] = {0, 0, 0, 0};
    glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
    char b[32];
    std::snprintf(b, sizeof b, "%02x%02x%02x%02x", p[0], p[1], p[2], p[3]);
    return b;
}

// Clears the drawable to a colour, a scissored rectangle to another, and
// reads both back.
std::string draw_and_read(float r, float g, float b) {
    glDisable(GL_SCISSOR_TEST);
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(8, 8, 16, 16);
    glClearColor(1.0f - r, 1.0f - g, 1.0f - b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    std::string out = pixel_at(2, 2) + " " + pixel_at(10, 10);
    GLenum e = glGetError();
    if (e) out += " glerror=" + std::to_string(e);
    return out;
}

// What the X window shows at (x, y) from the top-left, as RGB.
std::string window_pixel(Display* dpy, Window w, int x, int y) {
    XImage* img = XGetImage(dpy, w, x, y, 1, 1, AllPlanes, ZPixmap);
    if (!img) return "none";
    unsigned long p = XGetPixel(img, 0, 0);
    XDestroyImage(img);
    char b[32];
    std::snprintf(b, sizeof b, "%06lx", p & 0xffffff);
    return b;
}

Window make_window(Display* dpy, XVisualInfo* vi) {
    XSetWindowAttributes a{};
    a.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
    a.border_pixel = 0;
    Window w = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap | CWBorderPixel, &a);
    XMapWindow(dpy, w);
    XSync(dpy, False);
    return w;
}

}  // namespace

int main() {
    Display* dpy = XOpenDisplay(nullptr);
    if (!dpy) {
        std::fprintf(stderr, "glx-probe: no X display\n");
        return 2;
    }
    const int screen = DefaultScreen(dpy);
    const char* exts = glXQueryExtensionsString(dpy, screen);
    for (const char* e : {"GLX_ARB_create_context", "GLX_ARB_create_context_profile"})
        line("extension", std::string(e) + (std::strstr(exts, e) ? " yes" : " no"));

    // GLX 1.0: a visual, a legacy context, the window itself as drawable.
    int vattr[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                   GLX_DEPTH_SIZE, 16, None};
    XVisualInfo* vi = glXChooseVisual(dpy, screen, vattr);
    line("choose-visual", vi ? "yes" : "no");
    if (!vi) return 1;
    int v = 0;
    glXGetConfig(dpy, vi, GLX_DOUBLEBUFFER, &v);
    line("visual-doublebuffer", std::to_string(v));
    Window w1 = make_window(dpy, vi);
    GLXContext legacy = glXCreateContext(dpy, vi, nullptr, True);
    line("legacy-context", legacy ? "yes" : "no");
    if (!legacy || !glXMakeCurrent(dpy, w1, legacy)) return 1;
    std::fprintf(stderr, "GL_VENDOR %s\nGL_RENDERER %s\nGL_VERSION %s\n", glGetString(GL_VENDOR),
                 glGetString(GL_RENDERER), glGetString(GL_VERSION));
    line("legacy-pixels", draw_and_read(0.25f, 0.5f, 0.75f));
    // Three swaps of one picture: what the window shows is that picture
    // (present may be asynchronous, but never more than a frame behind).
    for (int i = 0; i < 3; ++i) {
        draw_and_read(0.25f, 0.5f, 0.75f);
        glXSwapBuffers(dpy, w1);
    }
    glFinish();
    XSync(dpy, False);
    line("window-shows", window_pixel(dpy, w1, 2, H - 3) + " " + window_pixel(dpy, w1, 10, H - 11));
    glXMakeCurrent(dpy, None, nullptr);
    glXDestroyContext(dpy, legacy);

    // GLX 1.3: FBConfigs, a GLXWindow, a pbuffer, a new-style context.
    int fattr[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT | GLX_PBUFFER_BIT, GLX_RENDER_TYPE,
                   GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, GLX_DEPTH_SIZE, 24,
                   GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig* cfgs = glXChooseFBConfig(dpy, screen, fattr, &n);
    line("choose-fbconfig", n > 0 ? "yes" : "no");
    if (n <= 0) return 1;
    GLXFBConfig cfg = cfgs[0];
    XFree(cfgs);
    int depth = 0;
    glXGetFBConfigAttrib(dpy, cfg, GLX_DEPTH_SIZE, &depth);
    line("fbconfig-depth>=24", depth >= 24 ? "yes" : "no");
    XVisualInfo* fvi = glXGetVisualFromFBConfig(dpy, cfg);
    line("fbconfig-visual", fvi ? "yes" : "no");
    if (!fvi) return 1;
    Window w2 = make_window(dpy, fvi);
    GLXWindow gw = glXCreateWindow(dpy, cfg, w2, nullptr);
    GLXContext ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, nullptr, True);
    line("new-context", ctx ? "yes" : "no");
    if (!ctx || !glXMakeContextCurrent(dpy, gw, gw, ctx)) return 1;
    line("glxwindow-pixels", draw_and_read(0.75f, 0.25f, 0.5f));
    unsigned int qw = 0;
    glXQueryDrawable(dpy, gw, GLX_WIDTH, &qw);
    line("glxwindow-width", std::to_string(qw));
    int pattr[] = {GLX_PBUFFER_WIDTH, 32, GLX_PBUFFER_HEIGHT, 32, None};
    GLXPbuffer pb = glXCreatePbuffer(dpy, cfg, pattr);
    line("pbuffer", pb ? "yes" : "no");
    if (pb && glXMakeContextCurrent(dpy, pb, pb, ctx)) line("pbuffer-pixels", draw_and_read(0.5f, 0.75f, 0.25f));
    glXMakeContextCurrent(dpy, None, None, nullptr);
    if (pb) glXDestroyPbuffer(dpy, pb);
    glXDestroyContext(dpy, ctx);

    // GLX_ARB_create_context: what a core-profile program asks for.
    auto create = reinterpret_cast<CreateContextAttribs>(
        glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXCreateContextAttribsARB")));
    line("create-context-attribs", create ? "yes" : "no");
    if (!create) return 1;
    struct Ask {
        const char* name;
        int major, minor, profile;
    } const asks[] = {{"core-3.3", 3, 3, GLX_CONTEXT_CORE_PROFILE_BIT_ARB},
                      {"compat-3.0", 3, 0, GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB},
                      {"core-3.2", 3, 2, GLX_CONTEXT_CORE_PROFILE_BIT_ARB}};
    for (const Ask& a : asks) {
        int attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, a.major, GLX_CONTEXT_MINOR_VERSION_ARB, a.minor,
                         GLX_CONTEXT_PROFILE_MASK_ARB, a.profile, None};
        GLXContext c = create(dpy, cfg, nullptr, True, attribs);
        line(a.name, c ? "yes" : "no");
        if (!c) continue;
        if (glXMakeContextCurrent(dpy, gw, gw, c)) {
            GLint major = 0, mask = 0;
            glGetIntegerv(GL_MAJOR_VERSION, &major);
            glGetIntegerv(0x9126 /* GL_CONTEXT_PROFILE_MASK */, &mask);
            line((std::string(a.name) + "-version>=").c_str(), major >= a.major ? "yes" : "no");
            line((std::string(a.name) + "-profile").c_str(), std::to_string(mask & a.profile ? 1 : 0));
            line((std::string(a.name) + "-pixels").c_str(), draw_and_read(0.125f, 0.375f, 0.625f));
            auto swap_interval = reinterpret_cast<SwapIntervalEXT>(
                glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXSwapIntervalEXT")));
            if (swap_interval) swap_interval(dpy, gw, 0);
            glXSwapBuffers(dpy, gw);
        }
        glXMakeContextCurrent(dpy, None, None, nullptr);
        glXDestroyContext(dpy, c);
    }
    glXDestroyWindow(dpy, gw);
    XFree(vi);
    XFree(fvi);
    XCloseDisplay(dpy);
    line("done", "yes");
    return 0;
}
