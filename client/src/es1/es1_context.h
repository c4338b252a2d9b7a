// OpenGL ES 1.x contexts (EGL_CONTEXT_CLIENT_VERSION 1): served as a
// compatibility-profile context, whose fixed-function lowering (client/src/
// compat/) is ES 1.1's fixed function, and presented as OpenGL ES-CM 1.1.
// docs/CLIENT.md ("OpenGL ES 1.1 contexts") lists what is served.
#pragma once

#include <cstdint>

namespace mgl::client {
struct Context;
}

namespace mgl::client::es1 {

// After the context's strings and limits came from the server: its
// GL_VERSION, GL_EXTENSIONS and the limits an ES 1.1 context answers.
void present(Context& c);

// Whether glGet* of `pname` is GL_INVALID_ENUM in ES 1.1 though the serving
// compatibility context answers it (GL 3's version, flags and profile queries).
bool refuses_query(uint32_t pname);

// The OES_compressed_paletted_texture formats (GL_PALETTE4_RGB8_OES ...),
// which ES 1.1 requires and GL_COMPRESSED_TEXTURE_FORMATS lists.
inline constexpr uint32_t kFirstPalette = 0x8B90, kLastPalette = 0x8B99;
// GL_ETC1_RGB8_OES: its blocks are ETC2 RGB8 blocks (GL_COMPRESSED_RGB8_ETC2),
// which a GLES 3 host and GL_ARB_ES3_compatibility decode.
inline constexpr uint32_t kEtc1 = 0x8D64, kEtc2Rgb8 = 0x9274;

}  // namespace mgl::client::es1
