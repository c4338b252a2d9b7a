// Malformed input: every case must end in a clear error value, never a
// crash, an out-of-bounds read (run under ASan in CI) or a call into the
// backend with bad arguments.
#include <doctest.h>

#include <climits>
#include <cstring>
#include <string>

#include "gen/encoder.h"
#include "gen/null_backend.h"
#include "gen/opcodes.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/memory_link.h"

using namespace mgl;
using wire::DecodeStatus;

namespace {

struct Fixture {
    wire::MemoryLink link;
    gen::Encoder enc{&link};
    NullBackend backend;
    wire::VectorReplySink replies;

    std::vector<uint8_t> take() {
        enc.flush();
        auto b = link.bytes();
        link.clear();
        return b;
    }
    wire::DecodeResult decode(const std::vector<uint8_t>& b, bool partial_ok = false) {
        wire::Dispatch d;
        d.backend = &backend;
        d.replies = &replies;
        return wire::decode_stream(b, d, partial_ok);
    }
};

uint32_t u32_at(const std::vector<uint8_t>& b, size_t off) {
    uint32_t v;
    std::memcpy(&v, b.data() + off, 4);
    return v;
}
void set_u32(std::vector<uint8_t>& b, size_t off, uint32_t v) { std::memcpy(b.data() + off, &v, 4); }
void set_i32(std::vector<uint8_t>& b, size_t off, int32_t v) { std::memcpy(b.data() + off, &v, 4); }

}  // namespace

TEST_CASE("a valid stream decodes and reaches the backend") {
    Fixture f;
    f.enc.glDrawArrays(0x0004, 0, 3);
    const float v[4] = {1, 2, 3, 4};
    f.enc.glUniform4fv(1, 1, wire::Blob{v, sizeof v});
    auto b = f.take();
    auto r = f.decode(b);
    CHECK(r.ok());
    CHECK(r.consumed == b.size());
    CHECK(f.backend.counts[uint16_t(gen::Op::glDrawArrays)] == 1);
    CHECK(f.backend.counts[uint16_t(gen::Op::glUniform4fv)] == 1);
}

TEST_CASE("truncated records are refused") {
    Fixture f;
    f.enc.glDrawArrays(0x0004, 0, 3);
    auto b = f.take();
    for (size_t cut = 1; cut < b.size(); ++cut) {
        std::vector<uint8_t> t(b.begin(), b.begin() + cut);
        auto r = f.decode(t);
        CHECK_FALSE(r.ok());
        CHECK(r.error.status == DecodeStatus::truncated);
        CHECK(f.backend.total() == 0);
    }
    // A stream transport may hold a partial record back instead.
    std::vector<uint8_t> t(b.begin(), b.begin() + 12);
    auto r = f.decode(t, true);
    CHECK(r.ok());
    CHECK(r.consumed == 0);
}

TEST_CASE("sizes that lie are refused") {
    Fixture f;
    f.enc.glDrawArrays(0x0004, 0, 3);
    auto b = f.take();
    SUBCASE("size past the buffer") {
        set_u32(b, 4, 4096);
        CHECK(f.decode(b).error.status == DecodeStatus::truncated);
    }
    SUBCASE("size not a multiple of 8") {
        set_u32(b, 4, 20);
        CHECK(f.decode(b).error.status == DecodeStatus::bad_size);
    }
    SUBCASE("size zero") {
        set_u32(b, 4, 0);
        CHECK(f.decode(b).error.status == DecodeStatus::bad_size);
    }
    SUBCASE("size smaller than the verb's fixed part") {
        set_u32(b, 4, 8);
        b.resize(8);
        auto r = f.decode(b);
        CHECK(r.error.status == DecodeStatus::bad_size);
        CHECK(r.error.detail.find("glDrawArrays") != std::string::npos);
    }
    CHECK(f.backend.total() == 0);
}

TEST_CASE("unknown opcodes are refused with their number") {
    Fixture f;
    std::vector<uint8_t> b(16, 0);
    const uint16_t op = 0xFFFE;
    std::memcpy(b.data(), &op, 2);
    set_u32(b, 4, 16);
    auto r = f.decode(b);
    CHECK(r.error.status == DecodeStatus::unknown_opcode);
    CHECK(r.error.opcode == 0xFFFE);
    CHECK(r.error.detail.find("65534") != std::string::npos);
}

