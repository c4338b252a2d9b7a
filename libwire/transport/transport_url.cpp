// Parsing of transport and listen strings: the only place that knows their
// syntax (see transport_url.h).
#include "mgl/wire/transport/transport_url.h"

#include <unistd.h>

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

namespace mgl::wire {

namespace {

constexpr std::string_view kTransportHelp = "expected direct, inproc, shm, shm:/path/to/socket or tcp://host:port";

// "host:port" or "[v6]:port".
bool split_host_port(std::string_view hp, std::string* host, uint16_t* port, std::string* error) {
    std::string_view h, p;
    if (!hp.empty() && hp.front() == '[') {
        size_t close = hp.find(']');
        if (close == std::string_view::npos || close + 1 >= hp.size() || hp[close + 1] != ':') {
            *error = fmt::format("bad address '{}': expected [ipv6]:port", hp);
            return false;
        }
        h = hp.substr(1, close - 1);
        p = hp.substr(close + 2);
    } else {
        size_t colon = hp.rfind(':');
        if (colon == std::string_view::npos) {
            *error = fmt::format("bad address '{}': missing :port", hp);
            return false;
        }
        h = hp.substr(0, colon);
        p = hp.substr(colon + 1);
    }
    unsigned v = 0;
    auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
    if (h.empty() || p.empty() || ec != std::errc() || ptr != p.data() + p.size() || v > 65535) {
        *error = fmt::format("bad address '{}': expected host:port with a port in 0..65535", hp);
        return false;
    }
    *host = std::string(h);
    *port = uint16_t(v);
    return true;
}

}  // namespace

const char* kind_name(TransportSpec::Kind k) {
    switch (k) {
    case TransportSpec::Kind::direct: return "direct";
    case TransportSpec::Kind::inproc: return "inproc";
    case TransportSpec::Kind::shm: return "shm";
    case TransportSpec::Kind::tcp: return "tcp";
    }
    return "?";
}

std::string default_socket_path() {
    if (const char* xdg = std::getenv("XDG_RUNTIME_DIR"); xdg && *xdg) return fmt::format("{}/mobilegl.sock", xdg);
    return fmt::format("/tmp/mobilegl-{}.sock", ::getuid());
}

std::optional<TransportSpec> parse_transport(std::string_view t, std::string* error) {
    TransportSpec s;
    if (t == "direct") { s.kind = TransportSpec::Kind::direct; return s; }
    if (t == "inproc") { s.kind = TransportSpec::Kind::inproc; return s; }
    if (t == "shm") {
        s.kind = TransportSpec::Kind::shm;
        s.path = default_socket_path();
        return s;
    }
    if (t.starts_with("shm:")) {
        s.kind = TransportSpec::Kind::shm;
        s.path = std::string(t.substr(4));
        if (s.path.empty()) {
            *error = fmt::format("bad transport '{}': empty socket path; {}", t, kTransportHelp);
            return std::nullopt;
        }
        return s;
    }
    if (t.starts_with("tcp://")) {
        s.kind = TransportSpec::Kind::tcp;
        std::string e;
        if (!split_host_port(t.substr(6), &s.host, &s.port, &e)) {
            *error = fmt::format("bad transport '{}': {}", t, e);
            return std::nullopt;
        }
        if (s.port == 0) {
            *error = fmt::format("bad transport '{}': port 0", t);
            return std::nullopt;
        }
        return s;
    }
    *error = fmt::format("unknown transport '{}': {}", t, kTransportHelp);
    return std::nullopt;
}

std::optional<ListenSpec> parse_listen(std::string_view t, std::string* error) {
    ListenSpec s;
    if (t.starts_with("unix:")) {
        s.kind = ListenSpec::Kind::unix_socket;
        s.path = std::string(t.substr(5));
        if (s.path.empty()) {
            *error = fmt::format("bad listen address '{}': empty socket path", t);
            return std::nullopt;
        }
        return s;
    }
    if (t.starts_with("tcp://")) {
        s.kind = ListenSpec::Kind::tcp;
        std::string e;
        if (!split_host_port(t.substr(6), &s.host, &s.port, &e)) {
            *error = fmt::format("bad listen address '{}': {}", t, e);
            return std::nullopt;
        }
        return s;
    }
    *error = fmt::format("unknown listen address '{}': expected unix:/path/to/socket or tcp://host:port", t);
    return std::nullopt;
}

}  // namespace mgl::wire
