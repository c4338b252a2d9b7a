// Shared helpers of the transport tests: a server with the test records, a
// client connected to it by any transport, child processes.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "mgl/server/server.h"
#include "mgl/wire/transport/connect.h"
#include "mgl/wire/transport/test_records.h"

namespace mgl::test {

// A fresh directory under /tmp, removed with its contents at destruction.
struct TempDir {
    TempDir();
    ~TempDir();
    std::string path;
};

// A server in this process applying the test records.
struct TestServer {
    explicit TestServer(std::string token = "", wire::RingSizes rings = {});
    std::string serve_shm();   // returns the client transport string "shm:PATH"
    std::string serve_tcp();   // "tcp://127.0.0.1:PORT"
    void serve_inproc();       // sets the process default endpoint

    TempDir dir;
    std::shared_ptr<wire::testrec::TallyBoard> board = std::make_shared<wire::testrec::TallyBoard>();
    std::unique_ptr<server::Server> server;
    std::shared_ptr<wire::InprocEndpoint> inproc;
};

wire::ConnectOptions client_options(const std::string& transport);
std::unique_ptr<wire::Connection> connect_ok(const wire::ConnectOptions& o);

// Streams `n` work records (checked in order by the server) then an echo
// round trip; true when the echo came back (so every record was applied).
bool stream_and_sync(wire::Connection& link, uint64_t first_seq, uint64_t n, uint32_t payload);

// A child process running the test peer (tests/transport/peer.cpp).
class Child {
public:
    explicit Child(std::vector<std::string> args);
    ~Child();  // SIGKILL + reap if still running
    // Reads stdout lines until one contains `needle`; returns that line ("" on timeout/EOF).
    std::string wait_line(const std::string& needle, std::chrono::milliseconds timeout);
    void kill9();
    int wait_exit(std::chrono::milliseconds timeout);  // exit code, -1 on timeout/signal
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int out_fd_ = -1;
    std::string buffered_;
};

std::string peer_path();

// Names in /dev/shm that this process's server created.
std::vector<std::string> our_shm_names();

}  // namespace mgl::test
