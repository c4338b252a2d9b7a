// Edits of a SPIR-V module by the application's names: glslang's OpenGL
// target needs every interface variable located and every opaque uniform
// bound, so it invents both; GL lets the host (and glBindAttribLocation,
// glBindFragDataLocation, glUniform1i on samplers) decide what the
// application left open. The invented decorations are taken out here, so
// the ESSL emitted from the module does not bake them in.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace mgl::gl {

// Removes Location from variables (blocks: by block name) not in
// `keep_locations`, Binding from those not in `keep_bindings`, and every
// DescriptorSet (ESSL has none). A malformed module is left alone.
void strip_invented_layouts(std::vector<uint32_t>& spirv, const std::set<std::string>& keep_locations,
                            const std::set<std::string>& keep_bindings);

}  // namespace mgl::gl
