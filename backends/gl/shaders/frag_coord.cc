#include "frag_coord.h"

#include <algorithm>
#include <regex>

#include "driver_uniforms.h"
#include "glsl_lift.h"

namespace mgl::gl {

namespace {

// The joined sources with comments blanked (lengths kept), so that a word
// inside a comment is no use and offsets stay the sources'.
std::string code_only(const std::string& s) {
    std::string out = s;
    size_t i = 0;
    while (i < out.size()) {
        if (out.compare(i, 2, "//") == 0) {
            while (i < out.size() && out[i] != '\n') out[i++] = ' ';
        } else if (out.compare(i, 2, "/*") == 0) {
            const size_t e = out.find("*/", i + 2);
            const size_t end = e == std::string::npos ? out.size() : e + 2;
            for (; i < end; ++i)
                if (out[i] != '\n') out[i] = ' ';
        } else {
            ++i;
        }
    }
    return out;
}

struct Redeclaration {
    size_t at, length;  // in the joined text
    bool upper = false, integer = false;
};

// "ERROR: s:l: ..." at offset `at` of the joined sources.
std::string error_at(const std::vector<std::string>& sources, size_t at, const std::string& what) {
    size_t i = 0;
    while (i + 1 < sources.size() && at >= sources[i].size()) at -= sources[i++].size();
    const auto line = 1 + std::count(sources[i].begin(), sources[i].begin() + std::min(at, sources[i].size()), '\n');
    return "ERROR: " + std::to_string(i) + ":" + std::to_string(line) + ": 'gl_FragCoord' : " + what + "\n";
}

}  // namespace

bool blank_frag_coord_redeclarations(std::vector<std::string>& sources, int version, bool* upper, bool* integer,
                                     std::string& error) {
    *upper = *integer = false;
    std::string joined;
    for (const std::string& s : sources) joined += s;
    if (joined.find("gl_FragCoord") == std::string::npos) return true;
    const std::string code = code_only(joined);
    static const std::regex kRedeclared(
        R"((layout\s*\(([^)]*)\)\s*)?\b(in|varying)\s+(highp\s+|mediump\s+|lowp\s+)?vec4\s+gl_FragCoord\s*;)");
    static const std::regex kUpper(R"(\borigin_upper_left\b)"), kInteger(R"(\bpixel_center_integer\b)");
    std::vector<Redeclaration> found;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), kRedeclared); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        const std::string qualifiers = m.str(2);
        found.push_back({size_t(m.position(0)), size_t(m.length(0)), std::regex_search(qualifiers, kUpper),
                         std::regex_search(qualifiers, kInteger)});
        // GLSL 1.10-1.40 have the layout qualifiers through the extension only.
        if (version < 150 && m.length(1) > 0) {
            static const std::regex kEnabled(
                R"(#\s*extension\s+GL_ARB_fragment_coord_conventions\s*:\s*(enable|require|warn))");
            if (!std::regex_search(code, kEnabled)) {
                error = error_at(sources, found.back().at,
                                 "layout qualifiers need #extension GL_ARB_fragment_coord_conventions before GLSL 1.50");
                return false;
            }
        }
    }
    if (found.empty()) return true;
    // GLSL 1.50 §4.3.8.1: "Within any shader, the first redeclarations of
    // gl_FragCoord must appear before any use of gl_FragCoord" and "if
    // gl_FragCoord is redeclared [...] its redeclarations must have the same
    // set of qualifiers".
    const std::regex kWord(R"(\bgl_FragCoord\b)");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), kWord); it != std::sregex_iterator(); ++it) {
        if (size_t(it->position(0)) >= found.front().at) break;
        error = error_at(sources, size_t(it->position(0)), "cannot redeclare after use");
        return false;
    }
    for (const Redeclaration& r : found)
        if (r.upper != found.front().upper || r.integer != found.front().integer) {
            error = error_at(sources, r.at, "redeclarations must have the same set of layout qualifiers");
            return false;
        }
    // The declarations go (glslang's OpenGL SPIR-V and ESSL take none),
    // blanked with their newlines kept: the log's line numbers stay the
    // application's.
    for (const Redeclaration& r : found)
        for (size_t k = r.at; k < r.at + r.length; ++k)
            if (joined[k] != '\n') joined[k] = ' ';
    size_t at = 0;
    for (std::string& s : sources) {
        s = joined.substr(at, s.size());
        at += s.size();
    }
    *upper = found.front().upper;
    *integer = found.front().integer;
    return true;
}

