// Boost.Interprocess shared memory for the shm transport (see shm_segment.h).
#include "mgl/wire/transport/shm_segment.h"

#include <unistd.h>

#include <boost/interprocess/mapped_region.hpp>
#include <boost/interprocess/shared_memory_object.hpp>
#include <fmt/format.h>

#include <atomic>
#include <random>

namespace bip = boost::interprocess;

namespace mgl::wire {

struct ShmSegment::Impl {
    bip::mapped_region region;
};

ShmSegment::ShmSegment(std::unique_ptr<Impl> impl, std::string name) : impl_(std::move(impl)), name_(std::move(name)) {}

ShmSegment::~ShmSegment() {
    // The server removes the name once the client attached; this catches the
    // sessions that ended before that.
    remove_name();
}

std::unique_ptr<ShmSegment> ShmSegment::create(const std::string& name, uint64_t bytes, std::string* error) {
    try {
        bip::shared_memory_object obj(bip::create_only, name.c_str(), bip::read_write, bip::permissions(0600));
        obj.truncate(bip::offset_t(bytes));  // ftruncate: the pages read as zeros
        auto impl = std::make_unique<Impl>();
        impl->region = bip::mapped_region(obj, bip::read_write, 0, bytes);
        return std::unique_ptr<ShmSegment>(new ShmSegment(std::move(impl), name));
    } catch (const bip::interprocess_exception& e) {
        bip::shared_memory_object::remove(name.c_str());
        *error = fmt::format("cannot create shared memory {}: {}", name, e.what());
        return nullptr;
    }
}

std::unique_ptr<ShmSegment> ShmSegment::open(const std::string& name, uint64_t min_bytes, std::string* error) {
    try {
        bip::shared_memory_object obj(bip::open_only, name.c_str(), bip::read_write);
        bip::offset_t size = 0;
        if (!obj.get_size(size) || uint64_t(size) < min_bytes) {
            *error = fmt::format("shared memory {} is {} bytes, expected at least {}", name, size, min_bytes);
            return nullptr;
        }
        auto impl = std::make_unique<Impl>();
        impl->region = bip::mapped_region(obj, bip::read_write, 0, size_t(size));
        auto seg = std::unique_ptr<ShmSegment>(new ShmSegment(std::move(impl), name));
        seg->named_ = false;  // the client never removes the server's name
        return seg;
    } catch (const bip::interprocess_exception& e) {
        *error = fmt::format("cannot open shared memory {}: {}", name, e.what());
        return nullptr;
    }
}

std::string ShmSegment::unique_name(uint64_t session_id) {
    static std::atomic<uint64_t> counter{0};
    std::random_device rd;
    return fmt::format("/mgl-{}-{}-{:08x}{:08x}", ::getpid(), session_id, rd(), uint32_t(counter++));
}

void ShmSegment::remove_name() {
    if (named_) {
        bip::shared_memory_object::remove(name_.c_str());
        named_ = false;
    }
}

void* ShmSegment::data() const { return impl_->region.get_address(); }
uint64_t ShmSegment::size() const { return impl_->region.get_size(); }

}  // namespace mgl::wire
