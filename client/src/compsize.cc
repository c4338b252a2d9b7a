#include "compsize.h"

#include <climits>

#include "mgl/wire/gl_sizes.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "context.h"

namespace mgl::client {

namespace {

using gen::Op;

// glGet*v pnames of OpenGL ES 3.2 (state tables 21.x) and of the extensions
// the client commonly sees, with their value counts. 0: the count is another
// query's value (see variable_count).
const std::unordered_map<GLenum, int>& get_counts() {
    static const std::unordered_map<GLenum, int> m = [] {
        std::unordered_map<GLenum, int> t;
        for (GLenum p : {GL_VIEWPORT, GL_SCISSOR_BOX, GL_COLOR_CLEAR_VALUE, GL_COLOR_WRITEMASK, GL_BLEND_COLOR})
            t[p] = 4;
        for (GLenum p : {GL_DEPTH_RANGE, GL_MAX_VIEWPORT_DIMS, GL_ALIASED_POINT_SIZE_RANGE, GL_ALIASED_LINE_WIDTH_RANGE,
                         GL_MULTISAMPLE_LINE_WIDTH_RANGE})
            t[p] = 2;
        t[GL_PRIMITIVE_BOUNDING_BOX] = 8;
        t[GL_VIEWPORT_BOUNDS_RANGE_OES] = 2;
        for (GLenum p : {GL_COMPRESSED_TEXTURE_FORMATS, GL_SHADER_BINARY_FORMATS, GL_PROGRAM_BINARY_FORMATS}) t[p] = 0;
        const GLenum ones[] = {
            // bindings
            GL_ARRAY_BUFFER_BINDING, GL_ELEMENT_ARRAY_BUFFER_BINDING, GL_COPY_READ_BUFFER_BINDING,
            GL_COPY_WRITE_BUFFER_BINDING, GL_PIXEL_PACK_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER_BINDING,
            GL_UNIFORM_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, GL_DRAW_INDIRECT_BUFFER_BINDING,
            GL_DISPATCH_INDIRECT_BUFFER_BINDING, GL_ATOMIC_COUNTER_BUFFER_BINDING, GL_SHADER_STORAGE_BUFFER_BINDING,
            GL_TEXTURE_BUFFER_BINDING, GL_VERTEX_ARRAY_BINDING, GL_FRAMEBUFFER_BINDING, GL_READ_FRAMEBUFFER_BINDING,
            GL_RENDERBUFFER_BINDING, GL_CURRENT_PROGRAM, GL_PROGRAM_PIPELINE_BINDING, GL_TRANSFORM_FEEDBACK_BINDING,
            GL_ACTIVE_TEXTURE, GL_TEXTURE_BINDING_2D, GL_TEXTURE_BINDING_CUBE_MAP, GL_TEXTURE_BINDING_3D,
            GL_TEXTURE_BINDING_2D_ARRAY, GL_TEXTURE_BINDING_EXTERNAL_OES, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY,
            GL_TEXTURE_BINDING_2D_MULTISAMPLE, GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_BINDING_BUFFER,
            GL_SAMPLER_BINDING, 0x8068 /* GL_TEXTURE_BINDING_1D */, 0x8C1C /* GL_TEXTURE_BINDING_1D_ARRAY */,
            0x84F6 /* GL_TEXTURE_BINDING_RECTANGLE */, 0x84F8 /* GL_MAX_RECTANGLE_TEXTURE_SIZE */, GL_READ_BUFFER, 0x0C01 /* GL_DRAW_BUFFER (desktop) */, GL_DRAW_BUFFER0, GL_DRAW_BUFFER1, GL_DRAW_BUFFER2, GL_DRAW_BUFFER3,
            GL_DRAW_BUFFER4, GL_DRAW_BUFFER5, GL_DRAW_BUFFER6, GL_DRAW_BUFFER7,
            // caps
            GL_BLEND, GL_CULL_FACE, GL_DEPTH_TEST, GL_DITHER, GL_POLYGON_OFFSET_FILL, GL_SAMPLE_ALPHA_TO_COVERAGE,
            GL_SAMPLE_COVERAGE, GL_SCISSOR_TEST, GL_STENCIL_TEST, GL_PRIMITIVE_RESTART_FIXED_INDEX,
            GL_RASTERIZER_DISCARD, GL_SAMPLE_MASK, GL_DEBUG_OUTPUT, GL_DEBUG_OUTPUT_SYNCHRONOUS, GL_SAMPLE_SHADING,
            GL_TRANSFORM_FEEDBACK_ACTIVE, GL_TRANSFORM_FEEDBACK_PAUSED,
            // fixed-function state
            GL_DEPTH_CLEAR_VALUE, GL_STENCIL_CLEAR_VALUE, GL_DEPTH_WRITEMASK, GL_DEPTH_FUNC, GL_CULL_FACE_MODE,
            GL_FRONT_FACE, GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA,
            GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA, GL_STENCIL_FUNC, GL_STENCIL_REF, GL_STENCIL_VALUE_MASK,
            GL_STENCIL_FAIL, GL_STENCIL_PASS_DEPTH_FAIL, GL_STENCIL_PASS_DEPTH_PASS, GL_STENCIL_WRITEMASK,
            GL_STENCIL_BACK_FUNC, GL_STENCIL_BACK_REF, GL_STENCIL_BACK_VALUE_MASK, GL_STENCIL_BACK_FAIL,
            GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_STENCIL_BACK_PASS_DEPTH_PASS, GL_STENCIL_BACK_WRITEMASK,
            GL_LINE_WIDTH, GL_POLYGON_OFFSET_FACTOR, GL_POLYGON_OFFSET_UNITS, GL_SAMPLE_COVERAGE_VALUE,
            GL_SAMPLE_COVERAGE_INVERT, GL_GENERATE_MIPMAP_HINT, GL_FRAGMENT_SHADER_DERIVATIVE_HINT,
            GL_MIN_SAMPLE_SHADING_VALUE,
            // pixel store
            GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_PIXELS,
            GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_IMAGES, GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS,
            GL_PACK_SKIP_ROWS,
            // framebuffer-dependent
            GL_RED_BITS, GL_GREEN_BITS, GL_BLUE_BITS, GL_ALPHA_BITS, GL_DEPTH_BITS, GL_STENCIL_BITS,
            GL_SAMPLE_BUFFERS, GL_SAMPLES, GL_IMPLEMENTATION_COLOR_READ_TYPE, GL_IMPLEMENTATION_COLOR_READ_FORMAT,
            GL_SUBPIXEL_BITS,
            // implementation limits
            GL_MAX_TEXTURE_SIZE, GL_MAX_CUBE_MAP_TEXTURE_SIZE, GL_MAX_RENDERBUFFER_SIZE, GL_MAX_VERTEX_ATTRIBS,
            GL_MAX_VERTEX_UNIFORM_VECTORS, GL_MAX_FRAGMENT_UNIFORM_VECTORS, GL_MAX_VARYING_VECTORS,
            GL_MAX_TEXTURE_IMAGE_UNITS, GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS, GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS,
            GL_NUM_COMPRESSED_TEXTURE_FORMATS, GL_NUM_SHADER_BINARY_FORMATS, GL_SHADER_COMPILER,
            GL_MAX_3D_TEXTURE_SIZE, GL_MAX_ARRAY_TEXTURE_LAYERS, GL_MAX_COLOR_ATTACHMENTS, GL_MAX_DRAW_BUFFERS,
            GL_MAX_ELEMENTS_INDICES, GL_MAX_ELEMENTS_VERTICES, GL_MAX_SAMPLES, GL_MAX_UNIFORM_BUFFER_BINDINGS,
            GL_MAX_UNIFORM_BLOCK_SIZE, GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, GL_MAX_VERTEX_UNIFORM_BLOCKS,
            GL_MAX_FRAGMENT_UNIFORM_BLOCKS, GL_MAX_COMBINED_UNIFORM_BLOCKS, GL_MAX_VERTEX_UNIFORM_COMPONENTS,
            GL_MAX_FRAGMENT_UNIFORM_COMPONENTS, GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS,
            GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS, GL_MAX_VARYING_COMPONENTS, GL_MAX_VERTEX_OUTPUT_COMPONENTS,
            GL_MAX_FRAGMENT_INPUT_COMPONENTS, GL_MIN_PROGRAM_TEXEL_OFFSET, GL_MAX_PROGRAM_TEXEL_OFFSET,
            GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS,
            GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS, GL_MAX_TEXTURE_LOD_BIAS, GL_NUM_EXTENSIONS,
            GL_MAJOR_VERSION, GL_MINOR_VERSION, GL_NUM_PROGRAM_BINARY_FORMATS, GL_MAX_SERVER_WAIT_TIMEOUT,
            GL_MAX_ELEMENT_INDEX, GL_MAX_COLOR_TEXTURE_SAMPLES, GL_MAX_DEPTH_TEXTURE_SAMPLES, GL_MAX_INTEGER_SAMPLES,
            GL_MAX_SAMPLE_MASK_WORDS, GL_MAX_FRAMEBUFFER_WIDTH, GL_MAX_FRAMEBUFFER_HEIGHT,
            GL_MAX_FRAMEBUFFER_SAMPLES, GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET, GL_MAX_VERTEX_ATTRIB_BINDINGS,
            GL_MAX_VERTEX_ATTRIB_STRIDE, GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS,
            GL_MAX_SHADER_STORAGE_BLOCK_SIZE, GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, GL_MAX_IMAGE_UNITS,
            0x906D /* GL_MAX_IMAGE_SAMPLES (desktop GL 4.2) */,
            GL_MAX_COMPUTE_UNIFORM_BLOCKS, GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS, GL_MAX_COMPUTE_SHARED_MEMORY_SIZE,
            GL_MAX_COMPUTE_UNIFORM_COMPONENTS, GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS,
            GL_MAX_COMPUTE_ATOMIC_COUNTERS, GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS,
            GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, GL_MAX_COMPUTE_IMAGE_UNIFORMS, GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS,
            GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS, GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS,
            GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS, GL_MAX_VERTEX_ATOMIC_COUNTERS, GL_MAX_FRAGMENT_ATOMIC_COUNTERS,
            GL_MAX_COMBINED_ATOMIC_COUNTERS, GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE, GL_MAX_VERTEX_IMAGE_UNIFORMS,
            GL_MAX_FRAGMENT_IMAGE_UNIFORMS, GL_MAX_COMBINED_IMAGE_UNIFORMS, GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS,
            GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS, GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS,
            GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES, GL_MAX_UNIFORM_LOCATIONS, GL_MIN_FRAGMENT_INTERPOLATION_OFFSET,
            GL_MAX_FRAGMENT_INTERPOLATION_OFFSET, GL_FRAGMENT_INTERPOLATION_OFFSET_BITS,
            GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET, GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET,
            GL_MAX_TEXTURE_BUFFER_SIZE, GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT, GL_MAX_GEOMETRY_UNIFORM_BLOCKS,
            GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS, GL_MAX_GEOMETRY_OUTPUT_VERTICES, GL_MAX_GEOMETRY_INPUT_COMPONENTS,
            GL_MAX_GEOMETRY_OUTPUT_COMPONENTS, GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS,
            GL_MAX_GEOMETRY_UNIFORM_COMPONENTS, GL_MAX_GEOMETRY_SHADER_INVOCATIONS, GL_MAX_PATCH_VERTICES,
            GL_MAX_TESS_GEN_LEVEL, GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS, GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS,
            GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS, GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS,
            GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS, GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS, GL_LAYER_PROVOKING_VERTEX,
            GL_MAX_DEBUG_MESSAGE_LENGTH, GL_MAX_DEBUG_LOGGED_MESSAGES, GL_DEBUG_LOGGED_MESSAGES,
            GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH, GL_MAX_DEBUG_GROUP_STACK_DEPTH, GL_DEBUG_GROUP_STACK_DEPTH,
            GL_MAX_LABEL_LENGTH, GL_CONTEXT_FLAGS, GL_RESET_NOTIFICATION_STRATEGY, GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT,
            GL_GPU_DISJOINT_EXT, GL_TIMESTAMP_EXT, GL_MAX_CLIP_DISTANCES_EXT, GL_MAX_CULL_DISTANCES_EXT,
            GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES_EXT,
            // ES 3.2 geometry/tessellation limits and state
            GL_MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS, GL_MAX_GEOMETRY_ATOMIC_COUNTERS, GL_MAX_GEOMETRY_IMAGE_UNIFORMS,
            GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS, GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS,
            GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS, GL_MAX_TESS_PATCH_COMPONENTS,
            GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS, GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS,
            GL_MAX_TESS_CONTROL_INPUT_COMPONENTS, GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS,
            GL_MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS, GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS,
            GL_MAX_TESS_CONTROL_ATOMIC_COUNTERS, GL_MAX_TESS_EVALUATION_ATOMIC_COUNTERS,
            GL_MAX_TESS_CONTROL_IMAGE_UNIFORMS, GL_MAX_TESS_EVALUATION_IMAGE_UNIFORMS,
            GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS, GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS,
            GL_MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS, GL_MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS,
            GL_MAX_FRAMEBUFFER_LAYERS, GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED, GL_PATCH_VERTICES,
            GL_MULTISAMPLE_LINE_WIDTH_GRANULARITY, GL_CONTEXT_ROBUST_ACCESS_EXT,
            // GLES extensions with their own state
            GL_MAX_SHADER_COMPILER_THREADS_KHR, GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT, GL_POLYGON_OFFSET_CLAMP_EXT,
            GL_CLIP_ORIGIN_EXT, GL_CLIP_DEPTH_MODE_EXT, GL_MAX_VIEWPORTS_OES, GL_VIEWPORT_SUBPIXEL_BITS_OES,
            GL_VIEWPORT_INDEX_PROVOKING_VERTEX_OES, GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT,
        };
        for (GLenum p : ones) t[p] = 1;
        // Desktop GL state and constants (served by the GL front end's
        // DesktopState or the host's extension of the same enum; an ES
        // context gets the host's GL_INVALID_ENUM for them).
        const GLenum desktop_ones[] = {
            0x864F /* DEPTH_CLAMP */, 0x884F /* TEXTURE_CUBE_MAP_SEAMLESS */, 0x8642 /* PROGRAM_POINT_SIZE */,
            0x809D /* MULTISAMPLE */, 0x0B20 /* LINE_SMOOTH */, 0x0B41 /* POLYGON_SMOOTH */,
            0x8F9D /* PRIMITIVE_RESTART */, 0x8F9E /* PRIMITIVE_RESTART_INDEX */, 0x8E4F /* PROVOKING_VERTEX */,
            0x8E4C /* QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION */, 0x0C52 /* LINE_SMOOTH_HINT */,
            0x0C53 /* POLYGON_SMOOTH_HINT */, 0x84EF /* TEXTURE_COMPRESSION_HINT */, 0x0C32 /* DOUBLEBUFFER */,
            0x0C33 /* STEREO */, 0x0C00 /* AUX_BUFFERS */, 0x0B23 /* SMOOTH_LINE_WIDTH_GRANULARITY */,
            0x0B13 /* POINT_SIZE_GRANULARITY */, 0x8DB9 /* FRAMEBUFFER_SRGB */, 0x3000, 0x3001, 0x3002, 0x3003,
            0x3004, 0x3005, 0x3006, 0x3007 /* CLIP_DISTANCE0-7 */, 0x8D9E /* RGBA_INTEGER_MODE_EXT */,
            0x8F9F /* MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB */,
        };
        for (GLenum p : desktop_ones) t[p] = 1;
        t[0x0B22] = 2;  // SMOOTH_LINE_WIDTH_RANGE
        t[0x0B12] = 2;  // POINT_SIZE_RANGE
        t[0x8E74] = 4;  // PATCH_DEFAULT_OUTER_LEVEL
        t[0x8E73] = 2;  // PATCH_DEFAULT_INNER_LEVEL
        return t;
    }();
    return m;
}

int64_t variable_count(const Context& ctx, GLenum pname) {
    GLenum n = 0;
    switch (pname) {
        case GL_COMPRESSED_TEXTURE_FORMATS: n = GL_NUM_COMPRESSED_TEXTURE_FORMATS; break;
        case GL_SHADER_BINARY_FORMATS: n = GL_NUM_SHADER_BINARY_FORMATS; break;
        case GL_PROGRAM_BINARY_FORMATS: n = GL_NUM_PROGRAM_BINARY_FORMATS; break;
        default: return kBadEnum;
    }
    auto it = ctx.limits.find(n);
    return it == ctx.limits.end() ? 64 : std::max<int64_t>(it->second.i[0], 0);
}

bool is_texture_parameter_op(Op op) {
    switch (op) {
        case Op::glTexParameterfv: case Op::glTexParameteriv: case Op::glTexParameterIiv: case Op::glTexParameterIuiv:
        case Op::glGetTexParameterfv: case Op::glGetTexParameteriv: case Op::glGetTexParameterIiv:
        case Op::glGetTexParameterIuiv: case Op::glSamplerParameterfv: case Op::glSamplerParameteriv:
        case Op::glSamplerParameterIiv: case Op::glSamplerParameterIuiv: case Op::glGetSamplerParameterfv:
        case Op::glGetSamplerParameteriv: case Op::glGetSamplerParameterIiv: case Op::glGetSamplerParameterIuiv:
        case Op::glTexParameterIivEXT: case Op::glTexParameterIuivEXT: case Op::glTexParameterIivOES:
        case Op::glTexParameterIuivOES: case Op::glGetTexParameterIivEXT: case Op::glGetTexParameterIuivEXT:
        case Op::glGetTexParameterIivOES: case Op::glGetTexParameterIuivOES: case Op::glSamplerParameterIivEXT:
        case Op::glSamplerParameterIuivEXT: case Op::glSamplerParameterIivOES: case Op::glSamplerParameterIuivOES:
        case Op::glGetSamplerParameterIivEXT: case Op::glGetSamplerParameterIuivEXT:
        case Op::glGetSamplerParameterIivOES: case Op::glGetSamplerParameterIuivOES:
            return true;
        default:
            return false;
    }
}

int64_t texture_parameter_count(GLenum pname) {
    switch (pname) {
        case GL_TEXTURE_BORDER_COLOR: return 4;
        case 0x8E46: return 4;  // GL_TEXTURE_SWIZZLE_RGBA (desktop: the four swizzles at once)
        case GL_TEXTURE_MAG_FILTER: case GL_TEXTURE_MIN_FILTER: case GL_TEXTURE_WRAP_S: case GL_TEXTURE_WRAP_T:
        case GL_TEXTURE_WRAP_R: case GL_TEXTURE_MIN_LOD: case GL_TEXTURE_MAX_LOD: case GL_TEXTURE_BASE_LEVEL:
        case GL_TEXTURE_MAX_LEVEL: case GL_TEXTURE_COMPARE_MODE: case GL_TEXTURE_COMPARE_FUNC:
        case GL_TEXTURE_SWIZZLE_R: case GL_TEXTURE_SWIZZLE_G: case GL_TEXTURE_SWIZZLE_B: case GL_TEXTURE_SWIZZLE_A:
        case GL_TEXTURE_IMMUTABLE_FORMAT: case GL_TEXTURE_IMMUTABLE_LEVELS: case GL_DEPTH_STENCIL_TEXTURE_MODE:
        case GL_TEXTURE_MAX_ANISOTROPY_EXT: case GL_IMAGE_FORMAT_COMPATIBILITY_TYPE:
        case GL_TEXTURE_SRGB_DECODE_EXT: case GL_TEXTURE_PROTECTED_EXT:
        case GL_TEXTURE_VIEW_MIN_LEVEL_OES: case GL_TEXTURE_VIEW_NUM_LEVELS_OES: case GL_TEXTURE_VIEW_MIN_LAYER_OES:
        case GL_TEXTURE_VIEW_NUM_LAYERS_OES:
            return 1;
        default:
            return kBadEnum;
    }
}

}  // namespace

int64_t cs_pname(const Context& ctx, Op op, GLenum pname) {
    switch (op) {
        case Op::glGetIntegerv: case Op::glGetFloatv: case Op::glGetBooleanv: case Op::glGetInteger64v:
        case Op::glGetInteger64vAPPLE: case Op::glGetInteger64vEXT: {
            const auto& m = get_counts();
            auto it = m.find(pname);
            if (it == m.end()) return kBadEnum;
            return it->second ? it->second : variable_count(ctx, pname);
        }
        case Op::glGetProgramiv:
            return pname == GL_COMPUTE_WORK_GROUP_SIZE ? 3 : 1;
        case Op::glGetMultisamplefv:
            return pname == GL_SAMPLE_POSITION ? 2 : kBadEnum;
        case Op::glGetActiveUniformBlockiv:
            // The active uniform indices: cs_uniform_block asks for their count first.
            return pname == GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES ? kUnsupported : 1;
        // Fixed-function setters (a display list copies their arrays: compat/ff_gate.h).
        case Op::glLightfv: case Op::glLightiv:
            return pname == 0x1204 /* GL_SPOT_DIRECTION */ ? 3 : (pname >= 0x1200 && pname <= 0x1203) ? 4 : 1;  // colours, GL_POSITION
        case Op::glMaterialfv: case Op::glMaterialiv:
            return pname == 0x1601 /* GL_SHININESS */ ? 1 : pname == 0x1603 /* GL_COLOR_INDEXES */ ? 3 : 4;
        case Op::glLightModelfv: case Op::glLightModeliv:
            return pname == 0x0B53 /* GL_LIGHT_MODEL_AMBIENT */ ? 4 : 1;
        case Op::glFogfv: case Op::glFogiv:
            return pname == 0x0B66 /* GL_FOG_COLOR */ ? 4 : 1;
        case Op::glTexGenfv: case Op::glTexGeniv: case Op::glTexGendv:
            return pname == 0x2500 /* GL_TEXTURE_GEN_MODE */ ? 1 : 4;
        case Op::glTexEnvfv: case Op::glTexEnviv:
            return pname == 0x2201 /* GL_TEXTURE_ENV_COLOR */ ? 4 : 1;
        case Op::glPointParameterfv: case Op::glPointParameteriv:
            return pname == 0x8129 /* GL_POINT_DISTANCE_ATTENUATION */ ? 3 : 1;
        case Op::glPatchParameterfv:
            return pname == 0x8E74 /* GL_PATCH_DEFAULT_OUTER_LEVEL */ ? 4 : pname == 0x8E73 /* _INNER_LEVEL */ ? 2 : 1;
        default:
            if (is_texture_parameter_op(op)) return texture_parameter_count(pname);
            // Every other pname-sized query of GLES (glGetShaderiv, glGetBufferParameteriv,
            // glGetRenderbufferParameteriv, glGetFramebufferAttachmentParameteriv,
            // glGetQueryiv, glGetQueryObjectuiv, glGetTexLevelParameter*v, ...) returns one
            // value; the server validates the pname itself.
            return 1;
    }
}

int64_t cs_indexed(Op op, GLenum target) {
    switch (target) {
        case GL_COLOR_WRITEMASK: return 4;
        case GL_VIEWPORT: case GL_SCISSOR_BOX: return 4;
        case GL_DEPTH_RANGE: return 2;  // glGetFloati_vOES (OES_viewport_array)
        default: return 1;
    }
}

// Pixel, image, index and clear-value sizes come from libwire's gl_sizes.h,
// the same functions the server checks arrivals with.
int64_t pixel_bytes(GLenum format, GLenum type) {
    const uint32_t n = wire::pixel_bytes(format, type);
    return n ? int64_t(n) : kBadEnum;
}

int64_t cs_image(const Context& ctx, bool pack, bool three_d, GLenum format, GLenum type, int64_t width,
                 int64_t height, int64_t depth) {
    if (width < 0 || height < 0 || depth < 0) return kBadValue;
    const State::PixelStore& s = pack ? ctx.st.pack : ctx.st.unpack;
    const wire::PixelStore ps{s.alignment, s.row_length, pack ? 0 : s.image_height, s.skip_pixels, s.skip_rows,
                              pack ? 0 : s.skip_images};
    const uint64_t n = wire::image_bytes(ps, format, type, width, height, depth, three_d && !pack);
    if (n == wire::kUnknownSize) return kBadEnum;
    return n > uint64_t(INT64_MAX) ? kBadValue : int64_t(n);
}

int64_t cs_indices(int64_t count, GLenum type) {
    if (count < 0) return kBadValue;
    const uint64_t n = wire::index_bytes(count, type);
    return n == wire::kUnknownSize ? kBadEnum : int64_t(n);
}

int64_t cs_clear_buffer(GLenum buffer) {
    const uint32_t n = wire::clear_value_count(buffer);
    return n ? int64_t(n) : kBadEnum;
}

int64_t cs_label(const char* s, GLsizei length) {
    if (!s) return 0;
    if (length < 0) return int64_t(std::strlen(s)) + 1;
    return length;
}

int64_t cs_image_storage_attribs(const GLint* list) { return list ? 1 : 0; }

int64_t attrib_bytes(GLint size, GLenum type) {
    if (size == 0x80E1 /* GL_BGRA: 4 components */) size = 4;
    switch (type) {
        case GL_BYTE: case GL_UNSIGNED_BYTE: return size;
        case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2 * int64_t(size);
        case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_FIXED: return 4 * int64_t(size);
        case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV: return 4;
        case 0x8C3B /* GL_UNSIGNED_INT_10F_11F_11F_REV */: return 4;
        // desktop GL's glVertexAttribPointer / glVertexPointer & co. (an ES
        // host refuses it; Espryt converts: backends/espryt/converted_arrays.cc)
        case 0x140A /* GL_DOUBLE */: return 8 * int64_t(size);
        default: return kBadEnum;
    }
}

}  // namespace mgl::client
