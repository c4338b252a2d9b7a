// The compiler-task cache (task_cache.h): a hit after a miss (memory, then
// disk through a second cache as a new process would make it), another
// build's entries never matching, a corrupt or truncated file ignored and
// rewritten, and a real compiler task answered from it without a worker.
#include <doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "task_cache.h"

using namespace mgl::gl;
namespace fs = std::filesystem;

namespace {

struct TaskDir {
    fs::path path;
    TaskDir() {
        path = fs::temp_directory_path() / ("mgl-task-cache-test-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(std::rand()));
        fs::create_directories(path);
    }
    ~TaskDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    ShaderCache::Config config() const {
        ShaderCache::Config c;
        c.dir = path.string();
        return c;
    }
};

int g_task_runs = 0;  // in the worker: a fork, so the parent's copy stays 0

std::string echo_task(const std::string& request) {
    ++g_task_runs;
    return "answer to " + request;
}

}  // namespace

TEST_CASE("task cache: memory and disk hits, other builds, damaged files") {
    TaskDir dir;
    {
        TaskCache c(dir.config(), "build-a");
        CHECK(!c.find("link", "sources 1"));
        c.store("link", "sources 1", "spirv 1");
        CHECK(c.find("link", "sources 1").value_or("") == "spirv 1");
        CHECK(c.stats().memory_hits == 1);
        CHECK(!c.find("check", "sources 1"));  // the task's name is part of the key
    }
    {
        TaskCache again(dir.config(), "build-a");  // a later process of the same build
        CHECK(again.find("link", "sources 1").value_or("") == "spirv 1");
        CHECK(again.stats().disk_hits == 1);
        TaskCache other(dir.config(), "build-b");  // another build: never its entries
        CHECK(!other.find("link", "sources 1"));
    }
    const std::string path = TaskCache(dir.config(), "build-a").path_of("link", "sources 1");
    REQUIRE(fs::exists(path));
    const auto size = fs::file_size(path);
    for (int damage = 0; damage < 2; ++damage) {
        if (damage == 0) {
            std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(std::streamoff(size - 12));  // inside the reply
            f.put('X');
        } else {
            fs::resize_file(path, size / 2);
        }
        TaskCache c(dir.config(), "build-a");
        CHECK(!c.find("link", "sources 1"));
        CHECK(c.stats().bad_files == 1);
        c.store("link", "sources 1", "spirv 1");  // rewritten whole
        CHECK(TaskCache(dir.config(), "build-a").find("link", "sources 1").value_or("") == "spirv 1");
    }
    // A build without an id keeps nothing on disk.
    TaskCache no_id(dir.config(), "");
    no_id.store("link", "sources 2", "spirv 2");
    CHECK(no_id.find("link", "sources 2").value_or("") == "spirv 2");
    CHECK(!TaskCache(dir.config(), "build-a").find("link", "sources 2"));
}

TEST_CASE("task cache: the library has a build id, and a cached task runs no worker") {
    CHECK(library_build_id().size() >= 16);
    const std::string request = "request " + std::to_string(::getpid()) + " " + std::to_string(std::rand());
    CompilerReply first = run_in_compiler_cached("echo-test", echo_task, request, "task cache test");
    if (!first.isolated) {
        MESSAGE("no compiler process here (MOBILEGL_SHADER_ISOLATION=0?): nothing to cache");
        return;
    }
    REQUIRE(first.ok);
    CHECK(first.bytes == "answer to " + request);
    const TaskCache::Stats before = TaskCache::process().stats();
    CompilerReply second = run_in_compiler_cached("echo-test", echo_task, request, "task cache test");
    CHECK(second.ok);
    CHECK(second.bytes == first.bytes);
    CHECK(TaskCache::process().stats().memory_hits == before.memory_hits + 1);
    CHECK(g_task_runs == 0);  // neither ran here: the first in a worker, the second nowhere
}
