#include "mgl/wire/encoder_base.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace mgl::wire {

namespace {
uint64_t stage_min_from_env() {
    const char* s = std::getenv("MOBILEGL_STAGE_MIN");
    if (!s || !*s) return EncoderBase::kDefaultStageMin;
    char* end = nullptr;
    unsigned long long v = std::strtoull(s, &end, 0);
    return (end && *end == 0 && v >= 64) ? v : EncoderBase::kDefaultStageMin;
}
}  // namespace

EncoderBase::EncoderBase(ClientLink* link) : link_(link) {
    Window w = link_->next_window(nullptr, 0);
    cur_ = w.begin;
    end_ = w.end;
    if (const uint64_t cap = link_->staging_capacity()) {
        stage_max_ = cap / 2;
        stage_min_ = std::min(stage_min_from_env(), stage_max_);
    }
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
    if (size >= stage_min_ && size <= stage_max_) {
        Window w;
        StagingSpan s = link_->stage(cur_, size, &w);
        cur_ = w.begin;
        end_ = w.end;
        if (s.data) {
            staged_ = s;
            staged_bytes_ = size;
            return s.data;
        }
        // No space will come (the connection is lost): the ring's path
        // below hands out scratch memory that is never sent.
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

void EncoderBase::end_slow() {
    if (staged_bytes_) {
        uint8_t* p = begin_fixed(kStagedRecordBytes);
        put_header(p, kOpStaged, kStagedRecordBytes);
        put<uint64_t>(p + 8, staged_.cursor);
        put<uint64_t>(p + 16, staged_bytes_);
        staged_bytes_ = 0;
        staged_ = {};
        return;
    }
    end_big();
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
