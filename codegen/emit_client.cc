// The client's GL entry points: one `extern "C"` function per verb with the
// exact C signature that gl.xml gives (the schema's ctype attributes), the
// sorted name table that the EGL vendor's getProcAddress searches, and the
// list of hand-written halves (client/src/custom/).
//
//   client_entry.h      declarations: entry points, hooks, mint kinds, sources
//   client_entry_N.cc   bodies, split like the decoders
//   client_procs.cc     sorted {name, function} table
//
// A body encodes into the current context's encoder. Sync verbs (and every
// verb with a reply) publish, wait for the reply and copy the outputs. Array
// byte counts come from the `len` expressions (checked arithmetic, the
// decoder's LenCalc) or, for COMPSIZE, from hand-written helpers in
// client/src/compsize.h. Verbs that the client answers or observes by hand
// (flavor custom/client, plus the kHooks list below) forward to
// mgl_custom::<verb>, defined in client/src/custom/*.cc. (A top-level
// namespace: inside namespace mgl, GLchar and GLsync would name the wire types.)
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "emit.h"
#include "lenexpr.h"

namespace mglgen {

namespace {

// Async or sync verbs the client shell intercepts by hand: state it shadows
// (bindings, caps, viewport, pixel store...), queries it answers, client
// arrays and the draws that read them, flush points. Aliases whose C
// signature matches (glBindBufferARB, glDrawArraysEXT, ...) go to the same hook.
const char* const kHooks[] = {
    // bindings and objects whose names or sizes the shadow tracks
    "glActiveTexture", "glBindBuffer", "glBindBufferBase", "glBindBufferRange", "glBindTexture",
    "glBindFramebuffer", "glBindRenderbuffer", "glBindVertexArray", "glBindVertexArrayOES", "glUseProgram",
    "glBindFramebufferEXT", "glBindRenderbufferEXT",  // own verbs (not gl.xml aliases), same shadow bindings
    // a bound pipeline draws instead of the compatibility lowering (compat/ff.h, app_program_bound)
    "glBindProgramPipeline", "glDeleteProgramPipelines",
    "glBindSampler", "glBindTransformFeedback", "glDeleteBuffers", "glDeleteTextures", "glDeleteFramebuffers",
    "glDeleteRenderbuffers", "glDeleteVertexArrays", "glDeleteVertexArraysOES", "glDeleteProgram",
    "glDeleteSamplers", "glDeleteTransformFeedbacks", "glBufferData", "glBufferSubData",
    // buffers the client maps itself: a copy or read of a mapped one is refused here (custom/map.cc)
    "glCopyBufferSubData", "glGetBufferSubData",
    // links: a compatibility program's built-in state uniforms are asked again (compat/program_builtins.h)
    "glLinkProgram",
    // fixed-function state the shadow answers
    "glEnable", "glDisable", "glViewport", "glScissor", "glClearColor", "glClearDepthf", "glClearStencil",
    "glPixelStorei", "glColorMask", "glDepthMask", "glDepthFunc", "glDepthRangef", "glCullFace", "glFrontFace",
    "glBlendFunc", "glBlendFuncSeparate", "glBlendEquation", "glBlendEquationSeparate", "glBlendColor",
    "glStencilFunc", "glStencilFuncSeparate", "glStencilOp", "glStencilOpSeparate", "glStencilMask",
    "glStencilMaskSeparate", "glLineWidth", "glPolygonOffset", "glSampleCoverage", "glHint",
    // desktop GL's double forms, sent as the float ones (the shadow and the GLES host take those)
    "glClearDepth", "glDepthRange",
    // desktop-only read-colour clamping, answered by the shadow (pixel_store_desktop.cc)
    "glClampColor",
    // the provoking-vertex convention: the compatibility lowering picks its quad
    // and polygon patterns by it (client/src/compat/ff_draw.cc)
    "glProvokingVertex",
    // indexed blend state and caps: index 0 is the non-indexed state
    "glEnablei", "glDisablei", "glColorMaski", "glBlendFunci", "glBlendFuncSeparatei", "glBlendEquationi",
    "glBlendEquationSeparatei",
    // vertex arrays (client memory arrays are uploaded at draw time)
    "glVertexAttribPointer", "glVertexAttribIPointer", "glEnableVertexAttribArray", "glDisableVertexAttribArray",
    "glVertexAttribDivisor", "glGetVertexAttribiv", "glGetVertexAttribfv", "glGetVertexAttribIiv",
    "glGetVertexAttribIuiv",
    // packed generic attribute values, unpacked into glVertexAttrib4f (custom/packed_attribs.cc)
    "glVertexAttribP1ui", "glVertexAttribP2ui", "glVertexAttribP3ui", "glVertexAttribP4ui", "glVertexAttribP1uiv",
    "glVertexAttribP2uiv", "glVertexAttribP3uiv", "glVertexAttribP4uiv",
    "glDrawArrays", "glDrawArraysInstanced", "glDrawElements", "glDrawElementsInstanced", "glDrawRangeElements",
    "glDrawElementsBaseVertex", "glDrawRangeElementsBaseVertex", "glDrawElementsInstancedBaseVertex",
    // the multi-draws, as the single draws GL defines them to be (client arrays,
    // the compatibility lowering and list compilation follow each draw)
    "glMultiDrawArrays", "glMultiDrawElements", "glMultiDrawElementsBaseVertex",
    // queries answered from the shadow (a round trip only for what it lacks)
    "glGetIntegerv", "glGetFloatv", "glGetDoublev", "glGetBooleanv", "glGetInteger64v", "glGetIntegeri_v", "glGetInteger64i_v",
    "glGetBooleani_v", "glIsEnabled", "glGetBufferParameteriv", "glGetBufferParameteri64v",
    // uniform values: the server says how many components the uniform has (mglGetUniform)
    "glGetUniformfv", "glGetUniformiv", "glGetUniformuiv", "glGetnUniformfv", "glGetnUniformiv", "glGetnUniformuiv",
    // flush points
    "glFlush",
    // robustness: a lost session is reported here once (client/src/custom/queries.cc)
    "glGetGraphicsResetStatus", "glGetGraphicsResetStatusARB",
    // the compatibility profile's fixed function, lowered by the client (client/src/compat/)
    "glBegin", "glEnd", "glMatrixMode", "glLoadIdentity", "glPushMatrix", "glPopMatrix", "glTranslatef",
    "glTranslated", "glRotatef", "glRotated", "glScalef", "glScaled", "glFrustum", "glOrtho", "glLoadMatrixf",
    "glLoadMatrixd", "glMultMatrixf", "glMultMatrixd", "glLightf", "glLightfv", "glLighti", "glLightiv",
    "glLightModelf", "glLightModelfv", "glLightModeli", "glLightModeliv", "glMaterialf", "glMaterialfv",
    "glMateriali", "glMaterialiv", "glColorMaterial", "glShadeModel", "glAlphaFunc", "glFogf", "glFogfv", "glFogi",
    "glFogiv", "glTexEnvi", "glTexEnvf", "glTexEnviv", "glTexEnvfv", "glGetTexEnviv", "glGetTexEnvfv", "glNewList", "glEndList", "glCallList", "glCallLists", "glGenLists",
    "glDeleteLists", "glIsList", "glListBase", "glVertexPointer", "glNormalPointer", "glColorPointer",
    "glSecondaryColorPointer", "glFogCoordPointer", "glTexCoordPointer", "glClientActiveTexture",
    "glEnableClientState", "glDisableClientState", "glEdgeFlagPointer", "glIndexPointer", "glGetLightfv",
    "glGetLightiv", "glGetMaterialfv", "glGetMaterialiv", "glPushAttrib", "glPopAttrib", "glPushClientAttrib",
    "glPopClientAttrib", "glTexGeni", "glTexGenf", "glTexGend", "glTexGeniv", "glTexGenfv", "glTexGendv",
    "glGetTexGeniv", "glGetTexGenfv", "glGetTexGendv", "glClipPlane", "glGetClipPlane",
    // point parameters, the lowering's (compat/ff_points.cc)
    "glPointParameterf", "glPointParameterfv", "glPointParameteri", "glPointParameteriv",
    // the raster path (client/src/compat/ff_raster.cc; glRasterPos/glWindowPos are generated, raster_parse)
    "glDrawPixels", "glBitmap", "glCopyPixels", "glPixelZoom",
    // polygon mode and edge flags (client/src/compat/ff_unfilled.cc)
    "glPolygonMode", "glEdgeFlag", "glEdgeFlagv",
    // debug output: the server's log goes to the application's callback (custom/debug_output.cc)
    "glDebugMessageInsert", "glGetDebugMessageLog",
    // object labels: a display list's is the client's (its lists are), the rest go on
    "glObjectLabel", "glGetObjectLabel",
    // the point size of lowered draws (a GLES host sizes points by gl_PointSize only)
    "glPointSize",
    // client-state arrays read on the client (compat/ff_fetch.cc)
    "glArrayElement",
};

// Immediate-mode vertex attributes (glVertex3f, glColor4ubv, glMultiTexCoord2fv...):
// one generated body per verb converts the arguments to floats (normalising
// integer colours and normals as GL says) and hands them to the client's
// fixed-function lowering (client/src/compat/ff.h), which packs the vertices
// of each glBegin/glEnd into one array.
struct ImmAttr {
    const char* base;
    const char* attr;   // compat::Attr
    bool normalized;    // integer forms map to [-1, 1] / [0, 1]
    bool unit;          // first parameter is the texture unit (glMultiTexCoord*)
};
const ImmAttr kImmAttrs[] = {
    {"glVertex", "kPos", false, false},          {"glNormal", "kNormal", true, false},
    {"glColor", "kColor", true, false},          {"glSecondaryColor", "kColor2", true, false},
    {"glTexCoord", "kTex0", false, false},       {"glMultiTexCoord", "kTex0", false, true},
    {"glFogCoord", "kFog", false, false},
};

// Desktop-only forms of the generic vertex attributes (glVertexAttrib1d,
// glVertexAttrib4Nubv, glVertexAttribI2i...): GLES has only
// glVertexAttrib{1,2,3,4}f[v] and glVertexAttribI4{i,ui}[v], so the client
// sends every other form as the four-component one (missing components
// 0, 0, 0, 1; the N forms normalised as GL 4.6 §2.3.5 says), once, here: no
// backend sees a form its device may lack.
struct WideAttr {
    int n = 0;
    bool integer = false, norm = false, vec = false;
    std::string type;
};
bool wide_attr_parse(const std::string& name, WideAttr* w) {
    const std::string pre = "glVertexAttrib";
    if (name.rfind(pre, 0) != 0) return false;
    size_t i = pre.size();
    w->integer = i < name.size() && name[i] == 'I';
    if (w->integer) ++i;
    if (i >= name.size() || name[i] < '1' || name[i] > '4') return false;
    w->n = name[i++] - '0';
    w->norm = i < name.size() && name[i] == 'N';
    if (w->norm) {
        if (w->integer || w->n != 4) return false;
        ++i;
    }
    std::string rest = name.substr(i);
    w->vec = !rest.empty() && rest.back() == 'v';
    if (w->vec) rest.pop_back();
    static const char* const kTypes[] = {"b", "s", "i", "f", "d", "ub", "us", "ui"};
    bool ok = false;
    for (const char* t : kTypes) ok |= rest == t;
    if (!ok || (w->integer && (rest == "f" || rest == "d"))) return false;
    w->type = rest;
    // The forms GLES has go through as they are.
    if (!w->integer && !w->norm && rest == "f") return false;
    if (w->integer && w->n == 4 && (rest == "i" || rest == "ui")) return false;
    return true;
}

// The floating-point forms of the generic vertex attributes (glVertexAttrib2f,
// glVertexAttrib4Nubv, glVertexAttrib3d...; not the I, L or P forms): in a
// compatibility context they are immediate-mode attributes too (generic
// attribute 0 gives a vertex between glBegin and glEnd, as glVertex does; the
// others are captured per vertex: compat::imm_generic), so they compile
// themselves into display lists.
bool generic_float_attr(const std::string& name, int* n, bool* vec) {
    const std::string pre = "glVertexAttrib";
    if (name.rfind(pre, 0) != 0 || name.size() < pre.size() + 2) return false;
    size_t i = pre.size();
    if (name[i] < '1' || name[i] > '4') return false;
    *n = name[i++] - '0';
    if (name[i] == 'N') {
        if (*n != 4) return false;
        ++i;
    }
    std::string rest = name.substr(i);
    *vec = !rest.empty() && rest.back() == 'v';
    if (*vec) rest.pop_back();
    static const char* const kTypes[] = {"b", "s", "i", "f", "d", "ub", "us", "ui"};
    for (const char* t : kTypes)
        if (rest == t) return true;
    return false;
}

// "glColor4ubv" -> base glColor, n 4, type ub, vector; false if not such a verb.
bool imm_attr_parse(const std::string& name, const ImmAttr** which, int* n, std::string* type, bool* vec) {
    for (const ImmAttr& a : kImmAttrs) {
        const std::string b = a.base;
        if (name.compare(0, b.size(), b) != 0) continue;
        size_t i = b.size();
        *n = 1;
        if (b != "glFogCoord") {
            if (i >= name.size() || name[i] < '1' || name[i] > '4') continue;
            *n = name[i] - '0';
            ++i;
        }
        std::string rest = name.substr(i);
        *vec = !rest.empty() && rest.back() == 'v';
        if (*vec) rest.pop_back();
        static const char* const kTypes[] = {"b", "s", "i", "f", "d", "ub", "us", "ui"};
        bool ok = false;
        for (const char* t : kTypes) ok |= rest == t;
        if (!ok) continue;
        *type = rest;
        *which = &a;
        return true;
    }
    return false;
}

// Raster positions (glRasterPos2s ... glRasterPos4dv, glWindowPos2s ... and
// their ARB/MESA names, glWindowPos4*MESA): one generated body per verb turns
// the arguments into doubles and hands them to the fixed-function lowering's
// raster position (client/src/compat/ff_raster.cc), which transforms, clips
// and records it into a display list being compiled.
bool raster_parse(const std::string& name, bool* window, int* n, bool* vec) {
    std::string rest;
    if (name.rfind("glRasterPos", 0) == 0) *window = false, rest = name.substr(11);
    else if (name.rfind("glWindowPos", 0) == 0) *window = true, rest = name.substr(11);
    else return false;
    for (const char* suffix : {"ARB", "MESA"}) {
        const std::string s = suffix;
        if (rest.size() > s.size() && rest.compare(rest.size() - s.size(), s.size(), s) == 0) rest.resize(rest.size() - s.size());
    }
    if (rest.size() < 2 || rest[0] < '2' || rest[0] > '4') return false;
    *n = rest[0] - '0';
    rest = rest.substr(1);
    *vec = rest.back() == 'v';
    if (*vec) rest.pop_back();
    return rest == "s" || rest == "i" || rest == "f" || rest == "d";  // not the fixed-point xOES forms
}

// glRectd ... glRectsv: a GL_POLYGON of four vertices (compat::rect).
bool rect_parse(const std::string& name, bool* vec) {
    static const std::set<std::string> kRects = {"glRectd", "glRectf", "glRecti", "glRects"};
    std::string n = name;
    *vec = !n.empty() && n.back() == 'v';
    if (*vec) n.pop_back();
    return kRects.count(n) > 0;
}

// Edge flags and colour indices: allowed between glBegin and glEnd and
// compiled into lists, but nothing the lowering draws reads them (polygon
// mode GL_LINE/GL_POINT is refused, no colour-index visuals): accepted and
// dropped (one log line), as their client-state arrays are.
const std::set<std::string> kDroppedAttrs = {
    "glEdgeFlag", "glEdgeFlagv", "glIndexd", "glIndexdv", "glIndexf", "glIndexfv", "glIndexi",
    "glIndexiv", "glIndexs", "glIndexsv", "glIndexub", "glIndexubv",
};

// Setters of indexed viewports, scissor boxes and depth ranges (viewport
// arrays). Index 0 is what the non-indexed queries read, and its values may
// be fractional: once a context uses them, GL_VIEWPORT, GL_SCISSOR_BOX and
// GL_DEPTH_RANGE are asked from the server instead of the shadow. Aliases
// follow their target.
const std::set<std::string> kIndexedViewport = {
    "glViewportIndexedf", "glViewportIndexedfv", "glViewportArrayv", "glScissorIndexed", "glScissorIndexedv",
    "glScissorArrayv", "glDepthRangeIndexedfOES", "glDepthRangeArrayfvOES", "glDepthRangeIndexedfNV",
    "glDepthRangeArrayfvNV", "glDepthRangeIndexed", "glDepthRangeArrayv",
};

// ---- the display-list / glBegin gate (client/src/compat/ff_gate.h) ----
//
// Every entry point of a GL verb tests Context::ff_gate (set only in a
// compatibility context while a list is compiled at top level or a glBegin is
// open) and hands its class to compat::gate(). The classes are decided here.

// Allowed between glBegin and glEnd (GL 4.6 compatibility §10.7.5): the
// current vertex attributes, materials, edge flags, colour indices,
// evaluators, glArrayElement and display-list calls.
bool gate_in_begin(const std::string& n) {
    static const char* const kPrefixes[] = {
        "glVertex2", "glVertex3", "glVertex4", "glVertexP", "glNormal3", "glNormalP", "glColor3", "glColor4",
        "glColorP", "glTexCoord1", "glTexCoord2", "glTexCoord3", "glTexCoord4", "glTexCoordP", "glMultiTexCoord",
        "glSecondaryColor3", "glSecondaryColorP", "glFogCoord", "glMaterial", "glEdgeFlag", "glEvalCoord",
        "glEvalPoint", "glVertexAttrib1", "glVertexAttrib2", "glVertexAttrib3", "glVertexAttrib4", "glVertexAttribI1",
        "glVertexAttribI2", "glVertexAttribI3", "glVertexAttribI4", "glVertexAttribL1", "glVertexAttribL2",
        "glVertexAttribL3", "glVertexAttribL4", "glVertexAttribP",
    };
    static const std::set<std::string> kNames = {
        "glEnd", "glCallList", "glCallLists", "glArrayElement", "glArrayElementEXT", "glIndexd", "glIndexdv",
        "glIndexf", "glIndexfv", "glIndexi", "glIndexiv", "glIndexs", "glIndexsv", "glIndexub", "glIndexubv",
    };
    if (kNames.count(n)) return true;
    if (n.find("Pointer") != std::string::npos || n.find("Format") != std::string::npos ||
        n.find("Binding") != std::string::npos || n.find("Divisor") != std::string::npos)
        return false;  // vertex array state (glEdgeFlagPointer, glVertexAttribFormat...), not attributes
    for (const char* pre : kPrefixes)
        if (n.rfind(pre, 0) == 0) return true;
    return false;
}

// Hand-written halves that compile themselves (immediate mode packs a list's
// vertices, the raster path unpacks its images at compile time, glCallList
// records the call, draws fetch their client arrays at compile time).
// Generated verbs whose arguments the client also keeps: after the verb is
// sent, mgl_custom::observe_<verb> sees them (the compatibility lowering's
// texture environment follows each texture's base format: ff_texenv.cc).
// Buffers the server may write are not copied by the client
// (client/src/custom/buffer_contents.cc).
const std::set<std::string> kObserved = {
    "glTexImage1D", "glTexImage2D", "glTexImage3D", "glTexStorage1D", "glTexStorage2D", "glTexStorage3D",
    "glCopyTexImage1D", "glCopyTexImage2D",
    // a depth texture's mode and comparison, which the texture environment follows
    "glTexParameteri", "glTexParameterf", "glTexParameteriv", "glTexParameterfv",
    // buffer contents the server changes on its own
    "glClearBufferData", "glClearBufferSubData", "glBufferStorage", "glTexBuffer",
    "glTexBufferRange", "glBindBufferOffsetEXT", "glBindBuffersBase", "glBindBuffersRange", "glNamedBufferData",
    "glNamedBufferStorage", "glNamedBufferSubData", "glCopyNamedBufferSubData", "glClearNamedBufferData",
    "glClearNamedBufferSubData", "glTextureBuffer", "glTextureBufferRange", "glTransformFeedbackBufferBase",
    "glTransformFeedbackBufferRange"};

// Verbs whose OpenGL ES 1.1 rules differ from the compatibility profile's
// that serves ES 1.x contexts (texture formats, paletted textures): in such a
// context the generated entry point first asks mgl_custom::es1_<verb>
// (client/src/es1/es1_rules.cc), which returns true when it handled the call.
const std::set<std::string> kEs1Rules = {"glTexImage2D", "glTexSubImage2D", "glCopyTexImage2D",
                                         "glCompressedTexImage2D", "glCompressedTexSubImage2D"};

// OpenGL ES 1.1 extension entry points that are core GL verbs under another
// name (GL_OES_framebuffer_object, GL_OES_blend_*): gl.xml scopes them to
// gles1 alone, so the schema (gl, glcore, gles2) has no verb for them. The
// procedure table gives each the core verb's entry point when the two C
// signatures are the same (client/src/es1/es1_context.cc lists the extensions).
const std::pair<const char*, const char*> kEs1Aliases[] = {
    {"glBlendEquationOES", "glBlendEquation"}, {"glBlendEquationSeparateOES", "glBlendEquationSeparate"},
    {"glBlendFuncSeparateOES", "glBlendFuncSeparate"}, {"glIsRenderbufferOES", "glIsRenderbuffer"},
    {"glBindRenderbufferOES", "glBindRenderbuffer"}, {"glDeleteRenderbuffersOES", "glDeleteRenderbuffers"},
    {"glGenRenderbuffersOES", "glGenRenderbuffers"}, {"glRenderbufferStorageOES", "glRenderbufferStorage"},
    {"glGetRenderbufferParameterivOES", "glGetRenderbufferParameteriv"}, {"glIsFramebufferOES", "glIsFramebuffer"},
    {"glBindFramebufferOES", "glBindFramebuffer"}, {"glDeleteFramebuffersOES", "glDeleteFramebuffers"},
    {"glGenFramebuffersOES", "glGenFramebuffers"}, {"glCheckFramebufferStatusOES", "glCheckFramebufferStatus"},
    {"glFramebufferRenderbufferOES", "glFramebufferRenderbuffer"},
    {"glFramebufferTexture2DOES", "glFramebufferTexture2D"},
    {"glGetFramebufferAttachmentParameterivOES", "glGetFramebufferAttachmentParameteriv"},
    {"glGenerateMipmapOES", "glGenerateMipmap"},
};

const std::set<std::string> kGateSelf = {
    "glBegin", "glEnd", "glCallList", "glCallLists", "glDrawPixels", "glBitmap", "glCopyPixels", "glPixelZoom",
    "glDrawArrays", "glDrawElements", "glDrawRangeElements", "glArrayElement",
    // between glBegin and glEnd they take effect around the primitive's draw (compat::materialv)
    "glMaterialf", "glMaterialfv", "glMateriali", "glMaterialiv",
    // refused while a list is compiled (as Mesa, after ARB_draw_instanced): their hooks say so
    "glDrawArraysInstanced", "glDrawElementsInstanced", "glDrawElementsInstancedBaseVertex",
};

// Not compiled into display lists but executed at once (GL 4.6
// compatibility §21.4, "Commands Not Usable In Display Lists"), besides every
// verb with a reply, a return value or names to mint (has_reply, below).
bool gate_not_compiled(const std::string& n) {
    // Run, not recorded: their hand-written halves call glDrawArrays or
    // glDrawElements once per draw, and those compile themselves.
    static const std::set<std::string> kAsTheirDraws = {"glMultiDrawArrays", "glMultiDrawElements",
                                                        "glMultiDrawElementsBaseVertex"};
    if (kAsTheirDraws.count(n)) return true;
    static const char* const kPrefixes[] = {
        "glGen", "glDelete", "glIs", "glGet", "glCreate", "glAreTexturesResident", "glNewList", "glEndList",
        "glFeedbackBuffer", "glSelectBuffer", "glRenderMode", "glEnableClientState", "glDisableClientState",
        "glClientActiveTexture", "glInterleavedArrays", "glPushClientAttrib", "glPopClientAttrib", "glPixelStore",
        "glReadPixels", "glReadnPixels", "glFinish", "glFlush", "glFenceSync", "glWaitSync", "glClientWaitSync",
        // vertex arrays and vertex array objects
        "glEnableVertexAttribArray", "glDisableVertexAttribArray", "glEnableVertexArray", "glDisableVertexArray",
        "glVertexAttribBinding", "glVertexAttribFormat", "glVertexAttribIFormat", "glVertexAttribLFormat",
        "glVertexAttribDivisor", "glBindVertexBuffer", "glVertexBindingDivisor", "glBindVertexArray",
        "glVertexArray",
        // buffer objects
        "glBindBuffer", "glBufferData", "glBufferSubData", "glBufferStorage", "glNamedBuffer", "glMapBuffer",
        "glMapNamedBuffer", "glUnmapBuffer", "glUnmapNamedBuffer", "glFlushMappedBufferRange",
        "glFlushMappedNamedBufferRange", "glCopyBufferSubData", "glCopyNamedBufferSubData", "glClearBufferData",
        "glClearBufferSubData", "glClearNamedBuffer", "glInvalidateBuffer",
        // framebuffer and renderbuffer objects
        "glBindFramebuffer", "glBindRenderbuffer", "glFramebufferTexture", "glFramebufferRenderbuffer",
        "glFramebufferParameter", "glRenderbufferStorage", "glNamedFramebuffer", "glNamedRenderbuffer",
        "glGenerateMipmap", "glGenerateTextureMipmap",
        // shader and program objects (glUseProgram and glUniform* are compiled)
        "glShaderSource", "glCompileShader", "glAttachShader", "glDetachShader", "glLinkProgram",
        "glValidateProgram", "glBindAttribLocation", "glBindFragDataLocation", "glProgramParameter",
        "glProgramBinary", "glShaderBinary", "glReleaseShaderCompiler", "glTransformFeedbackVaryings",
        "glUseProgramStages", "glActiveShaderProgram", "glBindProgramPipeline", "glValidateProgramPipeline",
        "glNamedString", "glCompileShaderInclude",
        // texture storage (immutable objects, as Mesa), debug output
        "glTexStorage", "glTextureStorage", "glDebugMessage", "glObjectLabel", "glObjectPtrLabel",
        "glPushDebugGroup", "glPopDebugGroup",
    };
    for (const char* pre : kPrefixes)
        if (n.rfind(pre, 0) == 0) return true;
    // GL_ARB_vertex_attrib_binding and pointer setters: glVertexPointer, glVertexAttribPointer, glEdgeFlagPointer...
    return n.find("Pointer") != std::string::npos && n.rfind("glGet", 0) != 0;
}

std::string c_return(const Verb& v) { return v.returns.empty() ? "void" : v.returns; }

// "const GLfloat *" + "v" -> "const GLfloat * v"
std::string c_params(const Verb& v, bool with_names = true) {
    std::string s;
    for (const Param& p : v.params) {
        if (!s.empty()) s += ", ";
        s += p.ctype;
        if (with_names) s += " " + p.name;
    }
    return s.empty() && !with_names ? "void" : s;
}

std::string c_args(const Verb& v) {
    std::string s;
    for (const Param& p : v.params) {
        if (!s.empty()) s += ", ";
        s += p.name;
    }
    return s;
}

std::string ident(const std::string& s) {
    std::string r;
    for (char c : s) r += std::isalnum((unsigned char)c) ? c : '_';
    return r;
}

const Param* find_param(const Verb& v, const std::string& name) {
    for (const Param& p : v.params)
        if (p.name == name) return &p;
    return nullptr;
}

std::vector<std::string> split_args(const std::string& inner) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : inner) {
        if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (c != ' ') {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// C++ expression (int64_t, element count; negative: an error code from the
// helper) for a COMPSIZE(...) length, or "" when no helper applies.
std::string compsize_code(const Verb& v, const Param& p) {
    const std::string& len = p.len;
    if (len.rfind("COMPSIZE(", 0) != 0 || len.back() != ')') return "";
    const std::vector<std::string> args = split_args(len.substr(9, len.size() - 10));
    auto has = [&](const char* n) { return std::find(args.begin(), args.end(), n) != args.end(); };
    auto scalar = [&](const std::string& n) {
        const Param* q = find_param(v, n);
        return q && q->kind == ParamKind::scalar;
    };
    for (const std::string& a : args)
        if (!find_param(v, a)) return "";
    const std::string op = "::mgl::gen::Op::" + v.name;
    const bool pack = p.kind == ParamKind::out_array;
    // A negative count is GL_INVALID_VALUE (GL 4.6 §7.3.1.1), not a count.
    if (args.size() == 2 && args[0] == "uniformCount" && args[1] == "pname")
        return "(uniformCount < 0 ? ::mgl::client::kBadValue : int64_t(uniformCount))";
    // glGetActiveUniformBlockiv: the member indices' count is the server's; the helper asks for it.
    if (args.size() == 3 && args[0] == "program" && args[1] == "uniformBlockIndex" && args[2] == "pname" && pack)
        return "::mgl::client::cs_uniform_block(*ctx_, program, uniformBlockIndex, pname)";
    if (has("pname") && scalar("pname")) return "::mgl::client::cs_pname(*ctx_, " + op + ", pname)";
    // glGetTexImage: the level's size is the server's; the helper asks for it.
    if (args.size() == 4 && args[0] == "target" && args[1] == "level" && args[2] == "format" && args[3] == "type" &&
        pack)
        return "::mgl::client::cs_tex_level_image(*ctx_, target, level, format, type)";
    if (has("format") && has("type") && scalar("format") && scalar("type")) {
        auto dim = [&](const char* n) { return has(n) && scalar(n) ? std::string("int64_t(") + n + ")" : std::string("1"); };
        const bool three_d = has("depth") && scalar("depth");
        return "::mgl::client::cs_image(*ctx_, " + std::string(pack ? "true" : "false") + ", " +
               std::string(three_d ? "true" : "false") + ", format, type, " + dim("width") +
               ", " + dim("height") + ", " + dim("depth") + ")";
    }
    if (args.size() == 2 && args[0] == "count" && args[1] == "type" && scalar("count") && scalar("type"))
        return "::mgl::client::cs_indices(count, type)";
    if (args.size() == 1 && args[0] == "buffer" && scalar("buffer")) return "::mgl::client::cs_clear_buffer(buffer)";
    // EXT_EGL_image_storage's attribute list (compsize.h says why one element).
    if (args.size() == 1 && args[0] == "attrib_list" && p.name == "attrib_list" && v.name.rfind("glEGLImageTarget", 0) == 0)
        return "::mgl::client::cs_image_storage_attribs(reinterpret_cast<const GLint*>(attrib_list))";
    if (args.size() == 1 && args[0] == "target" && scalar("target"))
        return "::mgl::client::cs_indexed(" + op + ", target)";
    if (args.size() == 2 && args[1] == "length" && scalar("length")) {
        const Param* s = find_param(v, args[0]);
        if (s && s->kind != ParamKind::scalar)
            return "::mgl::client::cs_label(reinterpret_cast<const char*>(" + args[0] + "), length)";
    }
    return "";
}

// Element count code for an array parameter, "" when not computable.
std::string count_code(const Verb& v, const Param& p) {
    if (p.len.empty()) return "";
    if (p.len.find("COMPSIZE") != std::string::npos) return compsize_code(v, p);
    std::string code;
    if (!len_expr_code(v, p, "", code)) return "";
    return code;
}

struct Plan {
    const Verb* v;
    std::string forward; // non-empty: a gl.xml alias of this verb with the same C signature
    std::string hook;    // non-empty: forwards to mgl_custom::<hook>
    std::string unsized; // non-empty: refused at run time with this reason
    std::string fixed_of; // non-empty: GL_OES_fixed_point / _single_precision verb converted to this one
};

// The GLfixed and single-precision verbs (GL_OES_fixed_point,
// GL_OES_single_precision; OpenGL ES 1.1 took them into its core without the
// suffix) are the float or double verb of the same name with converted
// arguments: glTranslatexOES -> glTranslatef, glFrustumfOES -> glFrustum,
// glClipPlanexOES -> glClipPlane, glGetFixedvOES -> glGetFloatv. The
// counterpart's parameters must match one for one: GLfixed/GLclampx or
// GLfloat where it has a floating type, the same type everywhere else.
bool fixed_type(const Param& p) { return p.type && (p.type->name == "GLfixed" || p.type->name == "GLclampx"); }

bool fixed_counterpart_fits(const Verb& v, const Verb& d) {
    if (v.params.size() != d.params.size() || v.returns != d.returns || !d.retired.empty()) return false;
    // With arrays to convert, the scalars keep their names: the counterpart's
    // array sizes are computed from them (glLightxvOES's pname).
    const bool arrays = std::any_of(v.params.begin(), v.params.end(), [](const Param& p) { return p.kind != ParamKind::scalar; });
    for (size_t i = 0; i < v.params.size(); ++i) {
        const Param& a = v.params[i];
        const Param& b = d.params[i];
        if (a.kind != b.kind || (arrays && a.kind == ParamKind::scalar && a.name != b.name) || !a.type || !b.type)
            return false;
        if (a.type->name == b.type->name) continue;
        if (a.kind != ParamKind::scalar && a.kind != ParamKind::in_array && a.kind != ParamKind::out_array) return false;
        if (!(fixed_type(a) || a.type->is_float) || !b.type->is_float) return false;
    }
    return true;
}

// The ES 1.1 name of a fixed/single-precision verb ("glTranslatex" for
// glTranslatexOES), "" for verbs of other extensions.
std::string fixed_es1_name(const Verb& v) {
    const bool fx = std::find(v.features.begin(), v.features.end(), "GL_OES_fixed_point") != v.features.end();
    const bool sp = std::find(v.features.begin(), v.features.end(), "GL_OES_single_precision") != v.features.end();
    if ((!fx && !sp) || v.name.size() < 4 || v.name.compare(v.name.size() - 3, 3, "OES") != 0) return "";
    return v.name.substr(0, v.name.size() - 3);
}

class ClientEmitter {
public:
    explicit ClientEmitter(const Schema& s) : s_(s) {
        for (const char* h : kHooks) hooks_.insert(h);
        for (const Verb& v : s.verbs) by_name_[v.name] = &v;
        for (const Verb& v : s.verbs) {
            for (const Param& p : v.params) {
                if (!p.mint.empty()) mint_kinds_.insert(p.mint);
                if (!p.source.empty()) sources_.insert(p.source);
            }
            if (!v.ret_mint.empty()) mint_kinds_.insert(v.ret_mint);
        }
        for (const Verb& v : s.verbs) plans_.push_back(plan(v));
    }

    void emit(int parts, std::vector<OutFile>& out) {
        emit_header(out);
        std::vector<std::vector<const Plan*>> chunks(parts);
        for (size_t i = 0; i < plans_.size(); ++i) chunks[i * parts / plans_.size()].push_back(&plans_[i]);
        for (int i = 0; i < parts; ++i) {
            std::ostringstream o;
            o << kGeneratedBanner << "// GL entry points, part " << i << ".\n"
              << "#include \"gen/client_entry.h\"\n#include \"gen/encoder.h\"\n#include \"gen/replies.h\"\n"
              << "#include \"gen/verb_api.h\"\n#include \"runtime.h\"\n#include \"compsize.h\"\n#include \"compat/ff_gate.h\"\n"
              << "#include \"es1/fixed.h\"\n\n"
              << "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
              << "#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n\n";
            for (const Plan* pl : chunks[i]) emit_body(*pl, o);
            out.push_back({"client_entry_" + std::to_string(i) + ".cc", o.str()});
        }
        emit_procs(out);
    }

private:
    // The float/double verb a fixed or single-precision verb converts to.
    std::string fixed_counterpart(const Verb& v) const {
        const std::string s = fixed_es1_name(v);
        if (s.empty()) return "";
        std::vector<std::string> cands;
        if (s == "glGetFixedv") cands.push_back("glGetFloatv");
        auto stem_of = [&](size_t cut) { return s.substr(0, s.size() - cut); };
        if (s.size() > 2 && s.compare(s.size() - 2, 2, "xv") == 0) {
            const std::string st = stem_of(2);
            cands.insert(cands.end(), {st + "fv", st + "dv", st + "v"});
        } else if (s.back() == 'x' || s.back() == 'f') {
            const std::string st = stem_of(1);
            cands.insert(cands.end(), {st + "f", st + "d", st});
        } else if (s.size() > 2 && s.compare(s.size() - 2, 2, "fv") == 0) {
            const std::string st = stem_of(2);
            cands.insert(cands.end(), {st + "fv", st + "dv", st + "v"});
        }
        for (const std::string& c : cands) {
            if (c == v.name) continue;
            auto it = by_name_.find(c);
            if (it != by_name_.end() && it->second->retired.empty() && fixed_counterpart_fits(v, *it->second) &&
                fixed_counts_known(v, *it->second))
                return c;
        }
        return "";
    }

    Plan plan(const Verb& v) {
        Plan pl{&v, "", "", "", ""};
        if (std::string d = fixed_counterpart(v); !d.empty()) {
            pl.fixed_of = d;
            return pl;
        }
        // gl.xml aliases (glUniform4fvARB -> glUniform4fv, glGenFramebuffersEXT ->
        // glGenFramebuffers) are the same command: the alias's entry point is the
        // canonical one, so one record, one decoder and one backend method serve
        // both, and the alias is available wherever the canonical verb is (as in
        // Mesa, where both share one dispatch slot). docs/PROTOCOL.md says why.
        if (!v.alias.empty() && v.retired.empty()) {
            auto it = by_name_.find(v.alias);
            if (it != by_name_.end() && it->second->retired.empty() && same_signature(v, *it->second)) {
                pl.forward = v.alias;
                return pl;
            }
        }
        const bool custom = v.flavor == "custom" || v.flavor == "client";
        auto hookable = [&](const std::string& n) {
            auto it = by_name_.find(n);
            return it != by_name_.end() &&
                   (hooks_.count(n) || it->second->flavor == "custom" || it->second->flavor == "client");
        };
        if (custom || hooks_.count(v.name)) {
            pl.hook = v.name;
            if (!v.alias.empty() && hookable(v.alias) && same_signature(v, *by_name_[v.alias])) pl.hook = v.alias;
        } else if (!v.alias.empty() && hooks_.count(v.alias) && same_signature(v, *by_name_[v.alias])) {
            pl.hook = v.alias;
        }
        if (!pl.hook.empty()) {
            hook_decls_[pl.hook] = by_name_[pl.hook];
            return pl;
        }
        if (!v.unsized.empty()) pl.unsized = v.unsized;
        else if (!v.retired.empty()) pl.unsized = "retired: " + v.retired;
        else {
            for (const Param& p : v.params) {
                switch (p.kind) {
                    case ParamKind::in_array:
                    case ParamKind::out_array:
                    case ParamKind::mint_array:
                        if (count_code(v, p).empty()) pl.unsized = "no client size for " + p.name + " (" + p.len + ")";
                        break;
                    case ParamKind::offset_or_in:
                        break;  // without a size, only the offset form is encodable (checked at run time)
                    default:
                        break;
                }
                if (!pl.unsized.empty()) break;
            }
        }
        return pl;
    }

    // The verb's gate class (client/src/compat/ff_gate.h: kInBegin 1, kCompiled 2,
    // kSelf 4), or -1: no gate (session verbs).
    int gate_class(const Plan& pl, bool self, bool raw = false) const {
        const Verb& v = *pl.v;
        if (v.session) return -1;
        const std::string& n = v.name;
        auto named = [&](auto pred) { return pred(n) || (!v.alias.empty() && pred(v.alias)); };
        int cls = named(gate_in_begin) ? 1 : 0;
        auto in_self = [](const std::string& x) { return kGateSelf.count(x) > 0; };
        int gn = 0;
        bool gvec = false;
        auto generic = [&](const std::string& x) { return generic_float_attr(x, &gn, &gvec); };
        if (self || named(in_self) || named(generic) || (!pl.hook.empty() && kGateSelf.count(pl.hook))) return cls | 4;
        if (has_reply(v) || !v.returns.empty() || !v.ret_mint.empty() || named(gate_not_compiled)) return cls;
        for (const Param& p : v.params) {
            switch (p.kind) {
                case ParamKind::out_array: case ParamKind::mint_array: case ParamKind::string_list:
                case ParamKind::string_lengths:
                    return cls;  // queries, names, sources: not compiled
                case ParamKind::in_array:
                    if (!raw && count_code(v, p).empty()) return cls;  // no size to copy: runs at once, as before
                    break;
                default:
                    break;
            }
        }
        return cls | 2;
    }

    // Whether the verb's pixel data is read with the unpack state (a copy
    // replays under the compile's unpack state).
    static bool gate_unpack(const Verb& v) {
        for (const Param& p : v.params)
            if ((p.kind == ParamKind::in_array || p.kind == ParamKind::offset_or_in) &&
                compsize_code(v, p).find("cs_image(*ctx_, false") != std::string::npos)
                return true;
        return false;
    }

    // The gate block of an entry point; `ctx_` is the current context (not
    // null). `self_call`: what runs under SelfCompile (hooks of class kSelf).
    void emit_gate(const Plan& pl, int cls, const std::string& fail_ret, const std::string& self_call,
                   const std::string& indent, std::ostringstream& o, bool raw = false) {
        const Verb& v = *pl.v;
        const std::string ns = "::mgl::client::compat::";
        const std::string call = ns + "gate(*ctx_, " + std::to_string(cls) + ", \"" + v.name + "\")";
        const std::string in = indent + "    ";
        if (!(cls & 2) && (self_call.empty() || !(cls & 4))) {
            o << indent << "if (" << call << " == " << ns << "Gate::done) " << fail_ret << "\n";
            return;
        }
        o << indent << "switch (" << call << ") {\n"
          << in << "case " << ns << "Gate::run: break;\n";
        if ((cls & 4) && !self_call.empty())
            o << in << "case " << ns << "Gate::self: {\n"
              << in << "    " << ns << "SelfCompile s_(*ctx_);\n"
              << in << "    " << self_call << "\n" << in << "}\n";
        if (cls & 2) {
            o << in << "case " << ns << "Gate::record: {\n";
            const std::string i2 = in + "    ";
            std::string args, replay_checks;
            for (const Param& p : v.params) {
                const std::string n = p.name;
                if (!args.empty()) args += ", ";
                if (raw) {  // the entry point reads no argument (it refuses the verb): no copies
                    args += n;
                    continue;
                }
                switch (p.kind) {
                    case ParamKind::in_array: {
                        o << i2 << "std::vector<uint8_t> gc_" << n << ";\n"
                          << i2 << "const bool gz_" << n << " = " << n << " == nullptr;\n"
                          << i2 << "if (!gz_" << n << ") {\n"
                          << i2 << "    ::mgl::wire::LenCalc calc;\n"
                          << i2 << "    const int64_t n_ = " << count_code(v, p) << ";\n"
                          << i2 << "    const int64_t b_ = n_ < 0 ? -1 : calc.mul(n_, " << p.elem_size() << ");\n"
                          << i2 << "    if (b_ < 0 || !calc.ok() || b_ > ::mgl::client::kMaxArrayBytes) break;  // the error: at once\n"
                          << i2 << "    const auto* s_ = reinterpret_cast<const uint8_t*>(" << n << ");\n"
                          << i2 << "    gc_" << n << ".assign(s_, s_ + b_);\n"
                          << i2 << "    gc_" << n << ".resize(std::max<size_t>(size_t(b_), 64));  // zeros past a pname count the client underrates\n"
                          << i2 << "}\n";
                        args += "gz_" + n + " ? nullptr : (" + p.ctype + ")(gc_" + n + ".data())";
                        break;
                    }
                    case ParamKind::offset_or_in: {
                        const std::string cnt = count_code(v, p);
                        o << i2 << "std::vector<uint8_t> gc_" << n << ";\n"
                          << i2 << "const void* const gr_" << n << " = " << n << ";\n"
                          << i2 << "bool gk_" << n << " = false;  // copied: client memory\n";
                        if (!cnt.empty())
                            o << i2 << "if (" << n << " && !::mgl::client::source_bound(*ctx_, ::mgl::client::Source::"
                              << ident(p.source) << ")) {\n"
                              << i2 << "    ::mgl::wire::LenCalc calc;\n"
                              << i2 << "    const int64_t n_ = " << cnt << ";\n"
                              << i2 << "    const int64_t b_ = n_ < 0 ? -1 : calc.mul(n_, " << p.elem_size() << ");\n"
                              << i2 << "    if (b_ < 0 || !calc.ok() || b_ > ::mgl::client::kMaxArrayBytes) break;  // the error: at once\n"
                              << i2 << "    const auto* s_ = reinterpret_cast<const uint8_t*>(" << n << ");\n"
                              << i2 << "    gc_" << n << ".assign(s_, s_ + b_);\n"
                              << i2 << "    gk_" << n << " = true;\n"
                              << i2 << "}\n";
                        args += "gk_" + n + " ? (" + p.ctype + ")(gc_" + n + ".data()) : (" + p.ctype + ")(gr_" + n + ")";
                        // An offset into a buffer bound at compile time: GL reads
                        // the buffer then; the list keeps the offset, which is
                        // never taken for client memory when it runs.
                        if (!p.source.empty())
                            replay_checks += "        if (" + n + " && !gk_" + n + " && !::mgl::client::source_bound(c_, ::mgl::client::Source::" +
                                             ident(p.source) + ")) return ::mgl::client::compat::offset_unbound(c_, \"" + v.name + "\");\n";
                        break;
                    }
                    case ParamKind::cstring:
                        o << i2 << "const bool gz_" << n << " = " << n << " == nullptr;\n"
                          << i2 << "const std::string gc_" << n << " = gz_" << n << " ? std::string() : std::string(reinterpret_cast<const char*>(" << n << "));\n";
                        args += "gz_" + n + " ? nullptr : (" + p.ctype + ")(gc_" + n + ".c_str())";
                        break;
                    default:
                        args += n;
                        break;
                }
            }
            const bool unpack = !raw && gate_unpack(v);
            if (unpack) o << i2 << "const ::mgl::client::State::PixelStore gu_ = ctx_->st.unpack;\n";
            o << i2 << ns << "compile(*ctx_, [=](::mgl::client::Context& c_) {\n";
            if (!replay_checks.empty()) o << i2 << replay_checks.substr(8);
            if (unpack)
                o << i2 << "    " << ns << "with_unpack(c_, gu_, [&] { mgl_" << v.name << "(" << args << "); });\n";
            else
                o << i2 << "    (void)c_;\n" << i2 << "    mgl_" << v.name << "(" << args << ");\n";
            o << i2 << "});\n" << i2 << fail_ret << "\n" << in << "}\n";
        }
        o << in << "default: " << fail_ret << "\n" << indent << "}\n";
    }

    void emit_header(std::vector<OutFile>& out) {
        std::ostringstream o;
        o << kGeneratedBanner
          << "// The client's GL entry points (exact C signatures), the hooks the client\n"
          << "// shell defines by hand, and the name table for getProcAddress.\n"
          << "#pragma once\n#include <cstddef>\n#include <cstdint>\n\n#include \"gl_ctypes.h\"\n\n"
          << "namespace mgl::client {\n\n"
          << "// Kinds of object names the client mints (schema `mint` / `ret_mint`).\n"
          << "enum class MintKind : uint8_t {\n";
        for (const std::string& k : mint_kinds_) o << "    " << ident(k) << ",\n";
        o << "};\ninline constexpr size_t kMintKindCount = " << mint_kinds_.size() << ";\n\n"
          << "// Binding targets whose buffer turns a pointer argument into an offset (schema `source`).\n"
          << "enum class Source : uint8_t {\n";
        for (const std::string& k : sources_) o << "    " << ident(k) << ",\n";
        o << "};\n\n"
          << "struct ProcEntry {\n    const char* name;\n    void (*fn)();\n};\n"
          << "// Sorted by name; kProcCount entries.\nextern const ProcEntry kProcs[];\nextern const size_t kProcCount;\n"
          << "// The entry point of a GL function by its GL name (\"glDrawArrays\"), or nullptr.\n"
          << "void (*find_proc(const char* name))();\n\n"
          << "}  // namespace mgl::client\n\n"
          << "// Hand-written halves (client/src/custom/*.cc): C signatures of the verbs\n"
          << "// the client answers or observes itself.\nnamespace mgl_custom {\n";
        for (auto& [name, v] : hook_decls_) o << c_return(*v) << " " << name << "(" << c_params(*v) << ");\n";
        for (const std::string& name : kObserved)
            if (by_name_.count(name)) o << "void observe_" << name << "(" << c_params(*by_name_[name]) << ");\n";
        for (const std::string& name : kEs1Rules)
            if (by_name_.count(name)) o << "bool es1_" << name << "(" << c_params(*by_name_[name]) << ");\n";
        o << "}  // namespace mgl_custom\n\nextern \"C\" {\n";
        for (const Verb& v : s_.verbs) o << c_return(v) << " mgl_" << v.name << "(" << c_params(v) << ");\n";
        o << "}\n";
        out.push_back({"client_entry.h", o.str()});
    }

    void emit_procs(std::vector<OutFile>& out) {
        // (GL name, entry point): every verb, and OpenGL ES 1.1's unsuffixed
        // names of the fixed-point and single-precision verbs (glTranslatex).
        std::vector<std::pair<std::string, std::string>> sorted;
        for (const Verb& v : s_.verbs) sorted.emplace_back(v.name, v.name);
        for (const Plan& pl : plans_) {
            const std::string es1 = pl.fixed_of.empty() ? "" : fixed_es1_name(*pl.v);
            if (!es1.empty() && !by_name_.count(es1)) sorted.emplace_back(es1, pl.v->name);
        }
        for (const auto& [alias, verb] : kEs1Aliases) {
            if (by_name_.count(alias)) continue;
            auto it = by_name_.find(verb);
            if (it == by_name_.end()) throw std::runtime_error(std::string("ES 1.1 alias of a missing verb: ") + verb);
            sorted.emplace_back(alias, verb);
        }
        std::sort(sorted.begin(), sorted.end());
        std::ostringstream o;
        o << kGeneratedBanner << "#include <algorithm>\n#include <cstring>\n#include <iterator>\n\n"
          << "#include \"gen/client_entry.h\"\n\nnamespace mgl::client {\n\nconst ProcEntry kProcs[] = {\n";
        for (const auto& [name, entry] : sorted)
            o << "    {\"" << name << "\", reinterpret_cast<void (*)()>(&mgl_" << entry << ")},\n";
        o << "};\nconst size_t kProcCount = " << sorted.size() << ";\n\n"
          << "void (*find_proc(const char* name))() {\n"
          << "    if (!name) return nullptr;\n"
          << "    auto it = std::lower_bound(std::begin(kProcs), std::end(kProcs), name,\n"
          << "        [](const ProcEntry& e, const char* n) { return std::strcmp(e.name, n) < 0; });\n"
          << "    return it != std::end(kProcs) && std::strcmp(it->name, name) == 0 ? it->fn : nullptr;\n}\n\n"
          << "}  // namespace mgl::client\n";
        out.push_back({"client_procs.cc", o.str()});
    }

    // The element count of the counterpart's array `b`: another parameter, a
    // number, or a COMPSIZE the helpers size; "" when none of these.
    static std::string fixed_count_code(const Verb& d, const Param& b) {
        if (find_param(d, b.len)) return "int64_t(" + b.len + ")";
        const std::string c = count_code(d, b);
        return c.find("calc") == std::string::npos ? c : "";
    }
    static bool fixed_counts_known(const Verb& v, const Verb& d) {
        for (size_t i = 0; i < v.params.size(); ++i)
            if (v.params[i].kind != ParamKind::scalar && v.params[i].type->name != d.params[i].type->name &&
                fixed_count_code(d, d.params[i]).empty())
                return false;
        return true;
    }

    // A fixed-point or single-precision verb: its arguments converted
    // (client/src/es1/fixed.h), then the counterpart's entry point, which
    // does everything else (profile check, display lists, encoding).
    void emit_fixed_body(const Verb& v, const Verb& d, std::ostringstream& o) {
        const std::string ret = c_return(v);
        const bool pname = find_param(v, "pname") && find_param(v, "pname")->kind == ParamKind::scalar;
        // Values pass unscaled by their pname (es1/fixed.h), except through
        // glGetFixedv, which scales every value, enums included (as Mesa).
        const std::string rule = pname && d.name != "glGetFloatv" ? "pname" : "0u";
        o << "    ::mgl::client::Context* const ctx_ = ::mgl::client::current();\n";  // emit_body wrote the signature
        std::vector<std::string> args, stores;
        for (size_t i = 0; i < v.params.size(); ++i) {
            const Param& a = v.params[i];
            const Param& b = d.params[i];
            const bool same = a.type->name == b.type->name;
            if (a.kind == ParamKind::scalar) {
                if (same || !fixed_type(a)) args.push_back(a.name);
                else if (a.name == "pname" || !pname) args.push_back("::mgl::client::es1::from_fixed(" + a.name + ")");
                else args.push_back("::mgl::client::es1::fixed_param(pname, " + a.name + ")");
                continue;
            }
            if (same) {
                args.push_back(a.name);
                continue;
            }
            const std::string count = fixed_count_code(d, b);  // known: fixed_counts_known
            o << "    const int64_t n_" << a.name << " = ctx_ ? int64_t(" << count << ") : 0;\n";
            if (a.kind == ParamKind::in_array) {
                o << "    const ::mgl::client::es1::Converted<" << b.type->name << "> c_" << a.name << "(" << a.name
                  << ", n_" << a.name << ", " << rule << ");\n";
            } else {
                o << "    ::mgl::client::es1::Returned<" << b.type->name << "> c_" << a.name << "(n_" << a.name << ");\n";
                stores.push_back("c_" + a.name + ".store(" + a.name + ", " + rule + ")");
            }
            args.push_back("c_" + a.name + ".data()");
        }
        std::string call = "mgl_" + d.name + "(";
        for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
        call += ")";
        if (ret == "void") {
            o << "    " << call << ";\n";
            for (const std::string& st : stores) o << "    " << st << ";\n";
        } else {
            o << "    const auto r_ = " << call << ";\n";
            for (const std::string& st : stores) o << "    " << st << ";\n";
            o << "    return r_;\n";
        }
        o << "}\n\n";
    }

    // The parameter naming a shader object (gl.xml's class; an alias's from
    // the verb it aliases), or nullptr.
    const Param* shader_handle_param(const Verb& v) const {
        const Verb* named = &v;
        if (!v.alias.empty()) {
            auto it = by_name_.find(v.alias);
            if (it != by_name_.end()) named = it->second;
        }
        for (size_t i = 0; i < named->params.size() && i < v.params.size(); ++i)
            if (named->params[i].handle == "shader") return &v.params[i];
        return nullptr;
    }

    void emit_body(const Plan& pl, std::ostringstream& o) {
        const Verb& v = *pl.v;
        const std::string ret = c_return(v);
        const bool is_void = ret == "void";
        const std::string fail_ret = is_void ? "return;" : "return {};";
        o << "extern \"C\" " << ret << " mgl_" << v.name << "(" << c_params(v) << ") {\n";
        if (!pl.forward.empty()) {
            o << "    " << (is_void ? "" : "return ") << "mgl_" << pl.forward << "(" << c_args(v) << ");\n}\n\n";
            return;
        }
        if (!pl.fixed_of.empty()) {
            emit_fixed_body(v, *by_name_.at(pl.fixed_of), o);
            return;
        }
        const ImmAttr* ia = nullptr;
        int ia_n = 0;
        std::string ia_type;
        bool ia_vec = false;
        if (pl.hook.empty() && pl.forward.empty() && imm_attr_parse(v.name, &ia, &ia_n, &ia_type, &ia_vec)) {
            o << "    ::mgl::client::Context* const ctx_ = ::mgl::client::current();\n"
              << "    if (!ctx_) [[unlikely]] {\n        ::mgl::client::no_context(\"" << v.name << "\");\n        return;\n    }\n"
              << "    if (!::mgl::gen::verb_in_api(" << v.opcode << ", ctx_->api_kind, ctx_->api_version) || !::mgl::client::compat::ff(*ctx_)) [[unlikely]] {\n"
              << "        ::mgl::client::profile_error(*ctx_, \"" << v.name << "\");\n        return;\n    }\n";
            o << "    if (ctx_->ff_gate) [[unlikely]] {\n";
            emit_gate(pl, gate_class(pl, true), "return;", "", "        ", o);
            o << "    }\n";
            const std::string conv = std::string("::mgl::client::compat::to_float<") + (ia->normalized ? "true" : "false") + ">";
            std::string vals[4];
            const size_t first = ia->unit ? 1 : 0;
            for (int c = 0; c < ia_n; ++c)
                vals[c] = conv + "(" + (ia_vec ? v.params[first].name + "[" + std::to_string(c) + "]" : v.params[first + size_t(c)].name) + ")";
            // missing components: GL's (0, 0, 0, 1); a colour's alpha 1
            for (int c = ia_n; c < 4; ++c) vals[c] = c == 3 ? "1.0f" : "0.0f";
            std::string attr = std::string("::mgl::client::compat::") + ia->attr;
            if (ia->unit) {
                // a unit past GL_MAX_TEXTURE_COORDS: GL_INVALID_ENUM, nothing set
                o << "    const int attr_ = ::mgl::client::compat::tex_coord_attr(*ctx_, " << v.params[0].name << ", \""
                  << v.name << "\");\n    if (attr_ < 0) [[unlikely]] return;\n";
                attr = "attr_";
            }
            o << "    ::mgl::client::compat::imm_attr(*ctx_, " << attr << ", " << ia_n << ", " << vals[0] << ", " << vals[1]
              << ", " << vals[2] << ", " << vals[3] << ");\n}\n\n";
            return;
        }
        bool rect_vec = false;
        const bool rect = pl.hook.empty() && rect_parse(v.name, &rect_vec);
        if (rect || (pl.hook.empty() && kDroppedAttrs.count(v.name))) {
            o << "    ::mgl::client::Context* const ctx_ = ::mgl::client::current();\n"
              << "    if (!ctx_) [[unlikely]] {\n        ::mgl::client::no_context(\"" << v.name << "\");\n        return;\n    }\n"
              << "    if (!::mgl::gen::verb_in_api(" << v.opcode << ", ctx_->api_kind, ctx_->api_version) || !::mgl::client::compat::ff(*ctx_)) [[unlikely]] {\n"
              << "        ::mgl::client::profile_error(*ctx_, \"" << v.name << "\");\n        return;\n    }\n"
              << "    if (ctx_->ff_gate) [[unlikely]] {\n";
            emit_gate(pl, gate_class(pl, rect), "return;", "", "        ", o);
            o << "    }\n";
            if (rect) {
                auto val = [&](int i) {
                    return "float(" + (rect_vec ? v.params[size_t(i / 2)].name + "[" + std::to_string(i % 2) + "]"
                                                : v.params[size_t(i)].name) + ")";
                };
                o << "    ::mgl::client::compat::rect(*ctx_, " << val(0) << ", " << val(1) << ", " << val(2) << ", " << val(3)
                  << ");\n}\n\n";
            } else {
                for (const Param& p : v.params) o << "    (void)" << p.name << ";\n";
                o << "    ::mgl::client::compat::dropped_attr(\"" << v.name << "\");\n}\n\n";
            }
            return;
        }
        bool rp_window = false, rp_vec = false;
        int rp_n = 0;
        if (pl.hook.empty() && pl.forward.empty() && raster_parse(v.name, &rp_window, &rp_n, &rp_vec)) {
            o << "    ::mgl::client::Context* const ctx_ = ::mgl::client::current();\n"
              << "    if (!ctx_) [[unlikely]] {\n        ::mgl::client::no_context(\"" << v.name << "\");\n        return;\n    }\n"
              << "    if (!::mgl::gen::verb_in_api(" << v.opcode << ", ctx_->api_kind, ctx_->api_version) || !::mgl::client::compat::ff(*ctx_)) [[unlikely]] {\n"
              << "        ::mgl::client::profile_error(*ctx_, \"" << v.name << "\");\n        return;\n    }\n";
            o << "    if (ctx_->ff_gate) [[unlikely]] {\n";
            emit_gate(pl, gate_class(pl, true), "return;", "", "        ", o);
            o << "    }\n";
            std::string vals[4] = {"0.0", "0.0", "0.0", "1.0"};  // GL's z 0, w 1
            for (int c = 0; c < rp_n; ++c)
                vals[c] = "double(" + (rp_vec ? v.params[0].name + "[" + std::to_string(c) + "]" : v.params[size_t(c)].name) + ")";
            o << "    ::mgl::client::compat::raster_pos(*ctx_, " << (rp_window ? "true" : "false") << ", " << vals[0] << ", "
              << vals[1] << ", " << vals[2] << ", " << vals[3] << ");\n}\n\n";
            return;
        }
        if (!pl.hook.empty()) {
            if (!v.universal())
                o << "    if (::mgl::client::Context* const c_ = ::mgl::client::current();\n"
                  << "        c_ && !::mgl::gen::verb_in_api(" << v.opcode << ", c_->api_kind, c_->api_version)) [[unlikely]] {\n"
                  << "        ::mgl::client::profile_error(*c_, \"" << v.name << "\");\n        " << fail_ret << "\n    }\n";
            const std::string hook_call = std::string(is_void ? "" : "return ") + "::mgl_custom::" + pl.hook + "(" + c_args(v) + ");";
            if (const int cls = gate_class(pl, false); cls >= 0) {
                o << "    if (::mgl::client::Context* const ctx_ = ::mgl::client::current(); ctx_ && ctx_->ff_gate) [[unlikely]] {\n";
                emit_gate(pl, cls, fail_ret, is_void ? hook_call + " return;" : hook_call, "        ", o);
                o << "    }\n";
            }
            o << "    " << hook_call << "\n}\n\n";
            return;
        }
        if (!pl.unsized.empty()) {
            // Refused when it executes: a list compiles it (the refusal comes when the list runs).
            if (const int cls = gate_class(pl, false, true); cls >= 0) {
                o << "    if (::mgl::client::Context* const ctx_ = ::mgl::client::current(); ctx_ && ctx_->ff_gate) [[unlikely]] {\n";
                emit_gate(pl, cls, fail_ret, "", "        ", o, true);
                o << "    }\n";
            }
            for (const Param& p : v.params) o << "    (void)" << p.name << ";\n";
            o << "    ::mgl::client::unsized(\"" << v.name << "\", \"" << pl.unsized << "\");\n    " << fail_ret << "\n}\n\n";
            return;
        }
        o << "    ::mgl::client::Context* const ctx_ = ::mgl::client::current();\n"
          << "    if (!ctx_) [[unlikely]] {\n        ::mgl::client::no_context(\"" << v.name << "\");\n        " << fail_ret
          << "\n    }\n";
        // Verbs not in every context: the generated profile table decides (a core
        // context calling glBegin gets GL_INVALID_OPERATION, as natively).
        if (!v.universal())
            o << "    if (!::mgl::gen::verb_in_api(" << v.opcode << ", ctx_->api_kind, ctx_->api_version)) [[unlikely]] {\n"
              << "        ::mgl::client::profile_error(*ctx_, \"" << v.name << "\");\n        " << fail_ret << "\n    }\n";
        if (const int cls = gate_class(pl, false); cls >= 0) {
            o << "    if (ctx_->ff_gate) [[unlikely]] {\n";
            emit_gate(pl, cls, fail_ret, "", "        ", o);
            o << "    }\n";
        }
        if (kEs1Rules.count(v.name))
            o << "    if (ctx_->es1 && ::mgl_custom::es1_" << v.name << "(" << c_args(v) << ")) [[unlikely]] " << fail_ret
              << "\n";
        int gn = 0;
        bool gvec = false;
        if (pl.forward.empty() && v.params.size() >= 2 && generic_float_attr(v.name, &gn, &gvec)) {
            // compatibility contexts: immediate mode's generic attributes (compat::imm_generic)
            WideAttr wa;
            const bool wide = wide_attr_parse(v.name, &wa);
            const bool norm = wide && wa.norm;
            std::string vals[4];
            for (int c = 0; c < gn; ++c) {
                const std::string arg = gvec ? v.params[1].name + "[" + std::to_string(c) + "]" : v.params[size_t(1 + c)].name;
                vals[c] = std::string("::mgl::client::compat::to_float<") + (norm ? "true" : "false") + ">(" + arg + ")";
            }
            for (int c = gn; c < 4; ++c) vals[c] = c == 3 ? "1.0f" : "0.0f";
            o << "    if (ctx_->api_kind == ::mgl::gen::ApiKind::compat" << (gvec ? " && " + v.params[1].name : "")
              << ") [[unlikely]] {\n"
              << "        if (::mgl::client::compat::imm_generic(*ctx_, " << v.params[0].name << ", " << gn << ", " << vals[0]
              << ", " << vals[1] << ", " << vals[2] << ", " << vals[3] << ")) return;\n    }\n";
        }
        if (WideAttr wa; pl.forward.empty() && wide_attr_parse(v.name, &wa) && v.params.size() >= 2) {
            const bool uns = wa.type[0] == 'u';
            std::string vals[4];
            for (int c = 0; c < wa.n; ++c) {
                const std::string arg = wa.vec ? v.params[1].name + "[" + std::to_string(c) + "]" : v.params[size_t(1 + c)].name;
                vals[c] = wa.integer ? std::string(uns ? "GLuint(" : "GLint(") + arg + ")"
                                     : std::string("::mgl::client::compat::to_float<") + (wa.norm ? "true" : "false") + ">(" + arg + ")";
            }
            for (int c = wa.n; c < 4; ++c) vals[c] = wa.integer ? (c == 3 ? "1" : "0") : (c == 3 ? "1.0f" : "0.0f");
            if (wa.vec) o << "    if (!" << v.params[1].name << ") [[unlikely]] return;\n";
            o << "    ctx_->enc->" << (wa.integer ? (uns ? "glVertexAttribI4ui" : "glVertexAttribI4i") : "glVertexAttrib4f")
              << "(::mgl::client::wv(" << v.params[0].name << "), " << vals[0] << ", " << vals[1] << ", " << vals[2] << ", "
              << vals[3] << ");\n}\n\n";
            return;
        }
        if (kIndexedViewport.count(v.name) || (!v.alias.empty() && kIndexedViewport.count(v.alias)))
            o << "    ctx_->st.viewport_indexed = true;  // the server answers viewport/scissor/depth range from now on\n";
        // Sizes of every array.
        std::vector<std::string> enc_args;
        std::vector<std::string> reply_args;
        for (const Param& p : v.params) {
            const std::string n = p.name;
            switch (p.kind) {
                case ParamKind::scalar:
                    enc_args.push_back("::mgl::client::wv(" + n + ")");
                    break;
                case ParamKind::string_lengths:
                    break;
                case ParamKind::cstring:
                    o << "    const ::mgl::wire::Blob b_" << n << " = ::mgl::client::cstring_blob(" << n << ");\n";
                    enc_args.push_back("b_" + n);
                    break;
                case ParamKind::string_list: {
                    const std::string lengths = p.strings.empty() ? "nullptr" : p.strings;
                    std::string count = p.len.empty() ? "1" : p.len;
                    // The shader these strings are for is checked first (GL does: a
                    // bad name must not make the client read the application's memory).
                    if (const Param* sh = shader_handle_param(v))
                        o << "    if (!::mgl::client::shader_name_usable(*ctx_, \"" << v.name << "\", " << sh->name << ")) "
                          << fail_ret << "\n";
                    o << "    ::mgl::wire::Blob b_" << n << ";\n"
                      << "    if (!::mgl::client::strings_blob(*ctx_, \"" << v.name << "\", " << count << ", "
                      << "reinterpret_cast<const char* const*>(" << n << "), " << lengths << ", b_" << n << ")) " << fail_ret
                      << "\n";
                    enc_args.push_back("b_" + n);
                    break;
                }
                case ParamKind::mint_array: {
                    const std::string cnt = count_code(v, p);
                    o << "    int64_t n_" << n << " = 0;\n    {\n        ::mgl::wire::LenCalc calc;\n        n_" << n << " = " << cnt
                      << ";\n        if (!calc.ok()) { ::mgl::client::gl_error(*ctx_, GL_INVALID_VALUE, \"" << v.name
                      << "\"); " << fail_ret << " }\n    }\n"
                      << "    if (!::mgl::client::mint(*ctx_, ::mgl::client::MintKind::" << ident(p.mint) << ", n_" << n
                      << ", reinterpret_cast<uint32_t*>(" << n << "))) { ::mgl::client::gl_error(*ctx_, GL_INVALID_VALUE, \""
                      << v.name << "\"); " << fail_ret << " }\n"
                      << "    const ::mgl::wire::Blob b_" << n << "{" << n << ", uint32_t(n_" << n << " * "
                      << p.elem_size() << ")};\n";
                    enc_args.push_back("b_" + n);
                    break;
                }
                case ParamKind::in_array: {
                    const std::string cnt = count_code(v, p);
                    emit_count(v, p, cnt, fail_ret, o);
                    // NULL where GL allows it (nullable) travels as 0 bytes; elsewhere
                    // zeros stand in so that the record stays well-formed.
                    if (p.nullable)
                        o << "    const ::mgl::wire::Blob b_" << n << "{" << n << ", " << n << " ? uint32_t(bytes_" << n
                          << ") : 0u};\n";
                    else
                        o << "    const ::mgl::wire::Blob b_" << n << "{" << n << " ? static_cast<const void*>(" << n
                          << ") : ::mgl::client::zeros(bytes_" << n << "), uint32_t(bytes_" << n << ")};\n";
                    enc_args.push_back("b_" + n);
                    break;
                }
                case ParamKind::offset_or_in: {
                    const std::string cnt = count_code(v, p);
                    o << "    ::mgl::wire::OffsetOrBlob b_" << n << "{};\n"
                      << "    if (!" << n << " || ::mgl::client::source_bound(*ctx_, ::mgl::client::Source::" << ident(p.source)
                      << ")) {\n        b_" << n << ".offset = uint64_t(reinterpret_cast<uintptr_t>(" << n << "));\n    } else {\n";
                    if (cnt.empty()) {
                        o << "        ::mgl::client::unsized(\"" << v.name << "\", \"client memory for " << n
                          << " (only a bound buffer offset is supported)\");\n        " << fail_ret << "\n";
                    } else {
                        std::ostringstream inner;
                        emit_count(v, p, cnt, fail_ret, inner);
                        std::string text = inner.str();
                        // indent by 4
                        std::string ind;
                        std::istringstream ls(text);
                        for (std::string line; std::getline(ls, line);) ind += "    " + line + "\n";
                        o << ind << "        b_" << n << ".data = " << n << ";\n        b_" << n << ".size = uint32_t(bytes_" << n
                          << ");\n";
                    }
                    o << "    }\n";
                    enc_args.push_back("b_" + n);
                    break;
                }
                case ParamKind::out_array: {
                    const std::string cnt = count_code(v, p);
                    const std::string wt = "::mgl::" + elem_cpp(p);
                    const std::string wtype = p.type ? wt : "uint8_t";
                    if (!p.source.empty()) {
                        o << "    uint64_t off_" << n << " = 0;\n    int64_t bytes_" << n << " = 0;\n"
                          << "    const bool packed_" << n << " = ::mgl::client::source_bound(*ctx_, ::mgl::client::Source::"
                          << ident(p.source) << ");\n    if (packed_" << n << ") {\n        off_" << n
                          << " = uint64_t(reinterpret_cast<uintptr_t>(" << n << "));\n    } else {\n";
                        std::ostringstream inner;
                        emit_count(v, p, cnt, fail_ret, inner, false);
                        std::istringstream ls(inner.str());
                        for (std::string line; std::getline(ls, line);) o << "    " << line << "\n";
                        o << "    }\n";
                        enc_args.push_back("off_" + n);
                        enc_args.push_back("uint32_t(bytes_" + n + ")");
                        reply_args.push_back("packed_" + n + " ? nullptr : reinterpret_cast<" + wtype + "*>(" + n + ")");
                        reply_args.push_back("uint32_t(bytes_" + n + ")");
                    } else {
                        emit_count(v, p, cnt, fail_ret, o);
                        enc_args.push_back("uint32_t(bytes_" + n + ")");
                        reply_args.push_back("reinterpret_cast<" + wtype + "*>(" + n + ")");
                        reply_args.push_back("uint32_t(bytes_" + n + ")");
                    }
                    break;
                }
            }
        }
        std::string mint_ret;
        if (!v.ret_mint.empty()) {
            o << "    const uint32_t r_ = ::mgl::client::mint_one(*ctx_, ::mgl::client::MintKind::" << ident(v.ret_mint) << ");\n";
            if (v.ret_mint == "shader" || v.ret_mint == "program")
                o << "    ::mgl::client::note_program_name(*ctx_, ::mgl::client::MintKind::" << ident(v.ret_mint) << ", r_);\n";
            enc_args.push_back("r_");
        }
        std::string args;
        for (auto& a : enc_args) args += (args.empty() ? "" : ", ") + a;
        o << "    ctx_->enc->" << v.name << "(" << args << ");\n";
        if (kObserved.count(v.name)) o << "    ::mgl_custom::observe_" << v.name << "(" << c_args(v) << ");\n";
        if (!v.ret_mint.empty()) {
            o << "    return ::mgl::client::from_wire<" << ret << ">(r_);\n}\n\n";
            return;
        }
        if (has_reply(v)) {
            const std::string wret = backend_return(v);
            std::string rargs = "rep_";
            if (wret != "void") {
                o << "    ::mgl::" << wret << " ret_{};\n";
                rargs += ", &ret_";
            }
            for (auto& a : reply_args) rargs += ", " + a;
            o << "    ++ctx_->counters.round_trips;\n"
              << "    const std::span<const uint8_t> rep_ = ctx_->enc->wait_reply();\n"
              << "    if (!::mgl::gen::read_reply_" << v.name << "(" << rargs << ")) [[unlikely]]\n"
              << "        ::mgl::client::reply_failed(*ctx_, \"" << v.name << "\", rep_);\n";
            if (!is_void) o << "    return ::mgl::client::from_wire<" << ret << ">(" << (wret != "void" ? "ret_" : "0") << ");\n";
        } else if (!is_void) {
            o << "    return {};\n";
        }
        o << "}\n\n";
    }

    // int64_t bytes_<p>: the array's size in bytes (GL errors on bad counts).
    void emit_count(const Verb& v, const Param& p, const std::string& cnt, const std::string& fail_ret, std::ostringstream& o,
                    bool declare = true) {
        const std::string n = p.name;
        o << "    " << (declare ? "int64_t " : "") << "bytes_" << n << " = 0;\n    {\n        ::mgl::wire::LenCalc calc;\n"
          << "        const int64_t n_ = " << cnt << ";\n"
          << "        if (n_ < 0) { ::mgl::client::compsize_failed(*ctx_, \"" << v.name << "\", \"" << n << "\", n_); "
          << fail_ret << " }\n"
          << "        if (!calc.ok()) { ::mgl::client::gl_error(*ctx_, GL_INVALID_VALUE, \"" << v.name << "\"); " << fail_ret
          << " }\n"
          << "        bytes_" << n << " = calc.mul(n_, " << p.elem_size() << ");\n"
          << "        if (!calc.ok() || bytes_" << n << " > ::mgl::client::kMaxArrayBytes) { ::mgl::client::gl_error(*ctx_, "
          << "GL_OUT_OF_MEMORY, \"" << v.name << "\"); " << fail_ret << " }\n    }\n";
    }

    const Schema& s_;
    std::set<std::string> hooks_;
    std::map<std::string, const Verb*> by_name_;
    std::set<std::string> mint_kinds_;
    std::set<std::string> sources_;
    std::vector<Plan> plans_;
    std::map<std::string, const Verb*> hook_decls_;
};

}  // namespace

void emit_client(const Schema& s, int parts, std::vector<OutFile>& out) {
    ClientEmitter e(s);
    e.emit(parts, out);
}

}  // namespace mglgen
