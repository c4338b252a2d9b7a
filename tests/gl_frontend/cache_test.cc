// The shader cache: a hit after a miss (memory, then disk in a new
// process-like cache), a corrupt, truncated or foreign file ignored and
// rewritten, the disk size bound held, the environment switches. Also
// prints, per glmark2 shader, a first translation against cache hits (a
// measurement, not an assertion).
#include <doctest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cache_format.h"
#include "shader_cache.h"
#include "translate.h"

using namespace mgl::gl;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("mgl-shader-cache-test-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(std::rand()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

ShaderInput shader(int n) {
    ShaderInput in;
    in.stage = Stage::fragment;
    in.sources = {"#version 330 core\nout vec4 c;\nvoid main() { c = vec4(" + std::to_string(n) + ".0 / 64.0); }\n"};
    return in;
}

ShaderCache::Config config(const TempDir& d, uint64_t limit = 64ull << 20) {
    ShaderCache::Config c;
    c.dir = d.path.string();
    c.disk_limit = limit;
    return c;
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), std::streamsize(bytes.size()));
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("cache: a miss translates and stores; then memory hits; a new cache on the same directory hits disk") {
    TempDir dir;
    const EsslOptions opt;
    ShaderCache first(config(dir));
    auto a = translate(shader(1), opt, &first);
    REQUIRE(a->ok);
    CHECK(first.stats().misses == 1);
    auto b = translate(shader(1), opt, &first);
    CHECK(first.stats().memory_hits == 1);
    CHECK(b == a);
    CHECK(fs::exists(first.path_of(cache_key(shader(1), opt))));

    ShaderCache second(config(dir));
    auto c = translate(shader(1), opt, &second);
    CHECK(second.stats().disk_hits == 1);
    CHECK(second.stats().misses == 0);
    CHECK(c->essl == a->essl);
    CHECK(c->spirv == a->spirv);
    CHECK(c->reflection.outputs.size() == a->reflection.outputs.size());
    // Other options are another entry.
    EsslOptions other;
    other.version = 310;
    auto d = translate(shader(1), other, &second);
    CHECK(second.stats().misses == 1);
    CHECK(d->essl.rfind("#version 310 es", 0) == 0);
}

TEST_CASE("cache: corrupt, truncated and foreign files are ignored, and rewritten") {
    TempDir dir;
    const EsslOptions opt;
    const std::string key = cache_key(shader(2), opt);
    std::string good;
    {
        ShaderCache c(config(dir));
        REQUIRE(translate(shader(2), opt, &c)->ok);
        good = read_file(c.path_of(key));
        REQUIRE(good.size() > 40);
    }
    std::string flipped = good;
    flipped[flipped.size() / 2] ^= 0x5A;
    // Another shader's intact entry under this key's file name.
    ShaderCache other(config(dir));
    REQUIRE(translate(shader(3), opt, &other)->ok);
    const std::string foreign = read_file(other.path_of(cache_key(shader(3), opt)));
    for (const std::string& bad : {flipped, good.substr(0, good.size() / 2), std::string("garbage"), std::string(),
                                   foreign}) {
        ShaderCache c(config(dir));
        write_file(c.path_of(key), bad);
        auto t = translate(shader(2), opt, &c);
        CHECK(t->ok);
        CHECK(c.stats().bad_files == (bad.empty() ? 1u : 1u));
        CHECK(c.stats().disk_hits == 0);
        CHECK(read_file(c.path_of(key)) == good);  // rewritten whole
    }
    // decode_entry refuses on its own too.
    CHECK(decode_entry(good, key) != nullptr);
    CHECK(decode_entry(good, key + "x") == nullptr);
    CHECK(decode_entry(flipped, key) == nullptr);
}

