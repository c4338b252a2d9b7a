// Atomic counters at link (GL_ARB_shader_atomic_counters on Vulkan). Vulkan
// has no AtomicCounter storage class: glslang's relaxed Vulkan rules (which
// parse() asks for) rewrite the atomic_uint uniforms of each GL binding point
// into one storage block, "gl_AtomicCounterBlock_<binding>", a uint member
// per counter at its layout offset, and atomicCounterIncrement & co. into
// atomicAdd on those members. What GL reports of them is taken back here:
// the blocks become the program's atomic counter buffers (not storage blocks)
// and their members GL uniforms of type GL_UNSIGNED_INT_ATOMIC_COUNTER.
#pragma once

#include <glslang/Public/ShaderLang.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shaders.h"

namespace mgl::magma {

// Whether a reflected buffer block is one of glslang's counter blocks, and
// its GL binding point (from the name's suffix).
bool counter_block(const std::string& name, int* gl_binding);

// From the reflection: each counter block as a counter buffer (descriptor
// binding, stages), each of its members as a uniform (offsets still unknown).
void reflect_counters(glslang::TProgram& prog, LinkedProgram& out);

// From a stage's SPIR-V: each counter's offset in its buffer (the block's
// OpMemberDecorate Offset: glslang's reflection recomputes offsets and gets
// implicit ones wrong) and each buffer's data size. false: a counter of
// `out` has no offset in any of `modules` (a malformed module).
bool place_counters(const std::vector<const std::vector<uint32_t>*>& modules, LinkedProgram& out, std::string& log);

}  // namespace mgl::magma
