// What a context is served on Magma: the GL version and the extensions whose
// verbs, enums and shader features Magma really carries (nothing advertised
// that does not work; docs/ARCHITECTURE-magma.md, "Desktop contexts").
#pragma once

#include <string>
#include <vector>

#include "atomic_counter_rules.h"
#include "image_rules.h"
#include "device.h"

namespace mgl::magma {

// ES contexts: OpenGL ES 3.0. Desktop contexts: OpenGL 3.3, core or
// compatibility (fixed function is the compatibility issue's and fails loudly).
constexpr int kServedEs = 30, kServedDesktop = 33;

// GL_EXTENSIONS of a context of `api`/`profile` (gl::kApi*, gl::kProfile*) on `dev`.
// in_process: the session's client shares our address space, so buffer
// storage (mapped in the device's memory: buffer_storage.cc) is served.
std::vector<std::string> served_extensions(uint32_t api, uint32_t profile, const Device& dev, bool in_process);

// The compute and storage block limits of a desktop context (compute.cc);
// indexed: GL_MAX_COMPUTE_WORK_GROUP_COUNT/SIZE's element `index`. false: not one of them.
bool compute_limit(const Device& d, uint32_t pname, uint32_t index, bool indexed, int64_t* v);

// The atomic counter figures of a desktop context on `dev` (atomic_counters.cc);
// bindings 0: atomic counters are not served.
gl::AtomicCounterLimits counter_limits(const Device& dev);

// The image load/store figures of a desktop context on `dev` (images.cc);
// served false: images are not served. is_image: a GL image uniform type.
gl::ImageLimits image_limits(const Device& dev);
bool is_image(uint32_t gl_type);

}  // namespace mgl::magma
