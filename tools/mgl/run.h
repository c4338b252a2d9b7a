#pragma once
#include <string>

namespace mgl::tools {
// `mgl run [options] -- PROGRAM ARGS`; argv starts after "run".
int run_main(int argc, char** argv, const std::string& self, const std::string& vendor_json);
}  // namespace mgl::tools
