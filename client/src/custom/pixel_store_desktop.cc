// Desktop GL's pixel-store and read-colour clamp state that GLES has no
// counterpart for: byte swapping and LSB-first bitmaps (GL_{UN,}PACK_SWAP_BYTES,
// _LSB_FIRST), 3D pack addressing (GL_PACK_IMAGE_HEIGHT, _SKIP_IMAGES) and
// glClampColor(GL_CLAMP_READ_COLOR). Programs and tools (apitrace's retracers
// among them) save and reset these around every readback, so their defaults
// are served: kept in the shadow, answered from it, never sent (the host would
// refuse the names), except GL_UNPACK_SWAP_BYTES, which the server's upload
// converter carries out. A value the GLES host cannot carry out (swapping bytes,
// clamping float reads, 3D pack addressing) is refused with
// GL_INVALID_OPERATION and one log line, never ignored.
#include <fmt/format.h>

#include "custom/common.h"

namespace mgl::client {

namespace {

constexpr GLenum kPackSwapBytes = 0x0D00, kPackLsbFirst = 0x0D01, kUnpackSwapBytes = 0x0CF0,
                 kUnpackLsbFirst = 0x0CF1, kPackSkipImages = 0x806B, kPackImageHeight = 0x806C;
constexpr GLenum kClampReadColor = 0x891C, kFixedOnly = 0x891D;
constexpr GLenum kClampVertexColor = 0x891A, kClampFragmentColor = 0x891B;

bool desktop_pixel_pname(GLenum pname) {
    switch (pname) {
        case kPackSwapBytes: case kPackLsbFirst: case kUnpackSwapBytes: case kUnpackLsbFirst:
        case kPackSkipImages: case kPackImageHeight: return true;
        default: return false;
    }
}

}  // namespace

// glPixelStorei of a desktop-only pname; false: not one of them (or not a
// desktop context), the caller goes on.
bool desktop_pixel_store(Context& ctx, GLenum pname, GLint param) {
    if (!ctx.desktop() || !desktop_pixel_pname(pname)) return false;
    if (param < 0) {
        gl_error(ctx, GL_INVALID_VALUE, "glPixelStorei");
        return true;
    }
    if (pname == kUnpackSwapBytes) {
        // The server converts uploads while it is set (Espryt; Magma refuses it).
        ctx.st.set_pixel_store(pname, param);
        ctx.enc->glPixelStorei(pname, param);
        return true;
    }
    // LSB-first bitmaps: the compatibility lowering unpacks glBitmap's bits itself (compat/ff_raster.cc).
    const bool lowered = pname == kUnpackLsbFirst && ctx.api_kind == gen::ApiKind::compat;
    if (param != 0 && !lowered) {
        if (first_time(fmt::format("desktop pixel store {:#x}", pname)))
            log().error("glPixelStorei({:#06x}, {}): not served on a GLES host (only the default, 0)", pname, param);
        gl_error(ctx, GL_INVALID_OPERATION, "glPixelStorei");
        return true;
    }
    ctx.st.set_pixel_store(pname, param);
    return true;
}

// The shadow's answer for desktop-only pixel-store and clamp pnames.
bool desktop_pixel_value(const Context& ctx, GLenum pname, QueryValue* v) {
    if (!ctx.desktop()) return false;
    const State& s = ctx.st;
    switch (pname) {
        case kPackSwapBytes: *v = QueryValue::bools({s.pack.swap_bytes != 0}); return true;
        case kPackLsbFirst: *v = QueryValue::bools({s.pack.lsb_first != 0}); return true;
        case kUnpackSwapBytes: *v = QueryValue::bools({s.unpack.swap_bytes != 0}); return true;
        case kUnpackLsbFirst: *v = QueryValue::bools({s.unpack.lsb_first != 0}); return true;
        case kPackSkipImages: *v = QueryValue::ints({s.pack.skip_images}); return true;
        case kPackImageHeight: *v = QueryValue::ints({s.pack.image_height}); return true;
        case kClampReadColor: *v = QueryValue::ints({GLint(s.clamp_read_color)}); return true;
        case kClampVertexColor:
        case kClampFragmentColor:
            if (ctx.api_kind != gen::ApiKind::compat) return false;  // core: not a pname (the host's GL_INVALID_ENUM)
            *v = QueryValue::ints({GLint(pname == kClampVertexColor ? s.clamp_vertex_color : s.clamp_fragment_color)});
            return true;
        default: return false;
    }
}

}  // namespace mgl::client

namespace mgl_custom {

// GLES reads fixed-point colour buffers clamped (they hold [0, 1]) and float
// ones unclamped: GL_FIXED_ONLY, and GL_FALSE reads the same values. GL_TRUE
// (clamp float reads) is not carried out.
// The vertex and fragment colour clamps (compatibility profile only) are state
// here. A GLES host writes fragment colours clamped into fixed-point buffers
// (their format holds [0, 1]) and unclamped into float ones: that is
// GL_FIXED_ONLY (the default) and, for what a buffer holds, GL_FALSE too.
// GL_TRUE (clamp into float buffers) is kept and answered but not carried out
// (one log line). The vertex colour clamp is kept and answered; the
// compatibility lowering's colours are not clamped by it.
void glClampColor(GLenum target, GLenum clamp) {
    MGL_CTX_OR_RETURN("glClampColor");
    if (clamp != GL_TRUE && clamp != GL_FALSE && clamp != kFixedOnly) {
        gl_error(*ctx, GL_INVALID_ENUM, "glClampColor");
        return;
    }
    if ((target == kClampVertexColor || target == kClampFragmentColor) && ctx->api_kind == gen::ApiKind::compat) {
        if (target == kClampFragmentColor && clamp == GL_TRUE &&
            first_time(fmt::format("glClampColor {:#x} {:#x}", target, clamp)))
            log().warn("glClampColor(GL_CLAMP_FRAGMENT_COLOR, GL_TRUE): kept as state; a GLES host does not clamp "
                       "fragment colours written to float buffers");
        (target == kClampVertexColor ? ctx->st.clamp_vertex_color : ctx->st.clamp_fragment_color) = clamp;
        return;
    }
    if (target == kClampReadColor && clamp == GL_TRUE) {
        if (first_time(fmt::format("glClampColor {:#x} {:#x}", target, clamp)))
            log().error("glClampColor({:#06x}, {:#06x}): not served on a GLES host", target, clamp);
        gl_error(*ctx, GL_INVALID_OPERATION, "glClampColor");
        return;
    }
    if (target != kClampReadColor) {
        gl_error(*ctx, GL_INVALID_ENUM, "glClampColor");
        return;
    }
    ctx->st.clamp_read_color = clamp;
}

}  // namespace mgl_custom
