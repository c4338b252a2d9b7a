// Reads the verb schema through FlatBuffers' own IDL parser (no hand-written
// parser) and turns tables and their attributes into the generator's model.
#include <flatbuffers/idl.h>
#include <flatbuffers/util.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "model.h"

namespace mglgen {
namespace {

std::string attr(const flatbuffers::Definition& d, const char* key) {
    const flatbuffers::Value* v = d.attributes.Lookup(key);
    return v ? v->constant : std::string();
}
bool has_attr(const flatbuffers::Definition& d, const char* key) { return d.attributes.Lookup(key) != nullptr; }

bool scalar_cpp(flatbuffers::BaseType t, GLType& out) {
    using namespace flatbuffers;
    switch (t) {
        case BASE_TYPE_BOOL:
        case BASE_TYPE_UCHAR: out.cpp = "uint8_t"; out.size = 1; return true;
        case BASE_TYPE_CHAR: out.cpp = "int8_t"; out.size = 1; out.is_signed = true; return true;
        case BASE_TYPE_SHORT: out.cpp = "int16_t"; out.size = 2; out.is_signed = true; return true;
        case BASE_TYPE_USHORT: out.cpp = "uint16_t"; out.size = 2; return true;
        case BASE_TYPE_INT: out.cpp = "int32_t"; out.size = 4; out.is_signed = true; return true;
        case BASE_TYPE_UINT: out.cpp = "uint32_t"; out.size = 4; return true;
        case BASE_TYPE_LONG: out.cpp = "int64_t"; out.size = 8; out.is_signed = true; return true;
        case BASE_TYPE_ULONG: out.cpp = "uint64_t"; out.size = 8; return true;
        case BASE_TYPE_FLOAT: out.cpp = "float"; out.size = 4; out.is_float = true; out.is_signed = true; return true;
        case BASE_TYPE_DOUBLE: out.cpp = "double"; out.size = 8; out.is_float = true; out.is_signed = true; return true;
        default: return false;
    }
}

const GLType* return_type(const Schema& s, std::string text) {
    // "const GLubyte *" and friends are pointers: not carried as values.
    if (text.find('*') != std::string::npos) return nullptr;
    auto strip = [](std::string t) {
        t.erase(0, t.find_first_not_of(' '));
        t.erase(t.find_last_not_of(' ') + 1);
        return t;
    };
    text = strip(text);
    if (text.rfind("const ", 0) == 0) text = strip(text.substr(6));
    auto it = s.types.find(text);
    return it == s.types.end() ? nullptr : &it->second;
}

}  // namespace

bool load_schema(const std::vector<std::string>& files, const std::vector<std::string>& include_dirs,
                 Schema& out, std::string& error) {
    flatbuffers::IDLOptions opts;
    flatbuffers::Parser parser(opts);
    std::vector<const char*> incs;
    for (auto& d : include_dirs) incs.push_back(d.c_str());
    incs.push_back(nullptr);
    for (auto& f : files) {
        std::string text;
        if (!flatbuffers::LoadFile(f.c_str(), false, &text)) {
            error = "cannot read " + f;
            return false;
        }
        if (!parser.Parse(text.c_str(), incs.data(), f.c_str())) {
            error = parser.error_;
            return false;
        }
        out.sources.push_back(f);
    }

    // Typedef structs first: every table field refers to them.
    for (const flatbuffers::StructDef* sd : parser.structs_.vec) {
        if (!sd->fixed) continue;
        if (sd->fields.vec.size() != 1) {
            error = "struct " + sd->name + ": a GL typedef struct has exactly one field";
            return false;
        }
        GLType t;
        t.name = sd->name;
        if (!scalar_cpp(sd->fields.vec[0]->value.type.base_type, t)) {
            error = "struct " + sd->name + ": unsupported field type";
            return false;
        }
        out.types[t.name] = t;
    }

    std::set<unsigned> seen_opcodes;
    for (const flatbuffers::StructDef* sd : parser.structs_.vec) {
        if (sd->fixed) continue;
        Verb v;
        v.name = sd->name;
        v.file = sd->file;
        std::string op = attr(*sd, "opcode");
        if (op.empty()) {
            error = "table " + v.name + " has no opcode";
            return false;
        }
        unsigned long opn = std::stoul(op);
        // 0, 1 and 255 are wire-control records (libwire record.h).
        if (opn < 2 || opn > 0xFFFF || opn == 255) {
            error = "table " + v.name + ": opcode " + op + " out of range 2..254, 256..65535";
            return false;
        }
        if (!seen_opcodes.insert(unsigned(opn)).second) {
            error = "table " + v.name + ": opcode " + op + " used twice";
            return false;
        }
        v.opcode = uint16_t(opn);
        if (has_attr(*sd, "flavor")) v.flavor = attr(*sd, "flavor");
        if (v.flavor != "async" && v.flavor != "sync" && v.flavor != "client" && v.flavor != "custom") {
            error = "table " + v.name + ": unknown flavor '" + v.flavor + "'";
            return false;
        }
        std::stringstream fs(attr(*sd, "feature"));
        for (std::string f; std::getline(fs, f, ',');)
            if (!f.empty()) v.features.push_back(f);
        v.alias = attr(*sd, "alias");
        v.returns = attr(*sd, "returns");
        v.ret_mint = attr(*sd, "ret_mint");
        v.unsized = attr(*sd, "unsized");
        v.retired = attr(*sd, "retired");
        v.doc = sd->doc_comment;
        v.session = opn < 256;
        const char* const kApiKeys[3] = {"es", "core", "compat"};
        for (int k = 0; k < 3; ++k) {
            const std::string ver = attr(*sd, kApiKeys[k]);
            if (ver.empty()) continue;
            if (ver.size() != 3 || !std::isdigit((unsigned char)ver[0]) || ver[1] != '.' || !std::isdigit((unsigned char)ver[2])) {
                error = "table " + v.name + ": " + kApiKeys[k] + " '" + ver + "' is not a version like \"3.2\"";
                return false;
            }
            v.since[k] = uint8_t((ver[0] - '0') * 10 + (ver[2] - '0'));
        }
        std::stringstream es(attr(*sd, "ext"));
        for (std::string a; std::getline(es, a, '|');) {
            if (a == "gles2") v.ext |= 1;
            else if (a == "glcore") v.ext |= 2;
            else if (a == "gl") v.ext |= 4;
            else if (!a.empty()) {
                error = "table " + v.name + ": ext names unknown API '" + a + "'";
                return false;
            }
        }
        if (!v.returns.empty()) v.ret_type = return_type(out, v.returns);

        for (const flatbuffers::FieldDef* fd : sd->fields.vec) {
            Param p;
            p.name = fd->name;
            p.ctype = attr(*fd, "ctype");
            p.len = attr(*fd, "len");
            p.handle = attr(*fd, "handle");
            p.source = attr(*fd, "source");
            p.mint = attr(*fd, "mint");
            p.nullable = has_attr(*fd, "nullable");
            const flatbuffers::Type& t = fd->value.type;
            if (t.base_type == flatbuffers::BASE_TYPE_STRUCT) {
                p.type = &out.types.at(t.struct_def->name);
                p.kind = ParamKind::scalar;
            } else if (t.base_type == flatbuffers::BASE_TYPE_VECTOR) {
                if (t.element == flatbuffers::BASE_TYPE_STRUCT)
                    p.type = &out.types.at(t.struct_def->name);
                else if (t.element != flatbuffers::BASE_TYPE_UCHAR) {
                    error = v.name + "." + p.name + ": arrays hold GL typedef structs or ubyte";
                    return false;
                }
                if (has_attr(*fd, "strings")) {
                    p.kind = ParamKind::string_list;
                    p.strings = attr(*fd, "strings");
                } else if (has_attr(*fd, "cstring")) {
                    p.kind = ParamKind::cstring;
                } else if (!p.mint.empty()) {
                    p.kind = ParamKind::mint_array;
                } else if (has_attr(*fd, "out")) {
                    p.kind = ParamKind::out_array;
                } else if (!p.source.empty()) {
                    p.kind = ParamKind::offset_or_in;
                } else {
                    p.kind = ParamKind::in_array;
                }
            } else {
                error = v.name + "." + p.name + ": fields are GL typedef structs or vectors of them";
                return false;
            }
            v.params.push_back(std::move(p));
        }
        // The lengths array of a string list is folded into the list itself.
        for (auto& p : v.params) {
            if (p.kind != ParamKind::string_list || p.strings.empty()) continue;
            auto it = std::find_if(v.params.begin(), v.params.end(), [&](const Param& q) { return q.name == p.strings; });
            if (it == v.params.end()) {
                error = v.name + "." + p.name + ": strings names unknown param " + p.strings;
                return false;
            }
            it->kind = ParamKind::string_lengths;
        }
        if (!v.ret_mint.empty() && !v.ret_type) {
            error = v.name + ": ret_mint needs a value return type";
            return false;
        }
        out.verbs.push_back(std::move(v));
    }
    std::sort(out.verbs.begin(), out.verbs.end(), [](const Verb& a, const Verb& b) { return a.opcode < b.opcode; });
    // A gl.xml alias is the same command: the client encodes its canonical
    // verb (emit_client.cc), so the canonical verb exists wherever one of its
    // aliases does (glMapBufferOES makes glMapBuffer's record an ES one).
    std::map<std::string, Verb*> by_name;
    for (Verb& v : out.verbs) by_name[v.name] = &v;
    for (const Verb& v : out.verbs) {
        auto it = v.alias.empty() ? by_name.end() : by_name.find(v.alias);
        if (it == by_name.end()) continue;
        Verb& c = *it->second;
        for (int k = 0; k < 3; ++k)
            if (v.since[k] && (!c.since[k] || v.since[k] < c.since[k])) c.since[k] = v.since[k];
        c.ext |= v.ext;
    }
    return true;
}

}  // namespace mglgen
