// A session: handshake (socket clients), then the apply loop. A decode error
// or a broken ring ends this session only, with a fault event to its client;
// a dead client just ends it. Everything it owns is freed when the server's
// reaper joins and destroys it.
#include "session.h"

#include <sys/socket.h>

#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include "mgl/wire/transport/links.h"
#include "server_core.h"

namespace mgl::server {

Session::Session(uint64_t id, Server::Core* core) : id_(id), core_(core) {}

Session::~Session() {
    if (job_) job_->wait();
}

void Session::start_socket(wire::FramedSocket& socket, Via via, wire::ControlMessage& hello) {
    handshake_fd_ = socket.fd();
    start_socket_ = std::move(socket);
    start_hello_ = std::move(hello);
    // No exception leaves the thread: one from a backend or an allocation
    // ends this session only.
    auto body = [this, via] {
        try {
            run_socket(std::move(start_socket_), via, start_hello_);
        } catch (const std::exception& e) {
            spdlog::error("mgl server: session {}: {}", id_, e.what());
            faulted_ = true;
            {
                std::lock_guard lock(mutex_);
                handshake_fd_ = -1;
            }
            finish();
        }
    };
    try {
        job_ = core_->threads.run(body);
    } catch (...) {
        socket = std::move(start_socket_);
        hello = std::move(start_hello_);
        handshake_fd_ = -1;
        throw;
    }
}

void Session::start_ready(std::unique_ptr<wire::ServerLink> link, std::unique_ptr<wire::Applier> applier,
                          bool gl_error_events) {
    link_ = std::move(link);
    applier_ = std::move(applier);
    applier_->set_peer_in_process(true);
    gl_error_events_ = gl_error_events;
    job_ = core_->threads.run([this] {
        try {
            run_apply();
        } catch (const std::exception& e) {
            spdlog::error("mgl server: session {}: {}", id_, e.what());
            faulted_ = true;
        }
        finish();
    });
}

void Session::interrupt() {
    std::lock_guard lock(mutex_);
    interrupted_ = true;
    if (link_) link_->interrupt();
    else if (handshake_fd_ >= 0) ::shutdown(handshake_fd_, SHUT_RDWR);  // unblocks the handshake reads
}

bool Session::install(std::unique_ptr<wire::ServerLink> link) {
    std::lock_guard lock(mutex_);
    link_ = std::move(link);
    handshake_fd_ = -1;
    return !interrupted_;
}

void Session::run_socket(wire::FramedSocket sock, Via via, const wire::ControlMessage& m) {
    const ServerOptions& o = core_->options;
    auto deadline = wire::Clock::now() + o.handshake_timeout;
    wire::FrameHeader fh{};
    std::vector<uint8_t> payload;
    std::string err;
    Admission a;
    {
        size_t live;
        {
            std::lock_guard lock(core_->mutex);
            live = core_->live_sessions_locked() - 1;  // not counting this one
        }
        a = admit(o, m.hello, via, live);
    }
    if (a.refusal.reason != wire::RefusalReason::none) {
        spdlog::warn("mgl server: session {} refused: {}: {}", id_, wire::to_string(a.refusal.reason),
                     a.refusal.message);
        sock.write_frame(wire::kFrameControl, wire::encode_refusal(a.refusal), deadline);
        core_->count_refusal();
        {
            std::lock_guard lock(mutex_);
            handshake_fd_ = -1;
        }
        return finish();
    }

    wire::Welcome w;
    w.session_id = id_;
    w.capabilities = wire::kCapEvents | wire::kCapChunkedRecords;
    w.build_id = o.build_id;
    w.backend = a.backend;
    std::unique_ptr<wire::ServerLink> link;
    if (via == Via::tcp) {
        w.max_record_bytes = o.tcp_max_record_frame;
        if (!sock.write_frame(wire::kFrameControl, wire::encode_welcome(w), deadline)) {
            std::lock_guard lock(mutex_);
            handshake_fd_ = -1;
            return finish();
        }
        link = wire::make_tcp_server(std::move(sock), o.tcp_max_record_frame);
    } else {
        w.capabilities |= wire::kCapStaging;
        w.rings = a.rings;
        wire::RingSetLayout layout = wire::RingSetLayout::compute(a.rings);
        std::string name = wire::ShmSegment::unique_name(id_);
        std::unique_ptr<wire::ShmSegment> seg = wire::ShmSegment::create(name, layout.total, &err);
        if (!seg) {
            spdlog::error("mgl server: session {}: {}", id_, err);
            sock.write_frame(wire::kFrameControl,
                             wire::encode_refusal({wire::RefusalReason::internal, "cannot allocate shared memory"}),
                             deadline);
            std::lock_guard lock(mutex_);
            handshake_fd_ = -1;
            return finish();
        }
        wire::RingSetView view = wire::init_ring_set(seg->data(), seg->size(), a.rings);
        w.shm_name = name;
        w.shm_bytes = layout.total;
        bool ok = sock.write_frame(wire::kFrameControl, wire::encode_welcome(w), deadline) &&
                  sock.read_frame(&fh, &payload, wire::kMaxControlFrame, deadline, &err) &&
                  fh.type == wire::kFrameControl &&
                  wire::decode_control(payload).kind == wire::ControlKind::attached;
        // Attached or not, the name goes now: the memory stays mapped as long
        // as someone maps it and nothing is left behind in /dev/shm.
        seg->remove_name();
        if (!ok) {
            spdlog::info("mgl server: session {}: the client did not attach: {}", id_, err);
            std::lock_guard lock(mutex_);
            handshake_fd_ = -1;
            return finish();
        }
        link = wire::make_shm_server(std::move(seg), view, std::move(sock), o.wait);
    }
    applier_ = std::move(a.applier);
    // GL errors travel as events only to clients that said they read them.
    gl_error_events_ = (m.hello.capabilities & wire::kCapEvents) != 0;
    spdlog::info("mgl server: session {} open ({}, backend {})", id_,
                 via == Via::tcp ? "tcp" : "shm", w.backend);
    if (install(std::move(link))) run_apply();
    else {
        link_->send_event({wire::Event::Kind::lost_context, 0, 0, 0, 0, "the server is stopping"});
        link_->close();
    }
    finish();
}

void Session::run_apply() {
    wire::ServerLink& link = *link_;
    if (gl_error_events_) applier_->set_event_sink([&link](const wire::Event& e) { link.send_event(e); });
    applier_->set_staging(link.staging());
    const uint64_t budget = core_->session_memory.load();
    applier_->set_memory_budget(budget ? budget : wire::MemoryBudget::kDefaultBytes);
    bool faulted = false;
    for (;;) {
        std::span<const uint8_t> bytes = link.wait_readable();
        if (bytes.empty()) break;
        wire::DecodeResult r = applier_->apply(bytes, link.replies(), link.partial_ok());
        link.consume(r.consumed);
        if (!r.ok() || (r.consumed == 0 && !link.partial_ok())) {
            wire::Event e;
            e.kind = wire::Event::Kind::fault;
            // A lost backend is not the client's fault: its contexts are lost.
            const bool lost = r.error.status == wire::DecodeStatus::backend_lost;
            if (lost) link.send_event({wire::Event::Kind::lost_context, 0, 0, 0, 0, r.error.detail});
            e.fault_reason = uint8_t(lost ? wire::FaultReason::backend : wire::FaultReason::decode);
            e.opcode = r.error.opcode;
            e.stream_offset = r.error.stream_offset;
            e.message = r.ok() ? "the decoder made no progress"
                               : fmt::format("{}: {}", wire::to_string(r.error.status), r.error.detail);
            spdlog::warn("mgl server: session {}: {}", id_, wire::describe(e));
            link.send_event(e);
            faulted = true;
            break;
        }
    }
    switch (link.end()) {
    case wire::LinkEnd::corrupt: {
        wire::Event e;
        e.kind = wire::Event::Kind::fault;
        e.fault_reason = uint8_t(wire::FaultReason::corrupt_ring);
        e.message = link.end_reason();
        spdlog::warn("mgl server: session {}: {}", id_, e.message);
        link.send_event(e);
        faulted = true;
        break;
    }
    case wire::LinkEnd::interrupted:
        link.send_event({wire::Event::Kind::lost_context, 0, 0, 0, 0, "the server is stopping"});
        break;
    default: break;
    }
    // The backend goes on this thread, where its contexts were current, and
    // before the close is announced: an inproc client waits for the close
    // (its process may exit right after, under a driver still in use).
    applier_.reset();
    link.close();
    wire::LinkStats s = link.stats();
    spdlog::info("mgl server: session {} ended ({}): {} bytes, {} spans, {} replies, {} parks, {} wake-ups sent",
                 id_, faulted ? "fault" : link.end_reason(), s.bytes, s.publishes, s.replies, s.parks(),
                 s.wakes_sent);
    faulted_ = faulted;
    link_stats_ = s;
}

void Session::finish() { core_->session_finished(id_, faulted_, link_stats_); }

}  // namespace mgl::server
