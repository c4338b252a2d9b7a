// Defaults of a build with the generated codec: the wire fingerprint of the
// schema and the backends this build has. (Linked instead of
// defaults_testrec.cpp once the codec library exists; the lead extends the
// backend list as backends land.)
#include "builtin_defaults.h"
#include "mgl/wire/thread_role.h"

#include <spdlog/spdlog.h>
#include "mgl/server/codec_applier.h"
#include "gen/fingerprint.h"
#include "gen/null_backend.h"
#ifdef MGL_HAVE_ESPRYT
#include "mgl/espryt/espryt.h"
#endif
#ifdef MGL_HAVE_MAGMA
#include "mgl/magma/magma.h"
#endif
#if defined(MGL_HAVE_ESPRYT) || defined(MGL_HAVE_MAGMA)
#include "compiler_process.h"
#endif

namespace mgl::server {

BuiltinDefaults builtin_defaults() {
#if defined(MGL_HAVE_ESPRYT) || defined(MGL_HAVE_MAGMA)
    // Forked now, while the process has not started its session threads
    // (backends/gl/shaders/compiler_process.h says why that matters).
    mgl::gl::start_compiler_process();
#endif
    BuiltinDefaults d;
    d.appliers = codec_applier_factory([](const std::string& name) -> std::unique_ptr<mgl::Backend> {
        if (name == "null") return std::make_unique<mgl::NullBackend>();
#ifdef MGL_HAVE_ESPRYT
        if (name == "espryt") {
            std::string why;
            auto b = mgl::espryt::create({}, &why);
            if (!b) spdlog::error("espryt backend unavailable: {}", why);
            return b;
        }
#endif
#ifdef MGL_HAVE_MAGMA
        if (name == "magma") {
            std::string why;
            auto b = mgl::magma::create({}, &why);
            if (!b) spdlog::error("magma backend unavailable: {}", why);
            return b;
        }
#endif
        return nullptr;
    });
#ifdef MGL_HAVE_ESPRYT
    d.warm_thread = [](const std::string& backend) {
        wire::ServerThreadScope serving;  // the host's EGL, never our own vendor library
        if (backend == "espryt") mgl::espryt::warm_thread();
    };
#endif
    d.wire_fingerprint = mgl::gen::kWireFingerprint;
    d.build_id = "mobilegl";
    // The backend docs/USER-GUIDE.md promises; null stays available by name.
#ifdef MGL_HAVE_ESPRYT
    d.backend = "espryt";
#else
    d.backend = "null";
#endif
    return d;
}

}  // namespace mgl::server
