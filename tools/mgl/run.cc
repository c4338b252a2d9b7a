// `mgl run`: runs an unmodified program on the stack, as vglrun or
// `apitrace trace` do. It points glvnd at our EGL vendor (keeping the
// machine's own vendors after it, for the embedded server's host EGL),
// chooses the transport and backend, and starts a local server when the
// transport needs one that is not given.
#include "run.h"
#include "run_server.h"

#include <signal.h>
#include <sys/prctl.h>
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
#include <string_view>
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

// The signal that asked this run to end (0: none yet), and the program to
// pass it on to. A terminal's Ctrl-C already reached the program (same
// process group): only signals sent by a process are passed on.
volatile sig_atomic_t g_stop_signal = 0;
volatile pid_t g_program = -1;

void on_stop_signal(int sig, siginfo_t* info, void*) {
    g_stop_signal = sig;
    if (g_program > 0 && info && info->si_code == SI_USER) ::kill(g_program, sig);
}

void catch_stop_signals() {
    struct sigaction sa{};
    sa.sa_sigaction = on_stop_signal;
    sa.sa_flags = SA_SIGINFO;  // no SA_RESTART: waitpid returns EINTR
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

// Waits for the program; once a stop signal came, gives it 5 s to end.
int wait_program(pid_t child) {
    int status = 0;
    for (;;) {
        if (g_stop_signal == 0) {
            if (::waitpid(child, &status, 0) == child) return status;
            if (errno != EINTR) return status;
            continue;
        }
        for (int t = 0; t < 100; ++t) {
            if (::waitpid(child, &status, WNOHANG) == child) return status;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        std::fprintf(stderr, "mgl run: %s did not end 5 s after signal %d: killed\n", "the program",
                     int(g_stop_signal));
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        return status;
    }
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
        std::string* target = a == "--transport" ? &transport : a == "--backend" ? &backend
                            : a == "--server-log" ? &server_log : nullptr;
        if (target) {
            // A value that is missing (or is the next option) is named, not
            // taken as "unknown option".
            if (i + 1 >= argc || std::string_view(argv[i + 1]).starts_with("--")) {
                std::fprintf(stderr, "mgl run: %s needs a value\n", a.c_str());
                return 2;
            }
            *target = argv[++i];
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "mgl run: unknown option %s\n", a.c_str());
            return 2;
        } else {
            break;
        }
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

    // A local server for bare `shm` / `tcp`, private to this run.
    catch_stop_signals();
    RunServer server;
    if (transport == "shm" || transport == "tcp") {
        std::string error;
        if (!start_run_server(self, transport, backend, server_log, &server, &error)) {
            std::fprintf(stderr, "mgl run: %s\n", error.c_str());
            return 1;
        }
        transport = server.transport;
    }

    std::string vendors = vendor_json;
    for (auto& f : system_vendor_files())
        if (f.find("mobilegl") == std::string::npos) vendors += ":" + f;
    const pid_t parent = ::getpid();
    pid_t child = ::fork();
    if (child == 0) {
        // A SIGKILLed run cannot pass anything on: the program ends with it.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) ::_exit(1);
        for (int sig : {SIGTERM, SIGINT, SIGHUP}) ::signal(sig, SIG_DFL);
        ::setenv("__EGL_VENDOR_LIBRARY_FILENAMES", vendors.c_str(), 1);
        // GLX programs: glvnd loads libGLX_<name>.so.0 from the library path.
        ::setenv("__GLX_VENDOR_LIBRARY_NAME", "mobilegl", 1);
        const std::string ld = env_or("LD_LIBRARY_PATH", "");
        ::setenv("LD_LIBRARY_PATH", (ld.empty() ? glx_dir : glx_dir + ":" + ld).c_str(), 1);
        ::setenv("MOBILEGL_TRANSPORT", transport.c_str(), 1);
        ::setenv("MOBILEGL_BACKEND_TYPE", backend.c_str(), 1);
        if (!server.token.empty()) ::setenv("MOBILEGL_IPC_TOKEN", server.token.c_str(), 1);
        ::execvp(argv[i], argv + i);
        std::fprintf(stderr, "mgl run: cannot run %s: %s\n", argv[i], std::strerror(errno));
        ::_exit(127);
    }
    g_program = child;
    if (g_stop_signal != 0 && child > 0) ::kill(child, g_stop_signal);  // came during the fork
    int status = child > 0 ? wait_program(child) : 0;
    stop_run_server(server);
    if (child < 0) {
        std::fprintf(stderr, "mgl run: fork: %s\n", std::strerror(errno));
        return 1;
    }
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

}  // namespace mgl::tools
