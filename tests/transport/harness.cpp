#include "harness.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace mgl::test {

TempDir::TempDir() {
    char tmpl[] = "/tmp/mgl-test-XXXXXX";
    char* p = mkdtemp(tmpl);
    REQUIRE(p != nullptr);
    path = p;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

TestServer::TestServer(std::string token, wire::RingSizes rings) {
    server::ServerOptions o;
    o.appliers = wire::testrec::test_applier_factory(board);
    o.default_backend = "test";
    o.wire_fingerprint = wire::testrec::kFingerprint;
    o.build_id = "transport-tests";
    o.token = std::move(token);
    o.rings = rings;
    server = std::make_unique<server::Server>(std::move(o));
}

std::string TestServer::serve_shm() {
    std::string error;
    std::string bound = server->listen("unix:" + dir.path + "/server.sock", &error);
    REQUIRE_MESSAGE(!bound.empty(), error);
    return "shm:" + dir.path + "/server.sock";
}

std::string TestServer::serve_tcp() {
    std::string error;
    std::string bound = server->listen("tcp://127.0.0.1:0", &error);
    REQUIRE_MESSAGE(!bound.empty(), error);
    return bound;
}

void TestServer::serve_inproc() { inproc = server->inproc_endpoint(); }

wire::ConnectOptions client_options(const std::string& transport) {
    wire::ConnectOptions o;
    o.transport = transport;
    o.wire_fingerprint = wire::testrec::kFingerprint;
    o.build_id = "transport-tests";
    o.backend = "test";
    o.direct_appliers = wire::testrec::test_applier_factory();
    return o;
}

std::unique_ptr<wire::Connection> connect_ok(const wire::ConnectOptions& o) {
    wire::ConnectResult r = wire::connect(o);
    REQUIRE_MESSAGE(r.link != nullptr, r.error);
    return std::move(r.link);
}

bool stream_and_sync(wire::Connection& link, uint64_t first_seq, uint64_t n, uint32_t payload) {
    wire::testrec::TestEncoder enc(link);
    for (uint64_t i = 0; i < n; ++i) enc.work(first_seq + i, payload, uint8_t(i));
    uint64_t cookie = 0xc00c1e0000000000ull | n;
    std::span<const uint8_t> reply = enc.echo(cookie);
    if (reply.size() != 8) return false;
    uint64_t got;
    std::memcpy(&got, reply.data(), 8);
    return got == cookie;
}

std::string peer_path() {
    const char* p = std::getenv("MGL_TRANSPORT_PEER");
    REQUIRE_MESSAGE(p != nullptr, "MGL_TRANSPORT_PEER is not set (run through meson test)");
    return p;
}

Child::Child(std::vector<std::string> args) {
    int fds[2];
    REQUIRE(pipe2(fds, O_CLOEXEC) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
        dup2(fds[1], 1);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(fds[1]);
    out_fd_ = fds[0];
}

Child::~Child() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    if (out_fd_ >= 0) close(out_fd_);
}

std::string Child::wait_line(const std::string& needle, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        size_t nl;
        while ((nl = buffered_.find('\n')) != std::string::npos) {
            std::string line = buffered_.substr(0, nl);
            buffered_.erase(0, nl + 1);
            if (line.find(needle) != std::string::npos) return line;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return "";
        pollfd p{out_fd_, POLLIN, 0};
        if (poll(&p, 1, int(left.count())) <= 0) return "";
        char buf[512];
        ssize_t r = read(out_fd_, buf, sizeof buf);
        if (r <= 0) return "";
        buffered_.append(buf, size_t(r));
    }
}

void Child::kill9() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
}

int Child::wait_exit(std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            pid_ = -1;
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        usleep(10000);
    }
    return -1;
}

std::vector<std::string> our_shm_names() {
    std::vector<std::string> out;
    std::string prefix = fmt::format("mgl-{}-", getpid());
    if (DIR* d = opendir("/dev/shm")) {
        while (dirent* e = readdir(d))
            if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0) out.emplace_back(e->d_name);
        closedir(d);
    }
    return out;
}

}  // namespace mgl::test
