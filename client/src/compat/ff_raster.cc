// The raster path of GL 1.x, lowered on the client like the rest of the fixed
// function (docs/ARCHITECTURE-gl-frontend.md, "Compatibility lowering"): the
// current raster position (glRasterPos*, glWindowPos*: the generated entry
// points call raster_pos), glPixelZoom, and the pixel rectangles glDrawPixels,
// glBitmap and glCopyPixels.
//
// A pixel rectangle is an image in a texture of the lowering's own (on unit
// kMaxTexUnits, which no fixed-function unit uses) drawn as one rectangle at
// the raster position through a generated program of the PixelKind key
// (ff_shader.cc): each fragment fetches the image's pixel under it, so the
// zoom needs nothing else, and the current fragment state (texture
// environments with the raster texture coordinates, fog with the raster
// distance, alpha test, then every per-fragment operation of the server)
// applies as GL says. Depth images write gl_FragDepth. The positions follow
// Mesa's (the tests compare with it): glDrawPixels and glCopyPixels at the
// rounded raster position, glBitmap at floor(raster - origin + 1e-4).
//
// Inside a display list, glDrawPixels and glBitmap unpack their image at
// compile time (into a texture the list owns), as GL says; glCopyPixels reads
// the framebuffer when the list runs.
#include <cmath>
#include <cstring>

#include "compat/ff_verbs.h"

