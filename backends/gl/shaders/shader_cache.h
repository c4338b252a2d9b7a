// Translated shaders kept in memory and on disk, so that a program's second
// start skips glslang and SPIRV-Cross. On disk: one file per shader under
// $XDG_CACHE_HOME/mobilegl (default ~/.cache/mobilegl), written to a temp
// file and renamed into place (a reader never sees half an entry), the
// directory held under a size bound by evicting the least recently used
// files. MOBILEGL_SHADER_CACHE=0 turns the disk half off. Thread-safe.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "shader_input.h"
#include "translation.h"

namespace mgl::gl {

// Everything a translation depends on, as bytes: translator version, stage,
// API and context version, ESSL options, the source strings.
std::string cache_key(const ShaderInput& in, const EsslOptions& opt);

// Removes the least recently written files ending in `suffix` from `dir`
// until those left take at most `limit` bytes; how many went.
uint64_t trim_cache_dir(const std::string& dir, const char* suffix, uint64_t limit);
// A cache file's bytes (at most 256 MiB); false when it cannot be read whole.
bool read_cache_file(const std::string& path, std::string* bytes);
// Writes `bytes` to a temp file in `dir` renamed onto `path` (readers never
// see half a file); false on a full or read-only disk (nothing left behind).
bool write_cache_file(const std::string& dir, const std::string& path, const std::string& bytes);
// Marks a file recently used (trim_cache_dir evicts it last).
void touch_cache_file(const std::string& path);

class ShaderCache {
public:
    struct Config {
        std::string dir;                       // empty: no disk cache
        uint64_t disk_limit = 64ull << 20;     // bytes of entries on disk
        uint64_t memory_limit = 32ull << 20;   // bytes of entries in memory
    };
    struct Stats {
        uint64_t memory_hits = 0, disk_hits = 0, misses = 0, bad_files = 0, evicted_files = 0;
    };

    // $XDG_CACHE_HOME/mobilegl or ~/.cache/mobilegl; no disk cache when
    // MOBILEGL_SHADER_CACHE=0 or neither variable is set.
    static Config from_environment();
    // The process's cache, shared by every session (built on first use).
    static ShaderCache& process();

    explicit ShaderCache(Config config);

    std::shared_ptr<const Translation> find(const std::string& key);
    void store(const std::string& key, std::shared_ptr<const Translation> t);
    Stats stats() const;
    const Config& config() const { return config_; }
    // The file an entry for `key` lives in (tests corrupt it on purpose).
    std::string path_of(const std::string& key) const;

private:
    struct Held {
        std::shared_ptr<const Translation> t;
        size_t bytes;
        std::list<std::string>::iterator age;
    };
    void remember(const std::string& key, std::shared_ptr<const Translation> t);  // mutex held
    std::shared_ptr<const Translation> load(const std::string& key);
    void save(const std::string& key, const Translation& t);
    void trim_disk();

    Config config_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Held> memory_;
    std::list<std::string> order_;  // least recently used first
    size_t memory_bytes_ = 0;
    Stats stats_;
};

}  // namespace mgl::gl
