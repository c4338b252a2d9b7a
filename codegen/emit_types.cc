// Type aliases, opcode enumeration, verb tables and the wire fingerprint.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "emit.h"

namespace mglgen {

void emit_types(const Schema& s, std::vector<OutFile>& out) {
    {
        std::ostringstream o;
        o << kGeneratedBanner << "// GL typedefs as they travel on the wire (protocol/types.fbs).\n"
          << "#pragma once\n#include <cstdint>\n\nnamespace mgl {\n";
        for (auto& [name, t] : s.types) o << "using " << name << " = " << t.cpp << ";\n";
        o << "}  // namespace mgl\n";
        out.push_back({"gltypes.h", o.str()});
    }
    uint16_t limit = s.verbs.empty() ? 0 : uint16_t(s.verbs.back().opcode + 1);
    {
        std::ostringstream o;
        o << kGeneratedBanner << "#pragma once\n#include <cstdint>\n\nnamespace mgl::gen {\n\n"
          << "// Stable, append-only opcodes (protocol/*.fbs `opcode` attributes).\n"
          << "enum class Op : uint16_t {\n";
        for (const Verb& v : s.verbs) o << "    " << v.name << " = " << v.opcode << ",\n";
        o << "};\n\n"
          << "inline constexpr uint16_t kOpcodeLimit = " << limit << ";\n"
          << "inline constexpr uint32_t kVerbCount = " << s.verbs.size() << ";\n\n"
          << "enum class Flavor : uint8_t { async, sync, client, custom };\n\n"
          << "struct VerbInfo {\n"
          << "    const char* name;      // nullptr: no verb has this opcode\n"
          << "    Flavor flavor;\n"
          << "    bool on_wire;          // false: unsized or retired, never encoded\n"
          << "    bool replies;          // decoding writes a reply\n"
          << "    uint16_t fixed_bytes;  // header + fixed slots, before alignment\n"
          << "};\n\n"
          << "// Indexed by opcode, kOpcodeLimit entries.\n"
          << "extern const VerbInfo kVerbs[kOpcodeLimit];\n"
          << "inline const VerbInfo* verb_info(uint16_t op) {\n"
          << "    return op < kOpcodeLimit && kVerbs[op].name ? &kVerbs[op] : nullptr;\n}\n"
          << "const char* verb_name(uint16_t op);  // \"?\" when unknown\n"
          << "int opcode_of(const char* name);       // -1 when unknown\n\n"
          << "}  // namespace mgl::gen\n";
        out.push_back({"opcodes.h", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner << "#include \"gen/opcodes.h\"\n\n#include <algorithm>\n#include <cstring>\n#include <iterator>\n\nnamespace mgl::gen {\n\n"
          << "const VerbInfo kVerbs[kOpcodeLimit] = {\n";
        size_t vi = 0;
        for (uint32_t op = 0; op < limit; ++op) {
            if (vi < s.verbs.size() && s.verbs[vi].opcode == op) {
                const Verb& v = s.verbs[vi++];
                o << "    {\"" << v.name << "\", Flavor::" << v.flavor << ", " << (on_wire(v) ? "true" : "false") << ", "
                  << (has_reply(v) ? "true" : "false") << ", " << v.fixed_size << "},\n";
            } else {
                o << "    {nullptr, Flavor::async, false, false, 0},\n";
            }
        }
        o << "};\n\nconst char* verb_name(uint16_t op) {\n    const VerbInfo* v = verb_info(op);\n    return v ? v->name : \"?\";\n}\n\n";
        // Sorted name index for opcode_of.
        std::vector<const Verb*> sorted;
        for (const Verb& v : s.verbs) sorted.push_back(&v);
        std::sort(sorted.begin(), sorted.end(), [](const Verb* a, const Verb* b) { return a->name < b->name; });
        o << "namespace {\nstruct NameOp { const char* name; uint16_t op; };\nconst NameOp kByName[] = {\n";
        for (const Verb* v : sorted) o << "    {\"" << v->name << "\", " << v->opcode << "},\n";
        o << "};\n}  // namespace\n\n"
          << "int opcode_of(const char* name) {\n"
          << "    auto it = std::lower_bound(std::begin(kByName), std::end(kByName), name,\n"
          << "        [](const NameOp& a, const char* n) { return std::strcmp(a.name, n) < 0; });\n"
          << "    return it != std::end(kByName) && std::strcmp(it->name, name) == 0 ? it->op : -1;\n}\n\n"
          << "}  // namespace mgl::gen\n";
        out.push_back({"tables.cc", o.str()});
    }
    {
        std::string canon = canonical_layout(s);
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%016llxull", (unsigned long long)fnv1a64(canon));
        std::ostringstream o;
        o << kGeneratedBanner
          << "// FNV-1a 64 of the canonical wire layout (every verb's opcode, flavor,\n"
          << "// slots and arrays). Compared at the handshake: peers built from different\n"
          << "// schemas refuse each other.\n"
          << "#pragma once\n#include <cstdint>\n\nnamespace mgl::gen {\ninline constexpr uint64_t kWireFingerprint = " << hex
          << ";\n}\n";
        out.push_back({"fingerprint.h", o.str()});
        out.push_back({"wire_layout.txt", canon});
    }
}

}  // namespace mglgen
