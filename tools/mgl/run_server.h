// The local `mgl server` that `mgl run --transport shm|tcp` starts: private to
// the run (a 0700 directory, a fresh token) and ending with it.
#pragma once

#include <sys/types.h>

#include <string>

namespace mgl::tools {

struct RunServer {
    pid_t pid = -1;
    std::string dir;        // private directory (shm socket); removed by stop
    std::string transport;  // what the program connects to: shm:PATH or tcp://127.0.0.1:PORT
    std::string token;      // handed to the program as MOBILEGL_IPC_TOKEN
};

// kind: "shm" or "tcp". Starts the server and waits until it listens.
bool start_run_server(const std::string& self, const std::string& kind, const std::string& backend,
                      const std::string& server_log, RunServer* out, std::string* error);
// SIGTERM, wait, remove what it left.
void stop_run_server(RunServer& s);

}  // namespace mgl::tools
