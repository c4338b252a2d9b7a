// The compiler process (backends/gl/shaders/compiler_process.h): a shader
// glslang really crashes on fails alone, with a log that says so, and the
// compiles after it (new workers) succeed; a worker killed from outside is
// replaced; the job's bytes are bounds-checked.
#include <doctest.h>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>
#include <string>

#include "compiler_process.h"
#include "translate.h"

using namespace mgl::gl;

namespace {

ShaderInput vertex(const std::string& src) {
    ShaderInput in;
    in.stage = Stage::vertex;
    in.sources = {src};
    return in;
}

const char* const kPlain = "#version 330\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n";

// A well-formed shader of one long sum: glslang 12's recursive AST
// traversal runs out of stack on it (glslangValidator ends with SIGSEGV).
std::string stack_overflowing_shader() {
    std::string src = "#version 330\nlayout(location = 0) in float y;\nvoid main() { float x = y";
    for (int i = 0; i < 200000; ++i) src += " + y";
    return src + ";\ngl_Position = vec4(x); }\n";
}

// The live processes whose parent is `parent` (from /proc/*/stat).
std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> out;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(e.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const size_t close = line.rfind(')');
        if (close == std::string::npos || close + 2 >= line.size()) continue;
        std::istringstream rest(line.substr(close + 2));
        std::string state;
        long ppid = 0;
        rest >> state >> ppid;
        if (state != "Z" && ppid == parent) out.push_back(pid_t(std::stol(name)));
    }
    return out;
}

bool alive(pid_t pid) { return std::filesystem::exists("/proc/" + std::to_string(pid)); }

}  // namespace

TEST_CASE("compiler process: a shader glslang crashes on fails alone, the next compiles go on") {
    start_compiler_process();
    auto before = translate(vertex(kPlain), {});
    REQUIRE(before->ok);

    auto crashed = translate(vertex(stack_overflowing_shader()), {});
    CHECK_FALSE(crashed->ok);
    CHECK(crashed->log.find("shader compiler process crashed") != std::string::npos);

    // The same source again: a fresh worker crashes on it again (and the
    // server's process is still here to say so).
    auto again = translate(vertex(stack_overflowing_shader()), {});
    CHECK_FALSE(again->ok);

    auto after = translate(vertex(kPlain), {});
    CHECK(after->ok);
    CHECK(after->essl == before->essl);

    // A link of several objects goes through it too.
    ShaderInput helper = vertex("#version 330\nvec4 twice(vec4 v) { return v * 2.0; }\n");
    ShaderInput main_object =
        vertex("#version 330\nlayout(location = 0) in vec4 p;\nvec4 twice(vec4 v);\nvoid main() { gl_Position = twice(p); }\n");
    auto linked = translate_stage({main_object, helper}, {});
    CHECK(linked->ok);
    CHECK(linked->link_log.empty());
}

TEST_CASE("compiler process: a worker killed from outside is replaced") {
    start_compiler_process();
    REQUIRE(translate(vertex(kPlain), {})->ok);  // at least one idle worker
    std::vector<pid_t> killed;
    for (pid_t parent : children_of(getpid()))
        for (pid_t worker : children_of(parent)) {
            ::kill(worker, SIGKILL);
            killed.push_back(worker);
        }
    REQUIRE_FALSE(killed.empty());
    for (pid_t w : killed)
        for (int i = 0; i < 500 && alive(w); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto t = translate(vertex(std::string(kPlain) + "// another source\n"), {});
    CHECK(t->ok);
    CHECK(t->log.empty());
}

TEST_CASE("compiler process: the job's bytes round-trip and a cut or corrupt job is refused") {
    CompileJob job;
    job.link = true;
    job.opt.version = 310;
    job.opt.max_draw_buffers = 4;
    job.opt.clip_distance = true;
    job.inputs = {vertex("a"), vertex("bb")};
    job.inputs[1].stage = Stage::fragment;
    job.inputs[1].api = Api::gles;
    job.inputs[1].sources.push_back(std::string("c\0d", 3));
    const std::string bytes = encode_job(job);

    CompileJob back;
    REQUIRE(decode_job(bytes, back));
    CHECK(back.link);
    CHECK(back.opt.version == 310);
    CHECK(back.opt.max_draw_buffers == 4);
    CHECK(back.opt.clip_distance);
    REQUIRE(back.inputs.size() == 2);
    CHECK(back.inputs[1].stage == Stage::fragment);
    CHECK(back.inputs[1].api == Api::gles);
    CHECK(back.inputs[1].sources == job.inputs[1].sources);

    for (size_t cut = 0; cut < bytes.size(); ++cut) {
        CompileJob part;
        CHECK_FALSE(decode_job(bytes.substr(0, cut), part));
    }
    std::string bad_stage = bytes;
    bad_stage[20] = 9;  // the first input's stage
    CompileJob refused;
    CHECK_FALSE(decode_job(bad_stage, refused));
    CHECK_FALSE(decode_job(bytes + "x", refused));  // trailing bytes
}
