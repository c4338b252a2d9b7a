#include "shaders.h"

#include <glslang/MachineIndependent/iomapper.h>
#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <memory>
#include <mutex>
#include <regex>

namespace mgl::magma {

namespace {

std::once_flag g_glslang_once;

// The language version a source declares (100 when none).
struct Version {
    int number = 100;
    bool es = true;
};
Version source_version(const std::string& src) {
    static const std::regex re(R"(^\s*#\s*version\s+(\d+)\s*(\w*))");
    std::smatch m;
    // #version must be the first directive: look at the first non-blank lines only.
    size_t at = 0;
    while (at < src.size()) {
        size_t end = src.find('\n', at);
        if (end == std::string::npos) end = src.size();
        std::string line = src.substr(at, end - at);
        if (line.find_first_not_of(" \t\r") != std::string::npos) {
            if (std::regex_search(line, m, re)) {
                Version v;
                v.number = std::stoi(m[1]);
                v.es = v.number == 100 || m[2] == "es";
                return v;
            }
            if (line.find("//") != line.find_first_not_of(" \t")) break;
        }
        at = end + 1;
    }
    return {};
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
const char* kVertexWrapEnd =
    "\n#undef main\nvoid main() { mgl_user_main(); gl_Position.z = (gl_Position.z + gl_Position.w) * 0.5; }\n";

struct Parsed {
    std::unique_ptr<glslang::TShader> shader;
    std::string preamble;
    std::string source;
    const char* strings[2];
};

std::unique_ptr<Parsed> parse(Stage stage, const std::string& src, std::string& log) {
    std::call_once(g_glslang_once, [] { glslang::InitializeProcess(); });
    auto p = std::make_unique<Parsed>();
    const EShLanguage lang = stage == Stage::vertex ? EShLangVertex : EShLangFragment;
    p->shader = std::make_unique<glslang::TShader>(lang);
    const Version v = source_version(src);
    int version = 310;
    EProfile profile = EEsProfile;
    if (v.number < 300) {
        version = 140;
        profile = ENoProfile;
        p->preamble = kLegacyTextureNames;
    }
    if (stage == Stage::vertex) p->preamble += kVertexWrapStart;
    p->source = src;
    p->strings[0] = p->source.c_str();
    p->strings[1] = stage == Stage::vertex ? kVertexWrapEnd : "\n";
    glslang::TShader& sh = *p->shader;
    sh.setStrings(p->strings, 2);
    sh.setPreamble(p->preamble.c_str());
    sh.setEnvInput(glslang::EShSourceGlsl, lang, glslang::EShClientVulkan, 100);
    sh.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
    sh.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
    sh.setEnvInputVulkanRulesRelaxed();
    sh.setGlobalUniformBlockName("gl_DefaultUniformBlock");
    sh.setGlobalUniformSet(0);
    sh.setGlobalUniformBinding(0);
    sh.setAutoMapBindings(true);
    sh.setAutoMapLocations(true);
    // Warnings would be about our own mapping (ESSL 1.00 keywords "deprecated"
    // in GLSL 1.40), not about the application's shader.
    const EShMessages msgs = EShMessages(EShMsgSpvRules | EShMsgVulkanRules | EShMsgSuppressWarnings);
    const bool ok = sh.parse(GetDefaultResources(), version, profile, true, false, msgs);
    log = sh.getInfoLog();
    if (!ok) return nullptr;
    return p;
}

std::string strip_array(std::string n) {
    if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) n.resize(n.size() - 3);
    return n;
}

int type_slots(uint32_t gl_type) {
    switch (gl_type) {
        case 0x8B5A: return 2;  // GL_FLOAT_MAT2
        case 0x8B5B: return 3;  // GL_FLOAT_MAT3
        case 0x8B5C: return 4;  // GL_FLOAT_MAT4
        case 0x8B65: case 0x8B66: return 2;  // mat2x3, mat2x4
        case 0x8B67: case 0x8B68: return 3;  // mat3x2, mat3x4
        case 0x8B69: case 0x8B6A: return 4;  // mat4x2, mat4x3
        default: return 1;
    }
}

// Drops every RelaxedPrecision decoration: GL ES drivers that serve
// mediump at full precision (llvmpipe, most desktop GPUs) are what
// applications are tested on, and some drivers (lavapipe) really compute
// RelaxedPrecision in 16 bits, which overflows shaders written for highp
// (glmark2's simplex noise). Full precision everywhere matches native GL.
void drop_relaxed_precision(std::vector<uint32_t>& spv) {
    constexpr uint32_t kOpDecorate = 71, kOpMemberDecorate = 72, kRelaxedPrecision = 0;
    if (spv.size() < 5) return;
    std::vector<uint32_t> out(spv.begin(), spv.begin() + 5);
    out.reserve(spv.size());
    for (size_t i = 5; i < spv.size();) {
        const uint32_t words = spv[i] >> 16, op = spv[i] & 0xFFFF;
        if (words == 0 || i + words > spv.size()) return;  // malformed: leave it alone
        const bool relaxed = (op == kOpDecorate && words >= 3 && spv[i + 2] == kRelaxedPrecision) ||
                             (op == kOpMemberDecorate && words >= 4 && spv[i + 3] == kRelaxedPrecision);
        if (!relaxed) out.insert(out.end(), spv.begin() + long(i), spv.begin() + long(i + words));
        i += words;
    }
    spv.swap(out);
}

}  // namespace

bool compile_check(Stage stage, const std::string& source, std::string& log) {
    return parse(stage, source, log) != nullptr;
}

bool link_program(const std::string& vs_src, const std::string& fs_src, LinkedProgram& out, std::string& log) {
    std::string vlog, flog;
    auto vs = parse(Stage::vertex, vs_src, vlog);
    auto fs = parse(Stage::fragment, fs_src, flog);
    if (!vs || !fs) {
        log = "compile failed:\n" + vlog + flog;
        return false;
    }
    glslang::TProgram prog;
    prog.addShader(vs->shader.get());
    prog.addShader(fs->shader.get());
    const EShMessages msgs = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
    if (!prog.link(msgs)) {
        log = prog.getInfoLog();
        return false;
    }
    // The GLSL mapper gives a varying the same location in both stages (by name).
    glslang::TGlslIoMapper mapper;
    glslang::TDefaultGlslIoResolver resolver(*prog.getIntermediate(EShLangVertex));
    if (!prog.mapIO(&resolver, &mapper)) {
        log = std::string("I/O mapping failed: ") + prog.getInfoLog();
        return false;
    }
    // Inactive attributes too: the SPIR-V still declares them, and Vulkan wants
    // every vertex input fed (GL would not list them as active: a known gap).
    prog.buildReflection(EShReflectionDefault | EShReflectionSeparateBuffers | EShReflectionAllIOVariables);
    out = {};
    int default_block = -1;
    for (int i = 0; i < prog.getNumUniformBlocks(); ++i) {
        const glslang::TObjectReflection& b = prog.getUniformBlock(i);
        if (b.name == "gl_DefaultUniformBlock") {
            default_block = i;
            out.default_binding = b.getBinding() < 0 ? 0 : b.getBinding();
            out.default_size = b.size;
        } else {
            out.blocks.push_back({b.name, b.getBinding(), b.size});
        }
    }
    for (int i = 0; i < prog.getNumUniformVariables(); ++i) {
        const glslang::TObjectReflection& u = prog.getUniform(i);
        UniformInfo info;
        info.name = strip_array(u.name);
        info.type = uint32_t(u.glDefineType);
        info.array_size = std::max(u.size, 1);
        const glslang::TType* t = u.getType();
        const bool sampler = t && t->getBasicType() == glslang::EbtSampler;
        if (sampler) {
            info.binding = u.getBinding();
        } else if (u.index == default_block && default_block >= 0) {
            info.offset = u.offset;
            info.array_stride = u.arrayStride;
        } else {
            continue;  // a member of a user uniform block: set through the block's buffer
        }
        out.uniforms.push_back(std::move(info));
    }
    for (int i = 0; i < prog.getNumPipeInputs(); ++i) {
        const glslang::TObjectReflection& a = prog.getPipeInput(i);
        if (a.name.rfind("gl_", 0) == 0) continue;
        AttribInfo info;
        info.name = a.name;
        info.type = uint32_t(a.glDefineType);
        const glslang::TType* t = a.getType();
        info.location = t && t->getQualifier().hasLocation() ? int(t->getQualifier().layoutLocation) : -1;
        info.slots = type_slots(info.type);
        out.attribs.push_back(std::move(info));
    }
    for (int i = 0; i < prog.getNumPipeOutputs(); ++i) {
        const glslang::TType* t = prog.getPipeOutput(i).getType();
        out.outputs.push_back(t && t->getQualifier().hasLocation() ? int(t->getQualifier().layoutLocation) : 0);
    }
    glslang::SpvOptions opt;
    opt.disableOptimizer = true;  // the driver optimises; keeps link time short
    spv::SpvBuildLogger spv_log;
    glslang::GlslangToSpv(*prog.getIntermediate(EShLangVertex), out.vs, &spv_log, &opt);
    glslang::GlslangToSpv(*prog.getIntermediate(EShLangFragment), out.fs, &spv_log, &opt);
    drop_relaxed_precision(out.vs);
    drop_relaxed_precision(out.fs);
    log = prog.getInfoLog();
    if (out.vs.empty() || out.fs.empty()) {
        log += "SPIR-V generation failed: " + spv_log.getAllMessages();
        return false;
    }
    return true;
}

}  // namespace mgl::magma
