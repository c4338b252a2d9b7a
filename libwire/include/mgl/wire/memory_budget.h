// What one session may hold in server memory: the record it is reassembling
// from chunks, and the objects its backend made for it (buffer and texture
// storage, as far as the backend counts them). One session must not be able
// to take the memory the server's other sessions need, so going over the
// budget ends that session with a fault that names the budget and the cause.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace mgl::wire {

class MemoryBudget {
public:
    // 512 MiB: above any reference trace's peak (a few tens of MiB per session)
    // and a long way below what 256 sessions could otherwise pin.
    static constexpr uint64_t kDefaultBytes = 512ull << 20;

    explicit MemoryBudget(uint64_t limit = kDefaultBytes) : limit_(limit) {}
    void set_limit(uint64_t limit) { limit_ = limit; }
    uint64_t limit() const { return limit_; }

    uint64_t chunks() const { return chunks_; }
    uint64_t objects() const { return objects_; }
    uint64_t used() const { return chunks_ + objects_; }

    // Whether `more` bytes fit beside what is held now (minus `replacing`,
    // object bytes the new allocation frees: a buffer's old storage). When not, the
    // reason is kept (the first one) for the session's fault, and the caller
    // allocates nothing.
    bool fits(const char* what, uint64_t more, uint64_t replacing = 0) {
        const uint64_t base = used() - (replacing < objects_ ? replacing : objects_);
        if (more <= limit_ && base <= limit_ - more) return true;
        if (exceeded_.empty())
            exceeded_ = fmt::format("session memory budget of {} bytes exceeded by {}: {} bytes asked, {} held", limit_,
                                    what, more, used());
        return false;
    }
    // Chunk reassembly: bytes reserved for the record being assembled.
    void set_chunks(uint64_t bytes) { chunks_ = bytes; }
    // Backend objects: storage made (positive) or freed (negative).
    void add_objects(int64_t delta) {
        objects_ = delta < 0 && uint64_t(-delta) > objects_ ? 0 : objects_ + uint64_t(delta);
    }
    // Non-empty once the budget was exceeded: the session ends with this message.
    const std::string& exceeded() const { return exceeded_; }

private:
    uint64_t limit_;
    uint64_t chunks_ = 0;
    uint64_t objects_ = 0;
    std::string exceeded_;
};

}  // namespace mgl::wire
