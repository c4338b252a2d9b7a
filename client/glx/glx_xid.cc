// New X resource ids, in a file of its own: Xlib's internal header defines
// min and max as macros, which the C++ library cannot live with.
#include <X11/Xlibint.h>

namespace mgl::glx {

XID new_xid(Display* dpy);  // glx_internal.h

// Xlib's XCB backend hands out the next id only after its sync hook has run:
// allocate under the display lock and run the hook, as Xlib's own resource
// creators do (XAllocID twice in a row otherwise trips an assertion).
XID new_xid(Display* dpy) {
    LockDisplay(dpy);
    XID id = XAllocID(dpy);
    UnlockDisplay(dpy);
    SyncHandle();
    return id;
}

}  // namespace mgl::glx
