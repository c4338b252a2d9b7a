// The shader front end's entry: one application shader -> Translation
// (glsl_lift -> glslang -> SPIR-V -> SPIRV-Cross -> ESSL), through the
// shader cache when one is given.
#pragma once

#include <memory>
#include <vector>

#include "spirv_to_essl.h"
#include "translation.h"

namespace mgl::gl {

class ShaderCache;

// Bumped whenever a change here changes what is emitted for some source:
// it is part of every cache key, so old entries stop matching.
inline constexpr uint32_t kTranslatorVersion = 53;

// Both run glslang and SPIRV-Cross in the compiler process
// (compiler_process.h), so that a shader they crash on fails alone.
// Never null. A source that does not compile gives ok == false and the
// log the application's glGetShaderInfoLog answers.
std::shared_ptr<const Translation> translate(const ShaderInput& in, const EsslOptions& opt, ShaderCache* cache = nullptr);

// Several shader objects of one stage (each compiled alone by translate())
// linked into one stage, at glLinkProgram: GL lets a stage be made of
// several objects (one holding main, others functions it calls). ok false:
// the stage does not link, and `link_log` says why (a missing function,
// two mains, globals that disagree).
std::shared_ptr<const Translation> translate_stage(const std::vector<ShaderInput>& objects, const EsslOptions& opt,
                                                   ShaderCache* cache = nullptr);

// The same work in the calling process, without cache or isolation: what
// the compiler process's worker runs.
std::shared_ptr<Translation> translate_in_process(const ShaderInput& in, const EsslOptions& opt);
std::shared_ptr<Translation> link_in_process(const std::vector<ShaderInput>& objects, const EsslOptions& opt);

}  // namespace mgl::gl
