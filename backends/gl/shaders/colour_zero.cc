#include "colour_zero.h"

#include <regex>

#include "glsl_lift.h"

namespace mgl::gl {

namespace {

// The source with its comments blanked (a declaration commented out is none).
std::string without_comments(const std::string& s) {
    std::string out = s;
    for (size_t i = 0; i + 1 < out.size(); ++i) {
        if (out[i] == '/' && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n') out[i++] = ' ';
        } else if (out[i] == '/' && out[i + 1] == '*') {
            size_t end = out.find("*/", i + 2);
            end = end == std::string::npos ? out.size() : end + 2;
            for (; i < end; ++i)
                if (out[i] != '\n') out[i] = ' ';
            --i;
        }
    }
    return out;
}

}  // namespace

std::string desktop_colour_zero(const std::string& source) {
    const std::string s = without_comments(source);
    if (mentions_word(s, "gl_FragData")) return "gl_FragData[0]";
    if (mentions_word(s, "gl_FragColor")) return "gl_FragColor";
    // Global output declarations end with `;` (a function's `out` parameter
    // does not); the type and name are the last two words before it.
    static const std::regex decl(
        R"((?:layout\s*\(([^)]*)\)\s*)?(?:\b(?:flat|smooth|noperspective|centroid|invariant|precise|highp|mediump|lowp)\s+)*\bout\s+(?:(?:highp|mediump|lowp)\s+)?(\w+)\s+(\w+)\s*(\[[^\]]*\])?\s*;)");
    static const std::regex location_zero(R"(\blocation\s*=\s*0\b)");
    std::string only;
    int outputs = 0;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), decl); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        ++outputs;
        if (m[2].str() != "vec4") continue;
        const std::string expr = m[3].str() + (m[4].matched ? "[0]" : "");
        if (m[1].matched && std::regex_search(m[1].first, m[1].second, location_zero)) return expr;
        if (!m[1].matched || m[1].str().find("location") == std::string::npos) only = expr;
    }
    return outputs == 1 ? only : std::string();
}

}  // namespace mgl::gl
