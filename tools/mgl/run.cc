// `mgl run`: runs an unmodified program on the stack, as vglrun or
// `apitrace trace` do. It points glvnd at our EGL vendor (keeping the
// machine's own vendors after it, for the embedded server's host EGL),
// chooses the transport and backend, and starts a local server when the
// transport needs one that is not given.
#include "run.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace mgl::tools {

namespace fs = std::filesystem;

namespace {

std::string env_or(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

// The vendor JSONs glvnd would load by itself, in its order.
std::vector<std::string> system_vendor_files() {
    std::vector<std::string> out;
    std::string dirs = env_or("__EGL_VENDOR_LIBRARY_DIRS", "/etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d");
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t colon = dirs.find(':', start);
        std::string d = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        std::vector<std::string> here;
        std::error_code ec;
        for (auto& e : fs::directory_iterator(d, ec))
            if (e.path().extension() == ".json") here.push_back(e.path().string());
        std::sort(here.begin(), here.end());
        out.insert(out.end(), here.begin(), here.end());
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return out;
}

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

void usage() {
    std::puts(
        "usage: mgl run [--transport inproc|shm|shm:PATH|tcp|tcp://HOST:PORT] [--backend espryt|magma|null]\n"
        "               [--server-log FILE] -- PROGRAM [ARGS...]\n"
        "\n"
        "Runs PROGRAM unmodified on MobileGL wire: its EGL and GLX calls go through our\n"
        "glvnd vendors over the chosen transport to a server rendering with the backend.\n"
        "  inproc (default)  server thread inside the program's process\n"
        "  direct            decoded on the program's own thread at each flush\n"
        "  shm, tcp          a local `mgl server` is started for the run\n"
        "  shm:PATH, tcp://HOST:PORT  an existing server (see `mgl server --help`)\n"
        "Defaults come from MOBILEGL_TRANSPORT and MOBILEGL_BACKEND_TYPE.");
}

}  // namespace

int run_main(int argc, char** argv, const std::string& self, const std::string& vendor_json,
             const std::string& glx_dir) {
    std::string transport = env_or("MOBILEGL_TRANSPORT", "inproc");
    std::string backend = env_or("MOBILEGL_BACKEND_TYPE", "espryt");
    std::string server_log;
    int i = 0;
    for (; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--") { ++i; break; }
        if (a == "--help" || a == "-h") { usage(); return 0; }
        if (a == "--transport" && i + 1 < argc) transport = argv[++i];
        else if (a == "--backend" && i + 1 < argc) backend = argv[++i];
        else if (a == "--server-log" && i + 1 < argc) server_log = argv[++i];
        else if (!a.empty() && a[0] == '-') { std::fprintf(stderr, "mgl run: unknown option %s\n", a.c_str()); return 2; }
        else break;
    }
    if (i >= argc) { usage(); return 2; }
    if (backend != "espryt" && backend != "magma" && backend != "null") {
        std::fprintf(stderr, "mgl run: unknown backend '%s' (espryt, magma or null)\n", backend.c_str());
        return 2;
    }
    if (!fs::exists(vendor_json)) {
        std::fprintf(stderr, "mgl run: our EGL vendor file %s is missing (build the client)\n", vendor_json.c_str());
        return 2;
    }

    // A local server for bare `shm` / `tcp`.
    pid_t server = -1;
    std::string sock;
    if (transport == "shm" || transport == "tcp") {
        std::vector<std::string> sargs = {self, "server", "--backend", backend};
        if (transport == "shm") {
            sock = "/tmp/mgl-run-" + std::to_string(::getpid()) + ".sock";
            sargs.insert(sargs.end(), {"--listen", "unix:" + sock});
            transport = "shm:" + sock;
        } else {
            int port = free_loopback_port();
            if (port < 0) { std::fprintf(stderr, "mgl run: no free loopback port\n"); return 1; }
            sargs.insert(sargs.end(), {"--listen", "tcp://127.0.0.1:" + std::to_string(port)});
            transport = "tcp://127.0.0.1:" + std::to_string(port);
        }
        server = ::fork();
        if (server == 0) {
            ::unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");  // the server renders with the host's own EGL
            if (!server_log.empty()) {
                FILE* f = std::freopen(server_log.c_str(), "a", stderr);
                (void)f;
            }
            // The server logs to stdout (spdlog's default): never into the program's
            // stdout, but to stderr or the --server-log file opened just above.
            ::dup2(2, 1);
            std::vector<char*> cargs;
            for (auto& s : sargs) cargs.push_back(s.data());
            cargs.push_back(nullptr);
            ::execv(self.c_str(), cargs.data());
            std::perror("mgl run: exec mgl server");
            ::_exit(127);
        }
        // Wait until it listens.
        bool up = false;
        for (int t = 0; t < 200 && !up; ++t) {
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
            if (!sock.empty()) up = fs::exists(sock);
            else up = tcp_accepts(std::stoi(transport.substr(transport.rfind(':') + 1)));
            int st;
            if (::waitpid(server, &st, WNOHANG) == server) {
                std::fprintf(stderr, "mgl run: the local server exited before listening\n");
                return 1;
            }
        }
        if (!up) {
            std::fprintf(stderr, "mgl run: the local server did not start listening\n");
            ::kill(server, SIGTERM);
            return 1;
        }
    }

    std::string vendors = vendor_json;
    for (auto& f : system_vendor_files())
        if (f.find("mobilegl") == std::string::npos) vendors += ":" + f;
    pid_t child = ::fork();
    if (child == 0) {
        ::setenv("__EGL_VENDOR_LIBRARY_FILENAMES", vendors.c_str(), 1);
        // GLX programs: glvnd loads libGLX_<name>.so.0 from the library path.
        ::setenv("__GLX_VENDOR_LIBRARY_NAME", "mobilegl", 1);
        const std::string ld = env_or("LD_LIBRARY_PATH", "");
        ::setenv("LD_LIBRARY_PATH", (ld.empty() ? glx_dir : glx_dir + ":" + ld).c_str(), 1);
        ::setenv("MOBILEGL_TRANSPORT", transport.c_str(), 1);
        ::setenv("MOBILEGL_BACKEND_TYPE", backend.c_str(), 1);
        ::execvp(argv[i], argv + i);
        std::fprintf(stderr, "mgl run: cannot run %s: %s\n", argv[i], std::strerror(errno));
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (server > 0) {
        ::kill(server, SIGTERM);
        ::waitpid(server, nullptr, 0);
        if (!sock.empty()) ::unlink(sock.c_str());
    }
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

}  // namespace mgl::tools
