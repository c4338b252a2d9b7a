// Generated tests: a round trip through encoder and decoder for every verb,
// the digest backend that checks it bit for bit, and the libFuzzer target
// that reaches every decoder directly.
#include <sstream>

#include "emit.h"
#include "lenexpr.h"

namespace mglgen {

namespace {

uint64_t seed_of(const std::string& s) { return fnv1a64(s); }

bool in_checked_len(const Verb& v, const std::string& name) {
    for (const Param& p : v.params) {
        std::string code;
        if (!len_expr_code(v, p, "", code)) continue;
        if (code.find("calc.val(" + name + ")") != std::string::npos) return true;
    }
    return false;
}

long array_bytes(const Verb& v, const Param& p, long fallback) {
    long n = 0;
    std::string code;
    if (len_expr_code(v, p, "", code) && len_expr_eval(v, p.len, 3, n)) return n > 0 ? n * long(p.elem_size()) : 0;
    return fallback;
}

void emit_digest_backend(const Schema& s, std::vector<OutFile>& out) {
    std::ostringstream h;
    h << kGeneratedBanner << "#pragma once\n#include <string>\n\n#include \"gen/backend.h\"\n#include \"mgl/wire/digest.h\"\n\n"
      << "namespace mgl::gen {\n\n"
      << "// Folds every argument it receives into a digest, in parameter order; the\n"
      << "// round-trip tests fold what they encoded the same way and compare.\n"
      << "class DigestBackend : public Backend {\npublic:\n    wire::Digest digest;\n    uint16_t last_op = 0;\n"
      << "    std::string unsupported_verb;\n"
      << "    void unsupported(Op v) override;\n";
    std::ostringstream c;
    c << kGeneratedBanner << "#include \"gen/digest_backend.h\"\n\n#include <cstring>\n\nnamespace mgl::gen {\n\n"
      << "void DigestBackend::unsupported(Op v) { unsupported_verb = verb_name(uint16_t(v)); }\n\n";
    for (const Verb& v : s.verbs) {
        if (!on_wire(v)) continue;
        h << "    " << backend_return(v) << " " << v.name << "(" << backend_params(v) << ") override;\n";
        c << backend_return(v) << " DigestBackend::" << v.name << "(" << backend_params(v) << ") {\n"
          << "    last_op = " << v.opcode << ";\n    digest.val(uint16_t(" << v.opcode << "));\n";
        for (const Param& p : v.params) {
            switch (p.kind) {
                case ParamKind::scalar: c << "    digest.val(" << p.name << ");\n"; break;
                case ParamKind::in_array:
                case ParamKind::mint_array:
                case ParamKind::cstring: c << "    digest.blob(" << p.name << ".data, " << p.name << ".size);\n"; break;
                case ParamKind::offset_or_in:
                    c << "    digest.val(uint8_t(" << p.name << ".is_offset()));\n    if (" << p.name << ".is_offset()) digest.val("
                      << p.name << ".offset); else digest.blob(" << p.name << ".data, " << p.name << ".size);\n";
                    break;
                case ParamKind::out_array:
                    if (p.source.empty()) c << "    digest.val(" << p.name << ".size);\n";
                    else
                        c << "    digest.val(uint8_t(" << p.name << ".is_offset()));\n    if (" << p.name << ".is_offset()) digest.val("
                          << p.name << ".offset); else digest.val(" << p.name << ".size);\n";
                    break;
                case ParamKind::string_list:
                    c << "    digest.val(" << p.name << ".count);\n    for (uint32_t i = 0; i < " << p.name
                      << ".count; ++i) digest.mix(" << p.name << ".data[i], std::strlen(" << p.name << ".data[i]) + 1);\n";
                    break;
                case ParamKind::string_lengths: break;
            }
        }
        if (!v.ret_mint.empty()) c << "    digest.val(result);\n";
        if (backend_return(v) != "void") c << "    return {};\n";
        c << "}\n\n";
    }
    h << "};\n\n}  // namespace mgl::gen\n";
    c << "}  // namespace mgl::gen\n";
    out.push_back({"digest_backend.h", h.str()});
    out.push_back({"digest_backend.cc", c.str()});
}

void emit_roundtrip_fn(const Verb& v, std::ostringstream& o) {
    o << "bool rt_" << v.name << "(Harness& h_) {\n    h_.begin(" << v.opcode << ");\n";
    std::string args;
    auto add = [&](const std::string& a) { args += (args.empty() ? "" : ", ") + a; };
    const bool odd = v.opcode & 1;
    uint64_t reply = 16;
    for (const Param& p : v.params) {
        uint64_t seed = seed_of(v.name + "." + p.name);
        switch (p.kind) {
            case ParamKind::scalar: {
                std::string val;
                if (in_checked_len(v, p.name)) val = "3";
                else if (p.type->is_float) val = std::to_string(long(seed % 1000)) + " * 0.125";
                else val = std::to_string(seed) + "ull";
                o << "    const " << p.type->name << " " << p.name << " = " << p.type->name << "(" << val << ");\n"
                  << "    h_.expect.val(" << p.name << ");\n";
                add(p.name);
                break;
            }
            case ParamKind::in_array:
            case ParamKind::mint_array: {
                long n = array_bytes(v, p, 16);
                o << "    const auto " << p.name << "_ = h_.bytes(" << n << ", " << (seed & 0xffff) << ");\n"
                  << "    h_.expect.blob(" << p.name << "_.data(), " << n << ");\n";
                add("wire::Blob{" + p.name + "_.data(), " + std::to_string(n) + "}");
                break;
            }
            case ParamKind::offset_or_in: {
                if (odd) {
                    o << "    h_.expect.val(uint8_t(1));\n    h_.expect.val(uint64_t(" << (0x1000 + v.opcode) << "));\n";
                    add("wire::OffsetOrBlob{" + std::to_string(0x1000 + v.opcode) + ", nullptr, 0}");
                } else {
                    long n = array_bytes(v, p, 16);
                    if (n == 0) n = 8;  // zero inline bytes would read as an offset
                    o << "    const auto " << p.name << "_ = h_.bytes(" << n << ", " << (seed & 0xffff) << ");\n"
                      << "    h_.expect.val(uint8_t(0));\n    h_.expect.blob(" << p.name << "_.data(), " << n << ");\n";
                    add("wire::OffsetOrBlob{0, " + p.name + "_.data(), " + std::to_string(n) + "}");
                }
                break;
            }
            case ParamKind::cstring: {
                std::string str = "rt-" + v.name;
                o << "    static const char " << p.name << "_[] = \"" << str << "\";\n"
                  << "    h_.expect.blob(" << p.name << "_, sizeof " << p.name << "_);\n";
                add("wire::Blob{" + p.name + "_, sizeof " + p.name + "_}");
                break;
            }
            case ParamKind::string_list: {
                o << "    static const char " << p.name << "_[] = \"s0\\0s11\\0s222\";\n"
                  << "    h_.expect.val(uint32_t(3));\n    h_.expect.mix(" << p.name << "_, sizeof " << p.name << "_);\n";
                add("wire::Blob{" + p.name + "_, sizeof " + p.name + "_}");
                break;
            }
            case ParamKind::out_array: {
                if (!p.source.empty() && odd) {
                    o << "    h_.expect.val(uint8_t(1));\n    h_.expect.val(uint64_t(" << (0x2000 + v.opcode) << "));\n";
                    add(std::to_string(0x2000 + v.opcode) + "ull");
                    add("0u");
                } else {
                    long n = array_bytes(v, p, 32);
                    if (n == 0) n = 8;
                    if (!p.source.empty()) {
                        o << "    h_.expect.val(uint8_t(0));\n";
                        add("0ull");
                    }
                    o << "    h_.expect.val(uint32_t(" << n << "));\n";
                    add(std::to_string(n) + "u");
                    reply += (uint64_t(n) + 7) & ~7ull;
                }
                break;
            }
            case ParamKind::string_lengths: break;
        }
    }
    if (!v.ret_mint.empty()) {
        o << "    const " << v.ret_type->name << " result = " << v.ret_type->name << "(" << (seed_of(v.name) & 0xffffff)
          << "u);\n    h_.expect.val(result);\n";
        add("result");
    }
    o << "    h_.enc." << v.name << "(" << args << ");\n"
      << "    return h_.finish(" << v.opcode << ", " << (has_reply(v) ? reply : 0) << ");\n}\n\n";
}

}  // namespace

void emit_tests(const Schema& s, int parts, std::vector<OutFile>& out) {
    emit_digest_backend(s, out);
    auto chunks = split(s, parts);
    for (int i = 0; i < parts; ++i) {
        std::ostringstream o;
        o << kGeneratedBanner << "#include \"roundtrip_harness.h\"\n\nnamespace mgl::gen::rt {\nnamespace {\n\n";
        for (const Verb* v : chunks[i])
            if (on_wire(*v)) emit_roundtrip_fn(*v, o);
        o << "}  // namespace\n\nvoid add_part_" << i << "(std::vector<Case>& cases) {\n";
        for (const Verb* v : chunks[i])
            if (on_wire(*v)) o << "    cases.push_back({\"" << v->name << "\", &rt_" << v->name << "});\n";
        o << "}\n\n}  // namespace mgl::gen::rt\n";
        out.push_back({"roundtrip_" + std::to_string(i) + ".cc", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner << "#include \"roundtrip_harness.h\"\n\nnamespace mgl::gen::rt {\n\n";
        for (int i = 0; i < parts; ++i) o << "void add_part_" << i << "(std::vector<Case>&);\n";
        o << "\nstd::vector<Case> all_cases() {\n    std::vector<Case> cases;\n";
        for (int i = 0; i < parts; ++i) o << "    add_part_" << i << "(cases);\n";
        o << "    return cases;\n}\n\n}  // namespace mgl::gen::rt\n";
        out.push_back({"roundtrip_all.cc", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner
          << "// libFuzzer target over the decoders. The first two input bytes pick a\n"
          << "// mode: a raw byte stream (headers, pads, chunks), or one record of a\n"
          << "// chosen verb with a fuzzed body, which reaches every verb's decoder directly.\n"
          << "#include <cstring>\n#include <vector>\n\n#include \"gen/null_backend.h\"\n#include \"mgl/wire/decoder.h\"\n"
          << "#include \"mgl/wire/memory_link.h\"\n\nnamespace {\nconst uint16_t kOps[] = {\n";
        size_t n = 0;
        for (const Verb& v : s.verbs)
            if (on_wire(v)) { o << "    " << v.opcode << ",\n"; ++n; }
        o << "};\n}  // namespace\n\n"
          << "extern \"C\" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {\n"
          << "    static mgl::NullBackend backend;\n    static mgl::wire::VectorReplySink replies;\n"
          << "    if (size < 2) return 0;\n"
          << "    const uint16_t sel = uint16_t(data[0] | (data[1] << 8));\n"
          << "    mgl::wire::Dispatch d;\n    d.backend = &backend;\n    d.replies = &replies;\n"
          << "    if (sel & 1) {\n        mgl::wire::decode_stream({data + 2, size - 2}, d);\n        return 0;\n    }\n"
          << "    const uint16_t op = kOps[(sel >> 1) % " << n << "];\n"
          << "    std::vector<uint8_t> rec(((8 + size - 2) + 7) & ~size_t(7), 0);\n"
          << "    const uint32_t rsize = uint32_t(rec.size());\n"
          << "    std::memcpy(rec.data(), &op, 2);\n    std::memcpy(rec.data() + 4, &rsize, 4);\n"
          << "    std::memcpy(rec.data() + 8, data + 2, size - 2);\n"
          << "    mgl::wire::decode_stream(rec, d);\n    return 0;\n}\n";
        out.push_back({"fuzz_decoder.cc", o.str()});
    }
}

}  // namespace mglgen
