// Length-prefixed fields of the front end's own byte formats (shader cache
// entries, compiler-process messages), in host byte order (the machine that
// writes them reads them). Every read is bounds-checked: a short or corrupt
// buffer sets ok = false, never reads past its end.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "translation.h"

namespace mgl::gl {

// Nothing a real shader needs comes near; a corrupt size field must not
// make the reader allocate gigabytes.
inline constexpr uint64_t kMaxField = 64ull << 20;

struct FieldWriter {
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

struct FieldReader {
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

}  // namespace mgl::gl
