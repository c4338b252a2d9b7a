#include "proxy_textures.h"

#include <algorithm>

#include "context/sized_formats.h"
#include "context/texel_convert.h"

namespace mgl::gl {

namespace {

constexpr uint32_t kInvalidEnum = 0x0500, kInvalidValue = 0x0501, kInvalidOperation = 0x0502;

// Bits of a GLES sized format as desktop GL reports them (R, G, B, A, depth,
// stencil) and its component type; the desktop-only formats are
// texel_convert.h's (desktop_level_parameter).
enum Kind : uint8_t { kUnorm, kSnorm, kFlt, kSint, kUint };
struct Bits {
    uint32_t format;
    uint8_t r, g, b, a, depth, stencil;
    Kind kind;
};
constexpr Bits kBits[] = {
    {0x8229, 8, 0, 0, 0, 0, 0, kUnorm},    {0x822B, 8, 8, 0, 0, 0, 0, kUnorm},    {0x8051, 8, 8, 8, 0, 0, 0, kUnorm},
    {0x8058, 8, 8, 8, 8, 0, 0, kUnorm},    {0x8F94, 8, 0, 0, 0, 0, 0, kSnorm},    {0x8F95, 8, 8, 0, 0, 0, 0, kSnorm},
    {0x8F96, 8, 8, 8, 0, 0, 0, kSnorm},    {0x8F97, 8, 8, 8, 8, 0, 0, kSnorm},    {0x822A, 16, 0, 0, 0, 0, 0, kUnorm},
    {0x822C, 16, 16, 0, 0, 0, 0, kUnorm},  {0x8054, 16, 16, 16, 0, 0, 0, kUnorm}, {0x805B, 16, 16, 16, 16, 0, 0, kUnorm},
    {0x8F98, 16, 0, 0, 0, 0, 0, kSnorm},   {0x8F99, 16, 16, 0, 0, 0, 0, kSnorm},  {0x8F9A, 16, 16, 16, 0, 0, 0, kSnorm},
    {0x8F9B, 16, 16, 16, 16, 0, 0, kSnorm}, {0x8C41, 8, 8, 8, 0, 0, 0, kUnorm},   {0x8C43, 8, 8, 8, 8, 0, 0, kUnorm},
    {0x8D62, 5, 6, 5, 0, 0, 0, kUnorm},    {0x8056, 4, 4, 4, 4, 0, 0, kUnorm},    {0x8057, 5, 5, 5, 1, 0, 0, kUnorm},
    {0x8059, 10, 10, 10, 2, 0, 0, kUnorm}, {0x906F, 10, 10, 10, 2, 0, 0, kUint},  {0x8C3A, 11, 11, 10, 0, 0, 0, kFlt},
    {0x8C3D, 9, 9, 9, 0, 0, 0, kFlt},      {0x822D, 16, 0, 0, 0, 0, 0, kFlt},     {0x822F, 16, 16, 0, 0, 0, 0, kFlt},
    {0x881B, 16, 16, 16, 0, 0, 0, kFlt},   {0x881A, 16, 16, 16, 16, 0, 0, kFlt},  {0x822E, 32, 0, 0, 0, 0, 0, kFlt},
    {0x8230, 32, 32, 0, 0, 0, 0, kFlt},    {0x8815, 32, 32, 32, 0, 0, 0, kFlt},   {0x8814, 32, 32, 32, 32, 0, 0, kFlt},
    {0x8231, 8, 0, 0, 0, 0, 0, kSint},     {0x8232, 8, 0, 0, 0, 0, 0, kUint},     {0x8233, 16, 0, 0, 0, 0, 0, kSint},
    {0x8234, 16, 0, 0, 0, 0, 0, kUint},    {0x8235, 32, 0, 0, 0, 0, 0, kSint},    {0x8236, 32, 0, 0, 0, 0, 0, kUint},
    {0x8237, 8, 8, 0, 0, 0, 0, kSint},     {0x8238, 8, 8, 0, 0, 0, 0, kUint},     {0x8239, 16, 16, 0, 0, 0, 0, kSint},
    {0x823A, 16, 16, 0, 0, 0, 0, kUint},   {0x823B, 32, 32, 0, 0, 0, 0, kSint},   {0x823C, 32, 32, 0, 0, 0, 0, kUint},
    {0x8D8F, 8, 8, 8, 0, 0, 0, kSint},     {0x8D7D, 8, 8, 8, 0, 0, 0, kUint},     {0x8D89, 16, 16, 16, 0, 0, 0, kSint},
    {0x8D77, 16, 16, 16, 0, 0, 0, kUint},  {0x8D83, 32, 32, 32, 0, 0, 0, kSint},  {0x8D71, 32, 32, 32, 0, 0, 0, kUint},
    {0x8D8E, 8, 8, 8, 8, 0, 0, kSint},     {0x8D7C, 8, 8, 8, 8, 0, 0, kUint},     {0x8D88, 16, 16, 16, 16, 0, 0, kSint},
    {0x8D76, 16, 16, 16, 16, 0, 0, kUint}, {0x8D82, 32, 32, 32, 32, 0, 0, kSint}, {0x8D70, 32, 32, 32, 32, 0, 0, kUint},
    {0x81A5, 0, 0, 0, 0, 16, 0, kUnorm},   {0x81A6, 0, 0, 0, 0, 24, 0, kUnorm},   {0x8CAC, 0, 0, 0, 0, 32, 0, kFlt},
    {0x88F0, 0, 0, 0, 0, 24, 8, kUnorm},   {0x8CAD, 0, 0, 0, 0, 32, 8, kFlt},     {0x8D48, 0, 0, 0, 0, 0, 8, kUint},
};

const Bits* bits_of(uint32_t internalformat) {
    for (const Bits& b : kBits)
        if (b.format == internalformat) return &b;
    return nullptr;
}

// A desktop internal format this front end can place on the device, and its class.
bool known_format(uint32_t internalformat, HostFormat* hf) {
    if (host_format(internalformat, hf)) return true;
    const uint32_t sized = sized_renderable_format(internalformat);  // unsized depth/stencil
    if (sized == internalformat || !host_format(sized, hf)) return internalformat == 0x8D48 && (*hf = {}, true);
    return true;
}

bool depth_or_stencil(uint32_t internalformat) {
    HostFormat hf;
    if (internalformat == 0x8D48 || internalformat == 0x1901) return true;  // STENCIL_INDEX(8)
    return known_format(internalformat, &hf) && hf.depth;
}

bool integer_format(uint32_t internalformat) {
    HostFormat hf;
    return known_format(internalformat, &hf) && hf.integer;
}

bool unsized(uint32_t f) {
    switch (f) {
        case 1: case 2: case 3: case 4: case 0x1903: case 0x8227: case 0x1907: case 0x1908: case 0x1906: case 0x1909:
        case 0x190A: case 0x8049: case 0x1902: case 0x84F9: case 0x8C40: case 0x8C42: return true;
        default: return false;
    }
}

bool format_enum(uint32_t f) {
    switch (f) {
        case 0x1903: case 0x1904: case 0x1905: case 0x1906: case 0x1907: case 0x1908: case 0x1909: case 0x190A:
        case 0x8227: case 0x80E0: case 0x80E1: case 0x8000: case 0x1902: case 0x84F9: case 0x1901: case 0x8D94:
        case 0x8D95: case 0x8D96: case 0x8D97: case 0x8D98: case 0x8D99: case 0x8228: case 0x8D9A: case 0x8D9B:
        case 0x8D9C: case 0x8D9D: return true;
        default: return false;
    }
}

bool type_enum(uint32_t t) {
    if (t >= 0x1400 && t <= 0x1406) return true;  // BYTE..FLOAT
    switch (t) {
        case 0x140A: case 0x140B: case 0x1A00: case 0x8032: case 0x8362: case 0x8033: case 0x8365: case 0x8034:
        case 0x8366: case 0x8363: case 0x8364: case 0x8035: case 0x8367: case 0x8036: case 0x8368: case 0x84FA:
        case 0x8C3B: case 0x8C3E: case 0x8DAD: return true;
        default: return false;
    }
}

int dims_of(ProxyKind k) {
    switch (k) {
        case ProxyKind::d1: return 1;
        case ProxyKind::d3: case ProxyKind::d2_array: case ProxyKind::cube_array: case ProxyKind::ms_array: return 3;
        default: return 2;
    }
}

// The largest width/height the device takes for the kind, and its layers (depth).
int32_t max_size(ProxyKind k, const ProxyLimits& l) {
    switch (k) {
        case ProxyKind::d3: return l.max_3d;
        case ProxyKind::cube: case ProxyKind::cube_array: return l.max_cube;
        default: return l.max_2d;
    }
}

int32_t max_level(int32_t size) {
    int32_t n = 0;
    while (size > 1) size >>= 1, ++n;
    return n;
}

bool layered(ProxyKind k) {
    return k == ProxyKind::d2_array || k == ProxyKind::cube_array || k == ProxyKind::ms_array;
}

// Whether the device could hold a level of these sizes.
bool fits(ProxyKind k, int32_t level, int32_t w, int32_t h, int32_t d, const ProxyLimits& l) {
    const int32_t m = max_size(k, l) >> std::min(level, 30);
    if (w > m) return false;
    if (k == ProxyKind::d1_array) return h <= l.max_layers;
    if (k != ProxyKind::d1 && h > m) return false;
    if (layered(k)) return d <= l.max_layers;
    if (k == ProxyKind::d3) return d <= m;
    return true;
}

// Bytes of the image on the device (its device pair's texel size).
uint64_t image_bytes(const HostFormat& hf, int32_t w, int32_t h, int32_t d, uint64_t copies) {
    const uint64_t texel = std::max<uint32_t>(1, source_pixel_bytes(hf.format, hf.type));
    return uint64_t(std::max(w, 0)) * uint64_t(std::max(h, 0)) * uint64_t(std::max(d, 0)) * texel * copies;
}

}  // namespace

ProxyKind proxy_kind(uint32_t target) {
    switch (target) {
        case 0x8063: return ProxyKind::d1;          // GL_PROXY_TEXTURE_1D
        case 0x8064: return ProxyKind::d2;          // GL_PROXY_TEXTURE_2D
        case 0x8070: return ProxyKind::d3;          // GL_PROXY_TEXTURE_3D
        case 0x851B: return ProxyKind::cube;        // GL_PROXY_TEXTURE_CUBE_MAP
        case 0x84F7: return ProxyKind::rect;        // GL_PROXY_TEXTURE_RECTANGLE
        case 0x8C19: return ProxyKind::d1_array;    // GL_PROXY_TEXTURE_1D_ARRAY
        case 0x8C1B: return ProxyKind::d2_array;    // GL_PROXY_TEXTURE_2D_ARRAY
        case 0x900B: return ProxyKind::cube_array;  // GL_PROXY_TEXTURE_CUBE_MAP_ARRAY
        case 0x9101: return ProxyKind::ms;          // GL_PROXY_TEXTURE_2D_MULTISAMPLE
        case 0x9103: return ProxyKind::ms_array;    // GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY
        default: return ProxyKind::none;
    }
}

uint32_t ProxyTextures::specify(const ProxyRequest& r, const ProxyLimits& lim) {
    const ProxyKind k = proxy_kind(r.target);
    const bool ms = k == ProxyKind::ms || k == ProxyKind::ms_array;
    if (k == ProxyKind::none || dims_of(k) != r.dims || ms != (r.verb == ProxyRequest::Verb::multisample))
        return kInvalidEnum;
    int32_t w = r.width, h = r.dims >= 2 ? r.height : 1, d = r.dims == 3 ? r.depth : 1;
    HostFormat hf;
    bool holds = true;  // the device could hold it
    int32_t first = 0, count = 1;

    switch (r.verb) {
        case ProxyRequest::Verb::image: {
            if (r.level < 0 || w < 0 || h < 0 || d < 0) return kInvalidValue;
            if (r.level > max_level(max_size(k, lim)) || (k == ProxyKind::rect && r.level != 0)) return kInvalidValue;
            if (r.border < 0 || r.border > 1 || (r.border && (!r.compatibility || k == ProxyKind::rect)))
                return kInvalidValue;
            if (k == ProxyKind::cube && w != h) return kInvalidValue;
            if (k == ProxyKind::cube_array && (w != h || d % 6)) return kInvalidValue;
            if (!known_format(r.internalformat, &hf)) return kInvalidValue;
            if (!format_enum(r.format) || !type_enum(r.type)) return kInvalidEnum;
            if (r.internalformat == 0x8D48) {
                if (r.format != 0x1901) return kInvalidOperation;  // stencil data for a stencil format
            } else if (!source_pixel_bytes(r.format, r.type) || !convertible(r.format, r.type, hf)) {
                return kInvalidOperation;
            }
            if (hf.depth && k == ProxyKind::d3) return kInvalidOperation;
            // A border has no place on a GLES-class device: not held.
            holds = r.border == 0 && fits(k, r.level, w, h, d, lim) && image_bytes(hf, w, h, d, 1) <= lim.max_bytes;
            first = r.level;
            break;
        }
        case ProxyRequest::Verb::storage: {
            if (r.level < 1 || w < 1 || h < 1 || d < 1) return kInvalidValue;
            if (unsized(r.internalformat)) return kInvalidEnum;
            if (!known_format(r.internalformat, &hf)) return kInvalidEnum;
            const int32_t biggest = std::max({w, k == ProxyKind::d1_array ? 1 : h, k == ProxyKind::d3 ? d : 1});
            if (r.level > max_level(biggest) + 1) return kInvalidOperation;
            if (k == ProxyKind::rect && r.level != 1) return kInvalidOperation;
            if (k == ProxyKind::cube && w != h) return kInvalidValue;
            if (k == ProxyKind::cube_array && (w != h || d % 6)) return kInvalidValue;
            holds = fits(k, 0, w, h, d, lim) &&
                    image_bytes(hf, w, h, d, k == ProxyKind::cube ? 6 : 1) <= lim.max_bytes;
            count = r.level;
            break;
        }
        case ProxyRequest::Verb::multisample: {
            if (r.samples < 1 || w < 0 || h < 0 || d < 0) return kInvalidValue;
            if (!known_format(r.internalformat, &hf)) return kInvalidEnum;
            const int32_t max = integer_format(r.internalformat) ? lim.max_integer_samples
                              : depth_or_stencil(r.internalformat) ? lim.max_depth_samples
                                                                   : lim.max_color_samples;
            if (r.samples > max) return kInvalidOperation;
            holds = fits(k, 0, w, h, d, lim) && image_bytes(hf, w, h, d, uint64_t(r.samples)) <= lim.max_bytes;
            break;
        }
    }

    if (r.verb == ProxyRequest::Verb::storage) {
        // Immutable storage replaces every level of the proxy.
        for (auto it = levels_.begin(); it != levels_.end();)
            it = it->first.first == r.target ? levels_.erase(it) : std::next(it);
    }
    for (int32_t i = 0; i < count; ++i) {
        Level& lv = levels_[{r.target, first + i}];
        if (!holds) {
            lv = Level{};
            continue;
        }
        const bool layers_d = layered(k), layers_h = k == ProxyKind::d1_array;
        lv.width = std::max(1, w >> i);
        lv.height = layers_h ? h : std::max(1, h >> i);
        lv.depth = layers_d ? d : std::max(1, d >> i);
        lv.border = r.border;
        lv.internalformat = r.internalformat;
        lv.samples = r.verb == ProxyRequest::Verb::multisample ? r.samples : 0;
        lv.fixed_locations = r.verb == ProxyRequest::Verb::multisample ? r.fixed_locations : true;
        if (r.verb == ProxyRequest::Verb::image) lv.width = w, lv.height = h, lv.depth = d;
    }
    return 0;
}

uint32_t ProxyTextures::level_parameter(uint32_t target, int32_t level, uint32_t pname, int32_t* value) const {
    if (level < 0 || level > 31) return kInvalidValue;
    const auto it = levels_.find({target, level});
    // A level never specified has GL's initial state: no image, format GL_RGBA.
    const Level lv = it != levels_.end() ? it->second : Level{0, 0, 0, 0, 0x1908, 0, true};
    const uint32_t f = lv.internalformat;
    switch (pname) {
        case 0x1000: *value = lv.width; return 0;                          // GL_TEXTURE_WIDTH
        case 0x1001: *value = lv.height; return 0;                         // GL_TEXTURE_HEIGHT
        case 0x8071: *value = lv.depth; return 0;                          // GL_TEXTURE_DEPTH
        case 0x1003: *value = int32_t(f); return 0;                        // GL_TEXTURE_INTERNAL_FORMAT
        case 0x1005: *value = lv.border; return 0;                         // GL_TEXTURE_BORDER
        case 0x9106: *value = lv.samples; return 0;                        // GL_TEXTURE_SAMPLES
        case 0x9107: *value = lv.fixed_locations ? 1 : 0; return 0;        // GL_TEXTURE_FIXED_SAMPLE_LOCATIONS
        case 0x86A1: case 0x8C3F: case 0x8C2A: case 0x8C2B: case 0x8C2C: *value = 0; return 0;  // COMPRESSED, SHARED_SIZE, BUFFER_*
        case 0x86A0: *value = 0; return lv.width ? kInvalidOperation : 0;  // COMPRESSED_IMAGE_SIZE of an uncompressed image
        default: break;
    }
    // Component sizes and types.
    const bool size_pname = (pname >= 0x805C && pname <= 0x805F) || pname == 0x8060 || pname == 0x8061 ||
                            pname == 0x884A || pname == 0x88F1;
    const bool type_pname = pname >= 0x8C10 && pname <= 0x8C16;
    if (!size_pname && !type_pname) return kInvalidEnum;
    *value = 0;
    if (!lv.width) return 0;
    int32_t v = 0;
    if (desktop_level_parameter(f, pname, &v)) {
        *value = v;
        return 0;
    }
    const Bits* b = bits_of(sized_renderable_format(f));
    if (!b) return 0;
    int32_t bits = 0;
    switch (pname) {
        case 0x805C: case 0x8C10: bits = b->r; break;
        case 0x805D: case 0x8C11: bits = b->g; break;
        case 0x805E: case 0x8C12: bits = b->b; break;
        case 0x805F: case 0x8C13: bits = b->a; break;
        case 0x884A: case 0x8C16: bits = b->depth; break;
        case 0x88F1: bits = b->stencil; break;
        default: bits = 0; break;  // luminance and intensity: none in these formats
    }
    if (!type_pname) {
        *value = bits;
        return 0;
    }
    static constexpr int32_t kTypes[] = {0x8C17, 0x8F9C, 0x1406, 0x1404, 0x1405};
    *value = bits ? kTypes[b->kind] : 0;
    return 0;
}

}  // namespace mgl::gl
