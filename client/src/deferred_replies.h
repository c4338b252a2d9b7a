// Sync verbs whose reply the client takes later: a window's frame is read
// back at eglSwapBuffers but presented at the next swap, so the app renders
// frame N+1 while the server renders and reads back frame N (at most two
// frames in flight, no round trip per frame).
//
// Replies come back in the order their records were sent. This link sits
// between the encoder and the transport: any wait for a later reply first
// takes the deferred ones, in order, and hands each to its handler.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <span>

#include "mgl/wire/encoder_base.h"
#include "mgl/wire/link.h"

namespace mgl::client {

class DeferredReplies final : public wire::ClientLink {
public:
    // Gets the reply's bytes (valid during the call only); empty: the
    // connection was lost.
    using Handler = std::function<void(std::span<const uint8_t>)>;

    explicit DeferredReplies(wire::ClientLink& inner) : inner_(inner) {}

    // The sync record just encoded is answered later, to `handler`.
    void defer(Handler handler) { pending_.push_back(std::move(handler)); }
    size_t pending() const { return pending_.size(); }
    // Takes deferred replies (waiting for them) until at most `keep` remain.
    void take_until(size_t keep, wire::EncoderBase& enc);
    // Forgets the deferred replies without waiting (the session is ending).
    void drop() { pending_.clear(); }

    wire::Window next_window(uint8_t* written, size_t min_bytes) override {
        return inner_.next_window(written, min_bytes);
    }
    wire::Window flush(uint8_t* written) override { return inner_.flush(written); }
    size_t max_record_bytes() const override { return inner_.max_record_bytes(); }
    std::span<const uint8_t> wait_reply(uint8_t* written, wire::Window* window) override;
    const std::string& lost_reason() const override { return inner_.lost_reason(); }
    uint64_t staging_capacity() const override { return inner_.staging_capacity(); }
    wire::StagingSpan stage(uint8_t* written, uint64_t bytes, wire::Window* window) override {
        return inner_.stage(written, bytes, window);
    }

private:
    wire::ClientLink& inner_;
    std::deque<Handler> pending_;
    bool raw_ = false;  // take_until: hand the next reply back as it is
};

}  // namespace mgl::client
