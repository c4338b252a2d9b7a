// The compatibility profile's fixed-function pipeline, lowered on the client
// (docs/ARCHITECTURE-gl-frontend.md, "Compatibility lowering", says why here):
// matrix stacks, lights, materials, the current vertex attributes, immediate
// mode (glBegin/glEnd packed into one vertex array per glEnd), display lists,
// and draws through generated GLSL programs (ff_shader.cc) keyed by the state
// that shapes them. Everything it sends is ordinary GL records that every
// backend serves (shaders, uniforms, buffers, vertex arrays, draws).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "compat/matrix.h"
#include "gl_ctypes.h"
#include "state/state.h"

namespace mgl::client {
struct Context;
struct QueryValue;
}

namespace mgl::client::compat {

struct AppPrograms;  // program_builtins.h

inline constexpr int kMaxLights = 8;
inline constexpr int kMaxTexUnits = 8;  // GL_MAX_TEXTURE_UNITS / _COORDS, as Mesa's
inline constexpr int kStackDepth = 32;
inline constexpr int kMaxClipPlanes = 8;
inline constexpr int kAttribStackDepth = 16;
inline constexpr int kMaxListNesting = 64;

// Vertex attributes of the fixed-function vertex (and their locations in
// every generated program).
enum Attr : int { kPos = 0, kNormal = 1, kColor = 2, kColor2 = 3, kFog = 4, kTex0 = 5, kAttrCount = kTex0 + kMaxTexUnits };
// Generic vertex attributes immediate mode carries per vertex (glVertexAttrib*
// between glBegin and glEnd): GL_MAX_VERTEX_ATTRIBS of the hosts served.
inline constexpr int kMaxGeneric = 16;
// Client-state arrays no generated program reads: edge flags (read on the
// client by the polygon-mode stage, ff_unfilled.cc) and colour indices (no
// colour-index visuals). Their state is kept for glGet and the attribute stacks.
enum : int { kEdge = kAttrCount, kIndex = kAttrCount + 1 };
// Each attribute's name in generated programs, and in an application's
// program whose built-ins the GL front end lowered (backends/gl/shaders/
// compat_builtins.cc gives them the same locations).
inline constexpr std::array<const char*, kAttrCount> kAttrNames = {
    "mgl_Vertex",         "mgl_Normal",         "mgl_Color",          "mgl_SecondaryColor", "mgl_FogCoord",
    "mgl_MultiTexCoord0", "mgl_MultiTexCoord1", "mgl_MultiTexCoord2", "mgl_MultiTexCoord3", "mgl_MultiTexCoord4",
    "mgl_MultiTexCoord5", "mgl_MultiTexCoord6", "mgl_MultiTexCoord7"};
static_assert(kMaxTexUnits == 8, "kAttrNames names every unit's coordinates");

// The texture targets fixed-function texturing samples, as enable bits.
enum TexTarget : uint8_t { kTex1D = 1, kTex2D = 2, kTex3D = 4, kTexCube = 8, kTexRect = 16 };

struct Light {
    float ambient[4] = {0, 0, 0, 1}, diffuse[4] = {0, 0, 0, 1}, specular[4] = {0, 0, 0, 1};
    float position[4] = {0, 0, 1, 0};  // eye space (transformed when set)
    float spot_dir[3] = {0, 0, -1};    // eye space
    float spot_exp = 0, spot_cutoff = 180;
    float att[3] = {1, 0, 0};
    bool enabled = false;
};

// A texture's base format as the texture environment sees it (GL 2.1 table 3.22).
enum TexFormat : uint8_t { kFormatRgba, kFormatRgb, kFormatAlpha, kFormatLuminance, kFormatLuminanceAlpha, kFormatIntensity };

// One texture unit's environment (GL 2.1 table 6.19; GL_COMBINE's state from ARB_texture_env_combine).
struct TexEnv {
    GLenum mode = 0x2100;  // GL_MODULATE
    float color[4] = {0, 0, 0, 0};
    GLenum combine_rgb = 0x2100, combine_alpha = 0x2100;
    GLenum source_rgb[3] = {0x1702, 0x8578, 0x8576}, source_alpha[3] = {0x1702, 0x8578, 0x8576};  // TEXTURE, PREVIOUS, CONSTANT
    GLenum operand_rgb[3] = {0x0300, 0x0300, 0x0302}, operand_alpha[3] = {0x0302, 0x0302, 0x0302};  // SRC_COLOR.., SRC_ALPHA
    float rgb_scale = 1, alpha_scale = 1;
    bool coord_replace = false;  // glTexEnv(GL_POINT_SPRITE, GL_COORD_REPLACE): sprite coordinates on this unit
};

struct Material {
    float ambient[4] = {0.2f, 0.2f, 0.2f, 1}, diffuse[4] = {0.8f, 0.8f, 0.8f, 1}, specular[4] = {0, 0, 0, 1},
          emission[4] = {0, 0, 0, 1};
    float shininess = 0;
};

// Everything a generated program's text depends on; programs are cached by it.
struct Key {
    uint8_t lighting = 0, lights = 0, positional = 0, attenuated = 0, spot = 0;
    uint8_t normalize = 0, rescale = 0, need_eye = 0, shininess_zero = 0, local_viewer = 0, separate_specular = 0;
    uint8_t color_material = 0;  // bit per MAT_ attrib (ambient 1, diffuse 2, specular 4, emission 8) when enabled
    // GL_LIGHT_MODEL_TWO_SIDE: back faces lit with the back material and the
    // normal turned round; the back face's colour material bits and shininess
    uint8_t two_side = 0, back_color_material = 0, back_shininess_zero = 0;
    uint8_t flat = 0;
    uint8_t color_array = 0;     // colour varies per vertex (else the current colour, a constant)
    uint8_t tex_enabled = 0;     // units with GL_TEXTURE_2D enabled and coordinates
    std::array<uint16_t, kMaxTexUnits> tex_env{};  // GL_MODULATE...
    std::array<uint64_t, kMaxTexUnits> tex_combine{};  // GL_COMBINE's functions, sources, operands (ff_texenv.cc)
    std::array<uint8_t, kMaxTexUnits> tex_format{};    // the sampled texture's base format (TexFormat)
    std::array<uint8_t, kMaxTexUnits> tex_target{};    // the target a unit samples (TexTarget)
    uint8_t tex_shadow = 0;      // units whose depth texture compares (GL_ARB_shadow): a shadow sampler
    uint8_t tex_shadow_float = 0;  // ... of a floating-point depth format: the reference is not clamped
    uint8_t alpha_test = 0;      // 0 or the GL func - GL_NEVER + 1
    uint8_t fog = 0;             // 0, or 1 linear, 2 exp, 3 exp2
    // texture coordinate generation of enabled units: 3 bits per coordinate s, t, r, q
    // (0 none, 1 object linear, 2 eye linear, 3 sphere map, 4 normal map, 5 reflection map)
    std::array<uint16_t, kMaxTexUnits> texgen{};
    uint8_t clip = 0;            // GL_CLIP_PLANEi enabled: bit i
    uint8_t pixel = 0;           // a pixel rectangle (ff_raster.cc): PixelKind
    uint8_t zoff = 0;            // a depth offset uniform (polygon offset of unfilled polygons: ff_unfilled.cc)
    // units sampling at gl_PointCoord: points drawn with GL_POINT_SPRITE on and
    // GL_COORD_REPLACE set (GL 2.1 §3.4.1; OES_point_sprite)
    uint8_t sprite = 0;
    uint8_t sprite_lower_left = 0;  // GL_POINT_SPRITE_COORD_ORIGIN GL_LOWER_LEFT: t runs upwards
    uint8_t point_params = 0;       // points sized by distance attenuation and clamped (ff_points.cc)
    // points without GL_POINT_SPRITE: GL's non-antialiased points have an integer
    // size (GL 2.1 §3.4.2), where a GLES host rasterizes the exact square
    uint8_t point_round = 0;
    bool operator==(const Key&) const = default;
};

struct Program {
    uint32_t name = 0;
    std::unordered_map<std::string, int> loc;
    std::unordered_map<int, std::vector<float>> sent;  // last values per location
};

// One primitive's packed vertices: `stride` bytes per vertex, attribute a at
// byte offset[a] with size[a] floats (0: not in the array, the current value).
// Generic attributes (bit g: four floats at generic_offset[g]) go to location
// g, winning over a fixed-function attribute there (only an application's
// program reads them, and its linker gave g to no built-in it reads).
struct Layout {
    int stride = 0;
    std::array<int, kAttrCount> size{}, offset{};
    uint32_t generic = 0;
    std::array<int, kMaxGeneric> generic_offset{};
};

// A draw compiled into a display list: its vertices live in a buffer the
// client minted, behind a vertex array object of its own.
struct ListDraw {
    GLenum mode = 0;
    Layout layout;
    int count = 0;
    std::vector<uint8_t> data;  // until glEndList uploads it
    std::vector<uint8_t> cpu;   // polygons: the vertices kept on the client for glPolygonMode GL_LINE/GL_POINT
    std::vector<uint8_t> edges; // per-vertex edge flags (empty: all true)
    uint32_t vao = 0;
    int64_t offset = 0;  // in the list's buffer
    std::array<float, 4> color_at_end{};  // current colour after the primitive (GL's rule)
};

struct DisplayList {
    std::vector<std::function<void(Context&)>> ops;
    std::vector<std::shared_ptr<ListDraw>> draws;
    uint32_t buffer = 0;
    std::vector<uint32_t> textures;  // images of glDrawPixels/glBitmap compiled into it (unpacked at compile time)
};

// A client-state array (glVertexPointer, glColorPointer...): client memory
// (buffer 0) or an offset into a buffer object.
struct ClientArray {
    bool enabled = false, normalized = false;
    GLint size = 4;        // or GL_BGRA (colour arrays, GL_ARB_vertex_array_bgra): 4 components, B first
    GLenum type = 0x1406;  // GL_FLOAT
    GLsizei stride = 0;
    const void* pointer = nullptr;
    uint32_t buffer = 0;
    bool bgra() const { return size == 0x80E1; }
    int components() const { return bgra() ? 4 : size; }
};

// Texture coordinate generation of one coordinate (s, t, r or q) of a unit.
struct TexGen {
    GLenum mode = 0x2400;  // GL_EYE_LINEAR
    float object[4] = {0, 0, 0, 0}, eye[4] = {0, 0, 0, 0};  // eye: transformed when set
};

struct AttribFrame;  // ff_attrib.cc

// What a lowered pixel rectangle (glDrawPixels, glBitmap, glCopyPixels) draws:
// its fragments' colour from the image, the raster colour where a bitmap
// has 1s, or the raster colour with the image's depth.
enum PixelKind : uint8_t { kPixelNone = 0, kPixelColor = 1, kPixelDepth = 2, kPixelBitmap = 3 };

// The current raster position (GL 2.1 §2.13), in window coordinates once set.
struct Raster {
    float pos[4] = {0, 0, 0, 1};
    bool valid = true;
    float distance = 0;
    float color[4] = {1, 1, 1, 1}, color2[4] = {0, 0, 0, 1};
    std::array<std::array<float, 4>, kMaxTexUnits> tex{};
    Raster() {
        for (auto& t : tex) t = {0, 0, 0, 1};
    }
};

// The pixel rectangle being drawn: the uniforms of a PixelKind program.
struct PixelDraw {
    PixelKind kind = kPixelNone;
    float origin[4] = {0, 0, 1, 1};  // window x, y of the image's first pixel; zoom x, y
    float z = 0;                      // window depth (the raster position's)
    int unit = kMaxTexUnits;          // texture unit of the image
};

// glPushClientAttrib's copy of the client state.
struct ClientAttribFrame {
    GLbitfield mask = 0;
    State::PixelStore unpack, pack;
    std::array<ClientArray, kAttrCount> arrays;
    ClientArray edge, index;
    GLenum client_active_texture = 0x84C0;
    uint32_t array_buffer = 0;
};

struct FixedFunction {
    // matrices: 0 modelview, 1 projection, 2.. texture units
    GLenum matrix_mode = 0x1700;  // GL_MODELVIEW
    std::array<std::vector<Mat>, 2 + kMaxTexUnits> stacks;
    Mat& top(int which) { return stacks[which].back(); }
    int current_stack() const;
    GLenum active_texture = 0x84C0, client_active_texture = 0x84C0;

