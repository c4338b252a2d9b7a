// The one piece of GL state the backend mirrors: the pixel store, which says
// how many bytes an inline image holds. Buffer bindings are not mirrored: the
// host is asked (espryt_core.cc, Core::bound), so that no drift between a
// mirror and the host can make an offset act as a pointer.
#include <GLES3/gl32.h>

#include "backend.h"

namespace mgl::espryt {

void EsprytBackend::glPixelStorei(GLenum pname, GLint param) {
    constexpr GLenum kUnpackSwapBytes = 0x0CF0;  // desktop only: uploads convert while it is set
    if (cur_ && cur_->desktop() && pname == kUnpackSwapBytes) {
        cur_->unpack_swap = param != 0;
        return;
    }
    EsprytGenerated::glPixelStorei(pname, param);
    if (cur_ && avail_[hidx::glPixelStorei]) pixel_store(cur_->unpack, cur_->pack, pname, param);
}

}  // namespace mgl::espryt
