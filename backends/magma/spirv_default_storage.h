// lavapipe (Mesa 22.3, Debian 12's) inlines uniform-buffer values into a
// shader and, for shaders where it finds fewer than four such values,
// compiles a new variant at every bind of the buffer's descriptor set: a
// draw loop that changes a uniform (one set-1 bind per draw) makes a vertex
// shader per draw, kept until the pipeline goes (tens of GB in minutes,
// docs/RELIABILITY.md). Storage buffers are never inlined. On such a device
// Magma's vertex and geometry stages read the default uniform block as a
// read-only storage buffer (not the fragment stage: llvmpipe 22.3 keeps the
// fragment stage's storage buffers of a scene's first draw): this
// rewrites a module's default block variable (set `set`, binding `binding`,
// Uniform storage class) and every pointer into it to the StorageBuffer class
// (SPIR-V 1.3). The std140 offsets stay valid. `kept` (module unchanged):
// the block is used in a way the rewrite does not follow.
#pragma once

#include <cstdint>
#include <vector>

namespace mgl::magma {

enum class StorageRewrite { absent, rewritten, kept };
// The rewritten variable takes binding `new_binding` (same set).
StorageRewrite default_block_to_storage(std::vector<uint32_t>& spv, uint32_t set, uint32_t binding, uint32_t new_binding);

}  // namespace mgl::magma
