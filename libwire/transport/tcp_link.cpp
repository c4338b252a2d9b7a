// tcp: the record stream travels as frames of whole records (one frame per
// batch, one gathered write), replies and events come back as frames. The
// socket is the doorbell: a blocked recv is a park, a frame is a wake-up.
#include <poll.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>

#include "mgl/wire/transport/links.h"

namespace mgl::wire {

namespace {

constexpr uint32_t kMaxReplyFrame = 1u << 30;          // a glReadPixels of a huge surface
constexpr size_t kMaxClientBuffered = 256u << 20;      // events nobody reads: stop there
constexpr auto kSlice = std::chrono::milliseconds(100);

// ---------------------------------------------------------------- client

class TcpClient final : public Connection {
public:
    TcpClient(FramedSocket sock, uint64_t session, uint32_t batch)
        : sock_(std::move(sock)), session_(session), batch_(batch & ~7u),
          tx_((sizeof(FrameHeader) + batch_ + 7) / 8), scratch_((batch_ + 7) / 8) {
        window_ = fresh();
    }
    ~TcpClient() override { close(); }

    Window next_window(uint8_t* written, size_t) override {
        begin_call();
        send_records(written);
        return window_ = lost_.empty() ? fresh() : blackhole();
    }

    Window flush(uint8_t* written) override {
        begin_call();
        send_records(written);
        return window_ = lost_.empty() ? fresh() : blackhole();
    }

    size_t max_record_bytes() const override { return batch_; }

    std::span<const uint8_t> wait_reply(uint8_t* written, Window* window) override {
        begin_call();
        send_records(written);
        *window = window_ = lost_.empty() ? fresh() : blackhole();
        for (;;) {
            if (!lost_.empty()) { *window = window_ = blackhole(); return {}; }
            FrameHeader h{};
            std::span<const uint8_t> payload;
            if (parse(&h, &payload)) {
                if (h.type == kFrameReply) {
                    held_ = sizeof h + h.size;  // released at the next call
                    ++stats_.replies;
                    return payload;
                }
                handle_other(h, payload);
                sock_.rx_consume(sizeof h + h.size);
                continue;
            }
            if (!lost_.empty()) continue;
            receive(&stats_.reply);
        }
    }

    const std::string& lost_reason() const override { return lost_; }
    std::string_view transport() const override { return "tcp"; }
    uint64_t session_id() const override { return session_; }

    bool poll_event(Event* out) override {
        begin_call();
        if (lost_.empty() && !eof_ && !sock_.pump(kMaxClientBuffered)) eof_ = true;
        drain_nonreply();
        if (eof_ && sock_.buffered() == 0) lose("the server closed the connection");
        if (events_.empty()) return false;
        *out = std::move(events_.front());
        events_.pop_front();
        return true;
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        if (sock_.valid() && lost_.empty()) {
            auto bye = encode_goodbye();
            sock_.write_frame(kFrameControl, bye, Clock::now() + std::chrono::milliseconds(200));
        }
        sock_.close();
        if (lost_.empty()) lost_ = "the client closed the connection";
    }

    LinkStats stats() const override { return stats_; }

    bool wait_applied(uint8_t* written, Window* window) override {
        // tcp carries no consumer cursor back: use a sync verb instead.
        send_records(written);
        *window = window_ = lost_.empty() ? fresh() : blackhole();
        return lost_.empty();
    }

private:
    uint8_t* tx() { return reinterpret_cast<uint8_t*>(tx_.data()); }
    Window fresh() { return {tx() + sizeof(FrameHeader), tx() + sizeof(FrameHeader) + batch_}; }
    Window blackhole() {
        auto* p = reinterpret_cast<uint8_t*>(scratch_.data());
        return {p, p + batch_};
    }

    void lose(std::string why) {
        if (!lost_.empty()) return;
        lost_ = std::move(why);
        spdlog::warn("mgl tcp session {}: connection lost: {}", session_, lost_);
    }

    void begin_call() {
        if (held_) {
            sock_.rx_consume(held_);
            held_ = 0;
        }
    }

