#include "deferred_replies.h"

namespace mgl::client {

std::span<const uint8_t> DeferredReplies::wait_reply(uint8_t* written, wire::Window* window) {
    if (!raw_) {
        while (!pending_.empty()) {
            Handler h = std::move(pending_.front());
            pending_.pop_front();
            std::span<const uint8_t> r = inner_.wait_reply(written, window);
            h(r);
            written = window->begin;  // nothing was written since
        }
    }
    return inner_.wait_reply(written, window);
}

void DeferredReplies::take_until(size_t keep, wire::EncoderBase& enc) {
    while (pending_.size() > keep) {
        Handler h = std::move(pending_.front());
        pending_.pop_front();
        raw_ = true;
        std::span<const uint8_t> r = enc.wait_reply();
        raw_ = false;
        h(r);
    }
}

}  // namespace mgl::client
