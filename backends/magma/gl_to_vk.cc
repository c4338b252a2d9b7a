// GL enums and types to their Vulkan counterparts (draw path and pipelines).
#include "gl_to_vk.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>

namespace mgl::magma {

VkFormat vertex_format(GLenum type, int size, bool normalized, bool integer) {
    static const VkFormat f32[] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_SFLOAT,
                                   VK_FORMAT_R32G32B32A32_SFLOAT};
    static const VkFormat u8n[] = {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_R8G8B8A8_UNORM};
    static const VkFormat u8s[] = {VK_FORMAT_R8_USCALED, VK_FORMAT_R8G8_USCALED, VK_FORMAT_R8G8B8_USCALED, VK_FORMAT_R8G8B8A8_USCALED};
    static const VkFormat u8i[] = {VK_FORMAT_R8_UINT, VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8B8_UINT, VK_FORMAT_R8G8B8A8_UINT};
    static const VkFormat s8n[] = {VK_FORMAT_R8_SNORM, VK_FORMAT_R8G8_SNORM, VK_FORMAT_R8G8B8_SNORM, VK_FORMAT_R8G8B8A8_SNORM};
    static const VkFormat s8s[] = {VK_FORMAT_R8_SSCALED, VK_FORMAT_R8G8_SSCALED, VK_FORMAT_R8G8B8_SSCALED, VK_FORMAT_R8G8B8A8_SSCALED};
    static const VkFormat s8i[] = {VK_FORMAT_R8_SINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8B8_SINT, VK_FORMAT_R8G8B8A8_SINT};
    static const VkFormat u16n[] = {VK_FORMAT_R16_UNORM, VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16B16_UNORM, VK_FORMAT_R16G16B16A16_UNORM};
    static const VkFormat u16s[] = {VK_FORMAT_R16_USCALED, VK_FORMAT_R16G16_USCALED, VK_FORMAT_R16G16B16_USCALED, VK_FORMAT_R16G16B16A16_USCALED};
    static const VkFormat u16i[] = {VK_FORMAT_R16_UINT, VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16B16_UINT, VK_FORMAT_R16G16B16A16_UINT};
    static const VkFormat s16n[] = {VK_FORMAT_R16_SNORM, VK_FORMAT_R16G16_SNORM, VK_FORMAT_R16G16B16_SNORM, VK_FORMAT_R16G16B16A16_SNORM};
    static const VkFormat s16s[] = {VK_FORMAT_R16_SSCALED, VK_FORMAT_R16G16_SSCALED, VK_FORMAT_R16G16B16_SSCALED, VK_FORMAT_R16G16B16A16_SSCALED};
    static const VkFormat s16i[] = {VK_FORMAT_R16_SINT, VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16B16_SINT, VK_FORMAT_R16G16B16A16_SINT};
    static const VkFormat u32i[] = {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32A32_UINT};
    static const VkFormat s32i[] = {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32_SINT, VK_FORMAT_R32G32B32A32_SINT};
    static const VkFormat f16[] = {VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R16G16B16_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT};
    constexpr int kBgra = 0x80E1;
    // The packed types (GL 3.3's ARB_vertex_type_2_10_10_10_rev, GL 4.4's
    // 10F_11F_11F): x in the low bits, as Vulkan's A2B10G10R10 (A2R10G10B10
    // for BGRA) and B10G11R11 keep them.
    const bool bgra = size == kBgra;
    switch (type) {
        case GL_INT_2_10_10_10_REV:
            if (integer) return VK_FORMAT_UNDEFINED;
            return bgra ? (normalized ? VK_FORMAT_A2R10G10B10_SNORM_PACK32 : VK_FORMAT_A2R10G10B10_SSCALED_PACK32)
                        : (normalized ? VK_FORMAT_A2B10G10R10_SNORM_PACK32 : VK_FORMAT_A2B10G10R10_SSCALED_PACK32);
        case GL_UNSIGNED_INT_2_10_10_10_REV:
            if (integer) return VK_FORMAT_UNDEFINED;
            return bgra ? (normalized ? VK_FORMAT_A2R10G10B10_UNORM_PACK32 : VK_FORMAT_A2R10G10B10_USCALED_PACK32)
                        : (normalized ? VK_FORMAT_A2B10G10R10_UNORM_PACK32 : VK_FORMAT_A2B10G10R10_USCALED_PACK32);
        case GL_UNSIGNED_INT_10F_11F_11F_REV: return integer || bgra ? VK_FORMAT_UNDEFINED : VK_FORMAT_B10G11R11_UFLOAT_PACK32;
        default: break;
    }
    if (bgra) return type == GL_UNSIGNED_BYTE && normalized && !integer ? VK_FORMAT_B8G8R8A8_UNORM : VK_FORMAT_UNDEFINED;
    const int i = std::clamp(size, 1, 4) - 1;
    switch (type) {
        case GL_FLOAT: return f32[i];
        case GL_UNSIGNED_BYTE: return integer ? u8i[i] : normalized ? u8n[i] : u8s[i];
        case GL_BYTE: return integer ? s8i[i] : normalized ? s8n[i] : s8s[i];
        case GL_UNSIGNED_SHORT: return integer ? u16i[i] : normalized ? u16n[i] : u16s[i];
        case GL_SHORT: return integer ? s16i[i] : normalized ? s16n[i] : s16s[i];
        case GL_UNSIGNED_INT: return integer ? u32i[i] : VK_FORMAT_UNDEFINED;
        case GL_INT: return integer ? s32i[i] : VK_FORMAT_UNDEFINED;
        case GL_HALF_FLOAT:
        case GL_HALF_FLOAT_OES: return f16[i];
        default: return VK_FORMAT_UNDEFINED;
    }
}

