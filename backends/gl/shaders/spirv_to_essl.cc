#include "spirv_to_essl.h"

#include "driver_uniforms.h"
#include "glsl_lift.h"

#include <spirv_cross/spirv_cross_c.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <regex>
#include <set>
#include <unordered_set>
#include <cctype>
#include <string>

#include "uniform_init.h"
#include "spirv_image_formats.h"
#include "spirv_textures.h"

namespace mgl::gl {

namespace {

// Sampler and image types by the ESSL version that introduced them; none of
// them but sampler2D/samplerCube has a default precision in a fragment
// shader, and the vertex defaults are highp anyway.
const char* const kSamplers300[] = {
    "sampler2D", "sampler3D", "samplerCube", "sampler2DShadow", "samplerCubeShadow", "sampler2DArray",
    "sampler2DArrayShadow", "isampler2D", "isampler3D", "isamplerCube", "isampler2DArray", "usampler2D",
    "usampler3D", "usamplerCube", "usampler2DArray"};
const char* const kSamplers310[] = {"sampler2DMS", "isampler2DMS", "usampler2DMS", "image2D", "iimage2D", "uimage2D",
                                    "image3D", "iimage3D", "uimage3D", "imageCube", "iimageCube", "uimageCube",
                                    "image2DArray", "iimage2DArray", "uimage2DArray"};
const char* const kSamplers320[] = {
    "samplerBuffer", "isamplerBuffer", "usamplerBuffer", "samplerCubeArray", "samplerCubeArrayShadow",
    "isamplerCubeArray", "usamplerCubeArray", "sampler2DMSArray", "isampler2DMSArray", "usampler2DMSArray",
    "imageBuffer", "iimageBuffer", "uimageBuffer", "imageCubeArray", "iimageCubeArray", "uimageCubeArray"};

struct Context {
    spvc_context ctx = nullptr;
    std::string errors;
    Context() {
        spvc_context_create(&ctx);
        spvc_context_set_error_callback(
            ctx, [](void* self, const char* e) { static_cast<Context*>(self)->errors += std::string(e) + "\n"; }, this);
    }
    ~Context() { spvc_context_destroy(ctx); }
};

bool locate_outputs(spvc_compiler comp, const Translation& t, const OutputBindings& bound) {
    spvc_resources res;
    if (spvc_compiler_create_shader_resources(comp, &res) != SPVC_SUCCESS) return false;
    const spvc_reflected_resource* list;
    size_t n = 0;
    if (spvc_resources_get_resource_list_for_type(res, SPVC_RESOURCE_TYPE_STAGE_OUTPUT, &list, &n) != SPVC_SUCCESS)
        return false;
    auto slots = [&](const std::string& name) {
        for (const Declared& d : t.reflection.outputs)
            if (d.name == name) return std::max(d.array_size, 1);
        return 1;
    };
    std::set<int> used;
    std::vector<size_t> open;
    for (size_t i = 0; i < n; ++i) {
        const std::string name = list[i].name;
        if (spvc_compiler_has_decoration(comp, list[i].id, SpvDecorationLocation)) {
            const int loc = int(spvc_compiler_get_decoration(comp, list[i].id, SpvDecorationLocation));
            for (int s = 0; s < slots(name); ++s) used.insert(loc + s);
        } else if (auto b = bound.find(name); b != bound.end()) {
            spvc_compiler_set_decoration(comp, list[i].id, SpvDecorationLocation, unsigned(b->second));
            for (int s = 0; s < slots(name); ++s) used.insert(b->second + s);
        } else {
            open.push_back(i);
        }
    }
    if (n < 2) return true;  // one output alone needs no location (it is 0)
    for (size_t i : open) {
        const int need = slots(list[i].name);
        int loc = 0;
        for (;; ++loc) {
            bool fits = true;
            for (int s = 0; s < need && fits; ++s) fits = !used.count(loc + s);
            if (fits) break;
        }
        for (int s = 0; s < need; ++s) used.insert(loc + s);
        spvc_compiler_set_decoration(comp, list[i].id, SpvDecorationLocation, unsigned(loc));
    }
    return true;
}

// SPIRV-Cross names every block instance; a block the application declared
// without one must stay without one, or its members' names change for the
// API ("Lights.color" instead of "color"). Such instances get a marker name
// that is taken out of the text afterwards.
constexpr const char* kAnonymous = "mgl_anonymous_";

void mark_anonymous_blocks(spvc_compiler comp, std::vector<std::string>& marks) {
    spvc_resources res;
    if (spvc_compiler_create_shader_resources(comp, &res) != SPVC_SUCCESS) return;
    for (spvc_resource_type type : {SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, SPVC_RESOURCE_TYPE_STORAGE_BUFFER,
                                    SPVC_RESOURCE_TYPE_STAGE_INPUT, SPVC_RESOURCE_TYPE_STAGE_OUTPUT}) {
        const spvc_reflected_resource* list;
        size_t n = 0;
        if (spvc_resources_get_resource_list_for_type(res, type, &list, &n) != SPVC_SUCCESS) continue;
        for (size_t i = 0; i < n; ++i) {
            const char* name = spvc_compiler_get_name(comp, list[i].id);
            if (name && *name) continue;
            if (!spvc_compiler_has_decoration(comp, list[i].base_type_id, SpvDecorationBlock)) continue;
            marks.push_back(kAnonymous + std::to_string(list[i].id));
            spvc_compiler_set_name(comp, list[i].id, marks.back().c_str());
        }
    }
}

std::string unmark_anonymous_blocks(std::string text, const std::vector<std::string>& marks) {
    for (const std::string& m : marks) {
        for (size_t at; (at = text.find("} " + m + ";")) != std::string::npos;) text.replace(at, m.size() + 3, "};");
        for (size_t at; (at = text.find(m + ".")) != std::string::npos;) text.erase(at, m.size() + 1);
    }
    return text;
}

// SPIRV-Cross writes the source's lines as `#line N "file"`, which needs
// GL_GOOGLE_cpp_style_line_directive (no GLES driver has it): the
// directives become a table instead and leave the text.
std::string take_line_directives(const std::string& text, std::vector<uint32_t>& lines) {
    std::string out;
    uint32_t current = 0;
    size_t i = 0;
    while (i < text.size()) {
        size_t e = text.find('\n', i);
        if (e == std::string::npos) e = text.size();
        const std::string line = text.substr(i, e - i);
        i = e + 1;
        if (line.rfind("#line ", 0) == 0) {
            current = uint32_t(std::strtoul(line.c_str() + 6, nullptr, 10));
            continue;
        }
        if (line.find("GL_GOOGLE_cpp_style_line_directive") != std::string::npos) continue;
        out += line + "\n";
        lines.push_back(current);
    }
    return out;
}

// gl_ClipDistance and gl_CullDistance are GL_EXT_clip_cull_distance's in
// ESSL, which SPIRV-Cross does not enable: enabled here, right after
// #version (a host without the extension refuses the shader with a log that
// names it). Its table entry stays line 0's, as the directive is ours.
std::string enable_clip_distances(std::string text) {
    constexpr const char* kExt = "GL_EXT_clip_cull_distance";
    if (text.find(kExt) != std::string::npos) return text;
    if (text.find("gl_ClipDistance") == std::string::npos && text.find("gl_CullDistance") == std::string::npos)
        return text;
    const size_t eol = text.find('\n');
    if (eol == std::string::npos) return text;
    return text.insert(eol + 1, std::string("#extension ") + kExt + " : require\n");
}

// gl_ViewportIndex (GL_ARB_viewport_array, GLSL 4.10) is GL_OES_viewport_array's
// in ESSL: enabled the same way.
std::string enable_viewport_index(std::string text) {
    constexpr const char* kExt = "GL_OES_viewport_array";
    if (text.find("gl_ViewportIndex") == std::string::npos || text.find(kExt) != std::string::npos) return text;
    const size_t eol = text.find('\n');
    if (eol == std::string::npos) return text;
    return text.insert(eol + 1, std::string("#extension ") + kExt + " : require\n");
}

// SPIRV-Cross declares a stage's gl_ClipDistance output whenever the SPIR-V
// output block has the member, also when the stage never writes it (a
// geometry stage that only reads its inputs' distances). A host counts a
// declared distance as written, and some (llvmpipe's GLES) clip by those
// whether enabled or not: a declaration the stage never assigns is dropped,
// as the application's source had none.
std::string drop_unwritten_clip_distances(std::string text) {
    static const std::regex kDecl(R"(\nout (?:highp )?float gl_ClipDistance\[\d+\];\n)");
    std::smatch m;
    if (!std::regex_search(text, m, kDecl)) return text;
    // Any use other than the declaration and the inputs' (gl_in[i].gl_ClipDistance) is a write or a read of the output.
    static const std::regex kUse(R"((^|[^.\w])gl_ClipDistance\b)");
    const std::string rest = text.substr(0, size_t(m.position(0))) + "\n" + text.substr(size_t(m.position(0) + m.length(0)));
    if (std::regex_search(rest, kUse)) return text;
    text.erase(size_t(m.position(0)) + 1, size_t(m.length(0)) - 1);
    return text;
}

// A geometry or tessellation stage that reads gl_in[i].gl_ClipDistance:
// SPIRV-Cross redeclares only the stage's outputs, and a GLES compiler's
// built-in input member is unsized, which takes no index but a constant
// ("unsized array index must be constant"). The input block is redeclared
// with the distances sized as the stage's own output (8 when it writes
// none: gl_MaxClipDistances of the hosts we serve), after the stage's
// input layout.
std::string size_input_clip_distances(std::string text, Stage stage) {
    if (stage != Stage::geometry && stage != Stage::tess_control && stage != Stage::tess_evaluation) return text;
    if (text.find("].gl_ClipDistance") == std::string::npos || text.find("} gl_in[") != std::string::npos) return text;
    int size = 8;
    static const std::regex kOut(R"(out (?:highp )?float gl_ClipDistance\[(\d+)\];)");
    if (std::smatch m; std::regex_search(text, m, kOut)) size = std::stoi(m.str(1));
    const std::string block = "in gl_PerVertex\n{\n    highp vec4 gl_Position;\n    highp float gl_ClipDistance[" +
                              std::to_string(size) + "];\n} gl_in[" +
                              (stage == Stage::geometry ? "" : "gl_MaxPatchVertices") + "];\n";
    // After the #version and #extension lines and any layout(...) in; / out;
    size_t at = 0;
    for (size_t eol; (eol = text.find('\n', at)) != std::string::npos;) {
        const std::string_view line(text.data() + at, eol - at);
        const bool header = line.starts_with("#") || line.starts_with("precision ") ||
                            (line.starts_with("layout(") && (line.ends_with(") in;") || line.ends_with(") out;")));
        if (!header) break;
        at = eol + 1;
    }
    return text.insert(at, block);
}

// glslang's OpenGL SPIR-V has no atomic_uint type: a counter is a uint in
// the AtomicCounter storage class, which SPIRV-Cross writes back as a plain
// global `layout(binding = B, offset = O) uint c;` (no `uniform`, no
// atomic_uint), so the host refuses every call on it. Only a counter is a
// top-level declaration with an offset: those lines get GLSL's spelling back,
// and so do the two operations SPIRV-Cross writes in SPIR-V's terms:
// OpAtomicLoad becomes `atomicAdd(c, 0)` (atomicCounter(c) in GLSL), and
// OpAtomicIDecrement becomes atomicCounterDecrement(c), which in GLSL returns
// the decremented value where SPIR-V's returns the one before (glslang then
// subtracts 1 from it, as GLSL's result): the old value is given back.
std::string restore_atomic_counters(std::string text) {
    if (text.find("atomicCounter") == std::string::npos && text.find("atomicAdd") == std::string::npos) return text;
    static const std::regex kCounter(R"((^|\n)(layout\(binding = \d+, offset = \d+\)) (?:highp )?uint (\w+)((?:\[\d+\])*;))");
    std::unordered_set<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kCounter); it != std::sregex_iterator(); ++it)
        names.insert(it->str(3));
    if (names.empty()) return text;
    text = std::regex_replace(text, kCounter, "$1$2 uniform atomic_uint $3$4");
    // One pass over the calls (a shader may declare thousands of counters):
    // `call(` followed by a counter, optionally indexed, and the rest of the call.
    auto rewrite = [&](const std::string& call, const std::regex& rest, auto&& replacement) {
        std::string out;
        size_t at = 0;
        for (size_t p = text.find(call); p != std::string::npos; p = text.find(call, p + 1)) {
            if (p > 0 && (std::isalnum(static_cast<unsigned char>(text[p - 1])) || text[p - 1] == '_')) continue;
            const size_t arg = p + call.size();
            size_t end = arg;
            while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
            if (!names.count(text.substr(arg, end - arg))) continue;
            std::smatch m;
            if (!std::regex_search(text.cbegin() + long(end), text.cend(), m, rest, std::regex_constants::match_continuous))
                continue;
            const std::string counter = text.substr(arg, end - arg) + m.str(1);
            out += text.substr(at, p - at) + replacement(counter);
            at = end + size_t(m.length(0));
            p = at - 1;
        }
        if (at) text = out + text.substr(at);
    };
    static const std::regex kLoadRest(R"(((?:\[[^\]]*\])*), 0u?\))");
    static const std::regex kDecrementRest(R"(((?:\[[^\]]*\])*)\))");
    rewrite("atomicAdd(", kLoadRest, [](const std::string& c) { return "atomicCounter(" + c + ")"; });
    rewrite("atomicCounterDecrement(", kDecrementRest,
            [](const std::string& c) { return "(atomicCounterDecrement(" + c + ") + 1u)"; });
    return text;
}