std::string frag_coord_link_rule(const std::vector<std::vector<std::string>>& objects) {
    static const std::regex kRedeclared(
        R"((layout\s*\(([^)]*)\)\s*)?\b(in|varying)\s+(highp\s+|mediump\s+|lowp\s+)?vec4\s+gl_FragCoord\s*;)");
    static const std::regex kUpper(R"(\borigin_upper_left\b)"), kInteger(R"(\bpixel_center_integer\b)");
    static const std::regex kWord(R"(\bgl_FragCoord\b)");
    struct Object {
        bool redeclared = false, used = false, upper = false, integer = false;
    };
    std::vector<Object> seen;
    for (const std::vector<std::string>& sources : objects) {
        std::string joined;
        for (const std::string& s : sources) joined += s;
        Object o;
        if (joined.find("gl_FragCoord") != std::string::npos) {
            std::string code = code_only(joined);
            std::smatch m;
            if (std::regex_search(code, m, kRedeclared)) {
                o.redeclared = true;
                o.upper = std::regex_search(m.str(2), kUpper);
                o.integer = std::regex_search(m.str(2), kInteger);
                code = std::regex_replace(code, kRedeclared, " ");
            }
            o.used = std::regex_search(code, kWord);
        }
        seen.push_back(o);
    }
    const auto first = std::find_if(seen.begin(), seen.end(), [](const Object& o) { return o.redeclared; });
    if (first == seen.end()) return {};
    for (const Object& o : seen) {
        if (o.used && !o.redeclared)
            return "ERROR: Linking: gl_FragCoord is redeclared in one fragment shader and used without a "
                   "redeclaration in another (GLSL 1.50 §4.3.8.1)\n";
        if (o.redeclared && (o.upper != first->upper || o.integer != first->integer))
            return "ERROR: Linking: the fragment shaders redeclare gl_FragCoord with different layout qualifiers "
                   "(GLSL 1.50 §4.3.8.1)\n";
    }
    return {};
}

bool lower_frag_coord_layout(std::vector<std::string>& sources, int version, std::string& preamble, std::string& error) {
    bool upper = false, integer = false;
    if (!blank_frag_coord_redeclarations(sources, version, &upper, &integer, error)) return false;
    if (!upper && !integer) return true;
    bool has_main = false;
    for (std::string& s : sources) {
        const std::string renamed = replace_word(replace_word(s, "gl_FragCoord", "mgl_FragCoord"), "main", "mgl_main");
        has_main = has_main || renamed.find("mgl_main") != std::string::npos;
        s = renamed;
    }
    preamble += "vec4 mgl_FragCoord;\n";
    if (upper) preamble += std::string("uniform float ") + kDrawHeightUniform + ";\n";
    // Upper left: the row from the top, H - y (a centre stays a centre);
    // integer centres: 0.5 less on both axes.
    const std::string x = integer ? "gl_FragCoord.x - 0.5" : "gl_FragCoord.x";
    const std::string y = upper ? std::string(kDrawHeightUniform) + (integer ? " - gl_FragCoord.y - 0.5" : " - gl_FragCoord.y")
                                : (integer ? "gl_FragCoord.y - 0.5" : "gl_FragCoord.y");
    if (has_main)
        sources.back() += "\nvoid main() { mgl_FragCoord = vec4(" + x + ", " + y + ", gl_FragCoord.zw); mgl_main(); }\n";
    return true;
}

}  // namespace mgl::gl