uint32_t attrib_bytes(GLenum type, int size) {
    if (type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_10F_11F_11F_REV)
        return 4;
    return uint32_t(size == 0x80E1 ? 4 : size) * type_bytes(type);
}

uint32_t type_bytes(GLenum type) {
    switch (type) {
        case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
        case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2;
        default: return 4;
    }
}

VkBlendFactor blend_factor(GLenum f) {
    switch (f) {
        case GL_ZERO: return VK_BLEND_FACTOR_ZERO;
        case GL_ONE: return VK_BLEND_FACTOR_ONE;
        case GL_SRC_COLOR: return VK_BLEND_FACTOR_SRC_COLOR;
        case GL_ONE_MINUS_SRC_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
        case GL_DST_COLOR: return VK_BLEND_FACTOR_DST_COLOR;
        case GL_ONE_MINUS_DST_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
        case GL_SRC_ALPHA: return VK_BLEND_FACTOR_SRC_ALPHA;
        case GL_ONE_MINUS_SRC_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        case GL_DST_ALPHA: return VK_BLEND_FACTOR_DST_ALPHA;
        case GL_ONE_MINUS_DST_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
        case GL_CONSTANT_COLOR: return VK_BLEND_FACTOR_CONSTANT_COLOR;
        case GL_ONE_MINUS_CONSTANT_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
        case GL_CONSTANT_ALPHA: return VK_BLEND_FACTOR_CONSTANT_ALPHA;
        case GL_ONE_MINUS_CONSTANT_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
        case GL_SRC_ALPHA_SATURATE: return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
        default: return VK_BLEND_FACTOR_ONE;
    }
}

VkBlendOp blend_op(GLenum e) {
    switch (e) {
        case GL_FUNC_SUBTRACT: return VK_BLEND_OP_SUBTRACT;
        case GL_FUNC_REVERSE_SUBTRACT: return VK_BLEND_OP_REVERSE_SUBTRACT;
        case GL_MIN: return VK_BLEND_OP_MIN;
        case GL_MAX: return VK_BLEND_OP_MAX;
        default: return VK_BLEND_OP_ADD;
    }
}

VkCompareOp compare(GLenum f) {
    switch (f) {
        case GL_NEVER: return VK_COMPARE_OP_NEVER;
        case GL_LESS: return VK_COMPARE_OP_LESS;
        case GL_EQUAL: return VK_COMPARE_OP_EQUAL;
        case GL_LEQUAL: return VK_COMPARE_OP_LESS_OR_EQUAL;
        case GL_GREATER: return VK_COMPARE_OP_GREATER;
        case GL_NOTEQUAL: return VK_COMPARE_OP_NOT_EQUAL;
        case GL_GEQUAL: return VK_COMPARE_OP_GREATER_OR_EQUAL;
        default: return VK_COMPARE_OP_ALWAYS;
    }
}

VkStencilOp stencil_op(GLenum o) {
    switch (o) {
        case GL_ZERO: return VK_STENCIL_OP_ZERO;
        case GL_REPLACE: return VK_STENCIL_OP_REPLACE;
        case GL_INCR: return VK_STENCIL_OP_INCREMENT_AND_CLAMP;
        case GL_DECR: return VK_STENCIL_OP_DECREMENT_AND_CLAMP;
        case GL_INVERT: return VK_STENCIL_OP_INVERT;
        case GL_INCR_WRAP: return VK_STENCIL_OP_INCREMENT_AND_WRAP;
        case GL_DECR_WRAP: return VK_STENCIL_OP_DECREMENT_AND_WRAP;
        default: return VK_STENCIL_OP_KEEP;
    }
}

bool topology(GLenum mode, VkPrimitiveTopology& t) {
    switch (mode) {
        case GL_POINTS: t = VK_PRIMITIVE_TOPOLOGY_POINT_LIST; return true;
        case GL_LINES: t = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; return true;
        case GL_LINE_STRIP:
        case GL_LINE_LOOP: t = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; return true;
        case GL_TRIANGLES: t = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST; return true;
        case GL_TRIANGLE_STRIP: t = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP; return true;
        case GL_TRIANGLE_FAN: t = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN; return true;
        // Desktop GL 3.2's adjacency primitives (geometry shaders read them).
        case GL_LINES_ADJACENCY: t = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY; return true;
        case GL_LINE_STRIP_ADJACENCY: t = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY; return true;
        case GL_TRIANGLES_ADJACENCY: t = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY; return true;
        case GL_TRIANGLE_STRIP_ADJACENCY: t = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY; return true;
        case GL_PATCHES: t = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST; return true;  // GL 4.0 (tessellation)
        default: return false;
    }
}

