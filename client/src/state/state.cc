#include "state/state.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace mgl::client {

// ---------------------------------------------------------------------------
// QueryValue: GL's conversion rules for glGet* (ES 3.2 §2.2.1)
// ---------------------------------------------------------------------------

QueryValue QueryValue::ints(std::initializer_list<int64_t> v) {
    QueryValue q;
    q.kind = Kind::integer;
    q.count = uint8_t(v.size());
    std::copy(v.begin(), v.end(), q.i.begin());
    return q;
}
QueryValue QueryValue::int64s(std::initializer_list<int64_t> v) {
    QueryValue q = ints(v);
    q.kind = Kind::integer64;
    return q;
}
QueryValue QueryValue::floats(std::initializer_list<double> v, bool normalized) {
    QueryValue q;
    q.kind = Kind::floating;
    q.normalized = normalized;
    q.count = uint8_t(v.size());
    std::copy(v.begin(), v.end(), q.f.begin());
    return q;
}
QueryValue QueryValue::bools(std::initializer_list<bool> v) {
    QueryValue q;
    q.kind = Kind::boolean;
    q.count = uint8_t(v.size());
    size_t k = 0;
    for (bool b : v) q.i[k++] = b ? 1 : 0;
    return q;
}

namespace {
int64_t float_to_int(double f, bool normalized) {
    if (normalized) {
        // [-1, 1] maps linearly onto the full integer range.
        const double v = std::round(((4294967295.0 * std::clamp(f, -1.0, 1.0)) - 1.0) / 2.0);
        return int64_t(std::clamp(v, double(INT_MIN), double(INT_MAX)));
    }
    const double r = std::round(f);
    return int64_t(std::clamp(r, -9.2e18, 9.2e18));
}
}  // namespace

void QueryValue::to(GLint* out) const {
    for (int k = 0; k < count; ++k) {
        int64_t v = kind == Kind::floating ? float_to_int(f[k], normalized) : i[k];
        out[k] = GLint(std::clamp<int64_t>(v, INT_MIN, INT_MAX));
    }
}
void QueryValue::to(GLint64* out) const {
    for (int k = 0; k < count; ++k) out[k] = kind == Kind::floating ? float_to_int(f[k], normalized) : i[k];
}
void QueryValue::to(GLfloat* out) const {
    for (int k = 0; k < count; ++k) out[k] = kind == Kind::floating ? GLfloat(f[k]) : GLfloat(i[k]);
}
void QueryValue::to(GLdouble* out) const {
    for (int k = 0; k < count; ++k) out[k] = kind == Kind::floating ? f[k] : GLdouble(i[k]);
}
void QueryValue::to(GLboolean* out) const {
    for (int k = 0; k < count; ++k)
        out[k] = (kind == Kind::floating ? f[k] != 0.0 : i[k] != 0) ? GL_TRUE : GL_FALSE;
}

// ---------------------------------------------------------------------------
// Bindings
// ---------------------------------------------------------------------------

uint32_t* TextureUnit::slot(GLenum target) {
    switch (target) {
        case GL_TEXTURE_2D: return &tex_2d;
        case GL_TEXTURE_CUBE_MAP: return &tex_cube;
        case GL_TEXTURE_3D: return &tex_3d;
        case GL_TEXTURE_2D_ARRAY: return &tex_2d_array;
        case GL_TEXTURE_EXTERNAL_OES: return &tex_external;
        case GL_TEXTURE_CUBE_MAP_ARRAY: return &tex_cube_array;
        case GL_TEXTURE_2D_MULTISAMPLE: return &tex_2d_ms;
        case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return &tex_2d_ms_array;
        case GL_TEXTURE_BUFFER: return &tex_buffer;
        case 0x0DE0: return &tex_1d;        // GL_TEXTURE_1D
        case 0x8C18: return &tex_1d_array;  // GL_TEXTURE_1D_ARRAY
        case 0x84F5: return &tex_rect;      // GL_TEXTURE_RECTANGLE
        default: return nullptr;
    }
}

void State::reset(int max_attribs, int max_units) {
    *this = State();
    max_attribs_ = std::clamp(max_attribs, 1, 64);
    units_.assign(size_t(std::clamp(max_units, 1, 256)), TextureUnit{});
    uniform_idx_.assign(128, {});
    tf_idx_.assign(16, {});
    atomic_idx_.assign(16, {});
    ssbo_idx_.assign(64, {});
    caps_ = 0;
    set_cap(GL_DITHER, true);
    bind_vertex_array(0);
}

