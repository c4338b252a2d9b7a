#include "connection.h"

#include <mutex>

namespace mgl::client {

namespace {
std::mutex g_mu;
ConnectionFactory& factory() {
    static ConnectionFactory f;
    return f;
}
}  // namespace

std::unique_ptr<Connection> open_connection(std::string* error) {
    ConnectionFactory f;
    {
        std::lock_guard<std::mutex> g(g_mu);
        f = factory();
    }
    std::string err;
    std::unique_ptr<Connection> c = f ? f(&err) : open_connection_from_env(&err);
    if (!c && error) *error = err.empty() ? "cannot open a MobileGL session" : err;
    return c;
}

void set_connection_factory(ConnectionFactory f) {
    std::lock_guard<std::mutex> g(g_mu);
    factory() = std::move(f);
}

}  // namespace mgl::client
