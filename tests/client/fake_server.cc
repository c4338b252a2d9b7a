#include "fake_server.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "gl_ctypes.h"
#include "mgl/wire/record.h"

namespace mgl::test {

void FakeServer::mglCreateContext(GLuint context, GLuint, GLint, GLint, GLbitfield, GLenum api, GLbitfield profile) {
    ++counts[3];
    contexts[context] = Ctx{api, profile};
}

GLint FakeServer::mglGetContextVersion(GLuint context) {
    auto it = contexts.find(context);
    if (it == contexts.end()) return 0;
    return it->second.api == 0x30A2 ? desktop_version : 32;
}

// As a backend does: the generated profile checks of the decoders follow the
// current context.
void FakeServer::mglMakeCurrent(GLuint, GLuint, GLuint context) {
    ++counts[8];
    auto it = contexts.find(context);
    current = it == contexts.end() ? nullptr : &it->second;
    if (!current) {
        api_kind = gen::ApiKind::any;
    } else if (current->api != 0x30A2) {
        api_kind = gen::ApiKind::es, api_version = 32;
    } else {
        api_kind = current->profile == 1 ? gen::ApiKind::core : gen::ApiKind::compat;
        api_version = uint8_t(desktop_version);
    }
}

GLint FakeServer::mglGetString(GLenum name, GLint index, GLsizei bufSize, wire::Out<GLchar> value) {
    std::string s;
    const bool desktop = current && current->api == 0x30A2;
    switch (name) {
        case GL_VENDOR: s = "Fake"; break;
        case GL_RENDERER: s = "FakeRenderer"; break;
        case GL_VERSION:
            s = desktop ? std::to_string(desktop_version / 10) + "." + std::to_string(desktop_version % 10) + " FakeGL 1.0"
                        : version;
            break;
        case GL_SHADING_LANGUAGE_VERSION: s = desktop ? "3.30" : "OpenGL ES GLSL ES 3.20"; break;
        case GL_EXTENSIONS: s = extensions; break;
        default: return -1;
    }
    const size_t n = std::min<size_t>(s.size() + 1, value.size);
    if (n) {
        std::memcpy(value.data, s.c_str(), n);
        value.data[n - 1] = 0;
    }
    return GLint(s.size());
}

void FakeServer::mglReadBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, wire::Out<GLubyte> data) {
    const std::vector<uint8_t>& b = buffers[bound[target]];
    for (int64_t k = 0; k < length && k < int64_t(data.size); ++k)
        data.data[k] = size_t(offset + k) < b.size() ? b[size_t(offset + k)] : 0;
}

void FakeServer::mglReadSurface(GLuint, GLint, GLint, GLint width, GLint height, wire::Out<GLubyte> pixels) {
    for (uint32_t k = 0; k < pixels.size; ++k) pixels.data[k] = uint8_t(k * 7);
}

GLenum FakeServer::mglGetError() {
    const GLenum e = next_error;
    next_error = 0;
    return e;
}

void FakeServer::glGetIntegerv(GLenum pname, wire::Out<GLint> data) {
    ++get_integer_calls;
    GLint v = 1;
    switch (pname) {
        case GL_MAX_VERTEX_ATTRIBS: v = 16; break;
        case GL_MAX_TEXTURE_SIZE: v = 8192; break;
        case GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS: v = 32; break;
        case GL_RED_BITS: v = 8; break;
        case GL_MAX_VIEWPORT_DIMS: v = 16384; break;
        default: break;
    }
    for (uint32_t k = 0; k < data.count(); ++k) data.data[k] = v;
}

void FakeServer::glGetFloatv(GLenum pname, wire::Out<GLfloat> data) {
    for (uint32_t k = 0; k < data.count(); ++k) data.data[k] = float(k + 1);
}

void FakeServer::glGetInteger64v(GLenum pname, wire::Out<GLint64> data) {
    for (uint32_t k = 0; k < data.count(); ++k) data.data[k] = 1 << 20;
}

void FakeServer::glBindBuffer(GLenum target, GLuint buffer) { bound[target] = buffer; }

