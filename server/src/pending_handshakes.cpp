#include "pending_handshakes.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

#include <spdlog/spdlog.h>

#include <asio/posix/stream_descriptor.hpp>
#include <asio/steady_timer.hpp>
#include <asio/write.hpp>

namespace mgl::server {

struct PendingHandshakes::Conn : std::enable_shared_from_this<Conn> {
    Conn(PendingHandshakes* owner, int fd, std::string peer)
        : owner(owner), sd(owner->io_, fd), deadline(owner->io_), wait(owner->io_), peer(std::move(peer)) {}

    PendingHandshakes* owner;
    asio::posix::stream_descriptor sd;
    asio::steady_timer deadline;
    asio::steady_timer wait;        // a token check put off by the gate
    std::string peer;
    wire::FrameHeader header{};
    std::vector<uint8_t> payload;
    std::vector<uint8_t> out;       // a refusal being written
    wire::ControlMessage hello;
    size_t received = 0;            // bytes of the hello (header, then payload) read so far
    bool reserved = false;          // holds a TokenGate reservation
    bool done = false;
    std::list<std::shared_ptr<Conn>>::iterator pos;

    void start() {
        auto self = shared_from_this();
        deadline.expires_after(owner->limits_.timeout);
        deadline.async_wait([self](const asio::error_code& ec) {
            if (!ec && !self->done) {
                spdlog::debug("mgl server: {}: no hello within the deadline", self->peer);
                self->end();
            }
        });
        asio::error_code ec;
        sd.non_blocking(true, ec);
        if (ec) return end();
        wait_readable();
    }

    // The hello is read by hand (readiness, then non-blocking reads) rather
    // than with asio::async_read, so that `received` always says how much of
    // it has arrived: with async_read a hello already read by a speculative
    // read but whose handler had not run yet looked silent, and the cap could
    // drop that real client for sockets that never spoke.
    void wait_readable() {
        auto self = shared_from_this();
        sd.async_wait(asio::posix::stream_descriptor::wait_read, [self](const asio::error_code& ec) {
            if (ec || self->done) return self->end();
            self->read_available();
        });
    }

    void read_available() {
        for (;;) {
            uint8_t* dst;
            size_t want;
            if (received < sizeof header) {
                dst = reinterpret_cast<uint8_t*>(&header) + received;
                want = sizeof header - received;
            } else {
                dst = payload.data() + (received - sizeof header);
                want = payload.size() - (received - sizeof header);
            }
            ssize_t n = ::read(sd.native_handle(), dst, want);
            if (n == 0) return end();  // the peer left
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) return wait_readable();
                return end();
            }
            received += size_t(n);
            if (received == sizeof header) {
                if (header.type != wire::kFrameControl || header.size == 0 || header.size > wire::kMaxControlFrame)
                    return refuse({wire::RefusalReason::bad_message, "the first message must be a hello"});
                payload.resize(header.size);
            } else if (received == sizeof header + payload.size()) {
                return got_hello();
            }
        }
    }

    void got_hello() {
        hello = wire::decode_control(payload);
        if (hello.kind != wire::ControlKind::hello)
            return refuse({wire::RefusalReason::bad_message, "the first message must be a hello"});
        TokenGate* gate = owner->gate_;
        if (!gate || !gate->enabled()) return hand_over();
        std::optional<TokenGate::Clock::time_point> at = gate->reserve(peer);
        if (!at)
            return refuse({wire::RefusalReason::bad_token,
                           "too many failed tokens from this address: try again later"});
        reserved = true;
        if (*at <= TokenGate::Clock::now()) return check_token();
        auto self = shared_from_this();
        wait.expires_at(*at);
        wait.async_wait([self](const asio::error_code& ec) {
            if (!ec && !self->done) self->check_token();
        });
    }

    void check_token() {
        reserved = false;
        if (!owner->gate_->check(peer, hello.hello.token)) {
            // Says nothing about the build: no fingerprint, no build id.
            return refuse({wire::RefusalReason::bad_token, hello.hello.token.empty()
                                                               ? "this server requires a token (MOBILEGL_IPC_TOKEN)"
                                                               : "the token does not match"});
        }
        hand_over();
    }

    void hand_over() {
        asio::error_code ec;
        deadline.cancel(ec);
        int fd = sd.release();
        PendingHandshakes* o = owner;
        Via via = o->via_;
        wire::ControlMessage m = std::move(hello);
        finish();
        o->on_hello_(wire::FramedSocket(fd), via, std::move(m));
    }

    void refuse(const wire::Refusal& r) {
        spdlog::info("mgl server: {} refused: {}: {}", peer, wire::to_string(r.reason), r.message);
        owner->on_refusal_();
        std::vector<uint8_t> body = wire::encode_refusal(r);
        wire::FrameHeader h{uint32_t(body.size()), wire::kFrameControl, 0};
        out.assign(reinterpret_cast<const uint8_t*>(&h), reinterpret_cast<const uint8_t*>(&h) + sizeof h);
        out.insert(out.end(), body.begin(), body.end());
        auto self = shared_from_this();
        asio::async_write(sd, asio::buffer(out), [self](const asio::error_code&, size_t) { self->end(); });
    }

    // Closes the socket (if still ours) and leaves the pending list.
    void end() {
        if (done) return;
        asio::error_code ec;
        sd.close(ec);
        finish();
    }

    void finish() {
        if (done) return;
        done = true;
        asio::error_code ec;
        deadline.cancel(ec);
        wait.cancel(ec);
        if (reserved) owner->gate_->cancel(peer);
        reserved = false;
        owner->remove(this);  // may drop the last reference: nothing after this
    }
};