    // One frame header and payload for the whole batch, one gathered write.
    // While the kernel's send buffer is full we keep reading what the server
    // sends (events), so two full buffers can never deadlock.
    void send_records(uint8_t* written) {
        // nullptr: nothing written yet (an encoder's first call).
        if (written == nullptr || window_.begin != fresh().begin || !lost_.empty()) return;
        if (written < window_.begin || written > window_.end) {
            lose("the encoder wrote outside its window");
            return;
        }
        size_t n = size_t(written - window_.begin);
        if (n == 0) return;
        FrameHeader h{uint32_t(n), kFrameRecords, 0};
        std::memcpy(tx(), &h, sizeof h);
        const uint8_t* p = tx();
        size_t left = sizeof h + n;
        while (left > 0) {
            ssize_t w = ::send(sock_.fd(), p, left, MSG_NOSIGNAL);
            if (w > 0) {
                p += w;
                left -= size_t(w);
                continue;
            }
            if (w < 0 && errno == EINTR) continue;
            if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                // A fault event may explain why the server went away.
                int err = errno;
                if (!eof_ && !sock_.pump(kMaxClientBuffered)) eof_ = true;
                drain_nonreply();
                lose(fmt::format("send failed: {}", std::strerror(err)));
                return;
            }
            ++stats_.data.waits;
            ++stats_.data.parks;
            short ev = sock_.wait(POLLOUT | POLLIN, Clock::now() + kSlice);
            if (ev & POLLIN) {
                if (!sock_.pump(kMaxClientBuffered)) eof_ = true;
                drain_nonreply();
                if (eof_) { lose("the server closed the connection"); return; }
                if (sock_.buffered() >= kMaxClientBuffered) { lose("too many unread events"); return; }
            }
            if (ev & POLLERR) { lose("connection error"); return; }
        }
        stats_.bytes += n;
        ++stats_.publishes;
        ++stats_.wakes_sent;
    }

    // A whole frame at the front of the receive buffer?
    bool parse(FrameHeader* h, std::span<const uint8_t>* payload) {
        std::span<const uint8_t> rx = sock_.rx();
        if (rx.size() < sizeof *h) return false;
        std::memcpy(h, rx.data(), sizeof *h);
        if (h->size > kMaxReplyFrame) {
            lose(fmt::format("server frame of {} bytes exceeds the limit", h->size));
            return false;
        }
        if (rx.size() - sizeof *h < h->size) {
            sock_.rx_reserve(sizeof *h + h->size);
            return false;
        }
        *payload = rx.subspan(sizeof *h, h->size);
        return true;
    }

    void handle_other(const FrameHeader& h, std::span<const uint8_t> payload) {
        Event e;
        if (h.type == kFrameEvent && decode_event(payload, &e)) {
            ++stats_.events;
            if (e.kind != Event::Kind::gl_error) lose(describe(e));
            queue_event(events_, std::move(e));
            return;
        }
        lose(fmt::format("unexpected frame type {} from the server", h.type));
    }

    // Takes every complete event frame off the front of the buffer (a reply
    // is left where it is: wait_reply takes it).
    void drain_nonreply() {
        FrameHeader h{};
        std::span<const uint8_t> payload;
        while (lost_.empty() && parse(&h, &payload) && h.type != kFrameReply) {
            handle_other(h, payload);
            sock_.rx_consume(sizeof h + h.size);
        }
    }

    // Blocks until more bytes arrive (a park on the socket). Bytes that came
    // before an EOF are parsed first: a fault event explains the close.
    void receive(DoorbellStats* st) {
        ++st->waits;
        if (!eof_ && !sock_.pump(kMaxClientBuffered)) eof_ = true;
        FrameHeader h{};
        std::span<const uint8_t> payload;
        if (parse(&h, &payload) || !lost_.empty()) { ++st->spin_hits; return; }
        if (eof_) { lose("the server closed the connection (it may have died)"); return; }
        ++st->parks;
        short ev = sock_.wait(POLLIN, Clock::now() + std::chrono::seconds(1));
        if (ev == 0) { ++st->timeouts; return; }
        if (!sock_.pump(kMaxClientBuffered)) eof_ = true;
        else if (sock_.buffered() == 0 && (ev & (POLLHUP | POLLERR))) lose("connection lost");
    }