    std::array<Light, kMaxLights> lights;
    Material front, back;
    float light_model_ambient[4] = {0.2f, 0.2f, 0.2f, 1};
    bool local_viewer = false, two_side = false, separate_specular = false;
    bool lighting = false, normalize = false, rescale = false, color_material = false;
    GLenum color_material_face = 0x0408, color_material_mode = 0x1602;  // GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE
    GLenum shade_model = 0x1D01;                                        // GL_SMOOTH
    // glEnable(GL_TEXTURE_1D / _2D / _3D / _CUBE_MAP / _RECTANGLE) per unit: TexTarget bits
    uint8_t texture_enables[kMaxTexUnits] = {};
    std::array<TexEnv, kMaxTexUnits> tex_env{};  // glTexEnv of each unit (ff_texenv.cc)
    // The base format of the textures this context specified (level 0), by
    // name: the texture environment's result depends on it (ff_texenv.cc).
    std::unordered_map<uint32_t, uint8_t> tex_formats;
    // Depth textures (level 0 of a depth format) and, by name, the depth
    // parameters the texture environment follows (ff_texenv.cc): the base
    // format GL_DEPTH_TEXTURE_MODE gives a depth texture (0: GL_LUMINANCE, the
    // initial mode) and whether GL_TEXTURE_COMPARE_MODE compares
    // (GL_ARB_shadow: such a unit samples through a shadow sampler).
    struct DepthParams {
        uint8_t mode_format = 0;
        bool compare = false;
    };
    std::unordered_map<uint32_t, bool> depth_textures;  // true: a floating-point depth format
    std::unordered_map<uint32_t, DepthParams> depth_params;
    bool point_sprite = false;  // glEnable(GL_POINT_SPRITE)
    bool alpha_test = false;
    GLenum alpha_func = 0x0207;  // GL_ALWAYS
    float alpha_ref = 0;
    // The alpha test the server has for this context's application programs
    // (program_builtins.cc): GL_ALWAYS while GL_ALPHA_TEST is off.
    GLenum sent_alpha_func = 0x0207;
    float sent_alpha_ref = 0;
    bool fog = false;
    GLenum fog_mode = 0x0800;  // GL_EXP
    float fog_density = 1, fog_start = 0, fog_end = 1, fog_color[4] = {0, 0, 0, 0};

