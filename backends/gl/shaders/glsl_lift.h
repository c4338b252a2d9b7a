// Brings an application's GLSL to a language glslang's OpenGL SPIR-V target
// accepts: desktop GLSL 3.30+ core or ESSL 3.10+. glslang refuses older
// versions there ("Desktop shaders for OpenGL SPIR-V require version 330 or
// higher"), so GLSL 1.10-1.50 is compiled as 3.30 core with the few things
// 3.30 core lacks supplied: the texture2D family as macros, gl_FragColor and
// gl_FragData as declared outputs. Every rewrite keeps each line where it was
// (a preamble holds the declarations), so logs keep the application's line
// numbers. docs/ARCHITECTURE-gl-frontend.md says why this and not another way.
#pragma once

#include <string>
#include <vector>

#include "shader_input.h"

namespace mgl::gl {

struct SourceVersion {
    int number = 110;
    bool es = false;
    bool written = false;  // a #version directive is present
    bool compatibility = false;
};

// The #version of the joined strings (the directive must come before any
// other token; comments and blank lines may precede it).
SourceVersion source_version(const std::vector<std::string>& sources, Api api);

// __VERSION__ as the application wrote it (a lifted source is compiled as
// another version, and glslang answers `defined __VERSION__` with false):
// the word becomes MGL_VERSION_, #defined in `preamble`.
void version_macro(std::vector<std::string>& sources, int version, std::string& preamble);

// GL_ARB_compatibility's `#extension` directives (the extension is listed in
// compatibility contexts): blanked, lines kept. True when there was one: the
// source then has the compatibility profile's built-ins at any version.
bool take_compatibility_extension(std::vector<std::string>& sources);

// GL_compatibility_profile (when `profile`: `#version N compatibility`) and
// GL_ARB_compatibility defined to 1 for a source that has the built-ins.
void compatibility_macros(std::vector<std::string>& sources, bool profile, std::string& preamble);

struct Lifted {
    int version = 330;  // what glslang compiles it as (forced)
    bool es = false;
    bool lifted = false;               // compiled as another version than written
    std::string preamble;              // declarations and macros ahead of line 1
    std::vector<std::string> sources;  // the application's strings, rewritten in place
    std::string error;                 // a source we cannot take: the log line
};

// `floor`: the least version glslang must compile the source as, for an
// extension whose directive the caller took (take_extension_directive) and
// whose features glslang has only at a later version (0: none).
Lifted lift(const ShaderInput& in, const SourceVersion& v, const EsslOptions& opt, int floor = 0);

// Log text with our own spellings turned back into the application's.
std::string unlift_log(std::string log);

// GL_ARB_draw_instanced's gl_InstanceIDARB (GLSL 1.10-1.30 vertex shaders
// that enable it) as gl_InstanceID, for a source compiled as 1.40 or later,
// which has it (glslang knows no ARB spelling); false: not mentioned.
bool respell_instance_id_arb(std::vector<std::string>& sources);

// The GLSL version glslang needs for what an extension brings to an older
// source: GL_ARB_compute_shader (compute stages), and the storage-block,
// atomic-counter and image extensions (their layout(binding...), std430 and
// built-ins: glslang has them from 4.20/4.30 only) enabled in GLSL
// 1.30-4.20, or 4.20's atomic_uint: 430; GL_ARB_shading_language_packing's
// functions in 1.30-1.50: 330; GL_EXT_shader_integer_mix's mix() in 1.30-4.40:
// 450. 0: nothing raises the version. A
// source that uses those features without enabling the extension is not
// raised and fails as GL says. One rule for every backend's compile.
int extension_version_floor(Stage stage, int number, const std::string& joined);

// `attribute` and `varying` (GLSL 1.10-4.10; glslang refuses them from 4.20)
// in a source an extension raised to 4.20 or later: GLSL 1.30's meaning,
// spelled as in/out of the stage.
void respell_storage_keywords(std::vector<std::string>& sources, Stage stage);

// Whether a source enables `extension` (#extension ... : enable/require/warn).
bool enables_extension(const std::string& joined, const char* extension);

// Whether a source enables an extension that brings layout qualifiers to
// GLSL 1.10/1.20 (located attributes and outputs, uniform blocks, located
// uniforms): `layout` is a keyword there then, as in Mesa.
bool enables_layout_qualifiers(const std::string& joined);

// Extensions served whose directive glslang does not know
// (GL_EXT_texture_array, GL_AMD_shader_trinary_minmax, and
// GL_ARB_arrays_of_arrays, whose arrays glslang has in GLSL 4.30 only: the
// caller raises such a source to 4.30, lift's floor): `#extension NAME :
// enable|require|warn` becomes a definition of the extension's macro
// (spelled MNAME: glslang refuses to define GL_ names), lines kept. True
// when a source had it.
bool take_extension_directive(std::vector<std::string>& sources, const std::string& name);

// The texture lookups GLSL 1.10-1.20 spell per sampler type (texture2D,
// texture2DLod, GL_ARB_shader_texture_lod's *GradARB...) as macros of the
// overloaded ones, and the shadow lookups a source mentions as functions
// returning GL's (r, r, r, 1): the preamble of such a source compiled as a
// later version, for every backend's compile.
std::string legacy_lookups(Stage stage, const std::vector<std::string>& sources);

// GL_AMD_shader_trinary_minmax's min3/max3/mid3, for the preamble of a
// source that enables it: macros, so that every genType has them.
extern const char* const kTrinaryMinMax;

// GL_MESA_shader_integer_functions (GLSL 1.30+): gpu_shader5's integer
// functions, frexp/ldexp and int-to-uint conversions, which glslang has from
// GLSL 4.00: such a source compiles as 4.00 with this ahead of it, which
// turns the rest of 4.00's new words (fma, gathers, interpolateAt*, precise,
// sample...) back into identifiers.
extern const char* const kIntegerFunctionsOnly;

// The served extensions whose directive glslang does not know and whose
// features it has from a later version only (GL_ARB_arrays_of_arrays: 4.30;
// GL_MESA_shader_integer_functions: 4.00 with kIntegerFunctionsOnly ahead),
// for every backend's compile: their directives are taken
// (take_extension_directive); `floor` is the version the source must
// compile as (0: none), `preamble` what goes first in its preamble.
struct RaisingExtensions {
    int floor = 0;
    std::string preamble;
};
RaisingExtensions take_raising_extensions(std::vector<std::string>& sources, int version);

// Whole-word replacement of `from` by `to` (identifiers only).
std::string replace_word(const std::string& src, const std::string& from, const std::string& to);

// Whether `word` occurs in `s` as a whole identifier.
bool mentions_word(const std::string& s, const std::string& word);

}  // namespace mgl::gl
