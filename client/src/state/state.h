// The client's shadow of GL state: what glGet*, glIsEnabled and the client
// array logic need without a round trip. Only state that the client itself
// sets is shadowed (every call that changes it goes through a hook in
// client/src/custom/); state the server computes (framebuffer bits, object
// parameters, query results) is asked for.
//
// Object names are always the CLIENT's names: the server maps them to its
// backend's names, so the shadow is the only place that can report them.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "gl_ctypes.h"

namespace mgl::client {

// A queried value before conversion to the caller's type (GL's glGet rules).
struct QueryValue {
    enum class Kind : uint8_t { integer, floating, boolean, integer64 };
    Kind kind = Kind::integer;
    uint8_t count = 1;
    bool normalized = false;  // float state mapped to [INT_MIN, INT_MAX] by glGetIntegerv (colors, depth)
    std::array<int64_t, 16> i{};
    std::array<double, 16> f{};

    static QueryValue ints(std::initializer_list<int64_t> v);
    static QueryValue int64s(std::initializer_list<int64_t> v);
    static QueryValue floats(std::initializer_list<double> v, bool normalized = false);
    static QueryValue bools(std::initializer_list<bool> v);

    void to(GLint* out) const;
    void to(GLint64* out) const;
    void to(GLfloat* out) const;
    void to(GLdouble* out) const;
    void to(GLboolean* out) const;
};

struct VertexAttrib {
    bool enabled = false;
    bool normalized = false;
    bool integer = false;
    GLint size = 4;
    GLenum type = GL_FLOAT;
    GLsizei stride = 0;
    GLuint divisor = 0;
    uint32_t buffer = 0;          // client name; 0 with a pointer: client memory
    const void* pointer = nullptr;  // offset into `buffer`, or client memory
};

struct VertexArray {
    uint32_t element_buffer = 0;
    std::vector<VertexAttrib> attribs;  // max vertex attribs entries
};

struct IndexedBinding {
    uint32_t buffer = 0;
    int64_t offset = 0;
    int64_t size = 0;
};

struct TextureUnit {
    uint32_t tex_2d = 0, tex_cube = 0, tex_3d = 0, tex_2d_array = 0, tex_external = 0, tex_cube_array = 0,
             tex_2d_ms = 0, tex_2d_ms_array = 0, tex_buffer = 0;
    // Desktop targets (bound on desktop contexts only; a GLES server refuses them).
    uint32_t tex_1d = 0, tex_1d_array = 0, tex_rect = 0;
    uint32_t sampler = 0;
    uint32_t* slot(GLenum target);
};

struct StencilFace {
    GLenum func = GL_ALWAYS;
    GLint ref = 0;
    GLuint value_mask = 0xFFFFFFFFu;
    GLenum fail = GL_KEEP, zfail = GL_KEEP, zpass = GL_KEEP;
    GLuint write_mask = 0xFFFFFFFFu;
};

class State {
public:
    // max_attribs / max_units size the arrays (limits of the server context).
    void reset(int max_attribs, int max_units);

    // ---- bindings ----
    uint32_t* buffer_slot(GLenum target);         // nullptr: not a buffer target the shadow knows
    uint32_t bound_buffer(GLenum target) const;   // 0 when unknown
    std::vector<IndexedBinding>* indexed(GLenum target);
    VertexArray& vao() { return *vao_; }
    uint32_t vao_name() const { return vao_name_; }
    void bind_vertex_array(uint32_t name);
    void delete_vertex_array(uint32_t name);
    void forget_buffer(uint32_t name);  // glDeleteBuffers: bindings revert to 0
    TextureUnit& unit() { return units_[active_unit_]; }
    std::vector<TextureUnit>& units() { return units_; }
    uint32_t active_unit() const { return active_unit_; }
    bool set_active_unit(uint32_t u);

    // ---- caps ----
    // Returns false for caps the shadow does not track (asked for instead).
    bool set_cap(GLenum cap, bool on);
    bool cap(GLenum cap, bool* on) const;

