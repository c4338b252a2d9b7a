// Server side of the codec: one bounds-checked decode function per verb and
// the flat dispatch table indexed by opcode (Mesa glthread's unmarshal table,
// with Venus' rule that every read is checked).
#include <sstream>

#include "emit.h"
#include "lenexpr.h"

namespace mglgen {

namespace {

bool is_inline(ParamKind k) {
    return k == ParamKind::in_array || k == ParamKind::mint_array || k == ParamKind::cstring ||
           k == ParamKind::string_list || k == ParamKind::offset_or_in;
}

void emit_decode_fn(const Verb& v, std::ostringstream& o) {
    o << "bool d_" << v.name << "(const uint8_t* r_, uint32_t size_, wire::Dispatch& d_, wire::DecodeError& e_) {\n"
      << "    constexpr uint16_t op_ = " << v.opcode << ";\n"
      << "    constexpr const char* name_ = \"" << v.name << "\";\n";
    if (v.has_inline)
        o << "    if (size_ < " << v.data_offset << ") return wire::fail(e_, wire::DecodeStatus::bad_size, op_, name_, \"record shorter than its fixed part\");\n";
    else
        o << "    if (size_ != " << v.data_offset << ") return wire::fail(e_, wire::DecodeStatus::bad_size, op_, name_, \"record size differs from its fixed size\");\n";
    for (const Slot& sl : v.slots) {
        std::string t = sl.cpp;
        if (sl.role == Slot::Role::value) t = sl.param < 0 ? v.ret_type->name : v.params[sl.param].type->name;
        o << "    const " << t << " a_" << sl.name << " = wire::get<" << t << ">(r_ + " << sl.offset << ");\n";
    }
    if (v.has_inline) o << "    uint64_t cur_ = " << v.data_offset << ";\n";
    unsigned string_slot = 0;
    for (const Param& p : v.params) {
        if (!is_inline(p.kind)) continue;
        std::string ec = elem_cpp(p);
        o << "    const uint8_t* p_" << p.name << " = nullptr;\n"
          << "    if (!wire::take_array(r_, size_, cur_, a_" << p.name << "_bytes, sizeof(" << ec << "), p_" << p.name
          << ")) return wire::fail(e_, wire::DecodeStatus::bad_length, op_, name_, \"" << p.name
          << ": byte count past the record end or not whole elements\");\n";
        // Strings are read up to their NUL by the host: check and use a private copy.
        if ((p.kind == ParamKind::cstring || p.kind == ParamKind::string_list) && string_slot < 4)
            o << "    p_" << p.name << " = wire::private_copy(d_, " << string_slot++ << ", p_" << p.name << ", a_" << p.name
              << "_bytes);\n";
        std::string expr;
        if (len_expr_code(v, p, "a_", expr) && p.kind != ParamKind::string_list) {
            o << "    {\n        wire::LenCalc calc;\n        const int64_t n_ = " << expr << ";\n"
              << "        if (!wire::len_fits(calc, n_, sizeof(" << ec << "), a_" << p.name << "_bytes, " << (p.kind == ParamKind::offset_or_in || p.nullable ? "a_" + p.name + "_bytes == 0" : "false")
              << ", e_, op_, name_, \"" << p.name << "\")) return false;\n    }\n";
        }
        if (p.kind == ParamKind::cstring)
            o << "    if (!wire::cstring_ok(p_" << p.name << ", a_" << p.name
              << "_bytes)) return wire::fail(e_, wire::DecodeStatus::bad_length, op_, name_, \"" << p.name
              << ": string not NUL-terminated\");\n";
        if (p.kind == ParamKind::string_list) {
            std::string cnt = "-1";
            std::string expr2;
            if (len_expr_code(v, p, "a_", expr2)) {
                o << "    int64_t n_" << p.name << " = -1;\n    {\n        wire::LenCalc calc;\n"
                  << "        n_" << p.name << " = " << expr2 << ";\n"
                  << "        if (!calc.ok()) return wire::fail(e_, calc.status(), op_, name_, \"" << p.name << ": bad count\");\n    }\n";
                cnt = "n_" + p.name;
            }
            o << "    wire::Strings s_" << p.name << ";\n"
              << "    if (!wire::split_strings(d_, p_" << p.name << ", a_" << p.name << "_bytes, " << cnt << ", s_" << p.name
              << ")) return wire::fail(e_, wire::DecodeStatus::bad_length, op_, name_, \"" << p.name
              << ": strings do not match their count\");\n";
        }
    }
    if (v.has_inline)
        o << "    if (cur_ != size_) return wire::fail(e_, wire::DecodeStatus::bad_size, op_, name_, \"bytes after the last array\");\n";
    // Outputs: checked against their length expressions, then placed in the reply.
    bool reply = has_reply(v);
    if (reply) {
        o << "    const uint64_t rsize_ = 16";
        for (const Param& p : v.params)
            if (p.kind == ParamKind::out_array) o << " + wire::pad8(a_" << p.name << "_bytes)";
        o << ";\n";
        for (const Param& p : v.params) {
            if (p.kind != ParamKind::out_array) continue;
            std::string ec = elem_cpp(p);
            o << "    if (a_" << p.name << "_bytes % sizeof(" << ec << ")) return wire::fail(e_, wire::DecodeStatus::bad_length, op_, name_, \""
              << p.name << ": capacity not whole elements\");\n";
            std::string expr;
            if (len_expr_code(v, p, "a_", expr)) {
                o << "    {\n        wire::LenCalc calc;\n        const int64_t n_ = " << expr << ";\n"
                  << "        if (!wire::len_fits(calc, n_, sizeof(" << ec << "), a_" << p.name << "_bytes, "
                  << (p.source.empty() ? std::string("false") : "a_" + p.name + "_bytes == 0") << ", e_, op_, name_, \"" << p.name
                  << "\")) return false;\n    }\n";
            }
        }
        o << "    uint8_t* rp_ = nullptr;\n"
          << "    if (!wire::open_reply(d_, op_, rsize_, rp_, e_, name_)) return false;\n"
          << "    [[maybe_unused]] uint8_t* out_at_ = rp_ + 16;\n";
        for (const Param& p : v.params) {
            if (p.kind != ParamKind::out_array) continue;
            std::string ec = elem_cpp(p);
            if (p.source.empty())
                o << "    const wire::Out<" << ec << "> o_" << p.name << "{reinterpret_cast<" << ec << "*>(out_at_), a_" << p.name
                  << "_bytes};\n";
            else
                o << "    const wire::OutOrOffset<" << ec << "> o_" << p.name << "{a_" << p.name << "_bytes ? reinterpret_cast<"
                  << ec << "*>(out_at_) : nullptr, a_" << p.name << "_bytes, a_" << p.name << "_offset};\n";
            o << "    out_at_ += wire::pad8(a_" << p.name << "_bytes);\n";
        }
    }
    // The call.
    std::string args;
    auto add = [&](const std::string& a) { args += (args.empty() ? "" : ", ") + a; };
    for (const Param& p : v.params) {
        std::string ec = elem_cpp(p);
        switch (p.kind) {
            case ParamKind::scalar: add("a_" + p.name); break;
            case ParamKind::in_array:
            case ParamKind::mint_array:
            case ParamKind::cstring:
                if (p.nullable)
                    add("wire::In<" + ec + ">{a_" + p.name + "_bytes ? reinterpret_cast<const " + ec + "*>(p_" + p.name +
                        ") : nullptr, a_" + p.name + "_bytes}");
                else
                    add("wire::In<" + ec + ">{reinterpret_cast<const " + ec + "*>(p_" + p.name + "), a_" + p.name + "_bytes}");
                break;
            case ParamKind::offset_or_in:
                add("wire::InOrOffset<" + ec + ">{a_" + p.name + "_bytes ? reinterpret_cast<const " + ec + "*>(p_" + p.name +
                    ") : nullptr, a_" + p.name + "_bytes, a_" + p.name + "_offset}");
                break;
            case ParamKind::out_array: add("o_" + p.name); break;
            case ParamKind::string_list: add("s_" + p.name); break;
            case ParamKind::string_lengths: break;
        }
    }
    if (!v.ret_mint.empty()) add("a_result");
    // Verbs not in every context: refused outside the current context's
    // API/profile/version (generated tables), after the record was checked.
    if (!v.universal()) {
        o << "    if (!gen::verb_in_api(op_, d_.backend->api_kind, d_.backend->api_version)) [[unlikely]] {\n"
          << "        d_.backend->profile_refused(gen::Op::" << v.name << ");\n";
        if (reply) o << "        std::memset(rp_ + 8, 0, size_t(rsize_ - 8));\n        wire::close_reply(d_);\n";
        o << "        return true;\n    }\n";
    }
    std::string ret = backend_return(v);
    o << "    " << (ret != "void" ? "const " + ret + " ret_ = " : "") << "d_.backend->" << v.name << "(" << args << ");\n";
    if (reply) {
        if (ret != "void") o << "    std::memcpy(rp_ + 8, &ret_, sizeof ret_);\n";
        o << "    wire::close_reply(d_);\n";
    }
    o << "    return true;\n}\n\n";
}

}  // namespace

void emit_decoder(const Schema& s, int parts, std::vector<OutFile>& out) {
    auto chunks = split(s, parts);
    for (int i = 0; i < parts; ++i) {
        std::ostringstream o;
        o << kGeneratedBanner << "#include <cstring>\n\n#include \"gen/backend.h\"\n#include \"gen/decode_table.h\"\n"
          << "#include \"mgl/wire/decode_support.h\"\n\nnamespace mgl::gen::dec {\n\n";
        for (const Verb* v : chunks[i])
            if (on_wire(*v)) emit_decode_fn(*v, o);
        o << "}  // namespace mgl::gen::dec\n";
        out.push_back({"decode_" + std::to_string(i) + ".cc", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner << "#pragma once\n#include <cstdint>\n\n#include \"gen/opcodes.h\"\n#include \"mgl/wire/decoder.h\"\n\n"
          << "namespace mgl::gen {\n\n"
          << "using DecodeFn = bool (*)(const uint8_t* record, uint32_t size, wire::Dispatch& d, wire::DecodeError& e);\n\n"
          << "// Indexed by opcode; nullptr where no verb can be decoded.\n"
          << "extern const DecodeFn kDecodeTable[kOpcodeLimit];\n\n}  // namespace mgl::gen\n";
        out.push_back({"decode_table.h", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner << "#include \"gen/decode_table.h\"\n\nnamespace mgl::gen {\nnamespace dec {\n";
        for (const Verb& v : s.verbs)
            if (on_wire(v)) o << "bool d_" << v.name << "(const uint8_t*, uint32_t, wire::Dispatch&, wire::DecodeError&);\n";
        o << "}  // namespace dec\n\nconst DecodeFn kDecodeTable[kOpcodeLimit] = {\n";
        size_t vi = 0;
        uint32_t limit = s.verbs.empty() ? 0 : s.verbs.back().opcode + 1u;
        for (uint32_t op = 0; op < limit; ++op) {
            if (vi < s.verbs.size() && s.verbs[vi].opcode == op) {
                const Verb& v = s.verbs[vi++];
                o << "    " << (on_wire(v) ? "&dec::d_" + v.name : std::string("nullptr")) << ",\n";
            } else {
                o << "    nullptr,\n";
            }
        }
        o << "};\n\n}  // namespace mgl::gen\n";
        out.push_back({"decode_table.cc", o.str()});
    }
}

}  // namespace mglgen