    // texture coordinate generation: bit c of texgen_enabled[u] is GL_TEXTURE_GEN_S + c on unit u
    std::array<std::array<TexGen, 4>, kMaxTexUnits> texgen;
    std::array<uint8_t, kMaxTexUnits> texgen_enabled{};
    // user clip planes, in eye space (transformed when set); bit i: GL_CLIP_PLANEi enabled
    std::array<std::array<float, 4>, kMaxClipPlanes> clip_planes{};
    uint8_t clip_enabled = 0;

    // polygon mode (ff_unfilled.cc): [0] front, [1] back; edge flags
    std::array<GLenum, 2> polygon_mode{0x1B02, 0x1B02};  // GL_FILL
    bool offset_line = false, offset_point = false;      // GL_POLYGON_OFFSET_LINE / _POINT (not host caps)
    bool edge_flag = true;                                // the current edge flag
    std::vector<uint8_t> vertex_edges;                    // of the vertices between glBegin and glEnd
    float zoff = 0;                                       // depth offset of the draw being issued (NDC)
    float point_size = 1;                                 // glPointSize: the generated vertex stage's gl_PointSize
    // glPointParameter* (ff_points.cc); point_size_max < 0: the implementation's largest size
    float point_size_min = 0, point_size_max = -1, point_fade = 1, point_attenuation[3] = {1, 0, 0};
    bool point_lower_left = false;                        // GL_POINT_SPRITE_COORD_ORIGIN is GL_LOWER_LEFT

