// Desktop GL_PRIMITIVE_RESTART on a GLES host, which restarts only at the
// index type's all-ones index (GL_PRIMITIVE_RESTART_FIXED_INDEX). The GL
// front end keeps the enable and the index (backends/gl/state/desktop_state.h);
// an indexed draw while restart is on turns the host's fixed-index restart on
// and, when the application's index is another one, is drawn from its indices
// widened to 32 bits with that index made 0xFFFFFFFF (GL compares the index
// before the base vertex is added; so does the host). Indirect and multi
// draws, whose indices are the GPU's or many, are refused with one log line
// in that case. (Such a rewritten draw under the first-vertex convention
// keeps GLES's last-vertex one.)
#include <GLES3/gl32.h>

#include <fmt/format.h>

#include "backend.h"

namespace mgl::espryt {

namespace {
constexpr GLsizei kMaxRewrittenIndices = GLsizei(1) << 22;
}  // namespace

void EsprytBackend::host_fixed_restart(bool on) {
    on = on || cur_->app_fixed_restart;  // the application's own GL_PRIMITIVE_RESTART_FIXED_INDEX stays
    if (cur_->host_fixed_restart == on) return;
    cur_->host_fixed_restart = on;
    if (on) host_gl.glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
    else host_gl.glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
}

bool EsprytBackend::restart_fixed_ok(gen::Op verb, GLenum type) {
    host_fixed_restart(true);
    if (cur_->dstate.restart_is_fixed_for(type)) return true;
    const std::string why = fmt::format("primitive restart at index {:#x}: indirect and multi draws restart only at "
                                        "the index type's all-ones index on a GLES host",
                                        cur_->dstate.restart_index);
    refuse(verb, GL_INVALID_OPERATION, why.c_str());
    return false;
}

bool EsprytBackend::draw_restart_rewritten(const ProvokingDraw& d) {
    host_fixed_restart(true);
    if (cur_->dstate.restart_is_fixed_for(d.type) || d.count <= 0 || d.instances < 0) return false;
    if (d.type != GL_UNSIGNED_BYTE && d.type != GL_UNSIGNED_SHORT && d.type != GL_UNSIGNED_INT)
        return false;  // the host's draw raises GL's error
    // The widened list is server memory a client's count would otherwise size.
    if (d.count > kMaxRewrittenIndices) {
        refuse(d.op, GL_INVALID_OPERATION, "primitive restart at another index than all ones: draws of more than 4M "
                                           "indices are not rewritten");
        return true;
    }
    std::vector<uint32_t>& list = provoking_in_;
    if (!read_draw_indices(d, list)) {
        refuse(d.op, GL_INVALID_OPERATION, "primitive restart at another index than all ones: the element buffer "
                                           "could not be read back (mapped?)");
        return true;
    }
    gl::restart_at_all_ones(cur_->dstate.restart_index, list.data(), list.size());
    draw_index_list(d.mode, list, d.instances, d.basevertex, d.baseinstance);
    return true;
}

}  // namespace mgl::espryt
