// The generator's view of the schema: verbs, their parameters, and how each
// parameter travels on the wire. Built once from the FlatBuffers IDL
// (schema.cc) and then read by every emitter.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mglgen {

// A GL typedef declared in protocol/types.fbs as a one-field struct.
struct GLType {
    std::string name;      // "GLenum"
    std::string cpp;       // wire C++ type: "uint32_t"
    uint32_t size = 0;     // bytes
    bool is_float = false;
    bool is_signed = false;
};

enum class ParamKind {
    scalar,        // fixed-width value in the fixed part
    in_array,      // const T*: u32 byte count in the fixed part, bytes inline
    offset_or_in,  // const T* that may be an offset into a bound buffer: u64 offset + u32 bytes
    out_array,     // T* written by the server: u32 capacity in the request, bytes in the reply
    mint_array,    // glGen* names minted by the client: sent like in_array
    cstring,       // NUL-terminated string: sent like in_array (strlen + 1 bytes)
    string_list,   // `count` strings: sent as NUL-terminated strings back to back
    string_lengths,// the optional lengths of a string_list: folded into it, not sent
};

struct Param {
    std::string name;
    std::string ctype;  // as gl.xml spells it
    const GLType* type = nullptr;  // scalar type or array element type (nullptr: void -> ubyte)
    ParamKind kind = ParamKind::scalar;
    std::string len;       // length expression in elements (may be empty)
    std::string handle;    // object-name kind
    std::string source;    // binding target when it may be an offset
    std::string mint;      // minted name kind
    std::string strings;   // for string_list: name of the optional lengths param
    bool nullable = false; // may be NULL: 0 bytes on the wire, nullptr for the backend
    uint32_t elem_size() const { return type ? type->size : 1; }
};

// One fixed-part slot of a record.
struct Slot {
    std::string name;      // C++ identifier in generated code
    std::string cpp;       // C++ type
    uint32_t size = 0;
    uint32_t offset = 0;   // from the record start (header included)
    int param = -1;        // index into Verb::params, -1 for the minted return value
    enum class Role { value, bytes, offset } role = Role::value;
};

struct Verb {
    std::string name;
    uint16_t opcode = 0;
    std::string flavor = "async";  // async | sync | client | custom
    std::vector<std::string> features;
    std::string alias;
    std::string returns;      // C return type text, empty when void
    const GLType* ret_type = nullptr;  // wire type of the return value (scalar returns)
    std::string ret_mint;     // return value is a client-minted name
    std::string unsized;      // why the verb cannot be encoded yet
    std::string retired;
    // Where the verb exists (schema `es`/`core`/`compat`/`ext`), indexed by
    // ApiKind (0 OpenGL ES, 1 GL core profile, 2 GL compatibility profile):
    // the first version (major*10+minor, 0: never) and a bit per kind whose
    // extensions provide it. Session verbs exist everywhere.
    uint8_t since[3] = {};
    uint8_t ext = 0;
    bool session = false;  // from session.fbs (opcode < 256)
    std::vector<std::string> doc;
    std::vector<Param> params;
    std::string file;         // schema file it came from

    // Wire layout (layout.cc).
    std::vector<Slot> slots;  // sorted by size, then declaration order
    uint32_t fixed_size = 0;  // header + slots, before alignment
    uint32_t data_offset = 0; // align8(fixed_size): where inline data starts
    bool has_inline = false;
    bool has_out = false;
    bool is_sync() const { return flavor == "sync"; }
    bool encodable() const { return unsized.empty() && retired.empty(); }
    // In every context this stack creates (ES 2.0+, GL core 3.2+, GL
    // compatibility 3.0+) by core version alone: no profile check is emitted.
    bool universal() const {
        return session || (since[0] && since[0] <= 20 && since[1] && since[1] <= 32 && since[2] && since[2] <= 30);
    }
};

struct Schema {
    std::map<std::string, GLType> types;
    std::vector<Verb> verbs;  // sorted by opcode
    std::vector<std::string> sources;  // schema files, for the reference
};

// schema.cc
bool load_schema(const std::vector<std::string>& files, const std::vector<std::string>& include_dirs,
                 Schema& out, std::string& error);
// layout.cc
void compute_layouts(Schema& s);
std::string canonical_layout(const Schema& s);
uint64_t fnv1a64(const std::string& s);

}  // namespace mglgen
