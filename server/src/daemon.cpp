// The core of `mgl server`: serve unix and tcp clients until SIGINT/SIGTERM.
#include "mgl/server/daemon.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mgl/server/server.h"

namespace {

constexpr const char* kUsage =
    "usage: mgl server --listen ADDRESS [--listen ADDRESS...] [--token-file PATH] [--backend NAME]\n"
    "\n"
    "Serves MobileGL clients until SIGINT or SIGTERM.\n"
    "\n"
    "  --listen unix:PATH       shm clients (MOBILEGL_TRANSPORT=shm:PATH) on a unix socket\n"
    "  --listen tcp://HOST:PORT tcp clients (MOBILEGL_TRANSPORT=tcp://HOST:PORT)\n"
    "  --token-file PATH        the token every socket client must give (first line of\n"
    "                           PATH, a file only its owner may read, or /dev/fd/N);\n"
    "                           mandatory unless every tcp listener is on loopback.\n"
    "                           Without one, a loopback tcp listener takes any local user\n"
    "  --token TOKEN            the same, on the command line (seen by every local user\n"
    "                           in ps until the server hides it: prefer --token-file)\n"
    "                           (default: $MOBILEGL_IPC_TOKEN)\n"
    "  --backend NAME           default backend for clients that name none\n"
    "                           (default: $MOBILEGL_BACKEND_TYPE, else the build's default)\n"
    "  --max-pending N          sockets waiting for their hello, per listener, before the\n"
    "                           oldest is dropped (default 128)\n"
    "  --run-dir DIR            a private directory made for this server (by mgl run):\n"
    "                           removed when the server stops\n"
    "  --session-memory BYTES   what one session may hold in server memory (suffix K, M\n"
    "                           or G: KiB, MiB, GiB); over it the session ends with a\n"
    "                           fault (default: 512M)\n"
    "  --capture-dir DIR        write every session's record stream into DIR/PID-N.mglcap\n"
    "                           (mgl replay, mgl dump; default: $MOBILEGL_CAPTURE_DIR)\n"
    "  --help                   this text\n";

// The first line of a token file. A file that others may read is no secret.
bool read_token_file(const std::string& path, std::string* token, std::string* error) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        *error = path + ": " + std::strerror(errno);
        return false;
    }
    if (S_ISREG(st.st_mode) && (st.st_mode & 077) != 0) {
        *error = path + ": readable by others (chmod 600 it)";
        return false;
    }
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) {
        *error = path + ": cannot read a token from it";
        return false;
    }
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (line.empty()) {
        *error = path + ": the token is empty";
        return false;
    }
    *token = line;
    return true;
}

// "1048576", "64K", "512M", "2G" -> bytes; 0 when malformed or zero.
uint64_t parse_bytes(const char* s) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(s, &end, 10);
    if (end == s || n == 0) return 0;
    int shift = 0;
    if (*end == 'K' || *end == 'k') shift = 10, ++end;
    else if (*end == 'M' || *end == 'm') shift = 20, ++end;
    else if (*end == 'G' || *end == 'g') shift = 30, ++end;
    if (*end || n > (~0ull >> shift)) return 0;
    return uint64_t(n) << shift;
}

}  // namespace

