#include "mgl/wire/capture/writer.h"

#include <zstd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <flatbuffers/flatbuffers.h>
#include <spdlog/spdlog.h>

#include "capture_generated.h"
#include "gen/server_values.h"
#include "mgl/wire/capture/format.h"
#include "mgl/wire/record.h"

namespace mgl::wire::capture {

namespace {

std::mutex g_open_mutex;
std::vector<Writer*> g_open;  // writers with a file and no end block yet

std::vector<uint8_t> header_buffer(const HeaderInfo& h) {
    flatbuffers::FlatBufferBuilder b;
    auto build = b.CreateString(h.build_id), backend = b.CreateString(h.backend), program = b.CreateString(h.program);
    mgl::capture::HeaderBuilder hb(b);
    hb.add_protocol_version(h.protocol_version);
    hb.add_wire_fingerprint(h.wire_fingerprint);
    hb.add_build_id(build);
    hb.add_backend(backend);
    hb.add_program(program);
    hb.add_pid(h.pid);
    hb.add_session(h.session);
    hb.add_started_unix_ms(h.started_unix_ms);
    hb.add_block_bytes(kBlockBytes);
    b.Finish(hb.Finish());
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

std::vector<uint8_t> summary_buffer(const SummaryInfo& s) {
    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<mgl::capture::Context>> contexts;
    for (const ContextInfo& c : s.contexts)
        contexts.push_back(mgl::capture::CreateContext(b, c.id, c.share, c.api, c.major, c.minor, c.flags, c.profile));
    std::vector<flatbuffers::Offset<mgl::capture::Surface>> surfaces;
    for (const SurfaceInfo& x : s.surfaces)
        surfaces.push_back(mgl::capture::CreateSurface(b, x.id, x.kind, x.width, x.height, x.red, x.green, x.blue,
                                                       x.alpha, x.depth, x.stencil, x.samples));
    auto cv = b.CreateVector(contexts);
    auto sv = b.CreateVector(surfaces);
    auto ended = b.CreateString(s.ended);
    b.Finish(mgl::capture::CreateSummary(b, s.records, s.record_bytes, s.frames, s.blocking, cv, sv, ended, s.replies));
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

}  // namespace

void close_open_writers() {
    // Held throughout: a writer's own close() waits here, so none is
    // destroyed while this closes it.
    std::lock_guard hold(g_open_mutex);
    std::vector<Writer*> open;
    open.swap(g_open);
    for (Writer* w : open) {
        std::lock_guard lock(w->mutex_);
        w->close_locked("the process exited with the session open");
    }
}

void Writer::start() {
    file_ = std::fopen(path_.c_str(), "wbx");  // never over another session's file
    if (!file_) {
        failed_ = true;
        spdlog::error("mgl capture: cannot create {}: {}", path_, std::strerror(errno));
        return;
    }
    spdlog::info("mgl capture: session captured into {}", path_);
    {
        std::lock_guard lock(g_open_mutex);
        static const bool registered = std::atexit(close_open_writers) == 0;
        (void)registered;
        g_open.push_back(this);
    }
    cctx_ = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(cctx_), ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(cctx_), ZSTD_c_checksumFlag, 1);  // a flipped bit is caught
    raw_.reserve(kBlockBytes);
    const std::vector<uint8_t> h = header_buffer(header_);
    const uint32_t head[2] = {uint32_t(h.size()), fnv1a32(h.data(), h.size())};
    put(kMagic, sizeof kMagic);
    put(head, sizeof head);
    put(h.data(), h.size());
    static const uint8_t zeros[8] = {};
    put(zeros, (8 - h.size() % 8) % 8);
}

Writer::~Writer() {
    close("");
    ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
}

void Writer::put(const void* p, size_t n) {
    if (failed_ || n == 0) return;
    if (std::fwrite(p, 1, n, file_) != n) {
        failed_ = true;
        spdlog::error("mgl capture: writing {} failed ({}): the capture stops here", path_, std::strerror(errno));
    }
}

void Writer::record(const uint8_t* r, uint32_t size) {
    std::lock_guard lock(mutex_);  // uncontended but for exit: tens of ns a record
    if (closed_ || failed_) return;
    if (!file_) [[unlikely]] {
        start();
        if (failed_) return;
    }
    observe_record(summary_, r, size);
    if (raw_.size() + size > kBlockBytes && !raw_.empty()) {
        flush_replies();
        write_block(kKindRecords, raw_.data(), raw_.size(), raw_records_, true);
        raw_.clear();
        raw_records_ = 0;
    }
    if (size > kBlockBytes) {  // a large upload: a block of its own, not copied twice
        flush_replies();
        write_block(kKindRecords, r, size, 1, true);
        return;
    }
    raw_.insert(raw_.end(), r, r + size);
    ++raw_records_;
}

void Writer::reply(const uint8_t* r, uint32_t size) {
    if (size < 16) return;
    const uint32_t op = get<uint32_t>(r + 4);
    if (op > 0xffff || gen::returned_value(uint16_t(op)).kind == gen::ServerValue::none) return;
    std::lock_guard lock(mutex_);
    if (closed_ || failed_ || !file_ || summary_.records == 0) return;
    uint8_t e[kReplyEntryBytes] = {};
    const uint64_t record = summary_.records - 1;  // the tap saw the record before it was applied
    std::memcpy(e, &record, 8);
    std::memcpy(e + 8, &op, 4);
    std::memcpy(e + 16, r + 8, 8);
    replies_.insert(replies_.end(), e, e + sizeof e);
    ++reply_entries_;
}

// Before the records block that follows the replied records (the replay
// reads them before it applies any record that may carry their values).
void Writer::flush_replies() {
    if (replies_.empty()) return;
    write_block(kKindReplies, replies_.data(), replies_.size(), reply_entries_, false);
    summary_.replies += reply_entries_;
    replies_.clear();
    reply_entries_ = 0;
}

void Writer::write_block(uint32_t kind, const uint8_t* raw, size_t raw_bytes, uint32_t records, bool compress) {
    if (failed_) return;
    const uint8_t* payload = raw;
    size_t stored = raw_bytes;
    if (compress) {
        packed_.resize(ZSTD_compressBound(raw_bytes));
        const size_t n = ZSTD_compress2(static_cast<ZSTD_CCtx*>(cctx_), packed_.data(), packed_.size(), raw, raw_bytes);
        if (ZSTD_isError(n)) {
            spdlog::error("mgl capture: {}: zstd: {}: the capture stops here", path_, ZSTD_getErrorName(n));
            failed_ = true;
            return;
        }
        payload = packed_.data();
        stored = n;
    }
    const uint32_t head[6] = {kind, uint32_t(stored), uint32_t(raw_bytes), records, fnv1a32(payload, stored), 0};
    put(head, sizeof head);
    put(payload, stored);
}

void Writer::close(const std::string& ended) {
    {
        std::lock_guard lock(g_open_mutex);
        std::erase(g_open, this);
    }
    std::lock_guard lock(mutex_);
    close_locked(ended);
}

void Writer::close_locked(const std::string& ended) {
    if (closed_) return;
    closed_ = true;
    if (!file_) return;  // no record came (or the file could not be made)
    if (!raw_.empty()) {
        flush_replies();
        write_block(kKindRecords, raw_.data(), raw_.size(), raw_records_, true);
    }
    flush_replies();  // a reply of the last record of an oversized block
    summary_.ended = ended;
    const std::vector<uint8_t> s = summary_buffer(summary_);
    write_block(kKindEnd, s.data(), s.size(), 0, false);
    if (std::fclose(file_) != 0 && !failed_)
        spdlog::error("mgl capture: closing {} failed: {}", path_, std::strerror(errno));
    file_ = nullptr;
}

}  // namespace mgl::wire::capture
