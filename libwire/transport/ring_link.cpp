// The ring-based links: inproc (rings on the heap, private futexes) and shm
// (rings in a shared memory segment, process-shared futexes, a unix socket
// kept open to notice the peer's death). Same code, different owners.
#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <cstring>
#include <deque>

#include "mgl/wire/transport/links.h"
#include "mgl/wire/transport/msg_frame.h"

namespace mgl::wire {

namespace {

// Wakes whoever is parked on any of these cursors: used to make a peer look
// at the session flags (closed, events pending) whatever it waits for.
void kick(bool shared, std::initializer_list<std::atomic<uint64_t>*> cursors) {
    for (auto* c : cursors) futex_wake_all(c, shared);
}

// What both ends own: the memory, and for shm the control socket.
struct RingResources {
    std::shared_ptr<RingMemory> heap;
    std::unique_ptr<ShmSegment> shm;
    FramedSocket socket;
};

// ---------------------------------------------------------------- client

class RingClient final : public Connection {
public:
    RingClient(RingResources res, const RingSetView& v, uint64_t session, const WaitConfig& wait,
               const char* name)
        : res_(std::move(res)), v_(v), block_(v.block), session_(session), wait_(wait), name_(name),
          rec_(&v.block->records, v.records, v.sizes.records),
          rep_(&v.block->replies, v.replies, v.sizes.replies),
          evt_(&v.block->events, v.events, v.sizes.events),
          stg_(&v.block->staging, v.staging, v.sizes.staging),
          batch_(v.sizes.records / 4), live_(this) {
        blackhole_.resize(batch_);
    }

    ~RingClient() override { close(); }

    Window next_window(uint8_t* written, size_t min_bytes) override {
        commit(written);
        publish();
        drain_events();
        if (!lost_.empty()) return blackhole();
        for (;;) {
            uint64_t avail = 0;
            uint8_t* p = rec_.reserve(min_bytes, &avail);
            if (p) {
                window_ = {p, p + (avail < batch_ ? avail : batch_)};
                return window_;
            }
            if (rec_.corrupt()) {
                lose("the server wrote an impossible ring cursor");
                return blackhole();
            }
            // Backpressure: the ring is full until the server consumes.
            publish();
            WaitResult r = rec_.wait_space([this] { return news(); }, live_, wait_, stats_.data);
            drain_events();
            if (r == WaitResult::lost || !lost_.empty() || server_closed()) {
                lose_from_state();
                return blackhole();
            }
        }
    }

    Window flush(uint8_t* written) override {
        commit(written);
        publish();
        drain_events();
        if (!lost_.empty()) return blackhole();
        return window_;
    }

    size_t max_record_bytes() const override { return batch_; }

    std::span<const uint8_t> wait_reply(uint8_t* written, Window* window) override {
        release_reply();
        commit(written);
        publish();
        std::span<const uint8_t> reply = receive_reply();
        *window = (reply.data() || lost_.empty()) ? window_ : blackhole();
        return reply;
    }

    const std::string& lost_reason() const override { return lost_; }
    std::string_view transport() const override { return name_; }
    uint64_t session_id() const override { return session_; }

    bool poll_event(Event* out) override {
        drain_events();
        if (events_.empty()) return false;
        *out = std::move(events_.front());
        events_.pop_front();
        return true;
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        block_->client_closed.store(1, std::memory_order_release);
        kick(wait_.shared, {&block_->records.head, &block_->replies.tail, &block_->events.tail});
        if (res_.socket.valid()) {
            auto bye = encode_goodbye();
            res_.socket.write_frame(kFrameControl, bye, Clock::now() + std::chrono::milliseconds(100));
            res_.socket.close();
        }
        if (lost_.empty()) lost_ = "the client closed the connection";
        if (res_.heap) await_server_close();
    }

    LinkStats stats() const override {
        LinkStats s = stats_;
        s.wakes_sent = notify_.wakes;
        return s;
    }

    uint64_t staging_capacity() const override { return stg_.capacity(); }

    StagingSpan stage(uint8_t* written, uint64_t bytes, Window* window) override {
        commit(written);
        *window = window_;
        if (!lost_.empty() || bytes > stg_.capacity()) {
            if (!lost_.empty()) *window = blackhole();
            return {};
        }
        for (;;) {
            StagingSpan s = stg_.alloc(bytes);
            if (s.data) {
                stats_.staged += bytes;
                return s;
            }
            // The server frees staging as it applies the records naming it,
            // the last of which may be among those just committed.
            publish();
            WaitResult r = stg_.wait_space([this] { return news(); }, live_, wait_, stats_.data);
            drain_events();
            if (r == WaitResult::lost || !lost_.empty() || server_closed()) {
                lose_from_state();
                *window = blackhole();
                return {};
            }
        }
    }

