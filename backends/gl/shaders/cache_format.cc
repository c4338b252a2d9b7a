#include "cache_format.h"

#include <cstring>

#include "translate.h"

namespace mgl::gl {

namespace {

constexpr char kMagic[8] = {'M', 'G', 'L', 'S', 'H', 'C', '0', '1'};
constexpr size_t kHeader = 8 + 4 + 4 + 8 + 8;
// Nothing a real shader needs comes near; a corrupt size field must not
// make the reader allocate gigabytes.
constexpr uint64_t kMaxField = 64ull << 20;

struct Writer {
    std::string out;
    void u32(uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }
    void u64(uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }
    void str(const std::string& s) {
        u64(s.size());
        out += s;
    }
    void declared(const std::vector<Declared>& v) {
        u32(uint32_t(v.size()));
        for (const Declared& d : v) {
            str(d.name);
            u32(d.gl_type);
            u32(uint32_t(d.location));
            u32(uint32_t(d.binding));
            u32(uint32_t(d.array_size));
        }
    }
};

struct Reader {
    const char* p;
    size_t left;
    bool ok = true;
    bool take(void* dst, size_t n) {
        if (!ok || n > left) return ok = false;
        std::memcpy(dst, p, n);
        p += n;
        left -= n;
        return true;
    }
    uint32_t u32() {
        uint32_t v = 0;
        take(&v, 4);
        return v;
    }
    uint64_t u64() {
        uint64_t v = 0;
        take(&v, 8);
        return v;
    }
    std::string str() {
        const uint64_t n = u64();
        if (!ok || n > left || n > kMaxField) {
            ok = false;
            return {};
        }
        std::string s(p, size_t(n));
        p += n;
        left -= n;
        return s;
    }
    std::vector<Declared> declared() {
        const uint32_t n = u32();
        std::vector<Declared> v;
        if (!ok || n > left / 20) {  // each entry takes at least 24 bytes
            ok = false;
            return v;
        }
        for (uint32_t i = 0; i < n && ok; ++i) {
            Declared d;
            d.name = str();
            d.gl_type = u32();
            d.location = int(u32());
            d.binding = int(u32());
            d.array_size = int(u32());
            v.push_back(std::move(d));
        }
        return v;
    }
};

}  // namespace

uint64_t fnv1a64(const void* data, size_t size, uint64_t h) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string encode_entry(const std::string& key, const Translation& t) {
    Writer w;
    w.str(key);
    w.u32(uint32_t(t.ok) | uint32_t(t.deferred) << 1);
    w.str(t.log);
    w.str(t.link_log);
    w.u32(uint32_t(t.source_version));
    w.u32(t.source_es);
    w.u32(uint32_t(t.stage));
    w.str(std::string(reinterpret_cast<const char*>(t.spirv.data()), t.spirv.size() * 4));
    w.str(t.essl);
    w.str(std::string(reinterpret_cast<const char*>(t.essl_lines.data()), t.essl_lines.size() * 4));
    w.declared(t.reflection.inputs);
    w.declared(t.reflection.outputs);
    w.declared(t.reflection.uniforms);
    w.declared(t.reflection.blocks);
    Writer h;
    h.out.append(kMagic, 8);
    h.u32(kTranslatorVersion);
    h.u32(0);
    h.u64(w.out.size());
    h.u64(fnv1a64(w.out.data(), w.out.size()));
    return h.out + w.out;
}

std::shared_ptr<Translation> decode_entry(const std::string& bytes, const std::string& key) {
    if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, 8) != 0) return nullptr;
    Reader h{bytes.data() + 8, kHeader - 8};
    const uint32_t version = h.u32(), reserved = h.u32();
    const uint64_t size = h.u64(), sum = h.u64();
    if (version != kTranslatorVersion || reserved != 0 || size != bytes.size() - kHeader) return nullptr;
    const char* payload = bytes.data() + kHeader;
    if (fnv1a64(payload, size_t(size)) != sum) return nullptr;
    Reader r{payload, size_t(size)};
    if (r.str() != key || !r.ok) return nullptr;
    auto t = std::make_shared<Translation>();
    const uint32_t flags = r.u32();
    if (flags > 3) return nullptr;
    t->ok = flags & 1;
    t->deferred = flags & 2;
    t->log = r.str();
    t->link_log = r.str();
    t->source_version = int(r.u32());
    t->source_es = r.u32() != 0;
    const uint32_t stage = r.u32();
    if (stage > uint32_t(Stage::compute)) return nullptr;
    t->stage = Stage(stage);
    const std::string spv = r.str();
    if (spv.size() % 4) return nullptr;
    t->spirv.resize(spv.size() / 4);
    if (!spv.empty()) std::memcpy(t->spirv.data(), spv.data(), spv.size());
    t->essl = r.str();
    const std::string lines = r.str();
    if (lines.size() % 4) return nullptr;
    t->essl_lines.resize(lines.size() / 4);
    if (!lines.empty()) std::memcpy(t->essl_lines.data(), lines.data(), lines.size());
    t->reflection.inputs = r.declared();
    t->reflection.outputs = r.declared();
    t->reflection.uniforms = r.declared();
    t->reflection.blocks = r.declared();
    if (!r.ok || r.left != 0) return nullptr;
    return t;
}

}  // namespace mgl::gl
