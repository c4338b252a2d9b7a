#include "glsl_to_spirv.h"

#include "glsl_guards.h"

#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

namespace mgl::gl {

namespace {

std::once_flag g_glslang_once;

EShLanguage language(Stage s) {
    switch (s) {
        case Stage::vertex: return EShLangVertex;
        case Stage::fragment: return EShLangFragment;
        case Stage::geometry: return EShLangGeometry;
        case Stage::tess_control: return EShLangTessControl;
        case Stage::tess_evaluation: return EShLangTessEvaluation;
        case Stage::compute: return EShLangCompute;
    }
    return EShLangVertex;
}

// Built-in constants (gl_MaxDrawBuffers, ...) as a GLES 3.2 host has them at
// least; glslang's defaults are desktop figures some hosts do not reach.
const TBuiltInResource& resources() {
    static const TBuiltInResource r = [] {
        TBuiltInResource x = *GetDefaultResources();
        x.maxDrawBuffers = 8;
        // Atomic counters and images (GLES 3.1's, desktop through
        // GL_ARB_shader_atomic_counters / _image_load_store): glslang's
        // defaults (one counter binding, no vertex counters) are below what
        // GLES 3.1 hosts serve, so the compile would refuse what the host
        // takes. These figures are upper bounds (Mesa's); the host's own
        // limits are enforced by its compile and link of the emitted ESSL.
        // The gl_Max* constants a shader reads are these, not the host's.
        x.maxAtomicCounterBindings = 16;
        x.maxAtomicCounterBufferSize = 16384;
        x.maxVertexAtomicCounters = x.maxTessControlAtomicCounters = x.maxTessEvaluationAtomicCounters =
            x.maxGeometryAtomicCounters = x.maxFragmentAtomicCounters = x.maxComputeAtomicCounters = 4096;
        x.maxCombinedAtomicCounters = 4096;
        x.maxVertexAtomicCounterBuffers = x.maxTessControlAtomicCounterBuffers = x.maxTessEvaluationAtomicCounterBuffers =
            x.maxGeometryAtomicCounterBuffers = x.maxFragmentAtomicCounterBuffers = x.maxComputeAtomicCounterBuffers =
                x.maxCombinedAtomicCounterBuffers = 16;
        x.maxImageUnits = 32;
        x.maxCombinedImageUnitsAndFragmentOutputs = 40;
        x.maxVertexImageUniforms = x.maxTessControlImageUniforms = x.maxTessEvaluationImageUniforms =
            x.maxGeometryImageUniforms = x.maxFragmentImageUniforms = x.maxComputeImageUniforms = 32;
        x.maxCombinedImageUniforms = 192;
        return x;
    }();
    return r;
}

// The application's explicit layout(location/binding) qualifiers, read from
// the linker objects before the I/O mapper fills in the rest.
void written_layouts(glslang::TIntermediate& im, SpirvResult& out) {
    TIntermNode* root = im.getTreeRoot();
    if (!root || !root->getAsAggregate()) return;
    auto& seq = root->getAsAggregate()->getSequence();
    if (seq.empty() || !seq.back()->getAsAggregate()) return;
    for (TIntermNode* n : seq.back()->getAsAggregate()->getSequence()) {
        const glslang::TIntermSymbol* sym = n->getAsSymbolNode();
        if (!sym) continue;
        const glslang::TType& t = sym->getType();
        const glslang::TQualifier& q = t.getQualifier();
        const std::string name = t.getBasicType() == glslang::EbtBlock ? std::string(t.getTypeName().c_str())
                                                                       : std::string(sym->getName().c_str());
        if (q.hasLocation()) out.written_locations.insert(name);
        if (q.hasBinding()) out.written_bindings.insert(name);
    }
}

std::string strip_array(std::string n) {
    if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) n.resize(n.size() - 3);
    return n;
}

Declared declared(const glslang::TObjectReflection& r, const SpirvResult& w, bool block) {
    Declared d;
    d.name = strip_array(r.name);
    d.gl_type = block ? 0 : uint32_t(std::max(r.glDefineType, 0));
    d.array_size = block ? 1 : std::max(r.size, 1);
    const glslang::TType* t = r.getType();
    if (t && t->getQualifier().hasLocation() && w.written_locations.count(d.name))
        d.location = int(t->getQualifier().layoutLocation);
    if (r.getBinding() >= 0 && w.written_bindings.count(d.name)) d.binding = r.getBinding();
    return d;
}

// GL's rule on a global that several objects of a stage declare (GLSL 1.10
// 4.3, Mesa's linker): at most one of them may initialise it, unless all the
// initialisers are constant and equal. glslang's linker does not check it.
class GlobalInitialisers : public glslang::TIntermTraverser {
public:
    struct Init {
        const glslang::TIntermConstantUnion* value;  // null: not a constant
    };
    std::map<std::string, Init> found;
    bool visitAggregate(glslang::TVisit, glslang::TIntermAggregate* node) override {
        return node->getOp() != glslang::EOpFunction && node->getOp() != glslang::EOpLinkerObjects;
    }
    bool visitBinary(glslang::TVisit, glslang::TIntermBinary* node) override {
        const glslang::TIntermSymbol* left = node->getLeft()->getAsSymbolNode();
        if (node->getOp() == glslang::EOpAssign && left && left->getQualifier().storage == glslang::EvqGlobal)
            found.emplace(left->getName().c_str(), Init{node->getRight()->getAsConstantUnion()});
        return false;
    }
};

std::string shared_global_errors(const std::vector<std::unique_ptr<glslang::TShader>>& shaders) {
    std::map<std::string, std::vector<GlobalInitialisers::Init>> inits;
    for (const auto& sh : shaders) {
        GlobalInitialisers g;
        if (TIntermNode* root = sh->getIntermediate()->getTreeRoot()) root->traverse(&g);
        for (const auto& [name, init] : g.found) inits[name].push_back(init);
    }
    std::string log;
    for (const auto& [name, list] : inits) {
        if (list.size() < 2) continue;
        const bool constant = std::all_of(list.begin(), list.end(), [](const auto& i) { return i.value != nullptr; });
        if (!constant) {
            log += "ERROR: Linking: shared global variable '" + name + "' has multiple non-constant initializers\n";
            continue;
        }
        for (const auto& i : list)
            if (!(i.value->getConstArray() == list.front().value->getConstArray())) {
                log += "ERROR: Linking: initializers for shared global variable '" + name + "' have differing values\n";
                break;
            }
    }
    return log;
}

}  // namespace

