// Shared helpers for the emitters: how verbs and parameters are spelled in
// generated C++, and the list of files each emitter writes.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace mglgen {

struct OutFile {
    std::string name;
    std::string text;
};

// C++ element type of an array parameter ("GLfloat", or "uint8_t" for void).
std::string elem_cpp(const Param& p);
// Parameter list of the generated backend method.
std::string backend_params(const Verb& v, bool with_names = true);
// Return type of the generated backend method.
std::string backend_return(const Verb& v);
// Parameter list of the generated encoder method.
std::string encoder_params(const Verb& v);
// Whether decoding the verb writes a reply (sync flavor, outputs, or a returned value).
bool has_reply(const Verb& v);
// Whether two verbs (a gl.xml alias and its target) have one C signature.
bool same_signature(const Verb& a, const Verb& b);
// Whether the verb is decodable/encodable at all (not unsized, not retired).
inline bool on_wire(const Verb& v) { return v.encodable(); }
// Split of verbs into `parts` chunks of roughly equal size (keeps big TUs compilable).
std::vector<std::vector<const Verb*>> split(const Schema& s, int parts);

extern const char* kGeneratedBanner;

void emit_types(const Schema& s, std::vector<OutFile>& out);      // gltypes.h opcodes.h tables.cc fingerprint.h
void emit_api(const Schema& s, std::vector<OutFile>& out);        // verb_api.h verb_api.cc
void emit_backend(const Schema& s, std::vector<OutFile>& out);    // backend.h backend.cc null_backend.h
void emit_encoder(const Schema& s, std::vector<OutFile>& out);    // encoder.h replies.h
void emit_decoder(const Schema& s, int parts, std::vector<OutFile>& out);  // decode_*.cc decode_table.cc
void emit_dumper(const Schema& s, std::vector<OutFile>& out);     // dumper.cc
void emit_tests(const Schema& s, int parts, std::vector<OutFile>& out);    // roundtrip_*.cc digest_backend.cc fuzz_decoder.cc
void emit_reference(const Schema& s, std::vector<OutFile>& out);  // protocol.md
void emit_espryt(const Schema& s, std::vector<OutFile>& out);     // espryt_host.{h,cc} espryt_pass.h espryt_pass_*.cc
void emit_client(const Schema& s, int parts, std::vector<OutFile>& out);     // client_entry.h client_entry_*.cc client_procs.cc
void emit_values(const Schema& s, std::vector<OutFile>& out);     // server_values.{h,cc}

}  // namespace mglgen
