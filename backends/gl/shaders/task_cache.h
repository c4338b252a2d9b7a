// Replies of compiler tasks (compiler_process.h: Magma's compile checks and
// links) kept in memory and on disk, so that a shader a session compiled
// before, in this process or an earlier one, costs no glslang run: on
// NVIDIA a first glslang use of a shading-language version costs 30-100 ms
// (H100, 2026-12-05), paid inside a program's first frame otherwise.
//
// The key is the task's name, the request's bytes (the whole sources) and
// the build that answers them: the ELF build id of this library, so that
// an entry written by another build never matches (a build without one
// keeps its cache in memory only). Files are checked whole (magic, sizes,
// checksum, the full key) before use: a corrupt, truncated or foreign file
// is a miss, replaced by the next store. Directory and limits are the
// shader cache's (shader_cache.h: $XDG_CACHE_HOME/mobilegl, MOBILEGL_SHADER_CACHE=0
// turns both off), in its "tasks" subdirectory.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "compiler_process.h"
#include "shader_cache.h"

namespace mgl::gl {

class TaskCache {
public:
    struct Stats {
        uint64_t memory_hits = 0, disk_hits = 0, misses = 0, bad_files = 0;
    };

    // The process's cache (built on first use).
    static TaskCache& process();
    // `build`: what tells this build's entries from another's (empty: no disk).
    TaskCache(ShaderCache::Config config, std::string build);

    std::optional<std::string> find(const std::string& task, const std::string& request);
    void store(const std::string& task, const std::string& request, const std::string& reply);
    Stats stats() const;
    std::string path_of(const std::string& task, const std::string& request) const;

private:
    std::string key(const std::string& task, const std::string& request) const;
    void remember(const std::string& key, const std::string& reply);  // mutex held

    ShaderCache::Config config_;
    std::string build_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::string> memory_;
    std::list<std::string> order_;  // oldest first
    uint64_t memory_bytes_ = 0;
    Stats stats_;
};

// This library's ELF build id as hex ("" when it has none).
std::string library_build_id();

// run_in_compiler() through the process's TaskCache: a hit answers without
// a worker; a reply the worker gave is stored (not a crash or a timeout).
CompilerReply run_in_compiler_cached(const char* task_name, CompilerTask task, const std::string& request,
                                     const std::string& what);

}  // namespace mgl::gl
