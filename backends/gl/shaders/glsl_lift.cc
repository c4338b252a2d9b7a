#include "glsl_lift.h"

#include "compat_builtins.h"
#include "frag_coord.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <regex>

namespace mgl::gl {

namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool mentions(const std::vector<std::string>& sources, const std::string& word) {
    for (const std::string& s : sources)
        if (mentions_word(s, word)) return true;
    return false;
}

// Texture lookups GLSL 1.10-1.20 spells per sampler type and 3.30 core only
// overloaded. shadow* returned a vec4 before 1.30.
const char* const kLegacyLookups =
    "#define texture2D texture\n"
    "#define texture2DProj textureProj\n"
    "#define texture2DLod textureLod\n"
    "#define texture2DProjLod textureProjLod\n"
    "#define texture3D texture\n"
    "#define texture3DProj textureProj\n"
    "#define texture3DLod textureLod\n"
    "#define texture3DProjLod textureProjLod\n"
    "#define textureCube texture\n"
    "#define textureCubeLod textureLod\n"
    "#define texture1D texture\n"
    "#define texture1DProj textureProj\n"
    "#define texture1DLod textureLod\n"
    "#define texture1DProjLod textureProjLod\n"
    "#define texture2DRect texture\n"
    "#define texture2DRectProj textureProj\n"
    "#define texture1DArray texture\n"
    "#define texture1DArrayLod textureLod\n"
    "#define texture2DArray texture\n"
    "#define texture2DArrayLod textureLod\n"
    // GL_ARB_shader_texture_lod's explicit-gradient lookups
    "#define texture1DGradARB textureGrad\n"
    "#define texture1DProjGradARB textureProjGrad\n"
    "#define texture2DGradARB textureGrad\n"
    "#define texture2DProjGradARB textureProjGrad\n"
    "#define texture3DGradARB textureGrad\n"
    "#define texture3DProjGradARB textureProjGrad\n"
    "#define textureCubeGradARB textureGrad\n"
    "#define texture2DRectGradARB textureGrad\n"
    "#define texture2DRectProjGradARB textureProjGrad\n"
    ;

// shadow2D* returned a vec4 before 1.30: (r, r, r, 1) under
// GL_DEPTH_TEXTURE_MODE's default, GL_LUMINANCE, as Mesa reads it; the
// fragment stage's forms with a bias are overloads (a macro cannot take both).
struct ShadowLookup {
    const char* name;
    const char* defs;
    bool fragment_only;
};
const ShadowLookup kShadowLookups[] = {
    {"shadow2D", "vec4 shadow2D(sampler2DShadow s, vec3 c) { return vec4(vec3(texture(s, c)), 1.0); }\n", false},
    {"shadow2D", "vec4 shadow2D(sampler2DShadow s, vec3 c, float b) { return vec4(vec3(texture(s, c, b)), 1.0); }\n",
     true},
    {"shadow2DProj", "vec4 shadow2DProj(sampler2DShadow s, vec4 c) { return vec4(vec3(textureProj(s, c)), 1.0); }\n",
     false},
    {"shadow2DProj",
     "vec4 shadow2DProj(sampler2DShadow s, vec4 c, float b) { return vec4(vec3(textureProj(s, c, b)), 1.0); }\n",
     true},
    {"shadow2DLod",
     "vec4 shadow2DLod(sampler2DShadow s, vec3 c, float l) { return vec4(vec3(textureLod(s, c, l)), 1.0); }\n", false},
    {"shadow2DProjLod",
     "vec4 shadow2DProjLod(sampler2DShadow s, vec4 c, float l) { return vec4(vec3(textureProjLod(s, c, l)), 1.0); }\n",
     false},
    {"shadow1D", "vec4 shadow1D(sampler1DShadow s, vec3 c) { return vec4(vec3(texture(s, c)), 1.0); }\n", false},
    {"shadow1D", "vec4 shadow1D(sampler1DShadow s, vec3 c, float b) { return vec4(vec3(texture(s, c, b)), 1.0); }\n",
     true},
    {"shadow1DProj", "vec4 shadow1DProj(sampler1DShadow s, vec4 c) { return vec4(vec3(textureProj(s, c)), 1.0); }\n",
     false},
    {"shadow1DProj",
     "vec4 shadow1DProj(sampler1DShadow s, vec4 c, float b) { return vec4(vec3(textureProj(s, c, b)), 1.0); }\n",
     true},
    {"shadow1DLod",
     "vec4 shadow1DLod(sampler1DShadow s, vec3 c, float l) { return vec4(vec3(textureLod(s, c, l)), 1.0); }\n", false},
    {"shadow1DProjLod",
     "vec4 shadow1DProjLod(sampler1DShadow s, vec4 c, float l) { return vec4(vec3(textureProjLod(s, c, l)), 1.0); }\n",
     false},
    {"shadow2DRect", "vec4 shadow2DRect(sampler2DRectShadow s, vec3 c) { return vec4(vec3(texture(s, c)), 1.0); }\n",
     false},
    {"shadow2DRectProj",
     "vec4 shadow2DRectProj(sampler2DRectShadow s, vec4 c) { return vec4(vec3(textureProj(s, c)), 1.0); }\n", false},
    {"shadow1DArray",
     "vec4 shadow1DArray(sampler1DArrayShadow s, vec3 c) { return vec4(vec3(texture(s, c)), 1.0); }\n", false},
    {"shadow1DArray",
     "vec4 shadow1DArray(sampler1DArrayShadow s, vec3 c, float b) { return vec4(vec3(texture(s, c, b)), 1.0); }\n",
     true},
    {"shadow2DArray",
     "vec4 shadow2DArray(sampler2DArrayShadow s, vec4 c) { return vec4(vec3(texture(s, c)), 1.0); }\n", false},
    // GL_ARB_shader_texture_lod's
    {"shadow1DGradARB",
     "vec4 shadow1DGradARB(sampler1DShadow s, vec3 c, float x, float y) "
     "{ return vec4(vec3(textureGrad(s, c, x, y)), 1.0); }\n", false},
    {"shadow1DProjGradARB",
     "vec4 shadow1DProjGradARB(sampler1DShadow s, vec4 c, float x, float y) "
     "{ return vec4(vec3(textureProjGrad(s, c, x, y)), 1.0); }\n", false},
    {"shadow2DGradARB",
     "vec4 shadow2DGradARB(sampler2DShadow s, vec3 c, vec2 x, vec2 y) "
     "{ return vec4(vec3(textureGrad(s, c, x, y)), 1.0); }\n", false},
    {"shadow2DProjGradARB",
     "vec4 shadow2DProjGradARB(sampler2DShadow s, vec4 c, vec2 x, vec2 y) "
     "{ return vec4(vec3(textureProjGrad(s, c, x, y)), 1.0); }\n", false},
    {"shadow2DRectGradARB",
     "vec4 shadow2DRectGradARB(sampler2DRectShadow s, vec3 c, vec2 x, vec2 y) "
     "{ return vec4(vec3(textureGrad(s, c, x, y)), 1.0); }\n", false},
    {"shadow2DRectProjGradARB",
     "vec4 shadow2DRectProjGradARB(sampler2DRectShadow s, vec4 c, vec2 x, vec2 y) "
     "{ return vec4(vec3(textureProjGrad(s, c, x, y)), 1.0); }\n", false},
};

constexpr const char* kFragColor = "mgl_FragColor";
constexpr const char* kFragData = "mgl_FragData";

}  // namespace

