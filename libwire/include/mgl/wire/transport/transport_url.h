// The one place where transport and listen strings are parsed.
//
//   client (MOBILEGL_TRANSPORT):  direct | inproc | shm | shm:/path/to/socket | tcp://host:port
//   server (--listen):            unix:/path/to/socket | tcp://host:port
// Unknown values are errors with a message, never silent defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mgl::wire {

struct TransportSpec {
    enum class Kind { direct, inproc, shm, tcp };
    Kind kind = Kind::direct;
    std::string path;   // shm: the server's unix socket
    std::string host;   // tcp
    uint16_t port = 0;  // tcp
};

struct ListenSpec {
    enum class Kind { unix_socket, tcp };
    Kind kind = Kind::unix_socket;
    std::string path;
    std::string host;
    uint16_t port = 0;  // 0: any free port (tests)
};

std::optional<TransportSpec> parse_transport(std::string_view text, std::string* error);
std::optional<ListenSpec> parse_listen(std::string_view text, std::string* error);
const char* kind_name(TransportSpec::Kind k);

// $XDG_RUNTIME_DIR/mobilegl.sock, else /tmp/mobilegl-<uid>.sock.
std::string default_socket_path();

}  // namespace mgl::wire
