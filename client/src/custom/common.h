// Shared by the hand-written halves in client/src/custom/.
#pragma once

#include <algorithm>
#include <string_view>

#include "compsize.h"
#include "context.h"
#include "gen/client_entry.h"
#include "gen/replies.h"
#include "log.h"
#include "runtime.h"

// The current context as `ctx`, or log once and return `ret` (empty for void).
#define MGL_CTX_OR_RETURN(verb, ...)                       \
    ::mgl::client::Context* const ctx = ::mgl::client::current(); \
    if (!ctx) [[unlikely]] {                               \
        ::mgl::client::no_context(verb);                  \
        return __VA_ARGS__;                                \
    }

namespace mgl::client {

// Waits for the reply of the sync record just encoded (counts a round trip).
inline std::span<const uint8_t> wait(Context& ctx) {
    ++ctx.counters.round_trips;
    return ctx.enc->wait_reply();
}

// Whether the context lists `name` (GL_NUM_EXTENSIONS / glGetStringi's list).
inline bool lists_extension(const Context& ctx, std::string_view name) {
    return std::find(ctx.extension_list.begin(), ctx.extension_list.end(), name) != ctx.extension_list.end();
}

// The largest buffer the client keeps a copy of (BufferInfo::shadow).
inline constexpr int64_t kMaxShadowBytes = int64_t(64) << 20;

// Client array and stream helpers (custom/arrays.cc).
void buffer_data_hook(Context& ctx, GLenum target, GLsizeiptr size, const void* data, GLenum usage);
// Keeps the client's copy of the buffer current; false (nothing done): the
// buffer is mapped other than persistently, so GL refuses the write.
bool buffer_sub_data_hook(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, const void* data);
BufferInfo* buffer_info(Context& ctx, uint32_t name);  // caller holds group->mu
// Buffers whose data store the server may write (custom/buffer_contents.cc):
// the client keeps no copy of them.
void mark_server_writes(Context& ctx, uint32_t name);
// A mapping other than a persistent one: GL refuses copies, reads and
// sub-data writes of the buffer meanwhile (GL_MAP_PERSISTENT_BIT is 0x40).
inline bool mapped_exclusively(const BufferInfo& b) { return b.map_ptr && !(b.map_access & 0x0040u); }
// The same for the buffer bound to `target` (custom/map.cc).
bool mapped_exclusively(Context& ctx, GLenum target);
// The only writers of BufferInfo::shadow's size (custom/buffer_contents.cc),
// keeping ShareGroup::shadow_bytes; the group's mutex held. set_shadow with
// null data keeps zeros; false (and no copy) when `limit` would be passed.
bool set_shadow(ShareGroup& g, BufferInfo& b, const void* data, int64_t size, int64_t limit);
bool set_shadow(ShareGroup& g, BufferInfo& b, std::vector<uint8_t>&& bytes, int64_t limit);
void drop_shadow(ShareGroup& g, BufferInfo& b);
bool server_write_target(GLenum target);
// Copies `bytes` into the vertex stream buffer; returns their offset there and
// leaves the stream bound to GL_ARRAY_BUFFER on the server.
int64_t stream_upload(Context& ctx, const void* data, int64_t bytes);
// Makes room for `bytes` more (16-byte aligned pieces included) in the vertex
// stream, orphaning it now if needed: several uploads that one draw reads
// must not orphan the stream between them (the arrays pointed at before
// would read the new, empty storage).
void stream_reserve(Context& ctx, int64_t bytes);

// Desktop-only pixel-store and read-clamp state (custom/pixel_store_desktop.cc):
// glPixelStorei of such a pname on a desktop context (false: not one, go on),
// and the shadow's answer for them.
bool desktop_pixel_store(Context& ctx, GLenum pname, GLint param);
bool desktop_pixel_value(const Context& ctx, GLenum pname, QueryValue* v);

}  // namespace mgl::client

// The hooks (declared in gen/client_entry.h) live in the top-level namespace
// mgl_custom so that GLchar, GLsync... are the C types, not mgl's wire types.
namespace mgl_custom {
using namespace mgl::client;
namespace gen = mgl::gen;
namespace wire = mgl::wire;
}  // namespace mgl_custom
