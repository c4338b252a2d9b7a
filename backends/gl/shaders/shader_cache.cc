#include "shader_cache.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "cache_format.h"
#include "translate.h"

namespace mgl::gl {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSuffix = ".mglsh";

size_t footprint(const std::string& key, const Translation& t) {
    return key.size() + t.log.size() + t.essl.size() + t.spirv.size() * 4 + 256;
}

}  // namespace

std::string cache_key(const ShaderInput& in, const EsslOptions& opt) {
    std::ostringstream k;
    k << "v" << kTranslatorVersion << " stage " << int(in.stage) << " api " << int(in.api) << " ctx " << in.major << "."
      << in.minor << " essl " << opt.version << " fragdata " << opt.max_draw_buffers << " clip " << opt.clip_distance << " alpha " << opt.alpha_test << " strings " << in.sources.size()
      << "\n";
    for (const std::string& s : in.sources) k << s.size() << ":" << s;
    return k.str();
}

ShaderCache::Config ShaderCache::from_environment() {
    Config c;
    const char* off = std::getenv("MOBILEGL_SHADER_CACHE");
    if (off && std::string(off) == "0") return c;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) c.dir = std::string(x) + "/mobilegl";
    else if (const char* h = std::getenv("HOME"); h && *h) c.dir = std::string(h) + "/.cache/mobilegl";
    return c;
}

ShaderCache& ShaderCache::process() {
    // Never destroyed: an embedded server's threads may still translate while
    // the application's exit() runs static destructors.
    static ShaderCache& cache = *new ShaderCache(from_environment());
    return cache;
}

ShaderCache::ShaderCache(Config config) : config_(std::move(config)) {}

std::string ShaderCache::path_of(const std::string& key) const {
    char name[32];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(fnv1a64(key.data(), key.size())));
    return config_.dir + "/" + name + kSuffix;
}

std::shared_ptr<const Translation> ShaderCache::find(const std::string& key) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = memory_.find(key); it != memory_.end()) {
            order_.splice(order_.end(), order_, it->second.age);
            ++stats_.memory_hits;
            return it->second.t;
        }
    }
    auto t = load(key);
    std::lock_guard lock(mutex_);
    if (!t) {
        ++stats_.misses;
        return nullptr;
    }
    ++stats_.disk_hits;
    remember(key, t);
    return t;
}

void ShaderCache::store(const std::string& key, std::shared_ptr<const Translation> t) {
    {
        std::lock_guard lock(mutex_);
        remember(key, t);
    }
    save(key, *t);
}

ShaderCache::Stats ShaderCache::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

void ShaderCache::remember(const std::string& key, std::shared_ptr<const Translation> t) {
    if (memory_.count(key)) return;
    const size_t bytes = footprint(key, *t);
    order_.push_back(key);
    memory_.emplace(key, Held{std::move(t), bytes, std::prev(order_.end())});
    memory_bytes_ += bytes;
    while (memory_bytes_ > config_.memory_limit && order_.size() > 1) {
        auto it = memory_.find(order_.front());
        memory_bytes_ -= it->second.bytes;
        memory_.erase(it);
        order_.pop_front();
    }
}

std::shared_ptr<const Translation> ShaderCache::load(const std::string& key) {
    if (config_.dir.empty()) return nullptr;
    const std::string path = path_of(key);
    std::string bytes;
    if (!read_cache_file(path, &bytes)) return nullptr;
    std::shared_ptr<Translation> t = decode_entry(bytes, key);
    if (!t) {
        // Corrupt, truncated, foreign or another key's: ignored, and
        // replaced when this shader is stored after its translation.
        std::lock_guard lock(mutex_);
        ++stats_.bad_files;
        return nullptr;
    }
    touch_cache_file(path);
    return t;
}

void ShaderCache::save(const std::string& key, const Translation& t) {
    if (config_.dir.empty()) return;
    // A full or read-only disk only costs the next start its cache.
    if (write_cache_file(config_.dir, path_of(key), encode_entry(key, t))) trim_disk();
}

bool read_cache_file(const std::string& path, std::string* bytes) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec || size > (256ull << 20)) return false;
    std::ifstream f(path, std::ios::binary);
    bytes->assign(size_t(size), '\0');
    f.read(bytes->data(), std::streamsize(size));
    return bool(f);
}

bool write_cache_file(const std::string& dir, const std::string& path, const std::string& bytes) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    static std::atomic<uint64_t> serial{0};
    const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(bytes.data(), std::streamsize(bytes.size()));
        if (!f) {
            fs::remove(tmp, ec);
            return false;
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) fs::remove(tmp, ec);
    return !ec;
}

void touch_cache_file(const std::string& path) {
    std::error_code ec;
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
}

void ShaderCache::trim_disk() {
    const uint64_t gone = trim_cache_dir(config_.dir, kSuffix, config_.disk_limit);
    std::lock_guard lock(mutex_);
    stats_.evicted_files += gone;
}

uint64_t trim_cache_dir(const std::string& dir, const char* suffix, uint64_t limit) {
    struct File {
        fs::path path;
        uint64_t size;
        fs::file_time_type time;
    };
    std::vector<File> files;
    uint64_t total = 0, gone = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != suffix) continue;
        std::error_code e1, e2;
        const uint64_t size = it->file_size(e1);
        const auto time = it->last_write_time(e2);
        if (e1 || e2) continue;
        files.push_back({it->path(), size, time});
        total += size;
    }
    if (total <= limit) return 0;
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.time < b.time; });
    for (const File& f : files) {
        if (total <= limit) break;
        if (fs::remove(f.path, ec)) {
            total -= f.size;
            ++gone;
        }
    }
    return gone;
}

}  // namespace mgl::gl
