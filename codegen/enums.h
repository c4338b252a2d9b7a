// The GL enum table (protocol/gl_enums.tsv): name <-> value lookups for the
// dumper and the tools.
#pragma once
#include <string>
#include <vector>

#include "emit.h"

namespace mglgen {

struct EnumEntry {
    std::string name;
    uint32_t value = 0;
    bool bitmask = false;
};

bool load_enums(const std::string& path, std::vector<EnumEntry>& out, std::string& error);
void emit_enums(const std::vector<EnumEntry>& enums, std::vector<OutFile>& out);  // enums.cc

}  // namespace mglgen
