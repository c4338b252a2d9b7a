#include "mgl/wire/capture/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cstring>

#include <flatbuffers/flatbuffers.h>
#include <fmt/format.h>

#include "capture_generated.h"
#include "mgl/wire/capture/format.h"
#include "mgl/wire/record.h"

namespace mgl::wire::capture {

namespace {
std::string str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }
}  // namespace

Reader::~Reader() {
    if (map_) ::munmap(map_, size_);
    ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(dctx_));
}

bool Reader::open(const std::string& path) {
    path_ = path;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error_ = fmt::format("{}: cannot open: {}", path, std::strerror(errno));
        return false;
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        error_ = path + ": not a regular file";
        return false;
    }
    size_ = uint64_t(st.st_size);
    if (size_) {
        void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            ::close(fd);
            return fail(fmt::format("cannot map: {}", std::strerror(errno)));
        }
        map_ = m;
        data_ = static_cast<const uint8_t*>(m);
    }
    ::close(fd);
    if (size_ == 0) return fail("the file is empty");
    return true;
}

void Reader::open_bytes(std::span<const uint8_t> bytes) {
    data_ = bytes.data();
    size_ = bytes.size();
}

bool Reader::fail(const std::string& what) {
    if (error_.empty())
        error_ = fmt::format("{}{}corrupt or truncated capture at byte {}: {}", path_, path_.empty() ? "" : ": ", at_, what);
    return false;
}

bool Reader::take(uint64_t n, const uint8_t** p, const char* what) {
    if (n > size_ - at_)
        return fail(fmt::format("{} needs {} bytes, {} left in the file", what, n, size_ - at_));
    *p = data_ + at_;
    at_ += n;
    return true;
}

bool Reader::next_segment(HeaderInfo* h) {
    if (!error_.empty()) return false;
    if (in_segment_) return fail("the previous segment was not read to its end");
    if (at_ == size_) return false;
    const uint8_t* p;
    if (!take(kSegmentHeaderBytes, &p, "a segment header")) return false;
    if (std::memcmp(p, kMagic, sizeof kMagic) != 0) {
        at_ -= kSegmentHeaderBytes;
        return fail("not a MobileGL wire capture (bad magic)");
    }
    const uint32_t n = get<uint32_t>(p + 8);
    if (n > kMaxHeaderBytes) return fail(fmt::format("header of {} bytes (at most {})", n, kMaxHeaderBytes));
    const uint32_t fnv = get<uint32_t>(p + 12);
    if (!take(pad8(n), &p, "the header")) return false;
    if (fnv1a32(p, n) != fnv) return fail("the header's checksum does not match");
    for (uint32_t i = n; i < pad8(n); ++i)
        if (p[i]) return fail("the header's padding is not zero");
    // A segment after another starts wherever that one's unpadded blocks
    // ended: FlatBuffers reads the header aligned, from a copy.
    std::vector<uint64_t> aligned((n + 7) / 8);
    if (n) std::memcpy(aligned.data(), p, n);
    p = reinterpret_cast<const uint8_t*>(aligned.data());
    flatbuffers::Verifier v(p, n);
    if (!v.VerifyBuffer<mgl::capture::Header>(nullptr)) return fail("the header does not verify");
    const auto* fb = flatbuffers::GetRoot<mgl::capture::Header>(p);
    h->protocol_version = fb->protocol_version();
    h->wire_fingerprint = fb->wire_fingerprint();
    h->build_id = str(fb->build_id());
    h->backend = str(fb->backend());
    h->program = str(fb->program());
    h->pid = fb->pid();
    h->session = fb->session();
    h->started_unix_ms = fb->started_unix_ms();
    summary_ = {};
    replies_.clear();
    records_seen_ = 0;
    in_segment_ = true;
    return true;
}