    bool wait_applied(uint8_t* written, Window* window) override {
        commit(written);
        publish();
        uint64_t target = rec_.published();
        for (;;) {
            if (!lost_.empty()) { *window = blackhole(); return false; }
            WaitResult r = rec_.wait_consumed(target, [this] { return news(); }, live_, wait_, stats_.data);
            drain_events();
            if (r == WaitResult::ready && rec_.control()->tail.load(std::memory_order_acquire) >= target) {
                *window = window_;
                return true;
            }
            if (r == WaitResult::lost || server_closed()) lose_from_state();
        }
    }

private:
    struct Live final : Liveness {
        explicit Live(RingClient* c) : c(c) {}
        bool lost() override { return !c->lost_.empty() || c->server_closed(); }
        bool check() override {
            if (lost()) return true;
            if (c->res_.socket.valid() && !c->res_.socket.peer_alive()) {
                c->lose("the server died (its socket closed)");
                return true;
            }
            return false;
        }
        RingClient* c;
    };

    bool server_closed() const { return block_->server_closed.load(std::memory_order_acquire) != 0; }

    // inproc: the server's apply thread runs the host driver in this very
    // process. It applies what is left of the stream, tears its backend down
    // and only then marks the session closed. Returning before that lets the
    // program go on to exit() while that thread still drives the driver,
    // whose static destructors (LLVM's, registered lazily while drawing) may
    // run first: a use-after-free in the driver. Bounded, so that a stuck
    // server cannot hang the program's teardown.
    void await_server_close() {
        const auto deadline = Clock::now() + std::chrono::seconds(10);
        while (!server_closed()) {
            const uint64_t seen = block_->replies.head.load(std::memory_order_acquire);
            if (server_closed()) break;
            if (Clock::now() >= deadline) {
                spdlog::warn("mgl inproc session {}: the server did not finish the session within 10 s", session_);
                return;
            }
            // The server's close() wakes this cursor's waiters.
            futex_wait(&block_->replies.head, uint32_t(seen), std::chrono::milliseconds(50), wait_.shared);
        }
    }
    // Something besides the awaited cursor needs a look: the server closed, or
    // events wait to be drained (the server may be blocked on a full event ring).
    bool news() const {
        return server_closed() ||
               block_->events.head.load(std::memory_order_acquire) != evt_.read_pos();
    }

    void commit(uint8_t* written) {
        // nullptr: nothing written yet (an encoder's first call).
        if (written == nullptr || window_.begin == nullptr) return;
        if (window_.begin == blackhole_.data()) {
            window_.begin = written;
            return;
        }
        // The encoder only writes inside the window we handed out.
        if (written < window_.begin || written > window_.end) {
            lose("the encoder wrote outside its window");
            return;
        }
        uint64_t n = uint64_t(written - window_.begin);
        rec_.commit(n);
        stats_.bytes += n;
        window_.begin = written;
    }

    void publish() {
        if (rec_.write_pos() == rec_.published()) return;
        rec_.publish(wait_.shared, notify_);
        ++stats_.publishes;
    }

    Window blackhole() {
        // A dead peer must not block the encoder: it writes into scratch
        // memory that is never sent, and learns of the loss at its next
        // wait_reply (empty span) or from lost_reason().
        window_ = {blackhole_.data(), blackhole_.data() + blackhole_.size()};
        return window_;
    }

    void lose(std::string why) {
        if (!lost_.empty()) return;
        lost_ = std::move(why);
        spdlog::warn("mgl {} session {}: connection lost: {}", name_, session_, lost_);
    }

    void lose_from_state() {
        drain_events();
        if (!lost_.empty()) return;
        if (server_closed()) lose("the server closed the session");
        else lose("the server died");
    }

    void release_reply() {
        if (release_pending_) {
            rep_.consume(release_pending_, wait_.shared, notify_);
            release_pending_ = 0;
        }
        reply_buf_.clear();
    }