    FramedSocket sock_;
    uint64_t session_;
    uint32_t batch_;
    std::vector<uint64_t> tx_;       // frame header + records, 8-aligned
    std::vector<uint64_t> scratch_;
    Window window_{};
    size_t held_ = 0;
    bool eof_ = false;
    std::deque<Event> events_;
    std::string lost_;
    bool closed_ = false;
    LinkStats stats_;
};

// ---------------------------------------------------------------- server

class TcpServer final : public ServerLink, public ReplySink {
public:
    TcpServer(FramedSocket sock, uint32_t max_frame) : sock_(std::move(sock)), max_frame_(max_frame) {}
    ~TcpServer() override { close(); }

    std::span<const uint8_t> wait_readable() override {
        if (end_ != LinkEnd::none) return {};
        if (!flush_tx(Clock::time_point::max(), true)) return {};
        if (frame_size_) {  // the decoder left part of the last frame
            if (frame_off_ < frame_size_) return current_.subspan(frame_off_);
            sock_.rx_consume(sizeof(FrameHeader) + frame_size_);
            frame_size_ = frame_off_ = 0;
        }
        for (;;) {
            std::span<const uint8_t> rx = sock_.rx();
            if (rx.size() >= sizeof(FrameHeader)) {
                FrameHeader h{};
                std::memcpy(&h, rx.data(), sizeof h);
                bool control = h.type == kFrameControl;
                if ((h.type != kFrameRecords && !control) || h.size > (control ? kMaxControlFrame : max_frame_) ||
                    (!control && (h.size == 0 || (h.size & 7))))
                    return finish(LinkEnd::corrupt, fmt::format("bad frame from the client (type {}, {} bytes)",
                                                                h.type, h.size));
                if (rx.size() - sizeof h >= h.size) {
                    std::span<const uint8_t> payload = rx.subspan(sizeof h, h.size);
                    if (control) {
                        ControlMessage m = decode_control(payload);
                        sock_.rx_consume(sizeof h + h.size);
                        if (m.kind == ControlKind::goodbye)
                            return finish(LinkEnd::peer_closed, "the client closed the session");
                        return finish(LinkEnd::corrupt, "unexpected control message from the client");
                    }
                    frame_size_ = h.size;
                    frame_off_ = 0;
                    current_ = payload;
                    ++stats_.publishes;
                    return current_;
                }
                sock_.rx_reserve(sizeof h + h.size);
            }
            if (interrupted_.load(std::memory_order_acquire)) return finish(LinkEnd::interrupted, "server stopping");
            ++stats_.data.waits;
            // Whole frames that arrived before an EOF are still applied.
            if (eof_) return finish(LinkEnd::peer_lost, "the client's connection closed");
            size_t had = rx.size();
            size_t limit = size_t(max_frame_) + 2 * sizeof(FrameHeader) + (64u << 10);
            if (!sock_.pump(limit)) { eof_ = true; continue; }
            if (sock_.buffered() > had) { ++stats_.data.spin_hits; continue; }
            ++stats_.data.parks;
            short ev = sock_.wait(POLLIN, Clock::now() + kSlice);
            if (ev == 0) ++stats_.data.timeouts;
            else if (!sock_.pump(limit)) eof_ = true;
        }
    }

    void consume(size_t n) override {
        frame_off_ += n;
        stats_.bytes += n;
    }

    ReplySink& replies() override { return *this; }

    uint8_t* begin_reply(uint32_t bytes) override {
        reply_at_ = txbuf_.size();
        FrameHeader h{bytes, kFrameReply, 0};
        txbuf_.resize(reply_at_ + sizeof h + bytes, 0);
        std::memcpy(txbuf_.data() + reply_at_, &h, sizeof h);
        return txbuf_.data() + reply_at_ + sizeof h;
    }

