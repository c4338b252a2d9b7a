// SPIRV-Cross (its C API) turns the front end's SPIR-V into ESSL for the
// host: highp by default (desktop GLSL has no lower precision to honour), a
// precision for every sampler type the version knows (ESSL gives most of
// them none), and the fragment outputs located as GL would have them at
// link time.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "resource_bindings.h"
#include "translation.h"

namespace mgl::gl {

// Fragment output name -> location, from glBindFragDataLocation; applied to
// outputs whose location the source did not write.
using OutputBindings = std::map<std::string, int>;

// ESSL for `t` (t.spirv). For a fragment shader with more than one output,
// outputs neither written nor bound get the lowest free locations in
// declaration order (ESSL requires every one located then). False and `log`
// on a SPIRV-Cross error.
// `lines` (optional): per ESSL line, the application's source line (from
// the SPIR-V's OpLine; see host_log.h).
// `resources` (optional): host bindings for the images and storage blocks
// the source left unbound (resource_bindings.h), applied at link.
bool spirv_to_essl(const Translation& t, const EsslOptions& opt, const OutputBindings& bound, std::string& essl,
                   std::string& log, std::vector<uint32_t>* lines = nullptr,
                   const ResourceBindings* resources = nullptr);

}  // namespace mgl::gl
