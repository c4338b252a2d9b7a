// KHR_debug's callback and log on the client (debug_output.h says how the
// server's messages reach the callback).
#include <chrono>
#include <cstring>

#include "compat/ff.h"
#include "custom/common.h"
#include "debug_output.h"
#include "state/debug_output.h"  // the GL front end's label rules (copy_label, kMaxLabel)

namespace mgl::client {

namespace {
// One fetch: up to 16 messages in 8 KiB (a fetch that comes back full is
// followed by another at the next swap; the server's log holds 64 at most).
constexpr uint32_t kFetchCount = 16, kFetchBytes = 8192;
constexpr int64_t kSwapInterval = 250;  // ms between fetches at swaps

int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

// Moves the messages of a glGetDebugMessageLog reply into the inbox.
void take_log_reply(DebugInbox& inbox, std::span<const uint8_t> rep) {
    GLuint n = 0;
    uint32_t sources[kFetchCount], types[kFetchCount], ids[kFetchCount], severities[kFetchCount];
    int32_t lengths[kFetchCount];
    std::vector<char> text(kFetchBytes);
    if (!gen::read_reply_glGetDebugMessageLog(rep, &n, sources, sizeof sources, types, sizeof types, ids, sizeof ids,
                                              severities, sizeof severities, lengths, sizeof lengths,
                                              reinterpret_cast<::mgl::GLchar*>(text.data()), kFetchBytes)) {
        if (rep.data()) log().error("debug output: malformed glGetDebugMessageLog reply ({} bytes)", rep.size());
        inbox.more = false;
        return;
    }
    n = std::min<GLuint>(n, kFetchCount);
    size_t at = 0;
    for (GLuint i = 0; i < n; ++i) {
        // Lengths come from the server: each message stays inside the reply.
        const size_t len = lengths[i] > 0 ? size_t(lengths[i]) : 0;
        if (at + len > kFetchBytes) break;
        const size_t chars = len ? strnlen(text.data() + at, len) : 0;
        inbox.messages.push_back({sources[i], types[i], ids[i], severities[i], std::string(text.data() + at, chars)});
        at += len;
    }
    inbox.more = n == kFetchCount;
}
}  // namespace

bool debug_fetch(Context& ctx) {
    if (!ctx.debug_callback || !ctx.debug_inbox || ctx.lost) return false;
    ctx.enc->glGetDebugMessageLog(kFetchCount, GLsizei(kFetchBytes), kFetchCount * 4, kFetchCount * 4, kFetchCount * 4,
                                  kFetchCount * 4, kFetchCount * 4, kFetchBytes);
    ctx.group->deferred().defer(
        [inbox = ctx.debug_inbox](std::span<const uint8_t> rep) { take_log_reply(*inbox, rep); });
    return true;
}

bool debug_fetch_at_swap(Context& ctx) {
    if (!ctx.debug_callback || !ctx.debug_inbox) return false;
    const int64_t now = now_ms();
    if (!ctx.debug_inbox->more && now - ctx.debug_inbox->asked_ms < kSwapInterval) return false;
    ctx.debug_inbox->asked_ms = now;
    ctx.debug_inbox->more = false;
    return debug_fetch(ctx);
}

void debug_fetch_now(Context& ctx) {
    for (int i = 0; i < 4 && debug_fetch(ctx); ++i) {  // 64 messages: the server's whole log
        ++ctx.counters.round_trips;
        ctx.group->deferred().take_until(0, *ctx.enc);
        if (!ctx.debug_inbox->more) break;
    }
}

void debug_deliver(Context& ctx) {
    if (!ctx.debug_inbox || ctx.debug_inbox->messages.empty()) return;
    std::vector<DebugInbox::Message> messages = std::move(ctx.debug_inbox->messages);
    ctx.debug_inbox->messages.clear();
    // The callback may call GL (even glDebugMessageCallback): it gets copies.
    const GLDEBUGPROC callback = ctx.debug_callback;
    const void* user = ctx.debug_user;
    if (!callback) return;
    for (const DebugInbox::Message& m : messages)
        callback(m.source, m.type, m.id, m.severity, GLsizei(m.text.size()), m.text.c_str(), user);
}

}  // namespace mgl::client