    // the raster path (ff_raster.cc)
    Raster raster;
    float zoom[2] = {1, 1};
    PixelDraw pixel;
    uint32_t pixel_texture = 0;  // immediate glDrawPixels/glBitmap/glCopyPixels image (lists own theirs)

    // attribute stacks (ff_attrib.cc)
    std::vector<std::shared_ptr<AttribFrame>> attrib_stack;
    std::vector<ClientAttribFrame> client_attrib_stack;

    std::array<ClientArray, kAttrCount> arrays;
    ClientArray edge_array, index_array;
    ClientArray& all_arrays(int a) { return a == kEdge ? edge_array : a == kIndex ? index_array : arrays[size_t(a)]; }

    // current vertex attributes
    std::array<std::array<float, 4>, kAttrCount> current{};

    // immediate mode
    bool in_begin = false;
    bool begin_compile_only = false;  // the open glBegin was compiled (GL_COMPILE), not executed
    GLenum begin_mode = 0;
    uint32_t set_in_begin = 0;  // attributes given between glBegin and glEnd
    int pos_size = 2;
    std::vector<std::array<std::array<float, 4>, kAttrCount>> vertices;
    std::array<std::array<float, 4>, kAttrCount> saved_current{};  // at glNewList (GL_COMPILE changes nothing)
    // Generic attributes (imm_generic): the float values the application last
    // gave (the host's current values, unless the lowering's own draws put
    // fixed-function values on a location since: generic_clobbered), those given
    // since glBegin, and per vertex (only while some were: full copies).
    using Generics = std::array<std::array<float, 4>, kMaxGeneric>;
    Generics generic{}, saved_generic{};
    uint32_t generic_in_begin = 0, generic_clobbered = 0;
    std::vector<Generics> generic_vertices;
    // glMaterial calls since glBegin, applied around the primitive's draw (ff_verbs.cc, materialv)
    std::vector<std::function<void(Context&)>> begin_materials;

