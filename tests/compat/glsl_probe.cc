// GLSL 1.10/1.20 programs reading the fixed-function state built-ins
// (gl_ModelViewProjectionMatrix, gl_NormalMatrix, gl_LightSource[],
// gl_FrontMaterial, gl_Fog, the inverse and transpose matrices,
// gl_TextureMatrix[]) and tested by the fixed-function alpha test on a
// desktop compatibility context, each scene read
// back and printed as a hash of its pixels. run_ff_probe.sh runs it natively
// and through `mgl run`: every line must be the same, so the state the
// client uploads into the application's programs is checked against Mesa's.
#define GL_GLEXT_PROTOTYPES 1
#include "scene_report.h"
#include "probe_scene.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int W = 160, H = 120;

void report(const char* scene) {
    std::vector<uint8_t> px(size_t(W) * H * 4);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    // GLSL_PROBE_DUMP=DIR: each scene's pixels as DIR/SCENE.rgba too (for a look at a difference)
    if (const char* dir = std::getenv("GLSL_PROBE_DUMP")) {
        if (FILE* f = std::fopen((std::string(dir) + "/" + scene + ".rgba").c_str(), "wb")) {
            std::fwrite(px.data(), 1, px.size(), f);
            std::fclose(f);
        }
    }
    probe::print_scene(scene, px, glGetError(), 28);
}

void reset() {
    glUseProgram(0);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    for (GLenum m : {GL_PROJECTION, GL_TEXTURE, GL_MODELVIEW}) {
        glMatrixMode(m);
        glLoadIdentity();
    }
}

GLuint shader(GLenum stage, const char* src) {
    const GLuint s = glCreateShader(stage);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        std::fprintf(stderr, "compile failed:\n%s\n%s\n", src, log);
        std::exit(1);
    }
    return s;
}

// A program of `vs` (may be null: the fixed-function vertex stage) and `fs`, in use.
GLuint program(const char* vs, const char* fs) {
    const GLuint p = glCreateProgram();
    if (vs) glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        std::fprintf(stderr, "link failed:\n%s\n", log);
        std::exit(1);
    }
    glUseProgram(p);
    return p;
}

const char* kColorFs = "#version 110\nvoid main() { gl_FragColor = gl_Color; }\n";

void quad(float x0, float y0, float x1, float y1) {
    glBegin(GL_QUADS);
    glColor3f(1, 0, 0), glVertex2f(x0, y0);
    glColor3f(0, 1, 0), glVertex2f(x1, y0);
    glColor3f(0, 0, 1), glVertex2f(x1, y1);
    glColor3f(1, 1, 0), glVertex2f(x0, y1);
    glEnd();
}

}  // namespace

