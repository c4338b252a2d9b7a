// mgl: the MobileGL wire command line.
//   mgl run [...] -- PROGRAM ARGS   run an unmodified GL program on the stack
//   mgl server [...]                the server daemon (unix socket / tcp)
//   mgl capture -o FILE -- PROGRAM  run it and keep its record stream
//   mgl replay FILE, mgl dump FILE  play or print a capture
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <string>

#include "mgl/server/daemon.h"
#include "capture.h"
#include "dump.h"
#include "replay.h"
#include "run.h"
#include "vendor_paths.h"

namespace {

std::string self_path(const char* argv0) {
    char buf[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) return std::string(buf, size_t(n));
    return argv0;
}

void usage() {
    std::puts("usage: mgl COMMAND [ARGS]\n"
              "  run [--transport T] [--backend B] -- PROGRAM ARGS   run a GL program through the wire\n"
              "  server [--listen unix:PATH|tcp://HOST:PORT]... [--backend B] [--token-file F]\n"
              "                                                       serve remote and local clients\n"
              "  capture -o FILE [run options] -- PROGRAM ARGS        run it and keep its record stream\n"
              "  replay FILE [--backend B] [--benchmark] [--snapshot FRAMES --snapshot-dir DIR]\n"
              "                                                       replay a capture headless\n"
              "  dump FILE [--frames A-B] [--grep VERB] [--stats]     print a capture's records\n"
              "  COMMAND --help for details.");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "help")) {
        usage();
        return argc < 2 ? 2 : 0;
    }
    std::string cmd = argv[1];
    // The daemon blocks its signals before any thread starts: call it first.
    if (cmd == "server") return mgl_server_main(argc - 1, argv + 1);
    if (cmd == "run" || cmd == "capture") {
        const std::string self = self_path(argv[0]);
        const auto vendor = mgl::tools::find_vendor(self);
        if (cmd == "run") return mgl::tools::run_main(argc - 2, argv + 2, self, vendor.json, vendor.lib_dir);
        return mgl::tools::capture_main(argc - 2, argv + 2, self, vendor.json, vendor.lib_dir);
    }
    if (cmd == "replay") return mgl::tools::replay_main(argc - 2, argv + 2);
    if (cmd == "dump") return mgl::tools::dump_main(argc - 2, argv + 2);
    std::fprintf(stderr, "mgl: unknown command '%s'\n", cmd.c_str());
    usage();
    return 2;
}
