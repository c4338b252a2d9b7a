#include "essl_source.h"

#include <cctype>
#include <regex>
#include <vector>

#include "glsl_lift.h"

namespace mgl::magma {

namespace {

// Words that desktop GLSL 1.40 (or glslang's Vulkan GLSL) reserves as keywords
// or declares as built-in functions, and that ESSL 1.00 neither uses nor
// reserves: an ESSL 1.00 shader may name its own things so. (ESSL 1.00's own
// reserved words, `switch`, `flat`, `sampler3DRect`..., fail validation first,
// so listing them here would be harmless but useless.) Not listed: the
// texture2D family (ESSL 1.00 built-ins, #defined by the translation), and
// the derivative functions, built-ins once GL_OES_standard_derivatives is on.
const char* const kWords100[] = {
    // keywords
    "uint", "uvec2", "uvec3", "uvec4", "case", "centroid", "smooth", "noperspective", "layout",
    "sampler1D", "sampler1DShadow", "sampler1DArray", "sampler2DArray",
    "sampler1DArrayShadow", "sampler2DArrayShadow", "samplerCubeShadow", "isampler1D", "isampler2D",
    "isampler3D", "isamplerCube", "isampler1DArray", "isampler2DArray", "usampler1D", "usampler2D",
    "usampler3D", "usamplerCube", "usampler1DArray", "usampler2DArray", "sampler2DRect",
    "isampler2DRect", "usampler2DRect", "samplerBuffer", "isamplerBuffer", "usamplerBuffer",
    "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4",
    // Vulkan GLSL's separate texture/sampler types
    "sampler", "samplerShadow", "texture1D", "texture1DArray", "texture2DArray", "textureBuffer",
    "texture2DRect", "itexture2D", "utexture2D", "itexture3D", "utexture3D", "itextureCube",
    "utextureCube", "subpassInput", "isubpassInput", "usubpassInput", "subpassInputMS",
    // built-in functions of GLSL 1.30/1.40
    "trunc", "round", "roundEven", "modf", "isnan", "isinf", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "transpose", "outerProduct", "inverse", "determinant", "texture", "textureProj",
    "textureLod", "textureOffset", "textureProjOffset", "textureLodOffset", "textureProjLod",
    "textureProjLodOffset", "textureGrad", "textureGradOffset", "textureProjGrad",
    "textureProjGradOffset", "texelFetch", "texelFetchOffset", "textureSize", "texture1DProj",
    "texture1DLod", "texture1DProjLod", "shadow1D", "shadow2D", "shadow1DProj", "shadow2DProj",
    "shadow1DLod", "shadow2DLod", "shadow1DProjLod", "shadow2DProjLod", "noise1", "noise2",
    "noise3", "noise4", "ftransform",
};

// The same for ESSL 3.00 compiled as ESSL 3.10: what 3.10 (or Vulkan GLSL)
// added as keywords and built-in functions.
const char* const kWords300[] = {
    // keywords (coherent, readonly, image types... are reserved in 3.00 already)
    "buffer", "shared",
    "sampler", "samplerShadow", "texture2D", "texture3D", "textureCube", "texture2DArray",
    "itexture2D", "utexture2D", "itexture3D", "utexture3D", "itextureCube", "utextureCube",
    "itexture2DArray", "utexture2DArray", "subpassInput", "isubpassInput", "usubpassInput",
    "subpassInputMS",
    // built-in functions of ESSL 3.10
    "bitfieldExtract", "bitfieldInsert", "bitfieldReverse", "bitCount", "findLSB", "findMSB",
    "uaddCarry", "usubBorrow", "umulExtended", "imulExtended", "frexp", "ldexp", "packUnorm4x8",
    "packSnorm4x8", "unpackUnorm4x8", "unpackSnorm4x8", "textureGather", "textureGatherOffset",
    "textureGatherOffsets", "memoryBarrier", "memoryBarrierAtomicCounter", "memoryBarrierBuffer",
    "memoryBarrierImage", "memoryBarrierShared", "groupMemoryBarrier", "barrier", "imageLoad",
    "imageStore", "imageSize", "imageAtomicAdd", "imageAtomicMin", "imageAtomicMax",
    "imageAtomicAnd", "imageAtomicOr", "imageAtomicXor", "imageAtomicExchange",
    "imageAtomicCompSwap", "atomicCounterIncrement", "atomicCounterDecrement", "atomicCounter",
    "atomicAdd", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor", "atomicExchange",
    "atomicCompSwap",
};

// The same for desktop GLSL 1.10/1.20 compiled as GLSL 1.40: what 1.30/1.40
// (or Vulkan GLSL) added. Not listed: what 1.10/1.20 have themselves (the
// matNxM types and `centroid` of 1.20, the texture1D/shadow2D family,
// ftransform, noise, transpose, outerProduct).
const char* const kWordsDesktop[] = {
    // keywords
    "uint", "uvec2", "uvec3", "uvec4", "case", "smooth", "noperspective", "layout",
    "sampler1DArray", "sampler2DArray", "sampler1DArrayShadow", "sampler2DArrayShadow", "samplerCubeShadow",
    "isampler1D", "isampler2D", "isampler3D", "isamplerCube", "isampler1DArray", "isampler2DArray", "usampler1D",
    "usampler2D", "usampler3D", "usamplerCube", "usampler1DArray", "usampler2DArray", "isampler2DRect",
    "usampler2DRect", "samplerBuffer", "isamplerBuffer", "usamplerBuffer",
    // Vulkan GLSL's separate texture/sampler types
    "sampler", "samplerShadow", "texture1DArray", "texture2DArray", "textureBuffer", "texture2DRect", "itexture2D",
    "utexture2D", "itexture3D", "utexture3D", "itextureCube", "utextureCube", "subpassInput", "isubpassInput",
    "usubpassInput", "subpassInputMS",
    // built-in functions of GLSL 1.30/1.40
    "trunc", "round", "roundEven", "modf", "isnan", "isinf", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "inverse", "texture", "textureProj", "textureLod", "textureOffset", "textureProjOffset", "textureLodOffset",
    "textureProjLod", "textureProjLodOffset", "textureGrad", "textureGradOffset", "textureProjGrad",
    "textureProjGradOffset", "texelFetch", "texelFetchOffset", "textureSize",
};

template <size_t N>
std::regex words_regex(const char* const (&words)[N]) {
    std::string alt;
    for (const char* w : words) alt += (alt.empty() ? "" : "|") + std::string(w);
    return std::regex("\\b(" + alt + ")\\b");
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Index of the bracket closing the one at `open` (same kind), or npos.
size_t matching(const std::string& s, size_t open) {
    const char o = s[open], c = o == '(' ? ')' : o == '[' ? ']' : '}';
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
        if (s[i] == o) ++depth;
        else if (s[i] == c && --depth == 0) return i;
    }
    return std::string::npos;
}

// The operands of a sequence expression: `s` split at its top-level commas.
std::vector<std::string> split_top(const std::string& s) {
    std::vector<std::string> parts(1);
    int depth = 0;
    for (char c : s) {
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') --depth;
        if (c == ',' && depth == 0) parts.emplace_back();
        else parts.back() += c;
    }
    return parts;
}

bool side_effects(const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i) {
        if ((s[i] == '+' || s[i] == '-') && i + 1 < s.size() && s[i + 1] == s[i]) return true;
        if (s[i] == '=') {
            const char prev = i ? s[i - 1] : ' ', next = i + 1 < s.size() ? s[i + 1] : ' ';
            if (next == '=' || prev == '=' || prev == '!' || prev == '<' || prev == '>') {
                if (next == '=') ++i;  // a comparison
                continue;
            }
            return true;  // =, +=, -=, ...
        }
    }
    return false;
}

// A constant expression with every grouping parenthesis that holds a
// sequence replaced by its last operand (function calls and constructors
// keep their argument lists; their arguments are folded in turn).
std::string fold_expression(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        if (s[i] != '(') {
            out += s[i++];
            continue;
        }
        const size_t close = matching(s, i);
        if (close == std::string::npos) {
            out += s.substr(i);
            break;
        }
        std::string inner = s.substr(i + 1, close - i - 1);
        const size_t k = out.find_last_not_of(" \t\r\n");
        const bool call = k != std::string::npos && (ident_char(out[k]) || out[k] == ']' || out[k] == ')');
        if (!call) {
            std::vector<std::string> parts = split_top(inner);
            bool pure = parts.size() > 1;
            for (size_t p = 0; pure && p + 1 < parts.size(); ++p) pure = !side_effects(parts[p]);
            if (pure) inner = parts.back();
        }
        out += "(" + fold_expression(inner) + ")";
        i = close + 1;
    }
    return out;
}

}  // namespace

