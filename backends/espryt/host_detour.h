// A detour through the host's pipeline that the backend takes for itself
// (depth and stencil reads, reading back the default texture): the host state
// it touches is saved before and put back after, so that the application's
// state is as it left it. Draws one triangle over the target with a program of
// the backend's own; the fragment reads the texel under it.
#pragma once

#include <GLES3/gl32.h>

namespace mgl::espryt::detour {

extern const char* const kVertex;  // one triangle over the whole target
// A program of kVertex and `fragment` (ESSL 3.10); 0 when it does not link.
GLuint link(const char* fragment);

struct SavedState {
    GLint read_fb = 0, draw_fb = 0, program = 0, vao = 0, active = 0, tex2d = 0, sampler = 0, pack_buffer = 0;
    GLint viewport[4] = {};
    GLint pack[4] = {};
    GLboolean mask[4] = {};
    GLboolean scissor = 0, blend = 0, cull = 0, discard = 0;

    void save();     // and makes unit 0 the active one
    void neutral();  // no scissor, blending, culling, discard, pack state or pack buffer; all colours written
    void restore();
};

}  // namespace mgl::espryt::detour
