#include "compat_builtins.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <regex>

#include "glsl_lift.h"

namespace mgl::gl {

namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool mentions(const std::vector<std::string>& sources, const std::string& word) {
    for (const std::string& s : sources)
        if (mentions_word(s, word)) return true;
    return false;
}

struct Builtin {
    const char* gl;     // the application's spelling
    const char* ours;   // what it becomes
    const char* decl;   // its declaration (with `ours` in it)
};

// Vertex stage inputs, at the locations the compatibility lowering feeds
// (client/src/compat: position 0, normal 1, colour 2, secondary colour 3, fog
// coordinate 4, texture coordinates 5 and up). gl_Vertex is attribute 0 as
// GL's aliasing rule says; the others take generic locations an application
// using them together with its own attributes should not bind.
const Builtin kVertexInputs[] = {
    {"gl_Vertex", "mgl_Vertex", "layout(location = 0) in vec4 mgl_Vertex;"},
    {"gl_Normal", "mgl_Normal", "layout(location = 1) in vec3 mgl_Normal;"},
    {"gl_Color", "mgl_Color", "layout(location = 2) in vec4 mgl_Color;"},
    {"gl_SecondaryColor", "mgl_SecondaryColor", "layout(location = 3) in vec4 mgl_SecondaryColor;"},
    {"gl_FogCoord", "mgl_FogCoord", "layout(location = 4) in float mgl_FogCoord;"},
    {"gl_MultiTexCoord0", "mgl_MultiTexCoord0", "layout(location = 5) in vec4 mgl_MultiTexCoord0;"},
    {"gl_MultiTexCoord1", "mgl_MultiTexCoord1", "layout(location = 6) in vec4 mgl_MultiTexCoord1;"},
    {"gl_MultiTexCoord2", "mgl_MultiTexCoord2", "layout(location = 7) in vec4 mgl_MultiTexCoord2;"},
    {"gl_MultiTexCoord3", "mgl_MultiTexCoord3", "layout(location = 8) in vec4 mgl_MultiTexCoord3;"},
    {"gl_MultiTexCoord4", "mgl_MultiTexCoord4", "layout(location = 9) in vec4 mgl_MultiTexCoord4;"},
    {"gl_MultiTexCoord5", "mgl_MultiTexCoord5", "layout(location = 10) in vec4 mgl_MultiTexCoord5;"},
    {"gl_MultiTexCoord6", "mgl_MultiTexCoord6", "layout(location = 11) in vec4 mgl_MultiTexCoord6;"},
    {"gl_MultiTexCoord7", "mgl_MultiTexCoord7", "layout(location = 12) in vec4 mgl_MultiTexCoord7;"},
};

// Vertex stage outputs; the fragment stage reads the front ones (two-sided
// colour, which picks the back ones for back faces, is not lowered yet).
const Builtin kVertexOutputs[] = {
    {"gl_FrontColor", "mgl_FrontColor", "out vec4 mgl_FrontColor;"},
    {"gl_BackColor", "mgl_BackColor", "out vec4 mgl_BackColor;"},
    {"gl_FrontSecondaryColor", "mgl_FrontSecondaryColor", "out vec4 mgl_FrontSecondaryColor;"},
    {"gl_BackSecondaryColor", "mgl_BackSecondaryColor", "out vec4 mgl_BackSecondaryColor;"},
    {"gl_TexCoord", "mgl_TexCoord", "out vec4 mgl_TexCoord[8];"},
    {"gl_FogFragCoord", "mgl_FogFragCoord", "out float mgl_FogFragCoord;"},
    // Clipped against the user clip planes in eye space (clip_distances).
    // (an output: a geometry stage reads it as gl_in[i].gl_ClipVertex)
    {"gl_ClipVertex", "mgl_ClipVertex", "out vec4 mgl_ClipVertex;"},
};

const Builtin kFragmentInputs[] = {
    {"gl_Color", "mgl_FrontColor", "in vec4 mgl_FrontColor;"},
    {"gl_SecondaryColor", "mgl_FrontSecondaryColor", "in vec4 mgl_FrontSecondaryColor;"},
    {"gl_TexCoord", "mgl_TexCoord", "in vec4 mgl_TexCoord[8];"},
    {"gl_FogFragCoord", "mgl_FogFragCoord", "in float mgl_FogFragCoord;"},
};

// The matrices (GLSL 1.10 §7.5 and 1.20's transposes and inverses); the
// compatibility lowering (client/src/compat/program_builtins.cc) uploads the
// current ones before each draw of a program that has them.
const Builtin kMatrices[] = {
    {"gl_ModelViewMatrix", "mgl_ModelViewMatrix", "uniform mat4 mgl_ModelViewMatrix;"},
    {"gl_ProjectionMatrix", "mgl_ProjectionMatrix", "uniform mat4 mgl_ProjectionMatrix;"},
    {"gl_ModelViewProjectionMatrix", "mgl_ModelViewProjectionMatrix", "uniform mat4 mgl_ModelViewProjectionMatrix;"},
    {"gl_TextureMatrix", "mgl_TextureMatrix", "uniform mat4 mgl_TextureMatrix[8];"},
    {"gl_NormalMatrix", "mgl_NormalMatrix", "uniform mat3 mgl_NormalMatrix;"},
    {"gl_ModelViewMatrixInverse", "mgl_ModelViewMatrixInverse", "uniform mat4 mgl_ModelViewMatrixInverse;"},
    {"gl_ProjectionMatrixInverse", "mgl_ProjectionMatrixInverse", "uniform mat4 mgl_ProjectionMatrixInverse;"},
    {"gl_ModelViewProjectionMatrixInverse", "mgl_ModelViewProjectionMatrixInverse",
     "uniform mat4 mgl_ModelViewProjectionMatrixInverse;"},
    {"gl_TextureMatrixInverse", "mgl_TextureMatrixInverse", "uniform mat4 mgl_TextureMatrixInverse[8];"},
    {"gl_ModelViewMatrixTranspose", "mgl_ModelViewMatrixTranspose", "uniform mat4 mgl_ModelViewMatrixTranspose;"},
    {"gl_ProjectionMatrixTranspose", "mgl_ProjectionMatrixTranspose", "uniform mat4 mgl_ProjectionMatrixTranspose;"},
    {"gl_ModelViewProjectionMatrixTranspose", "mgl_ModelViewProjectionMatrixTranspose",
     "uniform mat4 mgl_ModelViewProjectionMatrixTranspose;"},
    {"gl_TextureMatrixTranspose", "mgl_TextureMatrixTranspose", "uniform mat4 mgl_TextureMatrixTranspose[8];"},
    {"gl_ModelViewMatrixInverseTranspose", "mgl_ModelViewMatrixInverseTranspose",
     "uniform mat4 mgl_ModelViewMatrixInverseTranspose;"},
    {"gl_ProjectionMatrixInverseTranspose", "mgl_ProjectionMatrixInverseTranspose",
     "uniform mat4 mgl_ProjectionMatrixInverseTranspose;"},
    {"gl_ModelViewProjectionMatrixInverseTranspose", "mgl_ModelViewProjectionMatrixInverseTranspose",
     "uniform mat4 mgl_ModelViewProjectionMatrixInverseTranspose;"},
    {"gl_TextureMatrixInverseTranspose", "mgl_TextureMatrixInverseTranspose",
     "uniform mat4 mgl_TextureMatrixInverseTranspose[8];"},
    {"gl_NormalScale", "mgl_NormalScale", "uniform float mgl_NormalScale;"},
};

// The other state uniforms (GLSL 1.10 §7.5), structs with GL's member names
// that the compatibility lowering fills from its state. Their struct types
// come first (`type`, declared once); the types' own gl_ names
// (gl_LightSourceParameters...) are the application's to use too.
struct StateBuiltin {
    const char* gl;
    const char* ours;
    const char* type_gl;  // the struct type's GL name
    const char* type;     // its declaration under our name
    const char* decl;
};

#define MGL_LIGHT_SOURCE                                                                                           \
    "struct mgl_LightSourceParameters { vec4 ambient; vec4 diffuse; vec4 specular; vec4 position; "                \
    "vec4 halfVector; vec3 spotDirection; float spotExponent; float spotCutoff; float spotCosCutoff; "             \
    "float constantAttenuation; float linearAttenuation; float quadraticAttenuation; };"
#define MGL_MATERIAL \
    "struct mgl_MaterialParameters { vec4 emission; vec4 ambient; vec4 diffuse; vec4 specular; float shininess; };"
#define MGL_LIGHT_PRODUCTS "struct mgl_LightProducts { vec4 ambient; vec4 diffuse; vec4 specular; };"
#define MGL_LIGHT_MODEL_PRODUCTS "struct mgl_LightModelProducts { vec4 sceneColor; };"

const StateBuiltin kState[] = {
    {"gl_LightSource", "mgl_LightSource", "gl_LightSourceParameters", MGL_LIGHT_SOURCE,
     "uniform mgl_LightSourceParameters mgl_LightSource[8];"},
    {"gl_LightModel", "mgl_LightModel", "gl_LightModelParameters",
     "struct mgl_LightModelParameters { vec4 ambient; };", "uniform mgl_LightModelParameters mgl_LightModel;"},
    {"gl_FrontLightModelProduct", "mgl_FrontLightModelProduct", "gl_LightModelProducts", MGL_LIGHT_MODEL_PRODUCTS,
     "uniform mgl_LightModelProducts mgl_FrontLightModelProduct;"},
    {"gl_BackLightModelProduct", "mgl_BackLightModelProduct", "gl_LightModelProducts", MGL_LIGHT_MODEL_PRODUCTS,
     "uniform mgl_LightModelProducts mgl_BackLightModelProduct;"},
    {"gl_FrontLightProduct", "mgl_FrontLightProduct", "gl_LightProducts", MGL_LIGHT_PRODUCTS,
     "uniform mgl_LightProducts mgl_FrontLightProduct[8];"},
    {"gl_BackLightProduct", "mgl_BackLightProduct", "gl_LightProducts", MGL_LIGHT_PRODUCTS,
     "uniform mgl_LightProducts mgl_BackLightProduct[8];"},
    {"gl_FrontMaterial", "mgl_FrontMaterial", "gl_MaterialParameters", MGL_MATERIAL,
     "uniform mgl_MaterialParameters mgl_FrontMaterial;"},
    {"gl_BackMaterial", "mgl_BackMaterial", "gl_MaterialParameters", MGL_MATERIAL,
     "uniform mgl_MaterialParameters mgl_BackMaterial;"},
    {"gl_Fog", "mgl_Fog", "gl_FogParameters",
     "struct mgl_FogParameters { vec4 color; float density; float start; float end; float scale; };",
     "uniform mgl_FogParameters mgl_Fog;"},
    {"gl_Point", "mgl_Point", "gl_PointParameters",
     "struct mgl_PointParameters { float size; float sizeMin; float sizeMax; float fadeThresholdSize; "
     "float distanceConstantAttenuation; float distanceLinearAttenuation; float distanceQuadraticAttenuation; };",
     "uniform mgl_PointParameters mgl_Point;"},
};

// The other state arrays (GLSL 1.10 §7.5), per clip plane or texture unit.
// gl_ClipPlane is every plane as glClipPlane set it (eye space), enabled or
// not: mgl_ClipPlane is the driver's clipping uniform, zero for disabled
// planes, so the application's copy has a name of its own.
const Builtin kStateArrays[] = {
    {"gl_ClipPlane", "mgl_UserClipPlane", "uniform vec4 mgl_UserClipPlane[8];"},
    {"gl_TextureEnvColor", "mgl_TextureEnvColor", "uniform vec4 mgl_TextureEnvColor[8];"},
    {"gl_EyePlaneS", "mgl_EyePlaneS", "uniform vec4 mgl_EyePlaneS[8];"},
    {"gl_EyePlaneT", "mgl_EyePlaneT", "uniform vec4 mgl_EyePlaneT[8];"},
    {"gl_EyePlaneR", "mgl_EyePlaneR", "uniform vec4 mgl_EyePlaneR[8];"},
    {"gl_EyePlaneQ", "mgl_EyePlaneQ", "uniform vec4 mgl_EyePlaneQ[8];"},
    {"gl_ObjectPlaneS", "mgl_ObjectPlaneS", "uniform vec4 mgl_ObjectPlaneS[8];"},
    {"gl_ObjectPlaneT", "mgl_ObjectPlaneT", "uniform vec4 mgl_ObjectPlaneT[8];"},
    {"gl_ObjectPlaneR", "mgl_ObjectPlaneR", "uniform vec4 mgl_ObjectPlaneR[8];"},
    {"gl_ObjectPlaneQ", "mgl_ObjectPlaneQ", "uniform vec4 mgl_ObjectPlaneQ[8];"},
};

// Implementation constants of the fixed function (GLSL 1.10 §7.4) that the
// core profile we compile as lacks.
const Builtin kConstants[] = {
    {"gl_MaxLights", "mgl_MaxLights", "const int mgl_MaxLights = 8;"},
    {"gl_MaxClipPlanes", "mgl_MaxClipPlanes", "const int mgl_MaxClipPlanes = 8;"},
    {"gl_MaxTextureUnits", "mgl_MaxTextureUnits", "const int mgl_MaxTextureUnits = 8;"},
    {"gl_MaxTextureCoords", "mgl_MaxTextureCoords", "const int mgl_MaxTextureCoords = 8;"},
};

// The type of a built-in's declaration ("out vec4 mgl_TexCoord[8];": vec4).
std::string declared_type(const Builtin& b) {
    const std::string d = b.decl;
    size_t end = d.find(b.ours);
    while (end > 0 && d[end - 1] == ' ') --end;
    size_t begin = end;
    while (begin > 0 && ident(d[begin - 1])) --begin;
    return d.substr(begin, end - begin);
}

void lower(const Builtin* table, size_t n, std::vector<std::string>& sources, std::string& preamble) {
    for (size_t i = 0; i < n; ++i) {
        const Builtin& b = table[i];
        if (!mentions(sources, b.gl)) continue;
        // A redeclaration (`varying vec4 gl_TexCoord[4];` with its size,
        // `flat out vec4 gl_FrontColor;` with a qualifier) is the
        // application's declaration of ours then; one of another type is
        // not (ours is declared too, and the compile fails, as GL's does).
        const std::regex redeclared_re("\\b" + declared_type(b) + R"(\s+)" + b.ours + R"(\s*(\[[^\]]*\]\s*)?;)");
        bool redeclared = false;
        for (std::string& s : sources) {
            s = replace_word(s, b.gl, b.ours);
            redeclared = redeclared || std::regex_search(s, redeclared_re);
        }
        if (!redeclared && preamble.find(b.decl) == std::string::npos) preamble += std::string(b.decl) + "\n";
    }
}

// The state structs a source mentions (and their types), declared once each.
void lower_state(std::vector<std::string>& sources, std::string& preamble) {
    for (const StateBuiltin& b : kState) {
        const bool var = mentions(sources, b.gl), type = mentions(sources, b.type_gl);
        if (!var && !type) continue;
        for (std::string& s : sources) {
            s = replace_word(s, b.gl, b.ours);
            s = replace_word(s, b.type_gl, std::string("m") + b.type_gl);
        }
        if (preamble.find(b.type) == std::string::npos) preamble += std::string(b.type) + "\n";
        if (var) preamble += std::string(b.decl) + "\n";
    }
}

// The qualifiers of a redeclaration `QUALIFIERS vec4 NAME;` in the sources
// (GLSL 1.30's `flat in vec4 gl_Color;`, `noperspective out vec4
// gl_BackColor;`); found: *decl is that declaration's text.
bool redeclaration(const std::vector<std::string>& sources, const std::string& name, std::string* qualifiers,
                   std::string* decl = nullptr) {
    const std::regex re(R"(((?:\b(?:flat|smooth|noperspective|centroid|invariant|in|out|varying)\s+)*)vec4\s+)" +
                        name + R"(\s*;)");
    for (const std::string& s : sources) {
        std::smatch m;
        if (std::regex_search(s, m, re)) {
            *qualifiers = m.str(1);
            if (decl) *decl = m.str(0);
            return true;
        }
    }
    return false;
}

// The fragment stage's gl_Color and gl_SecondaryColor: the back colours on
// back faces while GL_VERTEX_PROGRAM_TWO_SIDE is enabled (mgl_VertexTwoSide,
// set by the client's lowering), the front ones otherwise (GLSL 1.10 §7.6).
// A redeclaration's qualifiers (`flat in vec4 gl_Color;`) go to both.
void lower_two_sided(std::vector<std::string>& sources, std::string& preamble) {
    static const struct {
        const char *gl, *ours, *front, *back;
    } kColors[] = {{"gl_Color", "mgl_Color", "mgl_FrontColor", "mgl_BackColor"},
                   {"gl_SecondaryColor", "mgl_SecondaryColor", "mgl_FrontSecondaryColor", "mgl_BackSecondaryColor"}};
    for (const auto& c : kColors) {
        if (!mentions(sources, c.gl)) continue;
        std::string qualifiers = "in ", decl;
        if (redeclaration(sources, c.gl, &qualifiers, &decl)) {
            for (std::string& s : sources)
                if (const size_t at = s.find(decl); at != std::string::npos) s.replace(at, decl.size(), "");
            if (!mentions(sources, c.gl)) continue;  // declared, never read: no input (nothing to match at link)
            if (qualifiers.find("in ") == std::string::npos && qualifiers.find("varying") == std::string::npos)
                qualifiers += "in ";
        }
        for (std::string& s : sources) s = replace_word(s, c.gl, c.ours);
        if (preamble.find("uniform float mgl_VertexTwoSide;") == std::string::npos)
            preamble += "uniform float mgl_VertexTwoSide;\n";
        preamble += qualifiers + "vec4 " + c.front + ";\n" + qualifiers + "vec4 " + c.back + ";\n#define " + c.ours +
                    " (mgl_VertexTwoSide != 0.0 && !gl_FrontFacing ? " + c.back + " : " + c.front + ")\n";
    }
}

// A vertex stage that writes one of a front/back pair declares the other
// as well, unwritten and with the same qualifiers, so that the fragment
// stage's two-sided selection links whichever the application wrote (GL
// leaves the unwritten one undefined).
void pair_outputs(const std::vector<std::string>& sources, std::string& preamble) {
    static const char* const kPairs[][2] = {{"mgl_FrontColor", "mgl_BackColor"},
                                            {"mgl_FrontSecondaryColor", "mgl_BackSecondaryColor"}};
    auto has = [&](const char* n) { return mentions(sources, n) || mentions({preamble}, n); };
    for (const auto& p : kPairs)
        for (int i = 0; i < 2; ++i) {
            if (!has(p[i]) || has(p[1 - i])) continue;
            std::string qualifiers = "out ";
            if (redeclaration(sources, p[i], &qualifiers) && qualifiers.find("out ") == std::string::npos &&
                qualifiers.find("varying") == std::string::npos)
                qualifiers += "out ";
            preamble += qualifiers + "vec4 " + p[1 - i] + ";\n";
        }
}

// Whether a redeclared output block is left (drop_per_vertex_blocks): it
// would hide gl_ClipDistance, so that stage is not clipped by the planes.
bool keeps_output_block(const std::vector<std::string>& sources) {
    static const std::regex out_block(R"(\bout\s+gl_PerVertex\b)");
    for (const std::string& s : sources)
        if (std::regex_search(s, out_block)) return true;
    return false;
}

// Redeclared gl_PerVertex blocks (GLSL 1.50: `out gl_PerVertex { vec4
// gl_Position; vec4 gl_ClipVertex; };`, `in gl_PerVertex {...} gl_in[];`)
// that name a lowered built-in (gl_ClipVertex, gl_FrontColor, gl_TexCoord[N]...)
// beside built-ins the core profile declares anyway: removed (their lines
// kept), so that the lowered ones stay declared as ours. A stage that
// redeclares a block twice keeps both (the compile fails, as GL says).
void drop_per_vertex_blocks(std::vector<std::string>& sources) {
    static const std::regex block(R"(\b(in|out)\s+gl_PerVertex\s*\{([^}]*)\}\s*(gl_in\s*\[\s*\])?\s*;)");
    static const std::regex member(
        R"(^\s*((?:flat|smooth|noperspective|centroid)\s+)*(vec4\s+gl_Position|float\s+gl_PointSize|vec4\s+gl_ClipVertex|)"
        R"(vec4\s+gl_(Front|Back)(Secondary)?Color|vec4\s+gl_TexCoord\s*\[\s*\d*\s*\]|float\s+gl_FogFragCoord)\s*$)");
    static const std::regex lowered(R"(\bgl_(ClipVertex|FrontColor|BackColor|FrontSecondaryColor|BackSecondaryColor|TexCoord|FogFragCoord)\b)");
    int blocks[2] = {0, 0};
    for (const std::string& s : sources)
        for (std::sregex_iterator it(s.begin(), s.end(), block), end; it != end; ++it) ++blocks[(*it).str(1) == "out"];
    if (blocks[0] > 1 || blocks[1] > 1) return;
    for (std::string& s : sources) {
        std::string out;
        auto from = s.cbegin();
        for (std::sregex_iterator it(s.begin(), s.end(), block), end; it != end; ++it) {
            const std::smatch& m = *it;
            const std::string members = m.str(2);
            bool simple = std::regex_search(members, lowered);
            size_t at = 0;
            while (simple && at < members.size()) {
                const size_t e = members.find(';', at);
                const std::string one = members.substr(at, e == std::string::npos ? std::string::npos : e - at);
                simple = one.find_first_not_of(" \t\r\n") == std::string::npos || std::regex_match(one, member);
                at = e == std::string::npos ? members.size() : e + 1;
            }
            out.append(from, m[0].first);
            if (simple) out.append(size_t(std::count(m[0].first, m[0].second, '\n')), '\n');
            else out.append(m[0].first, m[0].second);
            from = m[0].second;
        }
        out.append(from, s.cend());
        s = std::move(out);
    }
}

// The statements that clip against the user clip planes (GLSL 1.30 §7.1):
// one gl_ClipDistance per plane from `clip_vertex` (the stage's
// gl_ClipVertex, or gl_Position when it writes none), against the
// eye-space planes of the driver uniform mgl_ClipPlane. Empty when the
// stage clips itself (it writes gl_ClipDistance) or keeps an output block
// redeclaration that would hide gl_ClipDistance.
std::string clip_distances(const std::vector<std::string>& sources, const char* clip_vertex, std::string& preamble) {
    if (mentions(sources, "gl_ClipDistance") || keeps_output_block(sources)) return {};
    preamble += "uniform vec4 mgl_ClipPlane[8];\nout float gl_ClipDistance[8];\n";
    return std::string("    for (int i = 0; i < 8; ++i) gl_ClipDistance[i] = dot(") + clip_vertex + ", mgl_ClipPlane[i]);\n";
}

// The vertex colours a stage writes, clamped to [0, 1] as GL_CLAMP_VERTEX_COLOR
// (initially on) asks of the vertex processing's results (GL 3.2
// compatibility §2.14.7 with ARB_color_buffer_float); the client feeds
// mgl_ClampVertexColor from that state (0 when no compatibility lowering
// runs: no clamping).
std::string colour_clamp(const std::vector<std::string>& sources, std::string& preamble) {
    std::string out;
    for (const char* c : {"mgl_FrontColor", "mgl_BackColor", "mgl_FrontSecondaryColor", "mgl_BackSecondaryColor"})
        if (mentions(sources, c))
            out += std::string("    if (mgl_ClampVertexColor != 0.0) ") + c + " = clamp(" + c + ", 0.0, 1.0);\n";
    if (!out.empty()) preamble += "uniform float mgl_ClampVertexColor;\n";
    return out;
}

// A geometry stage runs `epilogue` at each EmitVertex() (its outputs are a
// vertex's then).
void wrap_emit_vertex(std::vector<std::string>& sources, const std::string& epilogue, std::string& preamble) {
    if (epilogue.empty() || !mentions(sources, "EmitVertex")) return;
    for (std::string& s : sources) s = replace_word(s, "EmitVertex", "mgl_EmitVertex");
    preamble += "void mgl_EmitVertex() {\n" + epilogue + "    EmitVertex();\n}\n";
}

// A vertex (or tessellation evaluation) stage runs `epilogue` after the
// application's main, which is renamed.
void wrap_main(std::vector<std::string>& sources, const std::string& epilogue) {
    if (epilogue.empty()) return;
    std::string* with_main = nullptr;
    for (std::string& s : sources) {
        if (!mentions({s}, "main")) continue;
        s = replace_word(s, "main", "mgl_clip_main");
        with_main = &s;
    }
    if (!with_main) return;  // an object without main: the one with main is lowered
    *with_main += "\nvoid main() {\n    mgl_clip_main();\n" + epilogue + "}\n";
}

// The compatibility varyings a geometry stage reads per vertex
// (gl_in[i].gl_FrontColor, gl_in[i].gl_TexCoord[j]...) arrive in one input
// block, kCompatBlock, with every member: its outputs of the same names go
// on to the fragment stage, and GLSL has no loose input and output of one
// name. The vertex stage before it declares the same block at link time
// (vertex_outputs_as_block): a vertex stage does not know at compile time
// whether a geometry stage follows.
const char* const kCompatBlockMembers[][2] = {
    {"vec4", "FrontColor"}, {"vec4", "BackColor"}, {"vec4", "FrontSecondaryColor"}, {"vec4", "BackSecondaryColor"},
    {"vec4", "TexCoord[8]"}, {"float", "FogFragCoord"},
};

std::string compat_block(const char* storage, const char* instance) {
    std::string b = std::string(storage) + " " + kCompatBlock + " {";
    for (const auto& m : kCompatBlockMembers) b += std::string(" ") + m[0] + " mgl_" + m[1] + ";";
    return b + " }" + instance + ";\n";
}

void lower_geometry_inputs(std::vector<std::string>& sources, std::string& preamble) {
    static const std::regex in_compat(
        R"(\bgl_in\s*(\[[^\]]*\])\s*\.\s*gl_(FrontColor|BackColor|FrontSecondaryColor|BackSecondaryColor|TexCoord|FogFragCoord)\b)");
    static const std::regex in_clip(R"(\bgl_in\s*\[([^\]]*)\]\s*\.\s*gl_ClipVertex\b)");
    bool block = false, clip = false;
    for (std::string& s : sources) {
        if (s.find("gl_in") == std::string::npos) continue;
        if (std::regex_search(s, in_compat)) {
            block = true;
            s = std::regex_replace(s, in_compat, "mgl_in$1.mgl_$2");
        }
        if (std::regex_search(s, in_clip)) {
            clip = true;  // the vertex stage's loose mgl_ClipVertex (not in the block)
            s = std::regex_replace(s, in_clip, "mgl_ClipVertex[$1]");
        }
    }
    if (block) preamble += compat_block("in", " mgl_in[]");
    if (clip) preamble += "in vec4 mgl_ClipVertex[];\n";
}

// gl_ClipVertex through the tessellation stages: the control stage reads
// the vertex stage's lowered output (gl_in[i].gl_ClipVertex ->
// mgl_ClipVertex[i]) and writes its own per-vertex array (gl_out[i] ->
// mgl_TcsClipVertex[i]), which the evaluation stage reads; the evaluation
// stage's own gl_ClipVertex becomes mgl_ClipVertex, as a vertex stage's,
// and clips against the planes (clip_distances).
void lower_tess_clip_vertex(Stage stage, std::vector<std::string>& sources, std::string& preamble) {
    drop_per_vertex_blocks(sources);
    static const std::regex in_clip(R"(\bgl_in\s*\[([^\]]*)\]\s*\.\s*gl_ClipVertex\b)");
    static const std::regex out_clip(R"(\bgl_out\s*\[([^\]]*)\]\s*\.\s*gl_ClipVertex\b)");
    const bool control = stage == Stage::tess_control;
    const char* in_name = control ? "mgl_ClipVertex" : "mgl_TcsClipVertex";
    bool reads = false, writes = false;
    for (std::string& s : sources) {
        if (std::regex_search(s, in_clip)) {
            reads = true;
            s = std::regex_replace(s, in_clip, std::string(in_name) + "[$1]");
        }
        if (control && std::regex_search(s, out_clip)) {
            writes = true;
            s = std::regex_replace(s, out_clip, "mgl_TcsClipVertex[$1]");
        }
    }
    if (reads) preamble += std::string("in vec4 ") + in_name + "[];\n";
    if (writes) preamble += "out vec4 mgl_TcsClipVertex[];\n";
    if (!control && mentions(sources, "gl_ClipVertex")) {
        for (std::string& s : sources) s = replace_word(s, "gl_ClipVertex", "mgl_ClipVertex");
        preamble += "out vec4 mgl_ClipVertex;\n";
    }
}

}  // namespace

