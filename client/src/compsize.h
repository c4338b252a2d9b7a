// Sizes that gl.xml leaves as COMPSIZE(...): the generated entry points call
// these to learn how many elements an array argument holds.
//
// Every helper returns an element count (bytes for void/ubyte arrays), or a
// negative code: kBadEnum (the entry point raises GL_INVALID_ENUM and sends
// nothing), kUnsupported (GL_INVALID_OPERATION, logged once), kBadValue
// (GL_INVALID_VALUE).
#pragma once

#include <cstdint>

#include "gen/opcodes.h"
#include "gl_ctypes.h"

namespace mgl::client {

struct Context;

inline constexpr int64_t kBadEnum = -1;
inline constexpr int64_t kUnsupported = -2;
inline constexpr int64_t kBadValue = -3;

// Values of `pname` for a glGet*v / gl*Parameter*v family verb.
int64_t cs_pname(const Context& ctx, gen::Op op, GLenum pname);
// Values of an indexed query (glGetIntegeri_v and friends).
int64_t cs_indexed(gen::Op op, GLenum target);
// Bytes of a pixel rectangle as read (unpack) or written (pack) with the
// context's pixel store state: skip, row length, alignment, and for 3D
// uploads (`three_d`) image height and skipped images.
int64_t cs_image(const Context& ctx, bool pack, bool three_d, GLenum format, GLenum type, int64_t width,
                 int64_t height, int64_t depth);
// Bytes glGetTexImage writes for a level: its size asked from the server
// (three glGetTexLevelParameteriv round trips, in custom/reply_sizes.cc),
// the images of a 3D or array level one after another.
int64_t cs_tex_level_image(Context& ctx, GLenum target, GLint level, GLenum format, GLenum type);
// Values glGetActiveUniformBlockiv writes: the block's member count for
// GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES (asked from the server, one round
// trip, in custom/reply_sizes.cc), else cs_pname's.
int64_t cs_uniform_block(Context& ctx, GLuint program, GLuint block, GLenum pname);
// Bytes of one pixel; kBadEnum for an unknown format/type.
int64_t pixel_bytes(GLenum format, GLenum type);
// Bytes of `count` indices of `type`.
int64_t cs_indices(int64_t count, GLenum type);
// Values of glClearBuffer*v's value for `buffer` (GL_COLOR 4, DEPTH/STENCIL 1).
int64_t cs_clear_buffer(GLenum buffer);
// A label or message: `length` bytes, or the string and its NUL when length < 0.
int64_t cs_label(const char* s, GLsizei length);
// glEGLImageTarget(Tex|Texture)StorageEXT's attrib_list: the extension
// defines no attribute, so the list must be null or GL_NONE alone, and its
// first element is all a driver reads (another value is GL_INVALID_VALUE).
int64_t cs_image_storage_attribs(const GLint* list);
// Bytes of one vertex attribute element (size components of type).
int64_t attrib_bytes(GLint size, GLenum type);

}  // namespace mgl::client
