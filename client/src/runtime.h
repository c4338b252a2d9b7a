// What the generated entry points (client_entry_*.cc) call: the current
// context, GL error bookkeeping, minting, sizes of strings, sources bound to
// buffers, and conversions between C values and wire values. Kept small and
// inline where it is on the hot path.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include "context.h"
#include "gen/gltypes.h"
#include "gen/opcodes.h"
#include "mgl/wire/decode_support.h"
#include "mgl/wire/record.h"

namespace mgl::client {

// Largest array an entry point encodes (the encoder's record limit less its header).
inline constexpr int64_t kMaxArrayBytes = int64_t(wire::EncoderBase::kMaxRecordBytes) - 4096;

// C value -> wire value: pointer-valued handles (GLsync, GLeglImageOES,
// callbacks) travel as 64-bit integers; everything else converts as is.
template <class T>
inline auto wv(T v) {
    if constexpr (std::is_pointer_v<T>) return uint64_t(reinterpret_cast<uintptr_t>(v));
    else return v;
}
// Wire value -> C return value.
template <class R, class W>
inline R from_wire(W w) {
    if constexpr (std::is_pointer_v<R>) return reinterpret_cast<R>(static_cast<uintptr_t>(w));
    else return static_cast<R>(w);
}

// Records `err` as the context's GL error unless one is already pending
// (glGetError returns the first), and logs it at debug level.
[[gnu::cold]] void gl_error(Context& ctx, GLenum err, const char* verb);
// A GL call with no current context: logged once per verb, otherwise ignored.
[[gnu::cold]] void no_context(const char* verb);
// A verb outside the current context's API/profile/version (generated
// tables): GL_INVALID_OPERATION, as a native driver gives, and one log line per verb.
[[gnu::cold]] void profile_error(Context& ctx, const char* verb);
// A verb the client cannot encode: GL_INVALID_OPERATION and one log line per verb.
[[gnu::cold]] void unsized(const char* verb, const char* why);
// A COMPSIZE helper refused (code < 0: see compsize.h).
[[gnu::cold]] void compsize_failed(Context& ctx, const char* verb, const char* param, int64_t code);
// A reply that does not have the verb's shape, or none (connection lost).
[[gnu::cold]] void reply_failed(Context& ctx, const char* verb, std::span<const uint8_t> reply);

// Whether the context's session has ended (the server died or ended it).
// Sets ctx.lost and logs the loss once the first time it is seen. Asks the
// link, so it is for the calls that report loss (glGetError, the reset
// status, EGL), not for every GL call.
bool context_lost(Context& ctx, const char* verb);

// Whether a buffer is bound to the target that turns a pointer into an offset.
inline bool source_bound(const Context& ctx, Source s) {
    switch (s) {
        case Source::array_buffer: return ctx.st.bound_buffer(GL_ARRAY_BUFFER) != 0;
        case Source::element_array_buffer: return ctx.st.bound_buffer(GL_ELEMENT_ARRAY_BUFFER) != 0;
        case Source::pixel_pack_buffer: return ctx.st.bound_buffer(GL_PIXEL_PACK_BUFFER) != 0;
        case Source::pixel_unpack_buffer: return ctx.st.bound_buffer(GL_PIXEL_UNPACK_BUFFER) != 0;
        case Source::draw_indirect_buffer: return ctx.st.bound_buffer(GL_DRAW_INDIRECT_BUFFER) != 0;
    }
    return false;
}

// A NUL-terminated string with its NUL (nullptr: no bytes).
inline wire::Blob cstring_blob(const char* s) {
    return s ? wire::Blob{s, uint32_t(std::strlen(s) + 1)} : wire::Blob{};
}
inline wire::Blob cstring_blob(const unsigned char* s) { return cstring_blob(reinterpret_cast<const char*>(s)); }

// glShaderSource-style string lists: `count` strings, each NUL-terminated or
// `lengths[i]` bytes long (lengths may be nullptr; a negative length means
// NUL-terminated), concatenated as NUL-terminated strings into ctx.scratch.
bool strings_blob(Context& ctx, const char* verb, int64_t count, const char* const* strings, const GLint* lengths,
                  wire::Blob& out);

// `bytes` zero bytes (input arrays the application passed as NULL: the wire
// has no null array yet, see docs/CLIENT.md).
const void* zeros(int64_t bytes);

// Shader and program names share one namespace that the client mints (and
// never reuses): which kind each name was minted as. A verb that reads the
// application's memory for a shader (glShaderSource's strings) checks its
// name first, as GL does: GL_INVALID_VALUE for a name never minted,
// GL_INVALID_OPERATION for a program's; false then, and nothing is read.
void note_program_name(Context& ctx, MintKind k, uint32_t name);
bool shader_name_usable(Context& ctx, const char* verb, uint32_t name);

// Mints names into `out` (n >= 0). false: n < 0.
bool mint(Context& ctx, MintKind k, int64_t n, uint32_t* out);
inline uint32_t mint_one(Context& ctx, MintKind k) { return ctx.group->mint(k, 1); }

}  // namespace mgl::client