std::string legacy_lookups(Stage stage, const std::vector<std::string>& sources) {
    std::string out = kLegacyLookups;
    for (const ShadowLookup& l : kShadowLookups)
        if ((!l.fragment_only || stage == Stage::fragment) && mentions(sources, l.name)) out += l.defs;
    return out;
}

const char* const kTrinaryMinMax =
    "#define min3(a, b, c) min(min(a, b), c)\n"
    "#define max3(a, b, c) max(max(a, b), c)\n"
    "#define mid3(a, b, c) max(min(a, b), min(max(a, b), c))\n";

// GLSL 4.00's words that GLSL 1.30-3.30 with
// GL_MESA_shader_integer_functions does not have: spelled as plain
// identifiers, a 4.00 compile takes them as GLSL 1.30 does (an application's
// own `sample` variable or `fma` function) and refuses them where 4.00 would
// read a qualifier or a built-in.
const char* const kIntegerFunctionsOnly =
    "#define fma mgl_fma\n"
    "#define textureGather mgl_textureGather\n"
    "#define textureGatherOffset mgl_textureGatherOffset\n"
    "#define textureGatherOffsets mgl_textureGatherOffsets\n"
    "#define interpolateAtCentroid mgl_interpolateAtCentroid\n"
    "#define interpolateAtSample mgl_interpolateAtSample\n"
    "#define interpolateAtOffset mgl_interpolateAtOffset\n"
    "#define precise mgl_precise\n"
    "#define sample mgl_sample\n"
    "#define patch mgl_patch\n"
    "#define subroutine mgl_subroutine\n";

