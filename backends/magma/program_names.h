// Names of program resources as GL spells them to and from the client:
// shared by the program queries (programs.cc, uniform_blocks.cc).
#pragma once

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>

#include "backend.h"

namespace mgl::magma {

// "name", "name[3]" -> base name and element.
inline bool split_name(const std::string& n, std::string& base, int& element) {
    element = 0;
    base = n;
    if (n.empty() || n.back() != ']') return true;
    const size_t open = n.rfind('[');
    if (open == std::string::npos) return false;
    const std::string idx = n.substr(open + 1, n.size() - open - 2);
    if (idx.empty() || idx.find_first_not_of("0123456789") != std::string::npos) return false;
    // from_chars, not stoi: an index too large for int comes from the client
    // and must be an unknown name, not an exception that ends the server.
    if (std::from_chars(idx.data(), idx.data() + idx.size(), element).ec != std::errc()) return false;
    base = n.substr(0, open);
    return true;
}

inline void copy_string(const std::string& s, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> out) {
    GLsizei n = 0;
    if (bufSize > 0 && out.size > 0) {
        n = GLsizei(std::min({s.size(), size_t(bufSize) - 1, size_t(out.size) - 1}));
        std::memcpy(out.data, s.data(), size_t(n));  // GLchar is signed char on the wire
        out.data[n] = 0;
    }
    if (length.count()) length.data[0] = n;
}

inline std::string in_string(wire::In<GLchar> s) {
    const char* p = reinterpret_cast<const char*>(s.data);
    return std::string(p, strnlen(p, s.size));
}

// GL's active uniform `index`: the loose ones (samplers, the default
// block's), then the members of uniform blocks; nullptr past them.
inline const UniformInfo* active_uniform(const LinkedProgram& lp, GLuint index) {
    if (index < lp.uniforms.size()) return &lp.uniforms[index];
    index -= GLuint(lp.uniforms.size());
    return index < lp.block_uniforms.size() ? &lp.block_uniforms[index] : nullptr;
}

// The name GL gives an active uniform: an array's with "[0]".
inline std::string active_name(const UniformInfo& u) { return u.array_size > 1 ? u.name + "[0]" : u.name; }

}  // namespace mgl::magma
