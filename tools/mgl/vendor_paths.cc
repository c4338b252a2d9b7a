#include "vendor_paths.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace mgl::tools {

// The install layout, relative to the prefix (meson's bindir, libdir and
// datadir; an absolute libdir or datadir stays absolute), and the build
// tree's files, both configured by tools/meson.build. The prefix is found
// from the binary, not configured, so that a DESTDIR-staged or moved
// prefix works as installed.
VendorPaths find_vendor(const std::string& self) {
    fs::path prefix = fs::path(self).parent_path();
    for (const auto& part : fs::path(MGL_INSTALL_BINDIR))
        if (!part.empty() && part != "." && part != "/") prefix = prefix.parent_path();
    const fs::path lib_dir = prefix / MGL_INSTALL_LIBDIR;  // operator/ keeps an absolute right side
    const fs::path json = prefix / MGL_INSTALL_DATADIR / "glvnd" / "egl_vendor.d" / "50_mobilegl.json";
    std::error_code ec;
    if (fs::exists(json, ec) && fs::exists(lib_dir / "libEGL_mobilegl.so.0", ec))
        return {json.string(), lib_dir.string()};
    return {MGL_VENDOR_JSON, MGL_GLX_DIR};
}

}  // namespace mgl::tools
