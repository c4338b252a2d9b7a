// The fixed-function state that an application's own GLSL program reads in a
// compatibility context: gl_ModelViewMatrix, gl_NormalMatrix,
// gl_LightSource[], gl_FrontMaterial, gl_Fog, ... The server's shader front
// end lowers those built-ins to ordinary `mgl_*` uniforms
// (backends/gl/shaders/compat_builtins.cc); this is who fills them, from the
// state the client's lowering keeps (compat/ff.h), before each draw.
//
// Which `mgl_*` uniforms and attributes a program has is asked once per link, at its first
// draw after the link (three pipelined batches of queries: the count, the
// names, the locations); a draw after that costs no round trip and sends
// only the values that changed since the last upload into that program
// (matrices by their serial numbers, the rest by value). GL's initial values
// come from here too: nothing on the server sets these uniforms.
#pragma once

#include <cstdint>

#include "compat/ff.h"

namespace mgl::client::compat {

// glLinkProgram: the program's built-ins are asked again at its next draw.
void program_linked(Context& ctx, uint32_t program);

// glEnable/glDisable/glIsEnabled of GL_VERTEX_PROGRAM_TWO_SIDE (the state
// is the client's: the fragment stage's gl_Color picks the back colour from
// it); false: not that cap, or not a compatibility context.
bool program_cap(Context& ctx, GLenum cap, bool on);
bool program_cap_enabled(Context& ctx, GLenum cap, bool* out);

// Before a draw of the application's current program (a compatibility
// context; nothing otherwise): the state it reads, where it changed, and the
// current values (glColor, glNormal, glTexCoord...) of the fixed-function
// attributes it reads that no array feeds (`arrays`: the lowering's layout
// of a draw through its own vertex arrays; nullptr: the application's
// vertex array object).
void upload_program_builtins(Context& ctx, const Layout* arrays = nullptr);

// The fixed-function attributes (compat::Attr bits, the position always) the
// current program reads as built-ins; ~0: not known (a program pipeline).
// Immediate mode feeds only these: the program's own attributes may have
// the other built-ins' locations.
uint32_t program_builtin_attribs(Context& ctx);

}  // namespace mgl::client::compat
