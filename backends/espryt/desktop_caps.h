// What a desktop OpenGL context is served on a host GLES context: the GL
// version, its GLSL version and the desktop extensions whose verbs and enums
// the host's GLES (core version plus extensions) really carries through
// Espryt. Nothing is advertised that does not work (docs/ARCHITECTURE-espryt.md).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mgl::espryt {

// The desktop GL version (major*10+minor) served on a host of GLES `host_es`
// (e.g. 32); 0 when the host is too small for any desktop context.
int desktop_version(int host_es);
// The GL_ARB_* / GL_EXT_* names a desktop context of `profile` (1 core, 2
// compatibility) lists, given the host's ES version and extensions.
std::vector<std::string> desktop_extensions(int host_es, uint32_t profile,
                                            const std::function<bool(std::string_view)>& host_has);

}  // namespace mgl::espryt