std::string lower_compat_builtins(Stage stage, std::vector<std::string>& sources, bool clip_planes) {
    std::string preamble;
    // ftransform() is the fixed-function transform of gl_Vertex, invariant with it.
    if (stage == Stage::vertex && mentions(sources, "ftransform")) {
        for (std::string& s : sources) s = replace_word(s, "ftransform", "mgl_ftransform");
        preamble += "vec4 mgl_ftransform() { return mgl_ModelViewProjectionMatrix * mgl_Vertex; }\n";
        if (!mentions(sources, "gl_ModelViewProjectionMatrix"))
            preamble.insert(0, "uniform mat4 mgl_ModelViewProjectionMatrix;\n");
        if (!mentions(sources, "gl_Vertex")) preamble.insert(0, "layout(location = 0) in vec4 mgl_Vertex;\n");
    }
    std::string decls;
    lower(kConstants, std::size(kConstants), sources, decls);
    lower(kMatrices, std::size(kMatrices), sources, decls);
    lower(kStateArrays, std::size(kStateArrays), sources, decls);
    lower_state(sources, decls);
    if (stage == Stage::vertex) {
        drop_per_vertex_blocks(sources);
        lower(kVertexInputs, std::size(kVertexInputs), sources, decls);
        lower(kVertexOutputs, std::size(kVertexOutputs), sources, decls);
        pair_outputs(sources, decls);
        // User clip planes: GL clips the written gl_ClipVertex against them;
        // a stage that writes neither it nor gl_ClipDistance is clipped by
        // gl_Position against the same planes, as Mesa does. GLES clips by
        // gl_ClipDistance only (GL_EXT_clip_cull_distance).
        std::string epilogue = colour_clamp(sources, decls);
        if (clip_planes)
            epilogue += clip_distances(sources, mentions(sources, "mgl_ClipVertex") ? "mgl_ClipVertex" : "gl_Position", decls);
        wrap_main(sources, epilogue);
    } else if (stage == Stage::geometry) {
        drop_per_vertex_blocks(sources);
        lower_geometry_inputs(sources, decls);
        // `varying` in a geometry stage is an output (Mesa's reading; GLSL
        // 1.50 gives the stage only in and out).
        for (std::string& s : sources) s = replace_word(s, "varying", "out");
        // Its own gl_ClipVertex is what the clip planes read (a global: the
        // fragment stage has no such input); its other outputs are a
        // vertex stage's.
        const bool clip_vertex = mentions(sources, "gl_ClipVertex");
        if (clip_vertex) {
            for (std::string& s : sources) s = replace_word(s, "gl_ClipVertex", "mgl_GsClipVertex");
            decls += "vec4 mgl_GsClipVertex;\n";
        }
        lower(kVertexOutputs, std::size(kVertexOutputs), sources, decls);
        pair_outputs(sources, decls);
        std::string epilogue = colour_clamp(sources, decls);
        if (clip_planes) epilogue += clip_distances(sources, clip_vertex ? "mgl_GsClipVertex" : "gl_Position", decls);
        wrap_emit_vertex(sources, epilogue, decls);
    } else if (stage == Stage::tess_control || stage == Stage::tess_evaluation) {
        if (clip_planes) lower_tess_clip_vertex(stage, sources, decls);
        if (clip_planes && stage == Stage::tess_evaluation)
            wrap_main(sources, clip_distances(sources, mentions(sources, "mgl_ClipVertex") ? "mgl_ClipVertex" : "gl_Position", decls));
    } else if (stage == Stage::fragment) {
        lower_two_sided(sources, decls);
        lower(kFragmentInputs, std::size(kFragmentInputs), sources, decls);
    }
    // ftransform's helper reads the declarations: they go first (a
    // declaration it added itself is not repeated).
    std::string out = decls;
    size_t at = 0;
    while (at < preamble.size()) {
        const size_t e = preamble.find('\n', at);
        const std::string line = preamble.substr(at, e - at + 1);
        if (out.find(line) == std::string::npos) out += line;
        at = e + 1;
    }
    return out;
}

