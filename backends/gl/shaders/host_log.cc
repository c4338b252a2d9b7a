#include "host_log.h"

#include <regex>

namespace mgl::gl {

std::string map_host_log(const std::string& log, const std::vector<uint32_t>& lines) {
    static const std::regex ref(R"((^|\n)((?:ERROR|WARNING): )?(\d+):(\d+))");
    std::string out;
    auto it = std::sregex_iterator(log.begin(), log.end(), ref);
    size_t done = 0;
    for (; it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        const unsigned long essl = std::stoul(m[4].str().substr(0, 9));
        out.append(log, done, size_t(m.position(0)) - done);
        out += m[1].str() + m[2].str() + m[3].str() + ":";
        out += essl >= 1 && essl <= lines.size() && lines[essl - 1] ? std::to_string(lines[essl - 1]) : m[4].str();
        done = size_t(m.position(0) + m.length(0));
    }
    out.append(log, done, std::string::npos);
    return out;
}

}  // namespace mgl::gl
