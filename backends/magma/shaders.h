// GLSL ES 1.00 / 3.00 to SPIR-V with glslang, and what a linked program
// tells the GL layer: default-block uniforms (offsets in one uniform buffer),
// samplers and uniform blocks (descriptor bindings), attributes (locations).
//
// Mapping (docs/ARCHITECTURE-magma.md): ESSL 1.00 compiles as desktop GLSL
// 1.40 with texture2D & co. defined to their GLSL 1.30 names; ESSL 3.00 as
// ESSL 3.10 (names those languages reserve renamed, ESSL 1.00's constant
// sequences folded: essl_source.h); both under glslang's relaxed Vulkan rules, which gather loose
// uniforms into one std140 block ("gl_DefaultUniformBlock", set 1 binding 0)
// shared by both stages. Varyings, samplers and blocks get locations and
// bindings from glslang's GLSL I/O mapper (matched by name across stages).
// Desktop contexts' GLSL (Api::desktop): 1.10/1.20 (and no #version) compile
// as GLSL 1.40 with the texture2D family defined to its 1.30 names, 1.30 and
// later as themselves (core profile from 1.50), under the same Vulkan rules.
// The vertex shader's main is wrapped to map clip z from GL's [-w, w] to
// Vulkan's [0, w].
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "xfb_spirv.h"