TEST_CASE("cache: the directory stays under its size bound, oldest entries evicted first") {
    TempDir dir;
    const EsslOptions opt;
    uint64_t one = 0;
    {
        ShaderCache probe(config(dir));
        translate(shader(0), opt, &probe);
        one = fs::file_size(probe.path_of(cache_key(shader(0), opt)));
    }
    const uint64_t limit = one * 4 + one / 2;  // room for four entries
    ShaderCache c(config(dir, limit));
    for (int i = 1; i <= 12; ++i) REQUIRE(translate(shader(i), opt, &c)->ok);
    uint64_t total = 0;
    for (const auto& e : fs::directory_iterator(dir.path)) total += e.file_size();
    CHECK(total <= limit);
    CHECK(c.stats().evicted_files >= 8);
    CHECK(fs::exists(c.path_of(cache_key(shader(12), opt))));  // the newest stays
    CHECK_FALSE(fs::exists(c.path_of(cache_key(shader(1), opt))));
}

TEST_CASE("cache: XDG_CACHE_HOME places it, MOBILEGL_SHADER_CACHE=0 turns the disk half off") {
    const char* old_xdg = std::getenv("XDG_CACHE_HOME");
    const std::string keep = old_xdg ? old_xdg : "";
    setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
    unsetenv("MOBILEGL_SHADER_CACHE");
    CHECK(ShaderCache::from_environment().dir == "/tmp/xdg-test/mobilegl");
    setenv("MOBILEGL_SHADER_CACHE", "0", 1);
    CHECK(ShaderCache::from_environment().dir.empty());
    unsetenv("MOBILEGL_SHADER_CACHE");
    if (old_xdg) setenv("XDG_CACHE_HOME", keep.c_str(), 1);
    else unsetenv("XDG_CACHE_HOME");
}

TEST_CASE("timing: first translation vs cache hit, per glmark2 shader (printed)") {
    TempDir dir;
    const EsslOptions opt;
    using clock = std::chrono::steady_clock;
    double first_total = 0, memory_total = 0, disk_total = 0;
    int n = 0;
    for (const auto& e : fs::directory_iterator(MGL_GL_FRONTEND_DATA "/glmark2")) {
        ShaderInput in;
        in.stage = e.path().extension() == ".vert" ? Stage::vertex : Stage::fragment;
        in.sources = {read_file(e.path().string())};
        ShaderCache c(config(dir));
        auto t0 = clock::now();
        auto t = translate(in, opt, &c);
        auto t1 = clock::now();
        translate(in, opt, &c);
        auto t2 = clock::now();
        ShaderCache fresh(config(dir));
        translate(in, opt, &fresh);
        auto t3 = clock::now();
        REQUIRE(t->ok);
        const double first = std::chrono::duration<double, std::milli>(t1 - t0).count();
        const double memory = std::chrono::duration<double, std::milli>(t2 - t1).count();
        const double disk = std::chrono::duration<double, std::milli>(t3 - t2).count();
        MESSAGE(e.path().filename().string() << ": first " << first << " ms, memory hit " << memory << " ms, disk hit "
                                             << disk << " ms");
        first_total += first;
        memory_total += memory;
        disk_total += disk;
        ++n;
    }
    MESSAGE(n << " shaders: first " << first_total << " ms, memory hits " << memory_total << " ms, disk hits "
              << disk_total << " ms (disk hit = " << 100.0 * disk_total / first_total << "% of first)");
}

TEST_CASE("cache entries: every truncation and every single-byte change is refused") {
    const EsslOptions opt;
    auto t = translate(shader(5), opt);
    REQUIRE(t->ok);
    const std::string key = cache_key(shader(5), opt);
    const std::string good = encode_entry(key, *t);
    REQUIRE(decode_entry(good, key) != nullptr);
    CHECK(decode_entry(good, key)->essl == t->essl);
    int refused = 0;
    for (size_t n = 0; n < good.size(); ++n) refused += decode_entry(good.substr(0, n), key) == nullptr;
    CHECK(refused == int(good.size()));
    refused = 0;
    for (size_t i = 0; i < good.size(); ++i) {
        std::string bad = good;
        bad[i] = char(bad[i] ^ 0x01);
        refused += decode_entry(bad, key) == nullptr;
    }
    CHECK(refused == int(good.size()));
    CHECK(decode_entry(good + "x", key) == nullptr);  // trailing bytes
}
