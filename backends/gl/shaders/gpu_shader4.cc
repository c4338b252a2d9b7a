#include "gpu_shader4.h"

#include <cctype>
#include <regex>

namespace mgl::gl {

namespace {

// The extension's per-sampler lookups that return what 1.30's do: each
// dimension spelled in, the same arguments as 1.30's overload.
struct Family {
    const char* prefix;   // before the dimension
    const char* suffix;   // after it
    const char* to;       // GLSL 1.30's name
    const char* dims;     // the dimensions that have it, space-separated
};
const Family kFamilies[] = {
    {"texelFetch", "", "texelFetch", "1D 2D 3D 2DRect 1DArray 2DArray Buffer"},
    {"texelFetch", "Offset", "texelFetchOffset", "1D 2D 3D 2DRect 1DArray 2DArray"},
    {"textureSize", "", "textureSize", "1D 2D 3D Cube 2DRect 1DArray 2DArray Buffer"},
    {"texture", "Offset", "textureOffset", "1D 2D 3D 2DRect 1DArray 2DArray"},
    {"texture", "ProjOffset", "textureProjOffset", "1D 2D 3D 2DRect"},
    {"texture", "LodOffset", "textureLodOffset", "1D 2D 3D 1DArray 2DArray"},
    {"texture", "ProjLodOffset", "textureProjLodOffset", "1D 2D 3D"},
    {"texture", "Grad", "textureGrad", "1D 2D 3D Cube 2DRect 1DArray 2DArray"},
    {"texture", "ProjGrad", "textureProjGrad", "1D 2D 3D 2DRect"},
    {"texture", "GradOffset", "textureGradOffset", "1D 2D 3D 2DRect 1DArray 2DArray"},
    {"texture", "ProjGradOffset", "textureProjGradOffset", "1D 2D 3D 2DRect"},
};

// The extension's shadow lookups: 1.10's vec4 result (r, r, r, 1) of 1.30's
// float one. Rewritten where called, not wrapped in functions: an offset
// argument must stay a constant expression.
const char* const kShadowDims[] = {"1D", "2D", "2DRect", "1DArray", "2DArray", "Cube"};
const struct {
    const char* suffix;
    const char* to;
} kShadowForms[] = {
    {"Offset", "textureOffset"},     {"ProjOffset", "textureProjOffset"},
    {"LodOffset", "textureLodOffset"}, {"ProjLodOffset", "textureProjLodOffset"},
    {"Grad", "textureGrad"},         {"ProjGrad", "textureProjGrad"},
    {"GradOffset", "textureGradOffset"}, {"ProjGradOffset", "textureProjGradOffset"},
};

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Every call `name(args)` in `s` becomes `vec4(vec3(to(args)), 1.0)`; a call
// without its closing parenthesis is left as it is (the compile says why).
void rewrite_calls(std::string& s, const std::string& name, const std::string& to) {
    for (size_t at = s.find(name); at != std::string::npos; at = s.find(name, at + 1)) {
        if ((at > 0 && ident(s[at - 1])) || (at + name.size() < s.size() && ident(s[at + name.size()]))) continue;
        size_t open = at + name.size();
        while (open < s.size() && (s[open] == ' ' || s[open] == '\t')) ++open;
        if (open >= s.size() || s[open] != '(') continue;
        int depth = 0;
        size_t close = open;
        for (; close < s.size(); ++close) {
            if (s[close] == '(') ++depth;
            else if (s[close] == ')' && --depth == 0) break;
        }
        if (close >= s.size()) return;
        const std::string call = "vec4(vec3(" + to + s.substr(open, close + 1 - open) + "), 1.0)";
        s.replace(at, close + 1 - at, call);
        at += std::string("vec4(vec3(").size() + to.size() - 1;  // on inside the arguments
    }
}

}  // namespace

void respell_gpu_shader4(std::vector<std::string>& sources) {
    static const std::regex unsigned_int(R"(\bunsigned\s+int\b)"), varying_out(R"(\bvarying\s+out\b)");
    for (std::string& s : sources) {
        if (s.find("unsigned") != std::string::npos) s = std::regex_replace(s, unsigned_int, "uint");
        if (s.find("varying") != std::string::npos) s = std::regex_replace(s, varying_out, "out");
        if (s.find("shadow") == std::string::npos) continue;
        rewrite_calls(s, "shadowCube", "texture");
        for (const char* dim : kShadowDims)
            for (const auto& form : kShadowForms) rewrite_calls(s, std::string("shadow") + dim + form.suffix, form.to);
    }
}

std::string gpu_shader4_lookups() {
    std::string out;
    for (const Family& f : kFamilies) {
        const std::string dims = f.dims;
        for (size_t at = 0; at < dims.size();) {
            size_t end = dims.find(' ', at);
            if (end == std::string::npos) end = dims.size();
            out += "#define " + std::string(f.prefix) + dims.substr(at, end - at) + f.suffix + " " + f.to + "\n";
            at = end + 1;
        }
    }
    return out;
}

}  // namespace mgl::gl