int main() {
    if (!probe::make_context_and_framebuffer(W, H)) return 1;

    // 1. gl_ModelViewProjectionMatrix after glOrtho/glRotate/glTranslate/glScale,
    // with a push/pop in between (the popped matrix must come back).
    reset();
    program("#version 120\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; gl_FrontColor = gl_Color; }\n",
            kColorFs);
    glMatrixMode(GL_PROJECTION);
    glOrtho(-2, 2, -1.5, 1.5, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    glRotatef(30, 0, 0, 1);
    // (every quad inside the clip volume: llvmpipe splits a clipped quad on
    // the other diagonal, which the lowering does not model)
    quad(-1.2f, -0.9f, -0.2f, 0.2f);
    glPushMatrix();
    glTranslatef(0.9f, 0.3f, 0);
    glScalef(0.5f, 0.8f, 1);
    glRotatef(-75, 0, 0, 1);
    quad(-0.5f, -0.5f, 0.5f, 0.5f);
    glPopMatrix();
    quad(0.2f, 0.4f, 0.9f, 1.1f);
    report("mvp-ortho-rotate-pushpop");

    // 2. ftransform() and the modelview and projection apart, client-state
    // arrays, glFrustum, a constant colour (the current colour, no array).
    reset();
    program("#version 110\nvarying vec4 c;\n"
            "void main() { gl_Position = ftransform();\n"
            "  vec4 e = gl_ModelViewMatrix * gl_Vertex; vec4 p = gl_ProjectionMatrix * e;\n"
            "  c = vec4(gl_Color.rgb * 0.5 + 0.5 * abs(p.xyz / p.w), 1.0); }\n",
            "#version 110\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }\n");
    glMatrixMode(GL_PROJECTION);
    glFrustum(-1, 1, -0.75, 0.75, 1, 10);
    glMatrixMode(GL_MODELVIEW);
    glTranslatef(0, 0, -3);
    glRotatef(40, 1, 1, 0);
    const float cube[] = {-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1};
    const GLubyte idx[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 2, 6, 3, 6, 7};
    glEnable(GL_DEPTH_TEST);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, cube);
    glColor3f(0.2f, 0.6f, 0.9f);
    glDrawElements(GL_TRIANGLES, 24, GL_UNSIGNED_BYTE, idx);
    glDisableClientState(GL_VERTEX_ARRAY);
    glDisable(GL_DEPTH_TEST);
    report("ftransform-frustum-arrays");

    // 3. per-vertex lighting in the shader from gl_LightSource[], the light
    // products, gl_NormalMatrix, the material and the light model.
    reset();
    program("#version 110\n"
            "void main() {\n"
            "  gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
            "  vec3 n = normalize(gl_NormalMatrix * gl_Normal);\n"
            "  vec4 c = gl_FrontLightModelProduct.sceneColor;\n"
            "  for (int i = 0; i < 2; ++i) {\n"
            "    vec3 l = normalize(gl_LightSource[i].position.xyz);\n"
            "    float d = max(dot(n, l), 0.0);\n"
            "    float s = pow(max(dot(n, normalize(gl_LightSource[i].halfVector.xyz)), 0.0), gl_FrontMaterial.shininess);\n"
            "    c += gl_FrontLightProduct[i].ambient + d * gl_FrontLightProduct[i].diffuse + s * gl_FrontLightProduct[i].specular;\n"
            "  }\n"
            "  gl_FrontColor = clamp(c + 0.1 * gl_LightModel.ambient, 0.0, 1.0);\n"
            "}\n",
            kColorFs);
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1.4, 1.4, -1.05, 1.05, -2, 2);
    glMatrixMode(GL_MODELVIEW);
    const float l0pos[] = {1, 1, 1, 0}, l0dif[] = {0.9f, 0.7f, 0.5f, 1}, l1pos[] = {-1, 0.2f, 0.5f, 0};
    const float l1dif[] = {0.1f, 0.3f, 0.8f, 1}, l1amb[] = {0.1f, 0, 0.05f, 1}, amb[] = {0.1f, 0.2f, 0.1f, 1};
    const float spec[] = {0.8f, 0.8f, 0.8f, 1}, emis[] = {0.05f, 0, 0, 1}, mdif[] = {0.7f, 0.6f, 0.9f, 0.5f};
    glLightfv(GL_LIGHT0, GL_POSITION, l0pos);
    glLightfv(GL_LIGHT0, GL_DIFFUSE, l0dif);
    glRotatef(25, 0, 1, 0);  // light 1 is placed under this rotation (eye space at glLight time)
    glLightfv(GL_LIGHT1, GL_POSITION, l1pos);
    glLightfv(GL_LIGHT1, GL_DIFFUSE, l1dif);
    glLightfv(GL_LIGHT1, GL_AMBIENT, l1amb);
    glLightModelfv(GL_LIGHT_MODEL_AMBIENT, amb);
    glMaterialfv(GL_FRONT, GL_SPECULAR, spec);
    glMaterialfv(GL_FRONT, GL_EMISSION, emis);
    glMaterialfv(GL_FRONT, GL_DIFFUSE, mdif);
    glMaterialf(GL_FRONT, GL_SHININESS, 20);
    glScalef(1, 1.2f, 1);
    probe::sphere(0.8f, 24, 16);
    report("lightsource-material");

    // 4. the remaining light members and the back material, as colours.
    reset();
    program("#version 120\n"
            "void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
            "  gl_LightSourceParameters l = gl_LightSource[2];\n"
            "  gl_FrontColor = vec4(l.spotDirection * 0.5 + 0.5, 1.0) * (gl_Vertex.x < 0.0 ? 1.0 : 0.0)\n"
            "    + vec4(l.spotExponent / 128.0, l.spotCutoff / 180.0, l.spotCosCutoff, 1.0) * (gl_Vertex.x < 0.0 ? 0.0 : 1.0) * (gl_Vertex.y < 0.0 ? 1.0 : 0.0)\n"
            "    + vec4(l.constantAttenuation / 4.0, l.linearAttenuation, l.quadraticAttenuation, 1.0) * (gl_Vertex.x < 0.0 ? 0.0 : 1.0) * (gl_Vertex.y < 0.0 ? 0.0 : 1.0) * 0.5\n"
            "    + gl_BackMaterial.ambient * 0.25 + gl_BackLightProduct[2].diffuse * 0.25; }\n",
            kColorFs);
    glRotatef(-30, 0, 0, 1);
    const float sdir[] = {0.3f, -0.5f, -0.8f}, bamb[] = {0.4f, 0.1f, 0.6f, 1}, l2dif[] = {0.5f, 1, 0.25f, 1};
    glLightfv(GL_LIGHT2, GL_SPOT_DIRECTION, sdir);
    glLightf(GL_LIGHT2, GL_SPOT_EXPONENT, 33);
    glLightf(GL_LIGHT2, GL_SPOT_CUTOFF, 50);
    glLightf(GL_LIGHT2, GL_CONSTANT_ATTENUATION, 2);
    glLightf(GL_LIGHT2, GL_LINEAR_ATTENUATION, 0.3f);
    glLightf(GL_LIGHT2, GL_QUADRATIC_ATTENUATION, 0.6f);
    glLightfv(GL_LIGHT2, GL_DIFFUSE, l2dif);
    glMaterialfv(GL_BACK, GL_AMBIENT, bamb);
    glMaterialfv(GL_BACK, GL_DIFFUSE, bamb);
    glLoadIdentity();
    for (int i = 0; i < 4; ++i) {
        const float x = (i & 1) ? 0.05f : -0.95f, y = (i & 2) ? 0.05f : -0.95f;
        glBegin(GL_TRIANGLE_STRIP);
        glVertex2f(x, y), glVertex2f(x + 0.9f, y), glVertex2f(x, y + 0.9f), glVertex2f(x + 0.9f, y + 0.9f);
        glEnd();
    }
    report("light-members-back");

    // 5. inverse, transpose and texture matrices, gl_Fog in the fragment stage.
    reset();
    program("#version 120\n"
            "varying vec4 t; varying vec4 e;\n"
            "void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
            "  t = gl_TextureMatrix[0] * gl_MultiTexCoord0 + gl_TextureMatrixTranspose[1] * vec4(0.1, 0.2, 0.0, 1.0);\n"
            "  e = gl_ModelViewMatrixInverse * (gl_ModelViewMatrix * gl_Vertex) - gl_Vertex\n"
            "    + gl_ProjectionMatrixTranspose * vec4(0.0, 0.0, 0.0, 0.25) + vec4(gl_NormalScale * 0.1);\n"
            "}\n",
            "#version 120\nvarying vec4 t; varying vec4 e;\n"
            "void main() { gl_FragColor = vec4(fract(t.xy), abs(e.x) + abs(e.y), 1.0) * 0.6\n"
            "  + gl_Fog.color * 0.2 + vec4(gl_Fog.density, gl_Fog.start, gl_Fog.end, gl_Fog.scale) * 0.05; }\n");
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_TEXTURE);
    glTranslatef(0.25f, 0.5f, 0);
    glScalef(2, 3, 1);
    glActiveTexture(GL_TEXTURE1);
    glRotatef(20, 0, 0, 1);
    glActiveTexture(GL_TEXTURE0);
    glMatrixMode(GL_MODELVIEW);
    glRotatef(15, 0, 0, 1);
    glScalef(1.5f, 1.5f, 1.5f);
    const float fogc[] = {0.2f, 0.9f, 0.4f, 1};
    glFogfv(GL_FOG_COLOR, fogc);
    glFogf(GL_FOG_DENSITY, 0.5f);
    glFogf(GL_FOG_START, 2);
    glFogf(GL_FOG_END, 6);
    glBegin(GL_TRIANGLE_STRIP);
    glTexCoord2f(0, 0), glVertex2f(-0.5f, -0.5f);
    glTexCoord2f(1, 0), glVertex2f(0.5f, -0.5f);
    glTexCoord2f(0, 1), glVertex2f(-0.5f, 0.5f);
    glTexCoord2f(1, 1), glVertex2f(0.5f, 0.5f);
    glEnd();
    report("inverse-transpose-texmat-fog");

    // 6. a fragment shader only: the fixed-function vertex stage carries the
    // matrices (glOrtho, glRotate) and the colours.
    reset();
    program(nullptr, "#version 110\nvoid main() { gl_FragColor = gl_Color.bgra; }\n");
    glMatrixMode(GL_PROJECTION);
    glOrtho(-2, 2, -2, 2, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    glRotatef(-20, 0, 0, 1);
    quad(-1.5f, -1.5f, 1, 1.2f);
    report("fragment-only-ortho");

    // 7. generic attributes between glBegin and glEnd (per vertex, attribute 0
    // giving the vertex), compiled into a list, and GL_QUADS drawn from the
    // program's generic arrays; glColor given but not read by the program,
    // whose own attribute the linker may place where the colour would go.
    reset();
    const GLuint gp = program("#version 110\nattribute vec4 pos; attribute vec4 tint;\n"
                              "void main() { gl_Position = gl_ModelViewProjectionMatrix * pos; gl_FrontColor = tint; }\n",
                              kColorFs);
    glBindAttribLocation(gp, 0, "pos");
    glLinkProgram(gp);
    const GLint tint = glGetAttribLocation(gp, "tint");
    glMatrixMode(GL_PROJECTION);
    glOrtho(-2, 2, -2, 2, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    glBegin(GL_TRIANGLE_FAN);
    glVertexAttrib3f(tint, 1, 0, 0), glColor3f(0, 0, 1), glVertexAttrib2f(0, -1.8f, 0.1f);
    glVertexAttrib4Nub(tint, 0, 255, 0, 255), glVertexAttrib2f(0, -0.2f, 0.1f);
    glVertexAttrib3d(tint, 0, 0, 1), glVertexAttrib2f(0, -0.2f, 1.8f);
    glVertex2f(-1.8f, 1.8f);  // takes the last tint
    glEnd();
    glNewList(1, GL_COMPILE);
    glBegin(GL_TRIANGLE_STRIP);
    glVertexAttrib4f(tint, 1, 1, 0, 1), glVertexAttrib2f(0, 0.1f, 0.1f);
    glVertexAttrib4f(tint, 0, 1, 1, 1), glVertexAttrib2f(0, 1.8f, 0.1f);
    glVertexAttrib4f(tint, 1, 0, 1, 1), glVertexAttrib2f(0, 0.1f, 1.8f);
    glVertexAttrib4f(tint, 1, 1, 1, 1), glVertexAttrib2f(0, 1.8f, 1.8f);
    glEnd();
    glEndList();
    glVertexAttrib4f(tint, 0.5f, 0.5f, 0.5f, 1);  // GL_COMPILE ran nothing: the list's values come at its call
    glCallList(1);
    const float quad_pos[] = {-1.8f, -1.8f, -0.2f, -1.8f, -0.2f, -0.2f, -1.8f, -0.2f};
    const float quad_tint[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad_pos);
    glVertexAttribPointer(GLuint(tint), 3, GL_FLOAT, GL_FALSE, 0, quad_tint);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(GLuint(tint));
    glDrawArrays(GL_QUADS, 0, 4);
    glDisableVertexAttribArray(GLuint(tint));
    // the current tint after the list: its last value
    glTranslatef(1.9f, -1.9f, 0);
    glDrawArrays(GL_QUADS, 0, 4);
    glDisableVertexAttribArray(0);
    report("generic-attributes-immediate");

    // 8. the alpha test applies to an application's program too: colour 0
    // of a GLSL 1.10 stage (gl_FragColor) and of a 1.30 one (an output bound
    // by glBindFragDataLocation), each function changing between draws, and
    // the fixed-function draw after them testing by its own state.
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(0, 4, 0, 4, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    program(nullptr, kColorFs);
    glEnable(GL_ALPHA_TEST);
    const struct {
        GLenum func;
        float ref;
    } tests[] = {{GL_GREATER, 0.5f}, {GL_LEQUAL, 0.5f}, {GL_NOTEQUAL, 0.25f}, {GL_NEVER, 0}};
    for (int row = 0; row < 4; ++row) {
        glAlphaFunc(tests[row].func, tests[row].ref);
        for (int col = 0; col < 4; ++col) {
            glColor4f(1, 0.5f, 0.25f * float(col), 0.25f * float(col));
            glRectf(float(col) + 0.1f, float(row) + 0.1f, float(col) + 0.9f, float(row) + 0.45f);
        }
    }
    const GLuint p130 = glCreateProgram();
    glAttachShader(p130, shader(GL_FRAGMENT_SHADER, "#version 130\nout vec4 colour;\nuniform float a;\n"
                                                    "void main() { colour = vec4(0.2, 0.9, 0.4, a); }\n"));
    glBindFragDataLocation(p130, 0, "colour");
    glLinkProgram(p130);
    glUseProgram(p130);
    glAlphaFunc(GL_GEQUAL, 0.5f);
    for (int col = 0; col < 4; ++col) {
        glUniform1f(glGetUniformLocation(p130, "a"), 0.25f * float(col) + 0.1f);
        glRectf(float(col) + 0.1f, 0.55f, float(col) + 0.9f, 0.9f);
    }
    // fixed function with the test off right after: the lowering's program is not tested
    glUseProgram(0);
    glDisable(GL_ALPHA_TEST);
    glColor4f(1, 0, 1, 0);
    glRectf(0.1f, 1.1f, 3.9f, 1.45f);
    glUseProgram(p130);
    glUniform1f(glGetUniformLocation(p130, "a"), 0);  // the program's draws with the test off are not tested
    glRectf(0.1f, 1.55f, 3.9f, 1.9f);
    glUseProgram(0);
    glEnable(GL_ALPHA_TEST);
    glAlphaFunc(GL_LESS, 0.5f);
    glColor4f(0, 0, 1, 0.75f);  // failed by the lowering's own test
    glRectf(0.1f, 2.55f, 3.9f, 2.9f);
    glColor4f(1, 1, 1, 0.25f);
    glRectf(0.1f, 3.55f, 3.9f, 3.9f);
    glDisable(GL_ALPHA_TEST);
    report("alpha-test-programs");

    // 9. GL_DOUBLE vertex arrays, which GL converts to float: the fixed
    // function's glVertexPointer/glColorPointer from client memory, and a
    // program's generic attribute from a buffer object drawn by indices
    // (the vertices an element draw reads, not from 0).
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(-2, 2, -2, 2, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    const double ff_pos[] = {-1.8, -1.8, -0.2, -1.8, -0.2, -0.2, -1.8, -0.2};
    const double ff_col[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0};
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(2, GL_DOUBLE, 0, ff_pos);
    glColorPointer(3, GL_DOUBLE, 0, ff_col);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    glDisableClientState(GL_COLOR_ARRAY);
    glDisableClientState(GL_VERTEX_ARRAY);
    const GLuint dp = program("#version 110\nattribute vec2 pos; attribute vec3 tint;\n"
                              "void main() { gl_Position = gl_ModelViewProjectionMatrix * vec4(pos, 0.0, 1.0); "
                              "gl_FrontColor = vec4(tint, 1.0); }\n",
                              kColorFs);
    glBindAttribLocation(dp, 0, "pos");
    glLinkProgram(dp);
    const GLint dtint = glGetAttribLocation(dp, "tint");
    // interleaved: (x, y, r, g, b) per vertex, two unused vertices first
    const double vbo[] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9,  //
                          0.2, 0.2, 1, 1, 0, 1.8, 0.2, 0, 1, 1, 1.8, 1.8, 1, 0, 1, 0.2, 1.8, 0.5, 0.5, 0.5};
    const GLushort dindices[] = {2, 3, 4, 2, 4, 5};
    GLuint bufs[2];
    glGenBuffers(2, bufs);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof vbo, vbo, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[1]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof dindices, dindices, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_DOUBLE, GL_FALSE, 5 * sizeof(double), nullptr);
    glVertexAttribPointer(GLuint(dtint), 3, GL_DOUBLE, GL_FALSE, 5 * sizeof(double),
                          reinterpret_cast<const void*>(2 * sizeof(double)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(GLuint(dtint));
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, nullptr);
    glTranslatef(-2, 0, 0);
    glDrawArrays(GL_TRIANGLE_FAN, 2, 4);
    glDisableVertexAttribArray(GLuint(dtint));
    glDisableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    report("double-vertex-arrays");

    // 10. GL 3.2/3.3's vertex layouts a GLES host and Vulkan read otherwise:
    // GL_BGRA colours (bytes, and a 2_10_10_10 word), positions as signed
    // normalized 2_10_10_10 words, and a generic value set by
    // glVertexAttribP4ui; from a buffer object.
    reset();
    const GLuint pp = program("#version 130\nin vec4 pos; in vec4 tint; in vec4 extra;\n"
                              "void main() { gl_Position = pos; gl_FrontColor = tint * extra; }\n",
                              kColorFs);
    glBindAttribLocation(pp, 0, "pos");
    glBindAttribLocation(pp, 1, "tint");
    glBindAttribLocation(pp, 2, "extra");
    glLinkProgram(pp);
    // A signed normalized word: x, y in 10 bits each (511 is 1.0), z 0, w 1.
    auto snorm = [](float x, float y) {
        const uint32_t ix = uint32_t(int32_t(x * 511.0f)) & 0x3FFu, iy = uint32_t(int32_t(y * 511.0f)) & 0x3FFu;
        return ix | iy << 10 | 1u << 30;
    };
    struct PackedVertex {
        uint32_t pos;
        uint8_t bgra[4];
        uint32_t bgra_word;  // 2_10_10_10: b in the low bits, then g, r, a
    };
    const PackedVertex pv[] = {
        {snorm(-0.9f, -0.9f), {255, 0, 0, 255}, 0x3FFu | 3u << 30},
        {snorm(0.9f, -0.9f), {0, 255, 0, 255}, 0x3FFu << 10 | 3u << 30},
        {snorm(0.9f, 0.9f), {0, 0, 255, 255}, 0x3FFu << 20 | 3u << 30},
        {snorm(-0.9f, 0.9f), {128, 64, 32, 255}, 0x200u | 0x100u << 10 | 0x080u << 20 | 3u << 30},
    };
    GLuint pbuf = 0;
    glGenBuffers(1, &pbuf);
    glBindBuffer(GL_ARRAY_BUFFER, pbuf);
    glBufferData(GL_ARRAY_BUFFER, sizeof pv, pv, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_INT_2_10_10_10_REV, GL_TRUE, sizeof(PackedVertex), nullptr);
    glVertexAttribPointer(1, GL_BGRA, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(PackedVertex),
                          reinterpret_cast<const void*>(offsetof(PackedVertex, bgra)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    // (0.75, 1, 0.5, 1) as unsigned normalized 2_10_10_10 fields
    glVertexAttribP4ui(2, GL_UNSIGNED_INT_2_10_10_10_REV, GL_TRUE, 767u | 1023u << 10 | 511u << 20 | 3u << 30);
    glViewport(0, 0, W / 2, H);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    glVertexAttribPointer(1, GL_BGRA, GL_UNSIGNED_INT_2_10_10_10_REV, GL_TRUE, sizeof(PackedVertex),
                          reinterpret_cast<const void*>(offsetof(PackedVertex, bgra_word)));
    glViewport(W / 2, 0, W / 2, H);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    glViewport(0, 0, W, H);
    glDisableVertexAttribArray(1);
    glDisableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    report("bgra-packed-vertex-arrays");

    // 11. Arrays of structures among a program's uniforms, set element by
    // element through their own locations (lights[i].colour): each quarter
    // of the target shows one element's fields.
    reset();
    const GLuint sp = program("#version 130\nin vec4 pos; out vec2 at;\n"
                              "void main() { gl_Position = pos; at = pos.xy; }\n",
                              "#version 130\nstruct Light { vec3 colour; float gain; int pick; };\n"
                              "uniform Light lights[4];\nin vec2 at; out vec4 c;\n"
                              "void main() {\n"
                              "  int i = (at.x < 0.0 ? 0 : 1) + (at.y < 0.0 ? 0 : 2);\n"
                              "  c = vec4(lights[i].colour * lights[i].gain, float(lights[i].pick) / 4.0); }\n");
    glBindAttribLocation(sp, 0, "pos");
    glLinkProgram(sp);
    glUseProgram(sp);
    for (int i = 0; i < 4; ++i) {
        const std::string base = "lights[" + std::to_string(i) + "].";
        glUniform3f(glGetUniformLocation(sp, (base + "colour").c_str()), i == 1 ? 1.0f : 0.25f * float(i),
                    i == 2 ? 1.0f : 0.5f, i == 3 ? 1.0f : 0.125f);
        glUniform1f(glGetUniformLocation(sp, (base + "gain").c_str()), 0.5f + 0.125f * float(i));
        glUniform1i(glGetUniformLocation(sp, (base + "pick").c_str()), i + 1);
    }
    const float corners[] = {-1, -1, 1, -1, 1, 1, -1, 1};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, corners);
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    glDisableVertexAttribArray(0);
    glUseProgram(0);
    report("struct-array-uniforms");

    probe::release_context();
    return 0;
}
