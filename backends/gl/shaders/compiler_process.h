// glslang and SPIRV-Cross run in a separate process, so that a shader they
// crash on (glslang 12 overflows its stack on a long enough expression, and
// has crashed on other well-formed sources) fails that one compile instead
// of ending the whole server and every session in it.
//
// Shape: at server start, while the process has few threads, one child is
// forked (the compiler's parent, holding nothing but a control socket); it
// forks one compiler worker per socket the server hands it. A worker
// serves compiles one at a time over its socket and dies alone: its
// crash, or a compile past kCompileSeconds (alarm), fails that shader with
// a log that says so, and the next compile gets a fresh worker. Workers
// are forked from the small single-threaded parent, never from the
// threaded server, so no lock another thread held is copied into them.
//
// MOBILEGL_SHADER_ISOLATION=0 compiles in the server's own process (for a
// debugger); so does a process where fork fails (with one log line).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "shader_input.h"
#include "translation.h"

namespace mgl::gl {

// A compile that outlives this is stopped (the worker ends itself).
inline constexpr unsigned kCompileSeconds = 60;

// Work run in a worker: request bytes in, reply bytes out, in the task's
// own format. Workers are forks of this process image, so a task is sent
// as its address: it must live in this image (not in a library loaded
// after start_compiler_process()).
using CompilerTask = std::string (*)(const std::string& request);

struct CompilerReply {
    bool isolated = false;  // false: no compiler process; run the task in this process
    bool ok = false;        // the task ran and answered `bytes`
    std::string bytes;
    std::string failure;    // !ok: what happened ("crashed", "took longer than 60 s")
};

// Forks the compiler's parent now (call at server start, before sessions
// start threads). Later calls do nothing; without a call, the first
// compile forks it.
void start_compiler_process();

// Runs `task` on `request` in a worker. `what` names the work in the
// server's log line when the worker dies on it.
CompilerReply run_in_compiler(CompilerTask task, const std::string& request, const std::string& what);

// The front end's own task: translate() / translate_stage() of a job.
struct CompileJob {
    bool link = false;               // translate_stage of several objects, else translate of one
    std::vector<ShaderInput> inputs; // one for a compile
    EsslOptions opt;
};

struct IsolatedResult {
    std::shared_ptr<Translation> t;  // null: no compiler process (compile in this process)
    bool compiler_failed = false;    // the worker crashed or timed out: t says so; not worth caching
};

IsolatedResult compile_isolated(const CompileJob& job);

// The log line an application sees for a compile the compiler died on.
std::string compiler_failure_log(const std::string& failure);

// The job's bytes and back (bounds-checked); exposed for the tests.
std::string encode_job(const CompileJob& job);
bool decode_job(const std::string& bytes, CompileJob& job);

}  // namespace mgl::gl
