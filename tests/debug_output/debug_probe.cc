// KHR_debug as an application sees it, on a desktop GL 3.3 core debug
// context (EGL, surfaceless): the callback, the log, the filter, debug groups,
// object labels and the errors. run_debug_probe.sh runs it natively
// (llvmpipe's desktop GL) and through `mgl run`; every line must be the same.
//
// What is printed is what GL fixes: the application's own messages whole,
// and of an API error its source, type, severity and that it arrived (the
// id and wording of an implementation's messages are its own). Messages of
// other kinds (Mesa's performance notes) are not printed.
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>

#include "../egl_probe_context.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Got {
    GLenum source, type;
    GLuint id;
    GLenum severity;
    std::string text;
};
std::vector<Got> got;

void GLAPIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                           const GLchar* message, const void* user) {
    if (user != &got) std::printf("callback: wrong user pointer\n");
    if (type != GL_DEBUG_TYPE_ERROR && source != GL_DEBUG_SOURCE_APPLICATION && source != GL_DEBUG_SOURCE_THIRD_PARTY)
        return;  // the implementation's own notes
    if (length < 0 || size_t(length) != std::strlen(message)) std::printf("callback: length %d is not the text's\n", length);
    got.push_back({source, type, id, severity, message});
}

// Prints and forgets what the callback received since the last report.
void report(const char* step) {
    std::printf("%s: %zu\n", step, got.size());
    for (const Got& g : got) {
        if (g.type == GL_DEBUG_TYPE_ERROR) std::fprintf(stderr, "%s: error message \"%s\"\n", step, g.text.c_str());
        if (g.type == GL_DEBUG_TYPE_ERROR)
            std::printf("  error source=0x%x severity=0x%x%s\n", g.source, g.severity, g.text.empty() ? " (no text)" : "");
        else
            std::printf("  source=0x%x type=0x%x id=%u severity=0x%x \"%s\"\n", g.source, g.type, g.id, g.severity,
                        g.text.c_str());
    }
    got.clear();
}

void insert(GLenum type, GLuint id, GLenum severity, const char* text) {
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, type, id, severity, -1, text);
}

bool make_context() {
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                              EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE, EGL_NONE};
    return probe::make_desktop_context(attribs);
}

bool has_khr_debug() {
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i)
        if (!std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), "GL_KHR_debug")) return true;
    return false;
}

}  // namespace

