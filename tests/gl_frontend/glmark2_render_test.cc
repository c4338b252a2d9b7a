// glmark2's desktop shaders drawn through the front end and natively: every
// vertex/fragment pair of a scene that links on native desktop GL is drawn
// on both with the same inputs, chosen by name (uniforms and attributes get
// values derived from their names, so that the two linkers' different
// orders do not matter), and the pictures must be identical.
#include <doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "gl_pair.h"

using namespace glfe_test;
namespace fs = std::filesystem;

namespace {

float value_of(const std::string& name, int i) {
    uint32_t h = 2166136261u;
    for (char c : name) h = (h ^ uint8_t(c)) * 16777619u;
    h = (h ^ uint32_t(i)) * 16777619u;
    return float(h % 1000) / 1000.0f;  // [0, 1)
}

// Uniforms by name: near-identity matrices (so the quad stays in view),
// values in [0, 1) for the rest, samplers on unit 0 with the test texture.
void inputs_by_name(GLuint prog) {
    GLint n = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
    bool texture = false;
    for (GLint i = 0; i < n; ++i) {
        char raw[256] = {};
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(prog, GLuint(i), sizeof raw, nullptr, &size, &type, raw);
        std::string name = raw;
        if (name.size() > 3 && name.compare(name.size() - 3, 3, "[0]") == 0) name.resize(name.size() - 3);
        for (GLint e = 0; e < size; ++e) {
            const std::string element = size > 1 ? name + "[" + std::to_string(e) + "]" : name;
            const GLint loc = glGetUniformLocation(prog, element.c_str());
            if (loc < 0) continue;
            float v[16];
            for (int k = 0; k < 16; ++k) v[k] = value_of(element, k);
            switch (type) {
                case GL_FLOAT: glUniform1fv(loc, 1, v); break;
                case GL_FLOAT_VEC2: glUniform2fv(loc, 1, v); break;
                case GL_FLOAT_VEC3: glUniform3fv(loc, 1, v); break;
                case GL_FLOAT_VEC4: glUniform4fv(loc, 1, v); break;
                case GL_FLOAT_MAT2:
                case GL_FLOAT_MAT3:
                case GL_FLOAT_MAT4: {
                    const int d = type == GL_FLOAT_MAT2 ? 2 : type == GL_FLOAT_MAT3 ? 3 : 4;
                    for (int k = 0; k < d * d; ++k) v[k] = (k % (d + 1) == 0 ? 1.0f : 0.0f) + 0.1f * (v[k] - 0.5f);
                    if (d == 2) glUniformMatrix2fv(loc, 1, GL_FALSE, v);
                    else if (d == 3) glUniformMatrix3fv(loc, 1, GL_FALSE, v);
                    else glUniformMatrix4fv(loc, 1, GL_FALSE, v);
                    break;
                }
                case GL_INT:
                case GL_BOOL: glUniform1i(loc, int(v[0] * 4)); break;
                case GL_SAMPLER_2D:
                    glUniform1i(loc, 0);
                    texture = true;
                    break;
                default: break;
            }
        }
    }
    if (texture) bind_test_texture();
    glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTES, &n);
    for (GLint i = 0; i < n; ++i) {
        char name[256] = {};
        GLint size = 0;
        GLenum type = 0;
        glGetActiveAttrib(prog, GLuint(i), sizeof name, nullptr, &size, &type, name);
        const GLint loc = glGetAttribLocation(prog, name);
        if (loc > 0)  // 0 is the quad's "position"
            glVertexAttrib4f(GLuint(loc), value_of(name, 0), value_of(name, 1), value_of(name, 2), 1.0f);
    }
}

std::string read(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("glmark2 desktop programs: every linkable pair of a scene draws as on native desktop GL") {
    GlPair& p = GlPair::get();
    REQUIRE(p.why.empty());
    std::map<std::string, std::vector<fs::path>> verts, frags;
    for (const auto& e : fs::directory_iterator(MGL_GL_FRONTEND_DATA "/glmark2")) {
        const std::string file = e.path().filename().string();
        const std::string scene = file.substr(0, file.find('-'));
        (e.path().extension() == ".vert" ? verts : frags)[scene].push_back(e.path());
    }
    int pairs = 0, drawn = 0;
    for (const auto& [scene, vs] : verts) {
        for (const fs::path& v : vs) {
            for (const fs::path& f : frags[scene]) {
                Case c;
                c.vs = {read(v)};
                c.fs = {read(f)};
                c.setup = inputs_by_name;
                const Image native = render_native(c);
                if (!native.ok) continue;  // not a pair glmark2 links
                CAPTURE(v.filename().string());
                CAPTURE(f.filename().string());
                const Image ours = render_translated(c);
                REQUIRE_MESSAGE(ours.ok, ours.log);
                CHECK(ours.colour[0] == native.colour[0]);
                ++pairs;
                bool any = false;
                for (uint8_t b : native.colour[0]) any = any || b != 0;
                drawn += any;
            }
        }
    }
    MESSAGE(pairs << " glmark2 vertex/fragment pairs compared, " << drawn << " of them drew something");
    CHECK(pairs >= 20);
    CHECK(drawn * 2 >= pairs);
}
