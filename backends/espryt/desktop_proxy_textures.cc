// Desktop proxy textures on the GLES host, which has none: every verb on a
// GL_PROXY_TEXTURE_* target is checked and recorded by the GL front end
// (backends/gl/state/proxy_textures.h) against the host's limits, and
// glGetTexLevelParameter on a proxy target answers from there. No proxy
// target reaches the host.
#include <GLES3/gl32.h>

#include "backend.h"
#include "proxy_textures.h"

namespace mgl::espryt {

bool EsprytBackend::proxy_specify(gl::ProxyRequest r) {
    if (!cur_ || !cur_->desktop() || gl::proxy_kind(r.target) == gl::ProxyKind::none) return false;
    r.compatibility = cur_->profile == 2;
    gl::ProxyLimits l;
    host_gl.glGetIntegerv(GL_MAX_TEXTURE_SIZE, &l.max_2d);
    host_gl.glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &l.max_3d);
    host_gl.glGetIntegerv(GL_MAX_CUBE_MAP_TEXTURE_SIZE, &l.max_cube);
    host_gl.glGetIntegerv(GL_MAX_ARRAY_TEXTURE_LAYERS, &l.max_layers);
    host_gl.glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &l.max_color_samples);
    host_gl.glGetIntegerv(GL_MAX_DEPTH_TEXTURE_SAMPLES, &l.max_depth_samples);
    host_gl.glGetIntegerv(GL_MAX_INTEGER_SAMPLES, &l.max_integer_samples);
    if (budget_) l.max_bytes = budget_->limit() > budget_->used() ? budget_->limit() - budget_->used() : 0;
    if (const uint32_t e = cur_->dstate.proxies.specify(r, l)) set_error(e);
    return true;
}

bool EsprytBackend::proxy_level_parameter(GLenum target, GLint level, GLenum pname, GLint* value) {
    if (!cur_ || !cur_->desktop() || gl::proxy_kind(target) == gl::ProxyKind::none) return false;
    int32_t v = 0;
    if (const uint32_t e = cur_->dstate.proxies.level_parameter(target, level, pname, &v)) set_error(e);
    else *value = v;
    return true;
}

}  // namespace mgl::espryt
