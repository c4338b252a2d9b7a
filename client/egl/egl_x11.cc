// X11 windows: their size, and putting a frame read back from the server
// into them (MIT-SHM when the X server shares memory with us, XPutImage
// otherwise). Kept in its own file: Xlib's macros stay out of the rest.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "egl_internal.h"
#include "log.h"

namespace mgl::egl {

namespace {

// Xlib's default error handler exits the process: calls that may fail on a
// window we do not own (a destroyed window, SHM over a remote display) run
// with this one installed instead.
std::mutex g_trap_mu;
int g_trapped = 0;
int trap_handler(::Display*, XErrorEvent* e) {
    g_trapped = e->error_code ? e->error_code : 1;
    return 0;
}

struct Trap {
    std::lock_guard<std::mutex> g{g_trap_mu};
    ::Display* d;
    int (*old)(::Display*, XErrorEvent*);
    explicit Trap(::Display* dpy) : d(dpy) {
        XSync(d, False);
        g_trapped = 0;
        old = XSetErrorHandler(trap_handler);
    }
    int done() {
        XSync(d, False);
        XSetErrorHandler(old);
        return g_trapped;
    }
};

}  // namespace

struct X11Window {
    ::Display* dpy = nullptr;
    Window win = 0;
    GC gc = nullptr;
    Visual* visual = nullptr;
    int depth = 24;
    XImage* image = nullptr;
    XShmSegmentInfo shm{};
    bool use_shm = false;
    int img_w = 0, img_h = 0;

    void free_image() {
        if (!image) return;
        if (use_shm) {
            XShmDetach(dpy, &shm);
            XSync(dpy, False);
            XDestroyImage(image);
            shmdt(shm.shmaddr);
        } else {
            XDestroyImage(image);  // frees the data we malloc'ed
        }
        image = nullptr;
        use_shm = false;
    }

    bool make_image(int w, int h) {
        if (image && img_w == w && img_h == h) return true;
        free_image();
        img_w = w;
        img_h = h;
        static const bool shm_allowed = !std::getenv("MOBILEGL_NO_SHM");
        if (shm_allowed && XShmQueryExtension(dpy)) {
            image = XShmCreateImage(dpy, visual, unsigned(depth), ZPixmap, nullptr, &shm, unsigned(w), unsigned(h));
            if (image) {
                shm.shmid = shmget(IPC_PRIVATE, size_t(image->bytes_per_line) * size_t(h), IPC_CREAT | 0600);
                void* addr = shm.shmid >= 0 ? shmat(shm.shmid, nullptr, 0) : reinterpret_cast<void*>(-1);
                if (addr != reinterpret_cast<void*>(-1)) {
                    shm.shmaddr = image->data = static_cast<char*>(addr);
                    shm.readOnly = False;
                    Trap t(dpy);
                    XShmAttach(dpy, &shm);
                    const int err = t.done();
                    shmctl(shm.shmid, IPC_RMID, nullptr);  // freed once both sides detach
                    if (!err) {
                        use_shm = true;
                        return true;
                    }
                    shmdt(addr);
                } else if (shm.shmid >= 0) {
                    shmctl(shm.shmid, IPC_RMID, nullptr);
                }
                image->data = nullptr;
                XDestroyImage(image);
                image = nullptr;
            }
            client::log().info("MIT-SHM unavailable: presenting with XPutImage");
        }
        image = XCreateImage(dpy, visual, unsigned(depth), ZPixmap, 0, nullptr, unsigned(w), unsigned(h), 32, 0);
        if (!image) return false;
        image->data = static_cast<char*>(std::malloc(size_t(image->bytes_per_line) * size_t(h)));
        return image->data != nullptr;
    }