namespace mgl::magma {

enum class Stage { vertex, fragment, geometry, compute, tess_control, tess_evaluation };
inline constexpr Stage kLastStage = Stage::tess_evaluation;

// The shading language family of the context: GLSL ES for ES contexts,
// desktop GLSL for OpenGL ones.
enum class Api { es, desktop };

// Checks that a shader compiles; the info log on failure (or warnings).
bool compile_check(Stage stage, Api api, const std::string& source, std::string& log);

struct UniformInfo {
    std::string name;     // without "[0]"
    uint32_t type = 0;    // GL type enum (GL_FLOAT_VEC4, GL_SAMPLER_2D...)
    int array_size = 1;
    int offset = -1;      // in the default block; -1 for samplers
    int array_stride = 0;
    int binding = -1;     // samplers: descriptor binding
    int location = -1;    // GL location of element 0 (filled by the program)
    // An atomic counter (type GL_UNSIGNED_INT_ATOMIC_COUNTER): its buffer in
    // LinkedProgram::counter_buffers and its byte offset there; -1 otherwise.
    int counter_buffer = -1;
    int counter_offset = -1;
    // An image uniform: the image unit its source gave (layout(binding = N)), else 0.
    int unit = 0;
    // A member of a user uniform block (LinkedProgram::block_uniforms): its
    // block's index; offset and array_stride are then its layout in the
    // block's buffer, with the stride between a matrix's columns (rows).
    int block = -1;
    int matrix_stride = 0;
    bool row_major = false;
};

struct AttribInfo {
    std::string name;
    uint32_t type = 0;
    int location = -1;    // shader (Vulkan) location
    int slots = 1;        // locations used (matrices)
};

struct BlockInfo {
    std::string name;
    int binding = -1;     // descriptor binding
    int size = 0;
    int initial = 0;      // the GL binding point the source gave (layout(binding = N)), else 0
    uint32_t stages = 0;  // the stages that use it (bit N: glslang's EShLanguage N)
};

// An atomic counter buffer of a program. glslang's relaxed Vulkan rules
// rewrite the atomic_uint uniforms of one GL binding point into one storage
// block ("gl_AtomicCounterBlock_<binding>", a uint member per counter at its
// layout offset) and the counter built-ins into atomicAdd on its members:
// Magma binds the buffer of that GL_ATOMIC_COUNTER_BUFFER binding point there.
struct CounterBufferInfo {
    int gl_binding = 0;   // the GL_ATOMIC_COUNTER_BUFFER binding point (layout(binding = N))
    int binding = -1;     // descriptor binding (set 0)
    int data_size = 0;    // bytes the counters span (GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE)
    uint32_t stages = 0;  // bit 0 vertex, 1 geometry, 2 fragment, 3 compute: stages that use it
};

struct LinkedProgram {
    std::vector<uint32_t> vs, fs, gs;  // SPIR-V (gs empty: no geometry shader)
    // Tessellation (GL 4.0, GL_ARB_tessellation_shader): the control and
    // evaluation stages' SPIR-V (empty: none) and their layouts, as GL enums
    // (glGetProgramiv's GL_TESS_*; the draw's GL_PATCHES rule).
    std::vector<uint32_t> tcs, tes;
    int tcs_vertices = 0;  // layout(vertices = N)
    uint32_t tes_mode = 0, tes_spacing = 0, tes_order = 0;  // GL_TRIANGLES/QUADS/ISOLINES, GL_EQUAL..., GL_CW/CCW
    bool tes_point_mode = false;
    // The geometry shader's layout (GL enums; GL_GEOMETRY_* of glGetProgramiv
    // and the draw's primitive check).
    uint32_t gs_input = 0, gs_output = 0;
    int gs_vertices = 0, gs_invocations = 1;
    std::vector<UniformInfo> uniforms;
    std::vector<AttribInfo> attribs;
    std::vector<BlockInfo> blocks;  // user uniform blocks (ES 3.0)
    // Their members, which GL counts as active uniforms after `uniforms`
    // (index uniforms.size() + i); they have no location.
    std::vector<UniformInfo> block_uniforms;
    std::vector<BlockInfo> storage; // shader storage blocks (GL_ARB_shader_storage_buffer_object)
    std::vector<CounterBufferInfo> counter_buffers;  // atomic counter buffers (GL_ARB_shader_atomic_counters)
    std::vector<uint32_t> cs;       // SPIR-V of a compute program (then vs/fs/gs are empty)
    uint32_t local_size[3] = {0, 0, 0};  // its layout(local_size_*)
    int default_binding = -1;       // -1: no default-block uniforms
    int default_size = 0;
    std::vector<int> outputs;       // fragment output locations
    std::vector<std::string> output_names;  // their names (the application's), in the same order
    XfbLayout xfb;                  // transform feedback (no varyings: none)
};

// What glTransformFeedbackVaryings asked a program to capture.
struct XfbRequest {
    std::vector<std::string> names;
    bool interleaved = true;
};

// glBindFragDataLocation's bindings of a program: output name -> colour number.
using FragBindings = std::map<std::string, uint32_t>;

// The sources of one stage's shader objects, in attach order: an ES program
// has one per stage; desktop GL links several as compilation units of one
// stage (one of them holds main).
using StageSources = std::vector<std::string>;

// Links a vertex, an optional geometry (`gs` empty: none) and a fragment
// stage. false: `log` says why. An output the fragment shader did not locate
// itself takes its binding from `frag`. With a geometry shader, GL's clip z
// is mapped to Vulkan's at each EmitVertex() instead of at the vertex
// shader's end. alpha_test: the fragment stage tests its colour 0 against
// the hidden kAlphaTestUniform (a compatibility context's application
// program: GL's alpha test, driver_uniforms.h), which the draw sets.
// clip_planes: the vertex (geometry) stage of a compatibility source clips
// against the user clip planes through the hidden kClipPlaneUniform (the
// front end's lowering, compat_builtins.h), which the draw sets.
// The tessellation stages' sources (both empty: none).
struct TessSources {
    StageSources tcs, tes;
    bool empty() const { return tcs.empty() && tes.empty(); }
};
bool link_program(Api api, const StageSources& vs, const TessSources& tess, const StageSources& gs, const StageSources& fs,
                  const XfbRequest& xfb, const FragBindings& frag, bool alpha_test, bool clip_planes, LinkedProgram& out,
                  std::string& log);

// Links a compute program (one compute shader). false: `log` says why.
bool link_compute(Api api, const std::string& cs, LinkedProgram& out, std::string& log);

// SPIR-V for Magma's own helper shaders (Vulkan GLSL 4.50, e.g. the masked
// clear); empty and `log` when the source does not compile.
std::vector<uint32_t> compile_internal(Stage stage, const std::string& source, std::string& log);

}  // namespace mgl::magma