uint32_t* State::buffer_slot(GLenum target) {
    switch (target) {
        case GL_ARRAY_BUFFER: return &array_buffer_;
        case GL_ELEMENT_ARRAY_BUFFER: return &vao_->element_buffer;
        case GL_COPY_READ_BUFFER: return &copy_read_;
        case GL_COPY_WRITE_BUFFER: return &copy_write_;
        case GL_PIXEL_PACK_BUFFER: return &pixel_pack_;
        case GL_PIXEL_UNPACK_BUFFER: return &pixel_unpack_;
        case GL_UNIFORM_BUFFER: return &uniform_;
        case GL_TRANSFORM_FEEDBACK_BUFFER: return &tf_buffer_;
        case GL_DRAW_INDIRECT_BUFFER: return &draw_indirect_;
        case GL_DISPATCH_INDIRECT_BUFFER: return &dispatch_indirect_;
        case GL_ATOMIC_COUNTER_BUFFER: return &atomic_counter_;
        case GL_SHADER_STORAGE_BUFFER: return &shader_storage_;
        case GL_TEXTURE_BUFFER: return &texture_buffer_;
        default: return nullptr;
    }
}

uint32_t State::bound_buffer(GLenum target) const {
    uint32_t* s = const_cast<State*>(this)->buffer_slot(target);
    return s ? *s : 0;
}

std::vector<IndexedBinding>* State::indexed(GLenum target) {
    switch (target) {
        case GL_UNIFORM_BUFFER: return &uniform_idx_;
        case GL_TRANSFORM_FEEDBACK_BUFFER: return &tf_idx_;
        case GL_ATOMIC_COUNTER_BUFFER: return &atomic_idx_;
        case GL_SHADER_STORAGE_BUFFER: return &ssbo_idx_;
        default: return nullptr;
    }
}

void State::bind_vertex_array(uint32_t name) {
    VertexArray& v = vaos_[name];
    if (v.attribs.size() != size_t(max_attribs_)) v.attribs.resize(size_t(max_attribs_));
    vao_ = &v;
    vao_name_ = name;
}

void State::delete_vertex_array(uint32_t name) {
    if (name == 0) return;
    if (name == vao_name_) bind_vertex_array(0);
    vaos_.erase(name);
}

void State::forget_buffer(uint32_t name) {
    if (name == 0) return;
    for (uint32_t* s : {&array_buffer_, &copy_read_, &copy_write_, &pixel_pack_, &pixel_unpack_, &uniform_, &tf_buffer_,
                        &draw_indirect_, &dispatch_indirect_, &atomic_counter_, &shader_storage_, &texture_buffer_})
        if (*s == name) *s = 0;
    for (auto* v : {&uniform_idx_, &tf_idx_, &atomic_idx_, &ssbo_idx_})
        for (IndexedBinding& b : *v)
            if (b.buffer == name) b = {};
    // Only the bound vertex array loses its attachments (GL ES 3.2 §6.1.1).
    if (vao_->element_buffer == name) vao_->element_buffer = 0;
    for (VertexAttrib& a : vao_->attribs)
        if (a.buffer == name) a.buffer = 0, a.pointer = nullptr;
}

bool State::set_active_unit(uint32_t u) {
    if (u >= units_.size()) return false;
    active_unit_ = u;
    return true;
}

// ---------------------------------------------------------------------------
// Caps
// ---------------------------------------------------------------------------

namespace {
constexpr GLenum kCaps[] = {GL_BLEND,
                            GL_CULL_FACE,
                            GL_DEPTH_TEST,
                            GL_DITHER,
                            GL_POLYGON_OFFSET_FILL,
                            GL_SAMPLE_ALPHA_TO_COVERAGE,
                            GL_SAMPLE_COVERAGE,
                            GL_SCISSOR_TEST,
                            GL_STENCIL_TEST,
                            GL_PRIMITIVE_RESTART_FIXED_INDEX,
                            GL_RASTERIZER_DISCARD,
                            GL_SAMPLE_MASK,
                            GL_DEBUG_OUTPUT,
                            GL_DEBUG_OUTPUT_SYNCHRONOUS,
                            GL_SAMPLE_SHADING};
int cap_bit(GLenum cap) {
    for (size_t k = 0; k < std::size(kCaps); ++k)
        if (kCaps[k] == cap) return int(k);
    return -1;
}
}  // namespace