RaisingExtensions take_raising_extensions(std::vector<std::string>& sources, int version) {
    RaisingExtensions r;
    if (take_extension_directive(sources, "GL_ARB_arrays_of_arrays")) r.floor = 430;
    if (take_extension_directive(sources, "GL_MESA_shader_integer_functions")) {
        r.floor = std::max(r.floor, 400);
        if (version < 400) r.preamble = kIntegerFunctionsOnly;
    }
    return r;
}

void version_macro(std::vector<std::string>& sources, int version, std::string& preamble) {
    static const std::regex undef(R"(#\s*undef\s+__VERSION__\b)");
    for (const std::string& s : sources)
        if (std::regex_search(s, undef)) return;  // must stay the error it is
    if (!mentions(sources, "__VERSION__")) return;
    for (std::string& s : sources) s = replace_word(s, "__VERSION__", "MGL_VERSION_");
    preamble += "#define MGL_VERSION_ " + std::to_string(version) + "\n";
}

bool mentions_word(const std::string& s, const std::string& word) {
    for (size_t at = s.find(word); at != std::string::npos; at = s.find(word, at + 1)) {
        const bool left = at == 0 || !ident(s[at - 1]);
        const bool right = at + word.size() >= s.size() || !ident(s[at + word.size()]);
        if (left && right) return true;
    }
    return false;
}

std::string replace_word(const std::string& src, const std::string& from, const std::string& to) {
    std::string out;
    size_t i = 0;
    for (size_t at = src.find(from); at != std::string::npos; at = src.find(from, at + 1)) {
        const bool left = at == 0 || !ident(src[at - 1]);
        const bool right = at + from.size() >= src.size() || !ident(src[at + from.size()]);
        if (!left || !right || at < i) continue;
        out.append(src, i, at - i);
        out += to;
        i = at + from.size();
    }
    out.append(src, i, std::string::npos);
    return out;
}

SourceVersion source_version(const std::vector<std::string>& sources, Api api) {
    std::string src;
    for (const std::string& s : sources) src += s;
    SourceVersion v;
    v.number = api == Api::gles ? 100 : 110;
    v.es = api == Api::gles;
    size_t i = 0;
    for (;;) {
        while (i < src.size() && std::isspace(static_cast<unsigned char>(src[i]))) ++i;
        if (src.compare(i, 2, "//") == 0) {
            i = src.find('\n', i);
            if (i == std::string::npos) return v;
        } else if (src.compare(i, 2, "/*") == 0) {
            i = src.find("*/", i + 2);
            if (i == std::string::npos) return v;
            i += 2;
        } else {
            break;
        }
    }
    if (i >= src.size() || src[i] != '#') return v;
    ++i;
    while (i < src.size() && (src[i] == ' ' || src[i] == '\t')) ++i;
    if (src.compare(i, 7, "version") != 0) return v;
    i += 7;
    while (i < src.size() && (src[i] == ' ' || src[i] == '\t')) ++i;
    int n = 0;
    const auto r = std::from_chars(src.data() + i, src.data() + src.size(), n);
    if (r.ec != std::errc()) return v;
    i = size_t(r.ptr - src.data());
    while (i < src.size() && (src[i] == ' ' || src[i] == '\t')) ++i;
    size_t e = i;
    while (e < src.size() && ident(src[e])) ++e;
    const std::string profile = src.substr(i, e - i);
    v.written = true;
    v.number = n;
    v.es = profile == "es" || n == 100;
    v.compatibility = profile == "compatibility";
    return v;
}

