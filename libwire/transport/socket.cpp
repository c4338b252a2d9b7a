// Length-prefixed frames over a non-blocking stream socket (see socket.h).
#include "mgl/wire/transport/socket.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace mgl::wire {

FramedSocket::FramedSocket(int fd) : fd_(fd) {
    if (fd_ >= 0) {
        int fl = fcntl(fd_, F_GETFL);
        fcntl(fd_, F_SETFL, fl | O_NONBLOCK);
    }
}

FramedSocket::~FramedSocket() { close(); }

FramedSocket::FramedSocket(FramedSocket&& o) noexcept { *this = std::move(o); }

FramedSocket& FramedSocket::operator=(FramedSocket&& o) noexcept {
    if (this != &o) {
        close();
        fd_ = o.fd_;
        o.fd_ = -1;
        rx_ = std::move(o.rx_);
        rx_begin_ = o.rx_begin_;
        rx_end_ = o.rx_end_;
        o.rx_begin_ = o.rx_end_ = 0;
    }
    return *this;
}

void FramedSocket::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void FramedSocket::shutdown() {
    if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

short FramedSocket::wait(short events, Clock::time_point deadline) const {
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left < 0) left = 0;
        // Cap each poll so a huge deadline (time_point::max) cannot overflow int.
        int ms = left > 1000 ? 1000 : int(left);
        pollfd p{fd_, short(events | POLLRDHUP), 0};
        int r = ::poll(&p, 1, ms);
        if (r > 0) return p.revents;
        if (r < 0 && errno != EINTR) return POLLERR;
        if (r == 0 && ms == left) return 0;
    }
}

bool FramedSocket::write_all(std::span<const std::span<const uint8_t>> parts, Clock::time_point deadline) {
    iovec iov[8];
    size_t n = parts.size() < 8 ? parts.size() : 8;
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        iov[i] = {const_cast<uint8_t*>(parts[i].data()), parts[i].size()};
        total += parts[i].size();
    }
    size_t first = 0;
    while (total > 0) {
        msghdr msg{};
        msg.msg_iov = iov + first;
        msg.msg_iovlen = n - first;
        ssize_t w = ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
            short ev = wait(POLLOUT, deadline);
            if (ev == 0 || (ev & (POLLERR | POLLHUP))) return false;
            continue;
        }
        total -= size_t(w);
        size_t left = size_t(w);
        while (first < n && left >= iov[first].iov_len) {
            left -= iov[first].iov_len;
            ++first;
        }
        if (first < n) {
            iov[first].iov_base = static_cast<uint8_t*>(iov[first].iov_base) + left;
            iov[first].iov_len -= left;
        }
    }
    return true;
}

bool FramedSocket::write_frame(uint16_t type, std::span<const uint8_t> payload, Clock::time_point deadline) {
    FrameHeader h{uint32_t(payload.size()), type, 0};
    std::span<const uint8_t> parts[2] = {{reinterpret_cast<const uint8_t*>(&h), sizeof h}, payload};
    return write_all(parts, deadline);
}

void FramedSocket::rx_reserve(size_t n) {
    if (rx_begin_ == rx_end_) rx_begin_ = rx_end_ = 0;
    if (rx_.size() - rx_begin_ >= n) return;
    if (rx_begin_ > 0) {
        std::memmove(rx_.data(), rx_.data() + rx_begin_, rx_end_ - rx_begin_);
        rx_end_ -= rx_begin_;
        rx_begin_ = 0;
    }
    if (rx_.size() < n) rx_.resize(n < 65536 ? 65536 : n);
}

bool FramedSocket::pump(size_t limit) {
    for (;;) {
        size_t have = rx_end_ - rx_begin_;
        if (have >= limit) return true;
        size_t want = limit - have < 65536 ? limit - have : 65536;
        if (rx_.size() - rx_end_ < want) rx_reserve(have + want);
        ssize_t r = ::recv(fd_, rx_.data() + rx_end_, rx_.size() - rx_end_, MSG_DONTWAIT);
        if (r > 0) {
            rx_end_ += size_t(r);
            if (rx_end_ < rx_.size()) return true;  // drained what the kernel had
            continue;
        }
        if (r == 0) return false;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
}

bool FramedSocket::read_frame(FrameHeader* header, std::vector<uint8_t>* payload, uint32_t max_size,
                              Clock::time_point deadline, std::string* error) {
    auto need = [&](size_t n) -> bool {
        while (buffered() < n) {
            rx_reserve(n);
            ssize_t r = ::recv(fd_, rx_.data() + rx_end_, rx_.size() - rx_end_, 0);
            if (r > 0) { rx_end_ += size_t(r); continue; }
            if (r == 0) { *error = "connection closed by peer"; return false; }
            if (errno == EINTR) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) { *error = std::strerror(errno); return false; }
            short ev = wait(POLLIN, deadline);
            if (ev == 0) { *error = "timed out"; return false; }
            if ((ev & POLLERR) || ((ev & (POLLHUP | POLLRDHUP)) && !(ev & POLLIN))) {
                *error = "connection lost";
                return false;
            }
        }
        return true;
    };
    if (!need(sizeof(FrameHeader))) return false;
    std::memcpy(header, rx_.data() + rx_begin_, sizeof(FrameHeader));
    if (header->size > max_size) {
        *error = fmt::format("frame of {} bytes exceeds the limit of {}", header->size, max_size);
        return false;
    }
    if (!need(sizeof(FrameHeader) + header->size)) return false;
    const uint8_t* p = rx_.data() + rx_begin_ + sizeof(FrameHeader);
    payload->assign(p, p + header->size);
    rx_begin_ += sizeof(FrameHeader) + header->size;
    return true;
}

bool FramedSocket::peer_alive() {
    if (fd_ < 0) return false;
    // Used on sockets that carry nothing after the handshake (shm): whatever
    // arrives is read and dropped, so a chatty peer cannot grow our memory.
    uint8_t sink[512];
    for (;;) {
        ssize_t r = ::recv(fd_, sink, sizeof sink, MSG_DONTWAIT);
        if (r > 0) continue;
        if (r == 0) return false;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
}

void tune_tcp_socket(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    int idle = 5, intvl = 1, cnt = 3;
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
    unsigned timeout_ms = 10000;  // unacknowledged data for this long: the peer is gone
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &timeout_ms, sizeof timeout_ms);
}

}  // namespace mgl::wire