int main() {
    if (!make_context()) return 1;
    std::printf("GL_KHR_debug listed: %d\n", has_khr_debug());
    GLint flags = 0;
    glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
    std::printf("debug context flag: %d, GL_DEBUG_OUTPUT initially: %d\n", (flags & GL_CONTEXT_FLAG_DEBUG_BIT) != 0,
                glIsEnabled(GL_DEBUG_OUTPUT));
    glDebugMessageCallback(on_message, &got);
    void* cb = nullptr;
    glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &cb);
    std::printf("callback reads back: %d\n", cb == reinterpret_cast<void*>(&on_message));

    // The application's message reaches the callback before the call returns.
    insert(GL_DEBUG_TYPE_MARKER, 42, GL_DEBUG_SEVERITY_NOTIFICATION, "hello from the application");
    report("insert");

    // An API error: its message arrives by the next glGetError at the latest.
    glEnable(0xFFFF);
    std::printf("glGetError after glEnable(0xFFFF): 0x%x\n", glGetError());
    report("api error");
    glTexParameteri(GL_TEXTURE_2D, 0xDEAD, 0);
    std::printf("glGetError after glTexParameteri(0xDEAD): 0x%x\n", glGetError());
    report("another api error");

    // The filter: one id off, then all low-severity messages on.
    const GLuint off = 42;
    glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, 1, &off, GL_FALSE);
    insert(GL_DEBUG_TYPE_MARKER, 42, GL_DEBUG_SEVERITY_HIGH, "filtered out");
    insert(GL_DEBUG_TYPE_MARKER, 43, GL_DEBUG_SEVERITY_HIGH, "another id passes");
    report("filter by id");
    insert(GL_DEBUG_TYPE_OTHER, 1, GL_DEBUG_SEVERITY_LOW, "low severity is off by default");
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_LOW, 0, nullptr, GL_TRUE);
    insert(GL_DEBUG_TYPE_OTHER, 2, GL_DEBUG_SEVERITY_LOW, "low severity turned on");
    report("filter by severity");
    glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, 0x1234, GL_DONT_CARE, 0, nullptr, GL_TRUE);
    std::printf("glDebugMessageControl with a bad type: 0x%x\n", glGetError());
    glDebugMessageControl(GL_DONT_CARE, GL_DEBUG_TYPE_OTHER, GL_DONT_CARE, 1, &off, GL_TRUE);
    std::printf("glDebugMessageControl ids without a source: 0x%x\n", glGetError());
    report("control errors");

    // Debug groups: push and pop are messages; a group's filter ends with it.
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 7, -1, "a group");
    GLint depth = 0;
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth);
    std::printf("group depth inside: %d\n", depth);
    glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_FALSE);
    insert(GL_DEBUG_TYPE_MARKER, 8, GL_DEBUG_SEVERITY_HIGH, "silenced inside the group");
    glPopDebugGroup();
    insert(GL_DEBUG_TYPE_MARKER, 9, GL_DEBUG_SEVERITY_HIGH, "heard again after the pop");
    report("groups");
    glPopDebugGroup();
    std::printf("pop of the default group: 0x%x\n", glGetError());
    report("underflow");

    // Object labels, tied to the object.
    GLuint buf = 0;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glObjectLabel(GL_BUFFER, buf, -1, "vertex data");
    char label[64] = {};
    GLsizei len = -1;
    glGetObjectLabel(GL_BUFFER, buf, sizeof label, &len, label);
    std::printf("label: \"%s\" (%d), error 0x%x\n", label, len, glGetError());
    glGetObjectLabel(GL_BUFFER, buf, 4, &len, label);
    std::printf("label in 4 bytes: \"%s\" (%d)\n", label, len);
    glDeleteBuffers(1, &buf);
    glGetObjectLabel(GL_BUFFER, buf, sizeof label, &len, label);
    std::printf("label of a deleted buffer: error 0x%x\n", glGetError());
    glObjectLabel(0x1234, 1, -1, "x");
    std::printf("label of a bad identifier: error 0x%x\n", glGetError());
    report("labels");

    // Without a callback, messages wait in the log.
    glDebugMessageCallback(nullptr, nullptr);
    insert(GL_DEBUG_TYPE_MARKER, 50, GL_DEBUG_SEVERITY_HIGH, "first in the log");
    insert(GL_DEBUG_TYPE_MARKER, 51, GL_DEBUG_SEVERITY_MEDIUM, "second");
    GLint logged = 0, next = 0;
    glGetIntegerv(GL_DEBUG_LOGGED_MESSAGES, &logged);
    glGetIntegerv(GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH, &next);
    std::printf("logged %d, next length %d\n", logged, next);
    GLenum sources[4], types[4], severities[4];
    GLuint ids[4];
    GLsizei lengths[4];
    char text[256];
    const GLuint n = glGetDebugMessageLog(4, sizeof text, sources, types, ids, severities, lengths, text);
    const char* t = text;
    for (GLuint i = 0; i < n; ++i, t += lengths[i - 1])
        if (sources[i] == GL_DEBUG_SOURCE_APPLICATION)
            std::printf("  log: type=0x%x id=%u severity=0x%x length %d \"%s\"\n", types[i], ids[i], severities[i],
                        lengths[i], t);
    glGetIntegerv(GL_DEBUG_LOGGED_MESSAGES, &logged);
    std::printf("logged after the read: %d\n", logged);

    // GL_DEBUG_OUTPUT off: nothing is logged.
    glDisable(GL_DEBUG_OUTPUT);
    insert(GL_DEBUG_TYPE_MARKER, 60, GL_DEBUG_SEVERITY_HIGH, "not logged");
    glGetIntegerv(GL_DEBUG_LOGGED_MESSAGES, &logged);
    std::printf("logged with output off: %d, enabled %d\n", logged, glIsEnabled(GL_DEBUG_OUTPUT));
    return 0;
}
