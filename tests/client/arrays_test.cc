// Client-memory vertex and index arrays become a streaming upload plus
// offsets, without a round trip; buffer mapping moves only what changed.
#include <cstring>
#include <vector>

#include "fixture.h"
#include "gen/opcodes.h"

using namespace mgl::test;
namespace gen = mgl::gen;

TEST_CASE("client vertex arrays are streamed through a client-owned buffer") {
    ClientFixture fx(2);
    static const float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 9, 9, 9};  // 4 vertices of 3 floats
    mgl_glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, pos);
    mgl_glEnableVertexAttribArray(0);
    const size_t m = fx.mark();
    const size_t waits = fx.conn->reply_waits;

    mgl_glDrawArrays(GL_TRIANGLES, 1, 2);  // reads vertices 1 and 2
    fx.sync();
    CHECK(fx.conn->reply_waits == waits);  // never a blocking call per draw
    const std::vector<uint16_t> ops = fx.conn->ops_since(m);
    const std::vector<uint16_t> want = {
        uint16_t(gen::Op::glGenBuffers),  uint16_t(gen::Op::glBindBuffer),          uint16_t(gen::Op::glBufferData),
        uint16_t(gen::Op::glBufferSubData), uint16_t(gen::Op::glVertexAttribPointer), uint16_t(gen::Op::glDrawArrays),
        uint16_t(gen::Op::glBindBuffer)};
    std::string names;
    for (uint16_t o : ops) names += std::string(gen::verb_name(o)) + " ";
    CHECK_MESSAGE(ops == want, names);
    FakeServer& s = fx.server();
    REQUIRE(s.subdata.size() == 1);
    REQUIRE(s.attribs.size() == 1);
    const FakeServer::SubData up = s.subdata[0];  // a copy: subdata grows below
    CHECK(up.bytes.size() == 24);
    CHECK(std::memcmp(up.bytes.data(), pos + 3, 24) == 0);
    const FakeServer::Attrib& a = s.attribs[0];
    CHECK(a.is_offset);
    CHECK(a.buffer == up.buffer);
    CHECK(a.buffer == s.gen_buffers.at(0));
    // The attribute points where vertex 0 would be: vertex 1 lands at the upload.
    CHECK(int64_t(a.offset) + 12 == up.offset);
    CHECK(s.bound[GL_ARRAY_BUFFER] == 0);  // the application's binding is back

    // A second draw appends to the same stream buffer: no new buffer.
    const size_t m2 = fx.mark();
    mgl_glDrawArrays(GL_TRIANGLES, 0, 3);
    fx.sync();
    const std::vector<uint16_t> ops2 = fx.conn->ops_since(m2);
    CHECK(ops2.size() == 5);
    REQUIRE(s.subdata.size() == 2);
    CHECK(s.subdata[1].offset >= up.offset + 24);
    CHECK(s.subdata[1].bytes.size() == 36);
    CHECK(fx.ctx->counters.client_uploads == 2);
}

TEST_CASE("interleaved client arrays are uploaded once") {
    ClientFixture fx(2);
    struct V {
        float x, y;
        uint8_t rgba[4];
    };
    static const V verts[3] = {{0, 0, {1, 2, 3, 4}}, {1, 0, {5, 6, 7, 8}}, {0, 1, {9, 10, 11, 12}}};
    mgl_glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(V), &verts[0].x);
    mgl_glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(V), verts[0].rgba);
    mgl_glEnableVertexAttribArray(0);
    mgl_glEnableVertexAttribArray(1);
    mgl_glDrawArrays(GL_TRIANGLES, 0, 3);
    fx.sync();
    FakeServer& s = fx.server();
    REQUIRE(s.subdata.size() == 1);
    CHECK(s.subdata[0].bytes.size() == sizeof verts);
    REQUIRE(s.attribs.size() == 2);
    for (const auto& a : s.attribs) CHECK(a.is_offset);
    const auto& a0 = s.attribs[0].index == 0 ? s.attribs[0] : s.attribs[1];
    const auto& a1 = s.attribs[0].index == 1 ? s.attribs[0] : s.attribs[1];
    CHECK(a1.offset - a0.offset == 8);
    CHECK(int64_t(a0.offset) == s.subdata[0].offset);
}

TEST_CASE("client indices and the vertices they reach are streamed") {
    ClientFixture fx(2);
    static const float pos[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5};  // 6 vertices of 2 floats
    static const uint16_t idx[] = {3, 5, 4, 4, 5, 3};
    mgl_glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    mgl_glEnableVertexAttribArray(0);
    const size_t waits = fx.conn->reply_waits;
    mgl_glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, idx);
    fx.sync();
    CHECK(fx.conn->reply_waits == waits);
    FakeServer& s = fx.server();
    REQUIRE(s.subdata.size() == 2);
    // Vertices 3..5 only.
    CHECK(s.subdata[0].bytes.size() == 3 * 8);
    CHECK(std::memcmp(s.subdata[0].bytes.data(), pos + 6, 24) == 0);
    CHECK(s.subdata[0].target == GL_ARRAY_BUFFER);
    // The indices, into their own stream buffer.
    CHECK(s.subdata[1].target == GL_ELEMENT_ARRAY_BUFFER);
    CHECK(std::memcmp(s.subdata[1].bytes.data(), idx, sizeof idx) == 0);
    REQUIRE(s.draws.size() == 1);
    CHECK(s.draws[0].is_offset);
    CHECK(int64_t(s.draws[0].offset) == s.subdata[1].offset);
    CHECK(s.draws[0].element_buffer == s.subdata[1].buffer);
    CHECK(s.draws[0].inline_bytes == 0);
    CHECK(s.bound[GL_ELEMENT_ARRAY_BUFFER] == 0);
}