    // display lists
    std::unordered_map<uint32_t, std::shared_ptr<DisplayList>> lists;
    std::unordered_map<uint32_t, std::string> list_labels;  // KHR_debug's GL_DISPLAY_LIST labels (custom/debug_output.cc)
    uint32_t next_list = 1, list_base = 0;
    uint32_t compiling = 0;  // name of the list being compiled, 0: none
    bool compile_and_execute = false;
    std::shared_ptr<DisplayList> building;
    int call_depth = 0;      // glCallList nesting (and GL_COMPILE_AND_EXECUTE's run of a recorded verb)
    int self_compile = 0;    // inside a verb that compiles itself (compat/ff_gate.h, SelfCompile)

    // server objects the lowering owns
    std::vector<std::pair<Key, std::unique_ptr<Program>>> programs;
    uint64_t generations = 0;  // programs generated (the steady state makes none)
    uint32_t server_program = 0;  // the program bound on the server by the lowering, 0: the application's
    uint32_t imm_vao = 0, imm_enabled = 0;
    // The application's generic arrays a draw with its program mirrored into
    // the lowering's vertex array object (ff_arrays.cc); finish_draw takes them out.
    uint32_t imm_generic = 0;
    // index patterns (ff_draw.cc): flat quads, quad strip, polygon, smooth quads, and
    // the quad strip and polygon of the first-vertex convention
    std::array<uint32_t, 6> pattern_buffer{};
    std::array<int, 6> pattern_count{};
    std::array<std::array<float, 4>, kAttrCount> sent_current{};
    uint32_t sent_current_valid = 0;

    // The built-in state uniforms of the application's programs (program_builtins.h).
    std::shared_ptr<AppPrograms> app_programs;

