#include "cache_format.h"

#include <cstring>

#include "byte_fields.h"
#include "translate.h"

namespace mgl::gl {

namespace {

constexpr char kMagic[8] = {'M', 'G', 'L', 'S', 'H', 'C', '0', '1'};
constexpr size_t kHeader = 8 + 4 + 4 + 8 + 8;
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
    FieldWriter w;
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
    w.str(t.colour_interpolation);
    FieldWriter h;
    h.out.append(kMagic, 8);
    h.u32(kTranslatorVersion);
    h.u32(0);
    h.u64(w.out.size());
    h.u64(fnv1a64(w.out.data(), w.out.size()));
    return h.out + w.out;
}

std::shared_ptr<Translation> decode_entry(const std::string& bytes, const std::string& key) {
    if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, 8) != 0) return nullptr;
    FieldReader h{bytes.data() + 8, kHeader - 8};
    const uint32_t version = h.u32(), reserved = h.u32();
    const uint64_t size = h.u64(), sum = h.u64();
    if (version != kTranslatorVersion || reserved != 0 || size != bytes.size() - kHeader) return nullptr;
    const char* payload = bytes.data() + kHeader;
    if (fnv1a64(payload, size_t(size)) != sum) return nullptr;
    FieldReader r{payload, size_t(size)};
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
    t->colour_interpolation = r.str();
    if (!r.ok || r.left != 0) return nullptr;
    return t;
}

}  // namespace mgl::gl