bool State::set_cap(GLenum cap, bool on) {
    const int b = cap_bit(cap);
    if (b < 0) return false;
    if (on) caps_ |= 1u << b;
    else caps_ &= ~(1u << b);
    return true;
}

bool State::cap(GLenum cap, bool* on) const {
    const int b = cap_bit(cap);
    if (b < 0) return false;
    *on = (caps_ >> b) & 1u;
    return true;
}

bool State::set_pixel_store(GLenum pname, GLint value) {
    switch (pname) {
        case GL_UNPACK_ALIGNMENT: unpack.alignment = value; return true;
        case GL_UNPACK_ROW_LENGTH: unpack.row_length = value; return true;
        case GL_UNPACK_IMAGE_HEIGHT: unpack.image_height = value; return true;
        case GL_UNPACK_SKIP_PIXELS: unpack.skip_pixels = value; return true;
        case GL_UNPACK_SKIP_ROWS: unpack.skip_rows = value; return true;
        case GL_UNPACK_SKIP_IMAGES: unpack.skip_images = value; return true;
        case GL_PACK_ALIGNMENT: pack.alignment = value; return true;
        case GL_PACK_ROW_LENGTH: pack.row_length = value; return true;
        case GL_PACK_SKIP_PIXELS: pack.skip_pixels = value; return true;
        case GL_PACK_SKIP_ROWS: pack.skip_rows = value; return true;
        // Desktop GL's (pixel_store_desktop.cc decides which values are served).
        case 0x806C /* GL_PACK_IMAGE_HEIGHT */: pack.image_height = value; return true;
        case 0x806B /* GL_PACK_SKIP_IMAGES */: pack.skip_images = value; return true;
        case 0x0D00 /* GL_PACK_SWAP_BYTES */: pack.swap_bytes = value; return true;
        case 0x0D01 /* GL_PACK_LSB_FIRST */: pack.lsb_first = value; return true;
        case 0x0CF0 /* GL_UNPACK_SWAP_BYTES */: unpack.swap_bytes = value; return true;
        case 0x0CF1 /* GL_UNPACK_LSB_FIRST */: unpack.lsb_first = value; return true;
        default: return false;
    }
}

// ---------------------------------------------------------------------------
// glGet from the shadow
// ---------------------------------------------------------------------------

