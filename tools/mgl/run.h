#pragma once
#include <string>

namespace mgl::tools {
// `mgl run [options] -- PROGRAM ARGS`; argv starts after "run". vendor_json
// names our EGL vendor's glvnd file, glx_dir the folder of libGLX_mobilegl.so.0.
int run_main(int argc, char** argv, const std::string& self, const std::string& vendor_json,
             const std::string& glx_dir);
}  // namespace mgl::tools
