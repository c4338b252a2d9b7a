#include "context.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "es1/es1_context.h"
#include "gen/replies.h"
#include "log.h"
#include "runtime.h"

namespace mgl::client {

__thread Context* t_current __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

std::atomic<uint32_t> g_next_context{1};

// Programs and shaders share one namespace in GL: one counter serves both.
size_t counter_of(MintKind k) {
    if (k == MintKind::shader) return size_t(MintKind::program);
    return size_t(k);
}

// Extensions the client cannot honour whatever the server supports: they
// need memory or handles shared between the application and the driver.
bool hidden_extension(const std::string& e) {
    static const char* const kHidden[] = {
        "GL_EXT_EGL_image_array",
        "GL_OES_EGL_sync",
        "GL_EXT_memory_object",
        "GL_EXT_memory_object_fd",
        "GL_EXT_semaphore",
        "GL_EXT_semaphore_fd",
        "GL_EXT_multi_draw_arrays",       // served as single draws (custom/arrays.cc), not measured on ES yet
        "GL_EXT_external_buffer",
    };
    return std::find(std::begin(kHidden), std::end(kHidden), e) != std::end(kHidden);
}

struct LimitQuery {
    GLenum pname;
    int count;
    char kind;  // 'i' integer, 'f' float, 'l' int64
    int min_version;  // major*10+minor
};

const LimitQuery kLimits[] = {
    {GL_MAX_TEXTURE_SIZE, 1, 'i', 20}, {GL_MAX_CUBE_MAP_TEXTURE_SIZE, 1, 'i', 20},
    {GL_MAX_RENDERBUFFER_SIZE, 1, 'i', 20}, {GL_MAX_VERTEX_ATTRIBS, 1, 'i', 20},
    {GL_MAX_VERTEX_UNIFORM_VECTORS, 1, 'i', 20}, {GL_MAX_FRAGMENT_UNIFORM_VECTORS, 1, 'i', 20},
    {GL_MAX_VARYING_VECTORS, 1, 'i', 20}, {GL_MAX_TEXTURE_IMAGE_UNITS, 1, 'i', 20},
    {GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS, 1, 'i', 20}, {GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 1, 'i', 20},
    {GL_MAX_VIEWPORT_DIMS, 2, 'i', 20}, {GL_NUM_COMPRESSED_TEXTURE_FORMATS, 1, 'i', 20},
    {GL_NUM_SHADER_BINARY_FORMATS, 1, 'i', 20}, {GL_SUBPIXEL_BITS, 1, 'i', 20}, {GL_SHADER_COMPILER, 1, 'i', 20},
    {GL_ALIASED_POINT_SIZE_RANGE, 2, 'f', 20}, {GL_ALIASED_LINE_WIDTH_RANGE, 2, 'f', 20},
    {GL_MAX_3D_TEXTURE_SIZE, 1, 'i', 30}, {GL_MAX_ARRAY_TEXTURE_LAYERS, 1, 'i', 30},
    {GL_MAX_COLOR_ATTACHMENTS, 1, 'i', 30}, {GL_MAX_DRAW_BUFFERS, 1, 'i', 30},
    {GL_MAX_ELEMENTS_INDICES, 1, 'i', 30}, {GL_MAX_ELEMENTS_VERTICES, 1, 'i', 30}, {GL_MAX_SAMPLES, 1, 'i', 30},
    {GL_MAX_UNIFORM_BUFFER_BINDINGS, 1, 'i', 30}, {GL_MAX_UNIFORM_BLOCK_SIZE, 1, 'l', 30},
    {GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, 1, 'i', 30}, {GL_MAX_VERTEX_UNIFORM_BLOCKS, 1, 'i', 30},
    {GL_MAX_FRAGMENT_UNIFORM_BLOCKS, 1, 'i', 30}, {GL_MAX_COMBINED_UNIFORM_BLOCKS, 1, 'i', 30},
    {GL_MAX_VERTEX_UNIFORM_COMPONENTS, 1, 'i', 30}, {GL_MAX_FRAGMENT_UNIFORM_COMPONENTS, 1, 'i', 30},
    {GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS, 1, 'l', 30},
    {GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS, 1, 'l', 30}, {GL_MAX_VARYING_COMPONENTS, 1, 'i', 30},
    {GL_MAX_VERTEX_OUTPUT_COMPONENTS, 1, 'i', 30}, {GL_MAX_FRAGMENT_INPUT_COMPONENTS, 1, 'i', 30},
    {GL_MIN_PROGRAM_TEXEL_OFFSET, 1, 'i', 30}, {GL_MAX_PROGRAM_TEXEL_OFFSET, 1, 'i', 30},
    {GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, 1, 'i', 30},
    {GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, 1, 'i', 30},
    {GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS, 1, 'i', 30}, {GL_NUM_PROGRAM_BINARY_FORMATS, 1, 'i', 30},
    {GL_MAX_TEXTURE_LOD_BIAS, 1, 'f', 30}, {GL_MAX_SERVER_WAIT_TIMEOUT, 1, 'l', 30},
    {GL_MAX_ELEMENT_INDEX, 1, 'l', 30},
    {GL_MAX_VERTEX_ATTRIB_BINDINGS, 1, 'i', 31}, {GL_MAX_VERTEX_ATTRIB_STRIDE, 1, 'i', 31},
    {GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, 1, 'i', 31}, {GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, 1, 'i', 31},
    {GL_MAX_COLOR_TEXTURE_SAMPLES, 1, 'i', 31}, {GL_MAX_DEPTH_TEXTURE_SAMPLES, 1, 'i', 31},
    {GL_MAX_INTEGER_SAMPLES, 1, 'i', 31}, {GL_MAX_FRAMEBUFFER_WIDTH, 1, 'i', 31},
    {GL_MAX_FRAMEBUFFER_HEIGHT, 1, 'i', 31}, {GL_MAX_FRAMEBUFFER_SAMPLES, 1, 'i', 31},
    {GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, 1, 'i', 31}, {GL_MAX_IMAGE_UNITS, 1, 'i', 31},
};

bool parse_version(const std::string& v, int* major, int* minor) {
    const char* s = v.c_str();
    if (v.rfind("OpenGL ES ", 0) == 0) s += 10;
    return std::sscanf(s, "%d.%d", major, minor) == 2;
}

// What GL_VERSION says before "MobileGL": "OpenGL ES 3.2", "3.3 (Core Profile)".
std::string version_prefix(const Context& c) {
    const std::string num = std::to_string(c.server_major) + "." + std::to_string(c.server_minor);
    if (!c.desktop()) return "OpenGL ES " + num;
    if (c.server_major * 10 + c.server_minor < 32) return num;
    return num + (c.profile == kCoreProfile ? " (Core Profile)" : " (Compatibility Profile)");
}

// GL_CONTEXT_FLAGS of a desktop context, as the application asked for them.
int64_t desktop_context_flags(const Context& c) {
    int64_t f = 0;
    if (c.flags & kFlagForwardCompatible) f |= 0x1;  // GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT
    if (c.flags & kFlagDebug) f |= 0x2;              // GL_CONTEXT_FLAG_DEBUG_BIT
    if (c.flags & kFlagRobust) f |= 0x4;             // GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT
    return f;
}

// Strings and limits of a context, fetched at its first make-current: two
// batches of pipelined sync queries (two round trips of latency in all).
void fetch_server_info(Context& c) {
    gen::Encoder& e = *c.enc;
    struct Str {
        GLenum name;
        uint32_t cap;
        std::string* out;
        bool retry = false;
    } strs[] = {{GL_VENDOR, 256, &c.vendor},
                {GL_RENDERER, 512, &c.renderer},
                {GL_VERSION, 256, &c.version},
                {GL_SHADING_LANGUAGE_VERSION, 256, &c.shading_language},
                {GL_EXTENSIONS, 1u << 16, &c.extensions}};
    for (Str& s : strs) s.out->clear();
    for (const Str& s : strs) e.mglGetString(s.name, -1, GLsizei(s.cap), s.cap);
    std::vector<char> buf;
    for (Str& s : strs) {
        std::span<const uint8_t> rep = e.wait_reply();
        ++c.counters.round_trips;
        buf.assign(s.cap, 0);
        GLint len = -1;
        if (!gen::read_reply_mglGetString(rep, &len, reinterpret_cast<int8_t*>(buf.data()), s.cap)) {
            reply_failed(c, "mglGetString", rep);
            continue;
        }
        if (len >= 0 && uint32_t(len) < s.cap) s.out->assign(buf.data(), size_t(len));
        else if (len >= 0) s.cap = uint32_t(len) + 1, s.retry = true;  // longer than asked for: again
    }
    for (Str& s : strs) {
        if (!s.retry) continue;
        e.mglGetString(s.name, -1, GLsizei(s.cap), s.cap);
        std::span<const uint8_t> rep = e.wait_reply();
        ++c.counters.round_trips;
        buf.assign(s.cap, 0);
        GLint len = -1;
        if (gen::read_reply_mglGetString(rep, &len, reinterpret_cast<int8_t*>(buf.data()), s.cap) && len >= 0)
            s.out->assign(buf.data(), std::min<size_t>(size_t(len), s.cap));
    }
    if (!parse_version(c.version, &c.server_major, &c.server_minor)) {
        c.server_major = c.major;
        c.server_minor = c.minor;
    }
    const int served = c.server_major * 10 + c.server_minor;
    c.api_kind = !c.desktop() ? gen::ApiKind::es
                 : (c.profile == kCoreProfile && served >= 32) ? gen::ApiKind::core
                                                               : gen::ApiKind::compat;
    c.api_version = uint8_t(std::clamp(served, 0, 255));
    // The limits below are asked of the host's GLES context: a desktop 3.x
    // context has the ES 3.0 ones (the 3.1 ones are GL 4.3's).
    const int ver = !c.desktop() ? served : served >= 30 ? 30 : 20;

    c.extension_list.clear();
    std::istringstream is(c.extensions);
    std::string filtered;
    for (std::string ext; is >> ext;) {
        if (hidden_extension(ext)) continue;
        c.extension_list.push_back(ext);
        if (!filtered.empty()) filtered += ' ';
        filtered += ext;
    }
    c.extensions = filtered;
    // "OpenGL ES 3.2 <the server's own text>" becomes "OpenGL ES 3.2 MobileGL <version> (<that text>)".
    std::string rest = c.version;
    if (rest.rfind("OpenGL ES ", 0) == 0 || c.desktop()) {
        // Past the version number ("OpenGL ES 3.2 ...", desktop "3.3 ...").
        const size_t at = rest.rfind("OpenGL ES ", 0) == 0 ? 10 : 0;
        const size_t sp = rest.find(' ', at);
        rest = sp == std::string::npos ? std::string() : rest.substr(sp + 1);
    }
    if (rest.rfind("MobileGL", 0) == 0) rest = rest.substr(8);
    while (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    // Espryt's "(Espryt on <host>)" is already parenthesised: one pair, not two.
    if (rest.size() >= 2 && rest.front() == '(' && rest.back() == ')') rest = rest.substr(1, rest.size() - 2);
    c.version = version_prefix(c) + " MobileGL " MOBILEGL_VERSION + (rest.empty() ? std::string() : " (" + rest + ")");
    if (c.renderer.rfind("MobileGL", 0) != 0) c.renderer = "MobileGL (" + c.renderer + ")";
    c.vendor = "MobileGL";

    std::vector<const LimitQuery*> asked;
    for (const LimitQuery& q : kLimits) {
        if (q.min_version > ver) continue;
        const uint32_t bytes = uint32_t(q.count) * (q.kind == 'l' ? 8u : 4u);
        if (q.kind == 'i') e.glGetIntegerv(q.pname, bytes);
        else if (q.kind == 'f') e.glGetFloatv(q.pname, bytes);
        else e.glGetInteger64v(q.pname, bytes);
        asked.push_back(&q);
    }
    for (const LimitQuery* q : asked) {
        std::span<const uint8_t> rep = e.wait_reply();
        ++c.counters.round_trips;
        QueryValue v;
        v.count = uint8_t(q->count);
        bool ok = false;
        if (q->kind == 'i') {
            int32_t vals[2] = {0, 0};
            ok = gen::read_reply_glGetIntegerv(rep, vals, uint32_t(q->count * 4));
            v.kind = QueryValue::Kind::integer;
            for (int k = 0; k < q->count; ++k) v.i[k] = vals[k];
        } else if (q->kind == 'f') {
            float vals[2] = {0, 0};
            ok = gen::read_reply_glGetFloatv(rep, vals, uint32_t(q->count * 4));
            v.kind = QueryValue::Kind::floating;
            for (int k = 0; k < q->count; ++k) v.f[k] = vals[k];
        } else {
            int64_t vals[2] = {0, 0};
            ok = gen::read_reply_glGetInteger64v(rep, vals, uint32_t(q->count * 8));
            v.kind = QueryValue::Kind::integer64;
            for (int k = 0; k < q->count; ++k) v.i[k] = vals[k];
        }
        if (ok) c.limits[q->pname] = v;
        else reply_failed(c, "limits", rep);
    }
    if (served >= 30) {
        c.limits[GL_MAJOR_VERSION] = QueryValue::ints({c.server_major});
        c.limits[GL_MINOR_VERSION] = QueryValue::ints({c.server_minor});
    }
    if (c.desktop()) {
        c.limits[GL_CONTEXT_FLAGS] = QueryValue::ints({desktop_context_flags(c)});
        if (served >= 32)
            c.limits[0x9126 /* GL_CONTEXT_PROFILE_MASK */] = QueryValue::ints({int64_t(c.profile == kCoreProfile ? 1 : 2)});
    }
    c.limits[GL_NUM_EXTENSIONS] = QueryValue::ints({int64_t(c.extension_list.size())});
    if (c.es1) es1::present(c);
}

int limit_or(const Context& c, GLenum pname, int fallback) {
    auto it = c.limits.find(pname);
    return it == c.limits.end() || it->second.i[0] <= 0 ? fallback : int(it->second.i[0]);
}

}  // namespace

ShareGroup::ShareGroup(std::unique_ptr<Connection> conn)
    : conn_(std::move(conn)),
      deferred_(std::make_unique<DeferredReplies>(conn_->link())),
      enc_(std::make_unique<gen::Encoder>(deferred_.get())) {
    for (auto& n : next_) n.store(1, std::memory_order_relaxed);
}

ShareGroup::~ShareGroup() {
    deferred_->drop();  // frames not yet presented: their windows may be gone
    enc_->flush();
    enc_.reset();
    conn_.reset();
}

uint32_t ShareGroup::mint(MintKind k, uint32_t n) {
    return next_[counter_of(k)].fetch_add(n, std::memory_order_relaxed);
}

std::unique_ptr<Context> create_context(Context* share, uint32_t api, int major, int minor, uint32_t profile,
                                        uint32_t flags, std::string* error) {
    std::shared_ptr<ShareGroup> group;
    if (share) {
        group = share->group;
    } else {
        std::unique_ptr<Connection> conn = open_connection(error);
        if (!conn) return nullptr;
        group = std::make_shared<ShareGroup>(std::move(conn));
    }
    auto c = std::make_unique<Context>();
    c->id = g_next_context.fetch_add(1, std::memory_order_relaxed);
    c->group = group;
    c->enc = &group->enc();
    c->api = api;
    c->profile = api == kApiGL ? profile : 0;
    c->major = major;
    c->minor = minor;
    c->flags = flags;
    c->st.reset(16, 16);
    {
        std::lock_guard<std::mutex> g(group->mu);
        ++group->contexts;
    }
    c->enc->mglCreateContext(c->id, share ? share->id : 0, major, minor, flags, api, c->profile);
    return c;
}

int served_version(Context& ctx) {
    ctx.enc->mglGetContextVersion(ctx.id);
    ++ctx.counters.round_trips;
    const std::span<const uint8_t> rep = ctx.enc->wait_reply();
    GLint v = 0;
    if (!gen::read_reply_mglGetContextVersion(rep, &v)) {
        reply_failed(ctx, "mglGetContextVersion", rep);
        return 0;
    }
    return v;
}

void destroy_context(std::unique_ptr<Context> ctx) {
    if (!ctx) return;
    if (t_current == ctx.get()) make_current(nullptr, 0, 0, -1, -1);
    ctx->enc->mglDestroyContext(ctx->id);
    ctx->enc->flush();
    std::lock_guard<std::mutex> g(ctx->group->mu);
    --ctx->group->contexts;
}

void flush(Context& ctx) { ctx.enc->flush(); }

void make_current(Context* ctx, uint32_t draw, uint32_t read, int draw_w, int draw_h) {
    Context* old = t_current;
    if (old && old != ctx) {
        if (!ctx || ctx->group != old->group) old->enc->mglMakeCurrent(0, 0, 0);
        old->enc->flush();
    }
    t_current = ctx;
    if (!ctx) return;
    ctx->enc->mglMakeCurrent(draw, read, ctx->id);
    if (!ctx->initialized) {
        ctx->initialized = true;
        fetch_server_info(*ctx);
        ctx->st.reset(limit_or(*ctx, GL_MAX_VERTEX_ATTRIBS, 16), limit_or(*ctx, GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 32));
        ctx->st.set_cap(GL_DEBUG_OUTPUT, (ctx->flags & kFlagDebug) != 0);  // on from the start in a debug context
        if (draw_w >= 0 && draw_h >= 0) {
            ctx->st.viewport[2] = ctx->st.scissor[2] = draw_w;
            ctx->st.viewport[3] = ctx->st.scissor[3] = draw_h;
        }
        log().debug("context {}: {} / {} / {} extensions", ctx->id, ctx->version, ctx->renderer,
                    ctx->extension_list.size());
    }
}

}  // namespace mgl::client