std::string fixed_function_vertex_essl(int version, bool clip_planes) {
    std::string s = "#version " + std::to_string(version) + " es\n";
    if (clip_planes)
        s += "#extension GL_EXT_clip_cull_distance : require\n"
             "uniform mat4 mgl_ModelViewMatrix;\n"
             "uniform vec4 mgl_ClipPlane[8];\n"
             "out highp float gl_ClipDistance[8];\n";
    s += "layout(location = 0) in vec4 mgl_Vertex;\n"
         "layout(location = 2) in vec4 mgl_Color;\n"
         "layout(location = 3) in vec4 mgl_SecondaryColor;\n";
    for (int i = 0; i < kMaxTextureCoords; ++i)
        s += "layout(location = " + std::to_string(5 + i) + ") in vec4 mgl_MultiTexCoord" + std::to_string(i) + ";\n";
    s += "uniform mat4 mgl_ModelViewProjectionMatrix;\n"
         "uniform mat4 mgl_TextureMatrix[8];\n"
         "out vec4 mgl_FrontColor;\n"
         "out vec4 mgl_FrontSecondaryColor;\n"
         "out vec4 mgl_BackColor;\n"
         "out vec4 mgl_BackSecondaryColor;\n"
         "out vec4 mgl_TexCoord[8];\n"
         "void main() {\n"
         "  gl_Position = mgl_ModelViewProjectionMatrix * mgl_Vertex;\n"
         "  mgl_FrontColor = mgl_Color;\n"
         "  mgl_FrontSecondaryColor = mgl_SecondaryColor;\n"
         "  mgl_BackColor = mgl_Color;\n"
         "  mgl_BackSecondaryColor = mgl_SecondaryColor;\n";
    for (int i = 0; i < kMaxTextureCoords; ++i)
        s += "  mgl_TexCoord[" + std::to_string(i) + "] = mgl_TextureMatrix[" + std::to_string(i) +
             "] * mgl_MultiTexCoord" + std::to_string(i) + ";\n";
    if (clip_planes)
        s += "  for (int i = 0; i < 8; ++i) gl_ClipDistance[i] = dot(mgl_ModelViewMatrix * mgl_Vertex, mgl_ClipPlane[i]);\n";
    return s + "}\n";
}

