#include "mgl/wire/dump_support.h"

#include <fmt/format.h>

#include <iterator>

namespace mgl::wire {

void dump_enum(std::string& o, const char* name, uint32_t v) {
    if (const char* n = gen::enum_name(v)) fmt::format_to(std::back_inserter(o), "{}={}", name, n);
    else fmt::format_to(std::back_inserter(o), "{}=0x{:04x}", name, v);
}
void dump_hex(std::string& o, const char* name, uint64_t v) { fmt::format_to(std::back_inserter(o), "{}=0x{:x}", name, v); }
void dump_value(std::string& o, const char* name, int64_t v) { fmt::format_to(std::back_inserter(o), "{}={}", name, v); }
void dump_value(std::string& o, const char* name, uint64_t v) { fmt::format_to(std::back_inserter(o), "{}={}", name, v); }
void dump_value(std::string& o, const char* name, int32_t v) { dump_value(o, name, int64_t(v)); }
void dump_value(std::string& o, const char* name, uint32_t v) { dump_value(o, name, uint64_t(v)); }
void dump_value(std::string& o, const char* name, int16_t v) { dump_value(o, name, int64_t(v)); }
void dump_value(std::string& o, const char* name, uint16_t v) { dump_value(o, name, uint64_t(v)); }
void dump_value(std::string& o, const char* name, int8_t v) { dump_value(o, name, int64_t(v)); }
void dump_value(std::string& o, const char* name, uint8_t v) { dump_value(o, name, uint64_t(v)); }
void dump_value(std::string& o, const char* name, float v) { fmt::format_to(std::back_inserter(o), "{}={}", name, v); }
void dump_value(std::string& o, const char* name, double v) { fmt::format_to(std::back_inserter(o), "{}={}", name, v); }
void dump_bytes(std::string& o, const char* name, uint32_t bytes, bool out) {
    fmt::format_to(std::back_inserter(o), "{}=<{} {}>", name, bytes, out ? "bytes out" : "bytes");
}
void dump_offset_or_bytes(std::string& o, const char* name, uint64_t offset, uint32_t bytes) {
    if (bytes) dump_bytes(o, name, bytes, false);
    else fmt::format_to(std::back_inserter(o), "{}=@{}", name, offset);
}
void dump_unknown(std::string& o, uint16_t op, uint32_t size) {
    fmt::format_to(std::back_inserter(o), "<opcode {} ({} bytes)>", op, size);
}

}  // namespace mgl::wire
