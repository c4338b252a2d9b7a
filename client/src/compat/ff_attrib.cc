// glPushAttrib/glPopAttrib and glPushClientAttrib/glPopClientAttrib.
//
// A push copies the state the client holds: the lowering's fixed-function
// state and the shadow of the server state (client/src/state). A pop puts
// back the groups of the pushed mask: fixed-function state by assignment,
// shadowed server state through the ordinary entry points (so the shadow and
// the server agree again). State the client does not hold (texture object
// parameters, point size, logic op, smooth-line and other caps the shadow
// does not track) is not saved, but for the server-held caps of kServerCaps
// (GL_FRAMEBUFFER_SRGB, GL_DEPTH_CLAMP), which a push asks the server for: the first push of such a group says so once
// in the log. glPushAttrib/glPopAttrib are compiled into display lists;
// the client-attribute pair is executed at once, as GL says.
#include <cstring>

#include "compat/ff.h"
#include "custom/common.h"

namespace mgl::client::compat {

namespace {

constexpr GLbitfield kCurrent = 0x1, kPoint = 0x2, kLine = 0x4, kPolygon = 0x8, kLighting = 0x40, kFog = 0x80, kDepth = 0x100,
                     kStencil = 0x400, kViewport = 0x800, kTransform = 0x1000, kEnable = 0x2000, kColor = 0x4000,
                     kHint = 0x8000, kList = 0x20000, kTexture = 0x40000, kScissor = 0x80000;
// Groups with state the client does not hold: polygon stipple, pixel mode,
// accumulation buffer, evaluators, multisample.
constexpr GLbitfield kNotHeld = 0x10 | 0x20 | 0x200 | 0x10000 | 0x20000000;

// Caps the shadow tracks, restored by GL_ENABLE_BIT and their own groups.
constexpr GLenum kShadowCaps[] = {GL_BLEND,        GL_CULL_FACE,       GL_DEPTH_TEST,          GL_DITHER,
                                  GL_POLYGON_OFFSET_FILL, GL_SCISSOR_TEST, GL_STENCIL_TEST,
                                  GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_COVERAGE};

// Caps the server holds (the GL front end's desktop state or the host's),
// with the attribute groups that save them and the extension that makes the
// cap valid: asked at glPushAttrib, restored at glPopAttrib.
struct ServerCap {
    GLenum cap;
    GLbitfield groups;
    const char* extension;
};
constexpr ServerCap kServerCaps[] = {
    {0x8DB9 /* FRAMEBUFFER_SRGB */, kColor | kEnable, "GL_ARB_framebuffer_sRGB"},
    {0x864F /* DEPTH_CLAMP */, kTransform | kEnable, "GL_ARB_depth_clamp"},
};

}  // namespace

struct AttribFrame {
    GLbitfield mask = 0;
    FixedFunction ff;  // the lowering's state (lists, programs and arrays are not restored from it)
    State st;          // the shadow's public fields (bindings of vertex arrays are not restored from it)
    std::vector<TextureUnit> units;
    uint32_t active_unit = 0;
    bool caps[std::size(kShadowCaps)] = {};
    int8_t server_caps[std::size(kServerCaps)] = {};  // -1 off, 1 on, 0 not saved
};

namespace {

void restore_cap(GLenum cap, bool on) { on ? mgl_glEnable(cap) : mgl_glDisable(cap); }

void copy_ff(FixedFunction& to, const FixedFunction& from, GLbitfield mask) {
    if (mask & kCurrent) to.current = from.current, to.raster = from.raster, to.edge_flag = from.edge_flag;
    if (mask & kPolygon) {
        to.polygon_mode = from.polygon_mode;
        to.offset_line = from.offset_line, to.offset_point = from.offset_point;
    }
    if (mask & 0x20) std::memcpy(to.zoom, from.zoom, sizeof to.zoom);  // GL_PIXEL_MODE_BIT: the zoom (pixel maps are not held)
    if (mask & kLighting) {
        to.lights = from.lights;
        to.front = from.front, to.back = from.back;
        std::memcpy(to.light_model_ambient, from.light_model_ambient, 16);
        to.local_viewer = from.local_viewer, to.two_side = from.two_side, to.separate_specular = from.separate_specular;
        to.lighting = from.lighting, to.color_material = from.color_material;
        to.color_material_face = from.color_material_face, to.color_material_mode = from.color_material_mode;
        to.shade_model = from.shade_model;
    }
    if (mask & kEnable) {
        to.lighting = from.lighting, to.color_material = from.color_material, to.normalize = from.normalize;
        to.rescale = from.rescale, to.alpha_test = from.alpha_test, to.fog = from.fog;
        to.offset_line = from.offset_line, to.offset_point = from.offset_point;
        for (int i = 0; i < kMaxLights; ++i) to.lights[size_t(i)].enabled = from.lights[size_t(i)].enabled;
        std::memcpy(to.texture_enables, from.texture_enables, sizeof to.texture_enables);
        to.clip_enabled = from.clip_enabled;
        to.texgen_enabled = from.texgen_enabled;
    }
    if (mask & kFog) {
        to.fog = from.fog, to.fog_mode = from.fog_mode, to.fog_density = from.fog_density;
        to.fog_start = from.fog_start, to.fog_end = from.fog_end;
        std::memcpy(to.fog_color, from.fog_color, 16);
    }
    if (mask & kTransform) {
        to.matrix_mode = from.matrix_mode, to.normalize = from.normalize, to.rescale = from.rescale;
        to.clip_planes = from.clip_planes, to.clip_enabled = from.clip_enabled;
    }
    if (mask & kColor) to.alpha_test = from.alpha_test, to.alpha_func = from.alpha_func, to.alpha_ref = from.alpha_ref;
    if (mask & kTexture) {
        std::memcpy(to.texture_enables, from.texture_enables, sizeof to.texture_enables);
        to.tex_env = from.tex_env;
        to.texgen = from.texgen, to.texgen_enabled = from.texgen_enabled;
    }
    if (mask & kList) to.list_base = from.list_base;
    if (mask & kPoint) {  // size (the server's too: restore_server), parameters, sprites (ff_points.cc)
        to.point_size = from.point_size, to.point_size_min = from.point_size_min;
        to.point_size_max = from.point_size_max, to.point_fade = from.point_fade;
        std::memcpy(to.point_attenuation, from.point_attenuation, sizeof to.point_attenuation);
        to.point_sprite = from.point_sprite, to.point_lower_left = from.point_lower_left;
        for (int u = 0; u < kMaxTexUnits; ++u) to.tex_env[size_t(u)].coord_replace = from.tex_env[size_t(u)].coord_replace;
    }
    if (mask & kEnable) to.point_sprite = from.point_sprite;
}

void restore_server(Context& ctx, const AttribFrame& fr) {
    const GLbitfield m = fr.mask;
    const State& s = fr.st;
    auto cap_of = [&](GLenum cap) {
        for (size_t k = 0; k < std::size(kShadowCaps); ++k)
            if (kShadowCaps[k] == cap) return fr.caps[k];
        return false;
    };
    if (m & kEnable)
        for (size_t k = 0; k < std::size(kShadowCaps); ++k) restore_cap(kShadowCaps[k], fr.caps[k]);
    for (size_t k = 0; k < std::size(kServerCaps); ++k)
        if (fr.server_caps[k]) restore_cap(kServerCaps[k].cap, fr.server_caps[k] > 0);
    if (m & kPoint) mgl_glPointSize(fr.ff.point_size);
    // The user clip planes and their enables live on the server as well
    // (GL_CLIP_PLANEi is the host's GL_CLIP_DISTANCEi; the planes clip the
    // application's shaders there): the restored ones are sent.
    if (m & (kEnable | kTransform)) {
        const FixedFunction& f = *ff(ctx);
        for (int p = 0; p < kMaxClipPlanes; ++p) {
            const GLenum cap = GLenum(0x3000 + p);
            (f.clip_enabled >> p) & 1 ? ctx.enc->glEnable(cap) : ctx.enc->glDisable(cap);
            if (m & kTransform) send_clip_plane(ctx, p);
        }
    }
    if (m & kLine) mgl_glLineWidth(s.line_width);
    if (m & kPolygon) {
        restore_cap(GL_CULL_FACE, cap_of(GL_CULL_FACE));
        restore_cap(GL_POLYGON_OFFSET_FILL, cap_of(GL_POLYGON_OFFSET_FILL));
        mgl_glCullFace(s.cull_face);
        mgl_glFrontFace(s.front_face);
        mgl_glPolygonOffset(s.polygon_offset_factor, s.polygon_offset_units);
    }
    if (m & kDepth) {
        restore_cap(GL_DEPTH_TEST, cap_of(GL_DEPTH_TEST));
        mgl_glDepthFunc(s.depth_func);
        mgl_glDepthMask(s.depth_mask);
        mgl_glClearDepthf(s.clear_depth);
    }
    if (m & kStencil) {
        restore_cap(GL_STENCIL_TEST, cap_of(GL_STENCIL_TEST));
        for (const auto& [face, sf] : {std::pair{GL_FRONT, s.stencil_front}, std::pair{GL_BACK, s.stencil_back}}) {
            mgl_glStencilFuncSeparate(face, sf.func, sf.ref, sf.value_mask);
            mgl_glStencilOpSeparate(face, sf.fail, sf.zfail, sf.zpass);
            mgl_glStencilMaskSeparate(face, sf.write_mask);
        }
        mgl_glClearStencil(s.clear_stencil);
    }
    if (m & kViewport) {
        mgl_glViewport(s.viewport[0], s.viewport[1], s.viewport[2], s.viewport[3]);
        mgl_glDepthRangef(s.depth_range[0], s.depth_range[1]);
    }
    if (m & kColor) {
        restore_cap(GL_BLEND, cap_of(GL_BLEND));
        restore_cap(GL_DITHER, cap_of(GL_DITHER));
        mgl_glBlendFuncSeparate(s.blend_src_rgb, s.blend_dst_rgb, s.blend_src_alpha, s.blend_dst_alpha);
        mgl_glBlendEquationSeparate(s.blend_eq_rgb, s.blend_eq_alpha);
        mgl_glBlendColor(s.blend_color[0], s.blend_color[1], s.blend_color[2], s.blend_color[3]);
        mgl_glColorMask(s.color_mask[0], s.color_mask[1], s.color_mask[2], s.color_mask[3]);
        mgl_glClearColor(s.clear_color[0], s.clear_color[1], s.clear_color[2], s.clear_color[3]);
    }
    if (m & kHint) mgl_glHint(GL_GENERATE_MIPMAP_HINT, s.hint_mipmap);
    if (m & kScissor) {
        restore_cap(GL_SCISSOR_TEST, cap_of(GL_SCISSOR_TEST));
        mgl_glScissor(s.scissor[0], s.scissor[1], s.scissor[2], s.scissor[3]);
    }
    if (m & kTexture) {
        // the bindings of every unit, then the active unit
        for (size_t u = 0; u < fr.units.size() && u < size_t(kMaxTexUnits); ++u) {
            const TextureUnit& t = fr.units[u];
            TextureUnit& now = ctx.st.units()[u];
            if (now.tex_2d == t.tex_2d && now.tex_cube == t.tex_cube && now.tex_3d == t.tex_3d) continue;
            mgl_glActiveTexture(GLenum(GL_TEXTURE0 + u));
            if (now.tex_2d != t.tex_2d) mgl_glBindTexture(GL_TEXTURE_2D, t.tex_2d);
            if (now.tex_cube != t.tex_cube) mgl_glBindTexture(GL_TEXTURE_CUBE_MAP, t.tex_cube);
            if (now.tex_3d != t.tex_3d) mgl_glBindTexture(GL_TEXTURE_3D, t.tex_3d);
        }
        mgl_glActiveTexture(GLenum(GL_TEXTURE0 + fr.active_unit));
    }
}

void push_attrib(Context& ctx, GLbitfield mask) {
    FixedFunction& f = *ff(ctx);
    if (f.attrib_stack.size() >= size_t(kAttribStackDepth)) {
        gl_error(ctx, 0x0503, "glPushAttrib");  // GL_STACK_OVERFLOW
        return;
    }
    if ((mask & kNotHeld) && first_time("ff-push-attrib-not-held"))
        log().warn("glPushAttrib: stipple, pixel-mode, accumulation, evaluator and multisample state are not "
                   "saved (the client does not hold them); texture parameters and caps the client does not track "
                   "neither");
    auto fr = std::make_shared<AttribFrame>();
    fr->mask = mask;
    copy_ff(fr->ff, f, 0xFFFFFFFFu);
    // The shadow's plain fields (its vertex-array bookkeeping is not copied).
    const State& s = ctx.st;
    State& d = fr->st;
    d.viewport[0] = s.viewport[0], d.viewport[1] = s.viewport[1], d.viewport[2] = s.viewport[2], d.viewport[3] = s.viewport[3];
    std::memcpy(d.scissor, s.scissor, sizeof d.scissor);
    std::memcpy(d.clear_color, s.clear_color, sizeof d.clear_color);
    d.clear_depth = s.clear_depth, d.clear_stencil = s.clear_stencil;
    std::memcpy(d.color_mask, s.color_mask, sizeof d.color_mask);
    d.depth_mask = s.depth_mask, d.depth_func = s.depth_func;
    std::memcpy(d.depth_range, s.depth_range, sizeof d.depth_range);
    d.cull_face = s.cull_face, d.front_face = s.front_face;
    d.blend_src_rgb = s.blend_src_rgb, d.blend_dst_rgb = s.blend_dst_rgb;
    d.blend_src_alpha = s.blend_src_alpha, d.blend_dst_alpha = s.blend_dst_alpha;
    d.blend_eq_rgb = s.blend_eq_rgb, d.blend_eq_alpha = s.blend_eq_alpha;
    std::memcpy(d.blend_color, s.blend_color, sizeof d.blend_color);
    d.stencil_front = s.stencil_front, d.stencil_back = s.stencil_back;
    d.line_width = s.line_width;
    d.polygon_offset_factor = s.polygon_offset_factor, d.polygon_offset_units = s.polygon_offset_units;
    d.hint_mipmap = s.hint_mipmap;
    fr->units = ctx.st.units();
    fr->active_unit = ctx.st.active_unit();
    for (size_t k = 0; k < std::size(kShadowCaps); ++k) {
        bool on = false;
        s.cap(kShadowCaps[k], &on);
        fr->caps[k] = on;
    }
    for (size_t k = 0; k < std::size(kServerCaps); ++k) {
        const ServerCap& c = kServerCaps[k];
        if (!(mask & c.groups) || !lists_extension(ctx, c.extension)) continue;
        fr->server_caps[k] = mgl_glIsEnabled(c.cap) ? 1 : -1;
    }
    f.attrib_stack.push_back(std::move(fr));
}

void pop_attrib(Context& ctx) {
    FixedFunction& f = *ff(ctx);
    if (f.attrib_stack.empty()) {
        gl_error(ctx, 0x0504, "glPopAttrib");  // GL_STACK_UNDERFLOW
        return;
    }
    std::shared_ptr<AttribFrame> fr = std::move(f.attrib_stack.back());
    f.attrib_stack.pop_back();
    copy_ff(f, fr->ff, fr->mask);
    restore_server(ctx, *fr);
}

}  // namespace

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

void glPushAttrib(GLbitfield mask) {
    MGL_CTX_OR_RETURN("glPushAttrib");
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, "glPushAttrib");
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, "glPushAttrib");
    push_attrib(*ctx, mask);
}

