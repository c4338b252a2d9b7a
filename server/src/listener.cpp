// Listeners: asio acceptors on one thread each. An accepted socket is handed
// over as a plain fd; the session's own thread does the rest, so a slow or
// hostile client never holds up accepting.
#include "listener.h"

#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <asio.hpp>
#include <thread>

namespace mgl::server {

namespace {

template <class Protocol>
class AsioListener final : public Listener {
public:
    using Acceptor = typename Protocol::acceptor;
    using Socket = typename Protocol::socket;

    AsioListener(OnAccept on_accept, Via via, std::string unlink_path)
        : acceptor_(io_), on_accept_(std::move(on_accept)), via_(via), unlink_path_(std::move(unlink_path)) {}

    ~AsioListener() override { close(); }

    Acceptor& acceptor() { return acceptor_; }

    void start() {
        accept_next();
        thread_ = std::thread([this] { io_.run(); });
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        asio::post(io_, [this] {
            asio::error_code ec;
            acceptor_.close(ec);
        });
        if (thread_.joinable()) thread_.join();
        if (!unlink_path_.empty()) ::unlink(unlink_path_.c_str());
    }

private:
    void accept_next() {
        acceptor_.async_accept([this](const asio::error_code& ec, Socket s) {
            if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
            if (!ec) {
                if (via_ == Via::tcp) wire::tune_tcp_socket(s.native_handle());
                on_accept_(wire::FramedSocket(s.release()), via_);
            } else {
                spdlog::warn("mgl server: accept failed: {}", ec.message());
            }
            accept_next();
        });
    }

    asio::io_context io_;
    Acceptor acceptor_;
    OnAccept on_accept_;
    Via via_;
    std::string unlink_path_;
    std::thread thread_;
    bool closed_ = false;
};

std::unique_ptr<Listener> open_unix(const wire::ListenSpec& spec, Listener::OnAccept cb, std::string* bound,
                                    std::string* error) {
    using P = asio::local::stream_protocol;
    if (spec.path.size() >= sizeof(sockaddr_un{}.sun_path)) {
        *error = fmt::format("socket path too long: {}", spec.path);
        return nullptr;
    }
    // A socket file left by a dead server is removed; a live server's is not.
    struct stat st{};
    if (::stat(spec.path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            *error = fmt::format("{} exists and is not a socket", spec.path);
            return nullptr;
        }
        asio::io_context io;
        P::socket probe(io);
        asio::error_code ec;
        probe.connect(P::endpoint(spec.path), ec);
        if (!ec) {
            *error = fmt::format("another server is already listening on {}", spec.path);
            return nullptr;
        }
        ::unlink(spec.path.c_str());
    }
    auto l = std::make_unique<AsioListener<P>>(std::move(cb), Via::unix_socket, spec.path);
    asio::error_code ec;
    l->acceptor().open(P(), ec);
    if (!ec) l->acceptor().bind(P::endpoint(spec.path), ec);
    // Only this user may connect: a unix socket needs no token by default.
    if (!ec) ::chmod(spec.path.c_str(), 0600);
    if (!ec) l->acceptor().listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        *error = fmt::format("cannot listen on {}: {}", spec.path, ec.message());
        return nullptr;
    }
    *bound = "unix:" + spec.path;
    l->start();
    return l;
}

std::unique_ptr<Listener> open_tcp(const wire::ListenSpec& spec, bool have_token, Listener::OnAccept cb,
                                   std::string* bound, std::string* error) {
    using P = asio::ip::tcp;
    asio::io_context io;
    P::resolver resolver(io);
    asio::error_code ec;
    auto results = resolver.resolve(spec.host, std::to_string(spec.port), P::resolver::passive, ec);
    if (ec || results.empty()) {
        *error = fmt::format("cannot resolve {}: {}", spec.host, ec ? ec.message() : "no address");
        return nullptr;
    }
    P::endpoint ep = results.begin()->endpoint();
    // The record stream drives a GPU: anyone who reaches the port must prove
    // who they are unless only this machine can reach it.
    if (!ep.address().is_loopback() && !have_token) {
        *error = fmt::format("a token is required to listen on the non-loopback address {} "
                             "(--token or MOBILEGL_IPC_TOKEN)", ep.address().to_string());
        return nullptr;
    }
    auto l = std::make_unique<AsioListener<P>>(std::move(cb), Via::tcp, std::string());
    l->acceptor().open(ep.protocol(), ec);
    if (!ec) l->acceptor().set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) l->acceptor().bind(ep, ec);
    if (!ec) l->acceptor().listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        *error = fmt::format("cannot listen on {}:{}: {}", spec.host, spec.port, ec.message());
        return nullptr;
    }
    P::endpoint local = l->acceptor().local_endpoint(ec);
    std::string host = local.address().to_string();
    *bound = local.address().is_v6() ? fmt::format("tcp://[{}]:{}", host, local.port())
                                     : fmt::format("tcp://{}:{}", host, local.port());
    l->start();
    return l;
}

}  // namespace

std::unique_ptr<Listener> Listener::open(const wire::ListenSpec& spec, bool have_token, OnAccept on_accept,
                                         std::string* bound, std::string* error) {
    if (spec.kind == wire::ListenSpec::Kind::unix_socket) return open_unix(spec, std::move(on_accept), bound, error);
    return open_tcp(spec, have_token, std::move(on_accept), bound, error);
}

}  // namespace mgl::server
