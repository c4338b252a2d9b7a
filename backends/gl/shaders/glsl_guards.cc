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

std::string unflat_integer_block_inputs(const std::vector<std::string>& sources) {
    const std::string text = without_comments(sources);
    if (text.find('{') == std::string::npos) return {};
    static const std::regex kWord(R"([A-Za-z_]\w*)");
    static const std::regex kInteger(R"(^(u?int|[iu]vec[234])$)");
    auto words = [](const std::string& s) {
        std::vector<std::string> w;
        for (auto it = std::sregex_iterator(s.begin(), s.end(), kWord); it != std::sregex_iterator(); ++it)
            w.push_back((*it)[0].str());
        return w;
    };
    // Structures holding an integer, directly or through another such structure.
    static const std::regex kStruct(R"(\bstruct\s+([A-Za-z_]\w*)\s*\{([^}]*)\})");
    std::vector<std::pair<std::string, std::string>> structs;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kStruct); it != std::sregex_iterator(); ++it)
        structs.emplace_back((*it)[1].str(), (*it)[2].str());
    std::set<std::string> integral;
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& [name, body] : structs) {
            if (integral.count(name)) continue;
            for (const std::string& w : words(body))
                if (std::regex_match(w, kInteger) || integral.count(w)) {
                    integral.insert(name);
                    grew = true;
                    break;
                }
        }
    }
    // Input blocks: the block's own qualifiers, its name, its members.
    static const std::regex kBlock(R"(((?:\b\w+\s*(?:\([^)]*\))?\s+)*)\bin\s+([A-Za-z_]\w*)\s*\{([^}]*)\})");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kBlock); it != std::sregex_iterator(); ++it) {
        const std::vector<std::string> block_qualifiers = words((*it)[1].str());
        if (std::find(block_qualifiers.begin(), block_qualifiers.end(), "flat") != block_qualifiers.end()) continue;
        const std::string body = (*it)[3].str();
        size_t start = 0;
        for (size_t semi = body.find(';'); semi != std::string::npos; start = semi + 1, semi = body.find(';', start)) {
            const std::vector<std::string> w = words(body.substr(start, semi - start));
            if (std::find(w.begin(), w.end(), "flat") != w.end()) continue;
            for (const std::string& word : w) {
                if (!std::regex_match(word, kInteger) && !integral.count(word)) continue;
                const size_t line = size_t(std::count(text.begin(), text.begin() + it->position(3) + start, '\n')) + 1;
                return "ERROR: 0:" + std::to_string(line) + ": '" + w.back() +
                       "' : fragment shader inputs of integer type must be qualified flat\n";
            }
        }
    }
    return {};
}

}  // namespace mgl::gl
