// A host driver's compile log about the ESSL the front end emitted, with
// each "S:L" line reference (Mesa: "0:12(5): error", others: "ERROR: 0:12:")
// turned into the application's source line, from the table spirv_to_essl
// builds out of the SPIR-V's OpLine. References the table does not know
// are left as they are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mgl::gl {

std::string map_host_log(const std::string& log, const std::vector<uint32_t>& essl_lines);

}  // namespace mgl::gl