TEST_CASE("client vertex arrays with indices in a buffer use the client's copy of the indices") {
    ClientFixture fx(2);
    static const float pos[] = {0, 0, 1, 1, 2, 2, 3, 3};
    static const uint8_t idx[] = {0, 2, 1};
    GLuint ebo;
    mgl_glGenBuffers(1, &ebo);
    mgl_glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    mgl_glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    mgl_glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    mgl_glEnableVertexAttribArray(0);
    const size_t waits = fx.conn->reply_waits;
    mgl_glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, nullptr);
    fx.sync();
    CHECK(fx.conn->reply_waits == waits);
    FakeServer& s = fx.server();
    REQUIRE(s.subdata.size() == 1);
    CHECK(s.subdata[0].bytes.size() == 3 * 8);  // vertices 0..2
    REQUIRE(s.draws.size() == 1);
    CHECK(s.draws[0].element_buffer == ebo);
}

TEST_CASE("write maps return client memory and send only what changed") {
    ClientFixture fx;
    std::vector<uint8_t> init(256);
    for (size_t k = 0; k < init.size(); ++k) init[k] = uint8_t(k);
    GLuint b;
    mgl_glGenBuffers(1, &b);
    mgl_glBindBuffer(GL_ARRAY_BUFFER, b);
    mgl_glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(init.size()), init.data(), GL_DYNAMIC_DRAW);

    // Invalidating write map: no round trip, the whole range goes back.
    size_t waits = fx.conn->reply_waits;
    auto* p = static_cast<uint8_t*>(mgl_glMapBufferRange(GL_ARRAY_BUFFER, 16, 32, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT));
    REQUIRE(p);
    CHECK(fx.conn->reply_waits == waits);
    GLint mapped = 0;
    mgl_glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED, &mapped);
    CHECK(mapped == GL_TRUE);
    std::memset(p, 0xAA, 32);
    CHECK(mgl_glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE);
    fx.sync();
    FakeServer& s = fx.server();
    REQUIRE(s.subdata.size() == 1);
    CHECK(s.subdata[0].offset == 16);
    CHECK(s.subdata[0].bytes.size() == 32);

    // GL_OES_mapbuffer: the whole buffer, write-only; its contents come from
    // the client's copy of the data the buffer was first specified with (kept
    // current by the unmap above): no round trip; only the changed span is
    // sent back.
    waits = fx.conn->reply_waits;
    p = static_cast<uint8_t*>(mgl_glMapBufferOES(GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES));
    REQUIRE(p);
    CHECK(fx.conn->reply_waits == waits);
    CHECK(p[100] == 100);
    CHECK(p[20] == 0xAA);
    p[200] = 1;
    p[201] = 2;
    CHECK(mgl_glUnmapBufferOES(GL_ARRAY_BUFFER) == GL_TRUE);
    fx.sync();
    REQUIRE(s.subdata.size() == 2);
    CHECK(s.subdata[1].offset == 192);  // the 64-byte granule that changed
    CHECK(s.subdata[1].bytes.size() == 64);
    CHECK(s.buffers[b][200] == 1);
    CHECK(s.buffers[b][199] == 199);

    // Read map: contents come back, nothing is sent at unmap.
    p = static_cast<uint8_t*>(mgl_glMapBufferRange(GL_ARRAY_BUFFER, 0, 8, GL_MAP_READ_BIT));
    REQUIRE(p);
    CHECK(p[5] == 5);
    mgl_glUnmapBuffer(GL_ARRAY_BUFFER);
    fx.sync();
    CHECK(s.subdata.size() == 2);

    // Explicit flushes send exactly the flushed ranges.
    p = static_cast<uint8_t*>(mgl_glMapBufferRange(GL_ARRAY_BUFFER, 0, 128,
                                                   GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT));
    std::memset(p, 7, 128);
    mgl_glFlushMappedBufferRange(GL_ARRAY_BUFFER, 8, 4);
    mgl_glUnmapBuffer(GL_ARRAY_BUFFER);
    fx.sync();
    REQUIRE(s.subdata.size() == 3);
    CHECK(s.subdata[2].offset == 8);
    CHECK(s.subdata[2].bytes.size() == 4);

    // Errors: unmapping an unmapped buffer.
    CHECK(mgl_glUnmapBuffer(GL_ARRAY_BUFFER) == GL_FALSE);
    CHECK(mgl_glGetError() == GL_INVALID_OPERATION);

    // A buffer specified a second time before any map keeps no copy: its
    // first write map fetches the contents (one round trip).
    GLuint b2;
    mgl_glGenBuffers(1, &b2);
    mgl_glBindBuffer(GL_ARRAY_BUFFER, b2);
    mgl_glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(init.size()), init.data(), GL_STREAM_DRAW);
    mgl_glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(init.size()), init.data(), GL_STREAM_DRAW);
    waits = fx.conn->reply_waits;
    p = static_cast<uint8_t*>(mgl_glMapBufferOES(GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES));
    REQUIRE(p);
    CHECK(fx.conn->reply_waits == waits + 1);
    CHECK(p[100] == 100);
    CHECK(mgl_glUnmapBufferOES(GL_ARRAY_BUFFER) == GL_TRUE);
}