PendingHandshakes::PendingHandshakes(asio::io_context& io, Via via, HandshakeLimits limits, TokenGate* gate,
                                     OnHello on_hello, std::function<void()> on_refusal)
    : io_(io), via_(via), limits_(limits), gate_(gate), on_hello_(std::move(on_hello)),
      on_refusal_(std::move(on_refusal)) {
    if (limits_.max_pending == 0) limits_.max_pending = 1;
}

PendingHandshakes::~PendingHandshakes() { close_all(); }

void PendingHandshakes::add(int fd, std::string peer) {
    while (pending_.size() >= limits_.max_pending) {
        if (!at_cap_) {
            spdlog::warn("mgl server: {} handshakes pending (the cap): dropping the oldest ones "
                         "(logged once until fewer are pending)", pending_.size());
            at_cap_ = true;
        }
        ++dropped_;
        drop_for_newcomer();
    }
    if (at_cap_ && pending_.size() < limits_.max_pending / 2) {
        spdlog::info("mgl server: pending handshakes back under the cap ({} dropped so far)", dropped_);
        at_cap_ = false;
    }
    std::shared_ptr<Conn> c;
    try {
        c = std::make_shared<Conn>(this, fd, std::move(peer));
    } catch (const std::exception& e) {
        spdlog::warn("mgl server: cannot take a connection: {}", e.what());
        ::close(fd);
        return;
    }
    pending_.push_back(c);
    c->pos = std::prev(pending_.end());
    c->start();
}

bool PendingHandshakes::drop_oldest() {
    if (pending_.empty()) return false;
    std::shared_ptr<Conn> c = pending_.front();
    c->end();
    return true;
}

void PendingHandshakes::drop_for_newcomer() {
    // Only the oldest few are looked at: one ioctl each, per accepted socket at the cap.
    // First choice: a socket that has sent nothing at all; then one stalled in
    // the middle of its hello (nothing more waiting); a hello whose bytes are
    // in the socket is dropped only when every socket looked at has some.
    constexpr int kLookedAt = 64;
    auto waiting_bytes = [](const std::shared_ptr<Conn>& c) {
        int waiting = 0;
        return ::ioctl(c->sd.native_handle(), FIONREAD, &waiting) == 0 ? waiting : 1;
    };
    std::shared_ptr<Conn> stalled;
    int looked = 0;
    for (const std::shared_ptr<Conn>& c : pending_) {
        if (looked++ == kLookedAt) break;
        if (c->reserved || waiting_bytes(c) != 0) continue;
        if (c->received == 0) {
            std::shared_ptr<Conn> keep = c;  // end() leaves the list: hold it past the erase
            keep->end();
            return;
        }
        if (!stalled) stalled = c;
    }
    if (stalled) return stalled->end();
    drop_oldest();
}

void PendingHandshakes::close_all() {
    while (!pending_.empty()) {
        std::shared_ptr<Conn> c = pending_.front();
        c->end();
    }
}

void PendingHandshakes::remove(Conn* c) { pending_.erase(c->pos); }

}  // namespace mgl::server
