#include "espryt_core.h"

#include <GLES3/gl32.h>

#include "context/desktop_context.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

namespace mgl::espryt {

namespace {
// What avail_ points at while no context is current: every verb unavailable.
const std::vector<uint8_t> kNothingAvailable(kHostVerbs, 0);
constexpr size_t kScratchWords = 8192;  // 64 KiB: every ordinary call fits
}  // namespace

Core::Core(const Options& options)
    : avail_(kNothingAvailable.data()),
      log_(options.logger ? options.logger : spdlog::default_logger()),
      logged_unsupported_(gen::kOpcodeLimit),
      logged_refused_(gen::kOpcodeLimit),
      logged_names_(gen::kOpcodeLimit),
      scratch_(kScratchWords) {}

Core::~Core() = default;

void Core::set_current(Context* c) {
    cur_ = c;
    avail_ = c && c->ready ? c->avail.data() : kNothingAvailable.data();
    // The generated profile checks of the decoders (gen/verb_api.h).
    api_kind = c ? gl::api_kind(c->api, c->profile, c->served) : gen::ApiKind::any;
    api_version = c ? uint8_t(c->served) : 0;
}

void Core::profile_refused(gen::Op verb) {
    if (!cur_) {
        unavailable(verb);
        return;
    }
    set_error(GL_INVALID_OPERATION);
    if (first_time(logged_unsupported_, verb))
        log_->warn("espryt: {} is not part of {} {}.{}: GL_INVALID_OPERATION", gen::verb_name(uint16_t(verb)),
                   !cur_->desktop() ? "OpenGL ES" : cur_->profile == 1 ? "the OpenGL core profile" : "OpenGL",
                   cur_->served / 10, cur_->served % 10);
}

bool Core::first_time(std::vector<bool>& seen, gen::Op verb) {
    const auto i = size_t(verb);
    if (i >= seen.size() || seen[i]) return false;
    seen[i] = true;
    return true;
}

// ---- errors ---------------------------------------------------------------

void Core::set_error(GLenum e) { raise_error(e, nullptr, nullptr); }

void Core::raise_error(GLenum e, const char* verb, const char* why) {
    if (!cur_) return;
    if (!cur_->pending_error) {
        // An older host error comes first, as GL would report it.
        const GLenum host = host_gl.glGetError();
        cur_->pending_error = host ? host : e;
    }
    // A message for the application's debug output, as the host would have made.
    if (!avail_[hidx::glGetDebugMessageLog] || !host_gl.glIsEnabled(GL_DEBUG_OUTPUT)) return;
    std::string text = verb ? fmt::format("{} in {}", gl::error_name(e), verb)
                            : fmt::format("{} error generated", gl::error_name(e));
    if (why) text += fmt::format(": {}", why);
    cur_->own_debug.emit(gl::debug::kSourceApi, gl::debug::kTypeError, e, gl::debug::kSeverityHigh, text);
}

uint32_t Core::take_error() {
    if (!cur_) return GL_NO_ERROR;
    if (uint32_t e = cur_->pending_error) {
        cur_->pending_error = 0;
        return e;
    }
    return host_gl.glGetError();
}

// One host glGetError per applied span (not per verb): what the app would
// pay for one glGetError per batch of calls on the native driver.
uint32_t Core::take_error_event(uint32_t* context) {
    if (!cur_) return GL_NO_ERROR;
    *context = cur_->id;
    return take_error();
}

void Core::unsupported(gen::Op verb) {
    raise_error(GL_INVALID_OPERATION, gen::verb_name(uint16_t(verb)), "not supported");
    if (first_time(logged_unsupported_, verb))
        log_->warn("espryt: {} is not supported (GL_INVALID_OPERATION)", gen::verb_name(uint16_t(verb)));
}

void Core::unavailable(gen::Op verb) {
    if (!cur_) {
        if (first_time(logged_unsupported_, verb))
            log_->warn("espryt: {} without a current context: ignored", gen::verb_name(uint16_t(verb)));
        return;
    }
    raise_error(GL_INVALID_OPERATION, gen::verb_name(uint16_t(verb)), "not available on the host");
    if (first_time(logged_unsupported_, verb))
        log_->warn("espryt: {} is not available on the host GLES context (GL_INVALID_OPERATION)",
                   gen::verb_name(uint16_t(verb)));
}

void Core::refuse(gen::Op verb, GLenum e, const char* why) {
    raise_error(e, gen::verb_name(uint16_t(verb)), why);
    if (first_time(logged_refused_, verb))
        log_->warn("espryt: {} refused: {} (GL error 0x{:04X})", gen::verb_name(uint16_t(verb)), why, e);
}

// ---- names ------------------------------------------------------------------

void Core::name_error(gen::Op verb, Kind k, GLuint client) {
    // GL answers a name that is not a program/shader with INVALID_VALUE and
    // a container or bind target it cannot use with INVALID_OPERATION.
    raise_error(k == Kind::program ? GL_INVALID_VALUE : GL_INVALID_OPERATION, gen::verb_name(uint16_t(verb)), "unknown name");
    if (first_time(logged_names_, verb))
        log_->warn("espryt: {}: unknown {} name {}", gen::verb_name(uint16_t(verb)), kind_name(k), client);
}

void Core::name_error(gen::Op verb, GLsync client) {
    raise_error(GL_INVALID_VALUE, gen::verb_name(uint16_t(verb)), "unknown sync");
    if (first_time(logged_names_, verb))
        log_->warn("espryt: {}: unknown sync 0x{:x}", gen::verb_name(uint16_t(verb)), client);
}

bool Core::create_on_bind(Kind k, GLuint client, GLuint& host) {
    host = 0;
    switch (k) {
        case Kind::buffer: host_gl.glGenBuffers(1, &host); break;
        case Kind::texture: host_gl.glGenTextures(1, &host); break;
        case Kind::renderbuffer: host_gl.glGenRenderbuffers(1, &host); break;
        case Kind::framebuffer: host_gl.glGenFramebuffers(1, &host); break;
        default: return false;  // GLES wants these generated first
    }
    if (!host) return false;
    cur_->maps[int(k)]->set(client, host);
    return true;
}

void Core::delete_host(Kind k, GLuint h) {
    switch (k) {
        case Kind::buffer: host_gl.glDeleteBuffers(1, &h); break;
        case Kind::texture: host_gl.glDeleteTextures(1, &h); break;
        case Kind::renderbuffer: host_gl.glDeleteRenderbuffers(1, &h); break;
        case Kind::sampler: host_gl.glDeleteSamplers(1, &h); break;
        case Kind::program:
            if (host_gl.glIsShader(h)) host_gl.glDeleteShader(h);
            else host_gl.glDeleteProgram(h);
            break;
        case Kind::framebuffer: host_gl.glDeleteFramebuffers(1, &h); break;
        case Kind::vertex_array: host_gl.glDeleteVertexArrays(1, &h); break;
        case Kind::transform_feedback: host_gl.glDeleteTransformFeedbacks(1, &h); break;
        case Kind::query: host_gl.glDeleteQueries(1, &h); break;
        case Kind::program_pipeline:
            if (host_gl.glDeleteProgramPipelines) host_gl.glDeleteProgramPipelines(1, &h);
            break;
        case Kind::count: break;
    }
}

void Core::record_minted(gen::Op verb, Kind k, GLuint client, GLuint host) {
    if (!host) return;  // the host refused (its error stands); the name stays unknown
    NameMap& m = *cur_->maps[int(k)];
    if (client == 0 || m.contains(client)) {
        // A client that mints 0 or a live name is broken; never alias two
        // host objects behind one name.
        if (first_time(logged_names_, verb))
            log_->warn("espryt: {}: client minted {} name {} that is 0 or already live", gen::verb_name(uint16_t(verb)),
                       kind_name(k), client);
        delete_host(k, host);
        set_error(GL_INVALID_OPERATION);
        return;
    }
    m.set(client, host);
}

void Core::record_minted(gen::Op verb, Kind k, wire::In<GLuint> names, const GLuint* host, GLsizei n) {
    for (GLsizei i = 0; i < n; ++i) record_minted(verb, k, names.data[i], host[i]);
}

void Core::record_minted_sync(gen::Op verb, GLsync client, void* host) {
    if (!host) return;
    SyncMap& m = cur_->share->syncs;
    if (client == 0 || m.contains(client)) {
        if (first_time(logged_names_, verb))
            log_->warn("espryt: {}: client minted sync 0x{:x} that is 0 or already live", gen::verb_name(uint16_t(verb)),
                       client);
        host_gl.glDeleteSync(host);
        set_error(GL_INVALID_OPERATION);
        return;
    }
    m.set(client, host);
}

void Core::forget_all(Kind k, wire::In<GLuint> names, GLsizei n) {
    for (GLsizei i = 0; i < n; ++i) forget(k, names.data[i]);
}

GLsizei Core::known_to_host(Kind k, wire::In<GLuint> names, GLsizei n, GLuint* out) const {
    GLsizei m = 0;
    for (GLsizei i = 0; i < n; ++i) {
        GLuint h;
        if (names.data[i] && to_host(k, names.data[i], h)) out[m++] = h;
    }
    return m;
}

bool Core::all_to_host(gen::Op verb, Kind k, wire::In<GLuint> names, GLsizei n, GLuint* out) {
    for (GLsizei i = 0; i < n; ++i) {
        if (!to_host(k, names.data[i], out[i])) {
            name_error(verb, k, names.data[i]);
            return false;
        }
    }
    return true;
}

void Core::names_to_client(Kind k, GLuint* names, uint32_t n) const {
    for (uint32_t i = 0; i < n; ++i) names[i] = to_client(k, names[i]);
}

// ---- pointer arguments --------------------------------------------------------

namespace {
struct Target {
    GLenum target, binding;
};
Target target_of(Src s) {
    switch (s) {
        case Src::array_buffer: return {GL_ARRAY_BUFFER, GL_ARRAY_BUFFER_BINDING};
        case Src::element_array_buffer: return {GL_ELEMENT_ARRAY_BUFFER, GL_ELEMENT_ARRAY_BUFFER_BINDING};
        case Src::pixel_pack_buffer: return {GL_PIXEL_PACK_BUFFER, GL_PIXEL_PACK_BUFFER_BINDING};
        case Src::pixel_unpack_buffer: return {GL_PIXEL_UNPACK_BUFFER, GL_PIXEL_UNPACK_BUFFER_BINDING};
        case Src::draw_indirect_buffer: return {GL_DRAW_INDIRECT_BUFFER, GL_DRAW_INDIRECT_BUFFER_BINDING};
        case Src::count: break;
    }
    return {0, 0};
}
}  // namespace

bool Core::bound(Src s) const {
    // A GLES 3.0 host has no indirect binding point (nor the verbs that read it).
    if (s == Src::draw_indirect_buffer && !avail_[hidx::glDrawArraysIndirect]) return false;
    const GLenum binding = target_of(s).binding;
    if (!binding) return false;
    GLint name = 0;
    host_gl.glGetIntegerv(binding, &name);
    return name != 0;
}

bool Core::offset_fits(gen::Op verb, Src s, uint64_t offset, uint64_t need) {
    GLint64 size = 0;
    host_gl.glGetBufferParameteri64v(target_of(s).target, GL_BUFFER_SIZE, &size);
    // Written so that offset + need cannot wrap around.
    if (offset <= uint64_t(size) && (need == kUnknownSize || need <= uint64_t(size) - offset)) return true;
    refuse(verb, GL_INVALID_OPERATION, "offset range outside the bound buffer");
    return false;
}

int64_t Core::host_buffer_size(GLuint host) {
    GLint prev = 0;
    GLint64 size = 0;
    host_gl.glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &prev);
    host_gl.glBindBuffer(GL_COPY_READ_BUFFER, host);
    host_gl.glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    host_gl.glBindBuffer(GL_COPY_READ_BUFFER, GLuint(prev));
    return size;
}