bool State::get(GLenum pname, QueryValue* out) const {
    using Q = QueryValue;
    const TextureUnit& u = units_[active_unit_];
    bool on = false;
    if (cap(pname, &on)) {
        *out = Q::bools({on});
        return true;
    }
    switch (pname) {
        // bindings (client names)
        case GL_ARRAY_BUFFER_BINDING: *out = Q::ints({array_buffer_}); return true;
        case GL_ELEMENT_ARRAY_BUFFER_BINDING: *out = Q::ints({vao_->element_buffer}); return true;
        case GL_COPY_READ_BUFFER_BINDING: *out = Q::ints({copy_read_}); return true;
        case GL_COPY_WRITE_BUFFER_BINDING: *out = Q::ints({copy_write_}); return true;
        case GL_PIXEL_PACK_BUFFER_BINDING: *out = Q::ints({pixel_pack_}); return true;
        case GL_PIXEL_UNPACK_BUFFER_BINDING: *out = Q::ints({pixel_unpack_}); return true;
        case GL_UNIFORM_BUFFER_BINDING: *out = Q::ints({uniform_}); return true;
        case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: *out = Q::ints({tf_buffer_}); return true;
        case GL_DRAW_INDIRECT_BUFFER_BINDING: *out = Q::ints({draw_indirect_}); return true;
        case GL_DISPATCH_INDIRECT_BUFFER_BINDING: *out = Q::ints({dispatch_indirect_}); return true;
        case GL_ATOMIC_COUNTER_BUFFER_BINDING: *out = Q::ints({atomic_counter_}); return true;
        case GL_SHADER_STORAGE_BUFFER_BINDING: *out = Q::ints({shader_storage_}); return true;
        case GL_TEXTURE_BUFFER_BINDING: *out = Q::ints({texture_buffer_}); return true;
        case GL_VERTEX_ARRAY_BINDING: *out = Q::ints({vao_name_}); return true;
        case GL_FRAMEBUFFER_BINDING: *out = Q::ints({draw_fbo}); return true;  // == GL_DRAW_FRAMEBUFFER_BINDING
        case GL_READ_FRAMEBUFFER_BINDING: *out = Q::ints({read_fbo}); return true;
        case GL_RENDERBUFFER_BINDING: *out = Q::ints({renderbuffer}); return true;
        case GL_CURRENT_PROGRAM: *out = Q::ints({program}); return true;
        case GL_TRANSFORM_FEEDBACK_BINDING: *out = Q::ints({transform_feedback}); return true;
        case GL_ACTIVE_TEXTURE: *out = Q::ints({int64_t(GL_TEXTURE0 + active_unit_)}); return true;
        case GL_TEXTURE_BINDING_2D: *out = Q::ints({u.tex_2d}); return true;
        case GL_TEXTURE_BINDING_CUBE_MAP: *out = Q::ints({u.tex_cube}); return true;
        case GL_TEXTURE_BINDING_3D: *out = Q::ints({u.tex_3d}); return true;
        case GL_TEXTURE_BINDING_2D_ARRAY: *out = Q::ints({u.tex_2d_array}); return true;
        case GL_TEXTURE_BINDING_EXTERNAL_OES: *out = Q::ints({u.tex_external}); return true;
        case GL_TEXTURE_BINDING_CUBE_MAP_ARRAY: *out = Q::ints({u.tex_cube_array}); return true;
        case GL_TEXTURE_BINDING_2D_MULTISAMPLE: *out = Q::ints({u.tex_2d_ms}); return true;
        case GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY: *out = Q::ints({u.tex_2d_ms_array}); return true;
        case GL_TEXTURE_BINDING_BUFFER: *out = Q::ints({u.tex_buffer}); return true;
        case 0x8068: *out = Q::ints({u.tex_1d}); return true;        // GL_TEXTURE_BINDING_1D
        case 0x8C1C: *out = Q::ints({u.tex_1d_array}); return true;  // GL_TEXTURE_BINDING_1D_ARRAY
        case 0x84F6: *out = Q::ints({u.tex_rect}); return true;      // GL_TEXTURE_BINDING_RECTANGLE
        case GL_SAMPLER_BINDING: *out = Q::ints({u.sampler}); return true;
        // rasterisation and per-fragment state
        case GL_VIEWPORT:
            if (viewport_indexed) return false;
            *out = Q::ints({viewport[0], viewport[1], viewport[2], viewport[3]}); return true;
        case GL_SCISSOR_BOX:
            if (viewport_indexed) return false;
            *out = Q::ints({scissor[0], scissor[1], scissor[2], scissor[3]}); return true;
        case GL_COLOR_CLEAR_VALUE:
            *out = Q::floats({clear_color[0], clear_color[1], clear_color[2], clear_color[3]}, true);
            return true;
        case GL_DEPTH_CLEAR_VALUE: *out = Q::floats({clear_depth}, true); return true;
        case GL_STENCIL_CLEAR_VALUE: *out = Q::ints({clear_stencil}); return true;
        case GL_COLOR_WRITEMASK:
            *out = Q::bools({bool(color_mask[0]), bool(color_mask[1]), bool(color_mask[2]), bool(color_mask[3])});
            return true;
        case GL_DEPTH_WRITEMASK: *out = Q::bools({bool(depth_mask)}); return true;
        case GL_DEPTH_FUNC: *out = Q::ints({depth_func}); return true;
        case GL_DEPTH_RANGE:
            if (viewport_indexed) return false;
            *out = Q::floats({depth_range[0], depth_range[1]}, true); return true;
        case GL_CULL_FACE_MODE: *out = Q::ints({cull_face}); return true;
        case GL_FRONT_FACE: *out = Q::ints({front_face}); return true;
        case GL_BLEND_SRC_RGB: *out = Q::ints({blend_src_rgb}); return true;
        case GL_BLEND_DST_RGB: *out = Q::ints({blend_dst_rgb}); return true;
        case GL_BLEND_SRC_ALPHA: *out = Q::ints({blend_src_alpha}); return true;
        case GL_BLEND_DST_ALPHA: *out = Q::ints({blend_dst_alpha}); return true;
        case GL_BLEND_EQUATION_RGB: *out = Q::ints({blend_eq_rgb}); return true;  // == GL_BLEND_EQUATION
        case GL_BLEND_EQUATION_ALPHA: *out = Q::ints({blend_eq_alpha}); return true;
        case GL_BLEND_COLOR:
            *out = Q::floats({blend_color[0], blend_color[1], blend_color[2], blend_color[3]}, true);
            return true;
        case GL_STENCIL_FUNC: *out = Q::ints({stencil_front.func}); return true;
        case GL_STENCIL_REF: *out = Q::ints({stencil_front.ref}); return true;
        case GL_STENCIL_VALUE_MASK: *out = Q::ints({int32_t(stencil_front.value_mask)}); return true;
        case GL_STENCIL_FAIL: *out = Q::ints({stencil_front.fail}); return true;
        case GL_STENCIL_PASS_DEPTH_FAIL: *out = Q::ints({stencil_front.zfail}); return true;
        case GL_STENCIL_PASS_DEPTH_PASS: *out = Q::ints({stencil_front.zpass}); return true;
        case GL_STENCIL_WRITEMASK: *out = Q::ints({int32_t(stencil_front.write_mask)}); return true;
        case GL_STENCIL_BACK_FUNC: *out = Q::ints({stencil_back.func}); return true;
        case GL_STENCIL_BACK_REF: *out = Q::ints({stencil_back.ref}); return true;
        case GL_STENCIL_BACK_VALUE_MASK: *out = Q::ints({int32_t(stencil_back.value_mask)}); return true;
        case GL_STENCIL_BACK_FAIL: *out = Q::ints({stencil_back.fail}); return true;
        case GL_STENCIL_BACK_PASS_DEPTH_FAIL: *out = Q::ints({stencil_back.zfail}); return true;
        case GL_STENCIL_BACK_PASS_DEPTH_PASS: *out = Q::ints({stencil_back.zpass}); return true;
        case GL_STENCIL_BACK_WRITEMASK: *out = Q::ints({int32_t(stencil_back.write_mask)}); return true;
        case GL_LINE_WIDTH: *out = Q::floats({line_width}); return true;
        case GL_POLYGON_OFFSET_FACTOR: *out = Q::floats({polygon_offset_factor}); return true;
        case GL_POLYGON_OFFSET_UNITS: *out = Q::floats({polygon_offset_units}); return true;
        case GL_SAMPLE_COVERAGE_VALUE: *out = Q::floats({sample_coverage_value}); return true;
        case GL_SAMPLE_COVERAGE_INVERT: *out = Q::bools({bool(sample_coverage_invert)}); return true;
        case GL_GENERATE_MIPMAP_HINT: *out = Q::ints({hint_mipmap}); return true;
        case GL_FRAGMENT_SHADER_DERIVATIVE_HINT: *out = Q::ints({hint_derivative}); return true;
        // pixel store
        case GL_UNPACK_ALIGNMENT: *out = Q::ints({unpack.alignment}); return true;
        case GL_UNPACK_ROW_LENGTH: *out = Q::ints({unpack.row_length}); return true;
        case GL_UNPACK_IMAGE_HEIGHT: *out = Q::ints({unpack.image_height}); return true;
        case GL_UNPACK_SKIP_PIXELS: *out = Q::ints({unpack.skip_pixels}); return true;
        case GL_UNPACK_SKIP_ROWS: *out = Q::ints({unpack.skip_rows}); return true;
        case GL_UNPACK_SKIP_IMAGES: *out = Q::ints({unpack.skip_images}); return true;
        case GL_PACK_ALIGNMENT: *out = Q::ints({pack.alignment}); return true;
        case GL_PACK_ROW_LENGTH: *out = Q::ints({pack.row_length}); return true;
        case GL_PACK_SKIP_PIXELS: *out = Q::ints({pack.skip_pixels}); return true;
        case GL_PACK_SKIP_ROWS: *out = Q::ints({pack.skip_rows}); return true;
        default: return false;
    }
}

}  // namespace mgl::client
