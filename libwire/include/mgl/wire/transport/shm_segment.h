// A Boost.Interprocess shared memory segment holding one session's rings.
//
// The server creates it under a unique name, the client opens it by that
// name (from the welcome), and as soon as the client says it is attached the
// server removes the name: from then on the memory lives exactly as long as
// the two mappings, so a kill -9 of either side leaks nothing in /dev/shm.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace mgl::wire {

class ShmSegment {
public:
    // Server: a fresh zeroed segment of `bytes`. nullptr + error on failure.
    static std::unique_ptr<ShmSegment> create(const std::string& name, uint64_t bytes, std::string* error);
    // Client: maps an existing segment; checks it is at least `min_bytes`.
    static std::unique_ptr<ShmSegment> open(const std::string& name, uint64_t min_bytes, std::string* error);
    // A name nobody else uses: "/mgl-<pid>-<session>-<random>".
    static std::string unique_name(uint64_t session_id);
    // Removes the name (idempotent); the mapping stays valid.
    void remove_name();

    ~ShmSegment();
    void* data() const;
    uint64_t size() const;
    const std::string& name() const { return name_; }

private:
    struct Impl;
    explicit ShmSegment(std::unique_ptr<Impl> impl, std::string name);
    std::unique_ptr<Impl> impl_;
    std::string name_;
    bool named_ = true;
};

}  // namespace mgl::wire
