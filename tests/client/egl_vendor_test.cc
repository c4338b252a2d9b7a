// The vendor library through libglvnd's libEGL, as an unmodified program
// sees it. Run twice by meson with __EGL_VENDOR_LIBRARY_FILENAMES naming
//   - the real libEGL_mobilegl.so ("real vendor" cases), and
//   - libEGL_mobilegl_test.so, the same library with its sessions going to
//     a fake server in the process ("test vendor" cases).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

bool has(const char* list, const char* word) {
    if (!list) return false;
    const size_t n = std::strlen(word);
    for (const char* p = list; (p = std::strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
    return false;
}

template <class T>
T proc(const char* name) {
    return reinterpret_cast<T>(eglGetProcAddress(name));
}

// The test vendor's inspection functions (dlsym in the already-loaded library).
int count_op(uint16_t op) {
    auto fn = reinterpret_cast<int (*)(uint16_t)>(dlsym(RTLD_DEFAULT, "mgl_test_count_op"));
    if (!fn) {
        void* h = dlopen(std::getenv("MGL_TEST_VENDOR_LIB"), RTLD_NOW | RTLD_NOLOAD);
        if (h) fn = reinterpret_cast<int (*)(uint16_t)>(dlsym(h, "mgl_test_count_op"));
    }
    return fn ? fn(op) : -2;
}

EGLDisplay surfaceless() {
    auto getPlatformDisplay = proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    REQUIRE(bool(getPlatformDisplay));
    EGLDisplay d = getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    REQUIRE(d != EGL_NO_DISPLAY);
    EGLint major = 0, minor = 0;
    REQUIRE(eglInitialize(d, &major, &minor));
    CHECK(major == 1);
    CHECK(minor == 5);
    return d;
}

EGLConfig choose(EGLDisplay d, EGLint surface_type) {
    const EGLint attribs[] = {EGL_SURFACE_TYPE, surface_type, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                              EGL_RED_SIZE, 8, EGL_DEPTH_SIZE, 1, EGL_NONE};
    EGLConfig c = nullptr;
    EGLint n = 0;
    REQUIRE(eglChooseConfig(d, attribs, &c, 1, &n));
    REQUIRE(n == 1);
    return c;
}

}  // namespace

TEST_CASE("real vendor: glvnd loads libEGL_mobilegl.so") {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    REQUIRE(client);
    CHECK(has(client, "EGL_MESA_platform_surfaceless"));
    CHECK(has(client, "EGL_EXT_platform_base"));
    CHECK(has(client, "EGL_EXT_device_enumeration"));
    EGLDisplay d = surfaceless();
    CHECK(std::string(eglQueryString(d, EGL_VENDOR)) == "MobileGL");
    const char* ext = eglQueryString(d, EGL_EXTENSIONS);
    for (const char* e : {"EGL_KHR_get_all_proc_addresses", "EGL_KHR_fence_sync", "EGL_KHR_wait_sync",
                          "EGL_KHR_surfaceless_context", "EGL_KHR_create_context", "EGL_KHR_no_config_context"})
        CHECK_MESSAGE(has(ext, e), e);
    EGLint n = 0;
    REQUIRE(eglGetConfigs(d, nullptr, 0, &n));
    CHECK(n >= 6);
    EGLConfig c = choose(d, EGL_PBUFFER_BIT);
    EGLint v = 0;
    CHECK(eglGetConfigAttrib(d, c, EGL_DEPTH_SIZE, &v));
    CHECK(v == 24);
    CHECK(eglGetConfigAttrib(d, c, EGL_RED_SIZE, &v));
    CHECK(v == 8);
    const EGLint pb[] = {EGL_WIDTH, 32, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface s = eglCreatePbufferSurface(d, c, pb);
    REQUIRE(s != EGL_NO_SURFACE);
    CHECK(eglQuerySurface(d, s, EGL_WIDTH, &v));
    CHECK(v == 32);
    CHECK(eglDestroySurface(d, s));
    // OpenGL ES versions that do not exist are EGL_BAD_MATCH before any
    // server is asked (ES 1.0/1.1, 2.0 and 3.0-3.2 are served: the ES 1.1
    // contexts' own checks are tests/compat/es1_probe.cc's).
    eglBindAPI(EGL_OPENGL_ES_API);
    const EGLint es12[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
    CHECK(eglCreateContext(d, c, EGL_NO_CONTEXT, es12) == EGL_NO_CONTEXT);
    CHECK(eglGetError() == EGL_BAD_MATCH);
    const EGLint es4[] = {EGL_CONTEXT_CLIENT_VERSION, 4, EGL_NONE};
    CHECK(eglCreateContext(d, c, EGL_NO_CONTEXT, es4) == EGL_NO_CONTEXT);
    CHECK(eglGetError() == EGL_BAD_MATCH);
    // Devices (EGL_EXT_device_enumeration) for eglretrace/waffle.
    auto queryDevices = proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    auto queryDeviceString = proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    REQUIRE(bool(queryDevices));
    REQUIRE(bool(queryDeviceString));
    EGLDeviceEXT dev = nullptr;
    EGLint ndev = 0;
    REQUIRE(queryDevices(1, &dev, &ndev));
    CHECK(ndev == 1);
    CHECK(has(queryDeviceString(dev, EGL_EXTENSIONS), "EGL_MESA_device_software"));
    auto getPlatformDisplay = proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    EGLDisplay dd = getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, nullptr);
    CHECK(dd != EGL_NO_DISPLAY);
    CHECK(eglInitialize(dd, nullptr, nullptr));
    CHECK(eglTerminate(dd));
    CHECK(eglTerminate(d));
}

TEST_CASE("test vendor: a context renders through libEGL and libGLdispatch into our entry points") {
    EGLDisplay d = surfaceless();
    EGLConfig c = choose(d, EGL_PBUFFER_BIT);
    REQUIRE(eglBindAPI(EGL_OPENGL_ES_API));
    const EGLint pb[] = {EGL_WIDTH, 64, EGL_HEIGHT, 48, EGL_NONE};
    EGLSurface s = eglCreatePbufferSurface(d, c, pb);
    REQUIRE(s != EGL_NO_SURFACE);
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
    EGLContext ctx = eglCreateContext(d, c, EGL_NO_CONTEXT, attribs);
    REQUIRE(ctx != EGL_NO_CONTEXT);
    EGLint v = 0;
    CHECK(eglQueryContext(d, ctx, EGL_CONTEXT_CLIENT_VERSION, &v));
    CHECK(v == 3);
    REQUIRE(eglMakeCurrent(d, s, s, ctx));
    CHECK(eglGetCurrentContext() == ctx);

    auto drawArrays = proc<PFNGLDRAWARRAYSPROC>("glDrawArrays");
    auto getString = proc<PFNGLGETSTRINGPROC>("glGetString");
    auto getIntegerv = proc<PFNGLGETINTEGERVPROC>("glGetIntegerv");
    auto genBuffers = proc<PFNGLGENBUFFERSPROC>("glGenBuffers");
    REQUIRE(bool(drawArrays));
    REQUIRE(bool(getString));
    const std::string version = reinterpret_cast<const char*>(getString(GL_VERSION));
    CHECK(version.rfind("OpenGL ES 3.2 MobileGL", 0) == 0);
    GLint vp[4] = {};
    getIntegerv(GL_VIEWPORT, vp);
    CHECK(vp[2] == 64);
    CHECK(vp[3] == 48);
    GLuint b[2] = {};
    genBuffers(2, b);
    CHECK(b[0] == 1);
    const int before = count_op(784);
    drawArrays(GL_TRIANGLES, 0, 3);
    CHECK(eglSwapBuffers(d, s));  // publishes the frame
    CHECK(count_op(784) == before + 1);
    CHECK(count_op(9) >= 1);  // mglSwapBuffers
    CHECK(count_op(5) == 1);  // mglCreateSurface, sent once at the first make-current

    // Fences map to glFenceSync / glClientWaitSync on the wire.
    auto createSync = proc<PFNEGLCREATESYNCKHRPROC>("eglCreateSyncKHR");
    auto clientWait = proc<PFNEGLCLIENTWAITSYNCKHRPROC>("eglClientWaitSyncKHR");
    auto destroySync = proc<PFNEGLDESTROYSYNCKHRPROC>("eglDestroySyncKHR");
    REQUIRE(bool(createSync));
    REQUIRE(bool(clientWait));
    EGLSyncKHR sync = createSync(d, EGL_SYNC_FENCE_KHR, nullptr);
    REQUIRE(sync != EGL_NO_SYNC_KHR);
    CHECK(clientWait(d, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR) == EGL_CONDITION_SATISFIED_KHR);
    CHECK(destroySync(d, sync));
    CHECK(count_op(925) == 1);  // glFenceSync
    CHECK(count_op(469) == 1);  // glClientWaitSync

    // Surfaceless (EGL_KHR_surfaceless_context), then release.
    CHECK(eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    CHECK(eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
    CHECK(eglDestroyContext(d, ctx));
    CHECK(eglDestroySurface(d, s));
    CHECK(eglTerminate(d));
}

TEST_CASE("test vendor: an X11 window gets the frame at swap (needs DISPLAY)") {
    ::Display* x = std::getenv("DISPLAY") ? XOpenDisplay(nullptr) : nullptr;
    if (!x) {
        // The egl-vendor-x11 test runs this under xvfb-run: there it must not skip.
        REQUIRE_MESSAGE(!std::getenv("MGL_TEST_REQUIRE_X"), "no X server");
        MESSAGE("no X server: skipped");
        return;
    }
    const Window win = XCreateSimpleWindow(x, DefaultRootWindow(x), 0, 0, 40, 30, 0, 0, 0);
    XMapWindow(x, win);
    XSync(x, False);
    EGLDisplay d = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(x));
    REQUIRE(d != EGL_NO_DISPLAY);
    REQUIRE(eglInitialize(d, nullptr, nullptr));
    EGLConfig c = choose(d, EGL_WINDOW_BIT);
    EGLint vid = 0;
    CHECK(eglGetConfigAttrib(d, c, EGL_NATIVE_VISUAL_ID, &vid));
    CHECK(VisualID(vid) == XVisualIDFromVisual(DefaultVisual(x, DefaultScreen(x))));
    EGLSurface s = eglCreateWindowSurface(d, c, static_cast<EGLNativeWindowType>(win), nullptr);
    REQUIRE(s != EGL_NO_SURFACE);
    EGLint w = 0;
    CHECK(eglQuerySurface(d, s, EGL_WIDTH, &w));
    CHECK(w == 40);
    const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(d, c, EGL_NO_CONTEXT, attribs);
    REQUIRE(ctx != EGL_NO_CONTEXT);
    REQUIRE(eglMakeCurrent(d, s, s, ctx));
    const int reads_before = count_op(10);  // mglReadSurface
    CHECK(eglSwapBuffers(d, s));
    // Present is asynchronous: frame 1's pixels were asked for without
    // waiting and go into the window at the next swap.
    CHECK(count_op(10) == reads_before + 1);
    CHECK(eglSwapBuffers(d, s));
    XSync(x, False);
    // The fake server's frame: byte k of the bottom-up RGBA image is k*7.
    XImage* img = XGetImage(x, win, 0, 0, 40, 30, AllPlanes, ZPixmap);
    REQUIRE(img);
    const unsigned long px = XGetPixel(img, 0, 29);  // bottom-left = first pixel read back
    CHECK(((px >> 16) & 0xFF) == 0);
    CHECK(((px >> 8) & 0xFF) == 7);
    CHECK((px & 0xFF) == 14);
    XDestroyImage(img);
    // A resize is seen at the next swap.
    XResizeWindow(x, win, 50, 20);
    XSync(x, False);
    CHECK(eglSwapBuffers(d, s));
    CHECK(eglQuerySurface(d, s, EGL_WIDTH, &w));
    CHECK(w == 50);
    CHECK(count_op(6) == 1);  // mglResizeSurface
    eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(d, ctx);
    eglDestroySurface(d, s);
    eglTerminate(d);
    XDestroyWindow(x, win);
    XCloseDisplay(x);
}

TEST_CASE("test vendor: desktop OpenGL contexts (eglBindAPI(EGL_OPENGL_API), EGL_KHR_create_context)") {
    EGLDisplay d = surfaceless();
    CHECK(has(eglQueryString(d, EGL_CLIENT_APIS), "OpenGL"));
    CHECK(has(eglQueryString(d, EGL_CLIENT_APIS), "OpenGL_ES"));
    const EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_CONFORMANT,
                           EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig c = nullptr;
    EGLint n = 0;
    REQUIRE(eglChooseConfig(d, want, &c, 1, &n));
    REQUIRE(n == 1);
    const EGLint pb[] = {EGL_WIDTH, 32, EGL_HEIGHT, 32, EGL_NONE};
    EGLSurface s = eglCreatePbufferSurface(d, c, pb);
    REQUIRE(s != EGL_NO_SURFACE);

    REQUIRE(eglBindAPI(EGL_OPENGL_API));
    CHECK(eglQueryAPI() == EGL_OPENGL_API);
    // Above what the server serves (the fake server serves 3.3, as Espryt on GLES 3.2): EGL_BAD_MATCH.
    const EGLint gl45[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_NONE};
    CHECK(eglCreateContext(d, c, EGL_NO_CONTEXT, gl45) == EGL_NO_CONTEXT);
    CHECK(eglGetError() == EGL_BAD_MATCH);
    const EGLint gl37[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 7, EGL_NONE};
    CHECK(eglCreateContext(d, c, EGL_NO_CONTEXT, gl37) == EGL_NO_CONTEXT);
    CHECK(eglGetError() == EGL_BAD_MATCH);

    const EGLint core33[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                             EGL_CONTEXT_FLAGS_KHR, EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR, EGL_NONE};
    EGLContext core = eglCreateContext(d, c, EGL_NO_CONTEXT, core33);
    REQUIRE(core != EGL_NO_CONTEXT);
    EGLint v = 0;
    CHECK(eglQueryContext(d, core, EGL_CONTEXT_CLIENT_TYPE, &v));
    CHECK(v == EGL_OPENGL_API);
    REQUIRE(eglMakeCurrent(d, s, s, core));
    auto getString = proc<PFNGLGETSTRINGPROC>("glGetString");
    auto getStringi = proc<const GLubyte* (*)(GLenum, GLuint)>("glGetStringi");
    auto getIntegerv = proc<PFNGLGETINTEGERVPROC>("glGetIntegerv");
    auto getError = proc<PFNGLGETERRORPROC>("glGetError");
    auto begin = proc<void (*)(GLenum)>("glBegin");
    auto uniform4fvARB = proc<void (*)(GLint, GLsizei, const GLfloat*)>("glUniform4fvARB");
    REQUIRE(bool(getString));
    REQUIRE(bool(begin));
    REQUIRE(bool(uniform4fvARB));
    const std::string version = reinterpret_cast<const char*>(getString(GL_VERSION));
    CHECK(version.rfind("3.3 (Core Profile) MobileGL", 0) == 0);
    getIntegerv(GL_MAJOR_VERSION, &v);
    CHECK(v == 3);
    getIntegerv(GL_MINOR_VERSION, &v);
    CHECK(v == 3);
    getIntegerv(0x9126 /* GL_CONTEXT_PROFILE_MASK */, &v);
    CHECK(v == 1);
    getIntegerv(0x821E /* GL_CONTEXT_FLAGS */, &v);
    CHECK(v == 2);  // GL_CONTEXT_FLAG_DEBUG_BIT
    getIntegerv(GL_NUM_EXTENSIONS, &v);
    CHECK(v >= 0);
    for (GLint i = 0; i < v; ++i) CHECK(getStringi(GL_EXTENSIONS, GLuint(i)) != nullptr);
    CHECK(getError() == GL_NO_ERROR);
    // glBegin is not in a core profile: GL_INVALID_OPERATION, nothing on the wire.
    const int begins = count_op(286);
    begin(GL_TRIANGLES);
    CHECK(getError() == GL_INVALID_OPERATION);
    // An ARB alias reaches the canonical verb's record.
    const int u4 = count_op(2920);
    const GLfloat vals[4] = {0, 0, 0, 1};
    uniform4fvARB(0, 1, vals);
    CHECK(eglSwapBuffers(d, s));  // publishes
    CHECK(count_op(286) == begins);
    CHECK(count_op(2920) == u4 + 1);
    CHECK(count_op(2921) == 0);
    CHECK(eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(d, core));

    // No version: the compatibility profile (as Mesa gives), at the served version.
    EGLContext compat = eglCreateContext(d, c, EGL_NO_CONTEXT, nullptr);
    REQUIRE(compat != EGL_NO_CONTEXT);
    REQUIRE(eglMakeCurrent(d, s, s, compat));
    const std::string cv = reinterpret_cast<const char*>(getString(GL_VERSION));
    CHECK(cv.rfind("3.3 (Compatibility Profile) MobileGL", 0) == 0);
    getIntegerv(0x9126 /* GL_CONTEXT_PROFILE_MASK */, &v);
    CHECK(v == 2);
    CHECK(getString(GL_EXTENSIONS) != nullptr);
    CHECK(eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(d, compat));

    // eglBindAPI is per thread and ES contexts are unchanged.
    REQUIRE(eglBindAPI(EGL_OPENGL_ES_API));
    const EGLint es3[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLContext es = eglCreateContext(d, c, EGL_NO_CONTEXT, es3);
    REQUIRE(es != EGL_NO_CONTEXT);
    CHECK(eglQueryContext(d, es, EGL_CONTEXT_CLIENT_TYPE, &v));
    CHECK(v == EGL_OPENGL_ES_API);
    REQUIRE(eglMakeCurrent(d, s, s, es));
    begin(GL_TRIANGLES);  // desktop-only on an ES context
    CHECK(getError() == GL_INVALID_OPERATION);
    CHECK(eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(d, es));
    CHECK(eglDestroySurface(d, s));
    CHECK(eglTerminate(d));
}
