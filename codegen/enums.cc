#include "enums.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace mglgen {

bool load_enums(const std::string& path, std::vector<EnumEntry>& out, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = "cannot read " + path;
        return false;
    }
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        EnumEntry e;
        std::string value, flag;
        if (!std::getline(ls, e.name, '\t') || !std::getline(ls, value, '\t')) {
            error = path + ":" + std::to_string(n) + ": expected NAME<TAB>VALUE";
            return false;
        }
        std::getline(ls, flag);
        e.value = uint32_t(std::stoul(value, nullptr, 0));
        e.bitmask = flag == "bitmask";
        out.push_back(std::move(e));
    }
    return true;
}

void emit_enums(const std::vector<EnumEntry>& enums, std::vector<OutFile>& out) {
    // value -> the name a dump shows: in gl.xml order, the first name that is
    // neither a bit mask nor vendor-suffixed, else the first non-bitmask one.
    static const char* const kVendors[] = {"ARB", "EXT", "OES", "KHR", "NV", "NVX", "AMD", "ATI", "APPLE", "ANGLE",
                                           "ARM", "IMG", "INTEL", "MESA", "QCOM", "SGI", "SGIS", "SGIX", "SUN", "SUNX",
                                           "IBM", "HP", "3DFX", "OML", "PGI", "REND", "S3", "WIN", "GREMEDY", "INGR",
                                           "MESAX", "OVR", "VIV", "DMP", "FJ", "SEC"};
    auto suffixed = [&](const std::string& n) {
        std::string last = n.substr(n.find_last_of('_') + 1);
        for (const char* v : kVendors)
            if (last == v) return true;
        return false;
    };
    std::map<uint32_t, std::string> by_value;
    for (int pass = 0; pass < 2; ++pass)
        for (const auto& e : enums)
            if (!e.bitmask && (pass == 1 || !suffixed(e.name))) by_value.emplace(e.value, e.name);
    std::vector<const EnumEntry*> by_name;
    for (const auto& e : enums) by_name.push_back(&e);
    std::sort(by_name.begin(), by_name.end(), [](auto* a, auto* b) { return a->name < b->name; });
    std::ostringstream o;
    o << kGeneratedBanner << "#include <algorithm>\n#include <cstdint>\n#include <cstring>\n#include <iterator>\n\n"
      << "namespace mgl::gen {\nnamespace {\n"
      << "struct ValueName { uint32_t value; const char* name; };\nconst ValueName kByValue[] = {\n";
    for (auto& [v, n] : by_value) o << "    {" << v << "u, \"" << n << "\"},\n";
    o << "};\nstruct NameValue { const char* name; uint32_t value; };\nconst NameValue kByName[] = {\n";
    for (auto* e : by_name) o << "    {\"" << e->name << "\", " << e->value << "u},\n";
    o << "};\n}  // namespace\n\n"
      << "// The GL name of an enum value, nullptr when none.\n"
      << "const char* enum_name(uint32_t value) {\n"
      << "    auto it = std::lower_bound(std::begin(kByValue), std::end(kByValue), value,\n"
      << "        [](const ValueName& a, uint32_t v) { return a.value < v; });\n"
      << "    return it != std::end(kByValue) && it->value == value ? it->name : nullptr;\n}\n\n"
      << "// The value of a GL enum name, -1 when unknown.\n"
      << "int64_t enum_value(const char* name) {\n"
      << "    auto it = std::lower_bound(std::begin(kByName), std::end(kByName), name,\n"
      << "        [](const NameValue& a, const char* n) { return std::strcmp(a.name, n) < 0; });\n"
      << "    return it != std::end(kByName) && std::strcmp(it->name, name) == 0 ? int64_t(it->value) : -1;\n}\n\n"
      << "}  // namespace mgl::gen\n";
    out.push_back({"enums.cc", o.str()});
}

}  // namespace mglgen
