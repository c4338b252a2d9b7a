// Loading the machine's glvnd EGL vendor libraries (Mesa's, NVIDIA's)
// ourselves, beside glvnd, for Espryt inside our own vendor library.
//
// Why: glvnd keeps one current EGL context per thread, and on the direct
// transport the application's thread holds ours; Espryt decodes on that same
// thread and needs the host's context current there too. glvnd's eglMakeCurrent
// would replace ours (and route the application's GL calls to the host). A
// vendor library's own entry points, reached through its __egl_Main import
// table, keep their current context in the vendor's own thread state, so
// both can be current at once: ours in glvnd, the host's in the vendor.
#pragma once

#include <string>
#include <vector>

#include "host_egl.h"

namespace mgl::espryt {

// The host vendor libraries glvnd would load in this process, in glvnd's
// order (__EGL_VENDOR_LIBRARY_FILENAMES, else the vendor directories), our own
// library left out; each with its entry points. `glvnd_exports` and
// `glvnd_vendor` are what glvnd gave our own __egl_Main: a vendor library
// stores the exports table process-wide, so it must get glvnd's very table
// back. Empty, with `why`, when none loads.
std::vector<HostEgl> load_host_vendors(const void* glvnd_exports, void* glvnd_vendor, std::string* why);

// The process's libEGL (glvnd) as a HostEgl: the default source.
HostEgl libegl_entry_points();

}  // namespace mgl::espryt
