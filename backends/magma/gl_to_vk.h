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
// size: 1-4, or GL_BGRA (GL 3.2's ARB_vertex_array_bgra: 4 components in
// blue, green, red, alpha order). VK_FORMAT_UNDEFINED: none holds it.
VkFormat vertex_format(GLenum type, int size, bool normalized, bool integer);
// Bytes of one attribute element (a packed type's whole word).
uint32_t attrib_bytes(GLenum type, int size);
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
// Which texture binding (and stand-in) a sampler type reads: draw_input.h's kDummy* order.
int sampler_dim(GLenum type);
// Which stand-in format a sampler type reads: draw_input.h's kDummy{Float,Sint,Uint}.
int sampler_kind(GLenum type);

// Desktop sampler types of the targets Magma holds as 2D images (1D, 1D
// arrays, rectangles: backends/gl/state/texture_targets.h); their shaders
// sample 2D ones after the front end's SPIR-V lowering (spirv_textures.h).
inline constexpr GLenum kSampler1D = 0x8B5D, kSampler1DShadow = 0x8B61, kIntSampler1D = 0x8DC9, kUintSampler1D = 0x8DD1,
                        kSampler1DArray = 0x8DC0, kSampler1DArrayShadow = 0x8DC3, kIntSampler1DArray = 0x8DCE,
                        kUintSampler1DArray = 0x8DD6, kSampler2DRect = 0x8B63, kSampler2DRectShadow = 0x8B64,
                        kIntSampler2DRect = 0x8DCD, kUintSampler2DRect = 0x8DD5;
// Which of those a sampler type is: 1 a 1D, 2 a 1D array, 3 a rectangle sampler; 0 none.
int lowered_sampler(GLenum type);
// The Vulkan format a generic (disabled-array) attribute is read with: the shader input's base type.
VkFormat generic_format(GLenum shader_type);

// Cache keys are plain bytes.
inline void append(std::string& key, const void* p, size_t n) { key.append(static_cast<const char*>(p), n); }

}  // namespace mgl::magma
