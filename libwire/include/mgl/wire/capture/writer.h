// Writes one session's records into a capture segment (format.h): a record
// tap on the server's decoder. Records are packed into blocks of about
// kBlockBytes and each block is compressed with zstd as it fills, on the
// apply thread (docs/PERFORMANCE.md has what that costs).
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mgl/wire/capture/info.h"
#include "mgl/wire/decoder.h"

namespace mgl::wire::capture {

class Writer final : public RecordTap {
public:
    // The file is made at the first record, so that a session that sends
    // none (a backend warm-up) leaves nothing behind; a failure then is
    // logged and ends the capture, not the session.
    Writer(std::string path, HeaderInfo header) : path_(std::move(path)), header_(std::move(header)) {}
    ~Writer() override;  // close("") if not closed

    void record(const uint8_t* record, uint32_t size) override;
    // A reply the session's backend wrote (after record() of the record it
    // answers): kept when its verb returns a server-chosen value
    // (gen/server_values.h), for a replay on another backend.
    void reply(const uint8_t* reply, uint32_t size);
    // Writes the last block and the summary; `ended` says why the session
    // ended ("" when the client closed it). Idempotent.
    void close(const std::string& ended);

    const std::string& path() const { return path_; }
    // Set once a write failed: the capture stopped there (logged once).
    bool failed() const { return failed_; }

private:
    void start();
    void close_locked(const std::string& ended);
    friend void close_open_writers();
    void flush_replies();
    void write_block(uint32_t kind, const uint8_t* raw, size_t raw_bytes, uint32_t records, bool compress);
    void put(const void* p, size_t n);

    // record() runs on the session's apply thread; close() may also come
    // from exit (close_open_writers), for a session still open then.
    std::mutex mutex_;
    std::FILE* file_ = nullptr;
    std::string path_;
    HeaderInfo header_;
    std::vector<uint8_t> raw_;
    std::vector<uint8_t> packed_;
    uint32_t raw_records_ = 0;
    std::vector<uint8_t> replies_;  // replies block entries not written yet
    uint32_t reply_entries_ = 0;
    SummaryInfo summary_;
    void* cctx_ = nullptr;  // ZSTD_CCtx, kept across blocks
    bool failed_ = false;
    bool closed_ = false;
};

// Closes every writer still open, with "the process exited with the session
// open": registered with atexit at the first capture, so that a program
// that exits without closing its sessions (the direct transport keeps them
// to the end) leaves whole files.
void close_open_writers();

}  // namespace mgl::wire::capture