namespace {

// Where declarations may go in a shader's text: after its leading
// #version / #extension lines.
size_t after_directives(const std::string& text) {
    size_t insert_at = 0;
    for (size_t at = 0; at < text.size();) {
        const size_t first = text.find_first_not_of(" \t", at);
        if (first == std::string::npos || text[first] != '#') break;
        const size_t e = text.find('\n', at);
        insert_at = e == std::string::npos ? text.size() : e + 1;
        at = insert_at;
    }
    return insert_at;
}

}  // namespace

bool reads_compat_block(const std::string& geometry_text) {
    return geometry_text.find(kCompatBlock) != std::string::npos;
}

std::string vertex_outputs_as_block(const std::string& text, bool insert_block) {
    // `out vec4 mgl_FrontColor;` with its qualifiers and the precision and
    // layout a translator may write, on a line of its own.
    static const std::regex decl(
        R"((^|\n)[ \t]*(layout\s*\([^)]*\)\s*)?((flat|smooth|noperspective|centroid|invariant|highp|mediump|lowp)\s+)*)"
        R"(out\s+((highp|mediump|lowp)\s+)?(vec4|float)\s+mgl_(FrontColor|BackColor|FrontSecondaryColor|BackSecondaryColor|TexCoord|FogFragCoord)\s*(\[\s*\d*\s*\])?\s*;[^\n]*)");
    std::string out;
    size_t insert_at = std::string::npos;
    auto from = text.cbegin();
    for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it) {
        const std::smatch& m = *it;
        out.append(from, m[0].first);
        out += m.str(1);  // the line break before it
        if (insert_at == std::string::npos) insert_at = out.size();
        from = m[0].second;
    }
    out.append(from, text.cend());
    if (!insert_block) return out;
    if (insert_at == std::string::npos) {
        insert_at = after_directives(out);  // no such output
    }
    out.insert(insert_at, compat_block("out", ""));
    return out;
}