bool geometry_accepts(GLenum input, GLenum mode) {
    switch (input) {
        case GL_POINTS: return mode == GL_POINTS;
        case GL_LINES: return mode == GL_LINES || mode == GL_LINE_STRIP || mode == GL_LINE_LOOP;
        case GL_LINES_ADJACENCY: return mode == GL_LINES_ADJACENCY || mode == GL_LINE_STRIP_ADJACENCY;
        case GL_TRIANGLES: return mode == GL_TRIANGLES || mode == GL_TRIANGLE_STRIP || mode == GL_TRIANGLE_FAN;
        case GL_TRIANGLES_ADJACENCY: return mode == GL_TRIANGLES_ADJACENCY || mode == GL_TRIANGLE_STRIP_ADJACENCY;
        default: return false;
    }
}

// With a dynamic topology a pipeline serves every topology of its class.
int topology_class(VkPrimitiveTopology t) {
    switch (t) {
        case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return 0;
        case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
        case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return 1;
        case VK_PRIMITIVE_TOPOLOGY_PATCH_LIST: return 3;
        default: return 2;
    }
}

// Which texture binding (and stand-in) a sampler type reads: draw_input.h's kDummy* order.
int sampler_dim(GLenum type) {
    switch (type) {
        case GL_SAMPLER_CUBE: case GL_SAMPLER_CUBE_SHADOW: case GL_INT_SAMPLER_CUBE: case GL_UNSIGNED_INT_SAMPLER_CUBE: return 1;
        case GL_SAMPLER_3D: case GL_INT_SAMPLER_3D: case GL_UNSIGNED_INT_SAMPLER_3D: return 2;
        case GL_SAMPLER_2D_ARRAY: case GL_SAMPLER_2D_ARRAY_SHADOW: case GL_INT_SAMPLER_2D_ARRAY:
        case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY: return 3;
        case kSampler1DArray: case kSampler1DArrayShadow: case kIntSampler1DArray: case kUintSampler1DArray: return 3;
        case GL_SAMPLER_2D_MULTISAMPLE: case GL_INT_SAMPLER_2D_MULTISAMPLE: case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE: return 4;
        case GL_SAMPLER_2D_MULTISAMPLE_ARRAY: case GL_INT_SAMPLER_2D_MULTISAMPLE_ARRAY:
        case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY: return 5;
        default: return 0;
    }
}

// Which stand-in format a sampler type reads: draw_input.h's kDummy{Float,Sint,Uint}.
int sampler_kind(GLenum type) {
    switch (type) {
        case GL_INT_SAMPLER_2D: case GL_INT_SAMPLER_3D: case GL_INT_SAMPLER_CUBE: case GL_INT_SAMPLER_2D_ARRAY:
        case GL_INT_SAMPLER_2D_MULTISAMPLE: case GL_INT_SAMPLER_2D_MULTISAMPLE_ARRAY:
        case kIntSampler1D: case kIntSampler1DArray: case kIntSampler2DRect: return 1;
        case GL_UNSIGNED_INT_SAMPLER_2D: case GL_UNSIGNED_INT_SAMPLER_3D: case GL_UNSIGNED_INT_SAMPLER_CUBE:
        case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY: case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE:
        case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY:
        case kUintSampler1D: case kUintSampler1DArray: case kUintSampler2DRect: return 2;
        default: return 0;
    }
}

int lowered_sampler(GLenum type) {
    switch (type) {
        case kSampler1D: case kSampler1DShadow: case kIntSampler1D: case kUintSampler1D: return 1;
        case kSampler1DArray: case kSampler1DArrayShadow: case kIntSampler1DArray: case kUintSampler1DArray: return 2;
        case kSampler2DRect: case kSampler2DRectShadow: case kIntSampler2DRect: case kUintSampler2DRect: return 3;
        default: return 0;
    }
}

// The Vulkan format a generic (disabled-array) attribute is read with: the shader input's base type.
VkFormat generic_format(GLenum shader_type) {
    switch (shader_type) {
        case GL_INT: case GL_INT_VEC2: case GL_INT_VEC3: case GL_INT_VEC4: return VK_FORMAT_R32G32B32A32_SINT;
        case GL_UNSIGNED_INT: case GL_UNSIGNED_INT_VEC2: case GL_UNSIGNED_INT_VEC3: case GL_UNSIGNED_INT_VEC4:
            return VK_FORMAT_R32G32B32A32_UINT;
        default: return VK_FORMAT_R32G32B32A32_SFLOAT;
    }
}

}  // namespace mgl::magma
