// Formatting helpers for the generated dumper (kept out of the generated
// code so that 3000 dump functions compile quickly).
#pragma once

#include <cstdint>
#include <string>

#include "mgl/wire/record.h"

namespace mgl::wire {

void dump_enum(std::string& o, const char* name, uint32_t v);
void dump_hex(std::string& o, const char* name, uint64_t v);
void dump_value(std::string& o, const char* name, int64_t v);
void dump_value(std::string& o, const char* name, uint64_t v);
void dump_value(std::string& o, const char* name, int32_t v);
void dump_value(std::string& o, const char* name, uint32_t v);
void dump_value(std::string& o, const char* name, int16_t v);
void dump_value(std::string& o, const char* name, uint16_t v);
void dump_value(std::string& o, const char* name, int8_t v);
void dump_value(std::string& o, const char* name, uint8_t v);
void dump_value(std::string& o, const char* name, float v);
void dump_value(std::string& o, const char* name, double v);
void dump_bytes(std::string& o, const char* name, uint32_t bytes, bool out);
void dump_offset_or_bytes(std::string& o, const char* name, uint64_t offset, uint32_t bytes);
void dump_unknown(std::string& o, uint16_t op, uint32_t size);

}  // namespace mgl::wire

namespace mgl::gen {
// Generated (dumper.cc): one line describing a record.
void dump_record(const uint8_t* record, uint32_t size, std::string& out);
// Generated (enums.cc) from protocol/gl_enums.tsv.
const char* enum_name(uint32_t value);  // nullptr when unknown
int64_t enum_value(const char* name);    // -1 when unknown
}  // namespace mgl::gen
