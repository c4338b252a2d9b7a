// Client side of the codec: the Encoder (one inline method per verb writing
// its record straight into the transport's window) and the reply readers.
#include <sstream>

#include "emit.h"

namespace mglgen {

namespace {

void emit_encode_method(const Verb& v, std::ostringstream& o) {
    o << "    // " << v.name << ": fixed part " << v.fixed_size << " bytes" << (v.has_inline ? " + inline data" : "") << "\n";
    o << "    void " << v.name << "(" << encoder_params(v) << ") {\n";
    const uint32_t op = v.opcode;
    if (!v.has_inline) {
        o << "        uint8_t* p_ = begin_fixed(" << v.data_offset << ");\n";
        o << "        wire::put_header(p_, " << op << ", " << v.data_offset << ");\n";
    } else {
        for (const Param& p : v.params)
            if (p.kind == ParamKind::offset_or_in)
                o << "        const uint32_t " << p.name << "_bytes_ = " << p.name << ".data ? " << p.name
                  << ".size : 0;\n        const uint64_t " << p.name << "_offset_ = " << p.name << ".data ? 0 : " << p.name
                  << ".offset;\n";
        o << "        const uint64_t size_ = uint64_t(" << v.data_offset << ")";
        for (const Param& p : v.params) {
            if (p.kind == ParamKind::offset_or_in) o << " + wire::pad8(" << p.name << "_bytes_)";
            else if (p.kind == ParamKind::in_array || p.kind == ParamKind::mint_array || p.kind == ParamKind::cstring ||
                     p.kind == ParamKind::string_list)
                o << " + wire::pad8(" << p.name << ".size)";
        }
        o << ";\n        uint8_t* p_ = begin_record(size_);\n        if (!p_) return;\n";
        o << "        wire::put_header(p_, " << op << ", uint32_t(size_));\n";
    }
    if (v.data_offset > v.fixed_size)
        o << "        std::memset(p_ + " << v.fixed_size << ", 0, " << (v.data_offset - v.fixed_size) << ");\n";
    for (const Slot& sl : v.slots) {
        std::string val;
        if (sl.param < 0) val = "result";
        else {
            const Param& p = v.params[sl.param];
            switch (sl.role) {
                case Slot::Role::value: val = p.name; break;
                case Slot::Role::bytes:
                    if (p.kind == ParamKind::out_array) val = p.name + "_capacity";
                    else if (p.kind == ParamKind::offset_or_in) val = p.name + "_bytes_";
                    else val = p.name + ".size";
                    break;
                case Slot::Role::offset:
                    val = p.kind == ParamKind::out_array ? p.name + "_offset" : p.name + "_offset_";
                    break;
            }
        }
        o << "        wire::put<" << sl.cpp << ">(p_ + " << sl.offset << ", " << val << ");\n";
    }
    if (v.has_inline) {
        o << "        uint8_t* at_ = p_ + " << v.data_offset << ";\n";
        for (const Param& p : v.params) {
            if (p.kind == ParamKind::offset_or_in)
                o << "        at_ = wire::put_blob(at_, " << p.name << ".data, " << p.name << "_bytes_);\n";
            else if (p.kind == ParamKind::in_array || p.kind == ParamKind::mint_array || p.kind == ParamKind::cstring ||
                     p.kind == ParamKind::string_list)
                o << "        at_ = wire::put_blob(at_, " << p.name << ".data, " << p.name << ".size);\n";
        }
        o << "        end_record();\n";
    }
    o << "    }\n";
}

void emit_reply_reader(const Verb& v, std::ostringstream& o) {
    std::string params = "std::span<const uint8_t> r_";
    std::string ret = backend_return(v);
    if (ret != "void") params += ", " + ret + "* ret_";
    for (const Param& p : v.params)
        if (p.kind == ParamKind::out_array) params += ", " + elem_cpp(p) + "* " + p.name + ", uint32_t " + p.name + "_capacity";
    o << "inline bool read_reply_" << v.name << "(" << params << ") {\n";
    o << "    uint64_t size_ = 16";
    for (const Param& p : v.params)
        if (p.kind == ParamKind::out_array) o << " + wire::pad8(" << p.name << "_capacity)";
    o << ";\n    if (!wire::reply_header_ok(r_, " << v.opcode << ", size_)) return false;\n";
    if (ret != "void") o << "    if (ret_) std::memcpy(ret_, r_.data() + 8, sizeof(" << ret << "));\n";
    o << "    [[maybe_unused]] const uint8_t* at_ = r_.data() + 16;\n";
    for (const Param& p : v.params) {
        if (p.kind != ParamKind::out_array) continue;
        o << "    if (" << p.name << " && " << p.name << "_capacity) std::memcpy(" << p.name << ", at_, " << p.name
          << "_capacity);\n    at_ += wire::pad8(" << p.name << "_capacity);\n";
    }
    o << "    return true;\n}\n\n";
}

}  // namespace

void emit_encoder(const Schema& s, std::vector<OutFile>& out) {
    {
        std::ostringstream o;
        o << kGeneratedBanner
          << "// One method per verb: writes the verb's record into the link's window.\n"
          << "// Verbs marked unsized or retired in the schema have no method.\n"
          << "#pragma once\n#include <cstring>\n\n#include \"gen/gltypes.h\"\n#include \"mgl/wire/encoder_base.h\"\n\n"
          << "namespace mgl::gen {\n\nclass Encoder : public wire::EncoderBase {\npublic:\n"
          << "    using wire::EncoderBase::EncoderBase;\n\n";
        for (const Verb& v : s.verbs)
            if (on_wire(v)) emit_encode_method(v, o);
        o << "};\n\n}  // namespace mgl::gen\n";
        out.push_back({"encoder.h", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner
          << "// Readers for the replies of verbs that have one: check the reply's shape\n"
          << "// and copy its outputs into the caller's memory.\n"
          << "#pragma once\n#include <cstring>\n#include <span>\n\n#include \"gen/gltypes.h\"\n#include \"mgl/wire/record.h\"\n\n"
          << "namespace mgl::gen {\n\n";
        for (const Verb& v : s.verbs)
            if (on_wire(v) && has_reply(v)) emit_reply_reader(v, o);
        o << "}  // namespace mgl::gen\n";
        out.push_back({"replies.h", o.str()});
    }
}

}  // namespace mglgen
