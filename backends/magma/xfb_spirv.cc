#include "xfb_spirv.h"

#include <GLES3/gl3.h>

#include <map>
#include <set>

#include "essl_source.h"

namespace mgl::magma {

namespace {

// SPIR-V opcodes, enumerants and decorations used here.
enum : uint32_t {
    OpName = 5, OpEntryPoint = 15, OpExecutionMode = 16, OpCapability = 17,
    OpTypeBool = 20, OpTypeInt = 21, OpTypeFloat = 22, OpTypeVector = 23, OpTypeMatrix = 24,
    OpTypeArray = 28, OpTypePointer = 32, OpConstant = 43, OpVariable = 59,
    OpDecorate = 71, OpMemberDecorate = 72,
    StorageOutput = 3, CapabilityTransformFeedback = 53, ExecutionModeXfb = 11,
    DecorationOffset = 35, DecorationXfbBuffer = 36, DecorationXfbStride = 37,
};

struct Type {
    uint32_t op = 0;
    std::vector<uint32_t> w;  // operands after the result id
};

std::string literal_string(const uint32_t* words, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i)
        for (int b = 0; b < 4; ++b) {
            const char c = char((words[i] >> (8 * b)) & 0xFF);
            if (!c) return s;
            s += c;
        }
    return s;
}

// The GL type (of one element), the element count and bytes of a SPIR-V type;
// false for what GLSL ES cannot capture (structs, bools...).
bool gl_type(const std::map<uint32_t, Type>& types, const std::map<uint32_t, uint32_t>& constants, uint32_t id,
             uint32_t& type, int& size, int& bytes) {
    auto t = types.find(id);
    if (t == types.end()) return false;
    size = 1;
    if (t->second.op == OpTypeArray) {
        auto len = constants.find(t->second.w[1]);
        if (len == constants.end()) return false;
        int inner_size;
        if (!gl_type(types, constants, t->second.w[0], type, inner_size, bytes) || inner_size != 1) return false;
        size = int(len->second);
        bytes *= size;
        return true;
    }
    int cols = 1, rows = 1;
    uint32_t scalar = id;
    if (t->second.op == OpTypeMatrix) {
        cols = int(t->second.w[1]);
        auto col = types.find(t->second.w[0]);
        if (col == types.end() || col->second.op != OpTypeVector) return false;
        rows = int(col->second.w[1]);
        scalar = col->second.w[0];
    } else if (t->second.op == OpTypeVector) {
        rows = int(t->second.w[1]);
        scalar = t->second.w[0];
    }
    auto s = types.find(scalar);
    if (s == types.end() || s->second.w.empty() || s->second.w[0] != 32) return false;
    bytes = cols * rows * 4;
    if (s->second.op == OpTypeFloat) {
        static const uint32_t vec[] = {GL_FLOAT, GL_FLOAT_VEC2, GL_FLOAT_VEC3, GL_FLOAT_VEC4};
        static const uint32_t mat[3][3] = {{GL_FLOAT_MAT2, GL_FLOAT_MAT2x3, GL_FLOAT_MAT2x4},
                                           {GL_FLOAT_MAT3x2, GL_FLOAT_MAT3, GL_FLOAT_MAT3x4},
                                           {GL_FLOAT_MAT4x2, GL_FLOAT_MAT4x3, GL_FLOAT_MAT4}};
        if (cols == 1) type = vec[rows - 1];
        else if (cols >= 2 && rows >= 2) type = mat[cols - 2][rows - 2];
        else return false;
        return true;
    }
    if (s->second.op == OpTypeInt && cols == 1) {
        static const uint32_t sv[] = {GL_INT, GL_INT_VEC2, GL_INT_VEC3, GL_INT_VEC4};
        static const uint32_t uv[] = {GL_UNSIGNED_INT, GL_UNSIGNED_INT_VEC2, GL_UNSIGNED_INT_VEC3, GL_UNSIGNED_INT_VEC4};
        type = s->second.w.size() > 1 && s->second.w[1] ? sv[rows - 1] : uv[rows - 1];
        return true;
    }
    return false;
}

}  // namespace

std::string xfb_builtin_copy(const std::string& builtin) { return "mgl_xfb_" + builtin.substr(3); }