TEST_CASE("array lengths are checked against their length expression") {
    Fixture f;
    const float v[4] = {1, 2, 3, 4};
    f.enc.glUniform4fv(1, 1, wire::Blob{v, sizeof v});
    const auto good = f.take();
    // glUniform4fv slots: location:i32 count:i32 value_bytes:u32 at 8, 12, 16.
    const int op = gen::opcode_of("glUniform4fv");
    REQUIRE(op > 0);

    SUBCASE("count larger than the data") {
        auto b = good;
        set_i32(b, 12, 2);
        CHECK(f.decode(b).error.status == DecodeStatus::bad_length);
    }
    SUBCASE("negative count") {
        auto b = good;
        set_i32(b, 12, -1);
        CHECK(f.decode(b).error.status == DecodeStatus::negative_count);
    }
    SUBCASE("count whose byte size overflows") {
        auto b = good;
        set_i32(b, 12, INT_MAX);
        auto st = f.decode(b).error.status;
        CHECK((st == DecodeStatus::overflow || st == DecodeStatus::bad_length));
    }
    SUBCASE("byte count past the record") {
        auto b = good;
        set_u32(b, 16, 1u << 30);
        CHECK(f.decode(b).error.status == DecodeStatus::bad_length);
    }
    SUBCASE("byte count not whole elements") {
        auto b = good;
        set_u32(b, 16, 15);
        CHECK(f.decode(b).error.status == DecodeStatus::bad_length);
    }
    CHECK(f.backend.total() == 0);
}

TEST_CASE("strings must be NUL-terminated") {
    Fixture f;
    const char name[] = "u_color";
    f.enc.glGetUniformLocation(7, wire::Blob{name, sizeof name});
    auto b = f.take();
    // The string is the only array: it starts at the data offset, 8 bytes long.
    b[b.size() - 1] = 'x';
    auto r = f.decode(b);
    CHECK(r.error.status == DecodeStatus::bad_length);
    CHECK(f.backend.total() == 0);
}

TEST_CASE("a verb that replies needs a reply path") {
    Fixture f;
    f.enc.glGetUniformLocation(7, wire::Blob{"u", 2});
    auto b = f.take();
    wire::Dispatch d;
    d.backend = &f.backend;
    auto r = wire::decode_stream(b, d);
    CHECK(r.error.status == DecodeStatus::no_reply_path);
}

TEST_CASE("records larger than a window travel as chunks and reassemble") {
    wire::MemoryLink link(4096, 4096);
    gen::Encoder enc(&link);
    std::vector<uint8_t> data(100000);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 7);
    enc.glBufferData(0x8892, int64_t(data.size()), wire::Blob{data.data(), uint32_t(data.size())}, 0x88E4);
    enc.glDrawArrays(4, 0, 3);
    enc.flush();
    auto b = link.bytes();
    CHECK(b.size() > data.size());
    // Every piece is a chunk record no larger than the window.
    size_t chunks = 0;
    for (size_t at = 0; at < b.size();) {
        uint16_t op;
        std::memcpy(&op, b.data() + at, 2);
        uint32_t sz = u32_at(b, at + 4);
        CHECK(sz <= 4096);
        chunks += op == wire::kOpChunk;
        at += sz;
    }
    CHECK(chunks > 20);
    NullBackend backend;
    wire::Dispatch d;
    d.backend = &backend;
    auto r = wire::decode_stream(b, d);
    CHECK(r.ok());
    CHECK(backend.counts[uint16_t(gen::Op::glBufferData)] == 1);
    CHECK(backend.counts[uint16_t(gen::Op::glDrawArrays)] == 1);

    SUBCASE("a piece out of order is refused") {
        // Drop the second chunk record.
        uint32_t first = u32_at(b, 4);
        uint32_t second = u32_at(b, first + 4);
        std::vector<uint8_t> broken(b.begin(), b.begin() + first);
        broken.insert(broken.end(), b.begin() + first + second, b.end());
        NullBackend nb;
        wire::Dispatch d2;
        d2.backend = &nb;
        CHECK(wire::decode_stream(broken, d2).error.status == DecodeStatus::bad_chunk);
        CHECK(nb.total() == 0);
    }
}

namespace {
// Records what glBufferData's data argument looked like when it arrived.
struct BufferDataProbe : NullBackend {
    const void* data = reinterpret_cast<const void*>(1);
    uint32_t size = 1;
    void glBufferData(GLenum, GLsizeiptr, wire::In<uint8_t> d, GLenum) override {
        data = d.data;
        size = d.size;
    }
};
}  // namespace

TEST_CASE("a nullable array may travel empty and arrives as nullptr") {
    wire::MemoryLink link;
    gen::Encoder enc(&link);
    enc.glBufferData(0x8892, 4096, wire::Blob{nullptr, 0}, 0x88E4);  // glBufferData(target, 4096, NULL, usage)
    enc.flush();
    BufferDataProbe probe;
    wire::Dispatch d;
    d.backend = &probe;
    auto r = wire::decode_stream(link.bytes(), d);
    CHECK(r.ok());
    CHECK(probe.data == nullptr);
    CHECK(probe.size == 0);

    // A non-nullable array with the same shape is still checked.
    link.clear();
    gen::Encoder enc2(&link);
    enc2.glUniform4fv(0, 1, wire::Blob{nullptr, 0});
    enc2.flush();
    wire::Dispatch d2;
    d2.backend = &probe;
    CHECK(wire::decode_stream(link.bytes(), d2).error.status == DecodeStatus::bad_length);
}

