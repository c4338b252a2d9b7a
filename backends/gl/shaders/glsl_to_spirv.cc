#include "glsl_to_spirv.h"

#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
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

SpirvResult glsl_to_spirv(Stage stage, const Lifted& lifted) {
    std::call_once(g_glslang_once, [] { glslang::InitializeProcess(); });
    SpirvResult out;
    const EShLanguage lang = language(stage);
    glslang::TShader sh(lang);
    std::vector<const char*> strings;
    for (const std::string& s : lifted.sources) strings.push_back(s.c_str());
    sh.setStrings(strings.data(), int(strings.size()));
    sh.setPreamble(lifted.preamble.c_str());
    sh.setEnvInput(glslang::EShSourceGlsl, lang, glslang::EShClientOpenGL, 100);
    sh.setEnvClient(glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450);
    sh.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
    sh.setAutoMapLocations(true);
    sh.setAutoMapBindings(true);
    // A lifted source would be warned about our lift ("attribute deprecated
    // in version 130"), which the application never wrote: none for those.
    const EShMessages msgs = EShMessages(lifted.lifted ? EShMsgSpvRules | EShMsgSuppressWarnings : EShMsgSpvRules);
    const EProfile profile = lifted.es ? EEsProfile : ECoreProfile;
    if (!sh.parse(&resources(), lifted.version, profile, true, false, msgs)) {
        out.log = sh.getInfoLog();
        return out;
    }
    out.log = sh.getInfoLog();
    out.parsed = true;
    glslang::TProgram prog;
    prog.addShader(&sh);
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
