// The link of a program's shaders (link_program_here, shaders_here.h):
// glslang's program link of the stages parse() made (shaders_parse.h), the
// GL bindings and checks it does not apply, the reflection a linked program
// reports (shaders.h), and each stage's SPIR-V.
#include "shaders_here.h"
#include "shaders_parse.h"

#include "compat_builtins.h"
#include "frag_coord.h"
#include "essl_source.h"
#include "glsl_lift.h"

#include <glslang/MachineIndependent/iomapper.h>
#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "spirv_textures.h"
#include "counters_link.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <regex>

namespace mgl::magma {

namespace {

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


// ESSL's link-time rules on invariant built-ins ("Invariance and linkage"):
// gl_FragCoord may be invariant only if gl_Position is, gl_PointCoord only if
// gl_PointSize is, gl_FrontFacing never. glslang does not check them.
bool invariance_links(const std::string& vs, const std::string& fs, std::string& log) {
    auto declares = [](const std::string& src, const char* name) {
        return src.find("invariant") != std::string::npos &&
               std::regex_search(src, std::regex(std::string(R"(\binvariant\s+)") + name + R"(\s*;)"));
    };
    static const std::regex all(R"(#\s*pragma\s+STDGL\s+invariant\s*\(\s*all\s*\))");
    const bool vs_all = std::regex_search(vs, all);
    if (declares(fs, "gl_FrontFacing")) log = "ERROR: gl_FrontFacing cannot be declared invariant\n";
    else if (declares(fs, "gl_FragCoord") && !vs_all && !declares(vs, "gl_Position"))
        log = "ERROR: gl_FragCoord is invariant but gl_Position is not\n";
    else if (declares(fs, "gl_PointCoord") && !vs_all && !declares(vs, "gl_PointSize"))
        log = "ERROR: gl_PointCoord is invariant but gl_PointSize is not\n";
    return log.empty();
}
// glBindFragDataLocation: each fragment output the source left unlocated and
// the program bound gets the bound location on every reference to it (the
// SPIR-V decoration comes from whichever reference glslang meets first), before
// the I/O mapper places the rest around it. A location the source wrote wins,
// as in GL.
class BindOutputs : public glslang::TIntermTraverser {
public:
    explicit BindOutputs(const FragBindings& b) : bindings_(b) {}
    void visitSymbol(glslang::TIntermSymbol* sym) override {
        glslang::TQualifier& q = sym->getWritableType().getQualifier();
        if (q.storage != glslang::EvqVaryingOut || q.hasLocation()) return;
        auto it = bindings_.find(unrename(sym->getName().c_str()));
        if (it != bindings_.end()) q.layoutLocation = it->second;
    }

private:
    const FragBindings& bindings_;
};

// The names of the fragment outputs that carry a location in the source.
std::vector<std::string> located_outputs(glslang::TIntermediate& im) {
    std::vector<std::string> out;
    TIntermNode* root = im.getTreeRoot();
    if (!root || !root->getAsAggregate()) return out;
    auto& seq = root->getAsAggregate()->getSequence();
    if (seq.empty() || !seq.back()->getAsAggregate()) return out;
    for (TIntermNode* n : seq.back()->getAsAggregate()->getSequence()) {
        const glslang::TIntermSymbol* sym = n->getAsSymbolNode();
        if (!sym) continue;
        const glslang::TQualifier& q = sym->getType().getQualifier();
        if (q.storage == glslang::EvqVaryingOut && q.hasLocation()) out.push_back(unrename(sym->getName().c_str()));
    }
    return out;
}

// A geometry or evaluation shader's layout primitive as GL names it (GL_TRIANGLES...).
uint32_t gl_primitive(glslang::TLayoutGeometry g) {
    switch (g) {
        case glslang::ElgPoints: return 0x0000;               // GL_POINTS
        case glslang::ElgLines: return 0x0001;                // GL_LINES
        case glslang::ElgLinesAdjacency: return 0x000A;       // GL_LINES_ADJACENCY
        case glslang::ElgLineStrip: return 0x0003;            // GL_LINE_STRIP
        case glslang::ElgTriangles: return 0x0004;            // GL_TRIANGLES
        case glslang::ElgTrianglesAdjacency: return 0x000C;   // GL_TRIANGLES_ADJACENCY
        case glslang::ElgTriangleStrip: return 0x0005;        // GL_TRIANGLE_STRIP
        case glslang::ElgQuads: return 0x0007;                // GL_QUADS (tessellation)
        case glslang::ElgIsolines: return 0x8E7A;             // GL_ISOLINES
        default: return 0;
    }
}

// The GL binding points the sources gave their storage and uniform blocks
// (layout(binding = N)), read before the I/O mapper places the rest: block
// name -> binding (an array's first element). A block without one starts at
// binding point 0 (GL).
struct SourceBindings {
    std::map<std::string, int> storage, uniform_blocks, images;
};

// The initial binding point of a reflected block: an element of a block
// array ("B[2]") follows its array's (GL 4.6 §7.6.2).
int initial_binding(const std::map<std::string, int>& given, const std::string& reflected) {
    std::string name = reflected;
    int element = 0;
    const size_t open = name.rfind('[');
    if (open != std::string::npos && name.back() == ']') {
        element = std::atoi(name.c_str() + open + 1);
        name.resize(open);
    }
    auto it = given.find(name);
    return it == given.end() ? 0 : it->second + element;
}

void source_bindings(glslang::TIntermediate* im, SourceBindings& out) {
    TIntermNode* root = im ? im->getTreeRoot() : nullptr;
    if (!root || !root->getAsAggregate()) return;
    auto& seq = root->getAsAggregate()->getSequence();
    if (seq.empty() || !seq.back()->getAsAggregate()) return;
    for (TIntermNode* n : seq.back()->getAsAggregate()->getSequence()) {
        const glslang::TIntermSymbol* sym = n->getAsSymbolNode();
        if (!sym) continue;
        const glslang::TQualifier& q = sym->getType().getQualifier();
        if (q.storage == glslang::EvqBuffer && q.hasBinding())
            out.storage[unrename(sym->getType().getTypeName().c_str())] = int(q.layoutBinding);
        if (q.storage == glslang::EvqUniform && q.hasBinding() && sym->getType().getBasicType() == glslang::EbtBlock)
            out.uniform_blocks[unrename(sym->getType().getTypeName().c_str())] = int(q.layoutBinding);
        // Image uniforms: layout(binding = N) is their initial image unit.
        if (q.storage == glslang::EvqUniform && q.hasBinding() && sym->getType().getBasicType() == glslang::EbtSampler &&
            sym->getType().getSampler().isImage())
            out.images[unrename(sym->getName().c_str())] = int(q.layoutBinding);
    }
}

// The program's shader storage blocks from its reflection.
void reflect_storage(glslang::TProgram& prog, const SourceBindings& given, LinkedProgram& out) {
    for (int i = 0; i < prog.getNumBufferBlocks(); ++i) {
        const glslang::TObjectReflection& b = prog.getBufferBlock(i);
        if (counter_block(b.name, nullptr)) continue;  // an atomic counter buffer (counters_link.h)
        BlockInfo info{unrename(strip_array(b.name)), b.getBinding(), b.size};
        info.initial = initial_binding(given.storage, unrename(b.name));
        out.storage.push_back(std::move(info));
    }
}

// The stride between a block member matrix's columns (rows when row major)
// under its block's layout: std140 rounds each to a vec4, std430 to its
// vector's alignment. 0 for what is no matrix (GL 4.6 §7.3.1.1).
int matrix_stride(const glslang::TType& t) {
    if (!t.isMatrix()) return 0;
    const glslang::TQualifier& q = t.getQualifier();
    const int components = q.layoutMatrix == glslang::ElmRowMajor ? t.getMatrixCols() : t.getMatrixRows();
    const int scalar = t.getBasicType() == glslang::EbtDouble ? 8 : 4;
    const int vector = (components == 3 ? 4 : components) * scalar;
    return q.layoutPacking == glslang::ElpStd430 ? vector : std::max(vector, 16);
}

// The default block's members that are arrays of structures, by name: their
// element count and std140 stride. glslang's reflection names such a
// member's fields once ("lights.position", the first element's offset);
// GL lists and locates every element's ("lights[2].position").
struct StructArray {
    int size = 0, stride = 0;
};
// Each stage declares its own default block (the uniforms it uses): the
// members of every stage's, from the linker objects of its tree.
std::map<std::string, StructArray> default_struct_arrays(glslang::TProgram& prog) {
    std::map<std::string, StructArray> out;
    for (int stage = 0; stage < EShLangCount; ++stage) {
        const glslang::TIntermediate* im = prog.getIntermediate(EShLanguage(stage));
        glslang::TIntermAggregate* root = im && im->getTreeRoot() ? im->getTreeRoot()->getAsAggregate() : nullptr;
        if (!root || root->getSequence().empty()) continue;
        glslang::TIntermAggregate* objects = root->getSequence().back()->getAsAggregate();
        if (!objects || objects->getOp() != glslang::EOpLinkerObjects) continue;
        for (auto* node : objects->getSequence()) {
            const glslang::TIntermSymbol* sym = node->getAsSymbolNode();
            // (getTypeName asserts on a type without a name: structures only.)
            if (!sym || !sym->getType().isStruct() || sym->getType().getTypeName() != "gl_DefaultUniformBlock") continue;
            for (const glslang::TTypeLoc& m : *sym->getType().getStruct()) {
                const glslang::TType& mt = *m.type;
                if (!mt.isArray() || !mt.isStruct() || !mt.isSizedArray()) continue;
                int size = 0, stride = 0;
                glslang::TIntermediate::getBaseAlignment(mt, size, stride, glslang::ElpStd140, false);
                if (stride > 0) out[mt.getFieldName().c_str()] = {mt.getOuterArraySize(), stride};
            }
        }
    }
    return out;
}

// The program's uniform blocks, its default block and its uniforms (samplers
// by binding, default-block members by offset; user blocks' members with
// their layout), from glslang's reflection.
void reflect_uniforms(glslang::TProgram& prog, const SourceBindings& given, LinkedProgram& out) {
    int default_block = -1;
    std::map<std::string, StructArray> struct_arrays;
    std::map<int, int> block_of;  // glslang's uniform block index -> index in out.blocks
    for (int i = 0; i < prog.getNumUniformBlocks(); ++i) {
        const glslang::TObjectReflection& b = prog.getUniformBlock(i);
        if (b.name == "gl_DefaultUniformBlock") {
            default_block = i;
            struct_arrays = default_struct_arrays(prog);
            out.default_binding = b.getBinding() < 0 ? 0 : b.getBinding();
            out.default_size = b.size;
        } else {
            block_of[i] = int(out.blocks.size());
            // A block is laid out as a structure: std140 rounds its size up
            // to a vec4's (GL 4.6 §7.6.2.2, rule 9), as GL drivers report it.
            out.blocks.push_back({unrename(b.name), b.getBinding(), (b.size + 15) / 16 * 16,
                                  initial_binding(given.uniform_blocks, unrename(b.name)), uint32_t(b.stages)});
        }
    }
    for (int i = 0; i < prog.getNumUniformVariables(); ++i) {
        const glslang::TObjectReflection& u = prog.getUniform(i);
        UniformInfo info;
        info.name = unrename(strip_array(u.name));
        info.type = uint32_t(u.glDefineType);
        info.array_size = std::max(u.size, 1);
        const glslang::TType* t = u.getType();
        const bool sampler = t && t->getBasicType() == glslang::EbtSampler;
        if (sampler) {
            info.binding = u.getBinding();
        } else if (u.index == default_block && default_block >= 0) {
            info.offset = u.offset;
            info.array_stride = u.arrayStride;
            // A field of an array of structures: one uniform per element.
            const size_t dot = info.name.find('.');
            auto sa = dot == std::string::npos ? struct_arrays.end() : struct_arrays.find(info.name.substr(0, dot));
            if (sa != struct_arrays.end() && info.name.find('[') > dot) {
                const std::string field = info.name.substr(dot);
                for (int e = 0; e < sa->second.size; ++e) {
                    UniformInfo element = info;
                    element.name = sa->first + "[" + std::to_string(e) + "]" + field;
                    element.offset = info.offset + e * sa->second.stride;
                    out.uniforms.push_back(std::move(element));
                }
                continue;
            }
        } else if (auto block = block_of.find(u.index); block != block_of.end()) {
            info.block = block->second;
            info.offset = u.offset;
            // glslang gives a block member array a size of 1 and its stride.
            if (t && t->isSizedArray()) info.array_size = std::max(t->getOuterArraySize(), 1);
            info.array_stride = t && t->isArray() ? u.arrayStride : 0;
            if (t) {
                info.matrix_stride = matrix_stride(*t);
                info.row_major = t->isMatrix() && t->getQualifier().layoutMatrix == glslang::ElmRowMajor;
            }
            out.block_uniforms.push_back(std::move(info));
            continue;
        } else {
            continue;
        }
        out.uniforms.push_back(std::move(info));
    }
}

}  // namespace

bool link_compute_here(Api api, const std::string& cs_src, LinkedProgram& out, std::string& log) {
    std::string clog;
    auto cs = parse(Stage::compute, api, cs_src, clog);
    if (!cs) {
        log = "compile failed:\n" + clog;
        return false;
    }
    glslang::TProgram prog;
    prog.addShader(cs->shader.get());
    const EShMessages msgs = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
    if (!prog.link(msgs)) {
        log = prog.getInfoLog();
        return false;
    }
    SourceBindings given;
    source_bindings(prog.getIntermediate(EShLangCompute), given);
    glslang::TGlslIoMapper mapper;
    glslang::TDefaultGlslIoResolver resolver(*prog.getIntermediate(EShLangCompute));
    if (!prog.mapIO(&resolver, &mapper)) {
        log = std::string("I/O mapping failed: ") + prog.getInfoLog();
        return false;
    }
    prog.buildReflection(EShReflectionDefault | EShReflectionSeparateBuffers);
    out = {};
    reflect_uniforms(prog, given, out);
    reflect_storage(prog, given, out);
    reflect_counters(prog, out);
    for (UniformInfo& u : out.uniforms) {
        auto it = given.images.find(u.name);
        if (it != given.images.end()) u.unit = it->second;
    }
    glslang::TIntermediate& cim = *prog.getIntermediate(EShLangCompute);
    if (!cim.isLocalSizeSet()) {
        // GL 4.3 §7.3: a compute program must declare its local size.
        log = "ERROR: Linking compute shader: no layout(local_size_x = ...) in declared\n";
        return false;
    }
    for (int d = 0; d < 3; ++d) out.local_size[d] = cim.getLocalSize(d);
    glslang::SpvOptions opt;
    opt.disableOptimizer = true;
    spv::SpvBuildLogger spv_log;
    glslang::GlslangToSpv(cim, out.cs, &spv_log, &opt);
    drop_relaxed_precision(out.cs);
    log = prog.getInfoLog();
    if (out.cs.empty()) {
        log += "SPIR-V generation failed: " + spv_log.getAllMessages();
        return false;
    }
    if (!gl::lower_desktop_textures(out.cs)) {
        log += "the desktop texture lowering met a malformed SPIR-V module";
        return false;
    }
    return place_counters({&out.cs}, out, log);
}

bool link_program_here(Api api, const StageSources& vs_srcs, const TessSources& tess, const StageSources& gs_srcs,
                       const StageSources& fs_srcs,
                       const XfbRequest& xfb, const FragBindings& frag, bool alpha_test, bool clip_planes,
                       LinkedProgram& out, std::string& log) {
    if (vs_srcs.empty() || fs_srcs.empty()) {
        log = "a program needs a vertex and a fragment shader\n";
        return false;
    }
    const bool has_gs = !gs_srcs.empty();
    const bool has_tcs = !tess.tcs.empty(), has_tes = !tess.tes.empty();
    // The last stage before the rasterizer (clip z, user clip planes).
    const bool vs_last = !has_gs && !has_tes;
    // A stage of several shader objects (desktop GL): the one that defines
    // main is the stage's main unit (the vertex wrap, captured built-ins);
    // the others are compiled as they are and linked in.
    auto main_unit = [](const StageSources& s) {
        static const std::regex main_def(R"(\bvoid\s+main\s*\()");
        for (size_t i = 0; i < s.size(); ++i)
            if (std::regex_search(s[i], main_def)) return i;
        return size_t(0);
    };
    const size_t vs_main = main_unit(vs_srcs), fs_main = main_unit(fs_srcs), gs_main = has_gs ? main_unit(gs_srcs) : 0;
    const std::string& vs_src = vs_srcs[vs_main];
    const std::string& fs_src = fs_srcs[fs_main];
    if (!invariance_links(vs_src, fs_src, log)) return false;
    if (api == Api::desktop && fs_srcs.size() > 1) {
        // GLSL 1.50 §4.3.8.1 across the fragment shader objects (the GL front
        // end's rule, frag_coord.h): each object alone was checked at compile.
        std::vector<std::vector<std::string>> objects;
        for (const std::string& s : fs_srcs) objects.push_back({s});
        log = gl::frag_coord_link_rule(objects);
        if (!log.empty()) return false;
    }
    if (api == Api::desktop && vs_last) {
        // GLSL 1.30 §4.3.7 (the GL front end's rule, compat_builtins.h).
        log = gl::colour_interpolation_mismatch(gl::colour_interpolation(gl::Stage::vertex, vs_srcs),
                                                gl::colour_interpolation(gl::Stage::fragment, fs_srcs));
        if (!log.empty()) return false;
    }
    if (!vs_last && !xfb.names.empty()) {
        // Capture is decorated on the vertex shader's outputs (xfb_spirv.h).
        log = std::string("transform feedback of a ") + (has_gs ? "geometry" : "tessellation evaluation") +
              " shader's outputs is not served by Magma yet\n";
        return false;
    }
    std::string vlog, glog, flog;
    std::vector<std::string> captured_builtins;
    for (const std::string& n : xfb.names)
        if ((n == "gl_Position" || n == "gl_PointSize") &&
            std::find(captured_builtins.begin(), captured_builtins.end(), n) == captured_builtins.end())
            captured_builtins.push_back(n);
    // The last stage before the rasterizer clips against the user clip
    // planes; a geometry stage only when it writes gl_ClipVertex: 8 more
    // components per emitted vertex would take a large one past the
    // device's maxGeometryTotalOutputComponents (piglit's end-primitive 129).
    const bool gs_clips = has_gs && clip_planes && gl::mentions_word(gs_srcs[gs_main], "gl_ClipVertex");
    std::unique_ptr<Parsed> gs =
        has_gs ? parse(Stage::geometry, api, gs_srcs[gs_main], glog, {}, true, false, false, gs_clips) : nullptr;
    const bool compat_block = gs && gl::reads_compat_block(gs->preamble);
    auto vs = parse(Stage::vertex, api, vs_src, vlog, captured_builtins, vs_last, compat_block, false,
                    clip_planes && vs_last);
    // Tessellation: the evaluation stage maps clip z unless a geometry stage follows.
    std::string tlog;
    const size_t tcs_main = has_tcs ? main_unit(tess.tcs) : 0, tes_main = has_tes ? main_unit(tess.tes) : 0;
    std::unique_ptr<Parsed> tcs = has_tcs ? parse(Stage::tess_control, api, tess.tcs[tcs_main], tlog, {}, false) : nullptr;
    std::unique_ptr<Parsed> tes = has_tes ? parse(Stage::tess_evaluation, api, tess.tes[tes_main], tlog, {}, !has_gs) : nullptr;
    auto fs = parse(Stage::fragment, api, fs_src, flog, {}, true, false, alpha_test);
    // The other units of each stage (desktop GL).
    std::vector<std::unique_ptr<Parsed>> units;
    bool units_ok = true;
    auto add_units = [&](Stage stage, const StageSources& srcs, size_t main, std::string& l) {
        for (size_t i = 0; i < srcs.size(); ++i) {
            if (i == main) continue;
            units.push_back(parse(stage, api, srcs[i], l, {}, false, compat_block));
            units_ok = units_ok && units.back();
        }
    };
    add_units(Stage::vertex, vs_srcs, vs_main, vlog);
    if (has_gs) add_units(Stage::geometry, gs_srcs, gs_main, glog);
    if (has_tcs) add_units(Stage::tess_control, tess.tcs, tcs_main, tlog);
    if (has_tes) add_units(Stage::tess_evaluation, tess.tes, tes_main, tlog);
    add_units(Stage::fragment, fs_srcs, fs_main, flog);
    if (!vs || !fs || (has_gs && !gs) || (has_tcs && !tcs) || (has_tes && !tes) || !units_ok) {
        log = "compile failed:\n" + vlog + tlog + glog + flog;
        return false;
    }
    glslang::TProgram prog;
    prog.addShader(vs->shader.get());
    if (tcs) prog.addShader(tcs->shader.get());
    if (tes) prog.addShader(tes->shader.get());
    if (gs) prog.addShader(gs->shader.get());
    prog.addShader(fs->shader.get());
    for (const auto& u : units) prog.addShader(u->shader.get());
    const EShMessages msgs = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
    if (!prog.link(msgs)) {
        log = prog.getInfoLog();
        return false;
    }
    if (!frag.empty()) {
        glslang::TIntermediate& fim = *prog.getIntermediate(EShLangFragment);
        const std::vector<std::string> located = located_outputs(fim);
        FragBindings unlocated;
        for (const auto& [name, loc] : frag)
            if (std::find(located.begin(), located.end(), name) == located.end()) unlocated[name] = loc;
        BindOutputs bind(unlocated);
        if (fim.getTreeRoot()) fim.getTreeRoot()->traverse(&bind);
    }
    SourceBindings given;
    for (EShLanguage l : {EShLangVertex, EShLangTessControl, EShLangTessEvaluation, EShLangGeometry, EShLangFragment})
        source_bindings(prog.getIntermediate(l), given);
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
    reflect_uniforms(prog, given, out);
    reflect_storage(prog, given, out);
    reflect_counters(prog, out);
    for (UniformInfo& u : out.uniforms) {
        auto it = given.images.find(u.name);
        if (it != given.images.end()) u.unit = it->second;
    }
    for (int i = 0; i < prog.getNumPipeInputs(); ++i) {
        const glslang::TObjectReflection& a = prog.getPipeInput(i);
        if (a.name.rfind("gl_", 0) == 0) continue;
        AttribInfo info;
        info.name = unrename(a.name);
        info.type = uint32_t(a.glDefineType);
        const glslang::TType* t = a.getType();
        info.location = t && t->getQualifier().hasLocation() ? int(t->getQualifier().layoutLocation) : -1;
        info.slots = type_slots(info.type);
        out.attribs.push_back(std::move(info));
    }
    for (int i = 0; i < prog.getNumPipeOutputs(); ++i) {
        const glslang::TType* t = prog.getPipeOutput(i).getType();
        out.outputs.push_back(t && t->getQualifier().hasLocation() ? int(t->getQualifier().layoutLocation) : 0);
        out.output_names.push_back(unrename(strip_array(prog.getPipeOutput(i).name)));
    }
    glslang::SpvOptions opt;
    opt.disableOptimizer = true;  // the driver optimises; keeps link time short
    spv::SpvBuildLogger spv_log;
    glslang::GlslangToSpv(*prog.getIntermediate(EShLangVertex), out.vs, &spv_log, &opt);
    glslang::GlslangToSpv(*prog.getIntermediate(EShLangFragment), out.fs, &spv_log, &opt);
    drop_relaxed_precision(out.vs);
    drop_relaxed_precision(out.fs);
    // An optional stage's SPIR-V; false (and the log) when none came out.
    auto optional_stage = [&](EShLanguage stage, std::vector<uint32_t>& spv) {
        glslang::GlslangToSpv(*prog.getIntermediate(stage), spv, &spv_log, &opt);
        drop_relaxed_precision(spv);
        if (spv.empty()) log += "SPIR-V generation failed: " + spv_log.getAllMessages();
        return !spv.empty();
    };
    if (gs) {
        if (!optional_stage(EShLangGeometry, out.gs)) return false;
        const glslang::TIntermediate& gim = *prog.getIntermediate(EShLangGeometry);
        out.gs_vertices = gim.getVertices();
        out.gs_invocations = std::max(gim.getInvocations(), 1);
        out.gs_input = gl_primitive(gim.getInputPrimitive());
        out.gs_output = gl_primitive(gim.getOutputPrimitive());
    }
    if (tcs) {
        if (!optional_stage(EShLangTessControl, out.tcs)) return false;
        out.tcs_vertices = prog.getIntermediate(EShLangTessControl)->getVertices();
    }
    if (tes) {
        if (!optional_stage(EShLangTessEvaluation, out.tes)) return false;
        const glslang::TIntermediate& eim = *prog.getIntermediate(EShLangTessEvaluation);
        out.tes_mode = gl_primitive(eim.getInputPrimitive());
        switch (eim.getVertexSpacing()) {
            case glslang::EvsFractionalEven: out.tes_spacing = 0x8E7C; break;  // GL_FRACTIONAL_EVEN
            case glslang::EvsFractionalOdd: out.tes_spacing = 0x8E7B; break;   // GL_FRACTIONAL_ODD
            default: out.tes_spacing = 0x0202; break;                           // GL_EQUAL
        }
        out.tes_order = eim.getVertexOrder() == glslang::EvoCw ? 0x0900 : 0x0901;  // GL_CW, GL_CCW (the default)
        out.tes_point_mode = eim.getPointMode();
    }
    log = prog.getInfoLog();
    if (out.vs.empty() || out.fs.empty()) {
        log += "SPIR-V generation failed: " + spv_log.getAllMessages();
        return false;
    }
    // 1D, 1D array and rectangle samplers read the 2D images Magma keeps
    // those textures in: the GL front end's lowering, Espryt's too. (The
    // reflection above keeps their GL types, which pick the texture units.)
    for (std::vector<uint32_t>* m : {&out.vs, &out.fs, &out.gs, &out.tcs, &out.tes})
        if (!m->empty() && !gl::lower_desktop_textures(*m)) {
            log += "the desktop texture lowering met a malformed SPIR-V module";
            return false;
        }
    if (!place_counters({&out.vs, &out.tcs, &out.tes, &out.gs, &out.fs}, out, log)) return false;
    return decorate_xfb(out.vs, xfb.names, xfb.interleaved, out.xfb, log);
}

}  // namespace mgl::magma