// ---- staged records (kOpStaged): a whole record in the staging area ----

namespace {

// A client link with a staging area in plain memory: records land in a
// MemoryLink, staged bytes in `area`, and the same object serves the decoder
// as its StagedSource.
struct StagingMemoryLink final : wire::MemoryLink, wire::StagedSource {
    std::vector<uint8_t> area = std::vector<uint8_t>(1 << 20);
    uint64_t head = 0, released = 0;

    uint64_t staging_capacity() const override { return area.size(); }
    wire::StagingSpan stage(uint8_t* written, uint64_t bytes, wire::Window* window) override {
        *window = flush(written);
        if (head + bytes > area.size()) return {};  // this test never wraps
        wire::StagingSpan s{area.data() + head, head};
        head += bytes;
        return s;
    }
    std::span<const uint8_t> view(uint64_t cursor, uint64_t size) override {
        if (cursor < released || cursor > head || size > head - cursor) return {};
        return {area.data() + cursor, size_t(size)};
    }
    bool release_through(uint64_t end) override {
        if (end < released || end > head) return false;
        released = end;
        return true;
    }
};

struct BufferSum : NullBackend {
    uint64_t bytes = 0;
    bool pattern_ok = true;
    void glBufferSubData(GLenum, GLintptr, GLsizeiptr, wire::In<uint8_t> d) override {
        for (uint32_t i = 0; i < d.size; ++i) pattern_ok &= d.data[i] == uint8_t(i * 3);
        bytes += d.size;
    }
};

}  // namespace

TEST_CASE("large records travel through the staging area and apply from there") {
    StagingMemoryLink link;
    gen::Encoder enc(&link);
    std::vector<uint8_t> data(100000);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 3);
    enc.glDrawArrays(4, 0, 3);
    enc.glBufferSubData(0x8892, 0, GLsizeiptr(data.size()), wire::Blob{data.data(), uint32_t(data.size())});
    enc.glBufferSubData(0x8892, 0, 64, wire::Blob{data.data(), 64});  // small: inline
    enc.glDrawArrays(4, 0, 3);
    enc.flush();
    std::vector<uint8_t> b = link.bytes();
    CHECK(b.size() < 200);                     // the 100 KB payload is not in the record stream
    CHECK(link.head == 32 + data.size());  // glBufferSubData's 32-byte fixed part + data (8-aligned)

    BufferSum backend;
    wire::Dispatch d;
    d.backend = &backend;
    d.staging = &link;

    SUBCASE("applied in order, staging released after") {
        auto r = wire::decode_stream(b, d);
        CHECK(r.ok());
        CHECK(backend.bytes == data.size() + 64);
        CHECK(backend.pattern_ok);
        CHECK(backend.counts[uint16_t(gen::Op::glDrawArrays)] == 2);
        CHECK(link.released == link.head);
    }
    SUBCASE("a link without a staging area refuses it") {
        d.staging = nullptr;
        auto r = wire::decode_stream(b, d);
        CHECK(r.error.status == DecodeStatus::bad_staged);
        CHECK(backend.counts[uint16_t(gen::Op::glBufferSubData)] == 0);
    }
    // The staged record follows the 24-byte glDrawArrays.
    const size_t at = 24;
    REQUIRE(u32_at(b, at) == wire::kOpStaged);
    SUBCASE("naming bytes past what was published") {
        uint64_t cursor = link.head - 8;
        std::memcpy(b.data() + at + 8, &cursor, 8);
        CHECK(wire::decode_stream(b, d).error.status == DecodeStatus::bad_staged);
    }
    SUBCASE("a size that disagrees with the staged record's header") {
        uint64_t size = 8;
        std::memcpy(b.data() + at + 16, &size, 8);
        CHECK(wire::decode_stream(b, d).error.status == DecodeStatus::bad_staged);
        CHECK(backend.counts[uint16_t(gen::Op::glBufferSubData)] == 0);
    }
    SUBCASE("a staged record that is itself a staged record") {
        const uint16_t op = wire::kOpStaged;
        std::memcpy(link.area.data(), &op, 2);
        CHECK(wire::decode_stream(b, d).error.status == DecodeStatus::bad_staged);
    }
    SUBCASE("a wrong record size") {
        set_u32(b, at + 4, 32);
        CHECK(!wire::decode_stream(b, d).ok());
    }
}