// The link's bindings for images and storage blocks the source left unbound.
bool bind_resources(spvc_compiler comp, const ResourceBindings& r) {
    spvc_resources res;
    if (spvc_compiler_create_shader_resources(comp, &res) != SPVC_SUCCESS) return false;
    auto apply = [&](spvc_resource_type type, const std::map<std::string, int>& names) {
        const spvc_reflected_resource* list = nullptr;
        size_t n = 0;
        if (spvc_resources_get_resource_list_for_type(res, type, &list, &n) != SPVC_SUCCESS) return false;
        for (size_t i = 0; i < n; ++i)
            if (auto b = names.find(list[i].name);
                b != names.end() && !spvc_compiler_has_decoration(comp, list[i].id, SpvDecorationBinding))
                spvc_compiler_set_decoration(comp, list[i].id, SpvDecorationBinding, unsigned(b->second));
        return true;
    };
    return apply(SPVC_RESOURCE_TYPE_STORAGE_IMAGE, r.images) && apply(SPVC_RESOURCE_TYPE_STORAGE_BUFFER, r.storage_blocks);
}

// Renames the translated stage's main (where SPIRV-Cross writes it) so that
// a main appended after the stage's code can call it first: the driver
// uniforms' epilogues. False, with a log line, when it is not there.
bool rename_main(std::string& essl, const std::string& to, std::string& log) {
    const size_t at = essl.find("\nvoid main()\n");
    if (at == std::string::npos) {
        log = "ERROR: the translated stage has no main() where expected";
        return false;
    }
    essl.replace(at, 13, "\nvoid " + to + "()\n");
    return true;
}