// (glsl_lift.h) glslang knows no GL_ARB_compatibility and refuses it when required.
bool take_compatibility_extension(std::vector<std::string>& sources) {
    static const std::regex directive(R"(^[ \t]*#[ \t]*extension[ \t]+GL_ARB_compatibility[ \t]*:[^\n]*)");
    bool found = false;
    for (std::string& s : sources) {
        if (s.find("GL_ARB_compatibility") == std::string::npos) continue;
        std::string out;
        size_t at = 0;
        while (at < s.size()) {
            size_t e = s.find('\n', at);
            if (e == std::string::npos) e = s.size();
            const std::string line = s.substr(at, e - at);
            const bool take = std::regex_search(line, directive);
            found = found || take;
            if (!take) out += line;
            if (e < s.size()) out += '\n';
            at = e + 1;
        }
        s = std::move(out);
    }
    return found;
}

// GLSL reserves GL_ names for #define: ours are spelled MGL_ and the
// source's words renamed, as version_macro does.
void compatibility_macros(std::vector<std::string>& sources, bool profile, std::string& preamble) {
    const std::pair<const char*, bool> kMacros[] = {{"GL_compatibility_profile", profile},
                                                    {"GL_ARB_compatibility", true}};
    for (const auto& [name, defined] : kMacros) {
        if (!defined || !mentions(sources, name)) continue;
        for (std::string& s : sources) s = replace_word(s, name, std::string("M") + name);
        preamble += std::string("#define M") + name + " 1\n";
    }
}

// The stages that may clip against the user clip planes (the last one
// before rasterisation does; a tessellation control stage passes
// gl_ClipVertex on).
static bool clips(Stage stage, const EsslOptions& opt) { return opt.clip_distance && stage != Stage::fragment && stage != Stage::compute; }

// `layout(shared)` and `layout(packed)` blocks: glslang refuses both when it
// emits SPIR-V; std140 is a layout GL lets an implementation give them (their
// offsets are the implementation's choice, queried through the API).
static void respell_block_layouts(std::vector<std::string>& sources) {
    static const std::regex kLayout(R"(\blayout\s*\([^)]*\b(shared|packed)\b[^)]*\))");
    static const std::regex kWord(R"(\b(shared|packed)\b)");
    for (std::string& s : sources) {
        if (s.find("shared") == std::string::npos && s.find("packed") == std::string::npos) continue;
        std::string out;
        auto it = std::sregex_iterator(s.begin(), s.end(), kLayout);
        size_t at = 0;
        for (; it != std::sregex_iterator(); ++it) {
            out += s.substr(at, size_t(it->position(0)) - at);
            out += std::regex_replace(it->str(0), kWord, "std140");
            at = size_t(it->position(0) + it->length(0));
        }
        if (at) s = out + s.substr(at);
    }
}

// `attribute` and `varying` (GLSL 1.10-4.10; glslang refuses them from 4.20)
// in a source an extension raised to 4.30: GLSL 1.30's meaning, spelled as
// in/out of the stage.
void respell_storage_keywords(std::vector<std::string>& sources, Stage stage) {
    if (stage == Stage::vertex) {
        if (mentions(sources, "attribute"))
            for (std::string& s : sources) s = replace_word(s, "attribute", "in");
        if (mentions(sources, "varying"))
            for (std::string& s : sources) s = replace_word(s, "varying", "out");
    } else if (stage == Stage::fragment && mentions(sources, "varying")) {
        for (std::string& s : sources) s = replace_word(s, "varying", "in");
    }
}

bool enables_extension(const std::string& src, const char* ext) {
    if (src.find(ext) == std::string::npos) return false;
    const std::regex directive(std::string(R"(#\s*extension\s+)") + ext + R"(\s*:\s*(enable|require|warn))");
    return std::regex_search(src, directive);
}