    void end_reply() override {
        ++stats_.replies;
        // Replies go out at the next wait (batched with anything after them
        // in the same span) or right now when they are big.
        if (txbuf_.size() > (256u << 10)) flush_tx(Clock::time_point::max(), true);
    }

    bool send_event(const Event& e) override {
        std::vector<uint8_t> bytes = encode_event(e);
        FrameHeader h{uint32_t(bytes.size()), kFrameEvent, 0};
        size_t at = txbuf_.size();
        txbuf_.resize(at + sizeof h + bytes.size());
        std::memcpy(txbuf_.data() + at, &h, sizeof h);
        std::memcpy(txbuf_.data() + at + sizeof h, bytes.data(), bytes.size());
        ++stats_.events;
        return true;
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        // The last events (a fault) get a bounded chance to leave.
        flush_tx(Clock::now() + std::chrono::seconds(1), false);
        std::lock_guard lock(fd_mutex_);
        sock_.close();
    }

    void interrupt() override {
        interrupted_.store(true, std::memory_order_release);
        // Wakes a poll() in the apply thread at once; writes still work.
        // Under the mutex: the fd number must not be reused under our feet.
        std::lock_guard lock(fd_mutex_);
        if (sock_.valid()) ::shutdown(sock_.fd(), SHUT_RD);
    }

    LinkEnd end() const override { return end_; }
    const std::string& end_reason() const override { return reason_; }
    LinkStats stats() const override { return stats_; }

private:
    std::span<const uint8_t> finish(LinkEnd e, std::string why) {
        if (end_ == LinkEnd::none) {
            end_ = e;
            reason_ = std::move(why);
        }
        return {};
    }

    // Sends queued replies and events; waits (backpressure) while the client
    // does not read, in slices so that a stop request is honoured.
    bool flush_tx(Clock::time_point deadline, bool stop_on_interrupt) {
        size_t off = 0;
        bool ok = true;
        while (off < txbuf_.size()) {
            ssize_t w = ::send(sock_.fd(), txbuf_.data() + off, txbuf_.size() - off, MSG_NOSIGNAL);
            if (w > 0) { off += size_t(w); continue; }
            if (w < 0 && errno == EINTR) continue;
            if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                finish(LinkEnd::peer_lost, "the client's connection broke");
                ok = false;
                break;
            }
            if (stop_on_interrupt && interrupted_.load(std::memory_order_acquire)) {
                finish(LinkEnd::interrupted, "server stopping");
                ok = false;
                break;
            }
            if (Clock::now() >= deadline) { ok = false; break; }
            ++stats_.reply.parks;
            short ev = sock_.wait(POLLOUT, std::min(deadline, Clock::now() + kSlice));
            if (ev & (POLLERR | POLLHUP)) {
                finish(LinkEnd::peer_lost, "the client's connection broke");
                ok = false;
                break;
            }
        }
        if (off) ++stats_.wakes_sent;
        txbuf_.clear();
        return ok;
    }

    FramedSocket sock_;
    uint32_t max_frame_;
    std::span<const uint8_t> current_;
    size_t frame_size_ = 0, frame_off_ = 0;
    std::vector<uint8_t> txbuf_;
    size_t reply_at_ = 0;
    bool eof_ = false;
    std::atomic<bool> interrupted_{false};
    std::mutex fd_mutex_;
    LinkEnd end_ = LinkEnd::none;
    std::string reason_;
    bool closed_ = false;
    LinkStats stats_;
};

}  // namespace

std::unique_ptr<Connection> make_tcp_client(FramedSocket socket, uint64_t session_id, uint32_t batch_bytes) {
    if (batch_bytes < 4096) batch_bytes = 4096;
    return std::make_unique<TcpClient>(std::move(socket), session_id, batch_bytes);
}

std::unique_ptr<ServerLink> make_tcp_server(FramedSocket socket, uint32_t max_record_frame) {
    return std::make_unique<TcpServer>(std::move(socket), max_record_frame);
}

}  // namespace mgl::wire