// The expression of a translated fragment stage's colour 0 (a float vec4
// output: its location is 0, or it is the stage's only output; an array's
// element 0), or "" when it has none (integer outputs, a depth-only stage).
std::string colour_zero_output(const std::string& essl) {
    static const std::regex decl(R"(^(layout\(location = (\d+)\) )?out (highp |mediump |lowp )?vec4 (\w+)(\[\d+\])?;$)");
    std::string only, at_zero;
    int outputs = 0;
    for (size_t at = 0; at < essl.size();) {
        size_t end = essl.find('\n', at);
        if (end == std::string::npos) end = essl.size();
        const std::string line = essl.substr(at, end - at);
        at = end + 1;
        if (line.find("out ") == std::string::npos) continue;
        if (line.rfind("out ", 0) != 0 && line.rfind("layout(", 0) != 0) continue;
        std::smatch m;
        if (!std::regex_match(line, m, decl)) {
            if (line.find(" out ") != std::string::npos || line.rfind("out ", 0) == 0) ++outputs;  // another kind
            continue;
        }
        ++outputs;
        const std::string expr = m[4].str() + (m[5].matched ? "[0]" : "");
        if (m[2].matched && m[2].str() == "0") at_zero = expr;
        if (!m[1].matched) only = expr;
    }
    if (!at_zero.empty()) return at_zero;
    return outputs == 1 ? only : std::string();
}

}  // namespace

