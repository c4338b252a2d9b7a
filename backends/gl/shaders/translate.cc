#include "translate.h"

#include "compat_builtins.h"
#include "compiler_process.h"
#include "const_fold.h"
#include "frag_coord.h"
#include "glsl_lift.h"
#include "gpu_shader4.h"
#include "glsl_to_spirv.h"
#include "shader_cache.h"
#include "spirv_names.h"

namespace mgl::gl {

namespace {

// glslang's own notes that are about our lift, not the application's source.
std::string app_log(const std::string& log) {
    std::string out;
    size_t i = 0;
    while (i < log.size()) {
        size_t e = log.find('\n', i);
        if (e == std::string::npos) e = log.size();
        const std::string line = log.substr(i, e - i);
        if (line.find("(version, profile) forced") == std::string::npos && !line.empty()) out += line + "\n";
        i = e + 1;
    }
    return unlift_log(out);
}

// A hint for what the front end does not do yet, so that the application's
// log says why rather than only "undeclared identifier".
std::string fixed_function_hint(const std::string& log) {
    static const char* const kBuiltins[] = {"gl_Vertex", "gl_Normal", "gl_Color", "gl_MultiTexCoord", "gl_TexCoord",
                                            "gl_ModelView", "gl_Projection", "gl_NormalMatrix", "ftransform",
                                            "gl_FrontColor", "gl_LightSource", "gl_Fog", "gl_TextureMatrix"};
    for (const char* b : kBuiltins)
        if (log.find(std::string("'") + b) != std::string::npos)
            return "NOTE: fixed-function built-ins (" + std::string(b) +
                   ", ...) are not served yet by this OpenGL implementation\n";
    return {};
}

// The checks at the source's own version and the lift; false (and t's log)
// when the object does not compile.
bool lift_one(const ShaderInput& as_given, const EsslOptions& opt, Translation& t, Lifted& lifted) {
    // Constant expressions glslang does not fold, folded first (lines kept):
    // the checks below run glslang too.
    ShaderInput in = as_given;
    const SourceVersion v = source_version(in.sources, in.api);
    fold_constant_expressions(in.sources, v.number, v.es);
    t.source_version = v.number;
    t.source_es = v.es;
    const bool texture_array = !v.es && in.api == Api::gl && take_extension_directive(in.sources, "GL_EXT_texture_array");
    const bool trinary = !v.es && in.api == Api::gl && take_extension_directive(in.sources, "GL_AMD_shader_trinary_minmax");
    // GL_EXT_gpu_shader4 (gpu_shader4.h): 1.30's features in 1.10/1.20; a
    // no-op from 1.30 on, where glslang would refuse the unknown directive.
    const bool gpu_shader4 = !v.es && in.api == Api::gl && take_extension_directive(in.sources, "GL_EXT_gpu_shader4") &&
                             v.number < 130;
    if (gpu_shader4) respell_gpu_shader4(in.sources);
    // Arrays of arrays, gpu_shader5's integer functions: compiled as the
    // version glslang has them in.
    const RaisingExtensions raising =
        !v.es && in.api == Api::gl ? take_raising_extensions(in.sources, v.number) : RaisingExtensions{};
    // 1.10/1.20 are compiled under 3.30's rules: what their own rules
    // forbid must fail first (desktop sources below 1.30 only). Not for a
    // source enabling an extension that brings later syntax to them, which
    // glslang's 1.10/1.20 do not take (GL_ARB_explicit_attrib_location's and
    // GL_ARB_separate_shader_objects' located `in`/`out` declarations and
    // every layout qualifier an extension brings, as GL_ARB_uniform_buffer_object's,
    // GL_EXT_texture_array's array samplers, GL_AMD_shader_trinary_minmax's
    // functions, which are the preamble's macros, arrays of arrays,
    // GL_EXT_gpu_shader4's integer types and lookups).
    std::string joined;
    for (const std::string& s : in.sources) joined += s;
    const bool later_syntax = texture_array || trinary || gpu_shader4 || raising.floor || enables_layout_qualifiers(joined);
    if (!v.es && v.number < 130 && in.api == Api::gl && !later_syntax) {
        // gl_FragCoord's redeclarations go first: glslang takes no layout
        // qualifiers below 1.50 (the rules are lower_frag_coord_layout's).
        std::vector<std::string> as_written = in.sources;
        bool upper, integer;
        std::string ignored;
        if (in.stage == Stage::fragment && !blank_frag_coord_redeclarations(as_written, v.number, &upper, &integer, ignored))
            as_written = in.sources;
        // GL_ARB_draw_instanced's gl_InstanceIDARB, which glslang does not
        // know below 1.40: checked as a read-only int (lift() compiles it as
        // 3.30's gl_InstanceID).
        if (in.stage == Stage::vertex)
            for (std::string& s : as_written) s = replace_word(s, "gl_InstanceIDARB", "(0)");
        const std::string e = check_as_written(in.stage, as_written, v.number);
        // Mesa takes a float suffix (1.0f) in 1.10 as well: not an error of ours.
        if (!e.empty() && e.find("'floating-point suffix' : not supported") == std::string::npos) {
            t.log = app_log(e);
            return false;
        }
    }
    lifted = lift(in, v, opt, raising.floor);
    if (!lifted.error.empty()) {
        t.log = lifted.error;
        return false;
    }
    if (trinary) lifted.preamble += kTrinaryMinMax;
    if (gpu_shader4) lifted.preamble += gpu_shader4_lookups();
    lifted.preamble = raising.preamble + lifted.preamble;
    return true;
}

// SPIR-V -> ESSL for a stage glslang linked.
void finish(SpirvResult& s, const EsslOptions& opt, Translation& t) {
    strip_invented_layouts(s.spirv, s.written_locations, s.written_bindings);
    t.spirv = std::move(s.spirv);
    t.reflection = std::move(s.reflection);
    std::string log;
    if (!spirv_to_essl(t, opt, {}, t.essl, log, &t.essl_lines)) {
        t.log += log;
        return;
    }
    t.ok = true;
}

}  // namespace

std::shared_ptr<Translation> translate_in_process(const ShaderInput& in, const EsslOptions& opt) {
    auto t = std::make_shared<Translation>();
    t->stage = in.stage;
    if (in.api == Api::gl) t->colour_interpolation = colour_interpolation(in.stage, in.sources);
    Lifted lifted;
    if (!lift_one(in, opt, *t, lifted)) return t;
    SpirvResult s = glsl_to_spirv(in.stage, lifted);
    if (!s.ok && s.parsed) {
        // Only the stage's link failed (the object alone is not a whole
        // stage): a compile success for GL, and a link failure unless the
        // program completes the stage (translate_stage).
        t->deferred = true;
        t->link_log = app_log(s.log);
        return t;
    }
    t->log = app_log(s.log);
    if (!s.ok) {
        t->log += fixed_function_hint(t->log);
        return t;
    }
    finish(s, opt, *t);
    return t;
}

std::shared_ptr<Translation> link_in_process(const std::vector<ShaderInput>& objects, const EsslOptions& opt) {
    auto t = std::make_shared<Translation>();
    t->stage = objects.front().stage;
    std::vector<std::string> all;
    for (const ShaderInput& in : objects) all.insert(all.end(), in.sources.begin(), in.sources.end());
    if (objects.front().api == Api::gl) t->colour_interpolation = colour_interpolation(t->stage, all);
    if (t->stage == Stage::fragment) {
        std::vector<std::vector<std::string>> each;
        for (const ShaderInput& in : objects) each.push_back(in.sources);
        if (std::string e = frag_coord_link_rule(each); !e.empty()) {
            t->link_log = e;
            return t;
        }
    }
    std::vector<Lifted> units(objects.size());
    for (size_t i = 0; i < objects.size(); ++i) {
        Translation one;
        if (!lift_one(objects[i], opt, one, units[i])) {
            t->link_log = one.log;
            return t;
        }
        if (i == 0) {
            t->source_version = one.source_version;
            t->source_es = one.source_es;
        }
    }
    SpirvResult s = glsl_to_spirv(t->stage, units);
    if (!s.ok) {
        t->link_log = app_log(s.log);
        return t;
    }
    finish(s, opt, *t);
    if (!t->ok) t->link_log = t->log;
    return t;
}

namespace {

// In the compiler process (compiler_process.h); here when there is none.
// A compile the compiler died on is not cached: the next try may succeed
// (the worker was killed from outside), and a source that kills it again
// costs only a fresh worker.
std::shared_ptr<const Translation> compile(CompileJob job, ShaderCache* cache, const std::string& key) {
    IsolatedResult r = compile_isolated(job);
    if (!r.t) r.t = job.link ? link_in_process(job.inputs, job.opt) : translate_in_process(job.inputs.front(), job.opt);
    if (cache && !r.compiler_failed) cache->store(key, r.t);
    return r.t;
}

}  // namespace

std::shared_ptr<const Translation> translate(const ShaderInput& in, const EsslOptions& opt, ShaderCache* cache) {
    const std::string key = cache ? cache_key(in, opt) : std::string();
    if (cache)
        if (auto hit = cache->find(key)) return hit;
    return compile(CompileJob{false, {in}, opt}, cache, key);
}


std::shared_ptr<const Translation> translate_stage(const std::vector<ShaderInput>& objects, const EsslOptions& opt,
                                                   ShaderCache* cache) {
    if (objects.empty()) {
        auto t = std::make_shared<Translation>();
        t->link_log = "no shader object in the stage";
        return t;
    }
    std::string key;
    if (cache) {
        key = "link " + std::to_string(objects.size()) + "\n";
        for (const ShaderInput& in : objects) key += cache_key(in, opt);
        if (auto hit = cache->find(key)) return hit;
    }
    return compile(CompileJob{true, objects, opt}, cache, key);
}

}  // namespace mgl::gl
