// `mgl capture`: `mgl run` with the server capturing. The tap is the
// server's (every record after chunk reassembly and staging, the same bytes
// on every transport): the server embedded in the program (inproc, direct)
// or the private `mgl server` of shm and tcp reads MOBILEGL_CAPTURE_DIR and
// writes one segment per session there; this command then joins the
// segments, in session order, into FILE.
#include "capture.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "mgl/wire/capture/reader.h"
#include "run.h"

namespace mgl::tools {

namespace fs = std::filesystem;

namespace {

void usage() {
    std::puts(
        "usage: mgl capture -o FILE [--transport inproc|direct|shm|tcp] [--backend B] -- PROGRAM [ARGS...]\n"
        "\n"
        "Runs PROGRAM on the stack as `mgl run` does and writes every session's record\n"
        "stream into FILE (zstd blocks, a header per session): replay it with `mgl replay`,\n"
        "read it with `mgl dump`. A server of your own (shm:PATH, tcp://HOST:PORT) captures\n"
        "with `mgl server --capture-dir DIR` instead.");
}

// PID-N.mglcap in session order (N counts the sessions of one process).
std::vector<fs::path> segments_in(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".mglcap") out.push_back(e.path());
    auto key = [](const fs::path& p) {
        const std::string s = p.stem().string();
        const size_t dash = s.find('-');
        return std::make_pair(std::strtoull(s.c_str(), nullptr, 10),
                              dash == std::string::npos ? 0ull : std::strtoull(s.c_str() + dash + 1, nullptr, 10));
    };
    std::sort(out.begin(), out.end(), [&](auto& a, auto& b) { return key(a) < key(b); });
    return out;
}

}  // namespace

int capture_main(int argc, char** argv, const std::string& self, const std::string& vendor_json,
                 const std::string& glx_dir) {
    std::string out;
    std::vector<char*> run_args;
    bool program = false;
    for (int i = 0; i < argc; ++i) {
        std::string_view a = argv[i];
        if (!program && (a == "--help" || a == "-h")) { usage(); return 0; }
        if (!program && (a == "-o" || a == "--output")) {
            if (i + 1 >= argc) { std::fprintf(stderr, "mgl capture: -o needs a file\n"); return 2; }
            out = argv[++i];
            continue;
        }
        if (a == "--") program = true;
        if (!program && a == "--transport" && i + 1 < argc) {
            std::string_view t = argv[i + 1];
            if (t != "inproc" && t != "direct" && t != "shm" && t != "tcp") {
                std::fprintf(stderr,
                             "mgl capture: --transport %s: only a server this command starts captures (inproc, "
                             "direct, shm, tcp); for your own server use `mgl server --capture-dir DIR`\n",
                             argv[i + 1]);
                return 2;
            }
        }
        run_args.push_back(argv[i]);
    }
    if (out.empty()) { usage(); return 2; }
    const fs::path target = fs::absolute(out);
    // Next to FILE, so that the join is on one file system; private (0700).
    std::string tmpl = (target.parent_path() / ".mgl-capture-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
        std::fprintf(stderr, "mgl capture: cannot make a folder next to %s: %s\n", out.c_str(), std::strerror(errno));
        return 1;
    }
    const fs::path dir = tmpl;
    ::setenv("MOBILEGL_CAPTURE_DIR", dir.c_str(), 1);
    run_args.push_back(nullptr);
    const int rc = run_main(int(run_args.size()) - 1, run_args.data(), self, vendor_json, glx_dir);
    ::unsetenv("MOBILEGL_CAPTURE_DIR");

    const std::vector<fs::path> segments = segments_in(dir);
    int status = rc;
    if (segments.empty()) {
        std::fprintf(stderr, "mgl capture: the program opened no session on the stack: nothing captured\n");
        status = rc ? rc : 1;
    } else {
        std::ofstream o(target, std::ios::binary | std::ios::trunc);
        for (const fs::path& p : segments) {
            std::ifstream in(p, std::ios::binary);
            o << in.rdbuf();
        }
        o.close();
        if (!o) {
            std::fprintf(stderr, "mgl capture: cannot write %s\n", out.c_str());
            status = 1;
        } else {
            // Read back whole: says what was captured and that it reads.
            wire::capture::Reader r;
            wire::capture::HeaderInfo h;
            uint64_t records = 0, frames = 0, sessions = 0;
            std::span<const uint8_t> block;
            uint32_t n;
            if (r.open(target.string()))
                while (r.next_segment(&h)) {
                    ++sessions;
                    while (r.next_block(&block, &n)) {}
                    records += r.summary().records;
                    frames += r.summary().frames;
                }
            if (!r.error().empty()) {
                std::fprintf(stderr, "mgl capture: %s\n", r.error().c_str());
                status = status ? status : 1;
            } else {
                std::fprintf(stderr, "mgl capture: %llu session(s), %llu frames, %llu records, %llu bytes in %s\n",
                             (unsigned long long)sessions, (unsigned long long)frames, (unsigned long long)records,
                             (unsigned long long)fs::file_size(target), out.c_str());
            }
        }
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return status;
}

}  // namespace mgl::tools
