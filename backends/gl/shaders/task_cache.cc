#include "task_cache.h"

#include <elf.h>
#include <link.h>

#include <cstring>

#include "cache_format.h"

namespace mgl::gl {

namespace {

constexpr const char* kSuffix = ".mgltask";
constexpr char kMagic[8] = {'M', 'G', 'L', 'T', 'A', 'S', 'K', '1'};

void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }

bool get_u64(const std::string& in, size_t& at, uint64_t& v) {
    if (in.size() - at < 8) return false;
    std::memcpy(&v, in.data() + at, 8);
    at += 8;
    return true;
}

// magic, key size, key, reply size, reply, checksum of everything before.
std::string encode_file(const std::string& key, const std::string& reply) {
    std::string out(kMagic, sizeof kMagic);
    put_u64(out, key.size());
    out += key;
    put_u64(out, reply.size());
    out += reply;
    put_u64(out, fnv1a64(out.data(), out.size()));
    return out;
}

std::optional<std::string> decode_file(const std::string& bytes, const std::string& key) {
    size_t at = sizeof kMagic;
    uint64_t n = 0, sum = 0;
    if (bytes.size() < sizeof kMagic + 24 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return {};
    if (!get_u64(bytes, at, n) || n != key.size() || bytes.size() - at < n) return {};
    if (bytes.compare(at, n, key) != 0) return {};  // another key's (a hash collision) or foreign
    at += n;
    if (!get_u64(bytes, at, n) || bytes.size() - at < n + 8) return {};
    std::string reply = bytes.substr(at, n);
    at += n;
    const size_t body = at;
    if (!get_u64(bytes, at, sum) || at != bytes.size() || fnv1a64(bytes.data(), body) != sum) return {};
    return reply;
}

// The build id note of the object that holds this function.
int find_build_id(dl_phdr_info* info, size_t, void* data) {
    auto* out = static_cast<std::string*>(data);
    const auto self = reinterpret_cast<ElfW(Addr)>(&find_build_id);
    bool mine = false;
    for (int i = 0; i < info->dlpi_phnum && !mine; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        const ElfW(Addr) start = info->dlpi_addr + ph.p_vaddr;
        mine = ph.p_type == PT_LOAD && self >= start && self < start + ph.p_memsz;
    }
    if (!mine) return 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_NOTE) continue;
        const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
        const char* end = p + ph.p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const auto* nh = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const char* name = p + sizeof(ElfW(Nhdr));
            const char* desc = name + ((nh->n_namesz + 3) & ~3u);
            if (desc + nh->n_descsz > end) break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                static const char* const kHex = "0123456789abcdef";
                for (uint32_t k = 0; k < nh->n_descsz; ++k) {
                    const auto b = static_cast<unsigned char>(desc[k]);
                    *out += kHex[b >> 4];
                    *out += kHex[b & 15];
                }
                return 1;
            }
            p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
    return 1;  // this object, without a build id
}

}  // namespace

std::string library_build_id() {
    static const std::string id = [] {
        std::string s;
        dl_iterate_phdr(find_build_id, &s);
        return s;
    }();
    return id;
}

TaskCache& TaskCache::process() {
    // Never destroyed (as ShaderCache::process()): server threads may use it during exit().
    static TaskCache& cache = *[] {
        ShaderCache::Config c = ShaderCache::from_environment();
        if (!c.dir.empty()) c.dir += "/tasks";
        return new TaskCache(c, library_build_id());
    }();
    return cache;
}

TaskCache::TaskCache(ShaderCache::Config config, std::string build) : config_(std::move(config)), build_(std::move(build)) {
    if (build_.empty()) config_.dir.clear();
}

std::string TaskCache::key(const std::string& task, const std::string& request) const {
    std::string k = task;
    k += '\0';
    k += build_;
    k += '\0';
    k += request;
    return k;
}

std::string TaskCache::path_of(const std::string& task, const std::string& request) const {
    const std::string k = key(task, request);
    char name[32];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(fnv1a64(k.data(), k.size())));
    return config_.dir + "/" + name + kSuffix;
}

std::optional<std::string> TaskCache::find(const std::string& task, const std::string& request) {
    const std::string k = key(task, request);
    {
        std::lock_guard lock(mutex_);
        if (auto it = memory_.find(k); it != memory_.end()) {
            ++stats_.memory_hits;
            return it->second;
        }
    }
    std::optional<std::string> reply;
    bool bad = false;
    if (std::string bytes, path = path_of(task, request); !config_.dir.empty() && read_cache_file(path, &bytes)) {
        reply = decode_file(bytes, k);
        bad = !reply;
        if (reply) touch_cache_file(path);
    }
    std::lock_guard lock(mutex_);
    if (bad) ++stats_.bad_files;
    if (!reply) {
        ++stats_.misses;
        return {};
    }
    ++stats_.disk_hits;
    remember(k, *reply);
    return reply;
}

void TaskCache::store(const std::string& task, const std::string& request, const std::string& reply) {
    const std::string k = key(task, request);
    {
        std::lock_guard lock(mutex_);
        remember(k, reply);
    }
    if (config_.dir.empty()) return;
    if (write_cache_file(config_.dir, path_of(task, request), encode_file(k, reply)))
        trim_cache_dir(config_.dir, kSuffix, config_.disk_limit);
}

void TaskCache::remember(const std::string& key, const std::string& reply) {
    if (memory_.count(key)) return;
    memory_.emplace(key, reply);
    order_.push_back(key);
    memory_bytes_ += key.size() + reply.size();
    while (memory_bytes_ > config_.memory_limit && order_.size() > 1) {
        auto it = memory_.find(order_.front());
        memory_bytes_ -= it->first.size() + it->second.size();
        memory_.erase(it);
        order_.pop_front();
    }
}

TaskCache::Stats TaskCache::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

CompilerReply run_in_compiler_cached(const char* task_name, CompilerTask task, const std::string& request,
                                     const std::string& what) {
    TaskCache& cache = TaskCache::process();
    if (std::optional<std::string> hit = cache.find(task_name, request)) {
        CompilerReply r;
        r.isolated = r.ok = true;
        r.bytes = std::move(*hit);
        return r;
    }
    CompilerReply r = run_in_compiler(task, request, what);
    if (r.isolated && r.ok) cache.store(task_name, request, r.bytes);
    return r;
}

}  // namespace mgl::gl