bool Reader::next_block(std::span<const uint8_t>* records, uint32_t* count) {
    if (!error_.empty() || !in_segment_) return false;
    const uint64_t start = at_;
    const uint8_t* p;
    if (at_ == size_) return fail("the segment has no end block (the capturing process died?)");
    if (!take(kBlockHeaderBytes, &p, "a block header")) return false;
    const uint32_t kind = get<uint32_t>(p), stored = get<uint32_t>(p + 4), raw = get<uint32_t>(p + 8),
                   n = get<uint32_t>(p + 12), fnv = get<uint32_t>(p + 16);
    if (kind != kKindRecords && kind != kKindEnd && kind != kKindReplies) return fail(fmt::format("unknown block kind {}", kind));
    if (get<uint32_t>(p + 20) != 0) return fail("a block header's reserved word is not zero");
    const uint8_t* payload;
    if (!take(stored, &payload, kind == kKindEnd ? "the end block" : "a records block")) return false;
    if (fnv1a32(payload, stored) != fnv) {
        at_ = start;
        return fail("a block's checksum does not match");
    }
    if (kind == kKindReplies) {
        if (stored != raw || n == 0 || uint64_t(n) * kReplyEntryBytes != stored) return fail("bad replies block header");
        for (uint32_t i = 0; i < n; ++i) {
            const uint8_t* e = payload + uint64_t(i) * kReplyEntryBytes;
            ReplyInfo r{get<uint64_t>(e), uint16_t(get<uint32_t>(e + 8)), get<uint64_t>(e + 16)};
            // In record order; a reply precedes the records block holding its
            // record, or follows a block of one record (checked there).
            if (get<uint32_t>(e + 8) > 0xffff || get<uint32_t>(e + 12) != 0 ||
                (!replies_.empty() && r.record <= replies_.back().record)) {
                at_ = start;
                return fail(fmt::format("replies block entry {} (record {}) is out of order or malformed", i, r.record));
            }
            replies_.push_back(r);
        }
        summary_.replies += n;
        return next_block(records, count);  // at most two replies blocks in a row
    }
    if (kind == kKindEnd) {
        if (stored != raw || stored > kMaxSummaryBytes || n != 0) return fail("bad end block header");
        // Blocks are not padded in the file, so the summary may start at any
        // byte: FlatBuffers reads it aligned, from a copy.
        std::vector<uint64_t> aligned((stored + 7) / 8);
        if (stored) std::memcpy(aligned.data(), payload, stored);
        payload = reinterpret_cast<const uint8_t*>(aligned.data());
        flatbuffers::Verifier v(payload, stored, 64, 4'000'000);
        if (!v.VerifyBuffer<mgl::capture::Summary>(nullptr)) {
            at_ = start;
            return fail("the summary does not verify");
        }
        const auto* s = flatbuffers::GetRoot<mgl::capture::Summary>(payload);
        summary_.records = s->records();
        summary_.record_bytes = s->record_bytes();
        summary_.frames = s->frames();
        summary_.blocking = s->blocking();
        if (s->replies() != summary_.replies || (!replies_.empty() && replies_.back().record >= records_seen_)) {
            at_ = start;
            return fail(fmt::format("the summary says {} stored replies, the segment holds {}", s->replies(), summary_.replies));
        }
        summary_.ended = str(s->ended());
        if (s->contexts())
            for (const auto* c : *s->contexts())
                summary_.contexts.push_back({c->id(), c->share(), c->api(), c->major(), c->minor(), c->flags(), c->profile()});
        if (s->surfaces())
            for (const auto* x : *s->surfaces())
                summary_.surfaces.push_back({x->id(), x->kind(), x->width(), x->height(), x->red(), x->green(),
                                             x->blue(), x->alpha(), x->depth(), x->stencil(), x->samples()});
        in_segment_ = false;
        return false;
    }
    if (raw == 0 || raw > kMaxBlockRawBytes || raw % 8) return fail(fmt::format("records block of {} bytes", raw));
    const unsigned long long declared = ZSTD_getFrameContentSize(payload, stored);
    if (declared != raw) {
        at_ = start;
        return fail(fmt::format("records block: the zstd frame does not declare {} bytes", raw));
    }
    if (!dctx_) dctx_ = ZSTD_createDCtx();
    raw_.resize(raw);
    const size_t got = ZSTD_decompressDCtx(static_cast<ZSTD_DCtx*>(dctx_), raw_.data(), raw, payload, stored);
    if (ZSTD_isError(got) || got != raw) {
        at_ = start;
        return fail(fmt::format("records block does not decompress: {}",
                                ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short"));
    }
    uint32_t walked = 0;
    for (uint64_t off = 0; off < raw; ++walked) {
        if (raw - off < 8) return fail("a record header runs past its block");
        const uint32_t size = get<uint32_t>(raw_.data() + off + 4);
        if (size < 8 || size % 8 || size > raw - off) {
            at_ = start;
            return fail(fmt::format("record {} of a block has size {} ({} bytes left)", walked, size, raw - off));
        }
        off += size;
    }
    if (walked != n) {
        at_ = start;
        return fail(fmt::format("block says {} records, holds {}", n, walked));
    }
    records_seen_ += n;
    if (!replies_.empty() && replies_.back().record >= records_seen_) {
        at_ = start;
        return fail(fmt::format("a stored reply answers record {}, past the {} records read", replies_.back().record,
                                records_seen_));
    }
    *records = {raw_.data(), raw};
    *count = n;
    return true;
}

}  // namespace mgl::wire::capture