    std::span<const uint8_t> receive_reply() {
        for (;;) {
            if (!lost_.empty()) return {};
            std::span<const uint8_t> s = rep_.peek();
            if (rep_.corrupt()) { lose("the server wrote an impossible reply cursor"); return {}; }
            if (!s.empty()) {
                MsgHeader h{};
                if (s.size() < 8) { lose("truncated reply frame"); return {}; }
                std::memcpy(&h, s.data(), 8);
                if (h.size < 8 || h.size > s.size() || (h.size & 7)) { lose("bad reply frame size"); return {}; }
                if (h.kind == kMsgPad) { rep_.consume(h.size, wait_.shared, notify_); continue; }
                std::memcpy(&h, s.data(), sizeof h);
                if (h.kind != kMsgReply || h.size < sizeof h || h.length > h.size - sizeof h) {
                    lose("bad reply frame");
                    return {};
                }
                const uint8_t* payload = s.data() + sizeof h;
                if (!(h.flags & kMsgMore) && reply_buf_.empty()) {
                    release_pending_ = h.size;  // zero copy: released at the next call
                    ++stats_.replies;
                    return {payload, h.length};
                }
                if (reply_buf_.size() + h.length > (1ull << 31)) { lose("reply too large"); return {}; }
                reply_buf_.insert(reply_buf_.end(), payload, payload + h.length);
                rep_.consume(h.size, wait_.shared, notify_);
                if (!(h.flags & kMsgMore)) {
                    ++stats_.replies;
                    return {reply_buf_.data(), reply_buf_.size()};
                }
                continue;
            }
            if (server_closed()) { lose_from_state(); return {}; }
            WaitResult r = rep_.wait_data([this] { return news(); }, live_, wait_, stats_.reply);
            drain_events();
            if (r == WaitResult::lost) {
                // A reply published just before the close still counts.
                if (!rep_.peek().empty() && lost_.empty()) continue;
                lose_from_state();
                return {};
            }
        }
    }

    void drain_events() {
        if (block_->events.head.load(std::memory_order_acquire) == evt_.read_pos()) return;
        for (;;) {
            std::span<const uint8_t> s = evt_.peek();
            if (evt_.corrupt()) { lose("the server wrote an impossible event cursor"); return; }
            if (s.empty()) return;
            MsgHeader h{};
            if (s.size() < 8) { lose("truncated event frame"); return; }
            std::memcpy(&h, s.data(), 8);
            if (h.size < 8 || h.size > s.size() || (h.size & 7)) { lose("bad event frame size"); return; }
            if (h.kind != kMsgPad) {
                std::memcpy(&h, s.data(), sizeof h);
                Event e;
                if (h.kind != kMsgEvent || h.size < sizeof h || h.length > h.size - sizeof h ||
                    !decode_event({s.data() + sizeof h, h.length}, &e)) {
                    lose("bad event frame");
                    return;
                }
                ++stats_.events;
                if (e.kind != Event::Kind::gl_error) lose(describe(e));
                queue_event(events_, std::move(e));
            }
            evt_.consume(h.size, wait_.shared, notify_);
        }
    }

    RingResources res_;
    RingSetView v_;
    SessionBlock* block_;
    uint64_t session_;
    WaitConfig wait_;
    const char* name_;
    RingProducer rec_;
    RingConsumer rep_;
    RingConsumer evt_;
    StagingWriter stg_;
    uint64_t batch_;
    Live live_;
    Window window_{};
    std::vector<uint8_t> blackhole_;
    std::vector<uint8_t> reply_buf_;
    uint64_t release_pending_ = 0;
    std::deque<Event> events_;
    std::string lost_;
    bool closed_ = false;
    LinkStats stats_;
    DoorbellStats notify_;
};

// ---------------------------------------------------------------- server

class RingServer final : public ServerLink, public ReplySink, public StagedSource {
public:
    RingServer(RingResources res, const RingSetView& v, const WaitConfig& wait)
        : res_(std::move(res)), v_(v), block_(v.block), wait_(wait),
          rec_(&v.block->records, v.records, v.sizes.records),
          rep_(&v.block->replies, v.replies, v.sizes.replies),
          evt_(&v.block->events, v.events, v.sizes.events),
          stg_(&v.block->staging, v.staging, v.sizes.staging), live_(this) {}

    ~RingServer() override { close(); }