std::string check_as_written(Stage stage, const std::vector<std::string>& sources, int version) {
    std::call_once(g_glslang_once, [] { glslang::InitializeProcess(); });
    // glslang knows no GL_EXT_texture_array below 1.30: its 1D/2D array
    // samplers would be syntax errors here; the 3.30 compile checks such a source.
    for (const std::string& s : sources)
        if (s.find("GL_EXT_texture_array") != std::string::npos) return {};
    const EShLanguage lang = language(stage);
    glslang::TShader sh(lang);
    std::vector<std::string> text = sources;
    // ARB_texture_rectangle's GLSL part is on without #extension (its spec;
    // Mesa alike): its samplers are not reserved words here.
    std::string preamble = "#extension GL_ARB_texture_rectangle : enable\n";
    // GLSL 1.10/1.20 have texture2DLod & co. in vertex shaders (§8.7);
    // glslang gives them to vertex shaders with GL_ARB_shader_texture_lod only.
    if (stage == Stage::vertex) preamble += "#extension GL_ARB_shader_texture_lod : enable\n";
    version_macro(text, version, preamble);
    std::vector<const char*> strings;
    for (const std::string& s : text) strings.push_back(s.c_str());
    sh.setStrings(strings.data(), int(strings.size()));
    sh.setPreamble(preamble.c_str());
    // No SPIR-V rules: the check is of the language alone (1.10 has no
    // SPIR-V target); a source without #version is 1.10.
    const EShMessages msgs = EShMessages(EShMsgDefault | EShMsgSuppressWarnings);
    if (sh.parse(&resources(), version, ENoProfile, false, false, msgs)) return {};
    return sh.getInfoLog();
}

