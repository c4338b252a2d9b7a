// The one piece of GL state the backend mirrors: the pixel store, which says
// how many bytes an inline image holds. Buffer bindings are not mirrored: the
// host is asked (espryt_core.cc, Core::bound), so that no drift between a
// mirror and the host can make an offset act as a pointer.
#include <GLES3/gl32.h>

#include "backend.h"

namespace mgl::espryt {

void EsprytBackend::glPixelStorei(GLenum pname, GLint param) {
    EsprytGenerated::glPixelStorei(pname, param);
    if (cur_ && avail_[hidx::glPixelStorei]) pixel_store(cur_->unpack, cur_->pack, pname, param);
}

}  // namespace mgl::espryt
