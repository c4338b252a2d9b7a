// The profile tables: for every opcode, in which OpenGL ES / GL core / GL
// compatibility versions the verb exists and which APIs' extensions provide
// it (gl.xml's <require api profile>, <remove profile>, <extension
// supported>, carried by the schema's es/core/compat/ext attributes). The
// client's entry points and the server's decoders of verbs that are not in
// every context (Verb::universal) ask verb_in_api() before doing anything.
#include <sstream>

#include "emit.h"

namespace mglgen {

void emit_api(const Schema& s, std::vector<OutFile>& out) {
    const uint16_t limit = s.verbs.empty() ? 0 : uint16_t(s.verbs.back().opcode + 1);
    {
        std::ostringstream o;
        o << kGeneratedBanner
          << "// Which context kinds and versions have each verb (codegen/emit_api.cc).\n"
          << "#pragma once\n#include <cstdint>\n\n#include \"gen/opcodes.h\"\n\nnamespace mgl::gen {\n\n"
          << "// The API family of a context. `any`: not checked (no context yet, or a\n"
          << "// backend that does not say which API it serves).\n"
          << "enum class ApiKind : uint8_t { es = 0, core = 1, compat = 2, any = 3 };\n\n"
          << "struct VerbApi {\n"
          << "    uint8_t since[3];  // by ApiKind: first version (major*10+minor), 0: never\n"
          << "    uint8_t ext;       // bit (1 << ApiKind): an extension of that API provides it\n"
          << "};\n\n"
          << "// Indexed by opcode, kOpcodeLimit entries.\n"
          << "extern const VerbApi kVerbApi[kOpcodeLimit];\n\n"
          << "// Whether a context of `kind` at `version` (major*10+minor) has verb `op`.\n"
          << "// A native driver answers GL_INVALID_OPERATION for a verb it lacks.\n"
          << "inline bool verb_in_api(uint16_t op, ApiKind kind, uint8_t version) {\n"
          << "    if (kind == ApiKind::any) return true;\n"
          << "    const VerbApi& a = kVerbApi[op];\n"
          << "    const unsigned k = unsigned(kind);\n"
          << "    return (a.since[k] != 0 && version >= a.since[k]) || ((a.ext >> k) & 1u);\n}\n\n"
          << "}  // namespace mgl::gen\n";
        out.push_back({"verb_api.h", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner << "#include \"gen/verb_api.h\"\n\nnamespace mgl::gen {\n\n"
          << "const VerbApi kVerbApi[kOpcodeLimit] = {\n";
        size_t vi = 0;
        for (uint32_t op = 0; op < limit; ++op) {
            if (vi < s.verbs.size() && s.verbs[vi].opcode == op) {
                const Verb& v = s.verbs[vi++];
                if (v.session) {
                    o << "    {{1, 1, 1}, 0},  // " << v.name << "\n";
                } else {
                    o << "    {{" << int(v.since[0]) << ", " << int(v.since[1]) << ", " << int(v.since[2]) << "}, "
                      << int(v.ext) << "},  // " << v.name << "\n";
                }
            } else {
                o << "    {{0, 0, 0}, 0},\n";
            }
        }
        o << "};\n\n}  // namespace mgl::gen\n";
        out.push_back({"verb_api.cc", o.str()});
    }
}

}  // namespace mglgen
