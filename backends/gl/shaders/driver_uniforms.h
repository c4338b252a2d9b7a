// Uniforms the shader front end adds that a backend sets itself at draw time
// (never the application, never the client): no program query shows them.
// A backend that links a program declaring one hides it from the active
// uniform count and name length, glGetActiveUniform*, glGetUniformIndices,
// glGetUniformLocation and the GL_UNIFORM program interface, renumbering the
// uniforms after it (HiddenUniform).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mgl::gl {

// The height of the draw framebuffer, for gl_FragCoord's origin_upper_left
// (frag_coord.h): y becomes height - y.
inline constexpr const char* kDrawHeightUniform = "mgl_DrawHeight";
// The user clip planes in eye space (vec4[8]), which vertex stages of a
// compatibility context clip against (compat_builtins.h): glClipPlane's
// values as the GL front end keeps them (DesktopState::clip_planes).
inline constexpr const char* kClipPlaneUniform = "mgl_ClipPlane";
// glPointSize's value, which a vertex stage that writes no gl_PointSize
// writes there (spirv_to_essl.cc): a GLES host sizes points by gl_PointSize
// only, and leaves them undefined where a shader writes none.
inline constexpr const char* kPointSizeUniform = "mgl_PointSize";
// GL_POINT_SPRITE_COORD_ORIGIN is GL_LOWER_LEFT (1) or GL_UPPER_LEFT (0,
// GLES's only origin): a fragment stage reads gl_PointCoord through it
// (spirv_to_essl.cc), its t mirrored for the lower left.
inline constexpr const char* kPointOriginUniform = "mgl_PointCoordLowerLeft";
// The alpha test of a compatibility context (vec2: x the function as
// alpha_test_code gives it, 0 when the test is off or GL_ALWAYS; y the
// reference, clamped to [0, 1]): an application's fragment stage discards a
// fragment whose colour 0 fails it (spirv_to_essl.cc).
inline constexpr const char* kAlphaTestUniform = "mgl_AlphaTest";
// The draw's base instance (GL 4.2 / GL_ARB_base_instance), which GL's
// gl_InstanceID leaves out and Vulkan's InstanceIndex counts: a Vulkan
// backend's vertex stage subtracts it (Magma's shaders.cc).
inline constexpr const char* kBaseInstanceUniform = "mgl_BaseInstance";
// The line that marks the compatibility lowering's own fragment stages
// (client/src/compat/ff_shader.cc), which test alpha themselves: they get no
// alpha-test epilogue (a `discard` in every fixed-function program could
// cost a tiler its early depth test).
inline constexpr std::string_view kFixedFunctionPragma = "#pragma mgl_fixed_function";

inline bool fixed_function_source(const std::vector<std::string>& sources) {
    for (const std::string& s : sources)
        if (s.find(kFixedFunctionPragma) != std::string::npos) return true;
    return false;
}

// The statement that sizes points by kPointSizeUniform in a vertex stage
// that writes no gl_PointSize (never set, 0: GL's initial size, 1).
inline std::string point_size_from_uniform() {
    return std::string("gl_PointSize = ") + kPointSizeUniform + " > 0.0 ? " + kPointSizeUniform + " : 1.0;";
}

// GL's alpha test as a fragment stage's new main (after `app_main`, the
// stage's own main renamed): `colour` (the expression of its colour 0) is
// tested against kAlphaTestUniform, declared here. One rule for every
// backend: Espryt appends it to the ESSL it writes (spirv_to_essl.cc), Magma
// to the desktop source it compiles (shaders.cc).
inline std::string alpha_test_main(const std::string& colour, const std::string& app_main) {
    return std::string("\nuniform highp vec2 ") + kAlphaTestUniform + ";\nvoid main()\n{\n    " + app_main + "();\n" +
           "    highp int f = int(" + kAlphaTestUniform + ".x);\n    highp float a = " + colour +
           ".a, r = " + kAlphaTestUniform + ".y;\n" +
           "    if (f != 0 && !((f == 2 && a < r) || (f == 3 && a == r) || (f == 4 && a <= r) || (f == 5 && a > r) ||\n" +
           "                    (f == 6 && a != r) || (f == 7 && a >= r)))\n        discard;\n}\n";
}

// A uniform name as a program query spells it (an array's elements as "name[i]" too).
inline bool is_driver_uniform(std::string_view name) {
    if (name.ends_with(']') && name.rfind('[') != std::string_view::npos) name = name.substr(0, name.rfind('['));
    return name == kDrawHeightUniform || name == kClipPlaneUniform || name == kPointSizeUniform ||
           name == kPointOriginUniform || name == kAlphaTestUniform || name == kBaseInstanceUniform;
}

// The hidden uniforms' places among a linked program's active uniforms (the
// host's or device's own numbering, ascending; at most kMax of them).
struct HiddenUniform {
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    static constexpr int kMax = 5;
    uint32_t index[kMax] = {kNone, kNone, kNone, kNone, kNone};
    int n = 0;

    // Records one (kNone is ignored), keeping the indices ascending.
    void add(uint32_t backend) {
        if (backend == kNone || n == kMax) return;
        int at = n++;
        for (; at > 0 && index[at - 1] > backend; --at) index[at] = index[at - 1];
        index[at] = backend;
    }
    // The application's index -> the backend's.
    uint32_t to_backend(uint32_t app) const {
        if (app == kNone) return app;
        for (int i = 0; i < n && app >= index[i]; ++i) ++app;
        return app;
    }
    // The backend's index -> the application's (kNone for a hidden one;
    // GL_INVALID_INDEX stays).
    uint32_t to_app(uint32_t backend) const {
        if (backend == kNone) return backend;
        uint32_t below = 0;
        for (int i = 0; i < n; ++i) {
            if (index[i] == backend) return kNone;
            if (index[i] < backend) ++below;
        }
        return backend - below;
    }
    // An active uniform count as the application sees it.
    int32_t count(int32_t backend_count) const { return backend_count >= n ? backend_count - n : backend_count; }
};

}  // namespace mgl::gl
