// A stand-in for the server in client tests: a `direct`-style connection
// that decodes the client's records (at each reply wait, and on drain())
// into a NullBackend that answers sync verbs with plausible values and
// keeps what the tests look at (buffer contents, attribute pointers, draws).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "connection.h"
#include "gen/null_backend.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/memory_link.h"

namespace mgl::test {

class FakeServer : public NullBackend {
public:
    // server-side state the answers need
    std::map<uint32_t, uint32_t> bound;                    // target -> buffer
    std::map<uint32_t, std::vector<uint8_t>> buffers;      // buffer -> contents
    uint32_t next_error = 0;                               // what mglGetError answers next
    std::string version = "OpenGL ES 3.2 FakeGL 1.0";
    std::string extensions = "GL_OES_mapbuffer GL_EXT_memory_object GL_OES_vertex_array_object";

    // what the tests look at
    struct SubData {
        uint32_t target, buffer;
        int64_t offset;
        std::vector<uint8_t> bytes;
    };
    std::vector<SubData> subdata;
    struct Attrib {
        uint32_t index;
        int32_t size;
        uint32_t type;
        int32_t stride;
        bool is_offset;
        uint64_t offset;
        uint32_t buffer;
    };
    std::vector<Attrib> attribs;
    struct Draw {
        uint16_t op;
        uint32_t mode;
        int32_t first_or_count;
        bool is_offset;
        uint64_t offset;
        uint32_t element_buffer;
        uint32_t inline_bytes;
    };
    std::vector<Draw> draws;
    std::vector<uint32_t> gen_buffers, gen_textures;
    std::vector<uint32_t> created;  // glCreateProgram / glCreateShader names, in order
    int get_integer_calls = 0;

    // Contexts: api (0x30A0 ES, 0x30A2 desktop) and profile by name; a desktop
    // context is served at desktop_version, an ES one at 3.2.
    struct Ctx {
        uint32_t api, profile;
    };
    std::map<uint32_t, Ctx> contexts;
    const Ctx* current = nullptr;
    int desktop_version = 33;
    void mglCreateContext(GLuint context, GLuint share, GLint major, GLint minor, GLbitfield flags, GLenum api,
                          GLbitfield profile) override;
    GLint mglGetContextVersion(GLuint context) override;
    void mglMakeCurrent(GLuint draw, GLuint read, GLuint context) override;
    GLint mglGetString(GLenum name, GLint index, GLsizei bufSize, wire::Out<GLchar> value) override;
    void mglReadBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, wire::Out<GLubyte> data) override;
    void mglReadSurface(GLuint surface, GLint x, GLint y, GLint width, GLint height, wire::Out<GLubyte> pixels) override;
    GLenum mglGetError() override;
    void glGetIntegerv(GLenum pname, wire::Out<GLint> data) override;
    void glGetFloatv(GLenum pname, wire::Out<GLfloat> data) override;
    void glGetInteger64v(GLenum pname, wire::Out<GLint64> data) override;
    void glBindBuffer(GLenum target, GLuint buffer) override;
    void glBufferData(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLenum usage) override;
    void glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, wire::In<uint8_t> data) override;
    void glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                               wire::InOrOffset<uint8_t> pointer) override;
    void glDrawArrays(GLenum mode, GLint first, GLsizei count) override;
    void glDrawElements(GLenum mode, GLsizei count, GLenum type, wire::InOrOffset<uint8_t> indices) override;
    void glGenBuffers(GLsizei n, wire::In<GLuint> buffers) override;
    void glGenTextures(GLsizei n, wire::In<GLuint> textures) override;
    void glCreateProgram(GLuint result) override;
    void glCreateShader(GLenum type, GLuint result) override;
    GLenum glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) override;
};

class TestConnection : public client::Connection {
public:
    TestConnection();
    wire::ClientLink& link() override { return link_; }
    std::string transport() const override { return "test"; }
    std::string lost_reason() override { return lost_.empty() ? link_.lost_reason() : lost_; }
    // The server is gone from now on: no replies, lost_reason() says why.
    void lose(std::string why) { lost_ = std::move(why); }

    // Decodes everything published and not decoded yet. false: a decode
    // error (in `error`).
    bool drain();
    const std::vector<uint8_t>& bytes() const { return link_.bytes(); }
    // Opcodes of the records published from byte `from` on (pads skipped).
    std::vector<uint16_t> ops_since(size_t from) const;

    FakeServer server;
    size_t reply_waits = 0;
    std::string error;

private:
    wire::MemoryLink link_;
    wire::Dispatch dispatch_;
    std::string lost_;
    size_t decoded_ = 0;
};

// Installs a connection factory that opens TestConnections; the last one
// opened is returned by last_connection().
void use_test_connections();
TestConnection* last_connection();

}  // namespace mgl::test
