// Fixed-function scenes on a desktop compatibility context (EGL, surfaceless),
// each read back and printed as a hash of its pixels. run_ff_probe.sh runs it
// natively and through `mgl run`: every line must be the same, so each scene
// is checked against Mesa's own fixed function, pixel for pixel.
#define GL_GLEXT_PROTOTYPES 1
#include "scene_report.h"
#include "probe_scene.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int W = 160, H = 120;

void report(const char* scene) {
    std::vector<uint8_t> px(size_t(W) * H * 4);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    probe::print_scene(scene, px, glGetError());
}

void reset() {
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
}

}  // namespace

int main() {
    if (!probe::make_context_and_framebuffer(W, H)) return 1;

    // 1. smooth triangles, per-vertex colours, glOrtho
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    glBegin(GL_TRIANGLES);
    glColor3f(1, 0, 0), glVertex2f(-0.9f, -0.9f);
    glColor3ub(0, 255, 0), glVertex2f(0.9f, -0.8f);
    glColor4f(0, 0, 1, 1), glVertex2f(0.1f, 0.9f);
    glEnd();
    report("smooth-triangles");

    // 2. flat quads, quad strip, polygon (GL's provoking vertices)
    reset();
    glShadeModel(GL_FLAT);
    glBegin(GL_QUADS);
    for (int i = 0; i < 4; ++i) {
        const float x = -1 + 0.5f * float(i);
        glColor3f(1, 0, 0), glVertex2f(x, 0.1f);
        glColor3f(0, 1, 0), glVertex2f(x + 0.4f, 0.1f);
        glColor3f(0, 0, 1), glVertex2f(x + 0.4f, 0.9f);
        glColor3f(1, 1, 0), glVertex2f(x, 0.8f);
    }
    glEnd();
    glBegin(GL_QUAD_STRIP);
    for (int i = 0; i < 6; ++i) {
        glColor3f(float(i % 2), float(i % 3) / 2, float(i) / 5);
        glVertex2f(-1 + 0.35f * float(i), -0.1f);
        glVertex2f(-1 + 0.35f * float(i) + 0.05f, -0.5f);
    }
    glEnd();
    glBegin(GL_POLYGON);
    glColor3f(1, 0, 1), glVertex2f(-0.5f, -0.6f);
    glColor3f(0, 1, 1), glVertex2f(0.5f, -0.6f);
    glColor3f(1, 1, 1), glVertex2f(0.6f, -0.8f);
    glColor3f(0, 0, 1), glVertex2f(0, -1);
    glColor3f(1, 0, 0), glVertex2f(-0.6f, -0.8f);
    glEnd();
    glShadeModel(GL_SMOOTH);
    report("flat-quads-polygon");

    // 3. lighting: a directional and a positional attenuated spot light, specular,
    //    local viewer, colour material, depth test, perspective
    reset();
    glEnable(GL_DEPTH_TEST);
    glMatrixMode(GL_PROJECTION);
    glFrustum(-1, 1, -0.75, 0.75, 2, 20);
    glMatrixMode(GL_MODELVIEW);
    glTranslatef(0, 0, -6);
    const float l0[4] = {1, 1, 1, 0}, l1[4] = {-2, 1, 2, 1}, white[4] = {1, 1, 1, 1}, dim[4] = {0.3f, 0.2f, 0.1f, 1};
    const float spot[3] = {2, -1, -2};
    glLightfv(GL_LIGHT0, GL_POSITION, l0);
    glLightfv(GL_LIGHT1, GL_POSITION, l1);
    glLightfv(GL_LIGHT1, GL_DIFFUSE, white);
    glLightfv(GL_LIGHT1, GL_SPECULAR, white);
    glLightfv(GL_LIGHT1, GL_AMBIENT, dim);
    glLightfv(GL_LIGHT1, GL_SPOT_DIRECTION, spot);
    glLightf(GL_LIGHT1, GL_SPOT_CUTOFF, 40);
    glLightf(GL_LIGHT1, GL_SPOT_EXPONENT, 4);
    glLightf(GL_LIGHT1, GL_LINEAR_ATTENUATION, 0.2f);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glEnable(GL_LIGHT1);
    const float spec[4] = {0.8f, 0.8f, 0.8f, 1};
    glMaterialfv(GL_FRONT, GL_SPECULAR, spec);
    glMaterialf(GL_FRONT, GL_SHININESS, 30);
    glLightModeli(GL_LIGHT_MODEL_LOCAL_VIEWER, 1);
    glPushMatrix();
    glTranslatef(-1.2f, 0, 0);
    probe::sphere(1, 24, 16);
    glPopMatrix();
    glEnable(GL_COLOR_MATERIAL);
    glColor3f(0.2f, 0.6f, 1);
    glPushMatrix();
    glTranslatef(1.2f, 0, 0);
    glRotatef(30, 1, 1, 0);
    probe::sphere(0.9f, 20, 12);
    glPopMatrix();
    glDisable(GL_COLOR_MATERIAL);
    report("lighting");

    // 4. non-uniform scale under lighting (eye-space lighting), separate specular
    reset();
    glMatrixMode(GL_PROJECTION);
    glFrustum(-1, 1, -0.75, 0.75, 2, 20);
    glMatrixMode(GL_MODELVIEW);
    glTranslatef(0, 0, -6);
    glScalef(1.5f, 0.8f, 1);
    glEnable(GL_NORMALIZE);
    glLightModeli(GL_LIGHT_MODEL_COLOR_CONTROL, GL_SEPARATE_SPECULAR_COLOR);
    probe::sphere(1.2f, 24, 16);
    glLightModeli(GL_LIGHT_MODEL_COLOR_CONTROL, GL_SINGLE_COLOR);
    glDisable(GL_NORMALIZE);
    glDisable(GL_LIGHTING);
    glDisable(GL_DEPTH_TEST);
    report("scaled-lighting");

    // 5. display lists: compile-and-execute, nesting, glCallLists with a base
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    const GLuint base = glGenLists(3);
    glNewList(base, GL_COMPILE);
    glBegin(GL_TRIANGLE_FAN);
    glColor3f(1, 0.5f, 0), glVertex2f(0, 0);
    for (int i = 0; i <= 8; ++i) glColor3f(0, float(i) / 8, 1), glVertex2f(0.3f * cosf(float(i) * 0.785f), 0.3f * sinf(float(i) * 0.785f));
    glEnd();
    glEndList();
    glNewList(base + 1, GL_COMPILE_AND_EXECUTE);
    glTranslatef(-0.5f, 0.4f, 0);
    glCallList(base);
    glEndList();
    glNewList(base + 2, GL_COMPILE);
    glRotatef(45, 0, 0, 1);
    glScalef(0.8f, 0.8f, 1);
    glCallList(base + 1);
    glEndList();
    glLoadIdentity();
    const GLubyte order[3] = {2, 1, 0};
    glListBase(base);
    glCallLists(3, GL_UNSIGNED_BYTE, order);
    glListBase(0);
    report("display-lists");

    // 6. client-state arrays: client memory (draw arrays, draw elements) and a buffer
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    const float verts[] = {-0.9f, -0.9f, -0.1f, -0.9f, -0.1f, -0.1f, -0.9f, -0.2f};
    const uint8_t cols[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 255};
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, verts);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, cols);
    glDrawArrays(GL_QUADS, 0, 4);
    const float verts2[] = {0.1f, 0.1f, 0.9f, 0.2f, 0.5f, 0.9f, 0.1f, 0.6f};
    const uint16_t ind[] = {0, 1, 2, 0, 2, 3};
    glVertexPointer(2, GL_FLOAT, 0, verts2);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, ind);
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    const float verts3[] = {0.1f, -0.9f, 0.9f, -0.9f, 0.5f, -0.1f};
    glBufferData(GL_ARRAY_BUFFER, sizeof verts3, verts3, GL_STATIC_DRAW);
    glVertexPointer(2, GL_FLOAT, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDisableClientState(GL_COLOR_ARRAY);
    glColor3f(0.7f, 0.3f, 0.9f);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisableClientState(GL_VERTEX_ARRAY);
    report("client-arrays");

    // 7. texture modulate with coordinates, alpha test
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    uint8_t tex[8 * 8 * 4];
    for (int i = 0; i < 64; ++i) {
        const bool on = ((i % 8) / 2 + (i / 16)) % 2;
        tex[4 * i] = on ? 255 : 40, tex[4 * i + 1] = uint8_t(i * 4), tex[4 * i + 2] = 128, tex[4 * i + 3] = on ? 255 : 60;
    }
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
    glEnable(GL_ALPHA_TEST);
    glAlphaFunc(GL_GREATER, 0.5f);
    glBegin(GL_QUADS);
    glColor3f(1, 1, 0.5f);
    glTexCoord2f(0, 0), glVertex2f(-0.9f, -0.9f);
    glTexCoord2f(1, 0), glVertex2f(0.9f, -0.9f);
    glTexCoord2f(1, 1), glVertex2f(0.9f, 0.9f);
    glTexCoord2f(0, 1), glVertex2f(-0.9f, 0.9f);
    glEnd();
    glDisable(GL_ALPHA_TEST);
    glDisable(GL_TEXTURE_2D);
    report("texture-alpha-test");

    // 8. the matrix verbs: glLoadMatrixf, glMultMatrixd, arbitrary-axis rotation
    reset();
    const float proj[16] = {1, 0, 0, 0, 0, 1.2f, 0, 0, 0, 0, -1, 0, 0.1f, 0, 0, 1};
    glMatrixMode(GL_PROJECTION);
    glLoadMatrixf(proj);
    glMatrixMode(GL_MODELVIEW);
    const double shear[16] = {1, 0.2, 0, 0, 0.1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    glMultMatrixd(shear);
    glRotatef(37, 0.3f, 0.5f, 0.8f);
    glBegin(GL_TRIANGLE_STRIP);
    for (int i = 0; i < 10; ++i) {
        glColor3f(float(i) / 10, 1 - float(i) / 10, 0.5f);
        glVertex3f(-0.8f + 0.18f * float(i), (i % 2) ? 0.5f : -0.5f, 0.1f * float(i % 3));
    }
    glEnd();
    report("matrices");

    // 9. glPolygonMode (client/src/compat/ff_unfilled.cc): a lit sphere in GL_LINE, back faces culled,
    //    perspective; then front faces filled and back faces as lines, back faces culled (the filled
    //    triangles of the polygon-mode stage). Not here: front faces filled and back faces as lines
    //    without culling, where 13 silhouette pixels differ (ARCHITECTURE-gl-frontend.md says why)
    reset();
    glEnable(GL_DEPTH_TEST);
    glMatrixMode(GL_PROJECTION);
    glFrustum(-1, 1, -0.75, 0.75, 2, 20);
    glMatrixMode(GL_MODELVIEW);
    glTranslatef(0, 0, -6);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glEnable(GL_CULL_FACE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glPushMatrix();
    glTranslatef(-1.2f, 0, 0);
    glRotatef(25, 1, 0.5f, 0);
    probe::sphere(1, 16, 10);
    glPopMatrix();
    glPolygonMode(GL_FRONT, GL_FILL);
    glPushMatrix();
    glTranslatef(1.2f, 0, 0);
    glRotatef(-40, 0, 1, 0.3f);
    probe::sphere(0.9f, 12, 8);
    glPopMatrix();
    glDisable(GL_CULL_FACE);
    glDisable(GL_LIGHTING);
    glDisable(GL_DEPTH_TEST);
    report("polygon-mode-lit");

    // 10. flat-shaded quads and a polygon as lines (provoking colours), edge flags,
    //     triangle strips as points, client arrays with glDrawElements, a display list
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    glShadeModel(GL_FLAT);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glBegin(GL_QUADS);
    for (int i = 0; i < 3; ++i) {
        const float x = -0.95f + 0.6f * float(i);
        glColor3f(1, 0, 0), glVertex2f(x, 0.5f);
        glColor3f(0, 1, 0), glEdgeFlag(i != 1), glVertex2f(x + 0.5f, 0.45f);
        glColor3f(0, 0, 1), glEdgeFlag(GL_TRUE), glVertex2f(x + 0.45f, 0.95f);
        glColor3f(1, 1, 0), glVertex2f(x + 0.05f, 0.9f);
    }
    glEnd();
    glBegin(GL_POLYGON);
    glColor3f(1, 0, 1), glVertex2f(-0.5f, 0.0f);
    glColor3f(0, 1, 1), glVertex2f(0.5f, 0.05f);
    glColor3f(1, 1, 1), glVertex2f(0.6f, 0.3f);
    glColor3f(0, 0, 1), glVertex2f(-0.6f, 0.35f);
    glEnd();
    glShadeModel(GL_SMOOTH);
    glPolygonMode(GL_FRONT, GL_POINT);
    glPolygonMode(GL_BACK, GL_LINE);
    glBegin(GL_TRIANGLE_STRIP);
    for (int i = 0; i < 8; ++i) {
        glColor3f(float(i) / 8, 1, 1 - float(i) / 8);
        glVertex2f(-0.9f + 0.25f * float(i), (i % 2) ? -0.1f : -0.35f);
    }
    glEnd();
    static const float pverts[] = {-0.9f, -0.9f, -0.5f, -0.85f, -0.45f, -0.5f, -0.85f, -0.45f,
                                  0.1f, -0.9f, 0.5f, -0.5f, 0.1f, -0.5f};
    static const uint8_t pcolors[] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 255, 0, 255, 0, 255, 255, 255, 255, 255};
    static const GLushort elems[] = {0, 1, 2, 3, 4, 5, 6, 6};
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glVertexPointer(2, GL_FLOAT, 0, pverts);
    glColorPointer(3, GL_UNSIGNED_BYTE, 0, pcolors);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    static const GLboolean pedges[] = {1, 0, 1, 1, 1, 1, 0};
    glEdgeFlagPointer(0, pedges);
    glEnableClientState(GL_EDGE_FLAG_ARRAY);
    glDrawElements(GL_QUADS, 8, GL_UNSIGNED_SHORT, elems);
    glDisableClientState(GL_EDGE_FLAG_ARRAY);
    glDisableClientState(GL_COLOR_ARRAY);
    glDisableClientState(GL_VERTEX_ARRAY);
    const GLuint list = glGenLists(1);
    glNewList(list, GL_COMPILE);
    glColor3f(0.5f, 1, 0.5f);
    glBegin(GL_TRIANGLE_FAN);
    glVertex2f(0.7f, -0.7f);
    for (int i = 0; i < 7; ++i)
        glVertex2f(0.7f + 0.25f * std::cos(float(i)), -0.7f + 0.25f * std::sin(float(i)));
    glEnd();
    glEndList();
    glCallList(list);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glEdgeFlag(GL_TRUE);
    report("polygon-mode-flat-edges");

    // 11. verbs compiled into a list by the generated gate: wire state (clear colour, blend, a texture
    // image under a row length, unpacked at compile time), a client-array draw whose arrays change
    // after the compile (dereferenced at compile time), glRect; a verb refused between glBegin and glEnd
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    uint8_t img[4 * 6 * 4];  // 4x4 RGBA of rows 6 pixels long
    for (int i = 0; i < 4 * 6 * 4; ++i) img[i] = uint8_t(i * 37 + 11);
    GLuint t2;
    glGenTextures(1, &t2);
    float tri[3][2] = {{-0.9f, -0.9f}, {0.2f, -0.9f}, {-0.35f, 0.1f}};
    const GLuint list2 = glGenLists(1);
    glNewList(list2, GL_COMPILE);
    glClearColor(0.1f, 0.2f, 0.3f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindTexture(GL_TEXTURE_2D, t2);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 6);  // executed now, not compiled
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, img);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glColor3f(1, 1, 1);
    glBegin(GL_QUADS);
    glTexCoord2f(0, 0), glVertex2f(0.3f, 0.3f);
    glTexCoord2f(1, 0), glVertex2f(0.9f, 0.3f);
    glTexCoord2f(1, 1), glVertex2f(0.9f, 0.9f);
    glTexCoord2f(0, 1), glVertex2f(0.3f, 0.9f);
    glEnd();
    glDisable(GL_TEXTURE_2D);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glVertexPointer(2, GL_FLOAT, 0, tri);  // executed now
    glEnableClientState(GL_VERTEX_ARRAY);
    glColor4f(1, 0.5f, 0, 0.5f);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glColor4f(0, 1, 0, 1);
    glRectf(0.3f, -0.9f, 0.8f, -0.2f);
    glDisable(GL_BLEND);
    glEndList();
    std::memset(img, 0, sizeof img);  // the list holds its own copies
    tri[2][1] = 0.9f;
    glDisableClientState(GL_VERTEX_ARRAY);
    glClearColor(0, 0, 0, 1);
    glCallList(list2);
    glBegin(GL_POINTS);
    glClear(GL_COLOR_BUFFER_BIT);  // GL_INVALID_OPERATION, nothing cleared
    glEnd();
    report("compiled-verbs");
    glDeleteLists(list2, 1);

    // 12. point sprites with a lower-left origin, and points sized by distance
    //     attenuation and clamped (GL 2.1 §3.4)
    reset();
    glMatrixMode(GL_PROJECTION);
    glFrustum(-1, 1, -0.75, 0.75, 1, 20);
    glMatrixMode(GL_MODELVIEW);
    GLuint sprite_tex;
    glGenTextures(1, &sprite_tex);
    glBindTexture(GL_TEXTURE_2D, sprite_tex);
    GLubyte cells[4 * 4 * 4];
    for (int i = 0; i < 16; ++i) {
        const bool on = ((i % 4) + (i / 4)) % 2 == 0;
        cells[4 * i] = on ? 255 : 20, cells[4 * i + 1] = GLubyte(i * 16), cells[4 * i + 2] = on ? 40 : 220, cells[4 * i + 3] = 255;
    }
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, cells);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glEnable(GL_POINT_SPRITE);
    glTexEnvi(GL_POINT_SPRITE, GL_COORD_REPLACE, GL_TRUE);
    glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_LOWER_LEFT);
    const GLfloat atten[3] = {0, 0, 0.02f};
    glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, atten);
    glPointParameterf(GL_POINT_SIZE_MIN, 4);
    glPointParameterf(GL_POINT_SIZE_MAX, 30);
    glPointSize(6);
    glBegin(GL_POINTS);
    for (int i = 0; i < 6; ++i) glVertex3f(-1.2f + 0.5f * float(i), 0.2f * float(i % 2), -2.0f - 2.5f * float(i));
    glEnd();
    GLfloat got_atten[3] = {}, got_min = 0, got_max = 0;
    GLint origin = 0;
    glGetFloatv(GL_POINT_DISTANCE_ATTENUATION, got_atten);
    glGetFloatv(GL_POINT_SIZE_MIN, &got_min);
    glGetFloatv(GL_POINT_SIZE_MAX, &got_max);
    glGetIntegerv(GL_POINT_SPRITE_COORD_ORIGIN, &origin);
    std::printf("point-parameters %.2f %.2f %.2f min %.1f max %.1f origin 0x%x\n", got_atten[0], got_atten[1],
                got_atten[2], got_min, got_max, origin);
    // GL_POINT_BIT saves all of it (sprite enable, origin, size, parameters)
    glPushAttrib(GL_POINT_BIT);
    glDisable(GL_POINT_SPRITE);
    glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_UPPER_LEFT);
    glPointParameterf(GL_POINT_SIZE_MAX, 9);
    glPointSize(3);
    glPopAttrib();
    GLfloat popped_size = 0, popped_max = 0;
    GLint popped_origin = 0;
    glGetFloatv(GL_POINT_SIZE, &popped_size);
    glGetFloatv(GL_POINT_SIZE_MAX, &popped_max);
    glGetIntegerv(GL_POINT_SPRITE_COORD_ORIGIN, &popped_origin);
    std::printf("point-bit-popped sprite %d size %.1f max %.1f origin 0x%x\n", glIsEnabled(GL_POINT_SPRITE),
                popped_size, popped_max, popped_origin);
    glDisable(GL_POINT_SPRITE);
    glDisable(GL_TEXTURE_2D);
    const GLfloat no_atten[3] = {1, 0, 0};
    glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, no_atten);
    glPointSize(1);
    report("point-sprites-attenuated");

    // depth textures in fixed-function texturing: GL_DEPTH_TEXTURE_MODE's
    // base format (luminance, intensity, alpha) under GL_MODULATE, with and
    // without GL_ARB_shadow's comparison (r / q against the texel, a
    // reference outside [0, 1] clamped), and the alpha test on the result:
    // the classic fixed-function shadow map.
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(0, 3, 0, 4, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    const float depths[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    GLuint dtex[3];
    glGenTextures(3, dtex);
    const GLenum modes[3] = {GL_LUMINANCE, GL_INTENSITY, GL_ALPHA};
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    for (int m = 0; m < 3; ++m) {
        glBindTexture(GL_TEXTURE_2D, dtex[m]);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, modes[m]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 2, 2, 0, GL_DEPTH_COMPONENT, GL_FLOAT, depths);
        const float x = float(m);
        for (int row = 0; row < 4; ++row) {
            // rows: plain sampling; GL_LEQUAL against r = 0.6; GL_GREATER against r = 1.5 (clamped);
            // GL_LEQUAL against r = 0.6 with the alpha test keeping alpha > 0.5
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, row ? GL_COMPARE_R_TO_TEXTURE : GL_NONE);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, row == 2 ? GL_GREATER : GL_LEQUAL);
            const float r = row == 2 ? 1.5f : 0.6f;
            if (row == 3) {
                glEnable(GL_ALPHA_TEST);
                glAlphaFunc(GL_GREATER, 0.5f);
            }
            glColor4f(0.2f + 0.3f * x, 0.9f, 0.5f, 0.8f);
            glBegin(GL_QUADS);
            glTexCoord3f(0, 0, r), glVertex2f(x + 0.05f, float(row) + 0.05f);
            glTexCoord3f(1, 0, r), glVertex2f(x + 0.95f, float(row) + 0.05f);
            glTexCoord3f(1, 1, r), glVertex2f(x + 0.95f, float(row) + 0.95f);
            glTexCoord3f(0, 1, r), glVertex2f(x + 0.05f, float(row) + 0.95f);
            glEnd();
            glDisable(GL_ALPHA_TEST);
        }
    }
    glDisable(GL_BLEND);
    glDisable(GL_TEXTURE_2D);
    glDeleteTextures(3, dtex);
    report("depth-texture-modes-shadow");

    // GL_BGRA colour arrays (GL_ARB_vertex_array_bgra, GL 3.2): bytes in
    // B, G, R, A order, drawn as arrays and through glArrayElement.
    reset();
    glMatrixMode(GL_PROJECTION);
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    const float bverts[] = {-0.9f, -0.9f, -0.1f, -0.9f, -0.1f, -0.1f, -0.9f, -0.2f};
    const uint8_t bgra[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 40, 120, 200, 255};  // blue, green, red, ...
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, bverts);
    glColorPointer(GL_BGRA, GL_UNSIGNED_BYTE, 0, bgra);
    glDrawArrays(GL_QUADS, 0, 4);
    report("bgra-colour-arrays");
    // glArrayElement of the same layout: llvmpipe reads its red and blue
    // the other way round from glDrawArrays (the client follows GL 4.6
    // §10.3.2, B first, docs/DESKTOP-GL.md), so these colours have red =
    // blue and check the rest (size, green, alpha, the element's vertex).
    const uint8_t bgra_sym[] = {200, 0, 200, 255, 30, 255, 30, 255, 90, 140, 90, 255, 40, 120, 40, 255};
    glColorPointer(GL_BGRA, GL_UNSIGNED_BYTE, 0, bgra_sym);
    glTranslatef(1.0f, 1.0f, 0);
    glBegin(GL_TRIANGLES);
    glArrayElement(0), glArrayElement(1), glArrayElement(3);
    glEnd();
    glLoadIdentity();
    glDisableClientState(GL_COLOR_ARRAY);
    glDisableClientState(GL_VERTEX_ARRAY);
    report("bgra-colour-array-element");

    probe::release_context();
    return 0;
}
