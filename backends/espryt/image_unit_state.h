// A host image unit's binding read and bound as a whole: the texture remake
// (image_units.cc) and the unit routing (unit_routing.cc) both move units.
#pragma once

#include <GLES3/gl32.h>

#include "context.h"
#include "gen/espryt_host.h"

namespace mgl::espryt {

inline HostImageUnit read_image_unit(GLuint unit) {
    HostImageUnit u;
    host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_NAME, unit, &u.name);
    host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_LEVEL, unit, &u.level);
    host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_LAYERED, unit, &u.layered);
    host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_LAYER, unit, &u.layer);
    host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_ACCESS, unit, &u.access);
    host_gl.glGetIntegeri_v(GL_IMAGE_BINDING_FORMAT, unit, &u.format);
    return u;
}

// `name`: the texture to bind in place of u.name (0: u's own). A texture
// deleted since leaves the unit empty, as GL's deletion does.
inline void bind_image_unit(GLuint unit, const HostImageUnit& u, GLuint name = 0) {
    if (!name) name = u.name && host_gl.glIsTexture(GLuint(u.name)) ? GLuint(u.name) : 0;
    host_gl.glBindImageTexture(unit, name, u.level, GLboolean(u.layered), u.layer, GLenum(u.access), GLenum(u.format));
}

}  // namespace mgl::espryt
