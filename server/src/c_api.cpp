// The embedding C API (include/mobilegl/server.h) over mgl::server::Server.
#include "mobilegl/server.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <mutex>
#include <string>

#include "mgl/server/server.h"
#include "mgl/wire/transport/transport_url.h"

struct mgl_inproc_endpoint {
    std::shared_ptr<mgl::wire::InprocEndpoint> endpoint;
};

struct mgl_server {
    std::unique_ptr<mgl::server::Server> server;
    mgl_inproc_endpoint inproc;
    mutable std::mutex mutex;
    std::string error;

    void fail(std::string e) {
        std::lock_guard lock(mutex);
        error = std::move(e);
    }
};

std::shared_ptr<mgl::wire::InprocEndpoint> mgl::server::inproc_endpoint_of(const mgl_inproc_endpoint* h) {
    return h ? h->endpoint : nullptr;
}

extern "C" {

mgl_server* mgl_server_create(const char* backend, const char* token) {
    try {
        mgl::server::ServerOptions o = mgl::server::builtin_server_options();
        if (backend && *backend) o.default_backend = backend;
        if (token) o.token = token;
        // Refuse an unknown backend now rather than at the first client.
        if (!o.appliers(o.default_backend)) {
            spdlog::error("mgl server: no backend named '{}' in this build", o.default_backend);
            return nullptr;
        }
        auto* s = new mgl_server;
        s->server = std::make_unique<mgl::server::Server>(std::move(o));
        return s;
    } catch (const std::exception& e) {
        spdlog::error("mgl server: cannot create: {}", e.what());
        return nullptr;
    }
}

mgl_inproc_endpoint* mgl_server_serve_inproc(mgl_server* s) {
    if (!s) return nullptr;
    std::lock_guard lock(s->mutex);
    s->inproc.endpoint = s->server->inproc_endpoint();
    return &s->inproc;
}

int mgl_server_listen(mgl_server* s, const char* address) {
    if (!s || !address) return -1;
    std::string error;
    if (s->server->listen(address, &error).empty()) {
        s->fail(error);
        spdlog::error("mgl server: {}", error);
        return -1;
    }
    return 0;
}

int mgl_server_serve_shm(mgl_server* s, const char* socket_path) {
    if (!s) return -1;
    std::string path = socket_path && *socket_path ? socket_path : mgl::wire::default_socket_path();
    return mgl_server_listen(s, ("unix:" + path).c_str());
}

int mgl_server_set_session_memory(mgl_server* s, unsigned long long bytes) {
    if (!s) return -1;
    s->server->set_session_memory(bytes);
    return 0;
}

unsigned mgl_server_session_count(const mgl_server* s) { return s ? unsigned(s->server->session_count()) : 0; }

const char* mgl_server_last_error(const mgl_server* s) {
    if (!s) return "no server";
    std::lock_guard lock(s->mutex);
    return s->error.c_str();
}

void mgl_server_stop(mgl_server* s) {
    if (s) s->server->stop();
}

void mgl_server_destroy(mgl_server* s) { delete s; }

}  // extern "C"