    std::span<const uint8_t> wait_readable() override {
        if (end_ != LinkEnd::none) return {};
        for (;;) {
            // A stopping server applies nothing more: at a process's exit the
            // host driver may already be half torn down under this thread.
            if (interrupted_.load(std::memory_order_acquire)) return finish(LinkEnd::interrupted, "server stopping");
            std::span<const uint8_t> s = rec_.peek();
            if (rec_.corrupt()) return finish(LinkEnd::corrupt, "the client wrote an impossible record cursor");
            if (!s.empty()) {
                ++stats_.publishes;
                return s;
            }
            if (client_closed()) return finish(LinkEnd::peer_closed, "the client closed the session");
            WaitResult r = rec_.wait_data([this] { return client_closed() || interrupted(); }, live_, wait_,
                                          stats_.data);
            if (r == WaitResult::lost && rec_.peek().empty()) {
                if (interrupted()) return finish(LinkEnd::interrupted, "server stopping");
                if (client_closed()) return finish(LinkEnd::peer_closed, "the client closed the session");
                return finish(LinkEnd::peer_lost, "the client died (its socket closed)");
            }
        }
    }

    void consume(size_t n) override {
        if (n == 0) return;
        rec_.consume(n, wait_.shared, notify_);
        stats_.bytes += n;
    }

    ReplySink& replies() override { return *this; }
    StagedSource* staging() override { return this; }

    std::span<const uint8_t> view(uint64_t cursor, uint64_t size) override { return stg_.view(cursor, size); }
    bool release_through(uint64_t end) override { return stg_.release_through(end, wait_.shared, notify_); }

    uint8_t* begin_reply(uint32_t bytes) override {
        reply_len_ = bytes;
        reply_ring_ = nullptr;
        uint64_t frame = align_frame(bytes);
        if (frame <= rep_.capacity() / 4 && end_ == LinkEnd::none) {
            uint8_t* p = reserve(rep_, frame);
            if (p) {
                std::memset(p + sizeof(MsgHeader), 0, frame - sizeof(MsgHeader));
                reply_ring_ = p;
                return p + sizeof(MsgHeader);
            }
        }
        // Too large for one frame (or the client is gone): build it aside and
        // send it in pieces at end_reply.
        reply_big_.assign(bytes, 0);
        return reply_big_.data();
    }

    void end_reply() override {
        ++stats_.replies;
        if (reply_ring_) {
            uint64_t frame = align_frame(reply_len_);
            MsgHeader h{kMsgReply, 0, uint32_t(frame), reply_len_, seq_++};
            std::memcpy(reply_ring_, &h, sizeof h);
            rep_.commit(frame);
            rep_.publish(wait_.shared, notify_);
            reply_ring_ = nullptr;
            return;
        }
        const uint64_t piece_max = rep_.capacity() / 4 - sizeof(MsgHeader);
        uint64_t off = 0;
        do {
            uint64_t n = reply_big_.size() - off;
            if (n > piece_max) n = piece_max;
            uint64_t frame = align_frame(n);
            uint8_t* p = reserve(rep_, frame);
            if (!p) return;  // the client is gone; the session ends at the next wait
            bool more = off + n < reply_big_.size();
            MsgHeader h{kMsgReply, uint16_t(more ? kMsgMore : 0), uint32_t(frame), uint32_t(n), seq_};
            std::memcpy(p, &h, sizeof h);
            if (n) std::memcpy(p + sizeof h, reply_big_.data() + off, n);
            std::memset(p + sizeof h + n, 0, frame - sizeof h - n);
            rep_.commit(frame);
            // Publish every piece: the client reads them while we write the next.
            rep_.publish(wait_.shared, notify_);
            off += n;
        } while (off < reply_big_.size());
        ++seq_;
        reply_big_.clear();
    }

    bool send_event(const Event& e) override {
        Event copy = e;
        if (copy.message.size() > 1024) copy.message.resize(1024);
        std::vector<uint8_t> bytes = encode_event(copy);
        uint64_t frame = align_frame(bytes.size());
        if (frame > evt_.capacity() / 4) return false;
        uint8_t* p = reserve(evt_, frame);
        if (!p) return false;
        MsgHeader h{kMsgEvent, 0, uint32_t(frame), uint32_t(bytes.size()), 0};
        std::memcpy(p, &h, sizeof h);
        std::memcpy(p + sizeof h, bytes.data(), bytes.size());
        std::memset(p + sizeof h + bytes.size(), 0, frame - sizeof h - bytes.size());
        evt_.commit(frame);
        evt_.publish(wait_.shared, notify_);
        ++stats_.events;
        return true;
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        block_->server_closed.store(1, std::memory_order_release);
        kick(wait_.shared, {&block_->replies.head, &block_->records.tail, &block_->staging.tail,
                            &block_->events.head});
    }

    void interrupt() override {
        interrupted_.store(true, std::memory_order_release);
        kick(wait_.shared, {&block_->records.head, &block_->replies.tail, &block_->events.tail});
    }