std::string declare_missing_outputs(const std::string& previous, const std::string& fragment) {
    static const std::regex input(
        R"((^|\n)[ \t]*(((flat|smooth|noperspective|centroid)\s+)*)in\s+((highp|mediump|lowp)\s+)?(vec4|float)\s+)"
        R"((mgl_(FrontColor|BackColor|FrontSecondaryColor|BackSecondaryColor|TexCoord|FogFragCoord))\s*(\[\s*\d*\s*\])?\s*;)");
    std::string decls;
    for (std::sregex_iterator it(fragment.begin(), fragment.end(), input), end; it != end; ++it) {
        const std::smatch& m = *it;
        if (mentions({previous}, m.str(8))) continue;
        decls += m.str(2) + "out " + m.str(5) + m.str(7) + " " + m.str(8) + m.str(10) + ";\n";
    }
    if (decls.empty()) return previous;
    // ESSL's noperspective is an extension's (SPIRV-Cross enables it in the
    // fragment stage that uses it).
    const char* const kNoperspective = "GL_NV_shader_noperspective_interpolation";
    if (decls.find("noperspective") != std::string::npos && previous.find(kNoperspective) == std::string::npos)
        decls.insert(0, std::string("#extension ") + kNoperspective + " : require\n");
    std::string out = previous;
    out.insert(after_directives(out), decls);
    return out;
}

