#include "frag_coord.h"

#include <algorithm>
#include <regex>

#include "glsl_lift.h"

namespace mgl::gl {

bool lower_frag_coord_layout(std::vector<std::string>& sources, std::string& preamble, std::string& error) {
    static const std::regex kRedeclared(R"((layout\s*\(([^)]*)\)\s*)?\bin\s+(highp\s+|mediump\s+|lowp\s+)?vec4\s+gl_FragCoord\s*;)");
    bool integer = false;
    int found_in = -1;
    for (size_t i = 0; i < sources.size(); ++i) {
        std::smatch m;
        if (!std::regex_search(sources[i], m, kRedeclared)) continue;
        const std::string qualifiers = m.str(2);
        if (std::regex_search(qualifiers, std::regex(R"(\borigin_upper_left\b)"))) {
            const auto line = 1 + std::count(sources[i].begin(), sources[i].begin() + m.position(0), '\n');
            error = "ERROR: " + std::to_string(i) + ":" + std::to_string(line) +
                    ": 'origin_upper_left' : not supported by this OpenGL implementation yet (an OpenGL ES "
                    "host has the lower-left origin only)\n";
            return false;
        }
        integer = integer || std::regex_search(qualifiers, std::regex(R"(\bpixel_center_integer\b)"));
        // Blanked, newlines kept, so that the log's line numbers stay the application's.
        std::string& s = sources[i];
        for (size_t k = size_t(m.position(0)); k < size_t(m.position(0) + m.length(0)); ++k)
            if (s[k] != '\n') s[k] = ' ';
        found_in = int(i);
    }
    if (found_in < 0 || !integer) return true;
    bool has_main = false;
    for (std::string& s : sources) {
        const std::string renamed = replace_word(replace_word(s, "gl_FragCoord", "mgl_FragCoord"), "main", "mgl_main");
        has_main = has_main || renamed.find("mgl_main") != std::string::npos;
        s = renamed;
    }
    preamble += "vec4 mgl_FragCoord;\n";
    if (has_main)
        sources.back() += "\nvoid main() { mgl_FragCoord = vec4(gl_FragCoord.xy - vec2(0.5), gl_FragCoord.zw); mgl_main(); }\n";
    return true;
}

}  // namespace mgl::gl
