// KHR_debug on Magma: the message log, its filter and debug groups are the GL
// front end's (backends/gl/state/debug_output.h); object labels live here,
// tied to the object they name so that a deleted object's name, reused, comes
// back without its label. GL errors Magma raises become messages too
// (raise_error, below, behind session.cc's set_error, refuse and
// unsupported): what Mesa's log holds for the same mistakes.
#include <GLES3/gl32.h>

#include <cstring>

#include "backend.h"

namespace mgl::magma {

namespace {
std::string_view wire_text(wire::In<GLchar> s, GLsizei length) {
    const size_t n = s.count();
    if (!s.data || n == 0) return {};
    const char* p = reinterpret_cast<const char*>(s.data);  // GLchar is signed on the wire
    // length < 0: NUL-terminated (the client sent the string with its NUL).
    if (length < 0) return {p, strnlen(p, n)};
    return {p, std::min(n, size_t(length))};
}
}  // namespace

// The context's error flag keeps the first error; every error is a message.
void MagmaBackend::raise_error(GLenum e, const char* verb, const char* why) {
    if (!cur_) return;
    if (!cur_->pending_error) cur_->pending_error = e;
    if (!cur_->debug.enabled()) return;
    std::string text = verb ? fmt::format("{} in {}", gl::error_name(e), verb)
                            : fmt::format("{} error generated", gl::error_name(e));
    if (why) text += fmt::format(": {}", why);
    cur_->debug.emit(gl::debug::kSourceApi, gl::debug::kTypeError, e, gl::debug::kSeverityHigh, text);
}

void MagmaBackend::debug_verb_error(gen::Op verb, uint32_t e) {
    if (e) raise_error(e, gen::verb_name(uint16_t(verb)), nullptr);
}

void MagmaBackend::glDebugMessageInsert(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                        wire::In<GLchar> buf) {
    if (!need_context(gen::Op::glDebugMessageInsert)) return;
    const std::string_view text = wire_text(buf, length);
    if (length >= 0 && size_t(length) > text.size()) return debug_verb_error(gen::Op::glDebugMessageInsert, GL_INVALID_VALUE);
    debug_verb_error(gen::Op::glDebugMessageInsert, cur_->debug.insert(source, type, id, severity, text));
}

void MagmaBackend::glDebugMessageControl(GLenum source, GLenum type, GLenum severity, GLsizei count,
                                         wire::In<GLuint> ids, GLboolean enabled) {
    if (!need_context(gen::Op::glDebugMessageControl)) return;
    if (count < 0) return debug_verb_error(gen::Op::glDebugMessageControl, GL_INVALID_VALUE);
    const std::span<const uint32_t> list(ids.data, std::min<size_t>(ids.count(), size_t(count)));
    debug_verb_error(gen::Op::glDebugMessageControl, cur_->debug.control(source, type, severity, list, enabled != GL_FALSE));
}

GLuint MagmaBackend::glGetDebugMessageLog(GLuint count, GLsizei bufSize, wire::Out<GLenum> sources,
                                          wire::Out<GLenum> types, wire::Out<GLuint> ids, wire::Out<GLenum> severities,
                                          wire::Out<GLsizei> lengths, wire::Out<GLchar> messageLog) {
    if (!need_context(gen::Op::glGetDebugMessageLog)) return 0;
    // The arrays' capacities come from the wire: never write past them.
    uint32_t n = count;
    for (uint32_t cap : {sources.count(), types.count(), ids.count(), severities.count(), lengths.count()})
        if (cap) n = std::min(n, cap);
    gl::DebugLogOut out{sources.count() ? sources.data : nullptr, types.count() ? types.data : nullptr,
                        ids.count() ? ids.data : nullptr, severities.count() ? severities.data : nullptr,
                        lengths.count() ? reinterpret_cast<int32_t*>(lengths.data) : nullptr,
                        messageLog.count() ? reinterpret_cast<char*>(messageLog.data) : nullptr};
    const int32_t room = out.log ? int32_t(std::min<uint64_t>(messageLog.count(), uint64_t(std::max(bufSize, 0)))) : bufSize;
    uint32_t error = 0;
    const GLuint got = cur_->debug.fetch(n, bufSize < 0 ? bufSize : room, out, &error);
    debug_verb_error(gen::Op::glGetDebugMessageLog, error);
    return got;
}

void MagmaBackend::glPushDebugGroup(GLenum source, GLuint id, GLsizei length, wire::In<GLchar> message) {
    if (!need_context(gen::Op::glPushDebugGroup)) return;
    const std::string_view text = wire_text(message, length);
    if (length >= 0 && size_t(length) > text.size()) return debug_verb_error(gen::Op::glPushDebugGroup, GL_INVALID_VALUE);
    debug_verb_error(gen::Op::glPushDebugGroup, cur_->debug.push_group(source, id, text));
}

void MagmaBackend::glPopDebugGroup() {
    if (!need_context(gen::Op::glPopDebugGroup)) return;
    debug_verb_error(gen::Op::glPopDebugGroup, cur_->debug.pop_group());
}

// ---- object labels ----------------------------------------------------------------

namespace {
template <class Map>
std::shared_ptr<void> find_in(const Map& m, GLuint name) {
    auto it = m.find(name);
    return it == m.end() ? nullptr : std::shared_ptr<void>(it->second);
}
}  // namespace

// The live object `name` of KHR_debug's kind `identifier`; *known is false
// for an identifier that names no kind (GL_INVALID_ENUM).
std::shared_ptr<void> MagmaBackend::labelled_object(GLenum identifier, GLuint name, bool* known) {
    *known = true;
    Context& c = *cur_;
    ShareGroup& g = *c.share;
    switch (identifier) {
        case GL_BUFFER: return find_in(g.buffers, name);
        case GL_SHADER: return find_in(g.shaders, name);
        case GL_PROGRAM: return find_in(g.programs, name);
        case GL_VERTEX_ARRAY: return find_in(c.vaos, name);
        case GL_QUERY: return find_in(c.queries, name);
        case GL_TRANSFORM_FEEDBACK: return find_in(c.xfbs, name);
        case GL_SAMPLER: return find_in(g.samplers, name);
        case GL_TEXTURE: return find_in(g.textures, name);
        case GL_RENDERBUFFER: return find_in(g.renderbuffers, name);
        case GL_FRAMEBUFFER: return find_in(c.framebuffers, name);
        case GL_PROGRAM_PIPELINE: return nullptr;  // Magma has no program pipelines: no name is one
        default: *known = false; return nullptr;
    }
}

void MagmaBackend::glObjectLabel(GLenum identifier, GLuint name, GLsizei length, wire::In<GLchar> label) {
    if (!need_context(gen::Op::glObjectLabel)) return;
    bool known = false;
    std::shared_ptr<void> obj = labelled_object(identifier, name, &known);
    if (!known) return debug_verb_error(gen::Op::glObjectLabel, GL_INVALID_ENUM);
    if (!obj) return debug_verb_error(gen::Op::glObjectLabel, GL_INVALID_VALUE);
    const std::string_view text = wire_text(label, length);
    if (text.size() >= gl::DebugOutput::kMaxLabel) return debug_verb_error(gen::Op::glObjectLabel, GL_INVALID_VALUE);
    ShareGroup& g = *cur_->share;
    if (text.empty()) g.labels.erase({identifier, name});
    else g.labels[{identifier, name}] = ShareGroup::Label{obj, std::string(text)};
    // Labels of deleted objects go when the map has doubled since the last
    // sweep: no scan per call, at most twice the live labels kept.
    if (g.labels.size() > 2 * g.labels_swept + 16) {
        std::erase_if(g.labels, [](const auto& kv) { return kv.second.object.expired(); });
        g.labels_swept = g.labels.size();
    }
}

void MagmaBackend::glGetObjectLabel(GLenum identifier, GLuint name, GLsizei bufSize, wire::Out<GLsizei> length,
                                    wire::Out<GLchar> label) {
    if (!need_context(gen::Op::glGetObjectLabel)) return;
    if (bufSize < 0) return debug_verb_error(gen::Op::glGetObjectLabel, GL_INVALID_VALUE);
    bool known = false;
    std::shared_ptr<void> obj = labelled_object(identifier, name, &known);
    if (!known) return debug_verb_error(gen::Op::glGetObjectLabel, GL_INVALID_ENUM);
    if (!obj) return debug_verb_error(gen::Op::glGetObjectLabel, GL_INVALID_VALUE);
    std::string_view text;
    auto& labels = cur_->share->labels;
    // The label of this very object: a deleted one's name reused has none.
    if (auto it = labels.find({identifier, name}); it != labels.end() && it->second.object.lock() == obj)
        text = it->second.text;
    const size_t n = gl::copy_label(text, std::min<size_t>(label.count(), size_t(bufSize)),
                                    reinterpret_cast<char*>(label.data));
    if (length.count()) length.data[0] = GLsizei(n);
}

}  // namespace mgl::magma