namespace mgl::server {

int server_main(int argc, char** argv, ServerOptions o) {
    std::vector<std::string> listens;
    std::string token, backend, run_dir;
    uint32_t max_pending = 0;
    if (const char* t = std::getenv("MOBILEGL_IPC_TOKEN")) token = t;
    if (const char* b = std::getenv("MOBILEGL_BACKEND_TYPE")) backend = b;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](const char* name) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "mgl server: %s needs a value\n%s", name, kUsage);
                return nullptr;
            }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "--listen") {
            const char* v = value("--listen");
            if (!v) return 2;
            listens.emplace_back(v);
        } else if (a == "--token") {
            const char* v = value("--token");
            if (!v) return 2;
            token = v;
            // Out of /proc/PID/cmdline (what ps shows) from here on.
            std::memset(argv[i], 'x', std::strlen(argv[i]));
        } else if (a == "--token-file") {
            const char* v = value("--token-file");
            if (!v) return 2;
            std::string error;
            if (!read_token_file(v, &token, &error)) {
                std::fprintf(stderr, "mgl server: --token-file %s\n", error.c_str());
                return 2;
            }
        } else if (a == "--max-pending") {
            const char* v = value("--max-pending");
            if (!v) return 2;
            char* end = nullptr;
            unsigned long n = std::strtoul(v, &end, 10);
            if (!*v || *end || n == 0 || n > 65536) {
                std::fprintf(stderr, "mgl server: --max-pending wants a number from 1 to 65536, not '%s'\n", v);
                return 2;
            }
            max_pending = uint32_t(n);
        } else if (a == "--run-dir") {
            const char* v = value("--run-dir");
            if (!v) return 2;
            run_dir = v;
        } else if (a == "--session-memory") {
            const char* v = value("--session-memory");
            if (!v) return 2;
            o.session_memory = parse_bytes(v);
            if (!o.session_memory) {
                std::fprintf(stderr, "mgl server: --session-memory '%s' is not a byte count\n%s", v, kUsage);
                return 2;
            }
        } else if (a == "--capture-dir") {
            const char* v = value("--capture-dir");
            if (!v) return 2;
            struct stat st{};
            if (::stat(v, &st) != 0 || !S_ISDIR(st.st_mode) || ::access(v, W_OK | X_OK) != 0) {
                std::fprintf(stderr, "mgl server: --capture-dir %s is not a folder this server can write\n", v);
                return 2;
            }
            // Read by the sessions' appliers (server/src/capture_session.cpp),
            // which the daemon makes through the builtin factory.
            ::setenv("MOBILEGL_CAPTURE_DIR", v, 1);
        } else if (a == "--backend") {
            const char* v = value("--backend");
            if (!v) return 2;
            backend = v;
        } else {
            std::fprintf(stderr, "mgl server: unknown argument '%s'\n%s", a.c_str(), kUsage);
            return 2;
        }
    }
    if (listens.empty()) {
        std::fprintf(stderr, "mgl server: nothing to serve: give at least one --listen\n%s", kUsage);
        return 2;
    }

    if (!backend.empty()) o.default_backend = backend;
    o.token = token;
    if (max_pending) o.max_pending_handshakes = max_pending;
    if (!o.appliers(o.default_backend)) {
        std::fprintf(stderr, "mgl server: unknown backend '%s'\n", o.default_backend.c_str());
        return 2;
    }

    // Block the stop signals before any thread starts so that every thread
    // inherits the mask and only sigwait() below receives them.
    sigset_t stop_signals, old_mask;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, &old_mask);

    int rc = 0;
    {
        Server server(std::move(o));
        for (const std::string& l : listens) {
            std::string error;
            std::string bound = server.listen(l, &error);
            if (bound.empty()) {
                std::fprintf(stderr, "mgl server: %s\n", error.c_str());
                rc = 1;
                break;
            }
            std::printf("mgl server: listening on %s\n", bound.c_str());
            if (token.empty() && bound.rfind("tcp:", 0) == 0)
                spdlog::warn("mgl server: {} takes clients without a token: any local user can connect "
                             "(give --token-file to require one)", bound);
        }
        std::fflush(stdout);
        if (rc == 0) {
            int sig = 0;
            sigwait(&stop_signals, &sig);
            spdlog::info("mgl server: {} received, stopping", sig == SIGINT ? "SIGINT" : "SIGTERM");
        }
        server.stop();
    }
    if (!run_dir.empty()) {
        // Only what the run put there: the socket (gone with its listener), nothing else.
        if (::rmdir(run_dir.c_str()) != 0)
            spdlog::warn("mgl server: cannot remove {}: {}", run_dir, std::strerror(errno));
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    return rc;
}

}  // namespace mgl::server

extern "C" int mgl_server_main(int argc, char** argv) {
    // A server process is started ahead of its clients: warm two session
    // threads there (ServerOptions::spare_threads).
    return mgl::server::server_main(argc, argv, mgl::server::builtin_server_options(2));
}