std::string colour_interpolation(Stage stage, const std::vector<std::string>& sources) {
    static const char* const kVertex[] = {"gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor",
                                          "gl_BackSecondaryColor"};
    static const char* const kFragment[] = {"gl_Color", "gl_SecondaryColor"};
    std::vector<const char*> names;
    if (stage == Stage::vertex) names.assign(std::begin(kVertex), std::end(kVertex));
    else if (stage == Stage::fragment) names.assign(std::begin(kFragment), std::end(kFragment));
    std::string out;
    for (const char* name : names) {
        std::string qualifiers, decl;
        std::vector<std::string> rest = sources;
        if (redeclaration(sources, name, &qualifiers, &decl))
            for (std::string& s : rest)
                if (const size_t at = s.find(decl); at != std::string::npos) s.erase(at, decl.size());
        if (!mentions(rest, name)) continue;  // not statically used: no rule
        static const std::regex interp(R"(\b(flat|smooth|noperspective)\b)");
        std::smatch m;
        const std::string q = std::regex_search(qualifiers, m, interp) ? m.str(1) : "";
        out += std::string(name) + "=" + q + "\n";
    }
    return out;
}

std::string colour_interpolation_mismatch(const std::string& vertex, const std::string& fragment) {
    static const char* const kGroups[][3] = {{"gl_Color", "gl_FrontColor", "gl_BackColor"},
                                             {"gl_SecondaryColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"}};
    auto find = [](const std::string& table, const std::string& name, std::string& q) {
        const size_t at = table.find(name + "=");
        if (at == std::string::npos || (at > 0 && table[at - 1] != '\n')) return false;
        const size_t from = at + name.size() + 1;
        q = table.substr(from, table.find('\n', from) - from);
        return true;
    };
    for (const auto& g : kGroups) {
        std::string first_name, first_q;
        for (int i = 0; i < 3; ++i) {
            std::string q;
            if (!find(i == 0 ? fragment : vertex, g[i], q)) continue;
            if (first_name.empty()) {
                first_name = g[i];
                first_q = q;
            } else if (q != first_q) {
                auto say = [](const std::string& x) { return x.empty() ? std::string("no") : x; };
                return "ERROR: Linking: " + first_name + " is declared with " + say(first_q) +
                       " interpolation qualifier and " + g[i] + " with " + say(q) +
                       " (GLSL 1.30 §4.3.7: the colour built-ins a program uses must agree)\n";
            }
        }
    }
    return {};
}