bool enables_layout_qualifiers(const std::string& src) {
    static const char* const kLayoutExtensions[] = {"GL_ARB_explicit_attrib_location", "GL_ARB_separate_shader_objects",
                                                    "GL_ARB_uniform_buffer_object", "GL_ARB_explicit_uniform_location"};
    for (const char* e : kLayoutExtensions)
        if (enables_extension(src, e)) return true;
    return false;
}

bool take_extension_directive(std::vector<std::string>& sources, const std::string& name) {
    // glslang refuses to #define a GL_ name: the macro is spelled MGL_ in the
    // source that enables it (a log naming it says MGL_...).
    const std::regex directive(R"(#[ \t]*extension[ \t]+)" + name + R"([ \t]*:[ \t]*(enable|require|warn)\b)");
    bool any = false;
    for (std::string& s : sources)
        any = any || (s.find(name) != std::string::npos && std::regex_search(s, directive));
    if (!any) return false;
    for (std::string& s : sources) {
        s = std::regex_replace(s, directive, "#define M" + name + " 1");
        s = replace_word(s, name, "M" + name);
    }
    return true;
}

int extension_version_floor(Stage stage, int number, const std::string& src) {
    auto enables = [&](const char* ext) { return enables_extension(src, ext); };
    if (number >= 430) return 0;
    if (stage == Stage::compute && enables("GL_ARB_compute_shader")) return 430;
    if (number >= 130 && enables("GL_ARB_shader_storage_buffer_object")) return 430;
    if (number == 420 && src.find("atomic_uint") != std::string::npos) return 430;
    if (number >= 140 && enables("GL_ARB_shader_atomic_counters")) return 430;
    if (number >= 130 && enables("GL_ARB_shader_image_load_store")) return 430;
    // GLSL 4.00/4.20's pack/unpack functions: glslang declares them for this
    // extension from 3.30 (ESSL 3.00's, 4x8 and snorm included).
    if (number >= 130 && number < 330 && enables("GL_ARB_shading_language_packing")) return 330;
    // GL_EXT_shader_integer_mix's mix() of integers and booleans: glslang
    // declares them by version only (4.50's), not for the extension.
    if (number >= 130 && number < 450 && enables("GL_EXT_shader_integer_mix")) return 450;
    return 0;
}

