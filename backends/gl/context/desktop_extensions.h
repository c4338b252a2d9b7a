// The desktop extensions a desktop context of this project may list, once for
// every backend (DESIGN.md §11): their names, the order GL_EXTENSIONS lists
// them in, and the GL-side rule of which ones only a compatibility context
// lists. Whether a context lists one is the device's answer: each backend
// says what its device really carries (Espryt: the host's GLES version and
// extensions, backends/espryt/desktop_caps.cc; Magma: its Vulkan device's
// features, backends/magma/desktop_caps.cc). Nothing is advertised that does
// not work.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mgl::gl {

struct DesktopExtension {
    std::string_view name;
    bool compat_only;      // listed (as Mesa does) only in compatibility contexts
    bool lowered = false;  // served by the client's compatibility lowering on every device (compat_only too)
};

// Espryt's first list (its extension string predates this table and stays as
// it was), then the extensions added later (storage blocks, counters, images,
// viewport arrays, GLSL features: Espryt and Magma as their devices carry them), then the
// compatibility lowering's.
inline constexpr DesktopExtension kDesktopExtensions[] = {
    {"GL_ARB_ES2_compatibility", false},
    {"GL_ARB_ES3_compatibility", false},
    {"GL_ARB_copy_buffer", false},
    {"GL_ARB_depth_buffer_float", false},
    {"GL_ARB_depth_texture", true},
    {"GL_ARB_draw_instanced", false},
    {"GL_ARB_framebuffer_object", false},
    {"GL_ARB_get_program_binary", false},
    {"GL_ARB_half_float_vertex", false},
    {"GL_ARB_instanced_arrays", false},
    {"GL_ARB_map_buffer_range", false},
    {"GL_ARB_occlusion_query2", false},
    {"GL_ARB_pixel_buffer_object", false},
    {"GL_ARB_sampler_objects", false},
    {"GL_ARB_sync", false},
    {"GL_ARB_texture_rg", false},
    {"GL_ARB_texture_storage", false},
    {"GL_ARB_texture_swizzle", false},
    {"GL_ARB_transform_feedback2", false},
    {"GL_ARB_uniform_buffer_object", false},
    {"GL_ARB_vertex_array_object", false},
    {"GL_ARB_vertex_buffer_object", true},
    {"GL_ARB_vertex_type_2_10_10_10_rev", false},
    {"GL_EXT_framebuffer_object", true},
    {"GL_EXT_texture_swizzle", false},
    {"GL_EXT_texture_filter_anisotropic", false},
    {"GL_KHR_debug", false},
    {"GL_ARB_explicit_attrib_location", false},
    {"GL_ARB_shader_bit_encoding", false},
    {"GL_ARB_shading_language_packing", false},
    {"GL_ARB_texture_gather", false},
    {"GL_ARB_gpu_shader5", false},
    {"GL_ARB_draw_elements_base_vertex", false},
    {"GL_ARB_draw_buffers_blend", false},
    {"GL_ARB_sample_shading", false},
    {"GL_ARB_texture_buffer_object", false},
    {"GL_ARB_texture_buffer_range", false},
    {"GL_ARB_texture_cube_map_array", false},
    {"GL_ARB_copy_image", false},
    {"GL_ARB_texture_rgb10_a2ui", false},
    {"GL_ARB_stencil_texturing", false},
    {"GL_ARB_texture_stencil8", false},
    {"GL_ARB_draw_indirect", false},
    {"GL_ARB_vertex_attrib_binding", false},
    {"GL_ARB_program_interface_query", false},
    {"GL_ARB_separate_shader_objects", false},
    {"GL_ARB_framebuffer_no_attachments", false},
    {"GL_ARB_depth_clamp", false},
    {"GL_ARB_timer_query", false},
    {"GL_ARB_base_instance", false},
    {"GL_ARB_clip_control", false},
    {"GL_ARB_polygon_offset_clamp", false},
    {"GL_ARB_buffer_storage", false},  // in-process sessions only (persistent maps: the driver's memory)
    {"GL_ARB_texture_view", false},
    {"GL_EXT_texture_sRGB_decode", false},
    {"GL_ARB_texture_mirror_clamp_to_edge", false},
    {"GL_ARB_texture_border_clamp", true},
    {"GL_ARB_texture_multisample", false},
    {"GL_ARB_texture_float", false},
    {"GL_ARB_seamless_cube_map", false},
    {"GL_ARB_texture_cube_map", false},  // GL 1.3's; Mesa lists it in every profile
    {"GL_EXT_texture_integer", false},
    {"GL_ARB_compute_shader", false},
    {"GL_ARB_tessellation_shader", false},
    {"GL_ARB_fragment_coord_conventions", false},
    {"GL_ARB_texture_rectangle", false},
    {"GL_EXT_texture_array", false},
    {"GL_ARB_provoking_vertex", false},
    {"GL_EXT_provoking_vertex", false},
    {"GL_EXT_transform_feedback", false},
    {"GL_EXT_texture3D", true},                   // GL 1.2's 3D textures; Mesa lists it in compatibility contexts
    {"GL_ARB_texture_non_power_of_two", false},  // GL 2.0's; Mesa lists it in every profile
    {"GL_EXT_packed_depth_stencil", false},       // GL 3.0's; Mesa lists it in every profile
    {"GL_OES_EGL_image", false},  // EGLImages of the session (Mesa lists it in desktop contexts too)
    // Served by Magma only so far.
    {"GL_ARB_occlusion_query", true},  // GL_SAMPLES_PASSED; Mesa lists it in compatibility contexts
    {"GL_ARB_fragment_shader", true},
    {"GL_ARB_shader_objects", true},
    {"GL_ARB_shading_language_100", true},
    {"GL_ARB_vertex_shader", true},
    {"GL_ARB_shader_storage_buffer_object", false},
    {"GL_ARB_shader_atomic_counters", false},
    {"GL_ARB_shader_image_load_store", false},
    {"GL_ARB_viewport_array", false},
    {"GL_ARB_shading_language_420pack", false},
    {"GL_ARB_explicit_uniform_location", false},
    {"GL_ARB_shader_texture_lod", false},
    {"GL_ARB_framebuffer_sRGB", false},
    {"GL_EXT_framebuffer_blit", true},         // Mesa lists both in compatibility contexts only
    {"GL_EXT_framebuffer_multisample", true},
    {"GL_AMD_shader_trinary_minmax", false},
    {"GL_ARB_arrays_of_arrays", false},
    {"GL_MESA_shader_integer_functions", false},
    {"GL_EXT_shader_integer_mix", false},
    {"GL_EXT_packed_float", false},
    {"GL_EXT_texture_shared_exponent", false},
    {"GL_ARB_multi_draw_indirect", false},
    {"GL_ARB_vertex_array_bgra", false},
    {"GL_ARB_vertex_type_10f_11f_11f_rev", false},
    // GLSL 1.30's integer and texel-fetch features in 1.10/1.20 (the shader
    // front end's lift, backends/gl/shaders/gpu_shader4.h); Mesa lists it in
    // compatibility contexts only.
    {"GL_EXT_gpu_shader4", true},
    // The compatibility profile itself: the client's lowering and the shader
    // front end's built-ins (backends/gl/shaders/compat_builtins.h) on every backend.
    {"GL_ARB_compatibility", true, true},
    // The client's compatibility lowering serves these on every backend (client/src/compat/ff_raster.cc).
    {"GL_ARB_window_pos", true, true},
    {"GL_MESA_window_pos", true, true},
    // ... and the texture environment (client/src/compat/ff_texenv.cc)
    {"GL_ARB_texture_env_add", true, true},
    {"GL_ARB_texture_env_combine", true, true},
    {"GL_ARB_texture_env_crossbar", true, true},
    {"GL_ARB_texture_env_dot3", true, true},
    {"GL_EXT_texture_env_add", true, true},
    {"GL_EXT_texture_env_combine", true, true},
    {"GL_EXT_texture_env_dot3", true, true},
    // ... and point sprites (GL_POINT_SPRITE, GL_COORD_REPLACE: client/src/compat/ff_texenv.cc)
    {"GL_ARB_point_sprite", true, true},
    // ... and depth comparisons of fixed-function texturing (client/src/compat/ff_texenv.cc; GLSL's
    // shadow samplers are the shader front end's)
    {"GL_ARB_shadow", true, true},
    {"GL_EXT_shadow_funcs", true, true},  // every comparison function (a GLES and Vulkan sampler's own)
};

// GL_EXTENSIONS of a desktop context of `profile` (1 core, 2 compatibility):
// the table's names, in its order, that `carries` says the device serves.
inline std::vector<std::string> desktop_extensions(uint32_t profile,
                                                   const std::function<bool(std::string_view)>& carries) {
    std::vector<std::string> out;
    for (const DesktopExtension& e : kDesktopExtensions) {
        if (e.compat_only && profile == 1) continue;
        if (e.lowered || carries(e.name)) out.emplace_back(e.name);
    }
    return out;
}

}  // namespace mgl::gl
