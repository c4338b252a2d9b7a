// One client's session: its link, its applier, its apply thread (one of the
// server's SessionThreads).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include "handshake.h"
#include "session_threads.h"
#include "mgl/wire/transport/server_link.h"
#include "mgl/wire/transport/socket.h"

namespace mgl::server {

class Session {
public:
    // Tells `core` on its own thread, as its last act, that it ended.
    Session(uint64_t id, Server::Core* core);
    ~Session();  // waits for its thread's work to return

    // A socket client that said `hello`: the thread admits it (or says why
    // not), finishes the handshake, then applies. Throws std::system_error
    // when no thread can be had: nothing started then, and `socket` is still
    // the caller's (to say why). Takes `socket` and `hello` otherwise.
    void start_socket(wire::FramedSocket& socket, Via via, wire::ControlMessage& hello);
    // An inproc client, already admitted: the thread only applies.
    void start_ready(std::unique_ptr<wire::ServerLink> link, std::unique_ptr<wire::Applier> applier,
                     bool gl_error_events);

    // Any thread: ends the session soon (server stop).
    void interrupt();
    uint64_t id() const { return id_; }

private:
    void run_socket(wire::FramedSocket socket, Via via, const wire::ControlMessage& hello);
    void run_apply();
    void finish();
    bool install(std::unique_ptr<wire::ServerLink> link);

    uint64_t id_;
    Server::Core* core_;
    std::shared_ptr<SessionThreads::Job> job_;
    std::mutex mutex_;                // guards link_ installation vs interrupt()
    std::unique_ptr<wire::ServerLink> link_;
    std::unique_ptr<wire::Applier> applier_;
    bool gl_error_events_ = false;  // push GL errors as events (the client's Events capability)
    int handshake_fd_ = -1;
    wire::FramedSocket start_socket_;    // handed to the thread by start_socket
    wire::ControlMessage start_hello_;
    bool interrupted_ = false;
    bool faulted_ = false;
    wire::LinkStats link_stats_;
};

}  // namespace mgl::server
