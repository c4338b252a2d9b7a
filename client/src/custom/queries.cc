// Queries: answered from the shadow and the per-context cache when the
// client holds the value, from the server otherwise (one round trip).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "compat/program_builtins.h"
#include "custom/common.h"
#include "es1/es1_context.h"

namespace mgl::client {

namespace {

// Shadow first, then the limits fetched at the first make-current.
bool local_value(Context& ctx, GLenum pname, QueryValue* v) {
    // The desktop-only bindings (1D, 1D array, rectangle): an ES server refuses them.
    const bool desktop_binding = pname == 0x8068 || pname == 0x8C1C || pname == 0x84F6;
    if ((!desktop_binding || ctx.desktop()) && ctx.st.get(pname, v)) return true;
    if (desktop_pixel_value(ctx, pname, v)) return true;
    if (compat::ff_get(ctx, pname, v)) return true;
    auto it = ctx.limits.find(pname);
    if (it == ctx.limits.end()) return false;
    *v = it->second;
    return true;
}

// glGet{Integer,Float,Boolean,Integer64}v: one template for the four.
template <class T, class Encode, class Read>
void get_values(const char* verb, gen::Op op, GLenum pname, T* data, Encode encode, Read read) {
    MGL_CTX_OR_RETURN(verb);
    if (ctx->ff && ctx->ff->in_begin) {  // compatibility contexts: no glGet between glBegin and glEnd
        gl_error(*ctx, GL_INVALID_OPERATION, verb);
        return;
    }
    if (ctx->es1 && es1::refuses_query(pname)) {
        gl_error(*ctx, GL_INVALID_ENUM, verb);
        return;
    }
    QueryValue v;
    if (local_value(*ctx, pname, &v)) {
        ++ctx->counters.local_queries;
        if (data) v.to(data);
        return;
    }
    const int64_t n = cs_pname(*ctx, op, pname);
    if (n < 0) {
        // Invalid for GL, or a name the host knows and our tables (gl.xml plus
        // protocol/overrides.txt) do not: we cannot size the answer, so the
        // second case must be said, not just raised as GL_INVALID_ENUM.
        if (n == kBadEnum && first_time(fmt::format("unknown pname {}:{:#x}", verb, pname)))
            log().warn("{}: pname {:#06x} is not in MobileGL's query tables: GL_INVALID_ENUM", verb, pname);
        compsize_failed(*ctx, verb, "data", n);
        return;
    }
    ++ctx->counters.remote_queries;
    const uint32_t bytes = uint32_t(n) * uint32_t(sizeof(T));
    encode(*ctx, pname, bytes);
    std::span<const uint8_t> rep = wait(*ctx);
    if (!read(rep, data, bytes)) reply_failed(*ctx, verb, rep);
}

// Whether the GL error check may cost a round trip (MOBILEGL_GL_ERRORS).
bool errors_sync() {
    static const bool sync = [] {
        const char* s = std::getenv("MOBILEGL_GL_ERRORS");
        if (!s || !*s || std::strcmp(s, "sync") == 0) return true;
        if (std::strcmp(s, "async") == 0) return false;
        log().error("MOBILEGL_GL_ERRORS='{}' is not 'sync' or 'async'; using sync", s);
        return true;
    }();
    return sync;
}

// glGetUniform{f,i,ui}v and glGetnUniform{f,i,ui}v: one round trip that
// returns the values and how many components the uniform has, so that
// exactly that many are written to `params` (GL writes no more). `bounded`:
// glGetnUniform*, whose bufSize (bytes) must hold the whole value.
template <class T>
void get_uniform(const char* verb, GLuint program, GLint location, GLenum type, bool bounded, int64_t buf_bytes,
                 T* params) {
    static_assert(sizeof(T) == sizeof(uint32_t));
    MGL_CTX_OR_RETURN(verb);
    uint32_t v[16] = {};
    ctx->enc->mglGetUniform(program, location, type, uint32_t(sizeof v));
    std::span<const uint8_t> rep = wait(*ctx);
    ::mgl::GLint n = 0;
    if (!gen::read_reply_mglGetUniform(rep, &n, v, uint32_t(sizeof v))) {
        reply_failed(*ctx, verb, rep);
        return;
    }
    if (n <= 0 || n > 16) return;  // the server's error is pending
    if (bounded && int64_t(n) * int64_t(sizeof(T)) > buf_bytes) {
        gl_error(*ctx, GL_INVALID_OPERATION, verb);  // glGetnUniform*: bufSize too small
        return;
    }
    if (params) std::memcpy(params, v, size_t(n) * sizeof(T));
}

}  // namespace

}  // namespace mgl::client

