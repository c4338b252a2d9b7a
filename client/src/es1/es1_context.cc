#include "es1/es1_context.h"

#include <algorithm>
#include <string>

#include "context.h"

namespace mgl::client::es1 {

namespace {

// An ES 1.1 extension and the desktop extension of the serving context it
// needs (nullptr: served by the client or by every compatibility context).
struct Es1Extension {
    const char* name;
    const char* needs;
};

// Only what the compatibility lowering and the client really serve (not
// GL_OES_point_size_array, GL_OES_draw_texture,
// GL_OES_matrix_palette, GL_OES_texture_cube_map: docs/CLIENT.md). The
// GL_OES_framebuffer_object and GL_OES_blend_* entry points are the core
// verbs' (codegen/emit_client.cc, kEs1Aliases).
constexpr Es1Extension kExtensions[] = {
    {"GL_EXT_blend_minmax", nullptr},                 // glBlendEquationEXT: GL 1.4's glBlendEquation
    {"GL_EXT_texture_filter_anisotropic", "GL_EXT_texture_filter_anisotropic"},
    {"GL_EXT_texture_format_BGRA8888", nullptr},      // GL_BGRA images (es1_rules.cc)
    {"GL_OES_blend_equation_separate", nullptr},
    {"GL_OES_blend_func_separate", nullptr},
    {"GL_OES_blend_subtract", nullptr},
    {"GL_OES_byte_coordinates", nullptr},             // GL_BYTE vertex and texture coordinate arrays
    {"GL_OES_compressed_ETC1_RGB8_texture", "GL_ARB_ES3_compatibility"},  // as ETC2 RGB8 (es1_rules.cc)
    {"GL_OES_compressed_paletted_texture", nullptr},  // decoded by the client (es1_rules.cc)
    {"GL_OES_depth24", nullptr},                      // renderbuffer formats of the framebuffer objects
    {"GL_OES_element_index_uint", nullptr},
    {"GL_OES_fixed_point", nullptr},                  // generated conversions (es1/fixed.h)
    {"GL_OES_framebuffer_object", nullptr},
    {"GL_OES_mapbuffer", nullptr},                    // glMapBufferOES: GL 1.5's glMapBuffer
    {"GL_OES_packed_depth_stencil", nullptr},         // renderbuffers only: ES 1.1 has no depth textures
    {"GL_OES_point_sprite", nullptr},                 // the lowering's point sprites (compat/ff_texenv.cc)
    {"GL_OES_read_format", nullptr},
    {"GL_OES_rgb8_rgba8", nullptr},
    {"GL_OES_single_precision", nullptr},
    {"GL_OES_stencil8", nullptr},
    {"GL_OES_stencil_wrap", nullptr},
    {"GL_OES_texture_mirrored_repeat", nullptr},
    {"GL_OES_texture_npot", nullptr},
};

}  // namespace

bool refuses_query(uint32_t pname) {
    switch (pname) {
        case GL_MAJOR_VERSION: case GL_MINOR_VERSION: case GL_NUM_EXTENSIONS:
        case 0x821E:  // GL_CONTEXT_FLAGS
        case 0x9126:  // GL_CONTEXT_PROFILE_MASK
            return true;
        default:
            return false;
    }
}

void present(Context& c) {
    // "<desktop version> MobileGL x.y (...)" -> "OpenGL ES-CM 1.1 MobileGL x.y (...)"
    const size_t at = c.version.find(" MobileGL ");
    c.version = "OpenGL ES-CM 1.1" + (at == std::string::npos ? std::string() : c.version.substr(at));
    c.shading_language.clear();  // ES 1.x has no GLSL: glGetString says GL_INVALID_ENUM

    std::vector<std::string> served;
    for (const Es1Extension& e : kExtensions) {
        if (e.needs && std::find(c.extension_list.begin(), c.extension_list.end(), e.needs) == c.extension_list.end())
            continue;
        served.emplace_back(e.name);
    }
    c.extension_list = served;
    c.extensions.clear();
    for (const std::string& e : served) c.extensions += (c.extensions.empty() ? "" : " ") + e;

    QueryValue formats;
    formats.count = uint8_t(kLastPalette - kFirstPalette + 1);
    for (uint32_t f = kFirstPalette; f <= kLastPalette; ++f) formats.i[f - kFirstPalette] = f;
    if (std::find(served.begin(), served.end(), "GL_OES_compressed_ETC1_RGB8_texture") != served.end())
        formats.i[formats.count++] = kEtc1;
    c.limits[GL_COMPRESSED_TEXTURE_FORMATS] = formats;
    c.limits[GL_NUM_COMPRESSED_TEXTURE_FORMATS] = QueryValue::ints({formats.count});
}

}  // namespace mgl::client::es1
