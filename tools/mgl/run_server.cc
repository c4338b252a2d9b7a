// Why each piece is here (issue 11, items 5 and 7):
// - the token: a loopback tcp port is open to every local user; the unix
//   socket is too once someone else can reach the directory. A fresh token per
//   run goes to the server through an inherited pipe (never its command line,
//   which `ps` shows) and to the program through its environment.
// - the private directory: the socket is not guessable nor squattable in /tmp
//   and it goes away with the run.
// - PR_SET_PDEATHSIG: a SIGKILLed `mgl run` cannot clean up, so the server ends
//   by itself when its parent does (and removes the socket and the directory).
// - its own process group: a terminal's Ctrl-C reaches the program first; the
//   server is stopped after the program has ended.
#include "run_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

namespace mgl::tools {

namespace fs = std::filesystem;

namespace {

int free_loopback_port() {
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = -1;
    if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(s);
    return port;
}

bool tcp_accepts(int port) {
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(uint16_t(port));
    bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(s);
    return ok;
}

bool random_token(std::string* out) {
    unsigned char b[24];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = ::getrandom(b + got, sizeof b - got, 0);
        if (n <= 0) return false;
        got += size_t(n);
    }
    static const char hex[] = "0123456789abcdef";
    out->clear();
    for (unsigned char c : b) {
        out->push_back(hex[c >> 4]);
        out->push_back(hex[c & 15]);
    }
    return true;
}

}  // namespace

bool start_run_server(const std::string& self, const std::string& kind, const std::string& backend,
                      const std::string& server_log, RunServer* out, std::string* error) {
    RunServer s;
    if (!random_token(&s.token)) {
        *error = "no random bytes for a token";
        return false;
    }
    std::vector<std::string> sargs = {self, "server", "--backend", backend};
    std::string sock;
    int port = -1;
    if (kind == "shm") {
        const char* rt = std::getenv("XDG_RUNTIME_DIR");
        std::string tmpl = std::string(rt && *rt && fs::is_directory(rt) ? rt : "/tmp") + "/mgl-run-XXXXXX";
        if (!::mkdtemp(tmpl.data())) {  // mode 0700
            *error = std::string("cannot make a private directory: ") + std::strerror(errno);
            return false;
        }
        s.dir = tmpl;
        sock = s.dir + "/server.sock";
        sargs.insert(sargs.end(), {"--listen", "unix:" + sock, "--run-dir", s.dir});
        s.transport = "shm:" + sock;
    } else {
        port = free_loopback_port();
        if (port < 0) {
            *error = "no free loopback port";
            return false;
        }
        sargs.insert(sargs.end(), {"--listen", "tcp://127.0.0.1:" + std::to_string(port)});
        s.transport = "tcp://127.0.0.1:" + std::to_string(port);
    }
    int token_pipe[2];
    if (::pipe2(token_pipe, O_CLOEXEC) != 0) {
        *error = std::string("pipe: ") + std::strerror(errno);
        return false;
    }
    // The token fits in the pipe's buffer: written before the server starts.
    std::string line = s.token + "\n";
    if (::write(token_pipe[1], line.data(), line.size()) != ssize_t(line.size())) {
        *error = "cannot hand the token over";
        return false;
    }
    ::close(token_pipe[1]);
    sargs.insert(sargs.end(), {"--token-file", "/dev/fd/" + std::to_string(token_pipe[0])});

    const pid_t parent = ::getpid();
    s.pid = ::fork();
    if (s.pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) ::_exit(1);  // the run already ended
        ::setpgid(0, 0);
        ::fcntl(token_pipe[0], F_SETFD, 0);     // inherited by the server only
        ::unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");  // the server renders with the host's own EGL
        ::unsetenv("MOBILEGL_IPC_TOKEN");
        if (!server_log.empty()) {
            FILE* f = std::freopen(server_log.c_str(), "a", stderr);
            (void)f;
        }
        // The server logs to stdout (spdlog's default): never into the program's
        // stdout, but to stderr or the --server-log file opened just above.
        ::dup2(2, 1);
        std::vector<char*> cargs;
        for (auto& a : sargs) cargs.push_back(a.data());
        cargs.push_back(nullptr);
        ::execv(self.c_str(), cargs.data());
        std::perror("mgl run: exec mgl server");
        ::_exit(127);
    }
    ::close(token_pipe[0]);
    if (s.pid < 0) {
        *error = std::string("fork: ") + std::strerror(errno);
        if (!s.dir.empty()) fs::remove_all(s.dir);
        return false;
    }
    *out = s;  // from here stop_run_server cleans up
    for (int t = 0; t < 200; ++t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        if (!sock.empty() ? fs::exists(sock) : tcp_accepts(port)) return true;
        int st;
        if (::waitpid(s.pid, &st, WNOHANG) == s.pid) {
            out->pid = -1;
            stop_run_server(*out);
            *error = "the local server exited before listening";
            return false;
        }
    }
    stop_run_server(*out);
    *error = "the local server did not start listening";
    return false;
}

void stop_run_server(RunServer& s) {
    if (s.pid > 0) {
        ::kill(s.pid, SIGTERM);
        // A server stuck in a driver is not waited for forever.
        bool gone = false;
        for (int t = 0; t < 200 && !gone; ++t) {
            gone = ::waitpid(s.pid, nullptr, WNOHANG) == s.pid;
            if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        if (!gone) {
            std::fprintf(stderr, "mgl run: the local server did not stop in 10 s: killed\n");
            ::kill(s.pid, SIGKILL);
            ::waitpid(s.pid, nullptr, 0);
        }
        s.pid = -1;
    }
    if (!s.dir.empty()) {
        std::error_code ec;
        fs::remove_all(s.dir, ec);
        s.dir.clear();
    }
}

}  // namespace mgl::tools
