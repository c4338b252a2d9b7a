// Atomic counters at link: glslang's counter blocks taken back as GL's
// atomic counter buffers and counter uniforms (counters_link.h).
#include "counters_link.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "atomic_counter_rules.h"
#include "essl_source.h"

namespace mgl::magma {

namespace {

constexpr const char kCounterBlock[] = "gl_AtomicCounterBlock_";

std::string strip_array(std::string n) {
    if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) n.resize(n.size() - 3);
    return n;
}

// The member name of a reflected buffer variable ("block.member" or "member").
std::string member_name(const std::string& n) {
    const size_t dot = n.rfind('.');
    return strip_array(dot == std::string::npos ? n : n.substr(dot + 1));
}

uint32_t stage_bits(EShLanguageMask m) {
    uint32_t s = 0;
    if (m & EShLangVertexMask) s |= 1;
    if (m & EShLangGeometryMask) s |= 2;
    if (m & EShLangFragmentMask) s |= 4;
    if (m & EShLangComputeMask) s |= 8;
    return s;
}

// A SPIR-V literal string starting at words[at] (bounded by `end`).
std::string literal(const std::vector<uint32_t>& w, size_t at, size_t end) {
    std::string s;
    for (size_t i = at; i < end; ++i)
        for (int b = 0; b < 4; ++b) {
            const char c = char((w[i] >> (8 * b)) & 0xFF);
            if (!c) return s;
            s += c;
        }
    return s;
}

}  // namespace

bool counter_block(const std::string& name, int* gl_binding) {
    constexpr size_t n = sizeof kCounterBlock - 1;
    if (name.compare(0, n, kCounterBlock) != 0) return false;
    int b = -1;
    const char* first = name.data() + n;
    const char* last = name.data() + name.size();
    const auto r = std::from_chars(first, last, b);
    if (r.ec != std::errc() || r.ptr != last || b < 0) return false;
    if (gl_binding) *gl_binding = b;
    return true;
}

void reflect_counters(glslang::TProgram& prog, LinkedProgram& out) {
    std::map<int, int> by_block;  // reflection's buffer block index -> counter_buffers index
    for (int i = 0; i < prog.getNumBufferBlocks(); ++i) {
        const glslang::TObjectReflection& b = prog.getBufferBlock(i);
        CounterBufferInfo info;
        if (!counter_block(b.name, &info.gl_binding)) continue;
        info.binding = b.getBinding();
        info.stages = stage_bits(b.stages);
        by_block[i] = int(out.counter_buffers.size());
        out.counter_buffers.push_back(info);
    }
    // GL lists the counter buffers by binding point (as Mesa does); the
    // uniforms follow each buffer's order.
    for (int i = 0; i < prog.getNumBufferVariables(); ++i) {
        const glslang::TObjectReflection& v = prog.getBufferVariable(i);
        auto it = by_block.find(v.index);
        if (it == by_block.end()) continue;
        UniformInfo u;
        u.name = unrename(member_name(v.name));
        u.type = gl::kAtomicCounterType;
        u.array_size = std::max(v.size, 1);
        u.array_stride = 4;
        u.counter_buffer = it->second;
        out.uniforms.push_back(std::move(u));
    }
}

bool place_counters(const std::vector<const std::vector<uint32_t>*>& modules, LinkedProgram& out, std::string& log) {
    if (out.counter_buffers.empty()) return true;
    constexpr uint32_t kOpName = 5, kOpMemberName = 6, kOpMemberDecorate = 72, kOffset = 35;
    for (const std::vector<uint32_t>* m : modules) {
        const std::vector<uint32_t>& w = *m;
        std::map<uint32_t, int> blocks;                            // struct id -> GL binding point
        std::map<std::pair<uint32_t, uint32_t>, std::string> names;  // (struct, member) -> name
        std::map<std::pair<uint32_t, uint32_t>, int> offsets;
        for (size_t i = 5; i < w.size();) {
            const uint32_t words = w[i] >> 16, op = w[i] & 0xFFFF;
            if (words == 0 || i + words > w.size()) break;
            int binding;
            if (op == kOpName && words >= 3 && counter_block(literal(w, i + 2, i + words), &binding)) blocks[w[i + 1]] = binding;
            if (op == kOpMemberName && words >= 4) names[{w[i + 1], w[i + 2]}] = literal(w, i + 3, i + words);
            if (op == kOpMemberDecorate && words >= 5 && w[i + 3] == kOffset) offsets[{w[i + 1], w[i + 2]}] = int(w[i + 4]);
            if (op == 54 /* OpFunction: the annotations are behind */) break;
            i += words;
        }
        for (const auto& [key, offset] : offsets) {
            auto block = blocks.find(key.first);
            auto name = names.find(key);
            if (block == blocks.end() || name == names.end()) continue;
            const std::string n = unrename(name->second);
            for (UniformInfo& u : out.uniforms)
                if (u.counter_buffer >= 0 && out.counter_buffers[size_t(u.counter_buffer)].gl_binding == block->second &&
                    u.name == n)
                    u.counter_offset = offset;
        }
    }
    for (const UniformInfo& u : out.uniforms) {
        if (u.counter_buffer < 0) continue;
        if (u.counter_offset < 0) {
            log += "the atomic counter " + u.name + " has no offset in the SPIR-V\n";
            return false;
        }
        CounterBufferInfo& b = out.counter_buffers[size_t(u.counter_buffer)];
        b.data_size = std::max(b.data_size, u.counter_offset + 4 * u.array_size);
    }
    return true;
}

}  // namespace mgl::magma
