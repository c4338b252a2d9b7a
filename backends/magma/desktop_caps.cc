#include "desktop_caps.h"

#include "context/desktop_context.h"
#include "context/desktop_extensions.h"

namespace mgl::magma {

namespace {

const char* const kEsExtensions[] = {
    "GL_OES_rgb8_rgba8", "GL_OES_depth24", "GL_OES_depth_texture", "GL_OES_packed_depth_stencil", "GL_OES_vertex_array_object",
    "GL_OES_element_index_uint", "GL_OES_texture_npot", "GL_OES_standard_derivatives", "GL_EXT_texture_format_BGRA8888",
    "GL_OES_mapbuffer", "GL_EXT_map_buffer_range", "GL_EXT_discard_framebuffer", "GL_EXT_occlusion_query_boolean",
    "GL_EXT_draw_buffers", "GL_OES_compressed_ETC1_RGB8_texture",
};

// The desktop extensions whose verbs, enums and shader features Magma's
// objects carry on any Vulkan 1.1 device, seen from the desktop side (the
// client encodes the ARB/EXT aliases as the core verbs); the names, their
// order and the compatibility-only ones are the GL front end's
// (backends/gl/context/desktop_extensions.h). What depends on a device
// feature is decided in served_extensions below. Left out: what needs a
// feature Magma lacks so far (texture buffers, multisample textures, timer
// queries, 1D/rectangle textures, program binaries).
const char* const kAlways[] = {
    "GL_ARB_ES2_compatibility", "GL_ARB_copy_buffer", "GL_ARB_depth_buffer_float", "GL_ARB_depth_texture", "GL_ARB_draw_instanced",
    "GL_ARB_explicit_attrib_location", "GL_ARB_fragment_shader", "GL_ARB_framebuffer_object",
    "GL_ARB_half_float_vertex", "GL_ARB_instanced_arrays", "GL_ARB_map_buffer_range", "GL_ARB_occlusion_query2",
    "GL_ARB_pixel_buffer_object", "GL_ARB_sampler_objects", "GL_ARB_shader_objects", "GL_ARB_shading_language_100",
    "GL_ARB_sync", "GL_ARB_texture_rg", "GL_ARB_texture_storage", "GL_ARB_texture_swizzle",
    "GL_ARB_uniform_buffer_object", "GL_ARB_vertex_array_object", "GL_ARB_vertex_buffer_object",
    "GL_ARB_vertex_shader", "GL_ARB_vertex_type_2_10_10_10_rev", "GL_EXT_framebuffer_object",
    "GL_EXT_texture_swizzle",
    // Vulkan samples cube maps seamlessly: the enable is state only (backends/gl/state).
    "GL_ARB_seamless_cube_map",
    // GLSL 3.30's bit casts in earlier versions: glslang's own extension.
    "GL_ARB_shader_bit_encoding",
    // Float textures: RGBA/RGB/RG/R 16F and 32F (ES 3.0's) and the
    // luminance/alpha/intensity ones (formats.cc; uploads from the same base format).
    "GL_ARB_texture_float",
    // gl_FragCoord's layout qualifiers: the GL front end's lowering; the
    // draw height goes into the default uniform block at each draw (draw.cc).
    "GL_ARB_fragment_coord_conventions",
    // Integer textures' desktop side: glClearColorI*, the integer luminance/
    // alpha/intensity formats (the front end's table, desktop_textures.cc),
    // GL_RGBA_INTEGER_MODE_EXT.
    "GL_EXT_texture_integer",
    // GL 1.3's cube maps and GL 3.0's packed depth/stencil (uploads and
    // glGetTexImage of both aspects), which Mesa lists in every profile.
    "GL_ARB_texture_cube_map", "GL_EXT_packed_depth_stencil",
    // 1D, 1D array and rectangle textures: 2D images (textures.cc) sampled
    // through the front end's SPIR-V lowering (shaders_link.cc).
    "GL_ARB_texture_rectangle", "GL_EXT_texture_array",
    // GL_CLAMP_TO_BORDER with any border colour (VK_EXT_custom_border_color;
    // without it the nearest fixed colour, said once in the log).
    "GL_ARB_texture_border_clamp",
    // Debug output: the front end's log (backends/gl/state/debug_output.h),
    // which the client hands to the application's callback; labels here.
    "GL_KHR_debug",
    // GL_ARB_framebuffer_object's blits and multisample renderbuffers under
    // their EXT names (gl.xml aliases; compatibility contexts, as on Mesa).
    "GL_EXT_framebuffer_blit", "GL_EXT_framebuffer_multisample",
    // GL 3.2's base vertex: Vulkan's vertexOffset (draw.cc).
    "GL_ARB_draw_elements_base_vertex",
    // gpu_shader5's integer functions: such sources compile as GLSL 4.00
    // without 4.00's other words (shaders.cc, the front end's rule).
    // (GL_ARB_arrays_of_arrays compiles too, but its nested sampler arrays
    // are not reflected yet and one such pipeline crashes lavapipe: not listed.)
    "GL_MESA_shader_integer_functions",
    // GLSL 4.20's conveniences (initializer lists, binding qualifiers,
    // implicit conversions of returns) and GLSL 4.00's textureGather in
    // earlier versions: glslang's own extensions, Vulkan's gathers.
    "GL_ARB_shading_language_420pack", "GL_ARB_texture_gather",
    // GLSL 1.30's integer types and lookups in 1.10/1.20 (compatibility
    // contexts): the front end's respelling (gpu_shader4.h), shaders.cc.
    "GL_EXT_gpu_shader4",
    // Image copies between textures and renderbuffers of compatible formats:
    // vkCmdCopyImage (copy_image.cc, the front end's rules).
    "GL_ARB_copy_image",
    // Indirect draws, one or many: the commands read on the host and drawn
    // one by one (draw_indirect.cc).
    "GL_ARB_draw_indirect", "GL_ARB_multi_draw_indirect",
    // Vulkan's firstInstance; gl_InstanceID subtracts the hidden base
    // instance uniform (shaders.cc).
    "GL_ARB_base_instance",
    // GL_BGRA vertex sizes (glColorPointer's too: the client's lowering
    // passes them on as glVertexAttribPointer's) and the packed float vertex type
    // (gl_to_vk.cc; where the device reads B10G11R11 vertices).
    "GL_ARB_vertex_array_bgra", "GL_ARB_vertex_type_10f_11f_11f_rev",
    // GLSL extensions whose lookups and functions are the front end's
    // macros (glsl_lift.h: legacy_lookups, kTrinaryMinMax; shaders.cc).
    "GL_ARB_shader_texture_lod", "GL_AMD_shader_trinary_minmax", "GL_ARB_shading_language_packing",
    // mix() of integers and booleans (GLSL 1.30+): glslang has the extension.
    "GL_EXT_shader_integer_mix",
};

}  // namespace

std::vector<std::string> served_extensions(uint32_t api, uint32_t profile, const Device& dev, bool in_process) {
    // GL_EXT_buffer_storage needs OpenGL ES 3.1 (glMemoryBarrier): ES contexts here are 3.0.
    if (api != gl::kApiDesktop) return {std::begin(kEsExtensions), std::end(kEsExtensions)};
    return gl::desktop_extensions(profile, [&](std::string_view name) {
        if (name == "GL_ARB_buffer_storage") return in_process;
        for (const char* e : kAlways)
            if (name == e) return true;
        if (name == "GL_EXT_texture_filter_anisotropic") return bool(dev.features.samplerAnisotropy);
        if (name == "GL_ARB_transform_feedback2") return dev.xfb;
        if (name == "GL_ARB_depth_clamp") return bool(dev.features.depthClamp);  // depthClampEnable
        // GL_SAMPLES_PASSED counts samples exactly: precise occlusion queries.
        if (name == "GL_ARB_occlusion_query") return bool(dev.features.occlusionQueryPrecise);
        // Both conventions: Vulkan's own (first) and the extension's (last).
        if (name == "GL_ARB_provoking_vertex") return dev.provoking_last;
        // Compute programs, dispatches and storage blocks (compute.cc): a
        // graphics queue that runs compute; storage blocks in every stage.
        if (name == "GL_ARB_compute_shader") return dev.compute;
        if (name == "GL_ARB_vertex_type_10f_11f_11f_rev") return dev.vertex_b10g11r11;
        // Tessellation control and evaluation stages (shaders_link.cc, pipeline.cc).
        if (name == "GL_ARB_tessellation_shader") return bool(dev.features.tessellationShader);
        if (name == "GL_ARB_shader_storage_buffer_object")
            return dev.compute && dev.features.vertexPipelineStoresAndAtomics && dev.features.fragmentStoresAndAtomics;
        // Atomic counters (atomic_counters.cc): storage buffers written from every stage.
        if (name == "GL_ARB_shader_atomic_counters") return counter_limits(dev).bindings > 0;
        // Image load/store (images.cc): storage images in fragment and compute shaders.
        if (name == "GL_ARB_shader_image_load_store") return image_limits(dev).served;
        // Multisample textures (textures_multisample.cc): sampled multisampled images.
        if (name == "GL_ARB_texture_multisample") return dev.max_samples() > 1 && dev.props.limits.sampledImageColorSampleCounts > 1;
        return false;
    });
}

}  // namespace mgl::magma
