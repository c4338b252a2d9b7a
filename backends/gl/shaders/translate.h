// The shader front end's entry: one application shader -> Translation
// (glsl_lift -> glslang -> SPIR-V -> SPIRV-Cross -> ESSL), through the
// shader cache when one is given.
#pragma once

#include <memory>

#include "spirv_to_essl.h"
#include "translation.h"

namespace mgl::gl {

class ShaderCache;

// Bumped whenever a change here changes what is emitted for some source:
// it is part of every cache key, so old entries stop matching.
inline constexpr uint32_t kTranslatorVersion = 17;

// Never null. A source that does not compile gives ok == false and the
// log the application's glGetShaderInfoLog answers.
std::shared_ptr<const Translation> translate(const ShaderInput& in, const EsslOptions& opt, ShaderCache* cache = nullptr);

}  // namespace mgl::gl
