#include "runtime.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "compsize.h"
#include "log.h"

namespace mgl::client {

namespace {
const char* error_name(GLenum e) {
    switch (e) {
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
        default: return "GL error";
    }
}
}  // namespace

void gl_error(Context& ctx, GLenum err, const char* verb) {
    if (ctx.error == GL_NO_ERROR) ctx.error = err;
    // The server never sees this error: its message for the callback is made here.
    bool output = false;
    if (ctx.debug_callback && ctx.debug_inbox && ctx.st.cap(GL_DEBUG_OUTPUT, &output) && output)
        ctx.debug_inbox->messages.push_back({GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_ERROR, err, GL_DEBUG_SEVERITY_HIGH,
                                             fmt::format("{} in {}", error_name(err), verb)});
    log().debug("{}: {} (detected by the client)", verb, error_name(err));
}

void no_context(const char* verb) {
    if (first_time(std::string("nocontext:") + verb)) log().warn("{} called with no current context: ignored", verb);
}

void unsized(const char* verb, const char* why) {
    if (first_time(std::string("unsized:") + verb)) log().warn("{} is not supported by the client ({})", verb, why);
    if (Context* c = current()) gl_error(*c, GL_INVALID_OPERATION, verb);
}

void profile_error(Context& ctx, const char* verb) {
    if (first_time(std::string("profile:") + verb)) {
        const char* kind = ctx.api_kind == gen::ApiKind::es     ? "OpenGL ES"
                           : ctx.api_kind == gen::ApiKind::core ? "OpenGL core profile"
                                                                : "OpenGL compatibility profile";
        log().warn("{} is not part of {} {}.{}: GL_INVALID_OPERATION", verb, kind, ctx.api_version / 10,
                   ctx.api_version % 10);
    }
    gl_error(ctx, GL_INVALID_OPERATION, verb);
}

void compsize_failed(Context& ctx, const char* verb, const char* param, int64_t code) {
    switch (code) {
        case kBadEnum: gl_error(ctx, GL_INVALID_ENUM, verb); break;
        case kBadValue: gl_error(ctx, GL_INVALID_VALUE, verb); break;
        default:
            if (first_time(std::string("compsize:") + verb))
                log().warn("{}: the client cannot size '{}' for these arguments", verb, param);
            gl_error(ctx, GL_INVALID_OPERATION, verb);
            break;
    }
}

namespace {
// One line per context, however many calls find it lost afterwards.
void mark_lost(Context& ctx, const char* verb, const std::string& why) {
    if (ctx.lost) return;
    ctx.lost = true;
    log().error("{}: context lost, the connection ended: {}", verb, why.empty() ? "no reply" : why);
}
}  // namespace

bool context_lost(Context& ctx, const char* verb) {
    if (ctx.lost) return true;
    std::string why = ctx.group->conn().lost_reason();
    if (why.empty()) return false;
    mark_lost(ctx, verb, why);
    return true;
}

void reply_failed(Context& ctx, const char* verb, std::span<const uint8_t> reply) {
    if (reply.empty()) {
        if (!ctx.lost) mark_lost(ctx, verb, ctx.group->conn().lost_reason());
        return;
    }
    if (first_time(std::string("badreply:") + verb)) log().error("{}: malformed reply ({} bytes)", verb, reply.size());
}

void note_program_name(Context& ctx, MintKind k, uint32_t name) {
    std::lock_guard<std::mutex> g(ctx.group->mu);
    ctx.group->program_names[name] = k;
}

bool shader_name_usable(Context& ctx, const char* verb, uint32_t name) {
    MintKind k;
    {
        std::lock_guard<std::mutex> g(ctx.group->mu);
        auto it = ctx.group->program_names.find(name);
        if (it != ctx.group->program_names.end() && it->second == MintKind::shader) return true;
        k = it == ctx.group->program_names.end() ? MintKind::shader : it->second;
    }
    gl_error(ctx, k == MintKind::program ? GL_INVALID_OPERATION : GL_INVALID_VALUE, verb);
    return false;
}

bool strings_blob(Context& ctx, const char* verb, int64_t count, const char* const* strings, const GLint* lengths,
                  wire::Blob& out) {
    out = {};
    if (count < 0) {
        gl_error(ctx, GL_INVALID_VALUE, verb);
        return false;
    }
    std::vector<uint8_t>& s = ctx.scratch;
    s.clear();
    for (int64_t k = 0; k < count; ++k) {
        const char* str = strings ? strings[k] : nullptr;
        size_t n = 0;
        if (str) n = (lengths && lengths[k] >= 0) ? size_t(lengths[k]) : std::strlen(str);
        // A string with an embedded NUL would split on the server: cut it there.
        if (str) n = strnlen(str, n);
        s.insert(s.end(), reinterpret_cast<const uint8_t*>(str), reinterpret_cast<const uint8_t*>(str) + n);
        s.push_back(0);
    }
    if (int64_t(s.size()) > kMaxArrayBytes) {
        gl_error(ctx, GL_OUT_OF_MEMORY, verb);
        return false;
    }
    out = {s.data(), uint32_t(s.size())};
    return true;
}

const void* zeros(int64_t bytes) {
    static thread_local std::vector<uint8_t> z;
    if (bytes > 0 && z.size() < size_t(bytes)) z.resize(size_t(bytes), 0);
    static const uint8_t none = 0;
    return z.empty() ? &none : z.data();
}

bool mint(Context& ctx, MintKind k, int64_t n, uint32_t* out) {
    if (n < 0) return false;
    if (n == 0) return true;
    if (!out) return false;
    const uint32_t first = ctx.group->mint(k, uint32_t(n));
    for (int64_t i = 0; i < n; ++i) out[i] = first + uint32_t(i);
    return true;
}

}  // namespace mgl::client
