// Desktop-only names that GLES 3 spells differently (desktop_verbs.cc also
// holds the mapped desktop-only verbs, which are EsprytBackend methods).
#pragma once

#include <GLES3/gl32.h>

namespace mgl::espryt {

// The GLES pname a desktop context's glGet* pname is asked as (GL_DRAW_BUFFER
// -> GL_DRAW_BUFFER0); others unchanged.
GLenum desktop_query_pname(GLenum pname);

}  // namespace mgl::espryt