bool spirv_to_essl(const Translation& t, const EsslOptions& opt, const OutputBindings& bound, std::string& essl,
                   std::string& log, std::vector<uint32_t>* lines, const ResourceBindings* resources) {
    Context c;
    spvc_parsed_ir ir = nullptr;
    spvc_compiler comp = nullptr;
    spvc_compiler_options o = nullptr;
    // ESSL refuses initialised uniforms (the backend sets them after link) and
    // has no 1D or rectangle samplers; Vulkan keeps t.spirv as it is.
    std::vector<uint32_t> spirv = t.spirv;
    strip_uniform_initialisers(spirv);
    lower_desktop_textures(spirv);
    format_writeonly_images(spirv);
    if (spvc_context_parse_spirv(c.ctx, spirv.data(), spirv.size(), &ir) != SPVC_SUCCESS ||
        spvc_context_create_compiler(c.ctx, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &comp) !=
            SPVC_SUCCESS ||
        spvc_compiler_create_compiler_options(comp, &o) != SPVC_SUCCESS) {
        log = "ERROR: SPIRV-Cross: " + c.errors;
        return false;
    }
    spvc_compiler_options_set_uint(o, SPVC_COMPILER_OPTION_GLSL_VERSION, unsigned(opt.version));
    spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_TRUE);
    spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_ES_DEFAULT_FLOAT_PRECISION_HIGHP, SPVC_TRUE);
    spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_ES_DEFAULT_INT_PRECISION_HIGHP, SPVC_TRUE);
    spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS, SPVC_FALSE);
    spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_EMIT_LINE_DIRECTIVES, SPVC_TRUE);
    spvc_compiler_install_compiler_options(comp, o);
    auto precision = [&](const char* const* types, size_t n) {
        for (size_t i = 0; i < n; ++i)
            spvc_compiler_add_header_line(comp, (std::string("precision highp ") + types[i] + ";").c_str());
    };
    precision(kSamplers300, std::size(kSamplers300));
    if (opt.version >= 310) precision(kSamplers310, std::size(kSamplers310));
    if (opt.version >= 320) precision(kSamplers320, std::size(kSamplers320));
    if (t.stage == Stage::fragment && !locate_outputs(comp, t, bound)) {
        log = "ERROR: SPIRV-Cross: " + c.errors;
        return false;
    }
    if (resources && !resources->empty() && !bind_resources(comp, *resources)) {
        log = "ERROR: SPIRV-Cross: " + c.errors;
        return false;
    }
    std::vector<std::string> marks;
    mark_anonymous_blocks(comp, marks);
    const char* text = nullptr;
    if (spvc_compiler_compile(comp, &text) != SPVC_SUCCESS || !text) {
        log = "ERROR: SPIRV-Cross: " + c.errors;
        return false;
    }
    std::string out = text;
    // A vertex stage that writes no gl_PointSize sizes points by glPointSize
    // (desktop GL; a GLES host leaves their size undefined): its main runs
    // first, then the driver uniform's value is written (driver_uniforms.h).
    if (t.stage == Stage::vertex && out.find("gl_PointSize") == std::string::npos) {
        if (!rename_main(out, "mgl_main", log)) return false;
        // Declared after everything of the application's: a host gives it the
        // location after the stage's own uniforms (first, it took location 0
        // and moved every application uniform from where a desktop driver puts
        // it; an explicit location changed them at each relink on Mesa).
        // Never set (0): GL's initial size.
        out += std::string("\nuniform highp float ") + kPointSizeUniform + ";\nvoid main()\n{\n    mgl_main();\n" +
               "    " + point_size_from_uniform() + "\n}\n";
    }
    // gl_PointCoord has GLES's origin, GL's GL_UPPER_LEFT; GL_LOWER_LEFT
    // mirrors t (driver_uniforms.h). The function is declared before the
    // stage's code and defined, with its uniform, after it (the uniform's
    // place: as the point size's above).
    if (t.stage == Stage::fragment && out.find("gl_PointCoord") != std::string::npos) {
        const size_t body = out.find("\n", out.rfind("\nprecision "));
        if (body == std::string::npos) {
            log = "ERROR: the translated fragment stage has no precision header where expected";
            return false;
        }
        out = replace_word(out, "gl_PointCoord", "mgl_point_coord()");
        out.insert(body + 1, "highp vec2 mgl_point_coord();\n");
        out += std::string("\nuniform highp float ") + kPointOriginUniform + ";\nhighp vec2 mgl_point_coord()\n{\n" +
               "    return " + kPointOriginUniform + " != 0.0 ? vec2(gl_PointCoord.x, 1.0 - gl_PointCoord.y) : gl_PointCoord;\n}\n";
    }
    // GL's alpha test, which a compatibility context applies to an
    // application's program too: the stage's main runs first, then colour 0
    // is tested against the driver uniform (off, 0, unless the backend sets
    // it). Desktop sources only; the backend leaves the option off for the
    // fixed-function lowering's own programs, which test alpha themselves
    // (driver_uniforms.h, kFixedFunctionPragma).
    if (t.stage == Stage::fragment && opt.alpha_test && !t.source_es) {
        const std::string colour = colour_zero_output(out);
        if (!colour.empty()) {
            if (!rename_main(out, "mgl_alpha_main", log)) return false;
            out += alpha_test_main(colour, "mgl_alpha_main");
        }
    }
    std::vector<uint32_t> table;
    essl = take_line_directives(
        size_input_clip_distances(
            enable_viewport_index(enable_clip_distances(
                drop_unwritten_clip_distances(restore_atomic_counters(unmark_anonymous_blocks(out, marks))))),
            t.stage), table);
    if (lines) *lines = std::move(table);
    return true;
}

}  // namespace mgl::gl
