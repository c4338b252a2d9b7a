// mgl::server::Server: owns listeners, sessions and the reaper that joins
// sessions as they end (so a dead client's thread and memory go at once, not
// at server shutdown).
#include "mgl/server/server.h"

#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include "builtin_defaults.h"
#include "heap_tuning.h"
#include "mgl/wire/transport/links.h"
#include "server_core.h"

#include <algorithm>
#include <cstdlib>

namespace mgl::server {

namespace {

// The inproc endpoint: admission and session creation on the caller's
// thread, then the session's own apply thread takes over.
class InprocEndpointImpl final : public wire::InprocEndpoint {
public:
    explicit InprocEndpointImpl(std::weak_ptr<Server::Core> core) : core_(std::move(core)) {}

    Opened open_session(std::span<const uint8_t> hello_bytes) override {
        Opened out;
        std::shared_ptr<Server::Core> core = core_.lock();
        wire::ControlMessage m = wire::decode_control(hello_bytes);
        if (!core) {
            out.reply = wire::encode_refusal({wire::RefusalReason::internal, "the server is gone"});
            return out;
        }
        if (m.kind != wire::ControlKind::hello) {
            core->count_refusal();
            out.reply = wire::encode_refusal({wire::RefusalReason::bad_message, "not a hello"});
            return out;
        }
        size_t live;
        {
            std::lock_guard lock(core->mutex);
            live = core->live_sessions_locked();
        }
        // Outside the lock: making a backend may take a while (a GL context).
        Admission a = admit(core->options, m.hello, Via::inproc, live);
        if (a.refusal.reason != wire::RefusalReason::none) {
            core->count_refusal();
            spdlog::warn("mgl server: inproc client refused: {}: {}", wire::to_string(a.refusal.reason),
                         a.refusal.message);
            out.reply = wire::encode_refusal(a.refusal);
            return out;
        }
        std::unique_lock lock(core->mutex);
        if (core->stopping) {
            out.reply = wire::encode_refusal({wire::RefusalReason::internal, "the server is stopping"});
            return out;
        }
        uint64_t id = core->next_id++;
        auto memory = std::make_shared<wire::RingMemory>(a.rings);
        auto session = std::make_unique<Session>(id, core.get());
        Session* s = session.get();
        core->sessions.emplace(id, std::move(session));
        ++core->stats.sessions_opened;
        s->start_ready(wire::make_inproc_server(memory, core->options.wait), std::move(a.applier),
                       (m.hello.capabilities & wire::kCapEvents) != 0);
        core->changed.notify_all();
        lock.unlock();
        spdlog::info("mgl server: session {} open (inproc, backend {})", id, a.backend);

        wire::Welcome w;
        w.session_id = id;
        w.capabilities = wire::kCapStaging | wire::kCapEvents | wire::kCapChunkedRecords;
        w.build_id = core->options.build_id;
        w.backend = a.backend;
        w.rings = a.rings;
        out.reply = wire::encode_welcome(w);
        out.memory = std::move(memory);
        return out;
    }

private:
    std::weak_ptr<Server::Core> core_;
};

}  // namespace

ServerOptions builtin_server_options(uint32_t default_warm_threads) {
    BuiltinDefaults d = builtin_defaults();
    ServerOptions o;
    o.appliers = std::move(d.appliers);
    o.wire_fingerprint = d.wire_fingerprint;
    o.build_id = std::move(d.build_id);
    o.default_backend = std::move(d.backend);
    int warm = int(default_warm_threads);
    if (const char* n = std::getenv("MOBILEGL_WARM_THREADS"); n && *n) warm = std::atoi(n);
    if (warm > 0) {
        o.spare_threads = uint32_t(std::min(warm, 8));
        o.warm_thread = std::move(d.warm_thread);
    }
    return o;
}

void Server::Core::start_reaper() {
    reaper = std::thread([this] { reap_loop(); });
}

void Server::Core::reap_loop() {
    std::unique_lock lock(mutex);
    for (;;) {
        changed.wait(lock, [&] { return !finished.empty() || (reaper_exit && sessions.empty()); });
        while (!finished.empty()) {
            uint64_t id = finished.back();
            finished.pop_back();
            auto it = sessions.find(id);
            if (it == sessions.end() || !it->second) continue;
            // Destroyed outside the lock but still listed, so that "no
            // sessions" means every session is gone, backend included.
            std::unique_ptr<Session> s = std::move(it->second);
            lock.unlock();
            s.reset();  // joins its thread, unmaps its memory, closes its socket
            return_freed_heap();
            lock.lock();
            sessions.erase(id);
            ++stats.sessions_ended;
            changed.notify_all();
        }
        if (reaper_exit && sessions.empty()) return;
    }
}

void Server::Core::accept_hello(wire::FramedSocket socket, Via via, wire::ControlMessage hello) {
    // A refusal said here, on the listener's thread, where no session (and no
    // thread) was made for the client.
    auto refuse_here = [&](wire::RefusalReason r, const std::string& msg) {
        ++stats.refusals;
        spdlog::warn("mgl server: client refused: {}: {}", wire::to_string(r), msg);
        socket.write_frame(wire::kFrameControl, wire::encode_refusal({r, msg}),
                           wire::Clock::now() + std::chrono::milliseconds(200));
    };
    std::lock_guard lock(mutex);
    if (stopping) return;  // the socket closes: the client sees a hang-up
    if (live_sessions_locked() >= options.max_sessions)
        return refuse_here(wire::RefusalReason::server_full, fmt::format("{} sessions already", options.max_sessions));
    uint64_t id = next_id++;
    try {
        auto session = std::make_unique<Session>(id, this);
        Session* s = session.get();
        s->start_socket(socket, via, hello);
        sessions.emplace(id, std::move(session));
    } catch (const std::exception& e) {
        // Out of threads or memory: this client is told, the server goes on.
        if (socket.valid()) refuse_here(wire::RefusalReason::internal, fmt::format("cannot start a session: {}", e.what()));
        else spdlog::error("mgl server: cannot start a session: {}", e.what());
        return;
    }
    ++stats.sessions_opened;
    changed.notify_all();
}

void Server::Core::session_finished(uint64_t id, bool faulted, const wire::LinkStats& s) {
    std::lock_guard lock(mutex);
    if (faulted) ++stats.faults;
    wire::LinkStats& t = stats.links;
    t.bytes += s.bytes;
    t.publishes += s.publishes;
    t.replies += s.replies;
    t.events += s.events;
    t.data += s.data;
    t.reply += s.reply;
    t.wakes_sent += s.wakes_sent;
    finished.push_back(id);
    changed.notify_all();
}

void Server::Core::count_refusal() {
    std::lock_guard lock(mutex);
    ++stats.refusals;
}

Server::Server(ServerOptions options) : core_(std::make_shared<Core>(std::move(options))) {
    if (!core_->options.appliers) throw std::invalid_argument("mgl::server::Server needs an applier factory");
    tune_heap_for_apply_threads();
    core_->start_reaper();
    core_->threads.prestart();
}

Server::~Server() { stop(); }

std::string Server::listen(std::string_view address, std::string* error) {
    std::optional<wire::ListenSpec> spec = wire::parse_listen(address, error);
    if (!spec) return {};
    std::string bound;
    std::weak_ptr<Core> weak = core_;
    Listener::Config cfg;
    cfg.have_token = !core_->options.token.empty();
    cfg.limits.max_pending = core_->options.max_pending_handshakes;
    cfg.limits.timeout = core_->options.handshake_timeout;
    cfg.gate = &core_->gate;  // the core outlives its listeners (stop() closes them)
    cfg.on_hello = [weak](wire::FramedSocket s, Via via, wire::ControlMessage hello) {
        if (auto c = weak.lock()) c->accept_hello(std::move(s), via, std::move(hello));
    };
    cfg.on_refusal = [weak] {
        if (auto c = weak.lock()) c->count_refusal();
    };
    auto listener = Listener::open(*spec, std::move(cfg), &bound, error);
    if (!listener) return {};
    std::lock_guard lock(core_->mutex);
    if (core_->stopping) {
        *error = "the server is stopping";
        return {};
    }
    core_->listeners.push_back(std::move(listener));
    spdlog::info("mgl server: listening on {}", bound);
    return bound;
}

std::shared_ptr<wire::InprocEndpoint> Server::inproc_endpoint() {
    std::lock_guard lock(core_->mutex);
    if (!core_->inproc) core_->inproc = std::make_shared<InprocEndpointImpl>(core_);
    wire::set_default_inproc_endpoint(core_->inproc);
    return core_->inproc;
}

void Server::stop() {
    std::vector<std::unique_ptr<Listener>> listeners;
    {
        std::lock_guard lock(core_->mutex);
        if (core_->reaper_exit) return;
        core_->stopping = true;
        listeners = std::move(core_->listeners);
    }
    for (auto& l : listeners) l->close();  // no new sessions from here on
    {
        std::lock_guard lock(core_->mutex);
        for (auto& [id, s] : core_->sessions)
            if (s) s->interrupt();  // null: being destroyed by the reaper
        core_->reaper_exit = true;
        core_->changed.notify_all();
    }
    if (core_->reaper.joinable()) core_->reaper.join();
    // Every session has returned; their threads leave the pool's code too.
    core_->threads.shutdown();
    ServerStats st = stats();
    spdlog::info("mgl server: stopped ({} sessions served, {} refused, {} faulted, {} wrong tokens)",
                 st.sessions_opened, st.refusals, st.faults, st.token_failures);
}

void Server::set_session_memory(uint64_t bytes) { core_->session_memory.store(bytes); }

size_t Server::session_count() const {
    std::lock_guard lock(core_->mutex);
    return core_->live_sessions_locked();
}

ServerStats Server::stats() const {
    std::lock_guard lock(core_->mutex);
    ServerStats s = core_->stats;
    s.token_failures = core_->gate.failures();
    return s;
}

bool Server::wait_sessions_at_most(size_t n, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(core_->mutex);
    return core_->changed.wait_for(lock, timeout, [&] { return core_->sessions.size() <= n; });
}

}  // namespace mgl::server
