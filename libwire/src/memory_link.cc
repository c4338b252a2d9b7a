#include "mgl/wire/memory_link.h"

#include <cstring>

namespace mgl::wire {

uint8_t* VectorReplySink::begin_reply(uint32_t bytes) {
    open_.assign(bytes, 0);
    return open_.data();
}

void VectorReplySink::end_reply() {
    replies.push_back(std::move(open_));
    open_.clear();
    while (replies.size() > keep) replies.pop_front();
}

MemoryLink::MemoryLink(size_t window_bytes, size_t max_record) : window_(window_bytes), max_record_(max_record) {}

void MemoryLink::commit(uint8_t* written) {
    if (!written) return;
    published_.insert(published_.end(), window_.data(), written);
}

Window MemoryLink::next_window(uint8_t* written, size_t min_bytes) {
    commit(written);
    if (window_.size() < min_bytes) window_.resize(min_bytes);
    return {window_.data(), window_.data() + window_.size()};
}

Window MemoryLink::flush(uint8_t* written) { return next_window(written, 0); }

std::span<const uint8_t> MemoryLink::wait_reply(uint8_t* written, Window* window) {
    *window = next_window(written, 0);
    if (on_reply) on_reply(*this);
    if (replies.replies.empty()) {
        lost_ = "no reply";
        return {};
    }
    reply_ = std::move(replies.replies.front());
    replies.replies.pop_front();
    return reply_;
}

}  // namespace mgl::wire
