#pragma once

namespace mgl::tools {
// `mgl replay FILE [options]`; argv starts after "replay".
int replay_main(int argc, char** argv);
}  // namespace mgl::tools
