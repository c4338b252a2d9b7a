// desktop_verbs.cc holds the mapped desktop-only verbs (EsprytBackend
// methods); the GL rules they follow are shared (backends/gl/context).
#pragma once

#include "context/desktop_context.h"

namespace mgl::espryt {

using gl::desktop_query_pname;

}  // namespace mgl::espryt
