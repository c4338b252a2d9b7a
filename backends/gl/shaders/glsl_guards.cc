#include "glsl_guards.h"

#include <algorithm>
#include <regex>
#include <set>

namespace mgl::gl {

namespace {

// The sources with their comments blanked (line breaks kept, so that
// positions stay on their lines).
std::string without_comments(const std::vector<std::string>& sources) {
    std::string all;
    for (const std::string& s : sources) all += s + "\n";
    std::string out(all.size(), ' ');
    for (size_t i = 0; i < all.size();) {
        if (all.compare(i, 2, "//") == 0) {
            while (i < all.size() && all[i] != '\n') ++i;
        } else if (all.compare(i, 2, "/*") == 0) {
            const size_t end = all.find("*/", i + 2);
            const size_t stop = end == std::string::npos ? all.size() : end + 2;
            for (; i < stop; ++i)
                if (all[i] == '\n') out[i] = '\n';
        } else {
            out[i] = all[i];
            ++i;
        }
    }
    return out;
}

}  // namespace

std::string block_name_reuse(const std::vector<std::string>& sources) {
    const std::string text = without_comments(sources);
    if (text.find('{') == std::string::npos) return {};
    static const std::regex kBlock(R"(\b(?:in|out|uniform|buffer)\s+([A-Za-z_]\w*)\s*\{)");
    static const std::regex kFunction(R"(\b([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*\()");
    std::set<std::string> blocks;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kBlock); it != std::sregex_iterator(); ++it)
        blocks.insert((*it)[1].str());
    if (blocks.empty()) return {};
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kFunction); it != std::sregex_iterator(); ++it) {
        const std::string type = (*it)[1].str(), name = (*it)[2].str();
        if (type == "return" || type == "else" || !blocks.count(name)) continue;
        const size_t line = size_t(std::count(text.begin(), text.begin() + it->position(), '\n')) + 1;
        return "ERROR: 0:" + std::to_string(line) + ": '" + name +
               "' : a block name is used at global scope for something else than the block (a function)\n";
    }
    return {};
}

}  // namespace mgl::gl