std::string rename_foreign_words(const std::string& src, int version) {
    static const std::regex w100 = words_regex(kWords100), w300 = words_regex(kWords300),
                            desktop = words_regex(kWordsDesktop);
    const bool legacy_desktop = version == 110 || version == 120;
    const std::regex& words = legacy_desktop ? desktop : version < 300 ? w100 : w300;
    std::string out = std::regex_replace(src, words, std::string(kRenamePrefix) + "$1");
    // Extensions that bring layout qualifiers to GLSL 1.10/1.20 (located
    // attributes and outputs, uniform blocks): `layout` is theirs there.
    if (legacy_desktop && out.find(std::string(kRenamePrefix) + "layout") != std::string::npos &&
        gl::enables_layout_qualifiers(src)) {
        static const std::regex renamed(std::string("\\b") + kRenamePrefix + "layout\\b");
        out = std::regex_replace(out, renamed, "layout");
    }
    return out;
}

std::string unrename(const std::string& name) {
    static const std::string prefix = kRenamePrefix;
    std::string out = name;
    for (size_t at; (at = out.find(prefix)) != std::string::npos;) out.erase(at, prefix.size());
    return out;
}

std::string fold_constant_sequences(const std::string& src) {
    if (src.find(',') == std::string::npos) return src;
    std::string out;
    out.reserve(src.size());
    int depth = 0;                    // braces
    bool stmt_start = true, stmt_const = false;
    bool line_start = true;
    for (size_t i = 0; i < src.size();) {
        const char c = src[i];
        // Comments and preprocessor lines pass through untouched.
        if (src.compare(i, 2, "//") == 0 || (c == '#' && line_start)) {
            size_t eol = src.find('\n', i);
            if (eol == std::string::npos) eol = src.size();
            out += src.substr(i, eol - i);
            i = eol;
            continue;
        }
        if (src.compare(i, 2, "/*") == 0) {
            size_t end = src.find("*/", i + 2);
            end = end == std::string::npos ? src.size() : end + 2;
            out += src.substr(i, end - i);
            i = end;
            continue;
        }
        if (c == '\n') line_start = true;
        else if (c != ' ' && c != '\t' && c != '\r') line_start = false;
        if (ident_char(c)) {
            size_t e = i;
            while (e < src.size() && ident_char(src[e])) ++e;
            const std::string word = src.substr(i, e - i);
            if (stmt_start) stmt_const = word == "const";
            stmt_start = false;
            out += word;
            i = e;
            continue;
        }
        if (c == ';' || c == '{' || c == '}') {
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            stmt_start = true;
            stmt_const = false;
            out += c;
            ++i;
            continue;
        }
        const bool constant_ctx = depth == 0 || stmt_const;
        const char prev = i ? src[i - 1] : ' ', next = i + 1 < src.size() ? src[i + 1] : ' ';
        const bool assign = c == '=' && next != '=' && std::string("=!<>+-*/%&|^").find(prev) == std::string::npos;
        if (constant_ctx && (c == '[' || assign)) {
            // The constant expression: an array size up to its `]`, an
            // initializer up to the `;` or the `,` that ends its declarator.
            size_t end;
            if (c == '[') {
                end = matching(src, i);
            } else {
                int d = 0;
                for (end = i + 1; end < src.size(); ++end) {
                    const char x = src[end];
                    if (x == '(' || x == '[' || x == '{') ++d;
                    else if (x == ')' || x == ']' || x == '}') --d;
                    if (d < 0 || (d == 0 && (x == ';' || x == ','))) break;
                }
            }
            if (end == std::string::npos || end >= src.size()) {
                out += src.substr(i);
                break;
            }
            const std::string body = src.substr(i + 1, end - i - 1);
            if (body.find("//") != std::string::npos || body.find("/*") != std::string::npos ||
                body.find('#') != std::string::npos) {
                out += c;  // a comment or directive inside: leave the expression as written
                ++i;
                continue;
            }
            out += c;
            out += fold_expression(body);
            i = end;  // the closing `]`, `;` or `,` is copied next
            stmt_start = false;
            continue;
        }
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') stmt_start = false;
        out += c;
        ++i;
    }
    return out;
}

}  // namespace mgl::magma