    FixedFunction();
};

// The context's fixed-function state, created at first use (compatibility
// contexts only; nullptr elsewhere).
FixedFunction* ff(Context& ctx);

// Whether a draw of the application goes through the lowering (compatibility
// context, no program of its own).
bool ff_active(Context& ctx);
// The application draws with its own shaders: a current program, or (none
// current) a bound program pipeline; the lowering then only feeds them.
bool app_program_bound(const Context& ctx);

// The implementation's largest point size (the limits of the first make-current).
float max_point_size(const Context& ctx);
// Point state (ff_points.cc): glGet of the point size or a point parameter
// (false: neither), and whether any parameter differs from GL's initial values.
bool point_params_get(const Context& ctx, const FixedFunction& f, GLenum pname, QueryValue* out);
bool point_params_set(const FixedFunction& f);

// Records `op` into the display list being compiled; true when the caller
// must not execute it now (GL_COMPILE).
bool record(Context& ctx, std::function<void(Context&)> op);

// A primitive's vertices (immediate mode or a list's), drawn now; `edges`:
// per-vertex edge flags (nullptr: all true).
void draw_packed(Context& ctx, GLenum mode, const Layout& l, const uint8_t* data, int count,
                 const uint8_t* edges = nullptr);
void draw_list(Context& ctx, ListDraw& d);
void upload_list(Context& ctx, DisplayList& l);

// glEnable/glDisable of a fixed-function capability (recorded into a list
// being compiled); false: not one, the caller goes on.
// The texture environment (ff_texenv.cc): the key word of a unit's GL_COMBINE
// (0 for other modes), the fragment stage's code and declarations for unit
// `u` (after `vec4 primary`, `c` and every enabled unit's sample `t<u>`),
// and the values of its uniforms.
uint64_t combine_key(const TexEnv& e);
uint8_t bound_tex_format(Context& ctx, const FixedFunction& f, int unit, uint8_t target);
// Whether the texture a unit samples is a depth texture whose
// GL_TEXTURE_COMPARE_MODE compares (1D, 2D and rectangle targets: GL_ARB_shadow's);
// `floating`: of a floating-point depth format.
bool bound_tex_compares(Context& ctx, const FixedFunction& f, int unit, uint8_t target, bool* floating);
// The target an enabled unit samples (GL 2.1 §3.8.15 and ARB_texture_rectangle:
// cube map, then 3D, rectangle, 2D, 1D); 0 when none is enabled.
uint8_t sampled_target(uint8_t enables);
// glDeleteTextures: the names' base formats are forgotten (custom/state.cc).
void forget_tex_formats(Context& ctx, GLsizei n, const GLuint* textures);
std::string texenv_fragment(const Key& k, int u);
std::string texenv_declarations(const Key& k, int u);
void texenv_values(const FixedFunction& f, int unit, float color[4], float scales[2]);
bool ff_cap(Context& ctx, GLenum cap, bool on);
// Sends user clip plane `index` (eye space) to the server's GL front end,
// which clips the application's vertex shaders against it (ff_texgen.cc).
void send_clip_plane(Context& ctx, int index);
bool ff_is_enabled(Context& ctx, GLenum cap, bool* out);

// glGet* of fixed-function state and limits (ff_get.cc); false: not one.
bool ff_get(Context& ctx, GLenum pname, QueryValue* out);

// Immediate-mode attribute setters (the generated entry points call these).
void imm_attr(Context& ctx, int attr, int n, float x, float y, float z, float w);
// The floating-point glVertexAttrib* forms in a compatibility context
// (generated entry points): attribute 0 between glBegin and glEnd gives a
// vertex, the others are kept per vertex; compiled into a list being built.
// False: the entry point sends the value to the host as usual.
bool imm_generic(Context& ctx, GLuint index, int n, float x, float y, float z, float w);
// Puts back the application's generic values on locations the lowering's
// draws used, but for `keep` (attributes the bound program reads as built-ins).
void restore_generics(Context& ctx, FixedFunction& f, uint32_t keep);
// The attribute of glMultiTexCoord's `texture`; -1 (GL_INVALID_ENUM raised) past the last unit.
int tex_coord_attr(Context& ctx, GLenum texture, const char* verb);

// The steps of a draw through the immediate-mode vertex array object: bind
// it; (point its arrays); bind the program and uniforms, draw `count`
// vertices (through `indices` when given), put the application's bindings back.
void begin_draw(Context& ctx, FixedFunction& f);
void finish_draw(Context& ctx, FixedFunction& f, GLenum mode, const Layout& l, int count,
                 const std::vector<uint32_t>* indices, int instances = 1);

// glPolygonMode GL_LINE/GL_POINT (ff_unfilled.cc): whether a lowered draw of
// `mode` goes through the polygon-mode stage, which decides each polygon's
// facing on the client, culls it, and draws its edges or vertices.
bool unfilled(const FixedFunction& f, GLenum mode);
// `data`: `count` packed vertices of layout `l` (floats); `indices`: an element
// draw's vertex numbers (nullptr: 0..count-1); `edges`: per-vertex edge flags.
void draw_unfilled(Context& ctx, FixedFunction& f, GLenum mode, const Layout& l, const uint8_t* data, int count,
                   const uint8_t* edges, const std::vector<uint32_t>* indices);
// One draw of the polygon-mode stage's output: `count` vertices from `first`
// of the uploaded array, with a depth offset (NDC) for GL_POLYGON_OFFSET_LINE/_POINT.
struct Batch {
    GLenum prim = 0;
    int first = 0, count = 0;
    float zoff = 0;
};
// Uploads `vertices` packed vertices of layout `l` and draws the batches.
void draw_batches(Context& ctx, FixedFunction& f, const Layout& l, const uint8_t* data, int vertices,
                  const std::vector<Batch>& batches);

// Application draws while no program is bound (client-state arrays, the
// current attributes): true when the lowering took the draw.
// `instances`: glDraw*Instanced (gl_InstanceID in the application's program).
bool ff_draw_arrays(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instances = 1);
// `basevertex` is added to every index (glDraw*ElementsBaseVertex).
bool ff_draw_elements(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                      int64_t basevertex = 0, GLsizei instances = 1);

// Element i of the enabled client-state arrays as immediate-mode calls
// (glArrayElement; ff_fetch.cc); false: an array cannot be read on the client.
bool array_element(Context& ctx, int64_t i);
// A draw compiled into the list being built: its vertices fetched now, as a
// glBegin/glEnd primitive (GL dereferences arrays at compile time); false:
// an array cannot be read on the client (the draw then executes now).
bool compile_draw(Context& ctx, GLenum mode, int64_t first, int64_t count, const std::vector<uint32_t>* indices,
                  const char* verb);

// A draw of nothing compiled into a list: still GL_INVALID_OPERATION when
// glCallList runs it between glBegin and glEnd.
void compile_empty_draw(Context& ctx, const char* verb);
// glRect* (generated entry points): a GL_POLYGON of the four corners.
void rect(Context& ctx, float x1, float y1, float x2, float y2);
// glEdgeFlag*/glIndex* (generated entry points): accepted and dropped, one log line.
void dropped_attr(const char* verb);

// glRasterPos*/glWindowPos* (generated entry points; ff_raster.cc).
void raster_pos(Context& ctx, bool window, double x, double y, double z, double w);
bool raster_get(Context& ctx, GLenum pname, QueryValue* out);

// Draws the window rectangle [x0, x1) x [y0, y1) with the pixel program of
// f.pixel (the current fragment state applies; the viewport does not).
void draw_pixel_rect(Context& ctx, FixedFunction& f, float x0, float y0, float x1, float y1);

// The GLSL of a key (ff_shader.cc).
std::string vertex_source(const Key& k);
// Whether the key's vertex stage needs the eye-space position (mgl_mv) / normal (mgl_nmat).
bool key_needs_eye(const Key& k);
bool key_needs_eye_normal(const Key& k);
std::string fragment_source(const Key& k);

}  // namespace mgl::client::compat

namespace mgl::client::compat {

// Immediate-mode arguments to float; `Norm`: integer colours and normals map
// to [0, 1] (unsigned) or [-1, 1] (signed), as GL 4.6 §2.3.5 says.
template <bool Norm> inline float to_float(GLfloat v) { return v; }
template <bool Norm> inline float to_float(GLdouble v) { return float(v); }
template <bool Norm> inline float to_float(GLubyte v) { return Norm ? float(v) / 255.0f : float(v); }
template <bool Norm> inline float to_float(GLushort v) { return Norm ? float(v) / 65535.0f : float(v); }
template <bool Norm> inline float to_float(GLuint v) { return Norm ? float(double(v) / 4294967295.0) : float(v); }
template <bool Norm> inline float to_float(GLbyte v) { return Norm ? std::max(float(v) / 127.0f, -1.0f) : float(v); }
template <bool Norm> inline float to_float(GLshort v) { return Norm ? std::max(float(v) / 32767.0f, -1.0f) : float(v); }
template <bool Norm> inline float to_float(GLint v) { return Norm ? std::max(float(double(v) / 2147483647.0), -1.0f) : float(v); }

}  // namespace mgl::client::compat
