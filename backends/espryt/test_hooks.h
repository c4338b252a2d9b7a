// Hooks for tests of Espryt from outside the backend.
#pragma once

#include <cstdint>

#include "mgl/espryt/espryt.h"

namespace mgl::espryt::testing {

// Marks a context as desktop GL (api EGL_OPENGL_API, profile mask,
// version), as mglCreateContext will once the schema carries the API. False
// when `context` does not exist.
bool set_context_api(Espryt& backend, uint32_t context, uint32_t api, uint32_t profile, int major, int minor);

}  // namespace mgl::espryt::testing
