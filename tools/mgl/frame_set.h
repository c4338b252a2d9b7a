// A set of frame numbers given on the command line: "100,200,300", ranges
// "10-20", "*" for all. Frame k ends at the k-th swap, counting from 0 (the
// reference traces' convention).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mgl::tools {

class FrameSet {
public:
    // False with *error set on a malformed list.
    bool parse(const std::string& text, std::string* error);
    bool contains(uint64_t frame) const;
    bool empty() const { return !all_ && ranges_.empty(); }

private:
    bool all_ = false;
    std::vector<std::pair<uint64_t, uint64_t>> ranges_;  // inclusive
};

}  // namespace mgl::tools
