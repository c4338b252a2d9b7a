// Which side of the wire a thread works for, in a process that holds both:
// an unmodified app that loaded our EGL vendor and, inside it, the embedded
// server (inproc). The server's backend reaches the host's EGL through the
// same glvnd libEGL, which would route it back to our own vendor; our vendor
// declines displays and devices asked for by server threads, so glvnd hands
// them to the next vendor (Mesa, NVIDIA).
#pragma once

namespace mgl::wire {

inline thread_local bool t_server_thread = false;

// Marks the current thread as a server thread for the scope's lifetime.
class ServerThreadScope {
public:
    ServerThreadScope() : prev_(t_server_thread) { t_server_thread = true; }
    ~ServerThreadScope() { t_server_thread = prev_; }
    ServerThreadScope(const ServerThreadScope&) = delete;
    ServerThreadScope& operator=(const ServerThreadScope&) = delete;

private:
    bool prev_;
};

}  // namespace mgl::wire
