// Snapshots as eglretrace writes them: 8-bit RGB PNG, top row first.
#pragma once

#include <cstdint>
#include <string>

namespace mgl::tools {

// `rgba` is width*height*4 bytes, bottom row first (glReadPixels order).
bool write_snapshot_png(const std::string& path, const uint8_t* rgba, int width, int height, std::string* error);

}  // namespace mgl::tools
