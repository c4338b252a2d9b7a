// How many interface locations a stage's user outputs (or inputs) take,
// from its SPIR-V: GL packs varyings into vec4 slots, glslang's Vulkan
// output gives every scalar or vector its own location (an int[58] takes 58),
// and a Vulkan device is only asked to serve maxVertexOutputComponents / 4 of
// them (lavapipe crashed on piglit's varying-packing-mixed-types, 60
// locations against its 32). The link checks this and fails loudly; packing
// is not done yet.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shaders.h"

namespace mgl::magma {

// One past the highest location the module's Output (`outputs`) or Input
// variables with a Location decoration occupy; built-ins are not counted.
// 0 for a module it cannot read.
uint32_t interface_locations(const std::vector<uint32_t>& spv, bool outputs);

// Whether a linked program's vertex and geometry outputs and fragment inputs
// fit the device's locations; false with `why` for the link log.
bool varyings_fit(const LinkedProgram& lp, const VkPhysicalDeviceLimits& limits, std::string& why);

}  // namespace mgl::magma
