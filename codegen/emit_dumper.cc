// The text dumper: one function per verb printing its arguments, for
// `mgl dump` and for fault messages.
#include <sstream>

#include "emit.h"

namespace mglgen {

void emit_dumper(const Schema& s, std::vector<OutFile>& out) {
    std::ostringstream o;
    o << kGeneratedBanner << "#include <string>\n\n#include \"gen/gltypes.h\"\n#include \"gen/opcodes.h\"\n"
      << "#include \"mgl/wire/dump_support.h\"\n\nnamespace mgl::gen {\nnamespace {\n\n"
      << "using DumpFn = void (*)(const uint8_t*, uint32_t, std::string&);\n\n";
    for (const Verb& v : s.verbs) {
        if (!on_wire(v)) continue;
        o << "void dump_" << v.name << "(const uint8_t* r, uint32_t size, std::string& o) {\n"
          << "    o += \"" << v.name << "(\";\n"
          << "    if (size < " << v.fixed_size << ") { o += \"<truncated>)\"; return; }\n";
        bool first = true;
        auto sep = [&]() { if (!first) o << "    o += \", \";\n"; first = false; };
        for (const Param& p : v.params) {
            if (p.kind == ParamKind::string_lengths) continue;
            sep();
            const Slot* value = nullptr;
            const Slot* bytes = nullptr;
            const Slot* off = nullptr;
            for (const Slot& sl : v.slots) {
                if (sl.param < 0 || v.params[sl.param].name != p.name) continue;
                if (sl.role == Slot::Role::value) value = &sl;
                if (sl.role == Slot::Role::bytes) bytes = &sl;
                if (sl.role == Slot::Role::offset) off = &sl;
            }
            if (value) {
                const std::string& t = p.type->name;
                const char* fn = t == "GLenum" ? "dump_enum" : t == "GLbitfield" ? "dump_hex" : "dump_value";
                o << "    wire::" << fn << "(o, \"" << p.name << "\", wire::get<" << p.type->cpp << ">(r + " << value->offset << "));\n";
            } else if (off && bytes) {
                o << "    wire::dump_offset_or_bytes(o, \"" << p.name << "\", wire::get<uint64_t>(r + " << off->offset
                  << "), wire::get<uint32_t>(r + " << bytes->offset << "));\n";
            } else if (bytes) {
                o << "    wire::dump_bytes(o, \"" << p.name << "\", wire::get<uint32_t>(r + " << bytes->offset << "), "
                  << (p.kind == ParamKind::out_array ? "true" : "false") << ");\n";
            }
        }
        if (!v.ret_mint.empty()) {
            sep();
            for (const Slot& sl : v.slots)
                if (sl.param < 0)
                    o << "    wire::dump_value(o, \"result\", wire::get<" << sl.cpp << ">(r + " << sl.offset << "));\n";
        }
        o << "    o += ')';\n}\n\n";
    }
    o << "const DumpFn kDumpers[kOpcodeLimit] = {\n";
    size_t vi = 0;
    uint32_t limit = s.verbs.empty() ? 0 : s.verbs.back().opcode + 1u;
    for (uint32_t op = 0; op < limit; ++op) {
        if (vi < s.verbs.size() && s.verbs[vi].opcode == op) {
            const Verb& v = s.verbs[vi++];
            o << "    " << (on_wire(v) ? "&dump_" + v.name : std::string("nullptr")) << ",\n";
        } else {
            o << "    nullptr,\n";
        }
    }
    o << "};\n\n}  // namespace\n\n"
      << "// Appends one line describing the record (without a newline).\n"
      << "void dump_record(const uint8_t* record, uint32_t size, std::string& out) {\n"
      << "    const uint16_t op = wire::get<uint16_t>(record);\n"
      << "    if (op < kOpcodeLimit && kDumpers[op]) kDumpers[op](record, size, out);\n"
      << "    else wire::dump_unknown(out, op, size);\n}\n\n}  // namespace mgl::gen\n";
    out.push_back({"dumper.cc", o.str()});
}

}  // namespace mglgen