bool Core::check_arrays(gen::Op verb) {
    if (cur_->max_attribs < 0) {
        GLint n = 0;
        host_gl.glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &n);
        cur_->max_attribs = n;
    }
    // GLES 3.1 splits an attribute into a format and a buffer binding.
    const bool bindings = avail_[hidx::glBindVertexBuffer];
    for (GLint i = 0; i < cur_->max_attribs; ++i) {
        GLint enabled = 0, buffer = 0;
        host_gl.glGetVertexAttribiv(GLuint(i), GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
        if (!enabled) continue;
        host_gl.glGetVertexAttribiv(GLuint(i), GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
        if (!buffer) {
            refuse(verb, GL_INVALID_OPERATION, "an enabled vertex attribute has no buffer (a client array: the client must stream it)");
            return false;
        }
        uint64_t offset = 0;
        if (bindings) {
            GLint binding = 0, relative = 0;
            GLint64 base = 0;
            host_gl.glGetVertexAttribiv(GLuint(i), GL_VERTEX_ATTRIB_BINDING, &binding);
            host_gl.glGetVertexAttribiv(GLuint(i), GL_VERTEX_ATTRIB_RELATIVE_OFFSET, &relative);
            host_gl.glGetInteger64i_v(GL_VERTEX_BINDING_OFFSET, GLuint(binding), &base);
            offset = uint64_t(base) + uint64_t(uint32_t(relative));
        } else {
            void* p = nullptr;
            host_gl.glGetVertexAttribPointerv(GLuint(i), GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
            offset = uint64_t(reinterpret_cast<uintptr_t>(p));
        }
        if (offset > uint64_t(host_buffer_size(GLuint(buffer)))) {
            refuse(verb, GL_INVALID_OPERATION, "a vertex attribute's offset lies past the end of its buffer");
            return false;
        }
    }
    cur_->arrays_checked = cur_->share->buffer_epoch;
    return true;
}

namespace {
struct RangeTarget {
    GLenum binding, start, size, max;
    const char* what;
};
const RangeTarget kRangeTargets[4] = {
    {GL_UNIFORM_BUFFER_BINDING, GL_UNIFORM_BUFFER_START, GL_UNIFORM_BUFFER_SIZE, GL_MAX_UNIFORM_BUFFER_BINDINGS,
     "a uniform buffer range lies outside its buffer"},
    {GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER_START, GL_TRANSFORM_FEEDBACK_BUFFER_SIZE,
     GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, "a transform feedback range lies outside its buffer"},
    {GL_SHADER_STORAGE_BUFFER_BINDING, GL_SHADER_STORAGE_BUFFER_START, GL_SHADER_STORAGE_BUFFER_SIZE,
     GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, "a shader storage range lies outside its buffer"},
    {GL_ATOMIC_COUNTER_BUFFER_BINDING, GL_ATOMIC_COUNTER_BUFFER_START, GL_ATOMIC_COUNTER_BUFFER_SIZE,
     GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, "an atomic counter range lies outside its buffer"},
};
}  // namespace

bool Core::check_ranges(gen::Op verb) {
    // Storage and atomic counter buffers are GLES 3.1.
    const int targets = avail_[hidx::glDispatchCompute] ? 4 : 2;
    for (int t = 0; t < targets; ++t) {
        const RangeTarget& rt = kRangeTargets[t];
        if (cur_->max_ranges[t] < 0) {
            GLint n = 0;
            host_gl.glGetIntegerv(rt.max, &n);
            cur_->max_ranges[t] = n;
        }
        for (GLint i = 0; i < cur_->max_ranges[t]; ++i) {
            GLint buffer = 0;
            host_gl.glGetIntegeri_v(rt.binding, GLuint(i), &buffer);
            if (!buffer) continue;
            GLint64 start = 0, size = 0;
            host_gl.glGetInteger64i_v(rt.start, GLuint(i), &start);
            host_gl.glGetInteger64i_v(rt.size, GLuint(i), &size);
            const uint64_t have = uint64_t(host_buffer_size(GLuint(buffer)));
            // size 0: glBindBufferBase, the whole buffer. No wrap-around in the test.
            if (uint64_t(start) > have || uint64_t(size) > have - uint64_t(start)) {
                refuse(verb, GL_INVALID_OPERATION, rt.what);
                return false;
            }
        }
    }
    cur_->ranges_checked = cur_->share->buffer_epoch;
    return true;
}

bool Core::resolve_in(gen::Op verb, Src src, const void* data, uint32_t size, uint64_t offset, uint64_t need,
                      bool null_ok, bool retained, const void*& out) {
    if (!data) {
        // An offset is only an offset while a buffer is bound there; without
        // one the host would take it for a pointer into server memory.
        if (bound(src)) {
            // Offsets past the end (or wrapping around) are refused here
            // whatever the host would make of them. Pixel sizes are left to
            // the host (GL bounds-checks buffer-backed pixel transfers, with
            // its own row rules); attribute offsets are checked at the draw.
            const bool sized = src == Src::element_array_buffer || src == Src::draw_indirect_buffer;
            if (!retained && !offset_fits(verb, src, offset, sized ? need : 0)) return false;
            out = reinterpret_cast<const void*>(uintptr_t(offset));
            return true;
        }
        if (offset == 0 && (null_ok || need == 0)) {
            out = nullptr;
            return true;
        }
        if (offset == 0 && src == Src::pixel_unpack_buffer && need != kUnknownSize && need <= kNullPixelsMax) {
            // A sub-image from a null pointer without an unpack buffer: GL
            // gives it no source (Mesa uploads nothing, after validating the
            // call). The host validates it too, and reads zeros, not address 0.
            if (null_pixels_.size() < need) null_pixels_.assign(size_t(need), 0);
            out = null_pixels_.data();
            return true;
        }
        refuse(verb, GL_INVALID_OPERATION, "offset argument while no buffer is bound");
        return false;
    }
    if (retained) {
        refuse(verb, GL_INVALID_OPERATION, "client-memory array (the client must stream it into a buffer)");
        return false;
    }
    if (bound(src)) {
        // The client thought no buffer was bound; the host would read the
        // pointer as an offset.
        refuse(verb, GL_INVALID_OPERATION, "inline data while a buffer is bound");
        return false;
    }
    if (need == kUnknownSize) {
        refuse(verb, GL_INVALID_ENUM, "cannot size the inline data (unknown format/type)");
        return false;
    }
    if (need > size) {
        refuse(verb, GL_INVALID_OPERATION, "inline data shorter than the host will read");
        return false;
    }
    out = data;
    return true;
}

bool Core::resolve_out(gen::Op verb, void* data, uint32_t size, uint64_t offset, uint64_t need, void*& out) {
    if (!data) {
        if (bound(Src::pixel_pack_buffer)) {
            if (!offset_fits(verb, Src::pixel_pack_buffer, offset, 0)) return false;
            out = reinterpret_cast<void*>(uintptr_t(offset));
            return true;
        }
        if (need == 0) {
            out = nullptr;
            return true;
        }
        refuse(verb, GL_INVALID_OPERATION, "pack offset while no pack buffer is bound");
        return false;
    }
    if (bound(Src::pixel_pack_buffer)) {
        refuse(verb, GL_INVALID_OPERATION, "reply memory while a pack buffer is bound");
        return false;
    }
    if (need == kUnknownSize) {
        refuse(verb, GL_INVALID_ENUM, "cannot size the output (unknown format/type)");
        return false;
    }
    if (need > size) {
        refuse(verb, GL_INVALID_OPERATION, "reply smaller than the host will write");
        return false;
    }
    out = data;
    return true;
}

// ---- COMPSIZE checks ------------------------------------------------------------

bool Core::pname_fits(gen::Op verb, GLenum pname, uint32_t count) {
    if (count >= parameter_count(pname)) return true;
    refuse(verb, GL_INVALID_VALUE, "parameter array shorter than its pname needs");
    return false;
}

bool Core::clear_value_fits(gen::Op verb, GLenum buffer, uint32_t count) {
    if (count >= clear_value_count(buffer)) return true;
    refuse(verb, GL_INVALID_VALUE, "clear value array shorter than its buffer needs");
    return false;
}

bool Core::string_fits(gen::Op verb, const GLchar* data, uint32_t size, GLsizei length) {
    if (size == 0) return true;  // NULL: the host reads nothing
    if (length >= 0 ? uint64_t(length) <= size : std::memchr(data, 0, size) != nullptr) return true;
    refuse(verb, GL_INVALID_VALUE, "string shorter than its length");
    return false;
}

bool Core::count_fits(gen::Op verb, uint32_t have, int64_t need) {
    if (need <= int64_t(have)) return true;
    refuse(verb, GL_INVALID_VALUE, "array shorter than its count");
    return false;
}

// ---- scratch ------------------------------------------------------------------------

void* Core::scratch_bytes(size_t bytes) {
    const size_t words = (bytes + 7) / 8;
    if (scratch_used_ + words <= scratch_.size()) {
        void* p = scratch_.data() + scratch_used_;
        scratch_used_ += words;
        return p;
    }
    // Rare (thousands of names in one call): a block of its own, so that
    // earlier scratch pointers of this call stay valid.
    extra_.push_back(std::make_unique<uint64_t[]>(std::max<size_t>(words, 1)));
    return extra_.back().get();
}

void* Core::scratch_out(size_t count) {
    const size_t bytes = std::max<size_t>(count, 16) * 8;
    void* p = scratch_bytes(bytes);
    std::memset(p, 0, bytes);
    scratch_out_bytes_ = bytes;
    return p;
}

void Core::copy_out(void* dst, uint32_t size, const void* src) const {
    if (dst && size) std::memcpy(dst, src, std::min<size_t>(size, scratch_out_bytes_));
}

uint32_t Core::out_count(GLenum pname) {
    GLenum count_pname = 0;
    switch (pname) {
        case GL_COMPRESSED_TEXTURE_FORMATS: count_pname = GL_NUM_COMPRESSED_TEXTURE_FORMATS; break;
        case GL_PROGRAM_BINARY_FORMATS: count_pname = GL_NUM_PROGRAM_BINARY_FORMATS; break;
        case GL_SHADER_BINARY_FORMATS: count_pname = GL_NUM_SHADER_BINARY_FORMATS; break;
        default: return 16;  // the largest fixed-size state (a 4x4 matrix)
    }
    GLint n = 0;
    host_gl.glGetIntegerv(count_pname, &n);
    return uint32_t(std::max(n, 0)) + 16;
}

uint32_t Core::block_out_count(GLuint host_program, GLuint index, GLenum pname) {
    if (pname != GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES) return 16;
    GLint n = 0;
    host_gl.glGetActiveUniformBlockiv(host_program, index, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &n);
    return uint32_t(std::max(n, 0)) + 16;
}

}  // namespace mgl::espryt