namespace mgl::client::compat {

namespace {

constexpr int kPixUnit = kMaxTexUnits;

void clamp4(float* dst, const float* src) {
    for (int i = 0; i < 4; ++i) dst[i] = std::min(1.0F, std::max(0.0F, src[i]));
}

void set_raster(Context& ctx, FixedFunction& f, bool window, double x, double y, double z, double w) {
    Raster& r = f.raster;
    const float* dr = ctx.st.depth_range;
    if (window) {
        // ARB_window_pos: window coordinates as they are, z through the depth range
        const float zc = float(std::min(1.0, std::max(0.0, z)));
        r.pos[0] = float(x), r.pos[1] = float(y), r.pos[2] = dr[0] + zc * (dr[1] - dr[0]), r.pos[3] = 1;
        r.valid = true;
        r.distance = 0;  // GL_FRAGMENT_DEPTH fog (the fog coordinate source is not served)
        clamp4(r.color, f.current[kColor].data());
        clamp4(r.color2, f.current[kColor2].data());
        for (int u = 0; u < kMaxTexUnits; ++u) r.tex[size_t(u)] = f.current[size_t(kTex0 + u)];
        return;
    }
    const float obj[4] = {float(x), float(y), float(z), float(w)};
    float eye[4], clip[4];
    const float* mv = f.top(0).m;
    const float* pr = f.top(1).m;
    for (int i = 0; i < 4; ++i) eye[i] = mv[i] * obj[0] + mv[4 + i] * obj[1] + mv[8 + i] * obj[2] + mv[12 + i] * obj[3];
    for (int i = 0; i < 4; ++i) clip[i] = pr[i] * eye[0] + pr[4 + i] * eye[1] + pr[8 + i] * eye[2] + pr[12 + i] * eye[3];
    // Clipped as a point: outside the view volume or a user clip plane -> invalid.
    bool inside = true;
    for (int i = 0; i < 3; ++i) inside = inside && clip[i] <= clip[3] && clip[i] >= -clip[3];
    for (int p = 0; p < kMaxClipPlanes; ++p) {
        if (!(f.clip_enabled & (1 << p))) continue;
        const auto& pl = f.clip_planes[size_t(p)];
        inside = inside && pl[0] * eye[0] + pl[1] * eye[1] + pl[2] * eye[2] + pl[3] * eye[3] >= 0;
    }
    if (!inside) {
        r.valid = false;
        return;
    }
    const GLint* vp = ctx.st.viewport;
    const float nx = clip[0] / clip[3], ny = clip[1] / clip[3], nz = clip[2] / clip[3];
    r.pos[0] = float(vp[0]) + (nx + 1.0F) * float(vp[2]) * 0.5F;
    r.pos[1] = float(vp[1]) + (ny + 1.0F) * float(vp[3]) * 0.5F;
    r.pos[2] = nz * ((dr[1] - dr[0]) * 0.5F) + (dr[1] + dr[0]) * 0.5F;
    r.pos[3] = clip[3];
    r.valid = true;
    r.distance = std::sqrt(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
    if (f.lighting && first_time("ff-raster-lit"))
        log().warn("glRasterPos with GL_LIGHTING: the raster colour is the current colour (raster lighting is not lowered)");
    clamp4(r.color, f.current[kColor].data());
    clamp4(r.color2, f.current[kColor2].data());
    for (int u = 0; u < kMaxTexUnits; ++u) {
        const float* t = f.current[size_t(kTex0 + u)].data();
        const float* m = f.top(2 + u).m;
        for (int i = 0; i < 4; ++i) r.tex[size_t(u)][size_t(i)] = m[i] * t[0] + m[4 + i] * t[1] + m[8 + i] * t[2] + m[12 + i] * t[3];
    }
}

}  // namespace

void raster_pos(Context& ctx, bool window, double x, double y, double z, double w) {
    FixedFunction* f = ff(ctx);
    if (!f) return;
    const char* verb = window ? "glWindowPos" : "glRasterPos";
    if (begin_error(ctx, *f, verb)) return;
    auto run = outside_begin(verb, [=](Context& c) { set_raster(c, *ff(c), window, x, y, z, w); });
    if (record(ctx, run)) return;
    run(ctx);
}

bool raster_get(Context& ctx, GLenum pname, QueryValue* out) {
    FixedFunction* fp = ff(ctx);
    if (!fp) return false;
    const Raster& r = fp->raster;
    auto floats = [&](const float* v, int n, bool normalized) {
        *out = QueryValue{};
        out->kind = QueryValue::Kind::floating;
        out->normalized = normalized;
        out->count = uint8_t(n);
        for (int i = 0; i < n; ++i) out->f[size_t(i)] = v[i];
        return true;
    };
    const float one = 1;
    switch (pname) {
        case 0x0B07: return floats(r.pos, 4, false);     // GL_CURRENT_RASTER_POSITION
        case 0x0B04: return floats(r.color, 4, true);    // GL_CURRENT_RASTER_COLOR
        case 0x845F: return floats(r.color2, 4, true);   // GL_CURRENT_RASTER_SECONDARY_COLOR
        case 0x0B05: return floats(&one, 1, false);      // GL_CURRENT_RASTER_INDEX
        case 0x0B06:                                     // GL_CURRENT_RASTER_TEXTURE_COORDS
            return floats(r.tex[std::min<size_t>(ctx.st.active_unit(), kMaxTexUnits - 1)].data(), 4, false);
        case 0x0B08: *out = QueryValue::bools({r.valid}); return true;  // GL_CURRENT_RASTER_POSITION_VALID
        case 0x0B09: return floats(&r.distance, 1, false);              // GL_CURRENT_RASTER_DISTANCE
        case 0x0D16: return floats(&fp->zoom[0], 1, false);             // GL_ZOOM_X
        case 0x0D17: return floats(&fp->zoom[1], 1, false);             // GL_ZOOM_Y
        default: return false;
    }
}

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

namespace {

// An image on the server: a texture the lowering owns.
struct Image {
    uint32_t tex = 0;
    PixelKind kind = kPixelNone;
    int width = 0, height = 0;
};

// Binds `tex` to GL_TEXTURE_2D of the pixel unit (sampler 0) through the
// ordinary entry points, so that the shadow follows; the destructor puts
// the application's bindings back.
class PixelUnit {
public:
    PixelUnit(Context& ctx, uint32_t tex) : ctx_(ctx), unit_(ctx.st.active_unit()) {
        mgl_glActiveTexture(GL_TEXTURE0 + kPixUnit);
        tex_ = ctx.st.unit().tex_2d;
        sampler_ = ctx.st.unit().sampler;
        if (sampler_) mgl_glBindSampler(kPixUnit, 0);
        mgl_glBindTexture(GL_TEXTURE_2D, tex);
    }
    ~PixelUnit() {
        mgl_glBindTexture(GL_TEXTURE_2D, tex_);
        if (sampler_) mgl_glBindSampler(kPixUnit, sampler_);
        mgl_glActiveTexture(GL_TEXTURE0 + unit_);
    }
    PixelUnit(const PixelUnit&) = delete;
    PixelUnit& operator=(const PixelUnit&) = delete;

private:
    Context& ctx_;
    uint32_t unit_, tex_ = 0, sampler_ = 0;
};

uint32_t new_texture() {
    GLuint t = 0;
    mgl_glGenTextures(1, &t);
    return t;
}

// Nearest filtering without mipmaps: complete for texelFetch (set on a texture bound by PixelUnit).
void plain_params() {
    mgl_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    mgl_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

// The texture of an image: the immediate one, or a new one a display list owns.
uint32_t image_texture(Context& ctx, FixedFunction& f, bool* fresh) {
    *fresh = false;
    if (f.compiling) {
        const uint32_t t = new_texture();
        f.building->textures.push_back(t);
        *fresh = true;
        return t;
    }
    if (!f.pixel_texture) {
        f.pixel_texture = new_texture();
        *fresh = true;
    }
    (void)ctx;
    return f.pixel_texture;
}

// Draws `im` with its lower left at window (x, y), zoomed, at the raster depth.
void draw_image(Context& ctx, FixedFunction& f, const Image& im, float x, float y, float zx, float zy) {
    PixelUnit bind(ctx, im.tex);
    f.pixel.kind = im.kind;
    f.pixel.origin[0] = x, f.pixel.origin[1] = y, f.pixel.origin[2] = zx, f.pixel.origin[3] = zy;
    f.pixel.z = f.raster.pos[2];
    f.pixel.unit = kPixUnit;
    draw_pixel_rect(ctx, f, x, y, x + zx * float(im.width), y + zy * float(im.height));
    f.pixel.kind = kPixelNone;
}

// glDrawPixels' and glCopyPixels' position: the rounded raster position (Mesa's).
float round_pos(float v) { return float(std::lround(v)); }

void draw_pixels_now(Context& ctx, const Image& im) {
    FixedFunction& f = *ff(ctx);
    if (!f.raster.valid || im.width <= 0 || im.height <= 0) return;
    draw_image(ctx, f, im, round_pos(f.raster.pos[0]), round_pos(f.raster.pos[1]), f.zoom[0], f.zoom[1]);
}

// Refuses what the lowering does not draw: GL_INVALID_OPERATION and one log line.
void refuse(Context& ctx, const char* verb, const char* what) {
    if (first_time(std::string(verb) + what)) log().warn("{}: {} is not lowered: GL_INVALID_OPERATION", verb, what);
    gl_error(ctx, GL_INVALID_OPERATION, verb);
}

// The image kind of a glDrawPixels format (kPixelNone: not a format GL knows; -1 refused).
int draw_kind(GLenum format) {
    switch (format) {
        case GL_RGBA: case GL_RGB: case GL_RED: case GL_RG: case GL_LUMINANCE: case GL_LUMINANCE_ALPHA: case GL_ALPHA:
        case 0x80E1: case 0x80E0:  // GL_BGRA, GL_BGR
            return kPixelColor;
        case GL_DEPTH_COMPONENT: return kPixelDepth;
        case 0x1901: case GL_DEPTH_STENCIL: case 0x1900: case 0x1904: case 0x1905:  // STENCIL_INDEX, COLOR_INDEX, GREEN, BLUE
            return -1;
        default: return kPixelNone;
    }
}

// The unpacked bits of a bitmap as bytes (0 or 255), per GL_UNPACK_* (GL 2.1 §3.6.4, §3.7).
std::vector<uint8_t> unpack_bitmap(const Context& ctx, int w, int h, const uint8_t* bits) {
    const State::PixelStore& u = ctx.st.unpack;
    const int64_t row_pixels = u.row_length > 0 ? u.row_length : w;
    const int64_t a = std::max(1, u.alignment);
    const int64_t row_bytes = ((row_pixels + 7) / 8 + a - 1) / a * a;
    std::vector<uint8_t> out(size_t(w) * size_t(h));
    for (int j = 0; j < h; ++j) {
        const uint8_t* row = bits + (int64_t(u.skip_rows) + j) * row_bytes;
        for (int i = 0; i < w; ++i) {
            const int64_t bit = int64_t(u.skip_pixels) + i;
            const uint8_t byte = row[bit / 8];
            const int shift = u.lsb_first ? int(bit % 8) : 7 - int(bit % 8);
            out[size_t(j) * size_t(w) + size_t(i)] = ((byte >> shift) & 1) ? 255 : 0;
        }
    }
    return out;
}

// Uploads tightly packed bytes of the lowering's own, whatever the
// application's unpack state and unpack buffer (put back afterwards).
void upload_own(Context& ctx, GLint internal, int w, int h, GLenum format, GLenum type, const void* data) {
    const State::PixelStore saved = ctx.st.unpack;
    const uint32_t pbo = ctx.st.bound_buffer(GL_PIXEL_UNPACK_BUFFER);
    if (pbo) mgl_glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    const std::pair<GLenum, GLint> plain[] = {{GL_UNPACK_ALIGNMENT, 1}, {GL_UNPACK_ROW_LENGTH, 0},
                                              {GL_UNPACK_SKIP_PIXELS, 0}, {GL_UNPACK_SKIP_ROWS, 0}};
    const GLint was[] = {saved.alignment, saved.row_length, saved.skip_pixels, saved.skip_rows};
    for (size_t i = 0; i < 4; ++i)
        if (was[i] != plain[i].second) mgl_glPixelStorei(plain[i].first, plain[i].second);
    mgl_glTexImage2D(GL_TEXTURE_2D, 0, internal, w, h, 0, format, type, data);
    for (size_t i = 0; i < 4; ++i)
        if (was[i] != plain[i].second) mgl_glPixelStorei(plain[i].first, was[i]);
    if (pbo) mgl_glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
}

}  // namespace

void glPixelZoom(GLfloat xfactor, GLfloat yfactor) {
    FF_OR_RETURN("glPixelZoom");
    if (begin_error(*ctx, *f, "glPixelZoom")) return;
    auto run = outside_begin("glPixelZoom", [=](Context& c) {
        ff(c)->zoom[0] = xfactor;
        ff(c)->zoom[1] = yfactor;
    });
    if (record(*ctx, run)) return;
    run(*ctx);
}

void glDrawPixels(GLsizei width, GLsizei height, GLenum format, GLenum type, const void* pixels) {
    FF_OR_RETURN("glDrawPixels");
    if (begin_error(*ctx, *f, "glDrawPixels")) return;
    if (width < 0 || height < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glDrawPixels");
        return;
    }
    const int kind = draw_kind(format);
    if (kind == kPixelNone) {
        gl_error(*ctx, GL_INVALID_ENUM, "glDrawPixels");
        return;
    }
    if (kind < 0) {
        refuse(*ctx, "glDrawPixels", format == 0x1900 ? "GL_COLOR_INDEX" : format == 0x1901 ? "GL_STENCIL_INDEX"
                                     : format == GL_DEPTH_STENCIL ? "GL_DEPTH_STENCIL" : "GL_GREEN/GL_BLUE");
        return;
    }
    // Nothing to draw: no texture either (a zero-sized image is an error on some hosts).
    if (!f->compiling && (!f->raster.valid || width == 0 || height == 0)) return;
    Image im;
    im.kind = PixelKind(kind);
    im.width = width, im.height = height;
    if (width > 0 && height > 0) {
        bool fresh = false;
        im.tex = image_texture(*ctx, *f, &fresh);
        PixelUnit bind(*ctx, im.tex);
        if (fresh) plain_params();
        // The application's unpack state and unpack buffer apply (GL: as glTexImage2D's).
        GLint internal = GLint(format);
        if (kind == kPixelDepth && type == GL_FLOAT) internal = GL_DEPTH_COMPONENT32F;
        mgl_glTexImage2D(GL_TEXTURE_2D, 0, internal, width, height, 0, format, type, pixels);
    }
    auto run = outside_begin("glDrawPixels", [im](Context& c) { draw_pixels_now(c, im); });
    if (record(*ctx, run)) return;
    run(*ctx);
}

void glBitmap(GLsizei width, GLsizei height, GLfloat xorig, GLfloat yorig, GLfloat xmove, GLfloat ymove,
              const GLubyte* bitmap) {
    FF_OR_RETURN("glBitmap");
    if (begin_error(*ctx, *f, "glBitmap")) return;
    if (width < 0 || height < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glBitmap");
        return;
    }
    Image im;
    im.kind = kPixelBitmap;
    if (width > 0 && height > 0 && bitmap && (f->compiling || f->raster.valid)) {
        if (ctx->st.bound_buffer(GL_PIXEL_UNPACK_BUFFER)) {
            refuse(*ctx, "glBitmap", "a bitmap in a pixel unpack buffer");
            return;
        }
        const std::vector<uint8_t> bytes = unpack_bitmap(*ctx, width, height, bitmap);
        bool fresh = false;
        im.tex = image_texture(*ctx, *f, &fresh);
        im.width = width, im.height = height;
        PixelUnit bind(*ctx, im.tex);
        if (fresh) plain_params();
        upload_own(*ctx, GL_R8, width, height, GL_RED, GL_UNSIGNED_BYTE, bytes.data());
    }
    auto run = outside_begin("glBitmap", [im, xorig, yorig, xmove, ymove](Context& c) {
        FixedFunction& g = *ff(c);
        Raster& r = g.raster;
        if (!r.valid) return;  // nothing drawn, the position stays
        if (im.tex) {
            const float x = std::floor(r.pos[0] + 0.0001F - xorig), y = std::floor(r.pos[1] + 0.0001F - yorig);
            draw_image(c, g, im, x, y, 1, 1);
        }
        r.pos[0] += xmove;
        r.pos[1] += ymove;
    });
    if (record(*ctx, run)) return;
    run(*ctx);
}

void glCopyPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum type) {
    FF_OR_RETURN("glCopyPixels");
    if (begin_error(*ctx, *f, "glCopyPixels")) return;
    if (width < 0 || height < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glCopyPixels");
        return;
    }
    if (type != 0x1800 && type != 0x1801 && type != 0x1802) {  // GL_COLOR, GL_DEPTH, GL_STENCIL
        gl_error(*ctx, GL_INVALID_ENUM, "glCopyPixels");
        return;
    }
    if (type != 0x1800) {
        refuse(*ctx, "glCopyPixels", type == 0x1801 ? "GL_DEPTH" : "GL_STENCIL");
        return;
    }
    auto run = outside_begin("glCopyPixels", [=](Context& c) {
        FixedFunction& g = *ff(c);
        if (!g.raster.valid || width == 0 || height == 0) return;
        Image im;
        im.kind = kPixelColor;
        im.width = width, im.height = height;
        bool fresh = false;
        const uint32_t list = g.compiling;
        g.compiling = 0;  // the copy's texture is the immediate one, even while a list runs inside another's compilation
        im.tex = image_texture(c, g, &fresh);
        g.compiling = list;
        {
            // GL reads the framebuffer through the current read buffer, as glCopyTexImage2D does.
            PixelUnit bind(c, im.tex);
            if (fresh) plain_params();
            mgl_glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, x, y, width, height, 0);
        }
        draw_image(c, g, im, round_pos(g.raster.pos[0]), round_pos(g.raster.pos[1]), g.zoom[0], g.zoom[1]);
    });
    if (record(*ctx, run)) return;
    run(*ctx);
}

}  // namespace mgl_custom