namespace mgl_custom {

void glGetIntegerv(GLenum pname, GLint* data) {
    get_values("glGetIntegerv", gen::Op::glGetIntegerv, pname, data,
               [](Context& c, GLenum p, uint32_t b) { c.enc->glGetIntegerv(p, b); },
               [](std::span<const uint8_t> r, GLint* d, uint32_t b) { return gen::read_reply_glGetIntegerv(r, d, b); });
}

void glGetFloatv(GLenum pname, GLfloat* data) {
    get_values("glGetFloatv", gen::Op::glGetFloatv, pname, data,
               [](Context& c, GLenum p, uint32_t b) { c.enc->glGetFloatv(p, b); },
               [](std::span<const uint8_t> r, GLfloat* d, uint32_t b) { return gen::read_reply_glGetFloatv(r, d, b); });
}

// Desktop GL: the lowering's and the shadow's state are answered here too.
void glGetDoublev(GLenum pname, GLdouble* data) {
    get_values("glGetDoublev", gen::Op::glGetDoublev, pname, data,
               [](Context& c, GLenum p, uint32_t b) { c.enc->glGetDoublev(p, b); },
               [](std::span<const uint8_t> r, GLdouble* d, uint32_t b) { return gen::read_reply_glGetDoublev(r, d, b); });
}

void glGetBooleanv(GLenum pname, GLboolean* data) {
    get_values("glGetBooleanv", gen::Op::glGetBooleanv, pname, data,
               [](Context& c, GLenum p, uint32_t b) { c.enc->glGetBooleanv(p, b); },
               [](std::span<const uint8_t> r, GLboolean* d, uint32_t b) { return gen::read_reply_glGetBooleanv(r, d, b); });
}

void glGetInteger64v(GLenum pname, GLint64* data) {
    get_values("glGetInteger64v", gen::Op::glGetInteger64v, pname, data,
               [](Context& c, GLenum p, uint32_t b) { c.enc->glGetInteger64v(p, b); },
               [](std::span<const uint8_t> r, GLint64* d, uint32_t b) {
                   return gen::read_reply_glGetInteger64v(r, reinterpret_cast<int64_t*>(d), b);
               });
}

namespace {
// The context's number of binding points of an indexed buffer target; 0
// when it has none cached (the server answers then).
int64_t binding_points(const Context& ctx, GLenum base) {
    const GLenum pname = base == GL_UNIFORM_BUFFER                 ? GL_MAX_UNIFORM_BUFFER_BINDINGS
                         : base == GL_TRANSFORM_FEEDBACK_BUFFER   ? GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS
                         : base == GL_ATOMIC_COUNTER_BUFFER       ? GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS
                                                                  : GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS;
    auto it = ctx.limits.find(pname);
    return it == ctx.limits.end() ? 0 : it->second.i[0];
}

// Indexed buffer bindings (client names) from the shadow. True when
// answered here: with the value, or with GL_INVALID_VALUE for an index past
// the context's binding points (the shadow holds more than any host has).
bool indexed_local(Context& ctx, const char* verb, GLenum target, GLuint index, int64_t* out, bool* refused) {
    GLenum base = 0;
    int field = 0;
    switch (target) {
        case GL_UNIFORM_BUFFER_BINDING: base = GL_UNIFORM_BUFFER; break;
        case GL_UNIFORM_BUFFER_START: base = GL_UNIFORM_BUFFER; field = 1; break;
        case GL_UNIFORM_BUFFER_SIZE: base = GL_UNIFORM_BUFFER; field = 2; break;
        case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: base = GL_TRANSFORM_FEEDBACK_BUFFER; break;
        case GL_TRANSFORM_FEEDBACK_BUFFER_START: base = GL_TRANSFORM_FEEDBACK_BUFFER; field = 1; break;
        case GL_TRANSFORM_FEEDBACK_BUFFER_SIZE: base = GL_TRANSFORM_FEEDBACK_BUFFER; field = 2; break;
        case GL_ATOMIC_COUNTER_BUFFER_BINDING: base = GL_ATOMIC_COUNTER_BUFFER; break;
        case GL_ATOMIC_COUNTER_BUFFER_START: base = GL_ATOMIC_COUNTER_BUFFER; field = 1; break;
        case GL_ATOMIC_COUNTER_BUFFER_SIZE: base = GL_ATOMIC_COUNTER_BUFFER; field = 2; break;
        case GL_SHADER_STORAGE_BUFFER_BINDING: base = GL_SHADER_STORAGE_BUFFER; break;
        case GL_SHADER_STORAGE_BUFFER_START: base = GL_SHADER_STORAGE_BUFFER; field = 1; break;
        case GL_SHADER_STORAGE_BUFFER_SIZE: base = GL_SHADER_STORAGE_BUFFER; field = 2; break;
        default: return false;
    }
    if (const int64_t points = binding_points(ctx, base); points > 0 && index >= points) {
        gl_error(ctx, GL_INVALID_VALUE, verb);
        *refused = true;
        return true;
    }
    auto* v = ctx.st.indexed(base);
    if (!v || index >= v->size()) return false;
    const IndexedBinding& b = (*v)[index];
    *out = field == 0 ? int64_t(b.buffer) : field == 1 ? b.offset : b.size;
    return true;
}
}  // namespace

void glGetIntegeri_v(GLenum target, GLuint index, GLint* data) {
    MGL_CTX_OR_RETURN("glGetIntegeri_v");
    int64_t v = 0;
    bool refused = false;
    if (indexed_local(*ctx, "glGetIntegeri_v", target, index, &v, &refused)) {
        if (data && !refused) *data = GLint(v);
        return;
    }
    const uint32_t bytes = uint32_t(cs_indexed(gen::Op::glGetIntegeri_v, target)) * 4;
    ctx->enc->glGetIntegeri_v(target, index, bytes);
    std::span<const uint8_t> rep = wait(*ctx);
    if (!gen::read_reply_glGetIntegeri_v(rep, data, bytes)) reply_failed(*ctx, "glGetIntegeri_v", rep);
}

void glGetInteger64i_v(GLenum target, GLuint index, GLint64* data) {
    MGL_CTX_OR_RETURN("glGetInteger64i_v");
    int64_t v = 0;
    bool refused = false;
    if (indexed_local(*ctx, "glGetInteger64i_v", target, index, &v, &refused)) {
        if (data && !refused) *data = v;
        return;
    }
    const uint32_t bytes = uint32_t(cs_indexed(gen::Op::glGetInteger64i_v, target)) * 8;
    ctx->enc->glGetInteger64i_v(target, index, bytes);
    std::span<const uint8_t> rep = wait(*ctx);
    if (!gen::read_reply_glGetInteger64i_v(rep, reinterpret_cast<int64_t*>(data), bytes))
        reply_failed(*ctx, "glGetInteger64i_v", rep);
}

void glGetBooleani_v(GLenum target, GLuint index, GLboolean* data) {
    MGL_CTX_OR_RETURN("glGetBooleani_v");
    int64_t v = 0;
    bool refused = false;
    if (indexed_local(*ctx, "glGetBooleani_v", target, index, &v, &refused)) {
        if (data && !refused) *data = v ? GL_TRUE : GL_FALSE;
        return;
    }
    const uint32_t bytes = uint32_t(cs_indexed(gen::Op::glGetBooleani_v, target));
    ctx->enc->glGetBooleani_v(target, index, bytes);
    std::span<const uint8_t> rep = wait(*ctx);
    if (!gen::read_reply_glGetBooleani_v(rep, data, bytes)) reply_failed(*ctx, "glGetBooleani_v", rep);
}

GLboolean glIsEnabled(GLenum cap) {
    MGL_CTX_OR_RETURN("glIsEnabled", GL_FALSE);
    bool on = false;
    if (ctx->st.cap(cap, &on) || compat::ff_is_enabled(*ctx, cap, &on) || compat::program_cap_enabled(*ctx, cap, &on)) {
        ++ctx->counters.local_queries;
        return on ? GL_TRUE : GL_FALSE;
    }
    ++ctx->counters.remote_queries;
    ctx->enc->glIsEnabled(cap);
    std::span<const uint8_t> rep = wait(*ctx);
    ::mgl::GLboolean r = 0;
    if (!gen::read_reply_glIsEnabled(rep, &r)) reply_failed(*ctx, "glIsEnabled", rep);
    return r;
}

// ---- buffer object queries: mapping state is the client's ----

namespace {
bool buffer_param_local(Context& ctx, GLenum target, GLenum pname, int64_t* out) {
    const uint32_t name = ctx.st.bound_buffer(target);
    if (!name) return false;
    std::lock_guard<std::mutex> g(ctx.group->mu);
    auto it = ctx.group->buffers.find(name);
    if (it == ctx.group->buffers.end()) return false;
    const BufferInfo& b = it->second;
    switch (pname) {
        case GL_BUFFER_MAPPED: *out = b.map_ptr ? 1 : 0; return true;
        case GL_BUFFER_MAP_OFFSET: *out = b.map_ptr ? b.map_offset : 0; return true;
        case GL_BUFFER_MAP_LENGTH: *out = b.map_ptr ? b.map_length : 0; return true;
        case GL_BUFFER_ACCESS_FLAGS: *out = b.map_ptr ? b.map_access : 0; return true;
        case GL_BUFFER_ACCESS_OES:
            *out = GL_WRITE_ONLY_OES;  // the only access GL_OES_mapbuffer knows
            return true;
        case GL_BUFFER_SIZE:
            if (b.size < 0) return false;
            *out = b.size;
            return true;
        case GL_BUFFER_USAGE:
            if (!b.usage) return false;
            *out = b.usage;
            return true;
        default: return false;
    }
}
}  // namespace

void glGetBufferParameteriv(GLenum target, GLenum pname, GLint* params) {
    MGL_CTX_OR_RETURN("glGetBufferParameteriv");
    int64_t v = 0;
    if (buffer_param_local(*ctx, target, pname, &v)) {
        if (params) *params = GLint(v);
        return;
    }
    ctx->enc->glGetBufferParameteriv(target, pname, 4);
    std::span<const uint8_t> rep = wait(*ctx);
    if (!gen::read_reply_glGetBufferParameteriv(rep, params, 4)) reply_failed(*ctx, "glGetBufferParameteriv", rep);
}

void glGetBufferParameteri64v(GLenum target, GLenum pname, GLint64* params) {
    MGL_CTX_OR_RETURN("glGetBufferParameteri64v");
    int64_t v = 0;
    if (buffer_param_local(*ctx, target, pname, &v)) {
        if (params) *params = v;
        return;
    }
    ctx->enc->glGetBufferParameteri64v(target, pname, 8);
    std::span<const uint8_t> rep = wait(*ctx);
    if (!gen::read_reply_glGetBufferParameteri64v(rep, reinterpret_cast<int64_t*>(params), 8))
        reply_failed(*ctx, "glGetBufferParameteri64v", rep);
}

// ---- vertex attribute queries: array state is shadowed ----

namespace {
bool attrib_local(Context& ctx, GLuint index, GLenum pname, int64_t* out) {
    auto& attribs = ctx.st.vao().attribs;
    if (index >= attribs.size()) return false;
    const VertexAttrib& a = attribs[index];
    switch (pname) {
        case GL_VERTEX_ATTRIB_ARRAY_ENABLED: *out = a.enabled; return true;
        case GL_VERTEX_ATTRIB_ARRAY_SIZE: *out = a.size; return true;
        case GL_VERTEX_ATTRIB_ARRAY_STRIDE: *out = a.stride; return true;
        case GL_VERTEX_ATTRIB_ARRAY_TYPE: *out = a.type; return true;
        case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED: *out = a.normalized; return true;
        case GL_VERTEX_ATTRIB_ARRAY_INTEGER: *out = a.integer; return true;
        case GL_VERTEX_ATTRIB_ARRAY_DIVISOR: *out = a.divisor; return true;
        case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING: *out = a.buffer; return true;
        default: return false;  // GL_CURRENT_VERTEX_ATTRIB, GL_VERTEX_ATTRIB_BINDING, ...
    }
}

// The shadow answers what it tracks; the rest (the current value, one vec4
// for GL_CURRENT_VERTEX_ATTRIB) is one round trip of the verb itself.
template <class T, class Encode, class Read>
void get_attrib(const char* verb, GLuint index, GLenum pname, T* params, Encode encode, Read read) {
    MGL_CTX_OR_RETURN(verb);
    int64_t v = 0;
    if (attrib_local(*ctx, index, pname, &v)) {
        if (params) *params = T(v);
        return;
    }
    // The schema sizes these replies for 4 values whatever the pname (the
    // decoder refuses less room, which would end the session): ask for 4,
    // hand the application the 1 or 4 its pname has.
    T values[4] = {};
    (ctx->enc->*encode)(index, pname, uint32_t(sizeof values));
    std::span<const uint8_t> rep = wait(*ctx);
    if (!read(rep, values, uint32_t(sizeof values))) {
        reply_failed(*ctx, verb, rep);
        return;
    }
    if (params) std::copy_n(values, pname == GL_CURRENT_VERTEX_ATTRIB ? 4 : 1, params);
}
}  // namespace

void glGetVertexAttribiv(GLuint index, GLenum pname, GLint* params) {
    get_attrib("glGetVertexAttribiv", index, pname, params, &gen::Encoder::glGetVertexAttribiv, gen::read_reply_glGetVertexAttribiv);
}

void glGetVertexAttribfv(GLuint index, GLenum pname, GLfloat* params) {
    get_attrib("glGetVertexAttribfv", index, pname, params, &gen::Encoder::glGetVertexAttribfv, gen::read_reply_glGetVertexAttribfv);
}

void glGetVertexAttribIiv(GLuint index, GLenum pname, GLint* params) {
    get_attrib("glGetVertexAttribIiv", index, pname, params, &gen::Encoder::glGetVertexAttribIiv, gen::read_reply_glGetVertexAttribIiv);
}

void glGetVertexAttribIuiv(GLuint index, GLenum pname, GLuint* params) {
    get_attrib("glGetVertexAttribIuiv", index, pname, params, &gen::Encoder::glGetVertexAttribIuiv, gen::read_reply_glGetVertexAttribIuiv);
}

void glGetVertexAttribPointerv(GLuint index, GLenum pname, void** pointer) {
    MGL_CTX_OR_RETURN("glGetVertexAttribPointerv");
    auto& attribs = ctx->st.vao().attribs;
    if (pname != GL_VERTEX_ATTRIB_ARRAY_POINTER) {
        gl_error(*ctx, GL_INVALID_ENUM, "glGetVertexAttribPointerv");
        return;
    }
    if (index >= attribs.size()) {
        gl_error(*ctx, GL_INVALID_VALUE, "glGetVertexAttribPointerv");
        return;
    }
    if (pointer) *pointer = const_cast<void*>(attribs[index].pointer);
}

void glGetPointerv(GLenum pname, void** params) {
    MGL_CTX_OR_RETURN("glGetPointerv");
    if (!params) return;
    switch (pname) {
        case GL_DEBUG_CALLBACK_FUNCTION: *params = reinterpret_cast<void*>(ctx->debug_callback); return;
        case GL_DEBUG_CALLBACK_USER_PARAM: *params = const_cast<void*>(ctx->debug_user); return;
        default: gl_error(*ctx, GL_INVALID_ENUM, "glGetPointerv"); return;
    }
}

// ---- strings: fetched once per context at its first make-current ----

const GLubyte* glGetString(GLenum name) {
    MGL_CTX_OR_RETURN("glGetString", nullptr);
    const std::string* s = nullptr;
    switch (name) {
        case GL_VENDOR: s = &ctx->vendor; break;
        case GL_RENDERER: s = &ctx->renderer; break;
        case GL_VERSION: s = &ctx->version; break;
        case GL_SHADING_LANGUAGE_VERSION:
            if (ctx->es1) {  // OpenGL ES 1.x has no shading language
                gl_error(*ctx, GL_INVALID_ENUM, "glGetString");
                return nullptr;
            }
            s = &ctx->shading_language;
            break;
        case GL_EXTENSIONS:
            // A core profile has only glGetStringi (GL 3.2 removed the string).
            if (ctx->profile == kCoreProfile) {
                gl_error(*ctx, GL_INVALID_ENUM, "glGetString");
                return nullptr;
            }
            s = &ctx->extensions;
            break;
        default: gl_error(*ctx, GL_INVALID_ENUM, "glGetString"); return nullptr;
    }
    return reinterpret_cast<const GLubyte*>(s->c_str());
}

const GLubyte* glGetStringi(GLenum name, GLuint index) {
    MGL_CTX_OR_RETURN("glGetStringi", nullptr);
    if (name != GL_EXTENSIONS) {
        gl_error(*ctx, GL_INVALID_ENUM, "glGetStringi");
        return nullptr;
    }
    if (index >= ctx->extension_list.size()) {
        gl_error(*ctx, GL_INVALID_VALUE, "glGetStringi");
        return nullptr;
    }
    return reinterpret_cast<const GLubyte*>(ctx->extension_list[index].c_str());
}

// ---- uniform values ----

void glGetUniformfv(GLuint program, GLint location, GLfloat* params) {
    get_uniform("glGetUniformfv", program, location, GL_FLOAT, false, 0, params);
}

void glGetUniformiv(GLuint program, GLint location, GLint* params) {
    get_uniform("glGetUniformiv", program, location, GL_INT, false, 0, params);
}

void glGetUniformuiv(GLuint program, GLint location, GLuint* params) {
    get_uniform("glGetUniformuiv", program, location, GL_UNSIGNED_INT, false, 0, params);
}

void glGetnUniformfv(GLuint program, GLint location, GLsizei bufSize, GLfloat* params) {
    get_uniform("glGetnUniformfv", program, location, GL_FLOAT, true, bufSize, params);
}

void glGetnUniformiv(GLuint program, GLint location, GLsizei bufSize, GLint* params) {
    get_uniform("glGetnUniformiv", program, location, GL_INT, true, bufSize, params);
}

void glGetnUniformuiv(GLuint program, GLint location, GLsizei bufSize, GLuint* params) {
    get_uniform("glGetnUniformuiv", program, location, GL_UNSIGNED_INT, true, bufSize, params);
}

// ---- errors ----
//
// First the error the client detected itself, then one the server pushed
// as an event, then (MOBILEGL_GL_ERRORS=sync, the default) one round trip
// to ask the server: exact GL semantics at the cost of a wait per call that
// finds nothing locally. async never waits: server-side errors surface only
// through events.
//
// A lost context (the session ended) reports GL_CONTEXT_LOST once and then
// GL_NO_ERROR, as GL_KHR_robustness has glGetError clear the flag it
// returns: `while (glGetError()) {}` ends. Nothing waits on the dead server.
namespace {
GLenum lost_error(Context& ctx) {
    if (ctx.lost_error_told) return GL_NO_ERROR;
    ctx.lost_error_told = true;
    return GL_CONTEXT_LOST;
}
}  // namespace

GLenum glGetError() {
    Context* ctx = current();
    if (!ctx) return GL_NO_ERROR;
    if (ctx->ff && ctx->ff->in_begin) {  // between glBegin and glEnd: an error itself, reported later (as Mesa)
        gl_error(*ctx, GL_INVALID_OPERATION, "glGetError");
        return GL_NO_ERROR;
    }
    if (ctx->error != GL_NO_ERROR) {
        const GLenum e = ctx->error;
        ctx->error = GL_NO_ERROR;
        return e;
    }
    uint32_t pushed = 0;
    if (ctx->group->conn().poll_gl_error(ctx->id, &pushed)) return pushed;
    if (ctx->lost) return lost_error(*ctx);
    if (!errors_sync()) return context_lost(*ctx, "glGetError") ? lost_error(*ctx) : GL_NO_ERROR;
    // With a debug callback, the server's log rides on this round trip.
    const bool fetched = debug_fetch(*ctx);
    ctx->enc->mglGetError();
    std::span<const uint8_t> rep = wait(*ctx);
    ::mgl::GLenum r = GL_NO_ERROR;
    if (!gen::read_reply_mglGetError(rep, &r)) {
        reply_failed(*ctx, "glGetError", rep);
        return ctx->lost ? lost_error(*ctx) : GL_NO_ERROR;
    }
    // The server pushes an error as an event when the span that raised it
    // ends; one pushed before this reply is visible now.
    if (r == GL_NO_ERROR && ctx->group->conn().poll_gl_error(ctx->id, &pushed)) r = pushed;
    if (fetched) debug_deliver(*ctx);
    return r;
}

// glGetGraphicsResetStatus (and its EXT/KHR aliases, and ARB's): a lost
// session is a reset whose cause the client cannot tell, reported once
// (GL_UNKNOWN_CONTEXT_RESET); then GL_NO_ERROR, as no reset happened since
// the last call. While the session lives, the server's answer.
namespace {
GLenum reset_status(gen::Op op, const char* verb) {
    Context* ctx = current();
    if (!ctx) return GL_NO_ERROR;
    if (!context_lost(*ctx, verb)) {
        const bool arb = op == gen::Op::glGetGraphicsResetStatusARB;
        if (arb) ctx->enc->glGetGraphicsResetStatusARB();
        else ctx->enc->glGetGraphicsResetStatus();
        std::span<const uint8_t> rep = wait(*ctx);
        ::mgl::GLenum r = GL_NO_ERROR;
        if (arb ? gen::read_reply_glGetGraphicsResetStatusARB(rep, &r) : gen::read_reply_glGetGraphicsResetStatus(rep, &r))
            return r;
        reply_failed(*ctx, verb, rep);
        if (!ctx->lost) return GL_NO_ERROR;
    }
    if (ctx->reset_told) return GL_NO_ERROR;
    ctx->reset_told = true;
    return GL_UNKNOWN_CONTEXT_RESET;
}
}  // namespace

GLenum glGetGraphicsResetStatus() { return reset_status(gen::Op::glGetGraphicsResetStatus, "glGetGraphicsResetStatus"); }

GLenum glGetGraphicsResetStatusARB() {
    return reset_status(gen::Op::glGetGraphicsResetStatusARB, "glGetGraphicsResetStatusARB");
}

// ---- debug output: glDebugMessageCallback and its kin are in custom/debug_output.cc ----

void glDebugMessageCallbackAMD(GLDEBUGPROCAMD callback, void* userParam) {
    unsized("glDebugMessageCallbackAMD", "desktop extension");
}

// A GLsync is a client-minted handle: its label stays on the client (the
// share group's sync_labels); whether `ptr` names a live sync is the server's
// to say (one round trip: labels are a debugging aid, not a hot path).
namespace {

// The generated glIsSync entry: one round trip, on the current context.
bool live_sync(const void* ptr) { return mgl_glIsSync(static_cast<GLsync>(const_cast<void*>(ptr))) != 0; }

uint32_t sync_name(const void* ptr) { return uint32_t(reinterpret_cast<uintptr_t>(ptr)); }

// GL_MAX_LABEL_LENGTH as the server announced it (GL's minimum, 256, if not).
size_t max_label_length(const ::mgl::client::Context& ctx) {
    auto it = ctx.limits.find(GL_MAX_LABEL_LENGTH);
    return it == ctx.limits.end() || it->second.i[0] <= 0 ? 256 : size_t(it->second.i[0]);
}

}  // namespace

void glObjectPtrLabel(const void* ptr, GLsizei length, const GLchar* label) {
    MGL_CTX_OR_RETURN("glObjectPtrLabel");
    const size_t n = !label ? 0 : length < 0 ? std::strlen(label) : size_t(length);
    if (n >= max_label_length(*ctx) || !live_sync(ptr)) {
        gl_error(*ctx, GL_INVALID_VALUE, "glObjectPtrLabel");
        return;
    }
    std::lock_guard<std::mutex> g(ctx->group->mu);
    if (label) ctx->group->sync_labels[sync_name(ptr)] = std::string(label, n);
    else ctx->group->sync_labels.erase(sync_name(ptr));  // a null label removes it
}

void glGetObjectPtrLabel(const void* ptr, GLsizei bufSize, GLsizei* length, GLchar* label) {
    MGL_CTX_OR_RETURN("glGetObjectPtrLabel");
    if (bufSize < 0 || !live_sync(ptr)) {
        gl_error(*ctx, GL_INVALID_VALUE, "glGetObjectPtrLabel");
        return;
    }
    std::string text;
    {
        std::lock_guard<std::mutex> g(ctx->group->mu);
        auto it = ctx->group->sync_labels.find(sync_name(ptr));
        if (it != ctx->group->sync_labels.end()) text = it->second;
    }
    // GL: with no buffer, length is the whole label's; otherwise what was written.
    size_t written = text.size();
    if (label) {
        written = bufSize > 0 ? std::min(text.size(), size_t(bufSize) - 1) : 0;
        if (bufSize > 0) {
            std::memcpy(label, text.data(), written);
            label[written] = 0;
        }
    }
    if (length) *length = GLsizei(written);
}

}  // namespace mgl_custom