void FakeServer::glBufferData(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLenum) {
    std::vector<uint8_t>& b = buffers[bound[target]];
    b.assign(size_t(size), 0);
    if (data.size) std::memcpy(b.data(), data.data, std::min<size_t>(data.size, size_t(size)));
}

void FakeServer::glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, wire::In<uint8_t> data) {
    std::vector<uint8_t>& b = buffers[bound[target]];
    if (size_t(offset + size) > b.size()) b.resize(size_t(offset + size));
    std::memcpy(b.data() + offset, data.data, data.size);
    subdata.push_back({target, bound[target], offset, std::vector<uint8_t>(data.data, data.data + data.size)});
}

void FakeServer::glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean, GLsizei stride,
                                       wire::InOrOffset<uint8_t> pointer) {
    attribs.push_back({index, size, type, stride, pointer.is_offset(), pointer.offset, bound[GL_ARRAY_BUFFER]});
}

void FakeServer::glDrawArrays(GLenum mode, GLint first, GLsizei) {
    draws.push_back({784, mode, first, false, 0, 0, 0});
}

void FakeServer::glDrawElements(GLenum mode, GLsizei count, GLenum, wire::InOrOffset<uint8_t> indices) {
    draws.push_back({807, mode, count, indices.is_offset(), indices.offset, bound[GL_ELEMENT_ARRAY_BUFFER], indices.size});
}

void FakeServer::glGenBuffers(GLsizei, wire::In<GLuint> b) { gen_buffers.assign(b.data, b.data + b.count()); }
void FakeServer::glGenTextures(GLsizei, wire::In<GLuint> t) { gen_textures.assign(t.data, t.data + t.count()); }
void FakeServer::glCreateProgram(GLuint result) { created.push_back(result); }
void FakeServer::glCreateShader(GLenum, GLuint result) { created.push_back(result); }
GLenum FakeServer::glClientWaitSync(GLsync, GLbitfield, GLuint64) { return GL_ALREADY_SIGNALED; }

TestConnection::TestConnection() {
    dispatch_.backend = &server;
    dispatch_.replies = &link_.replies;
    link_.on_reply = [this](wire::MemoryLink& l) {
        ++reply_waits;
        if (lost_.empty()) drain();
        else l.replies.replies.clear();  // a dead server answers nothing
    };
}

bool TestConnection::drain() {
    const std::vector<uint8_t>& b = link_.bytes();
    if (decoded_ >= b.size()) return error.empty();
    wire::DecodeResult r =
        wire::decode_stream(std::span<const uint8_t>(b.data() + decoded_, b.size() - decoded_), dispatch_);
    decoded_ += r.consumed;
    if (!r.ok() && error.empty()) error = r.error.detail.empty() ? wire::to_string(r.error.status) : r.error.detail;
    return error.empty();
}

std::vector<uint16_t> TestConnection::ops_since(size_t from) const {
    std::vector<uint16_t> ops;
    const std::vector<uint8_t>& b = link_.bytes();
    for (size_t at = from; at + 8 <= b.size();) {
        const uint16_t op = wire::get<uint16_t>(b.data() + at);
        const uint32_t size = wire::get<uint32_t>(b.data() + at + 4);
        if (size < 8) break;
        if (op == wire::kOpChunk) {
            // A record too large for one window: its first piece starts with its header.
            if (wire::get<uint32_t>(b.data() + at + 12) == 0) ops.push_back(wire::get<uint16_t>(b.data() + at + 16));
        } else if (op != wire::kOpPad) {
            ops.push_back(op);
        }
        at += size;
    }
    return ops;
}

namespace {
std::mutex g_mu;
TestConnection* g_last = nullptr;
}  // namespace

void use_test_connections() {
    client::set_connection_factory([](std::string*) -> std::unique_ptr<client::Connection> {
        auto c = std::make_unique<TestConnection>();
        std::lock_guard<std::mutex> g(g_mu);
        g_last = c.get();
        return c;
    });
}

TestConnection* last_connection() {
    std::lock_guard<std::mutex> g(g_mu);
    return g_last;
}

}  // namespace mgl::test