std::string fixed_function_vertex_glsl() {
    std::string s = "#version 120\n"
                    "void main() {\n"
                    "  gl_Position = ftransform();\n"
                    "  gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;\n"
                    "  gl_FrontColor = gl_Color;\n"
                    "  gl_FrontSecondaryColor = gl_SecondaryColor;\n"
                    "  gl_BackColor = gl_Color;\n"
                    "  gl_BackSecondaryColor = gl_SecondaryColor;\n";
    for (int i = 0; i < kMaxTextureCoords; ++i)
        s += "  gl_TexCoord[" + std::to_string(i) + "] = gl_TextureMatrix[" + std::to_string(i) + "] * gl_MultiTexCoord" +
             std::to_string(i) + ";\n";
    return s + "}\n";
}

std::string fixed_function_fragment_glsl(bool front_colour) {
    return front_colour ? "#version 120\nvoid main() { gl_FragColor = gl_Color; }\n" : "#version 120\nvoid main() {}\n";
}

std::string fixed_function_fragment_essl(int version, bool front_colour) {
    std::string s = "#version " + std::to_string(version) + " es\n";
    if (!front_colour) return s + "void main() {}\n";
    return s + "precision highp float;\nin vec4 mgl_FrontColor;\nout vec4 mgl_FragColor;\n"
               "void main() { mgl_FragColor = mgl_FrontColor; }\n";
}

