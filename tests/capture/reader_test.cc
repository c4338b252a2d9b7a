// The capture writer and reader without a GL program: what is written reads
// back byte for byte, with its summary; every cut and every flipped byte of a
// capture is reported as an error, never read as records (run under ASan in
// tools/test.sh's second half).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gen/encoder.h"
#include "gen/opcodes.h"
#include "mgl/wire/capture/format.h"
#include "mgl/wire/capture/reader.h"
#include "mgl/wire/capture/writer.h"
#include "mgl/wire/memory_link.h"

namespace cap = mgl::wire::capture;

namespace {

// A small session: a context, a surface, three frames, and one upload larger
// than a block (it gets a block of its own).
std::vector<uint8_t> session_records() {
    mgl::wire::MemoryLink link(4 << 20, 4 << 20);
    mgl::gen::Encoder e(&link);
    e.mglCreateContext(1, 0, 3, 0, 0, 0x30A0, 0);
    e.mglCreateSurface(1, 0x3033, 64, 32, 8, 8, 8, 8, 24, 8, 0);
    e.mglMakeCurrent(1, 1, 1);
    e.glGetUniformLocation(5, {"u", 2});  // a server-chosen value: its reply is stored
    std::vector<uint8_t> big(cap::kBlockBytes + 4096);
    for (size_t i = 0; i < big.size(); ++i) big[i] = uint8_t(i * 7 + i / 4096);
    e.glBufferData(0x8892, mgl::GLsizeiptr(big.size()), {big.data(), uint32_t(big.size())}, 0x88E4);
    for (int f = 0; f < 3; ++f) {
        e.glClear(0x4000);
        e.glDrawArrays(4, 0, 3);
        e.glGetError();
        if (f == 1) e.glGetAttribLocation(5, {"a", 2});
        e.mglSwapBuffers(1, uint64_t(f));
    }
    e.flush();
    return link.bytes();
}

std::vector<uint8_t> file_of(const std::vector<uint8_t>& records, std::string* path) {
    char tmpl[] = "/tmp/mgl-capture-test-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    ::close(fd);
    ::unlink(tmpl);  // the writer makes it (and never overwrites)
    {
        cap::HeaderInfo h;
        h.wire_fingerprint = 42;
        h.backend = "null";
        cap::Writer w(tmpl, h);
        for (size_t off = 0; off < records.size();) {
            const uint32_t size = mgl::wire::get<uint32_t>(records.data() + off + 4);
            w.record(records.data() + off, size);
            // The replies as a backend would write them after applying the
            // record: the writer keeps the server-chosen values only.
            const uint16_t op = mgl::wire::get<uint16_t>(records.data() + off);
            if (mgl::gen::verb_info(op)->replies) {
                uint8_t reply[16] = {};
                mgl::wire::put<uint32_t>(reply, 16);
                mgl::wire::put<uint32_t>(reply + 4, op);
                mgl::wire::put<uint64_t>(reply + 8, 7000 + off);
                w.reply(reply, 16);
            }
            off += size;
        }
        w.close("");
    }
    std::ifstream f(tmpl, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    *path = tmpl;
    return bytes;
}

// Reads everything; returns the records, or sets *error.
std::vector<uint8_t> read_all(cap::Reader& r, std::string* error, cap::SummaryInfo* summary = nullptr) {
    std::vector<uint8_t> out;
    cap::HeaderInfo h;
    std::span<const uint8_t> block;
    uint32_t n;
    while (r.next_segment(&h)) {
        while (r.next_block(&block, &n)) out.insert(out.end(), block.begin(), block.end());
        if (summary) *summary = r.summary();
    }
    *error = r.error();
    return out;
}

}  // namespace

TEST_CASE("a capture reads back as written, with its summary") {
    const std::vector<uint8_t> records = session_records();
    std::string path;
    const std::vector<uint8_t> file = file_of(records, &path);
    cap::Reader r;
    REQUIRE(r.open(path));
    std::string error;
    cap::SummaryInfo s;
    CHECK(read_all(r, &error, &s) == records);
    CHECK(error.empty());
    CHECK(s.frames == 3);
    CHECK(s.records == 5 + 3 * 4 + 1);
    CHECK(s.record_bytes == records.size());
    CHECK(s.blocking == 5);
    // The two location queries' replies, not glGetError's.
    CHECK(s.replies == 2);
    REQUIRE(r.replies().size() == 2);
    CHECK(r.replies()[0].record == 3);
    CHECK(r.replies()[0].opcode == uint16_t(mgl::gen::Op::glGetUniformLocation));
    CHECK(r.replies()[1].opcode == uint16_t(mgl::gen::Op::glGetAttribLocation));
    CHECK(r.replies()[1].record == 5 + 4 + 3);
    REQUIRE(s.contexts.size() == 1);
    CHECK(s.contexts[0].major == 3);
    REQUIRE(s.surfaces.size() == 1);
    CHECK(s.surfaces[0].width == 64);
    CHECK(s.surfaces[0].height == 32);
    CHECK(file.size() < records.size() / 4);  // compressed
    std::remove(path.c_str());

    // Two segments concatenated are two sessions.
    std::vector<uint8_t> twice = file;
    twice.insert(twice.end(), file.begin(), file.end());
    cap::Reader r2;
    r2.open_bytes(twice);
    std::vector<uint8_t> both = records;
    both.insert(both.end(), records.begin(), records.end());
    CHECK(read_all(r2, &error) == both);
    CHECK(error.empty());
}

TEST_CASE("every cut and every flipped byte is an error") {
    std::string path;
    const std::vector<uint8_t> file = file_of(session_records(), &path);
    std::remove(path.c_str());
    std::string error;
    for (size_t cut = 0; cut < file.size(); ++cut) {
        std::vector<uint8_t> part(file.begin(), file.begin() + long(cut));
        cap::Reader r;
        r.open_bytes(part);
        read_all(r, &error);
        if (cut == 0) continue;  // an empty span holds no segment: nothing to read, no error
        INFO("cut at " << cut);
        CHECK(error.find("corrupt or truncated capture") != std::string::npos);
    }
    for (size_t at = 0; at < file.size(); ++at) {
        std::vector<uint8_t> bad = file;
        bad[at] ^= 0x20;
        cap::Reader r;
        r.open_bytes(bad);
        read_all(r, &error);
        INFO("flip at " << at);
        CHECK(error.find("corrupt or truncated capture") != std::string::npos);
    }
}
