// A connected stream socket (unix or tcp) carrying length-prefixed frames:
// the handshake on every socket transport, and everything on tcp.
//
//   | size:u32 (payload bytes) | type:u16 | flags:u16 | payload |
//
// Every frame read is bounds-checked against a maximum before any memory is
// reserved for it. Sockets are non-blocking underneath; waits use poll() with
// deadlines so that nothing blocks forever on a dead peer.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mgl::wire {

enum FrameType : uint16_t {
    kFrameControl = 1,   // a control message (control.h)
    kFrameRecords = 2,   // client -> server: whole records (tcp)
    kFrameReply = 3,     // server -> client: one reply (tcp)
    kFrameEvent = 4,     // server -> client: an event (tcp)
};

struct FrameHeader {
    uint32_t size;
    uint16_t type;
    uint16_t flags;
};
static_assert(sizeof(FrameHeader) == 8);

inline constexpr uint32_t kMaxControlFrame = 64u << 10;

using Clock = std::chrono::steady_clock;

class FramedSocket {
public:
    FramedSocket() = default;
    explicit FramedSocket(int fd);   // takes ownership; makes it non-blocking
    ~FramedSocket();
    FramedSocket(FramedSocket&& o) noexcept;
    FramedSocket& operator=(FramedSocket&& o) noexcept;

    int fd() const { return fd_; }
    bool valid() const { return fd_ >= 0; }

    // Writes all of `parts` (gathered, one system call when the kernel takes
    // it all). false if the peer is gone or the deadline passed.
    bool write_all(std::span<const std::span<const uint8_t>> parts, Clock::time_point deadline);
    bool write_frame(uint16_t type, std::span<const uint8_t> payload, Clock::time_point deadline);

    // Reads one whole frame of at most `max_size` payload bytes into
    // `payload` (buffered: one recv may bring several frames). Returns false
    // on EOF, error, timeout or an oversized frame; `error` says which.
    bool read_frame(FrameHeader* header, std::vector<uint8_t>* payload, uint32_t max_size,
                    Clock::time_point deadline, std::string* error);

    // Bytes received but not yet taken by read_frame.
    size_t buffered() const { return rx_end_ - rx_begin_; }
    // Reads what the kernel holds without blocking, until `limit` bytes are
    // buffered (a fast peer cannot grow our memory); false on EOF/error, after
    // keeping whatever arrived before it.
    bool pump(size_t limit = 16u << 20);
    // The buffered bytes, for a reader that parses in place (tcp links).
    std::span<const uint8_t> rx() const { return {rx_.data() + rx_begin_, rx_end_ - rx_begin_}; }
    void rx_consume(size_t n) { rx_begin_ += n; }
    // Makes room so that `n` bytes fit after rx_begin_ (compacts or grows).
    void rx_reserve(size_t n);

    // Waits until readable/writable or the deadline. Returns the poll revents
    // (0 on timeout).
    short wait(short events, Clock::time_point deadline) const;
    // Non-blocking liveness for sockets idle after the handshake (shm):
    // drops anything received; false once the peer has hung up.
    bool peer_alive();

    void shutdown();   // wakes any thread blocked in wait() on this socket
    void close();

private:
    int fd_ = -1;
    std::vector<uint8_t> rx_;
    size_t rx_begin_ = 0, rx_end_ = 0;
};

// Socket options for the data plane: TCP_NODELAY, keepalive and a user
// timeout so a vanished remote host is noticed.
void tune_tcp_socket(int fd);

}  // namespace mgl::wire
