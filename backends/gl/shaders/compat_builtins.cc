#include "compat_builtins.h"

#include <cctype>
#include <iterator>
#include <regex>

#include "glsl_lift.h"

namespace mgl::gl {

namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool mentions(const std::vector<std::string>& sources, const std::string& word) {
    for (const std::string& s : sources)
        for (size_t at = s.find(word); at != std::string::npos; at = s.find(word, at + 1)) {
            const bool left = at == 0 || !ident(s[at - 1]);
            const bool right = at + word.size() >= s.size() || !ident(s[at + word.size()]);
            if (left && right) return true;
        }
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
};

const Builtin kFragmentInputs[] = {
    {"gl_Color", "mgl_FrontColor", "in vec4 mgl_FrontColor;"},
    {"gl_SecondaryColor", "mgl_FrontSecondaryColor", "in vec4 mgl_FrontSecondaryColor;"},
    {"gl_TexCoord", "mgl_TexCoord", "in vec4 mgl_TexCoord[8];"},
    {"gl_FogFragCoord", "mgl_FogFragCoord", "in float mgl_FogFragCoord;"},
};

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
    {"gl_ModelViewMatrixTranspose", "mgl_ModelViewMatrixTranspose", "uniform mat4 mgl_ModelViewMatrixTranspose;"},
    {"gl_ProjectionMatrixTranspose", "mgl_ProjectionMatrixTranspose", "uniform mat4 mgl_ProjectionMatrixTranspose;"},
    {"gl_ModelViewProjectionMatrixTranspose", "mgl_ModelViewProjectionMatrixTranspose",
     "uniform mat4 mgl_ModelViewProjectionMatrixTranspose;"},
};

void lower(const Builtin* table, size_t n, std::vector<std::string>& sources, std::string& preamble) {
    for (size_t i = 0; i < n; ++i) {
        const Builtin& b = table[i];
        if (!mentions(sources, b.gl)) continue;
        // A redeclaration (`varying vec4 gl_TexCoord[4];` with its size,
        // `flat out vec4 gl_FrontColor;` with a qualifier) is the
        // application's declaration of ours then.
        const std::regex redeclared_re(std::string(R"(\b(float|vec[234]|mat[34])\s+)") + b.ours +
                                       R"(\s*(\[[^\]]*\]\s*)?;)");
        bool redeclared = false;
        for (std::string& s : sources) {
            s = replace_word(s, b.gl, b.ours);
            redeclared = redeclared || std::regex_search(s, redeclared_re);
        }
        if (!redeclared && preamble.find(b.decl) == std::string::npos) preamble += std::string(b.decl) + "\n";
    }
}

}  // namespace

const char* const kCompatMatrixUniforms[] = {
    "mgl_ModelViewMatrix", "mgl_ProjectionMatrix", "mgl_ModelViewProjectionMatrix", "mgl_TextureMatrix",
    "mgl_NormalMatrix", "mgl_ModelViewMatrixInverse", "mgl_ProjectionMatrixInverse",
    "mgl_ModelViewProjectionMatrixInverse", "mgl_ModelViewMatrixTranspose", "mgl_ProjectionMatrixTranspose",
    "mgl_ModelViewProjectionMatrixTranspose",
};
const int kCompatMatrixUniformCount = int(std::size(kCompatMatrixUniforms));

std::string lower_compat_builtins(Stage stage, std::vector<std::string>& sources) {
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
    lower(kMatrices, std::size(kMatrices), sources, decls);
    if (stage == Stage::vertex) {
        lower(kVertexInputs, std::size(kVertexInputs), sources, decls);
        lower(kVertexOutputs, std::size(kVertexOutputs), sources, decls);
    } else if (stage == Stage::fragment) {
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

std::string fixed_function_vertex_essl(int version) {
    std::string s = "#version " + std::to_string(version) + " es\n";
    s += "layout(location = 0) in vec4 mgl_Vertex;\n"
         "layout(location = 2) in vec4 mgl_Color;\n"
         "layout(location = 3) in vec4 mgl_SecondaryColor;\n";
    for (int i = 0; i < kMaxTextureCoords; ++i)
        s += "layout(location = " + std::to_string(5 + i) + ") in vec4 mgl_MultiTexCoord" + std::to_string(i) + ";\n";
    s += "uniform mat4 mgl_ModelViewProjectionMatrix;\n"
         "uniform mat4 mgl_TextureMatrix[8];\n"
         "out vec4 mgl_FrontColor;\n"
         "out vec4 mgl_FrontSecondaryColor;\n"
         "out vec4 mgl_TexCoord[8];\n"
         "void main() {\n"
         "  gl_Position = mgl_ModelViewProjectionMatrix * mgl_Vertex;\n"
         "  mgl_FrontColor = mgl_Color;\n"
         "  mgl_FrontSecondaryColor = mgl_SecondaryColor;\n";
    for (int i = 0; i < kMaxTextureCoords; ++i)
        s += "  mgl_TexCoord[" + std::to_string(i) + "] = mgl_TextureMatrix[" + std::to_string(i) +
             "] * mgl_MultiTexCoord" + std::to_string(i) + ";\n";
    return s + "}\n";
}

std::string unlower_compat_log(std::string log) {
    auto undo = [&](const Builtin* t, size_t n) {
        for (size_t i = 0; i < n; ++i) log = replace_word(log, t[i].ours, t[i].gl);
    };
    undo(kVertexInputs, std::size(kVertexInputs));
    undo(kVertexOutputs, std::size(kVertexOutputs));
    undo(kMatrices, std::size(kMatrices));
    log = replace_word(log, "mgl_ftransform", "ftransform");
    return log;
}

}  // namespace mgl::gl
