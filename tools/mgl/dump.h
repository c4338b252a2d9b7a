#pragma once

namespace mgl::tools {
// `mgl dump FILE [--frames A-B] [--grep VERB] [--stats]`; argv starts after "dump".
int dump_main(int argc, char** argv);
}  // namespace mgl::tools