namespace mgl_custom {

void glDebugMessageCallback(GLDEBUGPROC callback, const void* userParam) {
    MGL_CTX_OR_RETURN("glDebugMessageCallback");
    // What the old callback was owed goes to it first.
    if (ctx->debug_callback && ctx->debug_callback != callback) {
        debug_fetch_now(*ctx);
        debug_deliver(*ctx);
    }
    ctx->debug_callback = callback;
    ctx->debug_user = userParam;
    if (callback && !ctx->debug_inbox) ctx->debug_inbox = std::make_shared<DebugInbox>();
}

void glDebugMessageInsert(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length, const GLchar* buf) {
    MGL_CTX_OR_RETURN("glDebugMessageInsert");
    const int64_t n = cs_label(buf, length);
    if (n < 0) return compsize_failed(*ctx, "glDebugMessageInsert", "buf", n);
    if (n > kMaxArrayBytes) return gl_error(*ctx, GL_OUT_OF_MEMORY, "glDebugMessageInsert");
    ctx->enc->glDebugMessageInsert(source, type, id, severity, length,
                                   wire::Blob{buf ? static_cast<const void*>(buf) : zeros(n), uint32_t(n)});
    // The application's own message reaches its callback before the call returns.
    if (ctx->debug_callback) {
        debug_fetch_now(*ctx);
        debug_deliver(*ctx);
    }
}

// With a callback GL logs nothing (GL 4.6 §20.9): the log the application
// reads is empty; the client drains the server's for the callback.
GLuint glGetDebugMessageLog(GLuint count, GLsizei bufSize, GLenum* sources, GLenum* types, GLuint* ids,
                            GLenum* severities, GLsizei* lengths, GLchar* messageLog) {
    MGL_CTX_OR_RETURN("glGetDebugMessageLog", 0);
    if (ctx->debug_callback) return 0;
    if (messageLog && bufSize < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glGetDebugMessageLog");
        return 0;
    }
    const int64_t per = int64_t(count) * 4;
    if (per > kMaxArrayBytes || (messageLog && bufSize > kMaxArrayBytes)) {
        gl_error(*ctx, GL_OUT_OF_MEMORY, "glGetDebugMessageLog");
        return 0;
    }
    // The decoder wants room for `count` of each array (a null one is not
    // copied back); a null log goes as none, which lifts GL's size bound.
    const uint32_t cap = uint32_t(per), log_cap = messageLog ? uint32_t(bufSize) : 0;
    ctx->enc->glGetDebugMessageLog(count, GLsizei(log_cap), cap, cap, cap, cap, cap, log_cap);
    std::span<const uint8_t> rep = wait(*ctx);
    ::mgl::GLuint n = 0;
    if (!gen::read_reply_glGetDebugMessageLog(rep, &n, reinterpret_cast<::mgl::GLenum*>(sources), cap,
                                              reinterpret_cast<::mgl::GLenum*>(types), cap,
                                              reinterpret_cast<::mgl::GLuint*>(ids), cap,
                                              reinterpret_cast<::mgl::GLenum*>(severities), cap,
                                              reinterpret_cast<::mgl::GLsizei*>(lengths), cap,
                                              reinterpret_cast<::mgl::GLchar*>(messageLog), log_cap)) {
        reply_failed(*ctx, "glGetDebugMessageLog", rep);
        return 0;
    }
    return n;
}

// ---- object labels: display lists live on the client, so do their labels ----

namespace {
// The client's display list `name`, or null (GL_INVALID_VALUE) / an error
// already raised; GL_DISPLAY_LIST is a compatibility context's kind only.
bool list_exists(Context& ctx, GLuint name, const char* verb) {
    if (!ctx.ff) {
        gl_error(ctx, GL_INVALID_ENUM, verb);
        return false;
    }
    if (!ctx.ff->lists.count(name)) {
        gl_error(ctx, GL_INVALID_VALUE, verb);
        return false;
    }
    return true;
}
constexpr GLenum kDisplayList = 0x82E7;   // GL_DISPLAY_LIST (a desktop header enum)
}  // namespace

void glObjectLabel(GLenum identifier, GLuint name, GLsizei length, const GLchar* label) {
    MGL_CTX_OR_RETURN("glObjectLabel");
    const int64_t n = cs_label(label, length);
    if (n < 0) return compsize_failed(*ctx, "glObjectLabel", "label", n);
    if (n > kMaxArrayBytes) return gl_error(*ctx, GL_OUT_OF_MEMORY, "glObjectLabel");
    if (identifier == kDisplayList) {
        if (!list_exists(*ctx, name, "glObjectLabel")) return;
        const size_t chars = label ? (length < 0 ? std::strlen(label) : size_t(length)) : 0;
        if (chars >= mgl::gl::DebugOutput::kMaxLabel) return gl_error(*ctx, GL_INVALID_VALUE, "glObjectLabel");
        if (chars) ctx->ff->list_labels[name].assign(label, chars);
        else ctx->ff->list_labels.erase(name);
        return;
    }
    ctx->enc->glObjectLabel(identifier, name, length,
                            wire::Blob{label ? static_cast<const void*>(label) : zeros(n), uint32_t(n)});
}

void glGetObjectLabel(GLenum identifier, GLuint name, GLsizei bufSize, GLsizei* length, GLchar* label) {
    MGL_CTX_OR_RETURN("glGetObjectLabel");
    if (bufSize < 0) return gl_error(*ctx, GL_INVALID_VALUE, "glGetObjectLabel");
    if (identifier == kDisplayList) {
        if (!list_exists(*ctx, name, "glGetObjectLabel")) return;
        auto it = ctx->ff->list_labels.find(name);
        const std::string_view text = it == ctx->ff->list_labels.end() ? std::string_view() : it->second;
        const size_t n = mgl::gl::copy_label(text, size_t(bufSize), label);
        if (length) *length = GLsizei(n);
        return;
    }
    if (bufSize > kMaxArrayBytes) return gl_error(*ctx, GL_OUT_OF_MEMORY, "glGetObjectLabel");
    ctx->enc->glGetObjectLabel(identifier, name, bufSize, 4, uint32_t(bufSize));
    std::span<const uint8_t> rep = wait(*ctx);
    if (!gen::read_reply_glGetObjectLabel(rep, reinterpret_cast<::mgl::GLsizei*>(length), 4,
                                          reinterpret_cast<::mgl::GLchar*>(label), uint32_t(bufSize)))
        reply_failed(*ctx, "glGetObjectLabel", rep);
}

}  // namespace mgl_custom
