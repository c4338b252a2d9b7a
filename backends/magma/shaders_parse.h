// A shader parsed by glslang the way Magma compiles it (shaders.cc), kept for
// the link (shaders_link.cc): the TShader and the strings it points into.
#pragma once

#include <glslang/Public/ShaderLang.h>

#include <memory>
#include <string>
#include <vector>

#include "shaders.h"

namespace mgl::magma {

struct Parsed {
    std::unique_ptr<glslang::TShader> shader;
    std::string preamble;
    std::string source, end;
    const char* strings[2];
};

// wrap_clip_z: the vertex shader maps clip z (no geometry shader follows it).
// compat_block: a geometry shader follows that reads the compatibility
// varyings as a block (compat_builtins.h): the vertex shader declares it.
// alpha_test: a desktop fragment stage's main is followed by GL's alpha test
// of its colour 0; clip_planes: a compatibility vertex or geometry stage
// clips against the user clip planes (link_program, shaders.h).
// nullptr: it does not compile (or is refused), `log` says why.
std::unique_ptr<Parsed> parse(Stage stage, Api api, const std::string& app_src, std::string& log,
                              const std::vector<std::string>& captured_builtins = {}, bool wrap_clip_z = true,
                              bool compat_block = false, bool alpha_test = false, bool clip_planes = false);

}  // namespace mgl::magma
