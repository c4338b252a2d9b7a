// Magma's glslang work in the calling process: what shaders.h's
// compile_check, link_program and compile_internal run inside the GL front
// end's compiler process (shaders_isolated.cc), or here when there is none.
#pragma once

#include "shaders.h"

namespace mgl::magma {

bool compile_check_here(Stage stage, Api api, const std::string& source, std::string& log);
bool link_program_here(Api api, const StageSources& vs, const TessSources& tess, const StageSources& gs, const StageSources& fs,
                       const XfbRequest& xfb, const FragBindings& frag, bool alpha_test, bool clip_planes,
                       LinkedProgram& out, std::string& log);
bool link_compute_here(Api api, const std::string& cs, LinkedProgram& out, std::string& log);
std::vector<uint32_t> compile_internal_here(Stage stage, const std::string& source, std::string& log);

}  // namespace mgl::magma
