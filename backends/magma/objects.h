// GL objects as Magma keeps them: client names map straight to these (names
// are minted by the client), per share group or per context as GL says.
#pragma once

#include <GLES3/gl32.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "buffer_rules.h"

// Desktop texture targets Magma serves that the GLES headers lack.
#ifndef GL_TEXTURE_1D
#define GL_TEXTURE_1D 0x0DE0
#endif
#ifndef GL_TEXTURE_1D_ARRAY
#define GL_TEXTURE_1D_ARRAY 0x8C18
#endif
#ifndef GL_TEXTURE_RECTANGLE
#define GL_TEXTURE_RECTANGLE 0x84F5
#endif

#include "formats.h"
#include "gpu.h"
#include "atomic_counter_rules.h"
#include "image_rules.h"
#include "compute_rules.h"
#include "debug_output.h"
#include "desktop_state.h"
#include "tessellation_rules.h"
#include "shaders.h"

namespace mgl::magma {

class Gpu;

// A buffer's bytes live in host-visible memory. A write into a buffer the GPU
// may still read must not change what the GPU reads: a small buffer (or one
// replaced whole) gets fresh memory ("renaming"); a partial write into a
// large one is staged and copied by the GPU in order (buffers.cc), so its
// cost follows the bytes written. Uploads never wait for the GPU.
struct Buffer {
    Gpu* gpu = nullptr;  // frees the Vulkan objects (after the GPU is done) when the last user lets go
    VkBuf vk;
    uint64_t size = 0;
    uint32_t usage = GL_STATIC_DRAW;
    uint64_t used_serial = 0;  // last batch that reads it
    // Last batch with a staged GPU copy into it: until it is done the host
    // copy is stale (host reads wait) and later writes go through the GPU too.
    uint64_t write_serial = 0;
    bool write_in_main = false;  // that copy is in main (later ones must follow it there)
    // glBufferStorage's immutable store (never renamed: an in-process client
    // may hold a persistent mapping of it) and its mapping (buffer_storage.cc).
    bool immutable = false;
    uint32_t storage_flags = 0;
    bool mapped = false;
    uint32_t map_access = 0;
    uint64_t map_offset = 0, map_length = 0;
    explicit Buffer(Gpu* g = nullptr) : gpu(g) {}
    ~Buffer();
};

// The front end's view of a buffer's store, for GL's buffer rules
// (backends/gl/state/buffer_rules.h).
inline gl::BufferStore store_of(const Buffer& b) {
    gl::BufferStore s;
    s.size = int64_t(b.size);
    s.immutable = b.immutable;
    if (b.immutable) s.flags = b.storage_flags;
    s.mapped = b.mapped;
    s.map_access = b.map_access;
    return s;
}

struct TexParams {
    GLenum min_filter = GL_NEAREST_MIPMAP_LINEAR, mag_filter = GL_LINEAR;
    GLenum wrap_s = GL_REPEAT, wrap_t = GL_REPEAT, wrap_r = GL_REPEAT;
    float min_lod = -1000.0f, max_lod = 1000.0f, anisotropy = 1.0f;
    GLenum compare_mode = GL_NONE, compare_func = GL_LEQUAL;
    float lod_bias = 0.0f;                           // GL_TEXTURE_LOD_BIAS (desktop)
    std::array<float, 4> border{0.0f, 0.0f, 0.0f, 0.0f};  // GL_TEXTURE_BORDER_COLOR
};

struct Texture {
    Gpu* gpu = nullptr;
    GLenum target = 0;  // 0 until first bound
    Image img;
    TexFormat fmt;
    bool has_format = false, immutable = false;
    int immutable_levels = 0;  // glTexStorage's levels (the image always has the full chain)
    uint32_t defined = 0;  // bit per level with contents
    TexParams params;
    int base_level = 0, max_level = 1000;
    // GL_TEXTURE_SWIZZLE_R/G/B/A, applied by the sampled view's component mapping.
    std::array<GLenum, 4> swizzle{GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
    // GL_DEPTH_TEXTURE_MODE; 0: the context's initial one (gl::initial_depth_texture_mode).
    GLenum depth_mode = 0;
    // Sampled view, recreated when the image, the levels or the swizzle change
    // (view_swizzle: the one it applies, after the depth texture mode).
    VkImageView view = VK_NULL_HANDLE;
    uint32_t view_base = 0, view_levels = 0;
    std::array<GLenum, 4> view_swizzle{GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
    std::map<uint64_t, VkImageView> attach_views;  // (level, layer) -> view
    uint64_t generation = 0;                       // bumps when the image is replaced
    bool fixed_locations = false;                  // GL_TEXTURE_FIXED_SAMPLE_LOCATIONS (multisample)
    bool storage = false;                          // its image can be a storage image (images.cc)
    explicit Texture(Gpu* g = nullptr) : gpu(g) {}
    ~Texture();
};

// The levels GL samples with `min_filter` (from the base level); false when
// the texture is incomplete for it (samplers.cc).
bool sampled_levels(const Texture& t, GLenum min_filter, uint32_t& base, uint32_t& count);

struct Renderbuffer {
    Gpu* gpu = nullptr;
    Image img;
    TexFormat fmt;
    VkImageView view = VK_NULL_HANDLE;
    uint64_t generation = 0;
    explicit Renderbuffer(Gpu* g = nullptr) : gpu(g) {}
    ~Renderbuffer();
};

struct Sampler {
    TexParams params;
};

struct Shader {
    GLenum type = 0;
    std::string source;
    bool compiled = false, deleted = false;
    std::string log;
};

// What a successful link made: SPIR-V modules, layouts, uniform storage,
// the pipelines built for it so far.
struct Executable {
    Gpu* gpu = nullptr;
    LinkedProgram linked;
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE, gs = VK_NULL_HANDLE;  // gs: none
    VkShaderModule tcs = VK_NULL_HANDLE, tes = VK_NULL_HANDLE;  // tessellation (none: VK_NULL_HANDLE)
    // A compute program: its module and its one pipeline (made at link).
    VkShaderModule cs = VK_NULL_HANDLE;
    VkPipeline compute = VK_NULL_HANDLE;
    bool flat = false;  // the fragment shader has flat inputs
    // Set 0: samplers and uniform blocks; set 1: the default block (dynamic offset).
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE, defaults_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::vector<uint8_t> defaults;  // the default uniform block (std140)
    bool defaults_dirty = true;
    uint64_t defaults_serial = 0;   // batch of the streamed copy
    VkBuffer defaults_buf = VK_NULL_HANDLE;
    uint32_t defaults_offset = 0;
    // How the default block is bound: UNIFORM_BUFFER_DYNAMIC (each copy bound
    // by its dynamic offset), or STORAGE_BUFFER where the device's
    // default_block_storage asks for it: the vertex and geometry stages read
    // a storage buffer and the fragment stage a uniform buffer, both at the
    // copy's offset (a set per copy).
    VkDescriptorType defaults_type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
    VkDescriptorSet defaults_set = VK_NULL_HANDLE;  // set 1 for defaults_buf, in batch defaults_set_serial
    VkBuffer defaults_set_buf = VK_NULL_HANDLE;
    uint32_t defaults_set_offset = 0;  // the copy a STORAGE_BUFFER set holds
    uint64_t defaults_set_serial = 0;
    // The driver uniform of gl_FragCoord's origin_upper_left (driver_uniforms.h):
    // its offset in `defaults` (-1: none), taken out of linked.uniforms so that
    // no query shows it; draw() writes the target's height there.
    int draw_height_offset = -1;
    int alpha_test_offset = -1;  // gl::kAlphaTestUniform's (vec2), which draw() writes
    int point_size_offset = -1, point_origin_offset = -1;  // gl::kPointSizeUniform's, kPointOriginUniform's (floats)
    int base_instance_offset = -1;  // gl::kBaseInstanceUniform's (int): the draw's base instance
    int clip_plane_offset = -1;  // gl::kClipPlaneUniform's (vec4[8], stride 16): the enabled user clip planes
    // GL location -> (uniform index, array element)
    std::vector<std::pair<int, int>> locations;
    std::vector<std::vector<int>> sampler_units;  // per uniform (samplers only): unit per element
    std::vector<GLuint> block_bindings;          // per user block: GL binding point
    std::vector<GLuint> storage_bindings;        // per storage block: GL binding point (glShaderStorageBlockBinding)
    // GL attribute index -> shader location (and slots)
    struct Attr {
        int gl_index;
        int location;
        int slots;
        GLenum type;
    };
    std::vector<Attr> attrs;
    std::unordered_map<std::string, VkPipeline> pipelines;  // key bytes -> pipeline
    // The last descriptor set and what it holds: reused while nothing changes.
    std::vector<uint64_t> set_key;
    VkDescriptorSet set = VK_NULL_HANDLE;
    uint64_t set_serial = 0;
    ~Executable();
};

// The descriptor bindings of a link's storage blocks and atomic counter
// buffers, for graphics and compute executables alike (exe.storage_bindings
// filled too). Empty, or why the link fails: a counter binding past the
// device's GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS.
std::string add_storage_bindings(Executable& exe, const Device& dev, VkShaderStageFlags stages,
                                 std::vector<VkDescriptorSetLayoutBinding>& bindings);

struct Program {
    std::vector<std::shared_ptr<Shader>> shaders;
    XfbRequest xfb;  // glTransformFeedbackVaryings, used by the next link
    std::map<std::string, GLuint> bound_attribs;
    FragBindings bound_outputs;  // glBindFragDataLocation (desktop contexts)
    bool linked = false, deleted = false, validated = false;
    std::string log;
    std::shared_ptr<Executable> exe;
};

struct Attrib {
    bool enabled = false;
    GLint size = 4;
    GLenum type = GL_FLOAT;
    bool normalized = false, integer = false;
    GLsizei stride = 0;
    uint64_t offset = 0;
    std::shared_ptr<Buffer> buffer;
    GLuint divisor = 0;
};

struct VertexArray {
    std::array<Attrib, 16> attribs;
    std::shared_ptr<Buffer> elements;
    bool bound_once = false;  // GL: a generated name is a vertex array only once bound
};

struct Attachment {
    GLenum kind = 0;  // GL_TEXTURE, GL_RENDERBUFFER or 0
    std::shared_ptr<Texture> tex;
    std::shared_ptr<Renderbuffer> rb;
    int level = 0, layer = 0;
    GLuint name = 0;  // the client's name, for attachment queries
};

struct Framebuffer {
    Gpu* gpu = nullptr;
    std::array<Attachment, kMaxColorAttachments> color;
    Attachment depth, stencil;
    uint64_t generation = 1;
    // Vulkan framebuffer for the current attachments.
    VkFramebuffer fb = VK_NULL_HANDLE;
    std::string fb_key;
    // glDrawBuffers: buffer i is GL_COLOR_ATTACHMENTi or GL_NONE (ES 3.0 allows nothing else).
    std::array<GLenum, kMaxColorAttachments> draw_buffers{GL_COLOR_ATTACHMENT0};  // the rest GL_NONE (0)
    GLenum read_buffer = GL_COLOR_ATTACHMENT0;
    explicit Framebuffer(Gpu* g = nullptr) : gpu(g) {}
    ~Framebuffer();
};

// A GL query object (occlusion: GL_ANY_SAMPLES_PASSED[_CONSERVATIVE]).
struct Query {
    Gpu* gpu = nullptr;
    GLenum target = 0;
    OcclusionQuery occ;
    bool active = false, has_result = false;
    uint64_t result = 0;
    explicit Query(Gpu* g, GLenum t) : gpu(g), target(t) {}
    ~Query() { if (gpu) gpu->release_query(occ); }
};

struct Sync {
    uint64_t serial = 0;
};

struct ShareGroup {
    std::unordered_map<GLuint, std::shared_ptr<Buffer>> buffers;
    std::unordered_map<GLuint, std::shared_ptr<Texture>> textures;
    std::unordered_map<GLuint, std::shared_ptr<Renderbuffer>> renderbuffers;
    std::unordered_map<GLuint, std::shared_ptr<Sampler>> samplers;
    std::unordered_map<GLuint, std::shared_ptr<Shader>> shaders;
    std::unordered_map<GLuint, std::shared_ptr<Program>> programs;
    std::unordered_map<GLuint, Sync> syncs;
    // KHR_debug object labels (debug_output.cc), by (identifier, name), each
    // tied to the object it was given to: a name deleted and reused has none.
    struct Label {
        std::weak_ptr<void> object;
        std::string text;
    };
    std::map<std::pair<GLenum, GLuint>, Label> labels;
    size_t labels_swept = 0;  // labels.size() after the last sweep of deleted objects' labels
};

// A client surface: an offscreen color image (RGBA8) and depth/stencil.
// Multisampled (an EGL_SAMPLES config): draws go to ms_color and a
// multisampled ds; `color` holds single-sampled pixels, resolved from ms_color
// when GL observes the surface (resolve_surface: swap, reads, copies).
struct Surface {
    uint32_t id = 0;
    bool window = false;
    int width = 0, height = 0;
    bool has_depth = false;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    Image color, ds, ms_color;
    VkImageView color_view = VK_NULL_HANDLE, ds_view = VK_NULL_HANDLE, ms_view = VK_NULL_HANDLE;
    uint64_t resolved_pass = 0;  // ms_color.used_pass when `color` was last resolved from it
    VkFramebuffer fb = VK_NULL_HANDLE;
    uint64_t generation = 1;
    std::vector<uint8_t> front;  // last presented frame (window surfaces)
    int front_width = 0, front_height = 0;
    // Window swaps in flight: each frame is copied into a host-visible buffer
    // by its batch and presented once that batch completes; at most
    // kReadbacks frames are in flight (a swap waits for the oldest beyond).
    static constexpr int kReadbacks = 2;
    struct Readback {
        VkBuf buf;
        uint64_t serial = 0, frame = 0;
        int width = 0, height = 0;
        bool pending = false;
    };
    std::array<Readback, kReadbacks> readbacks;
    int next_readback = 0;
};

struct StencilFace {
    GLenum func = GL_ALWAYS, fail = GL_KEEP, zfail = GL_KEEP, zpass = GL_KEEP;
    GLint ref = 0;
    GLuint mask = ~0u, writemask = ~0u;
};

struct State {
    bool blend = false, cull = false, depth_test = false, stencil_test = false, scissor_test = false,
         polygon_offset = false, primitive_restart = false, rasterizer_discard = false, dither = true;
    bool alpha_to_coverage = false, sample_coverage = false;  // act on multisampled targets only
    float coverage_value = 1.0f;
    bool coverage_invert = false;
    GLenum blend_src_rgb = GL_ONE, blend_dst_rgb = GL_ZERO, blend_src_a = GL_ONE, blend_dst_a = GL_ZERO;
    GLenum blend_eq_rgb = GL_FUNC_ADD, blend_eq_a = GL_FUNC_ADD;
    float blend_color[4] = {0, 0, 0, 0};
    bool color_mask[4] = {true, true, true, true};
    bool depth_mask = true;
    GLenum depth_func = GL_LESS;
    float depth_near = 0.0f, depth_far = 1.0f;
    GLenum cull_face = GL_BACK, front_face = GL_CCW;
    StencilFace stencil[2];  // front, back
    int viewport[4] = {0, 0, 0, 0};
    int scissor[4] = {0, 0, 0, 0};
    float clear_color[4] = {0, 0, 0, 0};
    float clear_depth = 1.0f;
    GLint clear_stencil = 0;
    float line_width = 1.0f;
    float offset_factor = 0.0f, offset_units = 0.0f;
    bool depth_clamp = false;  // GL_DEPTH_CLAMP (desktop)
    bool sample_mask = false;  // GL_SAMPLE_MASK (desktop) and glSampleMaski's word 0
    uint32_t sample_mask_value = 0xFFFFFFFFu;
};

// A transform feedback object (ES 3.0): its buffer bindings and whether it
// captures. Draws capture at `written` bytes into each binding, on the CPU's
// count (ES 3.0 captures glDrawArrays* only, so the vertex count is known).
struct TransformFeedback {
    struct Binding {
        std::shared_ptr<Buffer> buffer;
        uint64_t offset = 0, size = 0;  // size 0: to the end of the buffer
    };
    std::array<Binding, 4> bindings;
    bool active = false, paused = false, ever_bound = false;
    GLenum mode = 0;                        // glBeginTransformFeedback's primitive mode
    std::shared_ptr<Executable> exe;        // the program's executable at Begin
    std::array<uint64_t, 4> written{};      // bytes captured into each binding since Begin
};

struct Context {
    uint32_t id = 0;
    std::shared_ptr<ShareGroup> share;
    int major = 2;  // as requested
    // mglCreateContext's api (gl::kApiEs or gl::kApiDesktop) and profile
    // (gl::kProfileCore/Compat; 0 for ES); `served` the version it gets
    // (major*10+minor) and `extensions` what it lists (desktop_caps.cc).
    uint32_t api = 0x30A0, profile = 0;
    int served = 30;
    std::vector<std::string> extensions;
    bool desktop() const { return api == 0x30A2; }
    bool compatibility() const { return desktop() && profile == 2; }  // gl::kProfileCompat
    State st;
    // Desktop-only state the GL front end keeps (backends/gl/state) and what
    // Magma keeps beside it (desktop_state.cc).
    gl::DesktopState dstate;
    gl::PatchState patch;  // glPatchParameter* (desktop contexts on a tessellating device)
    bool point_size_said = false;  // glPointSize's "not emulated" logged once
    bool framebuffer_srgb = false;
    uint8_t clip_planes = 0;  // GL_CLIP_DISTANCEi enables
    PixelStore unpack, pack;
    bool unpack_swap = false;  // desktop GL_UNPACK_SWAP_BYTES (desktop uploads convert with it)
    bool viewport_set = false;
    // Bindings.
    std::shared_ptr<Buffer> array_buffer, pixel_unpack, pixel_pack, uniform_buffer, copy_read, copy_write;
    struct Indexed {
        std::shared_ptr<Buffer> buffer;
        uint64_t offset = 0, size = 0;
    };
    std::array<Indexed, 24> uniform_bindings;
    // GL_SHADER_STORAGE_BUFFER's binding points (compute.cc) and the generic
    // bindings of GL_SHADER_STORAGE_BUFFER and GL_DISPATCH_INDIRECT_BUFFER.
    static constexpr size_t kStorageBindings = 16;
    std::array<Indexed, kStorageBindings> storage_bindings;
    std::shared_ptr<Buffer> storage_buffer, dispatch_indirect, draw_indirect;
    // GL_ATOMIC_COUNTER_BUFFER's binding points (atomic_counters.cc) and its generic binding.
    std::array<Indexed, gl::AtomicCounterLimits::kMaxBindings> counter_bindings;
    std::shared_ptr<Buffer> counter_buffer;
    // The image units (glBindImageTexture, images.cc); initial format GL_R8 (GL 4.6 table 23.45).
    struct ImageUnit {
        std::shared_ptr<Texture> tex;
        GLuint name = 0;
        GLint level = 0;
        bool layered = false;
        GLint layer = 0;
        GLenum access = gl::kInitialImageAccess;
        GLenum format = gl::kInitialImageFormat;
    };
    std::array<ImageUnit, gl::ImageLimits::kUnits> image_units;
    GLuint active_unit = 0;
    struct Unit {
        std::shared_ptr<Texture> tex2d, cube, tex3d, array2d, ms2d, ms2darray;
        // Desktop targets Vulkan images hold as 2D ones (the GL front end's
        // mapping, backends/gl/state/texture_targets.h): 1D (height 1), 1D
        // arrays (2D arrays of height 1) and rectangle textures (one level).
        std::shared_ptr<Texture> tex1d, array1d, rect;
        std::shared_ptr<Sampler> sampler;
    };
    // GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS: ES 3.0's 32, desktop GL 3.2's 48
    // (glslang's gl_MaxCombinedTextureImageUnits the same: shaders.cc, resources()).
    std::array<Unit, 48> units;
    size_t unit_count() const { return desktop() ? 48 : 32; }
    std::map<GLenum, std::shared_ptr<Texture>> default_textures;  // texture name 0 per target
    std::shared_ptr<Program> program;
    std::shared_ptr<Renderbuffer> renderbuffer;
    std::unordered_map<GLuint, std::shared_ptr<Framebuffer>> framebuffers;
    std::shared_ptr<Framebuffer> draw_fb, read_fb;  // nullptr: the surface
    GLenum surface_draw_buffer = GL_BACK, surface_read_buffer = GL_BACK;  // or GL_NONE
    std::unordered_map<GLuint, std::shared_ptr<VertexArray>> vaos;
    // Query names (nullptr: generated, never begun) and the active occlusion query.
    std::unordered_map<GLuint, std::shared_ptr<Query>> queries;
    std::shared_ptr<Query> occlusion;
    std::shared_ptr<Query> xfb_query;  // the active GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN query
    // Transform feedback objects (name 0: the default one) and the bound one;
    // the generic GL_TRANSFORM_FEEDBACK_BUFFER binding.
    std::unordered_map<GLuint, std::shared_ptr<TransformFeedback>> xfbs;
    std::shared_ptr<TransformFeedback> default_xfb = std::make_shared<TransformFeedback>();
    std::shared_ptr<TransformFeedback> xfb = default_xfb;
    std::shared_ptr<Buffer> xfb_buffer;
    std::shared_ptr<VertexArray> default_vao = std::make_shared<VertexArray>();
    std::shared_ptr<VertexArray> vao = default_vao;
    float generic[16][4] = {};
    uint32_t pending_error = 0;
    gl::DebugOutput debug{false};  // KHR_debug's log, filter and groups (debug_output.cc)
    uint32_t draw = 0, read = 0;
    bool doomed = false;
    explicit Context(std::shared_ptr<ShareGroup> g) : share(std::move(g)) {
        for (auto& g4 : generic) g4[3] = 1.0f;
    }
};

}  // namespace mgl::magma
