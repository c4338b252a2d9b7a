// The limits and the state the glGet* verbs read (glGetIntegerv, glGetFloatv,
// glGetInteger64v, glGetBooleanv, glIsEnabled), and shader precisions.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cmath>

#include "backend.h"
#include "context/desktop_context.h"

namespace mgl::magma {

// ---- limits and queries ---------------------------------------------------------------

namespace {
// Decoded on upload (etc2.h): ES 3.0's ten ETC2/EAC formats and ETC1.
const GLint kCompressedFormats[] = {
    GL_COMPRESSED_R11_EAC, GL_COMPRESSED_SIGNED_R11_EAC, GL_COMPRESSED_RG11_EAC, GL_COMPRESSED_SIGNED_RG11_EAC,
    GL_COMPRESSED_RGB8_ETC2, GL_COMPRESSED_SRGB8_ETC2, GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2,
    GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, GL_COMPRESSED_RGBA8_ETC2_EAC, GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC,
    GL_ETC1_RGB8_OES};

// GL_MAX_DRAW_BUFFERS and GL_MAX_COLOR_ATTACHMENTS: what the device has, at
// most GL 3.0's 8 in a desktop context; an ES context keeps ES 3.0's 4.
// Desktop shaders see 8 as gl_MaxDrawBuffers (shaders.cc, resources()), which
// every device with a desktop context's 8 attachments matches.
int device_draw_buffers(const Device& d, const Context& c) {
    return int(std::min<uint32_t>(d.props.limits.maxColorAttachments, c.desktop() ? kMaxColorAttachments : 4));
}

// Values the client fetches once per context, and a few more. -1: not a limit.
bool limit(const Device& d, const Context& c, GLenum pname, int64_t* v, int* n) {
    const VkPhysicalDeviceLimits& l = d.props.limits;
    *n = 1;
    if (int32_t dv = 0; c.debug.get(pname, &dv)) return *v = dv, true;  // KHR_debug's limits and counts
    switch (pname) {
        case GL_MAX_TEXTURE_SIZE: *v = std::min<int64_t>(l.maxImageDimension2D, 16384); return true;
        case GL_MAX_CUBE_MAP_TEXTURE_SIZE: *v = std::min<int64_t>(l.maxImageDimensionCube, 16384); return true;
        case GL_MAX_RENDERBUFFER_SIZE: *v = std::min<int64_t>(l.maxFramebufferWidth, 16384); return true;
        case GL_MAX_3D_TEXTURE_SIZE: *v = std::min<int64_t>(l.maxImageDimension3D, 2048); return true;
        case GL_MAX_ARRAY_TEXTURE_LAYERS: *v = std::min<int64_t>(l.maxImageArrayLayers, 2048); return true;
        case GL_MAX_VERTEX_ATTRIBS: *v = 16; return true;
        // GL_MAX_CLIP_DISTANCES_EXT (the same enum): programs such as piglit's
        // shader_runner ask for it unconditionally; the device's own figure.
        case GL_MAX_CLIP_DISTANCES_EXT: *v = std::min<int64_t>(l.maxClipDistances, 8); return true;
        case GL_MAX_VERTEX_UNIFORM_VECTORS:
        case GL_MAX_FRAGMENT_UNIFORM_VECTORS: *v = 256; return true;
        case GL_MAX_VERTEX_UNIFORM_COMPONENTS:
        case GL_MAX_FRAGMENT_UNIFORM_COMPONENTS: *v = 1024; return true;
        case GL_MAX_VARYING_VECTORS: *v = 15; return true;
        case GL_MAX_VARYING_COMPONENTS: *v = 60; return true;
        case GL_MAX_VERTEX_OUTPUT_COMPONENTS: *v = 64; return true;
        // Desktop GL 3.2's 128 (the device's, at most), ES 3.0's 60.
        case GL_MAX_FRAGMENT_INPUT_COMPONENTS:
            *v = c.desktop() ? std::min<int64_t>(l.maxFragmentInputComponents, 128) : 60;
            return true;
        case GL_MAX_TEXTURE_IMAGE_UNITS:
        case GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS: *v = 16; return true;
        case GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS: *v = int64_t(c.unit_count()); return true;
        case GL_MAX_VIEWPORT_DIMS: v[0] = l.maxViewportDimensions[0], v[1] = l.maxViewportDimensions[1]; *n = 2; return true;
        case GL_NUM_COMPRESSED_TEXTURE_FORMATS: *v = int64_t(std::size(kCompressedFormats)); return true;
        case GL_NUM_SHADER_BINARY_FORMATS:
        case GL_NUM_PROGRAM_BINARY_FORMATS: *v = 0; return true;
        case GL_SUBPIXEL_BITS: *v = l.subPixelPrecisionBits; return true;
        case GL_SHADER_COMPILER: *v = 1; return true;
        case GL_MAX_COLOR_ATTACHMENTS:
        case GL_MAX_DRAW_BUFFERS: *v = device_draw_buffers(d, c); return true;
        case GL_MAX_ELEMENTS_INDICES:
        case GL_MAX_ELEMENTS_VERTICES: *v = 1 << 20; return true;
        case GL_MAX_SAMPLES: *v = d.max_samples(); return true;
        // Multisample textures (desktop): the sampled counts, within GL_MAX_SAMPLES.
        case GL_MAX_COLOR_TEXTURE_SAMPLES:
        case GL_MAX_DEPTH_TEXTURE_SAMPLES:
        case GL_MAX_INTEGER_SAMPLES:
            if (!c.desktop()) return false;
            *v = d.max_samples();
            return true;
        case GL_MAX_SAMPLE_MASK_WORDS:
            if (!c.desktop()) return false;
            *v = 1;
            return true;
        case GL_MAX_UNIFORM_BUFFER_BINDINGS: *v = 24; return true;
        case GL_MAX_UNIFORM_BLOCK_SIZE: *v = std::min<int64_t>(l.maxUniformBufferRange, 65536); return true;
        case GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT: *v = int64_t(std::max<VkDeviceSize>(l.minUniformBufferOffsetAlignment, 4)); return true;
        case GL_MAX_VERTEX_UNIFORM_BLOCKS:
        case GL_MAX_FRAGMENT_UNIFORM_BLOCKS: *v = 12; return true;
        case GL_MAX_COMBINED_UNIFORM_BLOCKS: *v = 24; return true;
        case GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS:
        case GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS: *v = 1024 + 12 * 16384; return true;
        // ES 3.0's minimum range, which every Vulkan device covers; shaders
        // see the same figures as built-in constants (shaders.cc, resources()).
        case GL_MIN_PROGRAM_TEXEL_OFFSET: *v = -8; return true;
        case GL_MAX_PROGRAM_TEXEL_OFFSET: *v = 7; return true;
        case GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS: *v = 64; return true;
        case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS: *v = 4; return true;
        case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS: *v = 4; return true;
        case GL_MAX_SERVER_WAIT_TIMEOUT: *v = 0; return true;
        case GL_MAX_ELEMENT_INDEX: *v = (int64_t(1) << 32) - 1; return true;
        case GL_IMPLEMENTATION_COLOR_READ_FORMAT: *v = GL_RGBA; return true;
        case GL_IMPLEMENTATION_COLOR_READ_TYPE: *v = GL_UNSIGNED_BYTE; return true;
        case GL_MAJOR_VERSION: *v = c.served / 10; return true;
        case GL_MINOR_VERSION: *v = c.served % 10; return true;
        case GL_NUM_EXTENSIONS: *v = int64_t(c.extensions.size()); return true;
        default: break;
    }
    // Compute and storage blocks (desktop contexts, compute.cc).
    if (c.desktop() && compute_limit(d, pname, 0, false, v)) return true;
    // Atomic counters (desktop contexts): the front end's figures for this device.
    if (c.desktop() && gl::atomic_counter_limit(pname, counter_limits(d), v)) return true;
    // Image load/store (desktop contexts): the front end's figures.
    if (c.desktop() && gl::image_limit(pname, image_limits(d), v)) return true;
    // GL 4.0's tessellation limits: the front end's table, from the device's figures.
    if (c.desktop() && d.features.tessellationShader) {
        gl::TessellationLimits tl;
        tl.patch_vertices = int(std::min<uint32_t>(l.maxTessellationPatchSize, 32));
        tl.gen_level = int(std::min<uint32_t>(l.maxTessellationGenerationLevel, 64));
        tl.control_inputs = int(l.maxTessellationControlPerVertexInputComponents);
        tl.control_outputs = int(l.maxTessellationControlPerVertexOutputComponents);
        tl.control_total_outputs = int(l.maxTessellationControlTotalOutputComponents);
        tl.patch_outputs = int(l.maxTessellationControlPerPatchOutputComponents);
        tl.evaluation_inputs = int(l.maxTessellationEvaluationInputComponents);
        tl.evaluation_outputs = int(l.maxTessellationEvaluationOutputComponents);
        if (gl::tessellation_limit(pname, tl, v)) return true;
    }
    // Desktop GL 3.2's geometry shader limits: glslang's built-in constants
    // (shaders.cc, resources()), within the device's.
    if (!c.desktop() || !d.features.geometryShader) return false;
    switch (pname) {
        case GL_MAX_GEOMETRY_OUTPUT_VERTICES: *v = std::min<int64_t>(l.maxGeometryOutputVertices, 256); return true;
        case GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS: *v = std::min<int64_t>(l.maxGeometryTotalOutputComponents, 1024); return true;
        case GL_MAX_GEOMETRY_UNIFORM_COMPONENTS: *v = 1024; return true;
        case GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS: *v = 16; return true;
        case GL_MAX_GEOMETRY_INPUT_COMPONENTS: *v = std::min<int64_t>(l.maxGeometryInputComponents, 64); return true;
        case GL_MAX_GEOMETRY_OUTPUT_COMPONENTS: *v = std::min<int64_t>(l.maxGeometryOutputComponents, 128); return true;
        case GL_MAX_GEOMETRY_UNIFORM_BLOCKS: *v = 12; return true;
        case GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS: *v = 1024 + 12 * 16384; return true;
        default: return false;
    }
}
}  // namespace

int MagmaBackend::max_draw_buffers() const { return device_draw_buffers(gpu_->dev(), *cur_); }

void MagmaBackend::glGetIntegerv(GLenum pname, wire::Out<GLint> data) {
    if (!need_context(gen::Op::glGetIntegerv)) return;
    if (double dv[4]; cur_->desktop()) {
        int dn = 0;
        if (desktop_get(pname, dv, &dn)) {
            for (int i = 0; i < dn && uint32_t(i) < data.count(); ++i) data.data[i] = GLint(std::lround(dv[i]));
            return;
        }
        pname = gl::desktop_query_pname(pname);
    }
    int64_t v[4] = {};
    int n = 0;
    if (pname == GL_RED_BITS || pname == GL_GREEN_BITS || pname == GL_BLUE_BITS || pname == GL_ALPHA_BITS ||
        pname == GL_DEPTH_BITS || pname == GL_STENCIL_BITS)
        v[0] = framebuffer_bits(pname), n = 1;
    else if (pname == GL_SAMPLE_BUFFERS) v[0] = fb_samples(true) > 0, n = 1;
    else if (pname == GL_SAMPLES) v[0] = fb_samples(true), n = 1;
    else if (pname == GL_COMPRESSED_TEXTURE_FORMATS) {
        for (uint32_t i = 0; i < std::size(kCompressedFormats) && i < data.count(); ++i) data.data[i] = kCompressedFormats[i];
        return;
    } else if (pname >= GL_DRAW_BUFFER0 && pname <= GL_DRAW_BUFFER15) {
        const uint32_t i = pname - GL_DRAW_BUFFER0;
        const Framebuffer* fb = cur_->draw_fb.get();
        v[0] = fb ? (i < uint32_t(kMaxColorAttachments) ? fb->draw_buffers[i] : GL_NONE) : (i == 0 ? cur_->surface_draw_buffer : GL_NONE), n = 1;
    } else if (pname == GL_READ_BUFFER) {
        v[0] = cur_->read_fb ? cur_->read_fb->read_buffer : cur_->surface_read_buffer, n = 1;
    } else if (xfb_get(pname, v)) {
        n = 1;
    }
    else if (!limit(gpu_->dev(), *cur_, pname, v, &n)) {
        refuse(gen::Op::glGetIntegerv, GL_INVALID_ENUM, fmt::format("pname 0x{:04X} not known to the server", pname).c_str());
        return;
    }
    for (int i = 0; i < n && uint32_t(i) < data.count(); ++i) data.data[i] = GLint(std::clamp<int64_t>(v[i], INT32_MIN, INT32_MAX));
}

void MagmaBackend::glGetInteger64v(GLenum pname, wire::Out<GLint64> data) {
    if (!need_context(gen::Op::glGetInteger64v)) return;
    if (double dv[4]; cur_->desktop()) {
        int dn = 0;
        if (desktop_get(pname, dv, &dn)) {
            for (int i = 0; i < dn && uint32_t(i) < data.count(); ++i) data.data[i] = GLint64(std::llround(dv[i]));
            return;
        }
        pname = gl::desktop_query_pname(pname);
    }
    int64_t v[4] = {};
    int n = 0;
    if (pname == GL_SAMPLE_BUFFERS || pname == GL_SAMPLES) v[0] = pname == GL_SAMPLES ? fb_samples(true) : fb_samples(true) > 0, n = 1;
    else if (!limit(gpu_->dev(), *cur_, pname, v, &n)) {
        refuse(gen::Op::glGetInteger64v, GL_INVALID_ENUM, fmt::format("pname 0x{:04X} not known to the server", pname).c_str());
        return;
    }
    for (int i = 0; i < n && uint32_t(i) < data.count(); ++i) data.data[i] = v[i];
}

void MagmaBackend::glGetFloatv(GLenum pname, wire::Out<GLfloat> data) {
    if (!need_context(gen::Op::glGetFloatv)) return;
    if (double dv[4]; cur_->desktop()) {
        int dn = 0;
        if (desktop_get(pname, dv, &dn)) {
            for (int i = 0; i < dn && uint32_t(i) < data.count(); ++i) data.data[i] = GLfloat(dv[i]);
            return;
        }
        pname = gl::desktop_query_pname(pname);
    }
    const VkPhysicalDeviceLimits& l = gpu_->dev().props.limits;
    float v[2] = {};
    int n = 1;
    switch (pname) {
        case GL_MAX_TEXTURE_LOD_BIAS: v[0] = l.maxSamplerLodBias; break;
        case GL_ALIASED_LINE_WIDTH_RANGE: v[0] = l.lineWidthRange[0], v[1] = l.lineWidthRange[1], n = 2; break;
        case GL_ALIASED_POINT_SIZE_RANGE: v[0] = l.pointSizeRange[0], v[1] = l.pointSizeRange[1], n = 2; break;
        case GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT: v[0] = l.maxSamplerAnisotropy; break;
        case GL_SAMPLE_BUFFERS: v[0] = fb_samples(true) > 0; break;
        case GL_SAMPLES: v[0] = float(fb_samples(true)); break;
        case GL_SAMPLE_COVERAGE_VALUE: v[0] = cur_->st.coverage_value; break;
        default: {
            int64_t iv[4];
            if (!limit(gpu_->dev(), *cur_, pname, iv, &n)) {
                refuse(gen::Op::glGetFloatv, GL_INVALID_ENUM, fmt::format("pname 0x{:04X} not known to the server", pname).c_str());
                return;
            }
            for (int i = 0; i < n && i < 2; ++i) v[i] = float(iv[i]);
        }
    }
    for (int i = 0; i < n && uint32_t(i) < data.count(); ++i) data.data[i] = v[i];
}

void MagmaBackend::glGetBooleanv(GLenum pname, wire::Out<GLboolean> data) {
    if (!need_context(gen::Op::glGetBooleanv)) return;
    if (double dv[4]; cur_->desktop()) {
        int dn = 0;
        if (desktop_get(pname, dv, &dn)) {
            for (int i = 0; i < dn && uint32_t(i) < data.count(); ++i) data.data[i] = dv[i] != 0;
            return;
        }
        pname = gl::desktop_query_pname(pname);
    }
    int64_t v[4] = {};
    int n = 0;
    if (pname == GL_SHADER_COMPILER) v[0] = 1, n = 1;
    else if (pname == GL_SAMPLE_BUFFERS || pname == GL_SAMPLES) v[0] = fb_samples(true), n = 1;
    else if (xfb_get(pname, v)) n = 1;
    else if (pname == GL_SAMPLE_COVERAGE_INVERT) v[0] = cur_->st.coverage_invert, n = 1;
    else if (!limit(gpu_->dev(), *cur_, pname, v, &n)) {
        refuse(gen::Op::glGetBooleanv, GL_INVALID_ENUM, "pname not known to the server");
        return;
    }
    for (int i = 0; i < n && uint32_t(i) < data.count(); ++i) data.data[i] = v[i] != 0;
}

GLboolean MagmaBackend::glIsEnabled(GLenum cap) {
    if (!need_context(gen::Op::glIsEnabled)) return GL_FALSE;
    GLboolean desktop = GL_FALSE;
    if (desktop_is_enabled(cap, desktop)) return desktop;
    if (bool on = false; cur_->debug.cap(cap, &on)) return on;
    const State& s = cur_->st;
    switch (cap) {
        case GL_BLEND: return s.blend;
        case GL_CULL_FACE: return s.cull;
        case GL_DEPTH_TEST: return s.depth_test;
        case GL_STENCIL_TEST: return s.stencil_test;
        case GL_SCISSOR_TEST: return s.scissor_test;
        case GL_POLYGON_OFFSET_FILL: return s.polygon_offset;
        case GL_PRIMITIVE_RESTART_FIXED_INDEX: return s.primitive_restart;
        case GL_RASTERIZER_DISCARD: return s.rasterizer_discard;
        case GL_DITHER: return s.dither;
        case GL_SAMPLE_COVERAGE: return s.sample_coverage;
        case GL_SAMPLE_ALPHA_TO_COVERAGE: return s.alpha_to_coverage;
        case GL_SAMPLE_MASK: return cur_->desktop() && s.sample_mask;
        default: return GL_FALSE;
    }
}

void MagmaBackend::glGetShaderPrecisionFormat(GLenum shadertype, GLenum precisiontype, wire::Out<GLint> range,
                                              wire::Out<GLint> precision) {
    const bool is_int = precisiontype >= GL_LOW_INT;
    if (range.count() >= 2) range.data[0] = is_int ? 31 : 127, range.data[1] = is_int ? 30 : 127;
    if (precision.count() >= 1) precision.data[0] = is_int ? 0 : 23;
}

}  // namespace mgl::magma
