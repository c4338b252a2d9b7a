// glslang's OpenGL SPIR-V target: a lifted source (glsl_lift.h) becomes a
// SPIR-V module with the application's names, plus what it declares.
// Locations and bindings the application did not write are auto-mapped (the
// target needs them) and listed, so that spirv_names.h can take them out
// again before ESSL is emitted.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "glsl_lift.h"
#include "translation.h"

namespace mgl::gl {

struct SpirvResult {
    bool ok = false;
    bool parsed = false;  // the source compiled; `ok` false then means its stage did not link alone
    std::string log;
    std::vector<uint32_t> spirv;
    Reflection reflection;
    // Names (variables; blocks by block name) whose location or binding the
    // application wrote.
    std::set<std::string> written_locations, written_bindings;
};

SpirvResult glsl_to_spirv(Stage stage, const Lifted& lifted);
// Several shader objects of one stage, linked as one (GL lets a stage be made
// of several; glslang links them as compilation units of one stage).
SpirvResult glsl_to_spirv(Stage stage, const std::vector<Lifted>& units);

// The application's GLSL 1.10/1.20 source checked by glslang at the version
// it was written in, before the lift compiles it under 3.30's rules (which
// accept what 1.10 forbids: `%`, `in`/`out`, `centroid`, `invariant`,
// struct varyings...). "" when it compiles, else glslang's log.
std::string check_as_written(Stage stage, const std::vector<std::string>& sources, int version);

}  // namespace mgl::gl