Lifted lift(const ShaderInput& in, const SourceVersion& v, const EsslOptions& opt, int floor) {
    Lifted out;
    out.sources = in.sources;
    if (v.es) {
        // ESSL 3.00 is a subset of 3.10 for what compiles; 1.00 would need
        // its own lift (not yet: ES contexts pass their shaders through).
        if (v.number != 300 && v.number != 310 && v.number != 320) {
            out.error = "ERROR: 0:1: '#version' : GLSL ES " + std::to_string(v.number) +
                        " is not served by the desktop front end (ESSL 3.00-3.20 are)\n";
            return out;
        }
        out.es = true;
        out.version = v.number < 310 ? 310 : v.number;
        out.lifted = out.version != v.number;
        return out;
    }
    static const int kDesktop[] = {110, 120, 130, 140, 150, 330, 400, 410, 420, 430, 440, 450, 460};
    bool known = false;
    for (int d : kDesktop) known = known || d == v.number;
    if (!known) {
        out.error = "ERROR: 0:1: '#version' : version " + std::to_string(v.number) + " is not supported\n";
        return out;
    }
    // GLSL 1.30 §4.5.2 (and every later version): "Literal constants do not
    // have precision qualifiers. Neither do Boolean variables." glslang's
    // desktop grammar ignores precision qualifiers, so the rule is ours.
    static const std::regex kBoolPrecision(R"(\b(lowp|mediump|highp)\s+(bool|bvec[234])\b)");
    for (size_t i = 0; i < in.sources.size(); ++i) {
        std::smatch m;
        if (std::regex_search(in.sources[i], m, kBoolPrecision)) {
            const auto line = 1 + std::count(in.sources[i].begin(), in.sources[i].begin() + m.position(0), '\n');
            out.error = "ERROR: " + std::to_string(i) + ":" + std::to_string(line) +
                        ": '" + m.str(1) + "' : precision qualifiers cannot be applied to boolean types\n";
            return out;
        }
    }
    std::string coord_decls;
    if (in.stage == Stage::fragment && !lower_frag_coord_layout(out.sources, v.number, coord_decls, out.error)) return out;
    if (in.stage == Stage::vertex) respell_instance_id_arb(out.sources);
    const bool compatibility = take_compatibility_extension(out.sources) || v.compatibility || v.number < 330;
    if (compatibility) compatibility_macros(out.sources, v.compatibility, coord_decls);
    // glslang takes compute shaders from GLSL 4.30 and tessellation shaders
    // (with their built-in block redeclarations) from 4.10 only, while
    // GL_ARB_compute_shader and GL_ARB_tessellation_shader bring them to
    // 1.40/1.50 and 3.30 sources: those stages compile as that version.
    std::string joined;
    for (const std::string& s : in.sources) joined += s;
    const int stage_floor = std::max(in.stage == Stage::compute ? 430
                                     : (in.stage == Stage::tess_control || in.stage == Stage::tess_evaluation) ? 410
                                                                                                                : 0,
                                     std::max(floor, extension_version_floor(in.stage, v.number, joined)));
    // Redeclaring a built-in block (out gl_PerVertex {...}) is GLSL 1.50's
    // (Mesa takes it there), glslang's only from 4.10 or with
    // ARB_separate_shader_objects: enabled for a source that redeclares one.
    const std::string extensions =
        v.number >= 150 && std::max(v.number, stage_floor) < 410 && mentions(in.sources, "gl_PerVertex")
            ? "#extension GL_ARB_separate_shader_objects : enable\n" : "";
    respell_block_layouts(out.sources);
    if (v.number < 420 && std::max(v.number, stage_floor) >= 420) respell_storage_keywords(out.sources, in.stage);
    if (v.number >= 330) {
        out.version = std::max(v.number, stage_floor);
        out.preamble = extensions + coord_decls;
        if (out.version != v.number) version_macro(out.sources, v.number, out.preamble);
        if (compatibility) out.preamble += lower_compat_builtins(in.stage, out.sources, clips(in.stage, opt));
        out.lifted = !out.preamble.empty() || out.version != v.number;
        return out;
    }
    out.version = std::max(330, stage_floor);
    out.lifted = true;
    out.preamble = extensions + legacy_lookups(in.stage, in.sources) + coord_decls;
    version_macro(out.sources, v.number, out.preamble);
    if (in.stage == Stage::fragment) {
        if (mentions(in.sources, "gl_FragColor")) {
            out.preamble += std::string("out vec4 ") + kFragColor + ";\n";
            for (std::string& s : out.sources) s = replace_word(s, "gl_FragColor", kFragColor);
        }
        if (mentions(in.sources, "gl_FragData")) {
            out.preamble += std::string("out vec4 ") + kFragData + "[" + std::to_string(opt.max_draw_buffers) + "];\n";
            for (std::string& s : out.sources) s = replace_word(s, "gl_FragData", kFragData);
        }
    }
    // The fixed-function built-ins (compatibility profile; GLSL 1.30 and
    // below have them in every profile).
    out.preamble += lower_compat_builtins(in.stage, out.sources, clips(in.stage, opt));
    return out;
}

bool respell_instance_id_arb(std::vector<std::string>& sources) {
    if (!mentions(sources, "gl_InstanceIDARB")) return false;
    for (std::string& s : sources) s = replace_word(s, "gl_InstanceIDARB", "gl_InstanceID");
    return true;
}

std::string unlift_log(std::string log) {
    log = replace_word(log, kFragColor, "gl_FragColor");
    log = replace_word(replace_word(log, "mgl_FragCoord", "gl_FragCoord"), "mgl_main", "main");
    return unlower_compat_log(replace_word(log, kFragData, "gl_FragData"));
}

}  // namespace mgl::gl
