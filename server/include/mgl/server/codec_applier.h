// The real applier: the generated decoders (decode_stream) dispatching into a
// generated backend. Separate from the transports so that they build and
// test without the generated code.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "mgl/wire/transport/applier.h"

namespace mgl {
class Backend;
}

namespace mgl::server {

// Makes a backend by name; nullptr when the name is unknown.
using BackendFactory = std::function<std::unique_ptr<mgl::Backend>(const std::string& backend_name)>;

wire::ApplierFactory codec_applier_factory(BackendFactory backends);

}  // namespace mgl::server