void glPopAttrib() {
    MGL_CTX_OR_RETURN("glPopAttrib");
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, "glPopAttrib");
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, "glPopAttrib");
    pop_attrib(*ctx);
}

// Client attributes: pixel store (GL_CLIENT_PIXEL_STORE_BIT) and the
// client-state arrays with the client active texture (GL_CLIENT_VERTEX_ARRAY_BIT).
void glPushClientAttrib(GLbitfield mask) {
    MGL_CTX_OR_RETURN("glPushClientAttrib");
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, "glPushClientAttrib");
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, "glPushClientAttrib");
    if (f->client_attrib_stack.size() >= size_t(kAttribStackDepth))
        return gl_error(*ctx, 0x0503, "glPushClientAttrib");
    ClientAttribFrame fr;
    fr.mask = mask;
    fr.unpack = ctx->st.unpack;
    fr.pack = ctx->st.pack;
    fr.arrays = f->arrays;
    fr.edge = f->edge_array;
    fr.index = f->index_array;
    fr.client_active_texture = f->client_active_texture;
    fr.array_buffer = ctx->st.bound_buffer(GL_ARRAY_BUFFER);
    f->client_attrib_stack.push_back(fr);
}

void glPopClientAttrib() {
    MGL_CTX_OR_RETURN("glPopClientAttrib");
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, "glPopClientAttrib");
    if (f->in_begin) return gl_error(*ctx, GL_INVALID_OPERATION, "glPopClientAttrib");
    if (f->client_attrib_stack.empty()) return gl_error(*ctx, 0x0504, "glPopClientAttrib");
    const ClientAttribFrame fr = f->client_attrib_stack.back();
    f->client_attrib_stack.pop_back();
    if (fr.mask & 0x1) {  // GL_CLIENT_PIXEL_STORE_BIT
        const State::PixelStore& u = fr.unpack;
        const State::PixelStore& p = fr.pack;
        const std::pair<GLenum, GLint> ps[] = {
            {GL_UNPACK_ALIGNMENT, u.alignment},     {GL_UNPACK_ROW_LENGTH, u.row_length},
            {GL_UNPACK_IMAGE_HEIGHT, u.image_height}, {GL_UNPACK_SKIP_PIXELS, u.skip_pixels},
            {GL_UNPACK_SKIP_ROWS, u.skip_rows},     {GL_UNPACK_SKIP_IMAGES, u.skip_images},
            {GL_PACK_ALIGNMENT, p.alignment},       {GL_PACK_ROW_LENGTH, p.row_length},
            {GL_PACK_SKIP_PIXELS, p.skip_pixels},   {GL_PACK_SKIP_ROWS, p.skip_rows},
        };
        for (const auto& [pname, v] : ps) mgl_glPixelStorei(pname, v);
    }
    if (fr.mask & 0x2) {  // GL_CLIENT_VERTEX_ARRAY_BIT
        f->arrays = fr.arrays;
        f->edge_array = fr.edge;
        f->index_array = fr.index;
        f->client_active_texture = fr.client_active_texture;
        mgl_glBindBuffer(GL_ARRAY_BUFFER, fr.array_buffer);
    }
}

}  // namespace mgl_custom
