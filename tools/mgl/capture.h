#pragma once
#include <string>

namespace mgl::tools {
// `mgl capture -o FILE [run options] -- PROGRAM ARGS`; argv starts after
// "capture". The rest is `mgl run`'s (run.h).
int capture_main(int argc, char** argv, const std::string& self, const std::string& vendor_json,
                 const std::string& glx_dir);
}  // namespace mgl::tools
