#include "mgl/server/capture.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>

#include <fmt/format.h>

#include "gen/fingerprint.h"
#include "mgl/wire/capture/writer.h"
#include "mgl/wire/transport/control.h"

namespace mgl::server {

namespace {

std::mutex g_mutex;
bool g_set = false;
std::string g_dir;
std::atomic<uint64_t> g_sessions{0};

std::string capture_dir() {
    std::lock_guard lock(g_mutex);
    if (!g_set) {
        const char* env = std::getenv("MOBILEGL_CAPTURE_DIR");
        g_dir = env ? env : "";
        g_set = true;
    }
    return g_dir;
}

// The command line of this process, for the reader of a capture.
std::string program() {
    std::ifstream f("/proc/self/cmdline", std::ios::binary);
    std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    while (!s.empty() && s.back() == '\0') s.pop_back();
    for (char& c : s)
        if (c == '\0') c = ' ';
    return s.substr(0, 4096);
}

}  // namespace

void set_capture_dir(const std::string& dir) {
    std::lock_guard lock(g_mutex);
    g_dir = dir;
    g_set = true;
}

std::unique_ptr<wire::capture::Writer> open_session_capture(const std::string& backend) {
    const std::string dir = capture_dir();
    if (dir.empty()) return nullptr;
    wire::capture::HeaderInfo h;
    h.protocol_version = wire::kProtocolVersion;
    h.wire_fingerprint = gen::kWireFingerprint;
    h.build_id = MGL_BUILD_ID;
    h.backend = backend;
    h.program = program();
    h.pid = uint32_t(::getpid());
    h.session = ++g_sessions;
    h.started_unix_ms = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::system_clock::now().time_since_epoch()).count());
    const std::string path = fmt::format("{}/{}-{}.mglcap", dir, h.pid, h.session);
    return std::make_unique<wire::capture::Writer>(path, std::move(h));
}

}  // namespace mgl::server