std::string unlower_compat_log(std::string log) {
    auto undo = [&](const Builtin* t, size_t n) {
        for (size_t i = 0; i < n; ++i) log = replace_word(log, t[i].ours, t[i].gl);
    };
    undo(kVertexInputs, std::size(kVertexInputs));
    undo(kVertexOutputs, std::size(kVertexOutputs));
    undo(kMatrices, std::size(kMatrices));
    undo(kConstants, std::size(kConstants));
    undo(kStateArrays, std::size(kStateArrays));
    for (const StateBuiltin& b : kState) {
        log = replace_word(log, b.ours, b.gl);
        log = replace_word(log, std::string("m") + b.type_gl, b.type_gl);
    }
    log = replace_word(log, "mgl_ftransform", "ftransform");
    log = replace_word(log, "mgl_clip_main", "main");
    log = replace_word(log, "mgl_GsClipVertex", "gl_ClipVertex");
    log = replace_word(log, "mgl_EmitVertex", "EmitVertex");
    log = replace_word(log, "mgl_in", "gl_in");
    log = replace_word(log, "mgl_SecondaryColor", "gl_SecondaryColor");  // the fragment stage's two-sided selection
    log = replace_word(log, "mgl_Color", "gl_Color");
    return log;
}

}  // namespace mgl::gl
