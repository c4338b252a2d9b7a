// GL enums and types to their Vulkan counterparts, for the draw path
// (draw*.cc) and the pipelines (pipeline.cc).
#pragma once

#include <GLES3/gl32.h>
#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace mgl::magma {

// The vertex input format of an enabled array; VK_FORMAT_UNDEFINED when none.
VkFormat vertex_format(GLenum type, int size, bool normalized, bool integer);
// Bytes of one component of vertex type `type`.
uint32_t type_bytes(GLenum type);
VkBlendFactor blend_factor(GLenum f);
VkBlendOp blend_op(GLenum e);
VkCompareOp compare(GLenum f);
VkStencilOp stencil_op(GLenum o);
// false: not a draw mode.
bool topology(GLenum mode, VkPrimitiveTopology& t);
// Whether draw mode `mode` feeds a geometry shader whose input layout is `input` (GL 3.2, 2.16.1).
bool geometry_accepts(GLenum input, GLenum mode);
// With a dynamic topology a pipeline serves every topology of its class.
int topology_class(VkPrimitiveTopology t);
// Which texture binding (and stand-in) a sampler type reads: MagmaBackend's kDummy* order.
int sampler_dim(GLenum type);
// Which stand-in format a sampler type reads: MagmaBackend's kDummy{Float,Sint,Uint}.
int sampler_kind(GLenum type);
// The Vulkan format a generic (disabled-array) attribute is read with: the shader input's base type.
VkFormat generic_format(GLenum shader_type);

// Cache keys are plain bytes.
inline void append(std::string& key, const void* p, size_t n) { key.append(static_cast<const char*>(p), n); }

}  // namespace mgl::magma
