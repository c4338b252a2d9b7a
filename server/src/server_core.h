// The shared state behind mgl::server::Server.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "listener.h"
#include "mgl/server/server.h"
#include "session.h"
#include "session_threads.h"
#include "token_gate.h"

namespace mgl::server {

struct Server::Core : std::enable_shared_from_this<Server::Core> {
    explicit Core(ServerOptions o)
        : options(std::move(o)),
          session_memory(options.session_memory),
          gate(options.token),
          threads(warm_for(options), options.spare_threads, 4) {}
    // The warm-up for the default backend's session threads (none without one).
    static std::function<void()> warm_for(const ServerOptions& o) {
        if (!o.warm_thread) return {};
        return [warm = o.warm_thread, backend = o.default_backend] { warm(backend); };
    }

    ServerOptions options;
    std::atomic<uint64_t> session_memory;        // options.session_memory, changeable while serving
    mutable std::mutex mutex;
    mutable std::condition_variable changed;     // a session started or ended
    std::map<uint64_t, std::unique_ptr<Session>> sessions;
    std::vector<uint64_t> finished;              // ended, waiting to be joined
    uint64_t next_id = 1;
    bool stopping = false;
    bool reaper_exit = false;
    std::thread reaper;
    std::vector<std::unique_ptr<Listener>> listeners;
    std::shared_ptr<wire::InprocEndpoint> inproc;
    ServerStats stats;
    TokenGate gate;
    // Destroyed first (declared last): every session has ended by then.
    SessionThreads threads;

    void start_reaper();
    void reap_loop();
    // A socket that said hello (with a good token): a new session admits it
    // and goes on with it on its own thread.
    void accept_hello(wire::FramedSocket socket, Via via, wire::ControlMessage hello);
    // Called on a session's thread when it ends.
    void session_finished(uint64_t id, bool faulted, const wire::LinkStats& link_stats);
    void count_refusal();
    size_t live_sessions_locked() const { return sessions.size() - finished.size(); }
};

}  // namespace mgl::server
