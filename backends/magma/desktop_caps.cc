#include "desktop_caps.h"

#include "context/desktop_context.h"

namespace mgl::magma {

namespace {

const char* const kEsExtensions[] = {
    "GL_OES_rgb8_rgba8", "GL_OES_depth24", "GL_OES_depth_texture", "GL_OES_packed_depth_stencil", "GL_OES_vertex_array_object",
    "GL_OES_element_index_uint", "GL_OES_texture_npot", "GL_OES_standard_derivatives", "GL_EXT_texture_format_BGRA8888",
    "GL_OES_mapbuffer", "GL_EXT_map_buffer_range", "GL_EXT_discard_framebuffer", "GL_EXT_occlusion_query_boolean",
    "GL_EXT_draw_buffers", "GL_OES_compressed_ETC1_RGB8_texture",
};

struct DesktopExt {
    const char* name;
    bool compat_only;  // listed by Mesa only in compatibility contexts
};

// Each is what Magma's ES 3.0 objects and verbs already carry, seen from the
// desktop side (the client encodes the ARB/EXT aliases as the core verbs),
// or a shader feature of the desktop GLSL front end (shaders.cc). Left out:
// what needs a feature Magma lacks so far (geometry shaders, texture buffers,
// multisample textures, timer queries, depth clamp, 1D/rectangle textures,
// copy buffer, program binaries).
const DesktopExt kDesktopExtensions[] = {
    {"GL_ARB_ES2_compatibility", false},
    {"GL_ARB_depth_buffer_float", false},
    {"GL_ARB_depth_texture", true},
    {"GL_ARB_draw_instanced", false},
    {"GL_ARB_explicit_attrib_location", false},
    {"GL_ARB_fragment_shader", true},
    {"GL_ARB_framebuffer_object", false},
    {"GL_ARB_half_float_vertex", false},
    {"GL_ARB_instanced_arrays", false},
    {"GL_ARB_map_buffer_range", false},
    {"GL_ARB_occlusion_query2", false},
    {"GL_ARB_pixel_buffer_object", false},
    {"GL_ARB_sampler_objects", false},
    {"GL_ARB_shader_objects", true},
    {"GL_ARB_shading_language_100", true},
    {"GL_ARB_sync", false},
    {"GL_ARB_texture_rg", false},
    {"GL_ARB_texture_storage", false},
    {"GL_ARB_texture_swizzle", false},
    {"GL_ARB_uniform_buffer_object", false},
    {"GL_ARB_vertex_array_object", false},
    {"GL_ARB_vertex_buffer_object", true},
    {"GL_ARB_vertex_shader", true},
    {"GL_ARB_vertex_type_2_10_10_10_rev", false},
    {"GL_EXT_framebuffer_object", true},
    {"GL_EXT_texture_swizzle", false},
};

}  // namespace

std::vector<std::string> served_extensions(uint32_t api, uint32_t profile, const Device& dev) {
    std::vector<std::string> out;
    if (api != gl::kApiDesktop) {
        for (const char* e : kEsExtensions) out.emplace_back(e);
        return out;
    }
    for (const DesktopExt& e : kDesktopExtensions)
        if (!e.compat_only || profile != gl::kProfileCore) out.emplace_back(e.name);
    if (dev.features.samplerAnisotropy) out.emplace_back("GL_EXT_texture_filter_anisotropic");
    if (dev.xfb) out.emplace_back("GL_ARB_transform_feedback2");
    return out;
}

}  // namespace mgl::magma
