// Wire layout of every verb: which slots its fixed part holds, in which
// order, at which offsets. Slots are sorted by width (8, 4, 2, 1 bytes,
// declaration order within a width, as Mesa's glthread packs its marshal
// structs) so that every slot sits at its natural alignment with no interior
// padding after the 8-byte header.
#include <algorithm>
#include <sstream>

#include "model.h"

namespace mglgen {

namespace {
const char* kind_name(ParamKind k) {
    switch (k) {
        case ParamKind::scalar: return "scalar";
        case ParamKind::in_array: return "in";
        case ParamKind::offset_or_in: return "offset_or_in";
        case ParamKind::out_array: return "out";
        case ParamKind::mint_array: return "mint";
        case ParamKind::cstring: return "cstring";
        case ParamKind::string_list: return "strings";
        case ParamKind::string_lengths: return "string_lengths";
    }
    return "?";
}
}  // namespace

void compute_layouts(Schema& s) {
    for (Verb& v : s.verbs) {
        v.slots.clear();
        v.has_inline = v.has_out = false;
        for (size_t i = 0; i < v.params.size(); ++i) {
            const Param& p = v.params[i];
            switch (p.kind) {
                case ParamKind::scalar:
                    v.slots.push_back({p.name, p.type->cpp, p.type->size, 0, int(i), Slot::Role::value});
                    break;
                case ParamKind::offset_or_in:
                    v.slots.push_back({p.name + "_offset", "uint64_t", 8, 0, int(i), Slot::Role::offset});
                    v.slots.push_back({p.name + "_bytes", "uint32_t", 4, 0, int(i), Slot::Role::bytes});
                    v.has_inline = true;
                    break;
                case ParamKind::out_array:
                    if (!p.source.empty())
                        v.slots.push_back({p.name + "_offset", "uint64_t", 8, 0, int(i), Slot::Role::offset});
                    v.slots.push_back({p.name + "_bytes", "uint32_t", 4, 0, int(i), Slot::Role::bytes});
                    v.has_out = true;
                    break;
                case ParamKind::in_array:
                case ParamKind::mint_array:
                case ParamKind::cstring:
                case ParamKind::string_list:
                    v.slots.push_back({p.name + "_bytes", "uint32_t", 4, 0, int(i), Slot::Role::bytes});
                    v.has_inline = true;
                    break;
                case ParamKind::string_lengths:
                    break;
            }
        }
        if (!v.ret_mint.empty())
            v.slots.push_back({"result", v.ret_type->cpp, v.ret_type->size, 0, -1, Slot::Role::value});
        std::stable_sort(v.slots.begin(), v.slots.end(), [](const Slot& a, const Slot& b) { return a.size > b.size; });
        uint32_t off = 8;
        for (Slot& sl : v.slots) {
            sl.offset = off;
            off += sl.size;
        }
        v.fixed_size = off;
        v.data_offset = (off + 7u) & ~7u;
    }
}

// The canonical description of the wire: the fingerprint hashes it, so two
// builds agree on the fingerprint exactly when they agree on every record.
std::string canonical_layout(const Schema& s) {
    std::ostringstream o;
    o << "mgl-wire-1\n";
    for (const Verb& v : s.verbs) {
        o << v.opcode << ' ' << v.name << ' ' << v.flavor;
        if (!v.encodable()) o << " unencodable";
        if (v.ret_type && v.ret_mint.empty()) o << " ret:" << v.ret_type->cpp;
        for (const Slot& sl : v.slots) o << ' ' << sl.name << ':' << sl.cpp << '@' << sl.offset;
        for (const Param& p : v.params)
            if (p.kind != ParamKind::scalar)
                o << ' ' << p.name << '=' << kind_name(p.kind) << (p.nullable ? "?" : "") << '/' << p.elem_size();
        o << '\n';
    }
    return o.str();
}

uint64_t fnv1a64(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

}  // namespace mglgen
