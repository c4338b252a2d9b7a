// The front end on real desktop shaders: every glmark2 desktop shader (GLSL
// 1.10 without #version) and the chunks-gl33 sources translate, and the
// host's GLES 3.2 compiles what comes out; names and written layouts are
// kept, unwritten ones are not baked in; errors keep the application's line
// numbers.
#include <doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "chunks_gl33.h"
#include "gl_pair.h"
#include "host_log.h"
#include "compat_builtins.h"
#include "frag_coord.h"
#include "driver_uniforms.h"
#include "translate.h"

using namespace mgl::gl;
using namespace glfe_test;

namespace {

std::shared_ptr<const Translation> run(Stage stage, const std::string& src, EsslOptions opt = {}) {
    ShaderInput in;
    in.stage = stage;
    in.sources = {src};
    return translate(in, opt);
}

// Compiles ESSL on the host GLES 3.2 context; "" when it compiles, else the log.
std::string host_compile(Stage stage, const std::string& essl) {
    if (!GlPair::get().use_es()) return "no GLES context";
    const GLuint s = glCreateShader(stage == Stage::vertex ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER);
    const char* p = essl.c_str();
    glShaderSource(s, 1, &p, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    char log[4096] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    glDeleteShader(s);
    return ok ? std::string() : std::string(log) + "\n" + essl;
}

std::string read(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

bool has_layout(const std::string& essl, const std::string& decl) {
    return std::regex_search(essl, std::regex("layout\\([^)]*\\)[^;]*\\b" + decl + "\\b"));
}

}  // namespace

TEST_CASE("every glmark2 desktop shader translates and compiles on the host GLES 3.2") {
    REQUIRE(GlPair::get().why.empty());
    int count = 0;
    for (const auto& e : std::filesystem::directory_iterator(MGL_GL_FRONTEND_DATA "/glmark2")) {
        const std::string ext = e.path().extension();
        const Stage stage = ext == ".vert" ? Stage::vertex : Stage::fragment;
        CAPTURE(e.path().filename().string());
        auto t = run(stage, read(e.path()));
        REQUIRE_MESSAGE(t->ok, t->log);
        CHECK(t->source_version == 110);
        CHECK(t->log.empty());  // no warnings about our lift (the source has no #version)
        CHECK(host_compile(stage, t->essl) == "");
        ++count;
    }
    CHECK(count >= 40);
}

TEST_CASE("chunks-gl33 sources translate with names and written locations kept") {
    auto vs = run(Stage::vertex, chunk_vs);
    REQUIRE_MESSAGE(vs->ok, vs->log);
    CHECK(host_compile(Stage::vertex, vs->essl) == "");
    // The application wrote these locations: they stay.
    CHECK(std::regex_search(vs->essl, std::regex(R"(layout\(location = 0\) in vec3 aPos;)")));
    CHECK(std::regex_search(vs->essl, std::regex(R"(layout\(location = 2\) in vec4 aColor;)")));
    // The anonymous camera block stays anonymous: members are uView, not X.uView.
    CHECK(std::regex_search(vs->essl, std::regex(R"(uniform Camera\s*\{[^}]*\};)")));
    CHECK(vs->essl.find("uView * ") != std::string::npos);
    CHECK(vs->essl.find("uniform vec3 uChunkOrigin;") != std::string::npos);
    // Varyings without locations in the source get none (matched by name).
    CHECK_FALSE(has_layout(vs->essl, "vUV"));
    for (const char* fs_src : {chunk_fs0, chunk_fs1, entity_fs}) {
        auto fs = run(Stage::fragment, fs_src);
        REQUIRE_MESSAGE(fs->ok, fs->log);
        CHECK(host_compile(Stage::fragment, fs->essl) == "");
        CHECK_FALSE(has_layout(fs->essl, "uAtlas"));  // binding not baked: glUniform1i decides
    }
    auto ev = run(Stage::vertex, entity_vs);
    REQUIRE(ev->ok);
    CHECK(host_compile(Stage::vertex, ev->essl) == "");
}

TEST_CASE("reflection lists the application's names; unwritten locations are not baked in") {
    auto vs = run(Stage::vertex,
                  "#version 150\nin vec3 position;\nin vec2 texcoord;\nuniform mat4 mvp;\nuniform sampler2D heights;\n"
                  "out vec2 uv;\nvoid main() { uv = texcoord; gl_Position = mvp * vec4(position.xy, "
                  "texture(heights, texcoord).r, 1.0); }\n");
    REQUIRE_MESSAGE(vs->ok, vs->log);
    std::vector<std::string> inputs;
    for (const Declared& d : vs->reflection.inputs) {
        inputs.push_back(d.name);
        CHECK(d.location == -1);
    }
    std::sort(inputs.begin(), inputs.end());
    CHECK(inputs == std::vector<std::string>{"position", "texcoord"});
    CHECK_FALSE(has_layout(vs->essl, "position"));
    CHECK_FALSE(has_layout(vs->essl, "mvp"));
    CHECK_FALSE(has_layout(vs->essl, "heights"));
    CHECK(vs->essl.find("highp") != std::string::npos);
    CHECK(host_compile(Stage::vertex, vs->essl) == "");
    // Written layouts are kept, as written.
    auto ws = run(Stage::vertex, "#version 420 core\nlayout(location = 3) in vec4 p;\nlayout(binding = 2) uniform sampler2D t;\n"
                                 "layout(std140, binding = 1) uniform B { vec4 k; };\n"
                                 "void main() { gl_Position = p + texture(t, p.xy) + k; }\n");
    REQUIRE_MESSAGE(ws->ok, ws->log);
    CHECK(std::regex_search(ws->essl, std::regex(R"(layout\(location = 3\) in vec4 p;)")));
    CHECK(std::regex_search(ws->essl, std::regex(R"(layout\(binding = 2\) uniform highp sampler2D t;)")));
    CHECK(std::regex_search(ws->essl, std::regex(R"(layout\(binding = 1, std140\) uniform B)")));
    CHECK(host_compile(Stage::vertex, ws->essl) == "");
}

TEST_CASE("fragment outputs: one unlocated output stays unlocated; several get declaration order or their bindings") {
    auto one = run(Stage::fragment, "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    REQUIRE(one->ok);
    CHECK_FALSE(has_layout(one->essl, "c"));
    auto two = run(Stage::fragment, "#version 330\nout vec4 a;\nout vec4 b;\nvoid main() { a = vec4(1.0); b = vec4(0.5); }\n");
    REQUIRE(two->ok);
    CHECK(std::regex_search(two->essl, std::regex(R"(layout\(location = 0\) out vec4 a;)")));
    CHECK(std::regex_search(two->essl, std::regex(R"(layout\(location = 1\) out vec4 b;)")));
    std::string essl, log;
    REQUIRE(spirv_to_essl(*two, EsslOptions{}, {{"a", 2}}, essl, log));
    CHECK(std::regex_search(essl, std::regex(R"(layout\(location = 2\) out vec4 a;)")));
    CHECK(std::regex_search(essl, std::regex(R"(layout\(location = 0\) out vec4 b;)")));
    REQUIRE(spirv_to_essl(*one, EsslOptions{}, {{"c", 3}}, essl, log));
    CHECK(std::regex_search(essl, std::regex(R"(layout\(location = 3\) out vec4 c;)")));
}

TEST_CASE("GL_ARB_draw_instanced's gl_InstanceIDARB in GLSL 1.10 compiles as gl_InstanceID") {
    auto t = run(Stage::vertex, "#extension GL_ARB_draw_instanced : enable\nuniform vec2 pos[8];\nvoid main() {\n"
                                "  gl_Position = gl_Vertex + vec4(pos[gl_InstanceIDARB], 0.0, float(gl_InstanceIDARB));\n}\n");
    REQUIRE_MESSAGE(t->ok, t->log);
    CHECK(host_compile(Stage::vertex, t->essl).empty());
    // Still read-only, as natively.
    auto w = run(Stage::vertex, "#extension GL_ARB_draw_instanced : enable\nvoid main() { gl_InstanceIDARB = 1; gl_Position = gl_Vertex; }\n");
    CHECK_FALSE(w->ok);
}

TEST_CASE("compile errors keep the application's line numbers and spellings") {
    // Line 4 of a GLSL 1.10 source (lifted: the preamble must not shift it).
    auto t = run(Stage::fragment, "uniform vec4 c;\nvarying vec2 uv;\nvoid main() {\n  gl_FragColor = c * undefined_thing;\n}\n");
    CHECK_FALSE(t->ok);
    CHECK(t->log.find("0:4:") != std::string::npos);
    CHECK(t->log.find("undefined_thing") != std::string::npos);
    // Line numbers count per source string, as glShaderSource gave them.
    ShaderInput in;
    in.stage = Stage::vertex;
    in.sources = {"#version 330 core\n", "in vec4 p;\n\nvoid main() { gl_Position = p + ; }\n"};
    auto m = translate(in, EsslOptions{});
    CHECK_FALSE(m->ok);
    CHECK(m->log.find("1:3:") != std::string::npos);
    // Our lift's names do not leak into the log.
    auto f = run(Stage::fragment, "void main() { gl_FragColor(1.0); }\n");
    CHECK_FALSE(f->ok);
    CHECK(f->log.find("gl_FragColor") != std::string::npos);
    CHECK(f->log.find("mgl_") == std::string::npos);
    // A lowered fixed-function built-in keeps its GL name in the log.
    auto ff = run(Stage::vertex, "void main() { gl_ClipPlane[0] = gl_Vertex; gl_Position = gl_Vertex; }\n");
    CHECK_FALSE(ff->ok);
    CHECK_MESSAGE(ff->log.find("gl_ClipPlane") != std::string::npos, ff->log);
    CHECK_MESSAGE(ff->log.find("mgl_") == std::string::npos, ff->log);
    // What GLSL 1.10 forbids and the 3.30 it is compiled as allows fails as written.
    auto mod = run(Stage::fragment, "#version 110\nuniform int a;\nvoid main() { gl_FragColor = vec4(a % 3); }\n");
    CHECK_FALSE(mod->ok);
    auto suffix = run(Stage::fragment, "#version 110\nvoid main() { gl_FragColor = vec4(1.0f); }\n");
    CHECK_MESSAGE(suffix->ok, suffix->log);  // a float suffix: Mesa takes it in 1.10
}

TEST_CASE("ESSL targets: 3.10 and 3.00 hosts get their own version") {
    const char* src = "#version 330 core\nin vec2 uv;\nuniform sampler2D t;\nout vec4 c;\nvoid main() { c = texture(t, uv); }\n";
    for (int v : {300, 310, 320}) {
        EsslOptions o;
        o.version = v;
        auto t = run(Stage::fragment, src, o);
        REQUIRE_MESSAGE(t->ok, t->log);
        CHECK(t->essl.rfind("#version " + std::to_string(v) + " es", 0) == 0);
        CHECK(host_compile(Stage::fragment, t->essl) == "");
    }
}

TEST_CASE("host log references to ESSL lines map to the application's lines") {
    // The statement `c = ...` is on line 7 of the source; wherever the ESSL
    // has it, a host error there must read as line 7.
    const char* src = "#version 330 core\nuniform float k;\nin vec2 uv;\nout vec4 c;\nvoid main() {\n"
                      "  float l = k * uv.x;\n  c = vec4(l, uv.y, 0.0, 1.0);\n}\n";
    auto t = run(Stage::fragment, src);
    REQUIRE_MESSAGE(t->ok, t->log);
    CHECK(t->essl.find("#line") == std::string::npos);
    CHECK(t->essl.find("GL_GOOGLE") == std::string::npos);
    CHECK(host_compile(Stage::fragment, t->essl) == "");
    size_t essl_line = 0, at = 0;
    for (size_t n = 1; at < t->essl.size(); ++n) {
        const size_t e = t->essl.find('\n', at);
        if (t->essl.compare(at, e - at, "    c = vec4(") == 0 || t->essl.substr(at, e - at).find(" c = ") != std::string::npos)
            essl_line = n;
        at = e + 1;
    }
    REQUIRE(essl_line > 0);
    REQUIRE(t->essl_lines.size() >= essl_line);
    const std::string n = std::to_string(essl_line);
    CHECK(map_host_log("0:" + n + "(5): error: something\n", t->essl_lines) == "0:7(5): error: something\n");
    CHECK(map_host_log("ERROR: 0:" + n + ": something\n", t->essl_lines) == "ERROR: 0:7: something\n");
    CHECK(map_host_log("0:99999(1): error\n", t->essl_lines) == "0:99999(1): error\n");  // unknown: as it was
}

TEST_CASE("fixed-function built-ins of GLSL 1.30 shaders are lowered to declared attributes, varyings and matrices") {
    const char* vs = "#version 130\nvoid main() {\n  gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
                     "  gl_TexCoord[0] = gl_MultiTexCoord0;\n  gl_FrontColor = gl_Color;\n}\n";
    auto v = run(Stage::vertex, vs);
    REQUIRE_MESSAGE(v->ok, v->log);
    CHECK(v->essl.find("mgl_Vertex") != std::string::npos);
    CHECK(v->essl.find("mgl_ModelViewProjectionMatrix") != std::string::npos);
    CHECK(host_compile(Stage::vertex, v->essl) == "");
    // gl_Vertex is generic attribute 0, as GL aliases them.
    const auto& in = v->reflection.inputs;
    auto vert = std::find_if(in.begin(), in.end(), [](const Declared& d) { return d.name == "mgl_Vertex"; });
    REQUIRE(vert != in.end());
    CHECK(vert->location == 0);
    const char* fs = "#version 130\nvoid main() { gl_FragColor = gl_Color * gl_TexCoord[0]; }\n";
    auto f = run(Stage::fragment, fs);
    REQUIRE_MESSAGE(f->ok, f->log);
    CHECK(f->essl.find("mgl_FrontColor") != std::string::npos);
    CHECK(host_compile(Stage::fragment, f->essl) == "");
    auto ft = run(Stage::vertex, "#version 120\nvoid main() { gl_Position = ftransform(); }\n");
    REQUIRE_MESSAGE(ft->ok, ft->log);
    CHECK(host_compile(Stage::vertex, ft->essl) == "");
}

TEST_CASE("the fixed-function vertex stage of fragment-only programs compiles on the host") {
    CHECK(host_compile(Stage::vertex, fixed_function_vertex_essl(320)) == "");
    CHECK(host_compile(Stage::vertex, fixed_function_vertex_essl(300)) == "");
}

TEST_CASE("the fixed-function state built-ins are lowered to struct uniforms with GL's member names") {
    const char* vs = "#version 120\nvoid main() {\n  gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
                     "  gl_LightSourceParameters l = gl_LightSource[gl_MaxLights - 1];\n"
                     "  vec3 n = gl_NormalMatrix * gl_Normal * gl_NormalScale;\n"
                     "  gl_FrontColor = l.diffuse * max(dot(n, l.position.xyz), 0.0) + gl_FrontLightProduct[1].specular\n"
                     "    + gl_FrontLightModelProduct.sceneColor + gl_BackMaterial.emission * gl_LightModel.ambient\n"
                     "    + gl_TextureMatrixInverseTranspose[2][0] + vec4(l.spotCosCutoff);\n"
                     "  gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;\n}\n";
    auto v = run(Stage::vertex, vs);
    REQUIRE_MESSAGE(v->ok, v->log);
    CHECK(v->essl.find("mgl_LightSource") != std::string::npos);
    CHECK(v->essl.find("spotCosCutoff") != std::string::npos);  // GL's member names: the client fills them by name
    CHECK(v->essl.find("mgl_BackColor") != std::string::npos);   // declared beside the front colour
    CHECK(host_compile(Stage::vertex, v->essl) == "");
    // the fragment stage: gl_Color is two-sided, gl_Fog is a struct
    auto f = run(Stage::fragment, "#version 110\nvoid main() { gl_FragColor = mix(gl_Color, gl_Fog.color, gl_Fog.scale)"
                                  " + gl_FrontMaterial.diffuse; }\n");
    REQUIRE_MESSAGE(f->ok, f->log);
    CHECK(f->essl.find("mgl_VertexTwoSide") != std::string::npos);
    CHECK(f->essl.find("gl_FrontFacing") != std::string::npos);
    CHECK(host_compile(Stage::fragment, f->essl) == "");
    // the point, clip plane, texture environment and texgen state
    auto p = run(Stage::vertex, "#version 110\nvoid main() { gl_Position = gl_Vertex;\n"
                                "  gl_PointSize = gl_Point.size + gl_Point.distanceQuadraticAttenuation;\n"
                                "  gl_FrontColor = gl_ClipPlane[1] + gl_TextureEnvColor[gl_MaxTextureUnits - 1]\n"
                                "    + gl_EyePlaneS[0] + gl_ObjectPlaneQ[7]; }\n");
    REQUIRE_MESSAGE(p->ok, p->log);
    for (const char* n : {"mgl_Point", "mgl_UserClipPlane", "mgl_TextureEnvColor", "mgl_EyePlaneS", "mgl_ObjectPlaneQ"})
        CHECK_MESSAGE(p->essl.find(n) != std::string::npos, n);
    CHECK(host_compile(Stage::vertex, p->essl) == "");
}

TEST_CASE("GL_ARB_compatibility: its #extension brings the built-ins to any version; the profile macros are defined") {
    const char* gs = "#version 150\n#extension GL_ARB_compatibility : require\nlayout(points) in;\n"
                     "layout(points, max_vertices = 1) out;\n"
                     "void main() { gl_Position = gl_ModelViewMatrix * gl_LightSource[0].position; EmitVertex(); }\n";
    ShaderInput in;
    in.stage = Stage::geometry;
    in.sources = {gs};
    auto g = translate(in, {});
    REQUIRE_MESSAGE(g->ok, g->log);
    CHECK(g->essl.find("mgl_LightSource") != std::string::npos);
    auto v = run(Stage::vertex, "#version 330\n#extension GL_ARB_compatibility : enable\n"
                                "#if !defined(GL_ARB_compatibility) || GL_ARB_compatibility != 1\n#error no macro\n#endif\n"
                                "void main() { gl_Position = ftransform(); }\n");
    REQUIRE_MESSAGE(v->ok, v->log);
    auto c = run(Stage::vertex, "#version 150 compatibility\n#ifndef GL_compatibility_profile\n#error no macro\n#endif\n"
                                "void main() { gl_Position = gl_Vertex; }\n");
    CHECK_MESSAGE(c->ok, c->log);
    auto core = run(Stage::vertex, "#version 150\n#ifdef GL_compatibility_profile\n#error defined in core\n#endif\n"
                                   "in vec4 p;\nvoid main() { gl_Position = p; }\n");
    CHECK_MESSAGE(core->ok, core->log);
}

TEST_CASE("gl_FragCoord's layout qualifiers: origin_upper_left reads the draw height, GLSL's redeclaration rules hold") {
    // both qualifiers: x - 0.5, H - y - 0.5 through the hidden uniform
    auto f = run(Stage::fragment, "#version 150\nlayout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\n"
                                  "out vec4 c;\nvoid main() { c = gl_FragCoord; }\n");
    REQUIRE_MESSAGE(f->ok, f->log);
    CHECK(f->essl.find(mgl::gl::kDrawHeightUniform) != std::string::npos);
    CHECK(host_compile(Stage::fragment, f->essl) == "");
    // the extension's, in 1.10
    auto e = run(Stage::fragment, "#version 110\n#extension GL_ARB_fragment_coord_conventions : require\n"
                                  "layout(origin_upper_left) in vec4 gl_FragCoord;\nvoid main() { gl_FragColor = gl_FragCoord; }\n");
    REQUIRE_MESSAGE(e->ok, e->log);
    CHECK(host_compile(Stage::fragment, e->essl) == "");
    // ... not without it
    auto x = run(Stage::fragment, "#version 130\nlayout(origin_upper_left) in vec4 gl_FragCoord;\n"
                                  "void main() { gl_FragColor = gl_FragCoord; }\n");
    CHECK_FALSE(x->ok);
    // pixel centres only: no uniform
    auto i = run(Stage::fragment, "#version 150\nlayout(pixel_center_integer) in vec4 gl_FragCoord;\n"
                                  "out vec4 c;\nvoid main() { c = gl_FragCoord; }\n");
    REQUIRE_MESSAGE(i->ok, i->log);
    CHECK(i->essl.find(mgl::gl::kDrawHeightUniform) == std::string::npos);
    // redeclared after a use, or with another set of qualifiers: compile errors
    auto u = run(Stage::fragment, "#version 150\n// gl_FragCoord in a comment is no use\nvec4 p = gl_FragCoord;\n"
                                  "in vec4 gl_FragCoord;\nvoid main() {}\n");
    CHECK_FALSE(u->ok);
    CHECK(u->log.find("0:3:") != std::string::npos);
    auto c = run(Stage::fragment, "#version 150\nin vec4 gl_FragCoord;\n"
                                  "layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\nvoid main() {}\n");
    CHECK_FALSE(c->ok);
    auto m = run(Stage::fragment, "#version 150\nlayout(origin_upper_left) in vec4 gl_FragCoord;\nvec4 p = gl_FragCoord;\n"
                                  "layout(origin_upper_left) in vec4 gl_FragCoord;\nout vec4 o;\nvoid main() { o = p; }\n");
    CHECK_MESSAGE(m->ok, m->log);
}

TEST_CASE("a block named like a function is a compile error, not a glslang crash (glsl_guards.h)") {
    // glslang 11 crashes in declareBlock on this source; GLSL 1.50 §4.3.7 makes it an error.
    auto t = run(Stage::vertex, "#version 150\n// a comment naming block(\nvec4 block() { return vec4(0); }\n"
                                "out block { vec4 a; } inst;\nvoid main() {}\n");
    CHECK_FALSE(t->ok);
    CHECK_MESSAGE(t->log.find("'block'") != std::string::npos, t->log);
    // A block named like nothing else, and a function called like a block's instance, compile.
    auto ok = run(Stage::vertex, "#version 150\nout Data { vec4 a; } data;\nvec4 f() { return vec4(1.0); }\n"
                                 "void main() { data.a = f(); gl_Position = vec4(0.0); }\n");
    CHECK_MESSAGE(ok->ok, ok->log);
}

TEST_CASE("compatibility varyings between stages: the colour qualifiers' link rule, unwritten inputs, the geometry block") {
    // GLSL 1.30 §4.3.7: the colours a program uses agree on their interpolation qualifier.
    const std::string vs_default = colour_interpolation(Stage::vertex, {"void main() { gl_BackColor = vec4(0); }\n"});
    const std::string vs_smooth =
        colour_interpolation(Stage::vertex, {"smooth out vec4 gl_FrontColor;\nvoid main() { gl_FrontColor = vec4(0); }\n"});
    const std::string vs_unused = colour_interpolation(Stage::vertex, {"flat out vec4 gl_FrontColor;\nvoid main() {}\n"});
    const std::string fs_smooth =
        colour_interpolation(Stage::fragment, {"smooth in vec4 gl_Color;\nout vec4 c;\nvoid main() { c = gl_Color; }\n"});
    const std::string fs_default = colour_interpolation(Stage::fragment, {"out vec4 c;\nvoid main() { c = gl_Color; }\n"});
    CHECK(vs_default == "gl_BackColor=\n");
    CHECK(vs_unused.empty());  // redeclared, not used: no rule
    CHECK_FALSE(colour_interpolation_mismatch(vs_default, fs_smooth).empty());
    CHECK_FALSE(colour_interpolation_mismatch(vs_smooth, fs_default).empty());
    CHECK(colour_interpolation_mismatch(vs_smooth, fs_smooth).empty());
    CHECK(colour_interpolation_mismatch(vs_default, fs_default).empty());
    CHECK(colour_interpolation_mismatch(vs_unused, fs_smooth).empty());

    // A fragment input no earlier stage writes is declared there (unwritten), with its qualifiers.
    const std::string vs = "#version 320 es\nvoid main() { gl_Position = vec4(0.0); }\n";
    const std::string fs = "#version 320 es\n#extension GL_NV_shader_noperspective_interpolation : require\n"
                           "noperspective in highp vec4 mgl_FrontColor;\nin highp vec4 mgl_TexCoord[8];\n"
                           "out vec4 c;\nvoid main() { c = mgl_FrontColor + mgl_TexCoord[1]; }\n";
    const std::string completed = declare_missing_outputs(vs, fs);
    CHECK(completed.find("noperspective out highp vec4 mgl_FrontColor;") != std::string::npos);
    CHECK(completed.find("out highp vec4 mgl_TexCoord[8];") != std::string::npos);
    CHECK(completed.find("#extension GL_NV_shader_noperspective_interpolation") != std::string::npos);
    CHECK(host_compile(Stage::vertex, completed) == "");
    CHECK(declare_missing_outputs(completed, fs) == completed);  // all declared: unchanged

    // A geometry stage reads the vertices' colours from one block, which the vertex stage declares at link.
    ShaderInput gs;
    gs.stage = Stage::geometry;
    gs.sources = {"#version 150 compatibility\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\n"
                  "void main() { for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position;\n"
                  "  gl_FrontColor = gl_in[i].gl_FrontColor; gl_TexCoord[2] = gl_in[i].gl_TexCoord[2]; EmitVertex(); } }\n"};
    auto g = translate(gs, {});
    REQUIRE_MESSAGE(g->ok, g->log);
    CHECK(reads_compat_block(g->essl));
    auto v = run(Stage::vertex, "#version 120\nvoid main() { gl_Position = gl_Vertex; gl_FrontColor = gl_Color; }\n");
    REQUIRE_MESSAGE(v->ok, v->log);
    const std::string as_block = vertex_outputs_as_block(v->essl);
    CHECK(as_block.find(kCompatBlock) != std::string::npos);
    CHECK(host_compile(Stage::vertex, as_block) == "");
}

TEST_CASE("gl_FragCoord across a program's fragment shaders: redeclared in all that use it, with one set of qualifiers") {
    const std::vector<std::string> upper = {"layout(origin_upper_left) in vec4 gl_FragCoord;\nvoid f() { gl_FragColor = gl_FragCoord; }\n"};
    const std::vector<std::string> both = {
        "layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\nvoid main() { gl_FragColor = gl_FragCoord; }\n"};
    const std::vector<std::string> plain_use = {"void main() { gl_FragColor = gl_FragCoord; }\n"};
    const std::vector<std::string> no_use = {"void main() { gl_FragColor = vec4(1.0); }\n"};
    CHECK_FALSE(frag_coord_link_rule({both, upper}).empty());      // different qualifiers
    CHECK_FALSE(frag_coord_link_rule({upper, plain_use}).empty()); // used without a redeclaration
    CHECK(frag_coord_link_rule({upper, no_use}).empty());          // no use: no rule
    CHECK(frag_coord_link_rule({upper, upper}).empty());
    CHECK(frag_coord_link_rule({plain_use, no_use}).empty());      // nobody redeclares
}

TEST_CASE("storage blocks, atomic counters and images of GLSL 1.40-4.30 translate to ESSL 3.10 the host compiles") {
    // Each stage as piglit's shader_runner tests write them: the extension
    // enabled in an older version, or GLSL 4.30 itself.
    const char* fs_counters =
        "#version 140\n#extension GL_ARB_shader_atomic_counters : require\n"
        "layout(binding = 0, offset = 4) uniform atomic_uint a;\nout vec4 c;\n"
        "layout(binding = 1) uniform atomic_uint b[2];\n"
        "void main() { uint v = atomicCounterIncrement(a); v += atomicCounterDecrement(b[1]);\n"
        "  v += atomicCounter(b[0]); c = vec4(float(v)); }\n";
    const char* vs_writeonly =
        "#version 140\n#extension GL_ARB_shader_image_load_store : require\n"
        "writeonly uniform image2D dst;\nwriteonly uniform uimage2D dsts[2];\nattribute vec4 p;\nvarying vec4 q;\n"
        "void main() { imageStore(dst, ivec2(0), p); imageStore(dsts[1], ivec2(0), uvec4(1)); gl_Position = p; q = p; }\n";
    const char* fs_shared = "#version 140\nlayout(shared) uniform U { vec4 u; };\nlayout(packed, row_major) uniform V { mat4 m; };\n"
        "out vec4 c;\nvoid main() { c = m * u; }\n";
    const char* fs_storage =
        "#version 140\n#extension GL_ARB_shader_storage_buffer_object : require\n"
        "layout(std430, binding = 2) buffer B { vec4 colour; uint n[]; };\nout vec4 c;\n"
        "void main() { c = colour; n[1] = uint(n.length()); }\n";
    const char* fs_images =
        "#version 150\n#extension GL_ARB_shader_image_load_store : require\n"
        "layout(rgba8) readonly uniform image2D src;\nlayout(r32ui) coherent uniform uimage2D dst;\nout vec4 c;\n"
        "void main() { c = imageLoad(src, ivec2(gl_FragCoord.xy)); imageAtomicAdd(dst, ivec2(0), 1u); }\n";
    for (const char* src : {fs_counters, fs_storage, fs_images, fs_shared}) {
        auto t = run(Stage::fragment, src);
        REQUIRE_MESSAGE(t->ok, t->log);
        CHECK_MESSAGE(host_compile(Stage::fragment, t->essl) == "", t->essl);
    }
    {
        auto t = run(Stage::vertex, vs_writeonly);
        REQUIRE_MESSAGE(t->ok, t->log);
        CHECK_MESSAGE(host_compile(Stage::vertex, t->essl) == "", t->essl);
    }
    auto t = run(Stage::fragment, fs_counters);
    CHECK_MESSAGE(t->essl.find("uniform atomic_uint a;") != std::string::npos, t->essl);
    CHECK_MESSAGE(has_layout(t->essl, "a"), t->essl);
    // GLSL's results: atomicCounter() reads, atomicCounterDecrement() gives the
    // decremented value (SPIR-V's decrement returns the value before).
    CHECK_MESSAGE(t->essl.find("atomicCounter(b[0])") != std::string::npos, t->essl);
    CHECK_MESSAGE(t->essl.find("(atomicCounterDecrement(b[1]) + 1u)") != std::string::npos, t->essl);
    auto w = run(Stage::vertex, vs_writeonly);
    CHECK_MESSAGE(std::regex_search(w->essl, std::regex(R"(layout\([^)]*rgba32f[^)]*\) uniform writeonly[^;]*\bimage2D dst;)")), w->essl);
    CHECK_MESSAGE(std::regex_search(w->essl, std::regex(R"(layout\([^)]*rgba32ui[^)]*\) uniform writeonly[^;]*\buimage2D dsts\[2\];)")), w->essl);
}

TEST_CASE("GL_EXT_gpu_shader4 in GLSL 1.10/1.20: its types, outputs and every family of lookups translate, the host compiles them") {
    const char* fs =
        "#version 120\n#extension GL_EXT_gpu_shader4 : require\n"
        "uniform usampler2D u;\nuniform isampler3D i;\nuniform sampler2DShadow s;\nuniform samplerCubeShadow sc;\n"
        "uniform sampler1DShadow sa;\nuniform sampler2DRect r;\nuniform sampler2D t;\n"
        "flat varying ivec2 p;\nvarying vec2 uv;\nvarying out vec4 colour;\n"
        "void main() {\n"
        "  unsigned int bits = texelFetch2D(u, p, 0).x ^ 5u;\n"
        "  ivec3 size = textureSize3D(i, 0) << 1;\n"
        "  vec4 c = texture2DOffset(t, uv, ivec2(1, -1)) + texture2DGrad(t, uv, dFdx(uv), dFdy(uv));\n"
        "  c += texture2DRectProjOffset(r, vec3(uv, 1.0), ivec2(2));\n"
        "  c += shadow2DOffset(s, vec3(uv, 0.5), ivec2(1), 0.5) + shadow2DGrad(s, vec3(uv, 0.5), vec2(0.0), vec2(0.0));\n"
        "  c += shadowCube(sc, vec4(uv, 1.0, 0.5)) + shadow1DProjOffset(sa, vec4(uv, 0.5, 1.0), 1);\n"
        "  colour = c * float(bits % 7u) + vec4(size, gl_PrimitiveID);\n"
        "}\n";
    const char* vs =
        "#extension GL_EXT_gpu_shader4 : enable\n"
        "uniform sampler2D t;\nuniform sampler1D l;\nflat varying ivec2 p;\nvarying vec2 uv;\n"
        "void main() {\n"
        "  uv = texture2DLodOffset(t, gl_Vertex.xy, 0.0, ivec2(1)).xy + texelFetch1D(l, gl_VertexID, 0).xy;\n"
        "  p = ivec2(gl_VertexID & 3, gl_VertexID >> 2);\n"
        "  gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
        "}\n";
    auto f = run(Stage::fragment, fs);
    REQUIRE_MESSAGE(f->ok, f->log);
    CHECK_MESSAGE(host_compile(Stage::fragment, f->essl) == "", f->essl);
    auto v = run(Stage::vertex, vs);
    REQUIRE_MESSAGE(v->ok, v->log);
    CHECK_MESSAGE(host_compile(Stage::vertex, v->essl) == "", v->essl);
    // the extension's words stay errors without its directive, as on Mesa
    auto without = run(Stage::fragment, "#version 120\nuniform usampler2D u;\nvoid main() { gl_FragColor = vec4(texelFetch2D(u, ivec2(0), 0)); }\n");
    CHECK_FALSE(without->ok);
}

TEST_CASE("the alpha test of a compatibility context: an application's fragment stage tests colour 0 through the driver uniform") {
    EsslOptions compat;
    compat.alpha_test = true;
    auto legacy = run(Stage::fragment, "#version 110\nvoid main() { gl_FragColor = vec4(0.5); }\n", compat);
    REQUIRE_MESSAGE(legacy->ok, legacy->log);
    CHECK_MESSAGE(legacy->essl.find(kAlphaTestUniform) != std::string::npos, legacy->essl);
    CHECK_MESSAGE(legacy->essl.find("discard") != std::string::npos, legacy->essl);
    CHECK_MESSAGE(host_compile(Stage::fragment, legacy->essl) == "", legacy->essl);
    // colour 0 of several outputs: the one at location 0
    auto located = run(Stage::fragment,
                       "#version 330\nlayout(location = 1) out vec4 b;\nlayout(location = 0) out vec4 a;\n"
                       "void main() { a = vec4(1.0); b = vec4(0.0); }\n", compat);
    REQUIRE_MESSAGE(located->ok, located->log);
    CHECK_MESSAGE(located->essl.find("= a.a") != std::string::npos, located->essl);
    CHECK_MESSAGE(host_compile(Stage::fragment, located->essl) == "", located->essl);
    // no float colour 0 (integer output): nothing to test; nor without the option
    auto integer = run(Stage::fragment, "#version 130\nout ivec4 o;\nvoid main() { o = ivec4(1); }\n", compat);
    REQUIRE_MESSAGE(integer->ok, integer->log);
    CHECK(integer->essl.find(kAlphaTestUniform) == std::string::npos);
    auto core = run(Stage::fragment, "#version 110\nvoid main() { gl_FragColor = vec4(0.5); }\n");
    CHECK(core->essl.find(kAlphaTestUniform) == std::string::npos);
}
