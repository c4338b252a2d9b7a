#include "desktop_caps.h"

#include <cstdint>

#include "context/desktop_extensions.h"

namespace mgl::espryt {

int desktop_version(int host_es) {
    // GL 3.3 is GLES 3.2's feature set seen from the desktop side (geometry
    // shaders, texture buffers, multisample textures, sampler objects,
    // instanced arrays); GLES 3.0 and 3.1 carry GL 3.0's.
    if (host_es >= 32) return 33;
    if (host_es >= 30) return 30;
    return 0;
}

namespace {

// What the host must have for Espryt to carry each desktop extension it
// serves (the names, their order and the profile rule are the GL front
// end's: backends/gl/context/desktop_extensions.h).
struct HostNeed {
    const char* name;
    int host_es;            // host GLES version that carries it (0: an extension must)
    const char* host_ext;   // or this host extension (nullptr: none)
};

// Each one is served by verbs Espryt passes through or maps (desktop_verbs.cc,
// the client's alias forwarding), with enums the host GLES accepts as is.
// Extensions that need the shader translator (GL_ARB_shader_objects...), a
// feature GLES lacks (timer queries without
// GL_EXT_disjoint_timer_query, glTexImage2DMultisample) or an emulation not
// written yet (seamless cube map enable, depth clamp) are left out.
const HostNeed kHostNeeds[] = {
    {"GL_ARB_ES2_compatibility", 20, nullptr},
    {"GL_ARB_ES3_compatibility", 30, nullptr},
    {"GL_ARB_copy_buffer", 30, nullptr},
    {"GL_ARB_depth_buffer_float", 30, nullptr},
    {"GL_ARB_depth_texture", 30, nullptr},  // GLES 3 depth textures (glmark2's shadow scene asks for it)
    {"GL_ARB_draw_instanced", 30, nullptr},
    {"GL_ARB_framebuffer_object", 30, nullptr},
    {"GL_ARB_get_program_binary", 30, nullptr},
    {"GL_ARB_half_float_vertex", 30, nullptr},
    {"GL_ARB_instanced_arrays", 30, nullptr},
    {"GL_ARB_map_buffer_range", 30, nullptr},
    {"GL_ARB_occlusion_query2", 30, nullptr},
    {"GL_ARB_pixel_buffer_object", 30, nullptr},
    {"GL_ARB_sampler_objects", 30, nullptr},
    {"GL_ARB_sync", 30, nullptr},
    {"GL_ARB_texture_rg", 30, nullptr},
    {"GL_ARB_texture_storage", 30, nullptr},
    {"GL_ARB_texture_swizzle", 30, nullptr},
    {"GL_ARB_transform_feedback2", 30, nullptr},
    {"GL_ARB_uniform_buffer_object", 30, nullptr},
    {"GL_ARB_vertex_array_object", 30, nullptr},
    {"GL_ARB_vertex_buffer_object", 20, nullptr},
    {"GL_ARB_vertex_type_2_10_10_10_rev", 30, nullptr},
    // GL_BGRA generic (and, through the client's lowering, colour) arrays:
    // converted on the host (converted_arrays.cc).
    {"GL_ARB_vertex_array_bgra", 30, nullptr},
    {"GL_EXT_framebuffer_object", 20, nullptr},
    // glBlitFramebufferEXT and glRenderbufferStorageMultisampleEXT are gl.xml
    // aliases of GLES 3.0's verbs.
    {"GL_EXT_framebuffer_blit", 30, nullptr},
    {"GL_EXT_framebuffer_multisample", 30, nullptr},
    {"GL_EXT_texture_swizzle", 30, nullptr},
    {"GL_EXT_texture_filter_anisotropic", 0, "GL_EXT_texture_filter_anisotropic"},
    {"GL_KHR_debug", 32, "GL_KHR_debug"},
    // GLSL features ESSL 3.x has (the shader front end translates them).
    {"GL_ARB_explicit_attrib_location", 30, nullptr},
    {"GL_EXT_gpu_shader4", 30, nullptr},
    {"GL_ARB_shader_bit_encoding", 30, nullptr},
    {"GL_ARB_shading_language_packing", 31, nullptr},
    {"GL_ARB_texture_gather", 31, nullptr},
    {"GL_ARB_gpu_shader5", 32, "GL_EXT_gpu_shader5"},
    // GLES 3.2 core (or its extension on a smaller host), same verbs and enums.
    {"GL_ARB_draw_elements_base_vertex", 32, "GL_EXT_draw_elements_base_vertex"},
    {"GL_ARB_draw_buffers_blend", 32, "GL_EXT_draw_buffers_indexed"},
    {"GL_ARB_sample_shading", 32, "GL_OES_sample_shading"},
    {"GL_ARB_texture_buffer_object", 32, "GL_EXT_texture_buffer"},
    {"GL_ARB_texture_buffer_range", 32, "GL_EXT_texture_buffer"},
    {"GL_ARB_texture_cube_map_array", 32, "GL_EXT_texture_cube_map_array"},
    {"GL_ARB_copy_image", 32, "GL_EXT_copy_image"},
    {"GL_ARB_texture_rgb10_a2ui", 30, nullptr},
    {"GL_ARB_stencil_texturing", 31, nullptr},
    {"GL_ARB_texture_stencil8", 32, "GL_OES_texture_stencil8"},
    {"GL_ARB_draw_indirect", 31, nullptr},
    {"GL_ARB_vertex_attrib_binding", 31, nullptr},
    {"GL_ARB_program_interface_query", 31, nullptr},
    {"GL_ARB_separate_shader_objects", 31, nullptr},
    {"GL_ARB_framebuffer_no_attachments", 31, nullptr},
    // Served through the host's GLES extension of the same enums and verbs
    // (the client encodes the ARB/core verb; Espryt calls the host's alias).
    {"GL_ARB_depth_clamp", 0, "GL_EXT_depth_clamp"},
    {"GL_ARB_timer_query", 0, "GL_EXT_disjoint_timer_query"},
    {"GL_ARB_base_instance", 0, "GL_EXT_base_instance"},
    {"GL_ARB_clip_control", 0, "GL_EXT_clip_control"},
    {"GL_ARB_polygon_offset_clamp", 0, "GL_EXT_polygon_offset_clamp"},
    // The float verbs are gl.xml aliases; the double ones map onto the
    // host's float ones (desktop_verbs.cc); gl_ViewportIndex enables the
    // ESSL extension (spirv_to_essl.cc).
    {"GL_ARB_viewport_array", 0, "GL_OES_viewport_array"},
    // GLSL features the shader front end compiles (glslang) and emits as
    // ESSL 3.10: binding and location layouts of opaque uniforms and
    // uniforms, initializer lists...; the explicit-gradient lookups of GLSL
    // 1.10/1.20 (glsl_lift.cc).
    {"GL_ARB_shading_language_420pack", 31, nullptr},
    {"GL_ARB_explicit_uniform_location", 31, nullptr},
    {"GL_ARB_shader_texture_lod", 30, nullptr},
    // min3/max3/mid3 as macros of min/max (glsl_lift.h, kTrinaryMinMax).
    {"GL_AMD_shader_trinary_minmax", 30, nullptr},
    // Arrays of arrays: compiled as GLSL 4.30 (translate.cc), emitted as ESSL
    // 3.10's own arrays of arrays.
    {"GL_ARB_arrays_of_arrays", 31, nullptr},
    // gpu_shader5's integer functions, ESSL 3.10's own (compiled as GLSL
    // 4.00 without 4.00's other words: glsl_lift.h, kIntegerFunctionsOnly).
    {"GL_MESA_shader_integer_functions", 31, nullptr},
    // mix() of integer and boolean vectors by a boolean vector: ESSL 3.10's own.
    {"GL_EXT_shader_integer_mix", 31, "GL_EXT_shader_integer_mix"},
    // GLES 3 R11F_G11F_B10F and RGB9_E5 textures (the packed types'
    // uploads), R11F_G11F_B10F renderable where the host renders floats.
    {"GL_EXT_packed_float", 0, "GL_EXT_color_buffer_float"},
    {"GL_EXT_texture_shared_exponent", 30, nullptr},
    // Immutable storage, mapped in the host driver's memory for an in-process
    // client (host_maps.cc; other sessions' host lists lack it: session.cc).
    {"GL_ARB_buffer_storage", 0, "GL_EXT_buffer_storage"},
    {"GL_ARB_texture_view", 0, "GL_OES_texture_view"},
    {"GL_EXT_texture_sRGB_decode", 0, "GL_EXT_texture_sRGB_decode"},
    // GL_FRAMEBUFFER_SRGB through the host's enable of the same enum; off
    // when a desktop context starts, as desktop GL has it (session.cc).
    {"GL_ARB_framebuffer_sRGB", 0, "GL_EXT_sRGB_write_control"},
    {"GL_ARB_texture_mirror_clamp_to_edge", 0, "GL_EXT_texture_mirror_clamp_to_edge"},
    {"GL_ARB_texture_border_clamp", 0, "GL_OES_texture_border_clamp"},
    // glTexImage*Multisample on GLES's immutable storage (desktop_textures.cc).
    {"GL_ARB_texture_multisample", 32, "GL_OES_texture_storage_multisample_2d_array"},
    // GLES 3 float formats (sized RGBA32F..., and unsized ones with GL_FLOAT).
    {"GL_ARB_texture_float", 30, nullptr},
    // GLES cube maps are always seamless: the enable is state only (desktop_state.cc).
    {"GL_ARB_seamless_cube_map", 30, nullptr},
    // GLES 2 cube maps.
    {"GL_ARB_texture_cube_map", 20, nullptr},
    // Integer textures are GLES 3 core; glClearColorIiEXT/IuiEXT clear through
    // glClearBuffer (desktop_clear.cc). Its luminance/alpha/intensity integer
    // formats are not GLES formats: the host refuses them (GL_INVALID_ENUM).
    {"GL_EXT_texture_integer", 30, nullptr},
    // Shader stages of GLES 3.1 (compute) and 3.2 (tessellation): the shader
    // front end emits them as ESSL 3.x stages; their verbs pass through.
    {"GL_ARB_compute_shader", 31, nullptr},
    {"GL_ARB_tessellation_shader", 32, "GL_EXT_tessellation_shader"},
    // GLES 3.1's storage blocks, atomic counters and images, same verbs and
    // enums; the shader front end compiles sources that enable them as GLSL
    // 4.30 (glsl_lift.h) and emits ESSL 3.10+ blocks, counters and images.
    {"GL_ARB_shader_storage_buffer_object", 31, nullptr},
    {"GL_ARB_shader_atomic_counters", 31, nullptr},
    {"GL_ARB_shader_image_load_store", 31, nullptr},
    // gl_FragCoord's layout qualifiers, lowered by the shader front end
    // (backends/gl/shaders/frag_coord.h); origin_upper_left reads the draw
    // framebuffer's height from a uniform set before draws
    // (driver_uniforms.cc: a pipeline's program through glProgramUniform, and
    // framebuffers without attachments, need GLES 3.1).
    {"GL_ARB_fragment_coord_conventions", 31, nullptr},
    // 1D, 1D array and rectangle textures on 2D / 2D array ones of height 1
    // or one level (backends/gl/state/texture_targets.h, desktop_texture_targets.cc;
    // their samplers: backends/gl/shaders/spirv_textures.h).
    {"GL_ARB_texture_rectangle", 30, nullptr},
    {"GL_EXT_texture_array", 30, nullptr},
    // The first-vertex convention: draws under it are rewritten into index
    // lists whose last vertex is GL's first (provoking_draw.cc).
    {"GL_ARB_provoking_vertex", 30, nullptr},
    {"GL_EXT_provoking_vertex", 30, nullptr},
    // GLES 3 transform feedback; the EXT verbs are gl.xml aliases of the core
    // ones but glBindBufferOffsetEXT (a glBindBufferRange, desktop_verbs.cc).
    {"GL_EXT_transform_feedback", 30, nullptr},
    // GLES 3 3D textures (glTexImage3DEXT is gl.xml's alias of glTexImage3D).
    {"GL_EXT_texture3D", 30, nullptr},
    // GLES 3 textures of any size: mipmaps and every wrap mode.
    {"GL_ARB_texture_non_power_of_two", 30, nullptr},
    // GLES 3 GL_DEPTH24_STENCIL8 textures and renderbuffers, GL_DEPTH_STENCIL
    // uploads; GL_DEPTH_STENCIL reads through desktop_depth_read.cc.
    {"GL_EXT_packed_depth_stencil", 30, nullptr},
    // The host's EGLImages (egl_images.cc).
    {"GL_OES_EGL_image", 0, "GL_OES_EGL_image"},
};

}  // namespace

std::vector<std::string> desktop_extensions(int host_es, uint32_t profile,
                                            const std::function<bool(std::string_view)>& host_has) {
    return gl::desktop_extensions(profile, [&](std::string_view name) {
        for (const HostNeed& e : kHostNeeds) {
            if (name != e.name) continue;
            const bool by_version = e.host_es && host_es >= e.host_es;
            const bool by_ext = e.host_ext && host_has(e.host_ext);
            return by_version || by_ext;
        }
        return false;  // not an extension Espryt serves
    });
}

}  // namespace mgl::espryt