SpirvResult glsl_to_spirv(Stage stage, const Lifted& lifted) { return glsl_to_spirv(stage, std::vector<Lifted>{lifted}); }

SpirvResult glsl_to_spirv(Stage stage, const std::vector<Lifted>& units) {
    std::call_once(g_glslang_once, [] { glslang::InitializeProcess(); });
    SpirvResult out;
    const EShLanguage lang = language(stage);
    std::vector<std::unique_ptr<glslang::TShader>> shaders;
    EShMessages msgs = EShMsgSpvRules;
    for (const Lifted& lifted : units) {
        auto sh = std::make_unique<glslang::TShader>(lang);
        std::vector<const char*> strings;
        for (const std::string& s : lifted.sources) strings.push_back(s.c_str());
        sh->setStrings(strings.data(), int(strings.size()));
        sh->setPreamble(lifted.preamble.c_str());
        sh->setEnvInput(glslang::EShSourceGlsl, lang, glslang::EShClientOpenGL, 100);
        sh->setEnvClient(glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450);
        sh->setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
        sh->setAutoMapLocations(true);
        sh->setAutoMapBindings(true);
        // A lifted source would be warned about our lift ("attribute deprecated
        // in version 130"), which the application never wrote: none for those.
        const EShMessages m = EShMessages(lifted.lifted ? EShMsgSpvRules | EShMsgSuppressWarnings : EShMsgSpvRules);
        if (lifted.lifted) msgs = m;
        const EProfile profile = lifted.es ? EEsProfile : ECoreProfile;
        if (const std::string e = block_name_reuse(lifted.sources); !e.empty()) {
            out.log += e;  // what glslang would crash on (glsl_guards.h)
            return out;
        }
        const bool parsed = sh->parse(&resources(), lifted.version, profile, true, false, m);
        out.log += sh->getInfoLog();
        if (!parsed) return out;
        shaders.push_back(std::move(sh));
    }
    out.parsed = true;
    if (shaders.size() > 1)
        if (const std::string e = shared_global_errors(shaders); !e.empty()) {
            out.log += e;
            return out;
        }
    glslang::TProgram prog;
    for (auto& sh : shaders) prog.addShader(sh.get());
    if (!prog.link(msgs)) {
        out.log += prog.getInfoLog();
        return out;
    }
    written_layouts(*prog.getIntermediate(lang), out);
    if (!prog.mapIO()) {
        out.log += std::string("ERROR: I/O mapping failed: ") + prog.getInfoLog();
        return out;
    }
    prog.buildReflection(EShReflectionDefault | EShReflectionSeparateBuffers | EShReflectionAllBlockVariables);
    if (stage == Stage::vertex)
        for (int i = 0; i < prog.getNumPipeInputs(); ++i) {
            const auto& r = prog.getPipeInput(i);
            if (r.name.rfind("gl_", 0) != 0) out.reflection.inputs.push_back(declared(r, out, false));
        }
    if (stage == Stage::fragment)
        for (int i = 0; i < prog.getNumPipeOutputs(); ++i) {
            const auto& r = prog.getPipeOutput(i);
            if (r.name.rfind("gl_", 0) != 0) out.reflection.outputs.push_back(declared(r, out, false));
        }
    for (int i = 0; i < prog.getNumUniformVariables(); ++i) {
        const auto& r = prog.getUniform(i);
        if (r.index < 0) out.reflection.uniforms.push_back(declared(r, out, false));  // loose, not a block member
    }
    for (int i = 0; i < prog.getNumUniformBlocks(); ++i) out.reflection.blocks.push_back(declared(prog.getUniformBlock(i), out, true));
    glslang::SpvOptions opt;
    opt.disableOptimizer = true;  // the host driver optimises; names must survive
    opt.generateDebugInfo = true;  // OpLine: the ESSL's lines map back to the source's (host_log.h)
    spv::SpvBuildLogger spv_log;
    glslang::GlslangToSpv(*prog.getIntermediate(lang), out.spirv, &spv_log, &opt);
    if (out.spirv.empty()) {
        out.log += "ERROR: SPIR-V generation failed: " + spv_log.getAllMessages();
        return out;
    }
    out.ok = true;
    return out;
}

}  // namespace mgl::gl
