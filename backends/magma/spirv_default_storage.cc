#include "spirv_default_storage.h"

#include <cstddef>
#include <map>
#include <set>

namespace mgl::magma {

namespace {
constexpr uint32_t kOpTypePointer = 32, kOpVariable = 59, kOpAccessChain = 65, kOpInBoundsAccessChain = 66,
                   kOpPtrAccessChain = 67, kOpCopyObject = 83, kOpDecorate = 71, kOpLoad = 61, kOpFunctionCall = 57,
                   kOpName = 5, kOpMemberName = 6, kOpDecorationGroup = 73, kOpGroupDecorate = 74,
                   kOpMemberDecorate = 72;

// Instructions that carry only literals (strings, numbers) besides ids that
// cannot be the block's pointers: not uses.
bool literal_only(uint32_t op) {
    switch (op) {
        case 3: case 4: case 7: case 8: case 10: case 11: case 14: case 15: case 16: case 17: case 330:
        case kOpName: case kOpMemberName: case kOpDecorate: case kOpMemberDecorate: case kOpDecorationGroup:
        case kOpGroupDecorate:
            return true;
        default: return false;
    }
}

// Instructions whose result (word 2) is a pointer into the block when their operand is.
bool makes_pointer(uint32_t op) {
    return op == kOpAccessChain || op == kOpInBoundsAccessChain || op == kOpPtrAccessChain || op == kOpCopyObject;
}
constexpr uint32_t kDecorationBinding = 33, kDecorationSet = 34;
constexpr uint32_t kUniform = 2, kStorageBuffer = 12;

struct Inst {
    size_t at;  // word index
    uint32_t op, words;
};
}  // namespace

StorageRewrite default_block_to_storage(std::vector<uint32_t>& spv, uint32_t set, uint32_t binding, uint32_t new_binding) {
    if (spv.size() < 5 || spv[0] != 0x07230203u) return StorageRewrite::kept;
    std::vector<Inst> insts;
    for (size_t i = 5; i < spv.size();) {
        const uint32_t words = spv[i] >> 16;
        if (words == 0 || i + words > spv.size()) return StorageRewrite::kept;
        insts.push_back({i, spv[i] & 0xFFFF, words});
        i += words;
    }
    std::map<uint32_t, uint32_t> set_of, binding_of;
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> pointer;  // id -> (storage class, pointee)
    std::map<uint32_t, size_t> pointer_def;                     // pointer type id -> instruction
    for (size_t n = 0; n < insts.size(); ++n) {
        const Inst& in = insts[n];
        const uint32_t* w = &spv[in.at];
        if (in.op == kOpDecorate && in.words >= 4 && w[2] == kDecorationSet) set_of[w[1]] = w[3];
        if (in.op == kOpDecorate && in.words >= 4 && w[2] == kDecorationBinding) binding_of[w[1]] = w[3];
        if (in.op == kOpTypePointer && in.words == 4) pointer[w[1]] = {w[2], w[3]}, pointer_def[w[1]] = n;
    }
    // The default block's variable.
    uint32_t var = 0;
    for (const Inst& in : insts) {
        const uint32_t* w = &spv[in.at];
        if (in.op != kOpVariable || in.words < 4 || w[3] != kUniform) continue;
        auto s = set_of.find(w[2]), b = binding_of.find(w[2]);
        if (s != set_of.end() && b != binding_of.end() && s->second == set && b->second == binding) var = w[2];
    }
    if (!var) return StorageRewrite::absent;
    // Every id that points into it: the variable and chains (of chains) from it.
    std::set<uint32_t> into{var};
    for (const Inst& in : insts) {
        const uint32_t* w = &spv[in.at];
        const bool chain = in.op == kOpAccessChain || in.op == kOpInBoundsAccessChain || in.op == kOpPtrAccessChain;
        if ((chain && in.words >= 4 && into.count(w[3])) || (in.op == kOpCopyObject && in.words == 4 && into.count(w[3])))
            into.insert(w[2]);
    }
    // Uses the rewrite does not follow (pointers handed to functions, or
    // anything but loads, chains, copies, names and decorations): keep the module.
    for (const Inst& in : insts) {
        const uint32_t* w = &spv[in.at];
        if (in.op == kOpFunctionCall) {
            for (uint32_t k = 4; k < in.words; ++k)
                if (into.count(w[k])) return StorageRewrite::kept;
            continue;
        }
        if (in.op == kOpLoad || makes_pointer(in.op) || in.op == kOpVariable || literal_only(in.op)) continue;
        for (uint32_t k = 1; k < in.words; ++k)
            if (into.count(w[k])) return StorageRewrite::kept;  // (a literal may look like one of the ids: then we just keep the UBO)
    }
    // The StorageBuffer pointer type for each pointee reached; new ones are
    // declared right after the Uniform pointer type they stand for.
    uint32_t bound = spv[3];
    std::map<uint32_t, uint32_t> storage_ptr;  // pointee -> StorageBuffer pointer type
    for (const auto& [id, p] : pointer)
        if (p.first == kStorageBuffer) storage_ptr[p.second] = id;
    std::map<uint32_t, uint32_t> retype;                    // Uniform pointer type -> StorageBuffer one
    std::map<size_t, std::vector<uint32_t>> insert_after;  // instruction -> new OpTypePointer ids
    for (const Inst& in : insts) {
        const uint32_t* w = &spv[in.at];
        uint32_t result_type = 0;
        if (in.op == kOpVariable && w[2] == var) result_type = w[1];
        else if (makes_pointer(in.op) && in.words >= 4 && into.count(w[2])) result_type = w[1];
        if (!result_type || retype.count(result_type)) continue;
        auto p = pointer.find(result_type);
        if (p == pointer.end() || p->second.first != kUniform) return StorageRewrite::kept;
        auto have = storage_ptr.find(p->second.second);
        uint32_t id = 0;
        if (have != storage_ptr.end()) {
            id = have->second;
        } else {
            id = bound++;
            storage_ptr[p->second.second] = id;
            insert_after[pointer_def[result_type]].push_back(id);
        }
        retype[result_type] = id;
    }
    std::vector<uint32_t> out(spv.begin(), spv.begin() + 5);
    out[3] = bound;
    out.reserve(spv.size() + 8 * insert_after.size());
    for (size_t n = 0; n < insts.size(); ++n) {
        const Inst& in = insts[n];
        std::vector<uint32_t> w(spv.begin() + long(in.at), spv.begin() + long(in.at + in.words));
        if (in.op == kOpDecorate && w[1] == var && w[2] == kDecorationBinding) w[3] = new_binding;
        if (in.op == kOpVariable && w[2] == var) {
            w[1] = retype[w[1]];
            w[3] = kStorageBuffer;
        } else if (makes_pointer(in.op) && in.words >= 4 && into.count(w[2])) {
            w[1] = retype[w[1]];
        }
        out.insert(out.end(), w.begin(), w.end());
        if (auto it = insert_after.find(n); it != insert_after.end())
            for (uint32_t id : it->second)
                out.insert(out.end(), {(4u << 16) | kOpTypePointer, id, kStorageBuffer, spv[in.at + 3]});
    }
    spv.swap(out);
    return StorageRewrite::rewritten;
}

}  // namespace mgl::magma
