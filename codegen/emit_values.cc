// Values the server chooses and the client sends back (issue 15, cross-
// backend replay): server_values.{h,cc}.
//
// The protocol's names are client-minted (glGen*, glCreate*, fences: see
// docs/PROTOCOL.md, Replies), so a capture replays on another backend as it
// was made, except for the values a query returns and later records carry:
// uniform locations, attribute locations and uniform block indices. Which
// verbs return one and which slots carry one is decided here, once, by rules
// on gl.xml's verb and parameter names (gl.xml has no attribute for them);
// `mgl capture` stores the replies of the returning verbs and `mgl replay`
// rewrites the carrying slots from a captured -> replayed map
// (docs/ARCHITECTURE.md, Capture files).
#include <regex>
#include <sstream>

#include "emit.h"

namespace mglgen {

namespace {

struct Rule {
    const char* verb;   // regex on the verb name
    const char* param;  // regex on the parameter name (carried values)
    const char* kind;
};

// Verbs whose return value is a server-chosen value.
const Rule kReturns[] = {
    {"^glGetUniformLocation(ARB)?$", "", "uniform_location"},
    {"^glGetAttribLocation(ARB)?$", "", "attrib_location"},
    {"^glGetUniformBlockIndex$", "", "uniform_block_index"},
};

// Slots that carry one. A location of glUniform* belongs to the context's
// current program; the others name their program in a `program` slot.
const Rule kCarried[] = {
    {"^(gl(Program)?Uniform|glGetn?Uniform[a-z0-9]*v|mglGetUniform$)", "^location$", "uniform_location"},
    {"(VertexAttrib|VertexArrayAttrib)", "^(index|attribindex)$", "attrib_location"},
    {".", "^uniformBlockIndex$", "uniform_block_index"},
};

const Slot* value_slot(const Verb& v, int param) {
    for (const Slot& sl : v.slots)
        if (sl.param == param && sl.role == Slot::Role::value) return &sl;
    return nullptr;
}

const Slot* program_slot(const Verb& v) {
    for (size_t i = 0; i < v.params.size(); ++i)
        if (v.params[i].kind == ParamKind::scalar && (v.params[i].name == "program" || v.params[i].name == "programObj"))
            if (const Slot* sl = value_slot(v, int(i)); sl && sl->size == 4) return sl;
    return nullptr;
}

}  // namespace

void emit_values(const Schema& s, std::vector<OutFile>& out) {
    std::ostringstream h;
    h << kGeneratedBanner
      << "// Values the server chooses that later records carry (codegen/emit_values.cc).\n"
      << "#pragma once\n\n#include <cstdint>\n\nnamespace mgl::gen {\n\n"
      << "enum class ServerValue : uint8_t { none = 0, uniform_location, attrib_location, uniform_block_index };\n"
      << "inline constexpr int kServerValueKinds = 4;\n"
      << "const char* to_string(ServerValue kind);\n\n"
      << "struct ValueUse {\n"
      << "    ServerValue kind = ServerValue::none;\n"
      << "    uint16_t value_offset = 0;    // the 4-byte slot carrying it (carried_value)\n"
      << "    uint16_t program_offset = 0;  // the 4-byte slot naming its program; 0: the context's current one\n"
      << "    uint16_t fixed_bytes = 0;     // the record's fixed part: read the slots only when size >= this\n"
      << "};\n\n"
      << "// A verb whose reply's return value is one (glGetUniformLocation ...).\n"
      << "ValueUse returned_value(uint16_t op);\n"
      << "// A verb with a slot carrying one (glUniform4fv's location ...); one slot at most.\n"
      << "ValueUse carried_value(uint16_t op);\n"
      << "// glUseProgram: the slot of the program it makes current (0 for other verbs).\n"
      << "uint16_t use_program_offset(uint16_t op);\n\n}  // namespace mgl::gen\n";

    std::ostringstream c;
    c << kGeneratedBanner << "#include \"gen/server_values.h\"\n\nnamespace mgl::gen {\n\n"
      << "const char* to_string(ServerValue kind) {\n    switch (kind) {\n"
      << "    case ServerValue::none: return \"none\";\n"
      << "    case ServerValue::uniform_location: return \"uniform location\";\n"
      << "    case ServerValue::attrib_location: return \"attribute location\";\n"
      << "    case ServerValue::uniform_block_index: return \"uniform block index\";\n    }\n    return \"?\";\n}\n\n";
    std::ostringstream ret, carried, use;
    for (const Verb& v : s.verbs) {
        if (!on_wire(v)) continue;
        const Slot* prog = program_slot(v);
        const std::string tail = ", " + std::to_string(prog ? prog->offset : 0) + ", " + std::to_string(v.fixed_size) + "};\n";
        for (const Rule& r : kReturns)
            if (std::regex_search(v.name, std::regex(r.verb)) && v.ret_type && v.ret_mint.empty())
                ret << "    case " << v.opcode << ": return {ServerValue::" << r.kind << ", 0" << tail;
        bool found = false;
        for (size_t i = 0; i < v.params.size() && !found; ++i) {
            const Param& p = v.params[i];
            if (p.kind != ParamKind::scalar) continue;
            for (const Rule& r : kCarried) {
                if (!std::regex_search(v.name, std::regex(r.verb)) || !std::regex_search(p.name, std::regex(r.param)))
                    continue;
                const Slot* sl = value_slot(v, int(i));
                if (!sl || sl->size != 4) continue;
                carried << "    case " << v.opcode << ": return {ServerValue::" << r.kind << ", " << sl->offset << tail;
                found = true;
                break;
            }
        }
        if ((v.name == "glUseProgram" || v.name == "glUseProgramObjectARB") && prog)
            use << "    case " << v.opcode << ": return " << prog->offset << ";\n";
    }
    c << "ValueUse returned_value(uint16_t op) {\n    switch (op) {\n" << ret.str() << "    default: return {};\n    }\n}\n\n"
      << "ValueUse carried_value(uint16_t op) {\n    switch (op) {\n" << carried.str() << "    default: return {};\n    }\n}\n\n"
      << "uint16_t use_program_offset(uint16_t op) {\n    switch (op) {\n" << use.str() << "    default: return 0;\n    }\n}\n\n"
      << "}  // namespace mgl::gen\n";
    out.push_back({"server_values.h", h.str()});
    out.push_back({"server_values.cc", c.str()});
}

}  // namespace mglgen
