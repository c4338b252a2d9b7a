// The environment's factory: MOBILEGL_TRANSPORT and friends through
// libwire's transports (mgl::wire::connect).
//
//   MOBILEGL_TRANSPORT     direct | inproc | shm | shm:/path | tcp://host:port (default: shm, the
//                          local daemon at the default socket)
//   MOBILEGL_BACKEND_TYPE  espryt | magma (default: the server's)
//   MOBILEGL_IPC_TOKEN     token for a tcp server that is not on loopback
//
// `direct` needs a server-side applier in this process: the embedding code
// installs one with set_direct_appliers(); otherwise the vendor library uses
// the backends it embeds. Espryt there needs the host's EGL context current on
// the application's thread beside ours, which glvnd cannot do: it loads the
// host vendor libraries itself (backends/espryt/host_vendor.h).
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <unordered_map>

#include "connection.h"
#include "connection_env.h"
#include "gen/fingerprint.h"
#include "mgl/wire/transport/connect.h"
#ifdef MGL_CLIENT_EMBEDS_SERVER
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "mgl/server/server.h"
#include "mobilegl/server.h"
#ifdef MGL_HAVE_ESPRYT
#include "mgl/espryt/espryt.h"
#endif
#endif

namespace mgl::client {

namespace {

wire::ApplierFactory& direct_appliers() {
    static wire::ApplierFactory f;
    return f;
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

class TransportConnection : public Connection {
public:
    explicit TransportConnection(std::unique_ptr<wire::Connection> c) : c_(std::move(c)) {}
    ~TransportConnection() override {
        if (c_) c_->close();
    }
    wire::ClientLink& link() override { return *c_; }
    std::string transport() const override { return std::string(c_->transport()); }
    bool pipe_stats(PipeStats* out) override {
        const wire::LinkStats st = c_->stats();
        out->bytes = st.bytes;
        out->staged = st.staged;
        out->publishes = st.publishes;
        out->reply_waits = st.reply.waits;
        out->space_waits = st.data.waits;
        out->parks = st.parks();
        out->wakes_sent = st.wakes_sent;
        return true;
    }
    bool poll_gl_error(uint32_t context, uint32_t* error) override {
        wire::Event e;
        while (c_->poll_event(&e)) {
            // GL keeps an error until it is read: the first one per context.
            if (e.kind == wire::Event::Kind::gl_error && e.gl_error) pending_errors_.try_emplace(e.context, e.gl_error);
        }
        auto it = pending_errors_.find(context);
        if (it == pending_errors_.end()) return false;
        *error = it->second;
        pending_errors_.erase(it);
        return true;
    }

private:
    std::unique_ptr<wire::Connection> c_;
    std::unordered_map<uint32_t, uint32_t> pending_errors_;  // context -> error pushed by the server
};

}  // namespace

void set_direct_appliers(wire::ApplierFactory f) { direct_appliers() = std::move(f); }

namespace {

struct GlvndVendor {
    const void* exports = nullptr;
    void* vendor = nullptr;
};
GlvndVendor g_glvnd;

#ifdef MGL_CLIENT_EMBEDS_SERVER
mgl_server*& embedded_server() {
    static mgl_server* server = nullptr;
    return server;
}

// Stops the embedded server's threads at exit, before the objects they use
// are destroyed under them. atexit handlers run in reverse order of
// registration, and the host driver (Mesa's LLVM, NVIDIA) registers its own
// static destructors only when the backend first loads it: so this is
// registered again after every session opens, to run before all of them.
void stop_embedded_server() {
    if (embedded_server()) mgl_server_stop(embedded_server());
}
#endif

std::string requested_transport() {
    const std::string t = env("MOBILEGL_TRANSPORT");
    return t.empty() ? "shm" : t;
}

std::string requested_backend() {
    const std::string b = env("MOBILEGL_BACKEND_TYPE");
    return b.empty() ? "espryt" : b;  // the product's default backend
}

bool known_backend(const std::string& b) { return b == "espryt" || b == "magma" || b == "null"; }

#ifdef MGL_CLIENT_EMBEDS_SERVER
// The server and backends embedded in the program (inproc, direct) log through
// spdlog's default logger: sent to stderr, quiet unless MOBILEGL_LOG_LEVEL
// asks, so that the program's own stdout stays what it prints.
void log_server_to_stderr() {
    static const bool once = [] {
        auto logger = spdlog::stderr_color_mt("mobilegl-server");
        const std::string level = env("MOBILEGL_LOG_LEVEL");
        logger->set_level(level.empty() ? spdlog::level::warn : spdlog::level::from_str(level));
        spdlog::set_default_logger(logger);
        return true;
    }();
    (void)once;
}
#endif

// `inproc` in an unmodified program: nobody embedded a server, so the vendor
// starts one in this process (the product's embedded default). It lives until
// the process exits; its sessions end when their contexts' connections close.
bool ensure_inproc_server(std::string* error) {
    if (wire::default_inproc_endpoint()) return true;
#ifdef MGL_CLIENT_EMBEDS_SERVER
    static mgl_server* server = [] {
        log_server_to_stderr();
        // Created for the backend this process asks for: creating the server
        // makes one (to refuse an unknown name), which loads and initialises
        // that backend's host driver, and no other.
        const std::string backend = requested_backend();
        mgl_server* s = mgl_server_create(backend.c_str(), nullptr);
        if (s && !mgl_server_serve_inproc(s)) {
            mgl_server_destroy(s);
            return static_cast<mgl_server*>(nullptr);
        }
        embedded_server() = s;
        std::atexit(stop_embedded_server);
        return s;
    }();
    if (server) return true;
    if (error) *error = "could not start the embedded inproc server";
    return false;
#else
    if (error) *error = "no inproc server in this process and this build embeds none";
    return false;
#endif
}

#if defined(MGL_CLIENT_EMBEDS_SERVER) && defined(MGL_HAVE_ESPRYT)
// A GLX program's process may never load libEGL, so glvnd never hands us its
// EGL exports, which Espryt needs to load the host's EGL vendor beside glvnd
// (docs/ARCHITECTURE-espryt.md). Asking glvnd's libEGL for its client
// extensions makes it load its vendors (`mgl run` lists ours first), which
// calls our __egl_Main with them. Nothing is made current through libEGL, so
// the program's GLX binding stays ours.
void ask_glvnd_egl_for_its_exports() {
    void* libegl = ::dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!libegl) return;
    using QueryString = const char* (*)(void* display, int name);
    if (auto query = reinterpret_cast<QueryString>(::dlsym(libegl, "eglQueryString")))
        query(nullptr /* EGL_NO_DISPLAY */, 0x3055 /* EGL_EXTENSIONS */);
}
#endif

// The vendor library's own backends on the application's thread.
bool use_builtin_direct_appliers(const std::string& backend, std::string* error) {
#ifdef MGL_CLIENT_EMBEDS_SERVER
    log_server_to_stderr();
#ifdef MGL_HAVE_ESPRYT
    if (backend == "espryt") {
        if (!g_glvnd.exports) ask_glvnd_egl_for_its_exports();
        if (!g_glvnd.exports) {
            if (error) *error = "MOBILEGL_TRANSPORT=direct with Espryt needs the glvnd vendor library (libEGL_mobilegl)";
            return false;
        }
        if (!espryt::use_host_vendor_library(g_glvnd.exports, g_glvnd.vendor)) {
            if (error) *error = "MOBILEGL_TRANSPORT=direct: Espryt already opened the host EGL through libEGL in this process";
            return false;
        }
    }
#endif
    (void)backend;
    (void)error;
    return true;
#else
    (void)backend;
    if (error) *error = "this build embeds no backend for MOBILEGL_TRANSPORT=direct";
    return false;
#endif
}

}  // namespace

void set_glvnd_vendor(const void* exports, void* vendor) { g_glvnd = {exports, vendor}; }

std::unique_ptr<Connection> open_connection_from_env(std::string* error) {
    wire::ConnectOptions o;
    o.transport = requested_transport();
    o.wire_fingerprint = gen::kWireFingerprint;
    o.build_id = "mobilegl-client " MOBILEGL_VERSION;
    o.backend = requested_backend();
    if (!known_backend(o.backend)) {
        if (error) *error = "MOBILEGL_BACKEND_TYPE=" + o.backend + ": unknown backend (espryt, magma or null)";
        return nullptr;
    }
    if (o.transport == "inproc" && !ensure_inproc_server(error)) return nullptr;
    o.token = env("MOBILEGL_IPC_TOKEN");
    // Pushed GL errors cost the server a host glGetError per applied span:
    // asked for only where glGetError never asks the server (async).
    if (env("MOBILEGL_GL_ERRORS") != "async") o.capabilities &= ~wire::kCapEvents;
    o.direct_appliers = direct_appliers();
#ifdef MGL_CLIENT_EMBEDS_SERVER
    if (!o.direct_appliers && o.transport == "direct") {
        if (!use_builtin_direct_appliers(o.backend, error)) return nullptr;
        o.direct_appliers = server::builtin_server_options().appliers;
    }
#endif
    wire::ConnectResult r = wire::connect(o);
    if (!r.link) {
        if (error) *error = "MOBILEGL_TRANSPORT=" + o.transport + ": " + r.error;
        return nullptr;
    }
#ifdef MGL_CLIENT_EMBEDS_SERVER
    if (o.transport == "inproc" && embedded_server()) std::atexit(stop_embedded_server);
#endif
    return std::make_unique<TransportConnection>(std::move(r.link));
}

void prepare_connection_from_env() {
    const std::string transport = requested_transport();
    const std::string backend = requested_backend();
    if (!known_backend(backend)) return;  // said at context creation
    std::string ignored;  // a failure is reported where a session is asked for
    if (transport == "inproc") ensure_inproc_server(&ignored);
#ifdef MGL_CLIENT_EMBEDS_SERVER
    // direct: a first session's backend loads the host driver (Mesa's LLVM
    // start-up alone is ~170 ms); one made and dropped here does it now. Only
    // when no embedder installed its own appliers.
    if (transport == "direct" && !direct_appliers() && use_builtin_direct_appliers(backend, &ignored))
        (void)server::builtin_server_options().appliers(backend);
#endif
}

}  // namespace mgl::client
