// GLSL 1.10-1.50 (and `compatibility` profile) built-ins of the fixed-function
// pipeline in application shaders, lowered to ordinary declarations that
// glslang's core target and ESSL accept: attributes (gl_Vertex ->
// mgl_Vertex), varyings (gl_TexCoord[] -> mgl_TexCoord[], gl_FrontColor ->
// mgl_FrontColor, read back in the fragment stage as gl_Color) and the
// matrices (gl_ModelViewProjectionMatrix -> uniform mgl_ModelViewProjectionMatrix).
//
// The names are the contract with whoever feeds them (compat_builtins.md in
// docs/ARCHITECTURE-gl-frontend.md): gl_Vertex is generic attribute 0, as GL
// says (glVertexAttrib*(0) and glVertex are one attribute); the other
// attributes have fixed locations (compat_builtins.cc lists them);
// the state uniforms (matrices, lights, materials, fog) are uploaded by the
// client's compatibility lowering (client/src/compat/program_builtins.cc)
// before each draw of a program that has them, GL's initial values included.
#pragma once

#include <string>
#include <vector>

#include "shader_input.h"

namespace mgl::gl {

// Rewrites `sources` in place (whole words, lines kept) and returns the
// declarations to put in the preamble; empty when no built-in is used.
// `clip_planes`: the vertex stage also clips against the user clip planes
// (glClipPlane, glEnable(GL_CLIP_PLANEi)) through gl_ClipDistance, as GL
// does with a shader: its gl_ClipVertex against the eye-space planes
// (uniform mgl_ClipPlane[8]), or, when it writes neither gl_ClipVertex nor
// gl_ClipDistance, gl_Position against the same planes (Mesa's choice,
// which piglit checks). mgl_ClipPlane is a driver uniform
// (driver_uniforms.h): the backend sets it from DesktopState::clip_planes,
// zeros for disabled planes, so a host that clips by every written
// distance keeps what GL keeps.
std::string lower_compat_builtins(Stage stage, std::vector<std::string>& sources, bool clip_planes = false);

// The fixed-function vertex stage as ESSL `version` (300-320), for a
// compatibility program that has a fragment shader only: position by the
// modelview-projection matrix, colours and texture coordinates passed on
// through the lowered varyings (lighting, texgen and fog are the
// fixed-function lowering's, not this stage's).
// `clip_planes`: the host has GL_EXT_clip_cull_distance; the stage clips its
// eye-space position against mgl_ClipPlane[8].
std::string fixed_function_vertex_essl(int version, bool clip_planes = false);

// The same two stages as desktop GLSL 1.20 of a compatibility context, for
// a backend that compiles desktop GLSL through this front end's lowering
// (Magma): the built-ins are lowered like an application's, gl_ClipVertex
// included.
std::string fixed_function_vertex_glsl();
std::string fixed_function_fragment_glsl(bool front_colour);

// The input block a geometry stage reads the compatibility varyings of its
// vertices from (gl_in[i].gl_FrontColor -> mgl_in[i].mgl_FrontColor).
inline constexpr const char* kCompatBlock = "mgl_CompatVertex";

// Whether a geometry stage's text (its ESSL or lowered GLSL) reads that block.
bool reads_compat_block(const std::string& geometry_text);

// A vertex stage's text (ESSL or lowered GLSL) for a program whose geometry
// stage reads the block: its loose compatibility outputs (mgl_FrontColor,
// mgl_TexCoord[]...) become the members of one anonymous output block that
// declares them all (the same members, in the same order: blocks match by
// name and members), so the stage's code is unchanged. Interpolation
// qualifiers are dropped there: a geometry stage's inputs are not
// interpolated; its own outputs carry the fragment stage's.
// `insert_block` false: the declarations are only taken out (a text whose
// block another string of the same stage declares), lines kept.
std::string vertex_outputs_as_block(const std::string& text, bool insert_block = true);

// The stage before the fragment stage (its ESSL, `previous`) with the
// compatibility varyings the fragment stage's ESSL reads and it does not
// declare added as outputs, with the same qualifiers (GL leaves their values
// undefined; GLES refuses to link an input no stage writes). Unchanged when
// it declares them all.
std::string declare_missing_outputs(const std::string& previous, const std::string& fragment);

// The interpolation qualifiers of the colour built-ins a vertex stage
// writes (gl_FrontColor, gl_BackColor and the secondary ones) or a fragment
// stage reads (gl_Color, gl_SecondaryColor), as the application's source
// redeclares them: "NAME=QUALIFIER\n" per statically used one (an empty
// qualifier: none written). Only those a stage uses count (GLSL 1.30 §4.3.7).
std::string colour_interpolation(Stage stage, const std::vector<std::string>& sources);

// GLSL 1.30 §4.3.7's link rule over two stages' colour_interpolation(): the
// fragment stage's gl_Color and the vertex stage's gl_FrontColor and
// gl_BackColor that are used must be declared with one interpolation
// qualifier (none counts as its own), and likewise the secondary colours.
// The link error, or "".
std::string colour_interpolation_mismatch(const std::string& vertex, const std::string& fragment);

// The fragment stage GL gives a program without a fragment shader, as ESSL
// `version`: with `front_colour` (a compatibility program whose last stage
// writes mgl_FrontColor) the fixed-function one with texturing and fog off,
// the primary colour (the texture environment is not applied to such
// programs yet); otherwise one that writes nothing (GL leaves the colour
// undefined: transform feedback, depth-only passes).
std::string fixed_function_fragment_essl(int version, bool front_colour);

// Our names back into the application's, for logs.
std::string unlower_compat_log(std::string log);

// The length of the lowered gl_TextureMatrix[] family.
inline constexpr int kMaxTextureCoords = 8;

}  // namespace mgl::gl
