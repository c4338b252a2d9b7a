// Shaders through glslang in the calling process (shaders_here.h): a source
// made ready and parsed (parse(), shaders_parse.h: its version, the checks,
// the translation to the language compiled as, the vertex shader's wrap),
// compile_check_here and compile_internal_here. The link: shaders_link.cc.
#include "shaders.h"
#include "shaders_here.h"
#include "shaders_parse.h"

#include "compat_builtins.h"
#include "frag_coord.h"
#include "glsl_guards.h"
#include "glsl_lift.h"
#include "gpu_shader4.h"
#include "colour_zero.h"
#include "driver_uniforms.h"
#include "const_fold.h"
#include "essl_source.h"
#include "atomic_counter_rules.h"
#include "image_rules.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <mutex>
#include <regex>

namespace mgl::magma {

namespace {

std::once_flag g_glslang_once;

// The source with its #version directive moved to the first line. ESSL lets
// comments and blank lines precede #version; glslang's ES profile does not
// ("statement must appear first"), and Mesa, the reference here, accepts it.
std::string version_first(const std::string& src) {
    size_t i = 0;
    for (;;) {
        while (i < src.size() && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n')) ++i;
        if (src.compare(i, 2, "//") == 0) {
            i = src.find('\n', i);
            if (i == std::string::npos) return src;
        } else if (src.compare(i, 2, "/*") == 0) {
            i = src.find("*/", i + 2);
            if (i == std::string::npos) return src;
            i += 2;
        } else {
            break;
        }
    }
    if (i == 0 || i >= src.size() || src[i] != '#') return src;
    size_t at = i + 1;
    while (at < src.size() && (src[at] == ' ' || src[at] == '\t')) ++at;
    if (src.compare(at, 7, "version") != 0) return src;
    size_t eol = src.find('\n', i);
    if (eol == std::string::npos) eol = src.size();
    // The directive's own line stays, emptied, so later lines shift by one only.
    return src.substr(i, eol - i) + "\n" + src.substr(0, i) + src.substr(eol);
}

struct Version {
    int number = 100;
    bool es = true;
    bool declared = false;     // a #version line was there
    std::string profile;       // its profile word ("es", "core", "compatibility" or "")
};
// The language version a source declares (100 when none); #version must be
// on the first non-blank line (see version_first).
Version source_version(const std::string& src) {
    static const std::regex re(R"(^\s*#\s*version\s+(\d+)\s*(\w*))");
    std::smatch m;
    const size_t first = src.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const std::string line = src.substr(first, src.find('\n', first) - first);
    if (!std::regex_search(line, m, re)) return {};
    Version v;
    // from_chars, not stoi: "#version 99999999999" is the client's text and
    // must fail to compile, not throw out of the server.
    const std::string digits = m[1];
    if (std::from_chars(digits.data(), digits.data() + digits.size(), v.number).ec != std::errc()) v.number = 0;
    v.es = v.number == 100 || m[2] == "es";
    v.declared = true;
    v.profile = m[2];
    return v;
}

// The limits a shader sees as built-in constants (gl_MaxVertexUniformVectors
// and friends): the same figures glGetIntegerv answers (state_queries.cc,
// limit()). A desktop context's are GL 3.2's where they differ from ES 3.0's:
// 8 draw buffers, 48 combined texture units, 128 fragment input components
// (piglit's glsl-3.30 minimum-maximums).
const TBuiltInResource& resources(Api api) {
    static const TBuiltInResource es = [] {
        TBuiltInResource x = *GetDefaultResources();
        x.maxVertexAttribs = 16;
        x.maxVertexUniformVectors = 256;
        x.maxFragmentUniformVectors = 256;
        x.maxVertexUniformComponents = 1024;
        x.maxFragmentUniformComponents = 1024;
        x.maxVaryingVectors = 15;
        x.maxVaryingComponents = 60;
        x.maxVertexOutputComponents = 64;
        x.maxFragmentInputComponents = 60;
        x.maxVertexTextureImageUnits = 16;
        x.maxTextureImageUnits = 16;
        x.maxCombinedTextureImageUnits = 32;
        x.maxDrawBuffers = 4;
        x.minProgramTexelOffset = -8;
        x.maxProgramTexelOffset = 7;
        // Geometry shaders (desktop contexts): GL 3.2's minimums and more.
        x.maxGeometryOutputVertices = 256;
        x.maxGeometryTotalOutputComponents = 1024;
        x.maxGeometryUniformComponents = 1024;
        x.maxGeometryTextureImageUnits = 16;
        x.maxGeometryInputComponents = 64;
        x.maxGeometryOutputComponents = 128;
        return x;
    }();
    static const TBuiltInResource desktop = [] {
        TBuiltInResource x = es;
        x.maxDrawBuffers = 8;
        x.maxCombinedTextureImageUnits = 48;
        x.maxFragmentInputComponents = 128;
        // Atomic counters (GL_ARB_shader_atomic_counters): the figures the
        // GL front end serves (atomic_counter_rules.h); the buffer bindings
        // are the most any device gets (a device with fewer fails the link,
        // executable.cc), since this table is made once.
        using L = gl::AtomicCounterLimits;
        x.maxAtomicCounterBindings = L::kMaxBindings;
        x.maxAtomicCounterBufferSize = L::kBufferSize;
        x.maxVertexAtomicCounters = x.maxGeometryAtomicCounters = x.maxFragmentAtomicCounters =
            x.maxComputeAtomicCounters = L::kCountersPerStage;
        x.maxCombinedAtomicCounters = 4 * L::kCountersPerStage;
        x.maxVertexAtomicCounterBuffers = x.maxGeometryAtomicCounterBuffers = x.maxFragmentAtomicCounterBuffers =
            x.maxComputeAtomicCounterBuffers = x.maxCombinedAtomicCounterBuffers = L::kMaxBindings;
        // Tessellation stages: as the others where the device tessellates
        // (counter_limits' tessellation, which the queries answer from; on a
        // device without tessellation no stage of these exists, though a
        // GLSL 4.20 source could still read these two constants).
        x.maxTessControlAtomicCounters = x.maxTessEvaluationAtomicCounters = L::kCountersPerStage;
        x.maxTessControlAtomicCounterBuffers = x.maxTessEvaluationAtomicCounterBuffers = L::kMaxBindings;
        // Image load/store: the front end's figures (image_rules.h).
        using I = gl::ImageLimits;
        x.maxImageUnits = I::kUnits;
        x.maxCombinedImageUnitsAndFragmentOutputs = I::kUnits + 8;
        x.maxFragmentImageUniforms = x.maxComputeImageUniforms = x.maxCombinedImageUniforms = I::kStageUniforms;
        x.maxVertexImageUniforms = x.maxGeometryImageUniforms = 0;
        x.maxImageSamples = 0;
        return x;
    }();
    return api == Api::desktop ? desktop : es;
}

// Replaces every whole-word `from` in src (only called when src mentions it).
std::string replace_word(const std::string& src, const char* from, const std::string& to) {
    if (src.find(from) == std::string::npos) return src;
    // "#undef NAME" of a predefined macro must stay an error: leave such a source alone.
    if (std::regex_search(src, std::regex(std::string(R"(#\s*undef\s+)") + from + "\\b"))) return src;
    return std::regex_replace(src, std::regex(std::string("\\b") + from + "\\b"), to);
}

// The application's shader checked as the GLSL ES it is, by glslang's own ES
// front end (the reference compiler): what ESSL forbids but our translation
// to desktop GLSL 1.40 / ESSL 3.10 would accept (%, array assignment in 1.00,
// non-constant global initialisers, ...) fails here, as on a GLES driver.
bool validate_es(EShLanguage lang, const std::string& src, const Version& v, std::string& log) {
    if (!(v.number == 100 || (v.number == 300 && v.es))) {
        log = "ERROR: 0:1: '#version' : an OpenGL ES 3.0 context accepts GLSL ES 1.00 and 3.00 only\n";
        return false;
    }
    // What ESSL forbids and glslang does not check:
    static const std::regex invariant_all(R"(#\s*pragma\s+STDGL\s+invariant\s*\(\s*all\s*\))");
    if (lang == EShLangFragment && v.number == 300 && std::regex_search(src, invariant_all)) {
        log = "ERROR: '#pragma STDGL invariant(all)' : not allowed in a fragment shader (ESSL 3.00, 4.6.1)\n";
        return false;
    }
    glslang::TShader sh(lang);
    // glslang answers `defined __VERSION__` with false: the same renaming as
    // in translate() (the macro's value is glslang's own, the right one here).
    const std::string text = replace_word(src, "__VERSION__", "MGL_VERSION_");
    const std::string preamble = "#define MGL_VERSION_ " + std::to_string(v.number) + "\n";
    const char* strings[] = {text.c_str()};
    sh.setStrings(strings, 1);
    sh.setPreamble(preamble.c_str());
    const bool ok = sh.parse(&resources(Api::es), 100, ENoProfile, false, false, EShMsgDefault);
    log = sh.getInfoLog();
    return ok;
}

// A desktop source with atomic counters parsed again under OpenGL's rules:
// glslang's relaxed Vulkan rules turn counters into storage-block members
// before checking them, so what GL forbids of counters (assigning one, an
// initialiser, using one as an operand, a binding or count past the limits)
// passes there. The same strings and preamble; the SPIR-V still comes from
// the Vulkan parse.
bool validate_gl_semantics(EShLanguage lang, const Parsed& p, int version, EProfile profile, std::string& log);

// The desktop GLSL versions a desktop context takes, checked before glslang
// (which would take ESSL too): 1.10-1.50 and 3.30-4.60, core or
// compatibility (whose fixed-function built-ins the GL front end lowers:
// backends/gl/shaders/compat_builtins.h).
bool validate_desktop(const Version& v, std::string& log) {
    static const int kVersions[] = {110, 120, 130, 140, 150, 330, 400, 410, 420, 430, 440, 450, 460};
    if (v.es || std::find(std::begin(kVersions), std::end(kVersions), v.number) == std::end(kVersions)) {
        log = "ERROR: 0:1: '#version' : " + std::to_string(v.number) + (v.es ? " es" : "") +
              " is not a desktop GLSL version this OpenGL context takes (1.10-1.50, 3.30-4.60)\n";
        return false;
    }
    if (!v.profile.empty() && v.profile != "core" && v.profile != "compatibility") {
        log = "ERROR: 0:1: '#version' : unknown profile '" + v.profile + "'\n";
        return false;
    }
    return true;
}

// What the translated source must say differently from the application's:
// - the application's names that are keywords or built-in functions of the
//   language we compile as get a prefix (essl_source.h);
// - __VERSION__ is the version the application wrote, not the one we compile
//   as (a predefined macro cannot be redefined, so it gets another name);
// - ESSL 1.00's ES-only built-in constants, which desktop GLSL 1.40 lacks
//   (names starting with gl_ cannot be #defined either), as literals;
// - gl_PointCoord: GLES's origin is the upper left of the point in window
//   coordinates; our images are bottom row first, so Vulkan's upper left is
//   GL's lower left and y must be mirrored.
// `words_of_130`: a 1.10/1.20 source that GL_EXT_gpu_shader4 gave 1.30's
// types and functions keeps them.
std::string translate(const std::string& src, const Version& v, Api api, Stage stage, std::string& defines,
                      bool words_of_130) {
    // Desktop 1.30 and later compile as themselves: nothing of theirs is foreign.
    const bool rename = api == Api::es || (v.number < 130 && !words_of_130);
    std::string out = replace_word(rename ? rename_foreign_words(src, v.number) : src, "__VERSION__", "MGL_VERSION_");
    defines += "#define MGL_VERSION_ " + std::to_string(v.number) + "\n";
    if (api == Api::es && v.number < 300) {
        const TBuiltInResource& r = resources(Api::es);
        out = replace_word(out, "gl_MaxVertexUniformVectors", std::to_string(r.maxVertexUniformVectors));
        out = replace_word(out, "gl_MaxFragmentUniformVectors", std::to_string(r.maxFragmentUniformVectors));
        out = replace_word(out, "gl_MaxVaryingVectors", std::to_string(r.maxVaryingVectors));
    }
    if (stage == Stage::vertex && api == Api::desktop && gl::mentions_word(out, "gl_InstanceID")) {
        // GL's gl_InstanceID leaves the draw's base instance out; Vulkan's
        // InstanceIndex (what glslang's relaxed rules read for it) counts it.
        // The draw sets the hidden uniform (driver_uniforms.h).
        defines += std::string("uniform int ") + gl::kBaseInstanceUniform + ";\n";
        out = replace_word(out, "gl_InstanceID", std::string("(gl_InstanceID - ") + gl::kBaseInstanceUniform + ")");
    }
    if (stage == Stage::fragment) {
        // ESSL lets a fragment shader declare gl_FragCoord / gl_PointCoord
        // invariant (checked against the vertex shader at link); GLSL 1.40 and
        // Vulkan have no such thing for inputs: the declaration goes.
        static const std::regex inv(R"(\binvariant\s+(gl_FragCoord|gl_PointCoord)\s*;)");
        if (out.find("invariant") != std::string::npos) out = std::regex_replace(out, inv, "");
        // Desktop GL's GL_POINT_SPRITE_COORD_ORIGIN (the hidden uniform the
        // draw sets, driver_uniforms.h): GL_LOWER_LEFT is Vulkan's own here.
        if (api == Api::desktop && gl::mentions_word(out, "gl_PointCoord")) {
            defines += std::string("uniform float ") + gl::kPointOriginUniform + ";\n";
            out = replace_word(out, "gl_PointCoord",
                               std::string("(") + gl::kPointOriginUniform +
                                   " != 0.0 ? gl_PointCoord : vec2(gl_PointCoord.x, 1.0 - gl_PointCoord.y))");
        } else {
            out = replace_word(out, "gl_PointCoord", "vec2(gl_PointCoord.x, 1.0 - gl_PointCoord.y)");
        }
    }
    return out;
}

// Info logs go to the client as text; glslang echoes bytes of the source
// (a UTF-8 identifier cut in the middle), which some readers cannot decode.
std::string ascii(std::string log) {
    for (char& c : log)
        if (static_cast<unsigned char>(c) >= 0x80) c = '?';
    return log;
}

const char* kLegacyTextureNames =
    "#define texture2D texture\n#define texture2DProj textureProj\n#define texture2DLod textureLod\n"
    "#define texture2DProjLod textureProjLod\n#define textureCube texture\n#define textureCubeLod textureLod\n"
    "#define texture2DLodEXT textureLod\n#define texture2DProjLodEXT textureProjLod\n#define textureCubeLodEXT textureLod\n"
    "#define texture2DGradEXT textureGrad\n#define texture2DProjGradEXT textureProjGrad\n"
    "#define textureCubeGradEXT textureGrad\n#define texture3D texture\n#define texture3DProj textureProj\n"
    "#define texture3DLod textureLod\n#define shadow2DEXT texture\n#define shadow2DProjEXT textureProj\n"
    "#define GL_ES 1\n";
const char* kVertexWrapStart = "#define main mgl_user_main\n";
// GL's clip z in [-w, w] as Vulkan's [0, w], after the last stage before the
// rasterizer (the vertex or evaluation stage's main, a geometry stage's EmitVertex).
#define MGL_CLIP_Z_TO_VULKAN "gl_Position.z = (gl_Position.z + gl_Position.w) * 0.5;"
// The prototype keeps a vertex shader without main compiling (ESSL compiles
// shaders alone; the missing body fails the link, as on GLES). Built-ins that
// transform feedback captures are copied to outputs of their own first, so
// that gl_Position is captured as GL has it (xfb_spirv.h).
// point_size: the stage writes no gl_PointSize and sizes points by
// glPointSize (desktop GL; Vulkan leaves them undefined), from the hidden
// uniform the draw sets (driver_uniforms.h).
std::string vertex_wrap_end(const std::vector<std::string>& captured_builtins, bool point_size) {
    std::string decl, copy;
    if (point_size) {
        decl += std::string("uniform float ") + gl::kPointSizeUniform + ";\n";
        copy += gl::point_size_from_uniform() + " ";
    }
    for (const std::string& b : captured_builtins) {
        const char* type = b == "gl_Position" ? "vec4" : "float";
        decl += std::string("out highp ") + type + " " + xfb_builtin_copy(b) + ";\n";
        copy += xfb_builtin_copy(b) + " = " + b + "; ";
    }
    return "\n#undef main\nvoid mgl_user_main();\n" + decl + "void main() { mgl_user_main(); " + copy +
           MGL_CLIP_Z_TO_VULKAN " }\n";
}

EShLanguage language(Stage stage) {
    switch (stage) {
        case Stage::vertex: return EShLangVertex;
        case Stage::geometry: return EShLangGeometry;
        case Stage::compute: return EShLangCompute;
        case Stage::tess_control: return EShLangTessControl;
        case Stage::tess_evaluation: return EShLangTessEvaluation;
        default: return EShLangFragment;
    }
}

// A geometry shader's vertices reach the rasterizer at EmitVertex(): each
// one gets the clip-z mapping there (the vertex shader is then not wrapped).
// A do/while so that `if (c) EmitVertex(); else ...` stays one statement;
// the preprocessor does not expand the inner EmitVertex again.
const char* kGeometryEmitWrap =
    "#define EmitVertex() do { " MGL_CLIP_Z_TO_VULKAN " EmitVertex(); } while (false)\n";

gl::Stage gl_stage(Stage s) {
    switch (s) {
        case Stage::vertex: return gl::Stage::vertex;
        case Stage::geometry: return gl::Stage::geometry;
        case Stage::compute: return gl::Stage::compute;
        case Stage::tess_control: return gl::Stage::tess_control;
        case Stage::tess_evaluation: return gl::Stage::tess_evaluation;
        default: return gl::Stage::fragment;
    }
}

// `#version 150 compatibility` -> `#version 150` (glslang's Vulkan rules
// refuse the profile; the built-ins it brings are lowered). The line stays.
std::string drop_profile_word(const std::string& src) {
    static const std::regex re(R"(^(\s*#\s*version\s+\d+)\s+compatibility\b)");
    return std::regex_replace(src, re, "$1", std::regex_constants::format_first_only);
}

bool validate_gl_semantics(EShLanguage lang, const Parsed& p, int version, EProfile profile, std::string& log) {
    glslang::TShader sh(lang);
    sh.setStrings(p.strings, 2);
    sh.setPreamble(p.preamble.c_str());
    // No client: GLSL as a GL driver takes it (an OpenGL SPIR-V client would
    // want locations on default uniforms).
    if (sh.parse(&resources(Api::desktop), version, profile, true, false, EShMsgSuppressWarnings)) return true;
    log = ascii(gl::unlower_compat_log(sh.getInfoLog()));
    return false;
}

}  // namespace

std::unique_ptr<Parsed> parse(Stage stage, Api api, const std::string& app_src, std::string& log,
                              const std::vector<std::string>& captured_builtins, bool wrap_clip_z,
                              bool compat_block, bool alpha_test, bool clip_planes) {
    std::call_once(g_glslang_once, [] { glslang::InitializeProcess(); });
    auto p = std::make_unique<Parsed>();
    const EShLanguage lang = language(stage);
    std::string src = version_first(app_src);
    Version v = source_version(src);
    if (api == Api::desktop) {
        // Constant expressions glslang does not fold (the GL front end's const_fold.h).
        std::vector<std::string> one{src};
        gl::fold_constant_expressions(one, v.declared ? v.number : 110, false);
        src = std::move(one[0]);
    }
    int version = 310;
    EProfile profile = EEsProfile;
    bool gpu_shader4 = false;
    bool texture_array = false;  // a 1.10/1.20 source enabling GL_EXT_texture_array
    std::string alpha_colour;  // the colour 0 GL's alpha test reads (alpha_test)
    if (api == Api::desktop) {
        if (!v.declared) v = {110, false, false, ""};  // desktop GLSL without #version is 1.10
        if (!validate_desktop(v, log)) return nullptr;
        // glslang's Vulkan rules start at 1.40; below it the source is lifted.
        version = std::max(v.number, 140);
        // Tessellation stages (GLSL 4.00, or 1.50 with GL_ARB_tessellation_shader)
        // compile as 4.10, where glslang takes their built-in block
        // redeclarations (the front end's floor, glsl_lift.cc), with 4.20's
        // line continuations (which Mesa takes at every version, as in macros
        // split over lines): glslang takes them with GL_ARB_shading_language_420pack
        // (4.20 itself would drop gl_MaxVaryingFloats & co. from the core profile).
        if (stage == Stage::tess_control || stage == Stage::tess_evaluation) {
            if (std::max(version, 410) < 420) p->preamble += "#extension GL_ARB_shading_language_420pack : enable\n";
            version = std::max(version, 410);
        }
        if (stage == Stage::vertex) {
            std::vector<std::string> one{src};
            if (gl::respell_instance_id_arb(one)) src = std::move(one[0]);
        }
        // GL_EXT_gpu_shader4 (compatibility contexts): 1.30's integer types
        // and lookups under the extension's spellings, respelled by the front
        // end's rule (gpu_shader4.h); 1.40 has all of them. A no-op from 1.30
        // on, where glslang would refuse the unknown directive.
        {
            std::vector<std::string> one{src};
            if (gl::take_extension_directive(one, "GL_EXT_gpu_shader4")) {
                if (v.number < 130) {
                    gpu_shader4 = true;
                    gl::respell_gpu_shader4(one);
                    p->preamble += gl::gpu_shader4_lookups();
                }
                src = std::move(one[0]);
            }
        }
        // GL_EXT_texture_array (GLSL 1.10/1.20): its array sampler types, which
        // glslang's 1.40 has; the directive (unknown to glslang) is taken as
        // the front end takes it, and the types are not renamed below.
        {
            std::vector<std::string> one{src};
            if (gl::take_extension_directive(one, "GL_EXT_texture_array")) {
                texture_array = v.number < 130;
                src = std::move(one[0]);
            }
        }
        // GL_AMD_shader_trinary_minmax: min3/max3/mid3 as the front end's
        // macros (glslang knows the directive only for SPIR-V's AMD extension).
        {
            std::vector<std::string> one{src};
            if (gl::take_extension_directive(one, "GL_AMD_shader_trinary_minmax")) {
                p->preamble += gl::kTrinaryMinMax;
                src = std::move(one[0]);
            }
        }
        if (alpha_test && stage == Stage::fragment) alpha_colour = gl::desktop_colour_zero(src);
        // Extensions that bring a later version's built-ins to 1.30/1.40:
        // glslang declares those built-ins by version only, so the source
        // compiles as the version that has them.
        static const std::regex ms(R"(#\s*extension\s+GL_ARB_texture_multisample\s*:\s*(enable|require))");
        static const std::regex bits(R"(#\s*extension\s+GL_ARB_shader_bit_encoding\s*:\s*(enable|require))");
        if (version < 330 && src.find("GL_ARB_shader_bit_encoding") != std::string::npos && std::regex_search(src, bits))
            version = 330;
        if (version < 150 && src.find("GL_ARB_texture_multisample") != std::string::npos && std::regex_search(src, ms))
            version = 150;
        // Compute shaders, storage blocks, atomic counters and images that an
        // extension brings to an older source compile as 4.30 (the front
        // end's rule, glsl_lift.h). Atomic counters: glslang's relaxed Vulkan
        // rules rewrite them into storage blocks and atomicAdd (shaders.h,
        // CounterBufferInfo), which GLSL has from 4.30 on.
        version = std::max(version, gl::extension_version_floor(gl_stage(stage), v.number, src));
        // Arrays of arrays and gpu_shader5's integer functions: the front
        // end's rule (take_raising_extensions).
        {
            std::vector<std::string> one{src};
            const gl::RaisingExtensions raising = gl::take_raising_extensions(one, v.number);
            version = std::max(version, raising.floor);
            p->preamble = raising.preamble + p->preamble;
            if (v.number < 420 && version >= 420) gl::respell_storage_keywords(one, gl_stage(stage));
            src = std::move(one[0]);
        }
        // GLSL 1.30/1.40 fragment shaders compiled as a core version (the
        // extensions above) lose gl_FragColor and gl_FragData, which those
        // versions have: they become ordinary outputs (names starting with
        // gl_ cannot be #defined, so the source's words are replaced).
        if (stage == Stage::fragment && v.number < 150 && version >= 150) {
            alpha_colour = replace_word(alpha_colour, "gl_FragColor", "mgl_FragColor");
            alpha_colour = replace_word(alpha_colour, "gl_FragData", "mgl_FragData");
            if (src.find("gl_FragColor") != std::string::npos) {
                src = replace_word(src, "gl_FragColor", "mgl_FragColor");
                p->preamble += "layout(location = 0) out vec4 mgl_FragColor;\n";
            }
            if (src.find("gl_FragData") != std::string::npos) {
                src = replace_word(src, "gl_FragData", "mgl_FragData");
                p->preamble += "layout(location = 0) out vec4 mgl_FragData[8];\n";
            }
        }
        profile = version >= 150 ? ECoreProfile : ENoProfile;
        // GLSL 1.10-1.40 compiled as 1.40: the texture2D family (1.30
        // deprecated it, 1.40 keeps it only in glslang's compatibility
        // profile), GL_ARB_shader_texture_lod's lookups and 1.10's shadow
        // lookups, which returned a vec4 (the front end's rule).
        if (v.number <= 140) p->preamble = gl::legacy_lookups(gl_stage(stage), {src}) + p->preamble;
        // The fixed-function built-ins (gl_Vertex, gl_TexCoord[], the
        // matrices...): GLSL 1.10-1.50 have them (1.40 and 1.50 through
        // ARB_compatibility, which a compatibility context lists), later
        // versions in the compatibility profile or with that extension.
        // glslang's Vulkan rules have none: the GL front end lowers them to
        // ordinary declarations, the same contract Espryt's shaders keep
        // (attribute locations, matrix uniforms; build_executable starts the
        // matrices at identity), with the same rules (glsl_lift.h).
        std::vector<std::string> one{src};
        const bool extension = gl::take_compatibility_extension(one);
        src = std::move(one[0]);
        if (v.number < 330 || v.profile == "compatibility" || extension) {
            if (v.profile == "compatibility") src = drop_profile_word(src);
            std::vector<std::string> sources{src};
            std::string macros;
            gl::compatibility_macros(sources, v.profile == "compatibility", macros);
            p->preamble += macros;
            std::string decls = gl::lower_compat_builtins(gl_stage(stage), sources, clip_planes);
            if (stage == Stage::vertex && compat_block) {
                decls = gl::vertex_outputs_as_block(decls);
                sources[0] = gl::vertex_outputs_as_block(sources[0], false);
            }
            // Their declarations place the attributes (layout(location)),
            // which GLSL 1.40 takes with this extension.
            if (!decls.empty() && version < 330) p->preamble += "#extension GL_ARB_explicit_attrib_location : enable\n";
            p->preamble += decls;
            src = std::move(sources[0]);
        }
        // gl_FragCoord's layout qualifiers: the GL front end's lowering
        // (origin_upper_left reads the draw height, which draw() writes).
        if (stage == Stage::fragment) {
            std::vector<std::string> sources{src};
            std::string decls;
            if (!gl::lower_frag_coord_layout(sources, v.number, decls, log)) return nullptr;
            p->preamble += decls;
            src = std::move(sources[0]);
        }
    } else {
        // Before validation too: glslang's ES 1.00 front end refuses them as well.
        if (v.number == 100) src = fold_constant_sequences(src);
        if (!validate_es(lang, src, v, log)) {
            log = ascii(log);
            return nullptr;
        }
        if (v.number < 300) {
            version = 140;
            profile = ENoProfile;
            p->preamble = kLegacyTextureNames;
        }
    }
    // What GLSL forbids and glslang takes (the front end's guards).
    if (api == Api::desktop && stage == Stage::fragment) {
        if (std::string e = gl::unflat_integer_block_inputs({app_src}); !e.empty()) {
            log = std::move(e);
            return nullptr;
        }
    }
    p->shader = std::make_unique<glslang::TShader>(lang);
    const bool wrap_vertex = stage == Stage::vertex && wrap_clip_z;
    // Without a geometry stage the evaluation stage's vertices reach the
    // rasterizer: the clip-z mapping follows its main instead.
    const bool wrap_evaluation = stage == Stage::tess_evaluation && wrap_clip_z;
    if (wrap_vertex || wrap_evaluation) p->preamble += kVertexWrapStart;
    if (stage == Stage::geometry) p->preamble += kGeometryEmitWrap;
    p->source = translate(src, v, api, stage, p->preamble, gpu_shader4);
    if (texture_array)
        for (const char* type : {"sampler1DArray", "sampler2DArray", "sampler1DArrayShadow", "sampler2DArrayShadow"})
            p->source = gl::replace_word(p->source, std::string(kRenamePrefix) + type, type);
    p->strings[0] = p->source.c_str();
    const bool point_size = api == Api::desktop && !gl::mentions_word(src, "gl_PointSize");
    p->end = wrap_vertex       ? vertex_wrap_end(captured_builtins, point_size)
             : wrap_evaluation ? "\n#undef main\nvoid mgl_user_main();\n"
                                 "void main() { mgl_user_main(); " MGL_CLIP_Z_TO_VULKAN " }\n"
                               : "\n";
    if (!alpha_colour.empty()) {
        // GL's alpha test after the stage's main (the front end's rule,
        // driver_uniforms.h); the colour as translate() spelled the source.
        if (v.number < 130 && !gpu_shader4) alpha_colour = rename_foreign_words(alpha_colour, v.number);
        p->preamble += "#define main mgl_alpha_main\n";
        p->end = "\n#undef main\nvoid mgl_alpha_main();\n" + gl::alpha_test_main(alpha_colour, "mgl_alpha_main");
    }
    p->strings[1] = p->end.c_str();
    glslang::TShader& sh = *p->shader;
    sh.setStrings(p->strings, 2);
    sh.setPreamble(p->preamble.c_str());
    sh.setEnvInput(glslang::EShSourceGlsl, lang, glslang::EShClientVulkan, 100);
    sh.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
    sh.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
    sh.setEnvInputVulkanRulesRelaxed();
    sh.setGlobalUniformBlockName("gl_DefaultUniformBlock");
    // The default block has a descriptor set of its own (set 1): a draw that
    // changes only textures rebinds set 0, and lavapipe (Mesa 22.3) then
    // keeps the vertex shader it inlined default uniforms into, instead of
    // compiling a new one at every bind (docs/RELIABILITY.md).
    sh.setGlobalUniformSet(1);
    sh.setGlobalUniformBinding(0);
    sh.setAutoMapBindings(true);
    sh.setAutoMapLocations(true);
    // Warnings would be about our own mapping (ESSL 1.00 keywords "deprecated"
    // in GLSL 1.40), not about the application's shader.
    const EShMessages msgs = EShMessages(EShMsgSpvRules | EShMsgVulkanRules | EShMsgSuppressWarnings);
    const bool ok = sh.parse(&resources(api), version, profile, true, false, msgs);
    log = ascii(gl::unlower_compat_log(sh.getInfoLog()));
    if (!ok) return nullptr;
    if (api == Api::desktop && p->source.find("atomic_uint") != std::string::npos &&
        !validate_gl_semantics(lang, *p, version, profile, log))
        return nullptr;
    if (stage == Stage::compute && sh.getIntermediate()) {
        // GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS (glslang checks each size, not their product).
        const glslang::TIntermediate& im = *sh.getIntermediate();
        const uint64_t n = uint64_t(im.getLocalSize(0)) * im.getLocalSize(1) * im.getLocalSize(2);
        if (n > 1024) {
            log += "ERROR: the local size has " + std::to_string(n) +
                   " invocations, more than GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS (1024)\n";
            return nullptr;
        }
    }
    return p;
}

bool compile_check_here(Stage stage, Api api, const std::string& source, std::string& log) {
    return parse(stage, api, source, log) != nullptr;
}

std::vector<uint32_t> compile_internal_here(Stage stage, const std::string& source, std::string& log) {
    std::call_once(g_glslang_once, [] { glslang::InitializeProcess(); });
    const EShLanguage lang = language(stage);
    glslang::TShader sh(lang);
    const char* strings[] = {source.c_str()};
    sh.setStrings(strings, 1);
    sh.setEnvInput(glslang::EShSourceGlsl, lang, glslang::EShClientVulkan, 100);
    sh.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
    sh.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
    const EShMessages msgs = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
    std::vector<uint32_t> spv;
    if (!sh.parse(&resources(Api::desktop), 450, ENoProfile, false, false, msgs)) {
        log = sh.getInfoLog();
        return spv;
    }
    glslang::TProgram prog;
    prog.addShader(&sh);
    if (!prog.link(msgs)) {
        log = prog.getInfoLog();
        return spv;
    }
    glslang::SpvOptions opt;
    opt.disableOptimizer = true;
    glslang::GlslangToSpv(*prog.getIntermediate(lang), spv, &opt);
    return spv;
}

}  // namespace mgl::magma
