// Where `mgl run` finds our glvnd vendor: beside an installed mgl, or in the
// build tree mgl was built in.
#pragma once

#include <string>

namespace mgl::tools {

struct VendorPaths {
    std::string json;     // the EGL vendor JSON to hand glvnd
    std::string lib_dir;  // put on LD_LIBRARY_PATH: libGLX_mobilegl.so.0 (and the soname the installed JSON names)
};

// self: the running mgl (/proc/self/exe).
VendorPaths find_vendor(const std::string& self);

}  // namespace mgl::tools