    ~X11Window() {
        free_image();
        if (gc) XFreeGC(dpy, gc);
    }
};

void X11WindowDeleter::operator()(X11Window* w) const { delete w; }

Surface::Surface() = default;
Surface::~Surface() = default;

bool x11_window_size(void* x_display, unsigned long window, int* w, int* h) {
    ::Display* d = static_cast<::Display*>(x_display);
    Window root;
    int x, y;
    unsigned int ww = 0, hh = 0, bw, depth;
    Trap t(d);
    const Status ok = XGetGeometry(d, window, &root, &x, &y, &ww, &hh, &bw, &depth);
    if (t.done() || !ok) return false;
    *w = int(ww);
    *h = int(hh);
    return true;
}

X11WindowPtr x11_make_window(void* x_display, int screen, unsigned long window) {
    X11WindowPtr w(new X11Window);
    w->dpy = static_cast<::Display*>(x_display);
    w->win = window;
    XWindowAttributes attrs;
    Trap t(w->dpy);
    const Status ok = XGetWindowAttributes(w->dpy, window, &attrs);
    if (t.done() || !ok) return nullptr;
    w->visual = attrs.visual;
    w->depth = attrs.depth;
    w->gc = XCreateGC(w->dpy, window, 0, nullptr);
    return w;
}

unsigned long x11_window_id(const X11Window& win) { return win.win; }

namespace {
int shift_of(unsigned long mask) {
    int s = 0;
    if (!mask) return 0;
    while (!(mask & 1)) mask >>= 1, ++s;
    return s;
}
int bits_of(unsigned long mask) {
    int n = 0;
    while (mask) n += int(mask & 1), mask >>= 1;
    return n;
}
}  // namespace

void x11_present(X11Window& win, const uint8_t* rgba, int w, int h) {
    if (w <= 0 || h <= 0 || !win.make_image(w, h)) return;
    XImage* im = win.image;
    const unsigned long rm = im->red_mask, gm = im->green_mask, bm = im->blue_mask;
    const int rs = shift_of(rm), gs = shift_of(gm), bs = shift_of(bm);
    const int rb = bits_of(rm), gb = bits_of(gm), bb = bits_of(bm);
    const bool fast = im->bits_per_pixel == 32 && im->byte_order == LSBFirst && rb == 8 && gb == 8 && bb == 8;
    for (int y = 0; y < h; ++y) {
        const uint8_t* src = rgba + size_t(h - 1 - y) * size_t(w) * 4;  // the frame is bottom-up
        if (fast) {
            uint32_t* dst = reinterpret_cast<uint32_t*>(im->data + size_t(y) * size_t(im->bytes_per_line));
            for (int x = 0; x < w; ++x) {
                const uint8_t* p = src + size_t(x) * 4;
                dst[x] = (uint32_t(p[0]) << rs) | (uint32_t(p[1]) << gs) | (uint32_t(p[2]) << bs);
            }
        } else {
            for (int x = 0; x < w; ++x) {
                const uint8_t* p = src + size_t(x) * 4;
                const unsigned long px = ((unsigned long)(p[0] >> (8 - rb)) << rs) |
                                         ((unsigned long)(p[1] >> (8 - gb)) << gs) |
                                         ((unsigned long)(p[2] >> (8 - bb)) << bs);
                XPutPixel(im, x, y, px);
            }
        }
    }
    if (win.use_shm) {
        XShmPutImage(win.dpy, win.win, win.gc, im, 0, 0, 0, 0, unsigned(w), unsigned(h), False);
        XSync(win.dpy, False);  // the X server has read the segment before we write the next frame
    } else {
        XPutImage(win.dpy, win.win, win.gc, im, 0, 0, 0, 0, unsigned(w), unsigned(h));
        XFlush(win.dpy);
    }
}

void* x11_open_default(int* screen) {
    ::Display* d = XOpenDisplay(nullptr);
    if (d && screen) *screen = DefaultScreen(d);
    return d;
}

void x11_close(void* x_display) {
    if (x_display) XCloseDisplay(static_cast<::Display*>(x_display));
}

EGLint x11_default_visual(void* x_display, int screen) {
    ::Display* d = static_cast<::Display*>(x_display);
    return EGLint(XVisualIDFromVisual(DefaultVisual(d, screen)));
}

}  // namespace mgl::egl
