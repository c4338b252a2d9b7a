#include "uniform_defaults.h"

#include <cstring>
#include <regex>

#include "shader_cache.h"
#include "translate.h"
#include "uniform_init.h"

namespace mgl::magma {

namespace {

// The uniform and element a leaf's GL name stands for ("s.m", "a[2]", "s[1].v[0]").
const UniformInfo* find(const LinkedProgram& lp, const std::string& name, int& element) {
    element = 0;
    for (const UniformInfo& u : lp.uniforms)
        if (u.name == name) return &u;
    const size_t open = name.rfind('[');
    if (open == std::string::npos || name.back() != ']') return nullptr;
    const std::string base = name.substr(0, open);
    element = std::atoi(name.c_str() + open + 1);
    for (const UniformInfo& u : lp.uniforms)
        if (u.name == base && element < u.array_size) return &u;
    return nullptr;
}

}  // namespace

std::string write_uniform_initialisers(Stage stage, const std::string& source, int major, int minor,
                                       const LinkedProgram& lp, std::vector<uint8_t>& defaults) {
    // Only a source that may have one goes through the front end (cached).
    static const std::regex initialised(R"(\buniform\b[^;{]*=)");
    if (source.find("uniform") == std::string::npos || !std::regex_search(source, initialised)) return {};
    gl::ShaderInput in;
    in.stage = stage == Stage::vertex     ? gl::Stage::vertex
               : stage == Stage::geometry ? gl::Stage::geometry
               : stage == Stage::compute  ? gl::Stage::compute
                                          : gl::Stage::fragment;
    in.sources = {source};
    in.api = gl::Api::gl;
    in.major = major;
    in.minor = minor;
    const auto t = gl::translate(in, gl::EsslOptions{}, &gl::ShaderCache::process());
    if (!t->ok) return "the front end does not translate the shader: " + t->log;
    std::string not_written;
    for (const gl::UniformInit& v : gl::uniform_initialisers(t->spirv)) {
        int element = 0;
        const UniformInfo* u = find(lp, v.name, element);
        if (!u || u->offset < 0) continue;  // inactive (or not reflected: arrays of structs, a Magma gap)
        if (v.kind == gl::UniformInit::Kind::f64) {
            not_written += v.name + ": a double; ";
            continue;
        }
        const int stride = u->array_stride > 0 ? u->array_stride : v.columns * 16;
        const size_t at = size_t(u->offset) + size_t(element) * size_t(stride);
        // std140: each matrix column a vec4-aligned vector.
        for (int c = 0; c < v.columns; ++c) {
            const size_t col = at + size_t(c) * 16;
            if (col + size_t(v.rows) * 4 > defaults.size()) break;
            std::memcpy(defaults.data() + col, v.words.data() + size_t(c) * size_t(v.rows), size_t(v.rows) * 4);
        }
    }
    return not_written;
}

}  // namespace mgl::magma
