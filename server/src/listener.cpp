// Listeners: asio acceptors on one thread each. An accepted socket waits for
// its hello on this same thread (PendingHandshakes), so neither a slow nor a
// silent client costs a thread or a session slot. Accept errors (out of fds,
// out of memory) pause accepting for a growing while and are logged once per
// episode: a full fd table must not turn into a busy loop writing the log.
#include "listener.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <asio.hpp>
#include <thread>

namespace mgl::server {

namespace {

using namespace std::chrono_literals;
constexpr auto kFirstPause = 100ms;
constexpr auto kMaxPause = 2000ms;
constexpr auto kQuiet = std::chrono::seconds(5);
using Clock = std::chrono::steady_clock;

template <class Protocol>
class AsioListener final : public Listener {
public:
    using Acceptor = typename Protocol::acceptor;
    using Socket = typename Protocol::socket;

    AsioListener(Listener::Config config, Via via, std::string unlink_path)
        : acceptor_(io_), backoff_(io_), via_(via), unlink_path_(std::move(unlink_path)),
          pending_(io_, via, config.limits, config.gate, std::move(config.on_hello), std::move(config.on_refusal)) {}

    ~AsioListener() override { close(); }

    Acceptor& acceptor() { return acceptor_; }

    void start() {
        accept_next();
        thread_ = std::thread([this] { run(); });
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        asio::post(io_, [this] {
            asio::error_code ec;
            acceptor_.close(ec);
            backoff_.cancel(ec);
            pending_.close_all();
        });
        if (thread_.joinable()) thread_.join();
        if (!unlink_path_.empty()) ::unlink(unlink_path_.c_str());
    }

private:
    // No exception leaves this thread: one escaping a handler is logged and
    // the loop goes on.
    void run() {
        for (;;) {
            try {
                io_.run();
                return;
            } catch (const std::exception& e) {
                spdlog::error("mgl server: listener: {}", e.what());
            }
        }
    }

    static std::string peer_of(Socket& s) {
        if constexpr (std::is_same_v<Protocol, asio::ip::tcp>) {
            asio::error_code ec;
            auto ep = s.remote_endpoint(ec);
            return ec ? std::string("tcp:?") : "tcp:" + ep.address().to_string();
        } else {
            // Every local peer of one uid shares a line at the token gate.
            ucred cred{};
            socklen_t len = sizeof cred;
            if (::getsockopt(s.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
                return fmt::format("unix:uid {}", cred.uid);
            return "unix:?";
        }
    }

    void accept_next() {
        acceptor_.async_accept([this](const asio::error_code& ec, Socket s) {
            if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
            if (!ec) {
                // The episode ends after 5 s without a failure.
                if (failures_ > 0 && Clock::now() - last_failure_ >= kQuiet) {
                    spdlog::warn("mgl server: accepting again ({} accepts failed in that episode)", failures_);
                    failures_ = 0;
                    pause_ = kFirstPause;
                }
                if (via_ == Via::tcp) wire::tune_tcp_socket(s.native_handle());
                std::string peer = peer_of(s);
                pending_.add(s.release(), std::move(peer));
                return accept_next();
            }
            // A client that gave up before we took it: nothing to pause for.
            if (ec == asio::error::connection_aborted) return accept_next();
            if (failures_++ == 0)
                spdlog::warn("mgl server: accept failed: {}: pausing accepts, growing pauses up to {} ms "
                             "(logged once until it accepts for {} s without a failure)",
                             ec.message(), kMaxPause.count(), kQuiet.count());
            last_failure_ = Clock::now();
            // Out of fds: the oldest silent socket is worth less than a new one.
            pending_.drop_oldest();
            backoff_.expires_after(pause_);
            pause_ = std::min<std::chrono::milliseconds>(pause_ * 2, kMaxPause);
            backoff_.async_wait([this](const asio::error_code& e) {
                if (!e && acceptor_.is_open()) accept_next();
            });
        });
    }

    asio::io_context io_;
    Acceptor acceptor_;
    asio::steady_timer backoff_;
    Via via_;
    std::string unlink_path_;
    PendingHandshakes pending_;
    std::chrono::milliseconds pause_ = kFirstPause;
    uint64_t failures_ = 0;  // in this episode
    Clock::time_point last_failure_;
    std::thread thread_;
    bool closed_ = false;
};

std::unique_ptr<Listener> open_unix(const wire::ListenSpec& spec, Listener::Config cfg, std::string* bound,
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
    auto l = std::make_unique<AsioListener<P>>(std::move(cfg), Via::unix_socket, spec.path);
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

std::unique_ptr<Listener> open_tcp(const wire::ListenSpec& spec, Listener::Config cfg, std::string* bound,
                                   std::string* error) {
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
    if (!ep.address().is_loopback() && !cfg.have_token) {
        *error = fmt::format("a token is required to listen on the non-loopback address {} "
                             "(--token-file, --token or MOBILEGL_IPC_TOKEN)", ep.address().to_string());
        return nullptr;
    }
    auto l = std::make_unique<AsioListener<P>>(std::move(cfg), Via::tcp, std::string());
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

std::unique_ptr<Listener> Listener::open(const wire::ListenSpec& spec, Config config, std::string* bound,
                                         std::string* error) {
    if (spec.kind == wire::ListenSpec::Kind::unix_socket) return open_unix(spec, std::move(config), bound, error);
    return open_tcp(spec, std::move(config), bound, error);
}

}  // namespace mgl::server
