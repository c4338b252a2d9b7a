#include "frame_set.h"

#include <charconv>

namespace mgl::tools {

namespace {
bool number(std::string_view s, uint64_t* v) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}
}  // namespace

bool FrameSet::parse(const std::string& text, std::string* error) {
    if (text == "*") return all_ = true;
    std::string_view rest = text;
    while (!rest.empty()) {
        const size_t comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        uint64_t a, b;
        const size_t dash = item.find('-');
        const bool ok = dash == std::string_view::npos
                            ? number(item, &a) && (b = a, true)
                            : number(item.substr(0, dash), &a) && number(item.substr(dash + 1), &b) && a <= b;
        if (!ok) {
            *error = "'" + std::string(item) + "' is not a frame number or a range A-B (in '" + text + "')";
            return false;
        }
        ranges_.push_back({a, b});
    }
    if (ranges_.empty()) {
        *error = "an empty frame list";
        return false;
    }
    return true;
}

bool FrameSet::contains(uint64_t f) const {
    if (all_) return true;
    for (auto& [a, b] : ranges_)
        if (f >= a && f <= b) return true;
    return false;
}

}  // namespace mgl::tools
