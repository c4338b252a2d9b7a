// The backend interface (one virtual method per verb, each defaulting to
// "unsupported") and the null backend that accepts and counts everything.
#include <sstream>

#include "emit.h"

namespace mglgen {

void emit_backend(const Schema& s, std::vector<OutFile>& out) {
    {
        std::ostringstream o;
        o << kGeneratedBanner
          << "// What a backend implements: one method per verb that travels on the wire.\n"
          << "// Arrays arrive as views into the record being applied (valid during the\n"
          << "// call only), already bounds-checked; outputs point into the reply.\n"
          << "#pragma once\n#include <cstdint>\n#include <mutex>\n\n#include \"gen/gltypes.h\"\n#include \"gen/opcodes.h\"\n#include \"gen/verb_api.h\"\n"
          << "#include \"mgl/wire/record.h\"\n\nnamespace mgl::wire {\nclass MemoryBudget;\n}\n\nnamespace mgl {\n\n"
          << "class Backend {\npublic:\n    virtual ~Backend();\n\n"
          << "    // Every verb a backend does not override lands here. A backend raises a\n"
          << "    // GL error and logs one line naming the verb: never silent.\n"
          << "    virtual void unsupported(gen::Op verb) = 0;\n\n"
          << "    // Called by the session after each applied span: a GL error raised\n"
          << "    // since, taken from the backend (so a later glGetError does not see it\n"
          << "    // again), to be pushed to the client as an event. 0: none. *context:\n"
          << "    // the client's name of the context it belongs to.\n"
          << "    virtual uint32_t take_error_event(uint32_t* context) { return 0; }\n\n"
          << "    // Why the backend can no longer serve (its GPU device was lost...);\n"
          << "    // nullptr while healthy. Checked after each applied batch: the session\n"
          << "    // then ends with a lost context and a fault naming it.\n"
          << "    virtual const char* fault() const { return nullptr; }\n\n"
          << "    // Called by the session before each span it applies, on the applying\n"
          << "    // thread. On the direct transport several sessions share one thread (the\n"
          << "    // application's): a backend with per-thread state (a current host\n"
          << "    // context) restores its own here when another session's was bound since.\n"
          << "    virtual void begin_span() {}\n\n"
          << "    // A lock the session holds while it applies a span and while the backend\n"
          << "    // goes, when the device cannot serve contexts of one process from several\n"
          << "    // threads at once (a host driver's race); nullptr: sessions run freely.\n"
          << "    virtual std::mutex* session_lock() { return nullptr; }\n\n"
          << "    // The session's memory budget (mgl/wire/memory_budget.h), set before the\n"
          << "    // first span. A backend charges the storage it makes for the client\n"
          << "    // (buffers, textures) and, when fits() says no, allocates nothing: the\n"
          << "    // decoder then ends the session with the budget's fault.\n"
          << "    virtual void set_memory_budget(wire::MemoryBudget* budget) {}\n\n"
          << "    // Whether the session's client shares this process's address space (the\n"
          << "    // inproc and direct transports, no capture), set before the first span:\n"
          << "    // only then may the backend hand it the driver's own mappings\n"
          << "    // (mglMapBufferHost: persistent buffer maps).\n"
          << "    virtual void set_peer_in_process(bool in_process) {}\n\n"
          << "    // The current context's API and version, for the generated profile checks\n"
          << "    // in the decoders of verbs that are not in every context (gen/verb_api.h).\n"
          << "    // A backend sets them when a context becomes current; `any` checks nothing.\n"
          << "    gen::ApiKind api_kind = gen::ApiKind::any;\n"
          << "    uint8_t api_version = 0;\n\n"
          << "    // A verb outside the current context's API/profile/version (a hostile or\n"
          << "    // broken client: ours checks first): GL_INVALID_OPERATION and one log line.\n"
          << "    virtual void profile_refused(gen::Op verb) { unsupported(verb); }\n\n";
        for (const Verb& v : s.verbs) {
            if (!on_wire(v)) continue;
            o << "    virtual " << backend_return(v) << " " << v.name << "(" << backend_params(v) << ");\n";
        }
        o << "};\n\n}  // namespace mgl\n";
        out.push_back({"backend.h", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner << "#include \"gen/backend.h\"\n\nnamespace mgl {\n\nBackend::~Backend() = default;\n\n";
        for (const Verb& v : s.verbs) {
            if (!on_wire(v)) continue;
            o << backend_return(v) << " Backend::" << v.name << "(" << backend_params(v, false) << ") { unsupported(gen::Op::"
              << v.name << ");";
            if (backend_return(v) != "void") o << " return {};";
            o << " }\n";
        }
        o << "\n}  // namespace mgl\n";
        out.push_back({"backend.cc", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner
          << "// The null backend: accepts every verb and counts it. The wire's ceiling\n"
          << "// benchmark and the transport tests run on it.\n"
          << "#pragma once\n#include <array>\n#include <cstdint>\n\n#include \"gen/backend.h\"\n\nnamespace mgl {\n\n"
          << "class NullBackend : public Backend {\npublic:\n"
          << "    std::array<uint64_t, gen::kOpcodeLimit> counts{};\n"
          << "    uint64_t unsupported_calls = 0;\n"
          << "    uint64_t total() const { uint64_t t = 0; for (auto c : counts) t += c; return t; }\n"
          << "    void unsupported(gen::Op) override { ++unsupported_calls; }\n\n";
        for (const Verb& v : s.verbs) {
            if (!on_wire(v)) continue;
            o << "    " << backend_return(v) << " " << v.name << "(" << backend_params(v, false) << ") override { ++counts["
              << v.opcode << "];";
            if (backend_return(v) != "void") o << " return {};";
            o << " }\n";
        }
        o << "};\n\n}  // namespace mgl\n";
        out.push_back({"null_backend.h", o.str()});
    }
}

}  // namespace mglgen