    // A glGet* value from the shadow; false when the shadow does not hold it.
    bool get(GLenum pname, QueryValue* out) const;

    // Fields set directly by the hooks.
    uint32_t draw_fbo = 0, read_fbo = 0, renderbuffer = 0, program = 0, transform_feedback = 0;
    uint32_t pipeline = 0;  // glBindProgramPipeline (drawn with while program is 0)
    GLint viewport[4] = {0, 0, 0, 0};
    // Set once the context uses indexed viewports/scissors/depth ranges
    // (viewport arrays): their queries are then answered by the server.
    bool viewport_indexed = false;
    GLint scissor[4] = {0, 0, 0, 0};
    GLfloat clear_color[4] = {0, 0, 0, 0};
    GLfloat clear_depth = 1.0f;
    GLint clear_stencil = 0;
    GLboolean color_mask[4] = {GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE};
    GLboolean depth_mask = GL_TRUE;
    GLenum depth_func = GL_LESS;
    GLfloat depth_range[2] = {0.0f, 1.0f};
    GLenum cull_face = GL_BACK, front_face = GL_CCW;
    GLenum blend_src_rgb = GL_ONE, blend_dst_rgb = GL_ZERO, blend_src_alpha = GL_ONE, blend_dst_alpha = GL_ZERO;
    GLenum blend_eq_rgb = GL_FUNC_ADD, blend_eq_alpha = GL_FUNC_ADD;
    GLfloat blend_color[4] = {0, 0, 0, 0};
    StencilFace stencil_front, stencil_back;
    GLfloat line_width = 1.0f;
    GLfloat polygon_offset_factor = 0.0f, polygon_offset_units = 0.0f;
    GLfloat sample_coverage_value = 1.0f;
    GLboolean sample_coverage_invert = GL_FALSE;
    GLenum hint_mipmap = GL_DONT_CARE, hint_derivative = GL_DONT_CARE;

    // Pixel store (GL_UNPACK_* / GL_PACK_*): compsize reads them.
    struct PixelStore {
        GLint alignment = 4, row_length = 0, image_height = 0, skip_pixels = 0, skip_rows = 0, skip_images = 0;
        GLint swap_bytes = 0, lsb_first = 0;  // desktop GL only
    } unpack, pack;
    GLenum clamp_read_color = 0x891D;  // GL_FIXED_ONLY (desktop GL only)
    bool provoking_first = false;  // glProvokingVertex(GL_FIRST_VERTEX_CONVENTION) (desktop GL only)
    // GL_CLAMP_VERTEX_COLOR, GL_CLAMP_FRAGMENT_COLOR (compatibility profile):
    // state answered from here (pixel_store_desktop.cc says what a GLES host does).
    GLenum clamp_vertex_color = 1, clamp_fragment_color = 0x891D;  // GL_TRUE, GL_FIXED_ONLY
    bool set_pixel_store(GLenum pname, GLint value);  // false: not a pixel store pname

private:
    std::unordered_map<uint32_t, VertexArray> vaos_;
    VertexArray* vao_ = nullptr;
    uint32_t vao_name_ = 0;
    int max_attribs_ = 16;
    std::vector<TextureUnit> units_;
    uint32_t active_unit_ = 0;
    uint32_t array_buffer_ = 0, copy_read_ = 0, copy_write_ = 0, pixel_pack_ = 0, pixel_unpack_ = 0, uniform_ = 0,
             tf_buffer_ = 0, draw_indirect_ = 0, dispatch_indirect_ = 0, atomic_counter_ = 0, shader_storage_ = 0,
             texture_buffer_ = 0;
    std::vector<IndexedBinding> uniform_idx_, tf_idx_, atomic_idx_, ssbo_idx_;
    uint32_t caps_ = 0;  // bit per tracked cap (see state.cc)
};

}  // namespace mgl::client