bool decorate_xfb(std::vector<uint32_t>& spv, const std::vector<std::string>& names, bool interleaved,
                  XfbLayout& out, std::string& log) {
    out = {};
    out.interleaved = interleaved;
    if (names.empty()) return true;
    if (spv.size() < 5) {
        log = "transform feedback: no vertex shader code\n";
        return false;
    }
    if (!interleaved && names.size() > 4) {
        log = "transform feedback: more than GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS (4) varyings\n";
        return false;
    }
    // What the module declares: names, output variables, types.
    std::map<std::string, uint32_t> named;    // OpName -> id
    std::map<uint32_t, uint32_t> outputs;     // output variable -> pointee type
    std::map<uint32_t, uint32_t> pointers;    // pointer type -> pointee
    std::map<uint32_t, Type> types;
    std::map<uint32_t, uint32_t> constants;   // 32-bit integer constants
    size_t entry_end = 0, first_cap_end = 0, annotations_at = 0;
    for (size_t i = 5; i < spv.size();) {
        const uint32_t n = spv[i] >> 16, op = spv[i] & 0xFFFF;
        if (n == 0 || i + n > spv.size()) {
            log = "transform feedback: malformed vertex shader code\n";
            return false;
        }
        const uint32_t* w = &spv[i];
        if (op == OpCapability && !first_cap_end) first_cap_end = i + n;
        if (op == OpEntryPoint) entry_end = i + n;
        if (op == OpName && n >= 3) named.emplace(literal_string(w + 2, n - 2), w[1]);
        if (op == OpTypePointer && n == 4) pointers[w[1]] = w[3];
        if ((op >= OpTypeBool && op <= OpTypeArray) && n >= 2) types[w[1]] = {op, std::vector<uint32_t>(w + 2, w + n)};
        if (op == OpConstant && n == 4) constants[w[2]] = w[3];
        if (op == OpVariable && n >= 4 && w[3] == StorageOutput) outputs[w[2]] = w[1];
        // Decorations go before the first type (the end of the annotation section).
        if (!annotations_at && ((op >= 19 && op <= 39) || op == OpConstant || op == OpVariable)) annotations_at = i;
        i += n;
    }
    if (!entry_end || !first_cap_end || !annotations_at) {
        log = "transform feedback: unexpected vertex shader layout\n";
        return false;
    }
    std::set<std::string> seen;
    std::vector<uint32_t> decorations;
    std::vector<uint32_t> var_ids;
    int offset = 0;
    for (size_t k = 0; k < names.size(); ++k) {
        const std::string& name = names[k];
        if (!seen.insert(name).second) {
            log = "transform feedback: varying " + name + " is named twice\n";
            return false;
        }
        auto id = named.find(name.rfind("gl_", 0) == 0 ? xfb_builtin_copy(name) : name);
        if (id == named.end()) id = named.find(kRenamePrefix + name);
        auto var = id == named.end() ? outputs.end() : outputs.find(id->second);
        auto ptr = var == outputs.end() ? pointers.end() : pointers.find(var->second);
        XfbVarying v;
        v.name = name;
        if (ptr == pointers.end() || !gl_type(types, constants, ptr->second, v.type, v.size, v.bytes)) {
            log = "transform feedback: " + name + " is not an output of the vertex shader that can be captured\n";
            return false;
        }
        v.buffer = interleaved ? 0 : int(k);
        v.offset = interleaved ? offset : 0;
        offset = interleaved ? offset + v.bytes : 0;
        if (!interleaved && v.bytes > 16) {
            log = "transform feedback: " + name + " exceeds GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS (4)\n";
            return false;
        }
        if (interleaved && offset > 64 * 4) {
            log = "transform feedback: more than GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS (64) components\n";
            return false;
        }
        var_ids.push_back(id->second);
        out.varyings.push_back(v);
    }
    out.buffers = interleaved ? 1 : int(names.size());
    for (const XfbVarying& v : out.varyings) out.strides[v.buffer] = interleaved ? offset : v.bytes;
    for (size_t k = 0; k < var_ids.size(); ++k) {
        const XfbVarying& v = out.varyings[k];
        const uint32_t id = var_ids[k];
        decorations.insert(decorations.end(), {4u << 16 | OpDecorate, id, DecorationXfbBuffer, uint32_t(v.buffer)});
        decorations.insert(decorations.end(), {4u << 16 | OpDecorate, id, DecorationXfbStride, uint32_t(out.strides[v.buffer])});
        decorations.insert(decorations.end(), {4u << 16 | OpDecorate, id, DecorationOffset, uint32_t(v.offset)});
    }
    // Insert from the back so that earlier positions stay valid.
    spv.insert(spv.begin() + long(annotations_at), decorations.begin(), decorations.end());
    const uint32_t entry_id = [&] {
        for (size_t i = 5; i < spv.size(); i += spv[i] >> 16)
            if ((spv[i] & 0xFFFF) == OpEntryPoint) return spv[i + 2];
        return 0u;
    }();
    const uint32_t mode[] = {3u << 16 | OpExecutionMode, entry_id, ExecutionModeXfb};
    spv.insert(spv.begin() + long(entry_end), std::begin(mode), std::end(mode));
    const uint32_t cap[] = {2u << 16 | OpCapability, CapabilityTransformFeedback};
    spv.insert(spv.begin() + long(first_cap_end), std::begin(cap), std::end(cap));
    return true;
}

}  // namespace mgl::magma
