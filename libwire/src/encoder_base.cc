#include "mgl/wire/encoder_base.h"

#include <algorithm>
#include <cstring>

namespace mgl::wire {

EncoderBase::EncoderBase(ClientLink* link) : link_(link) {
    Window w = link_->next_window(nullptr, 0);
    cur_ = w.begin;
    end_ = w.end;
}

void EncoderBase::flush() {
    Window w = link_->flush(cur_);
    cur_ = w.begin;
    end_ = w.end;
}

std::span<const uint8_t> EncoderBase::wait_reply() {
    Window w;
    std::span<const uint8_t> r = link_->wait_reply(cur_, &w);
    cur_ = w.begin;
    end_ = w.end;
    return r;
}

void EncoderBase::refill(size_t min_bytes) {
    Window w = link_->next_window(cur_, min_bytes);
    cur_ = w.begin;
    end_ = w.end;
}

uint8_t* EncoderBase::begin_slow(uint64_t size) {
    if (size > kMaxRecordBytes) {
        ++oversize_drops_;
        return nullptr;
    }
    if (size <= link_->max_record_bytes()) {
        refill(size_t(size));
        uint8_t* p = cur_;
        cur_ += size;
        return p;
    }
    big_.assign(size_t(size), 0);
    return big_.data();
}

// A chunk: | header (kOpChunk) | total:u32 | offset:u32 | piece, 8-aligned |.
// The decoder reassembles the pieces in order and then applies the record.
void EncoderBase::end_big() {
    const uint32_t total = uint32_t(big_.size());
    const size_t max_piece = (link_->max_record_bytes() - 16) & ~size_t(7);
    for (uint32_t off = 0; off < total;) {
        const uint32_t piece = uint32_t(std::min<size_t>(max_piece, total - off));
        const uint32_t rec = uint32_t(16 + pad8(piece));
        uint8_t* p = begin_fixed(rec);
        put_header(p, kOpChunk, rec);
        put<uint32_t>(p + 8, total);
        put<uint32_t>(p + 12, off);
        put_blob(p + 16, big_.data() + off, piece);
        off += piece;
    }
    big_.clear();
}

}  // namespace mgl::wire
