// The stream loop: walks whole records, handles pads and chunks, and hands
// every other record to its generated decoder through the flat table.
#include "mgl/wire/decoder.h"

#include <cstring>

#include "gen/decode_table.h"
#include "mgl/wire/decode_support.h"
#include "mgl/wire/record.h"

namespace mgl::wire {

namespace {

bool decode_one(const uint8_t* r, uint32_t size, Dispatch& d, DecodeError& e) {
    const uint16_t op = get<uint16_t>(r);
    // Before decoding: a record that ends the session is in the capture too.
    if (d.tap) [[unlikely]]
        d.tap->record(r, size);
    if (op >= gen::kOpcodeLimit || !gen::kDecodeTable[op]) [[unlikely]]
        return fail(e, DecodeStatus::unknown_opcode, op, "?", "no verb has this opcode");
    if (!gen::kDecodeTable[op](r, size, d, e)) return false;
    // The backend refused an allocation over the budget: the session ends.
    if (!d.budget.exceeded().empty()) [[unlikely]]
        return fail(e, DecodeStatus::over_budget, op, gen::verb_name(op), d.budget.exceeded().c_str());
    ++d.records;
    return true;
}

bool take_chunk(const uint8_t* r, uint32_t size, Dispatch& d, DecodeError& e) {
    ChunkAssembler& c = d.chunks;
    if (size < 16) return fail(e, DecodeStatus::bad_chunk, kOpChunk, "chunk", "shorter than its header");
    const uint32_t total = get<uint32_t>(r + 8);
    const uint32_t offset = get<uint32_t>(r + 12);
    const uint32_t piece = size - 16;  // includes the piece's zero padding
    if (offset == 0) {
        if (c.expected) return fail(e, DecodeStatus::bad_chunk, kOpChunk, "chunk", "new record before the last one ended");
        if (total < 8 || total % 8 || total > ChunkAssembler::kMaxRecord)
            return fail(e, DecodeStatus::bad_chunk, kOpChunk, "chunk", "bad total size");
        // Checked before anything is reserved: the pieces may never come.
        d.budget.set_chunks(0);  // the room kept from the last record (a few MiB at most) is reused
        if (!d.budget.fits("a chunked record", total))
            return fail(e, DecodeStatus::over_budget, kOpChunk, "chunk", d.budget.exceeded().c_str());
        c.expected = total;
        c.buffer.clear();
        c.buffer.reserve(total);
        d.budget.set_chunks(c.buffer.capacity());
    } else if (!c.expected || offset != c.buffer.size() || total != c.expected) {
        return fail(e, DecodeStatus::bad_chunk, kOpChunk, "chunk", "piece out of sequence");
    }
    const uint32_t want = std::min<uint32_t>(piece, c.expected - uint32_t(c.buffer.size()));
    if (pad8(want) != piece) return fail(e, DecodeStatus::bad_chunk, kOpChunk, "chunk", "piece size disagrees with the total");
    c.buffer.insert(c.buffer.end(), r + 16, r + 16 + want);
    if (c.buffer.size() < c.expected) return true;
    c.expected = 0;
    const uint8_t* whole = c.buffer.data();
    const uint32_t wsize = get<uint32_t>(whole + 4);
    const uint16_t wop = get<uint16_t>(whole);
    if (wsize != c.buffer.size() || wop == kOpChunk || wop == kOpPad)
        return fail(e, DecodeStatus::bad_chunk, wop, "chunk", "reassembled record is malformed");
    const bool ok = decode_one(whole, wsize, d, e);
    // A large record's room goes back now, not when the session ends.
    if (c.buffer.capacity() > ChunkAssembler::kKeepBytes) std::vector<uint8_t>().swap(c.buffer);
    d.budget.set_chunks(c.buffer.capacity());
    return ok;
}

// The staged bytes may sit in memory the client can still write (shm): the
// inner record's header is read once here and its decoder bounds-checks
// against the size checked here, as for records read from the ring.
bool take_staged(const uint8_t* r, uint32_t size, Dispatch& d, DecodeError& e) {
    if (size != kStagedRecordBytes)
        return fail(e, DecodeStatus::bad_staged, kOpStaged, "staged", "record is not 24 bytes");
    if (!d.staging)
        return fail(e, DecodeStatus::bad_staged, kOpStaged, "staged", "the link has no staging area");
    const uint64_t cursor = get<uint64_t>(r + 8);
    const uint64_t bytes = get<uint64_t>(r + 16);
    if (bytes < 8 || bytes % 8 || bytes > ChunkAssembler::kMaxRecord)
        return fail(e, DecodeStatus::bad_staged, kOpStaged, "staged", "bad size");
    std::span<const uint8_t> s = d.staging->view(cursor, bytes);
    if (s.size() != bytes)
        return fail(e, DecodeStatus::bad_staged, kOpStaged, "staged", "names bytes outside the published staging area");
    const uint64_t h = get<uint64_t>(s.data());
    const uint16_t op = uint16_t(h);
    if (uint32_t(h >> 32) != bytes || op == kOpPad || op == kOpChunk || op == kOpStaged)
        return fail(e, DecodeStatus::bad_staged, op, "staged", "the staged record's header disagrees with its size");
    if (!decode_one(s.data(), uint32_t(bytes), d, e)) return false;
    if (!d.staging->release_through(cursor + bytes))
        return fail(e, DecodeStatus::bad_staged, kOpStaged, "staged", "staging released out of order");
    return true;
}

}  // namespace

DecodeResult decode_stream(std::span<const uint8_t> bytes, Dispatch& d, bool partial_ok) {
    DecodeResult res;
    const uint8_t* p = bytes.data();
    size_t left = bytes.size();
    while (left >= sizeof(RecordHeader)) {
        const uint64_t h = get<uint64_t>(p);
        const uint16_t op = uint16_t(h);
        const uint32_t size = uint32_t(h >> 32);
        if (size < 8 || size % 8) [[unlikely]] {
            fail(res.error, DecodeStatus::bad_size, op, gen::verb_name(op), "size below 8 or not a multiple of 8");
            break;
        }
        if (size > left) [[unlikely]] {
            if (partial_ok) break;
            fail(res.error, DecodeStatus::truncated, op, gen::verb_name(op), "record runs past the end of the stream");
            break;
        }
        bool ok;
        if (op == kOpPad) ok = true;
        else if (op == kOpChunk) ok = take_chunk(p, size, d, res.error);
        else if (op == kOpStaged) ok = take_staged(p, size, d, res.error);
        else ok = decode_one(p, size, d, res.error);
        if (!ok) [[unlikely]]
            break;
        p += size;
        left -= size;
        res.consumed += size;
    }
    if (res.ok() && left && !partial_ok)
        fail(res.error, DecodeStatus::truncated, 0, "stream", "bytes after the last whole record");
    res.error.stream_offset = d.stream_offset + res.consumed;
    d.stream_offset += res.consumed;
    return res;
}

}  // namespace mgl::wire