    LinkEnd end() const override { return end_; }
    const std::string& end_reason() const override { return reason_; }
    LinkStats stats() const override {
        LinkStats s = stats_;
        s.wakes_sent = notify_.wakes;
        return s;
    }

private:
    struct Live final : Liveness {
        explicit Live(RingServer* s) : s(s) {}
        bool lost() override { return s->client_closed() || s->interrupted(); }
        bool check() override {
            if (lost()) return true;
            return s->res_.socket.valid() && !s->res_.socket.peer_alive();
        }
        RingServer* s;
    };

    static uint64_t align_frame(uint64_t payload) { return (sizeof(MsgHeader) + payload + 7) & ~uint64_t(7); }

    bool client_closed() const { return block_->client_closed.load(std::memory_order_acquire) != 0; }
    bool interrupted() const { return interrupted_.load(std::memory_order_acquire); }

    std::span<const uint8_t> finish(LinkEnd e, std::string why) {
        end_ = e;
        reason_ = std::move(why);
        return {};
    }

    // A frame's worth of space in a server -> client ring, waiting for the
    // client to make room. nullptr when the client is gone or broke the ring.
    uint8_t* reserve(RingProducer& ring, uint64_t frame) {
        for (;;) {
            uint64_t avail = 0;
            uint8_t* p = ring.reserve(frame, &avail);
            if (p) return p;
            if (ring.corrupt()) {
                finish(LinkEnd::corrupt, "the client wrote an impossible reply/event cursor");
                return nullptr;
            }
            ring.publish(wait_.shared, notify_);  // a pad written by reserve
            // The client may be parked on something else: make it look at
            // its events and replies so it frees what we wait for.
            kick(wait_.shared, {&block_->replies.head, &block_->records.tail, &block_->staging.tail});
            WaitResult r = ring.wait_space([this] { return client_closed() || interrupted(); }, live_, wait_,
                                           stats_.reply);
            if (r == WaitResult::lost) {
                if (end_ == LinkEnd::none) {
                    if (interrupted()) finish(LinkEnd::interrupted, "server stopping");
                    else if (client_closed()) finish(LinkEnd::peer_closed, "the client closed the session");
                    else finish(LinkEnd::peer_lost, "the client died (its socket closed)");
                }
                return nullptr;
            }
        }
    }

    RingResources res_;
    RingSetView v_;
    SessionBlock* block_;
    WaitConfig wait_;
    RingConsumer rec_;
    RingProducer rep_;
    RingProducer evt_;
    StagingReader stg_;
    Live live_;
    std::atomic<bool> interrupted_{false};
    LinkEnd end_ = LinkEnd::none;
    std::string reason_;
    bool closed_ = false;
    uint8_t* reply_ring_ = nullptr;
    uint32_t reply_len_ = 0;
    uint32_t seq_ = 0;
    std::vector<uint8_t> reply_big_;
    LinkStats stats_;
    DoorbellStats notify_;
};

WaitConfig with_shared(WaitConfig w, bool shared) {
    w.shared = shared;
    return w;
}

}  // namespace

std::unique_ptr<Connection> make_inproc_client(std::shared_ptr<RingMemory> memory, uint64_t session_id,
                                               const WaitConfig& wait) {
    RingSetView v = memory->view();
    RingResources res;
    res.heap = std::move(memory);
    return std::make_unique<RingClient>(std::move(res), v, session_id, with_shared(wait, false), "inproc");
}

std::unique_ptr<ServerLink> make_inproc_server(std::shared_ptr<RingMemory> memory, const WaitConfig& wait) {
    RingSetView v = memory->view();
    RingResources res;
    res.heap = std::move(memory);
    return std::make_unique<RingServer>(std::move(res), v, with_shared(wait, false));
}

std::unique_ptr<Connection> make_shm_client(std::unique_ptr<ShmSegment> segment, const RingSetView& view,
                                            FramedSocket control, uint64_t session_id, const WaitConfig& wait) {
    RingResources res;
    res.shm = std::move(segment);
    res.socket = std::move(control);
    return std::make_unique<RingClient>(std::move(res), view, session_id, with_shared(wait, true), "shm");
}

std::unique_ptr<ServerLink> make_shm_server(std::unique_ptr<ShmSegment> segment, const RingSetView& view,
                                            FramedSocket control, const WaitConfig& wait) {
    RingResources res;
    res.shm = std::move(segment);
    res.socket = std::move(control);
    return std::make_unique<RingServer>(std::move(res), view, with_shared(wait, true));
}

}  // namespace mgl::wire
