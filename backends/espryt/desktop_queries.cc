// Desktop GL_SAMPLES_PASSED occlusion queries on a GLES host, which has only
// GL_ANY_SAMPLES_PASSED: the query runs on the host under that target (the
// result is 0 or 1, not a sample count: backends/gl/state/desktop_state.h),
// and the front end keeps which desktop target each query was begun on, so
// that GL_CURRENT_QUERY, the rule of one active occlusion query and the rule
// of one target per query object answer as a desktop driver would.
#include <GLES3/gl32.h>

#include "backend.h"
#include "desktop_state.h"

namespace mgl::espryt {

// The client name of the active GL_SAMPLES_PASSED query, 0 when none: the one
// recorded at glBeginQuery while the host's ANY_SAMPLES_PASSED query is still it.
GLuint EsprytBackend::samples_passed_active() {
    const GLuint q = cur_->dstate.samples_passed_query;
    GLuint h = 0;
    if (!q || !to_host(Kind::query, q, h) || !h) return cur_->dstate.samples_passed_query = 0;
    GLint current = 0;
    host_gl.glGetQueryiv(GL_ANY_SAMPLES_PASSED, GL_CURRENT_QUERY, &current);
    if (GLuint(current) != h) cur_->dstate.samples_passed_query = 0;
    return cur_->dstate.samples_passed_query;
}

void EsprytBackend::glBeginQuery(GLenum target, GLuint id) {
    if (!cur_ || !cur_->desktop() || !gl::occlusion_target(target)) return EsprytGenerated::glBeginQuery(target, id);
    gl::DesktopState& d = cur_->dstate;
    const bool samples = target == gl::kSamplesPassed;
    // One occlusion query at a time (ARB_occlusion_query2), and a query
    // object keeps its first target: the host sees GL_SAMPLES_PASSED as
    // GL_ANY_SAMPLES_PASSED and checks the rest.
    if (samples_passed_active()) return set_error(GL_INVALID_OPERATION);
    if ((samples ? d.other_occlusion_objects : d.samples_passed_objects).count(id))
        return set_error(GL_INVALID_OPERATION);
    if (const GLenum older = host_gl.glGetError()) set_error(older);
    EsprytGenerated::glBeginQuery(gl::device_query_target(target), id);
    if (const GLenum e = host_gl.glGetError()) return set_error(e);
    (samples ? d.samples_passed_objects : d.other_occlusion_objects).insert(id);
    if (samples) d.samples_passed_query = id;
}

void EsprytBackend::glEndQuery(GLenum target) {
    if (!cur_ || !cur_->desktop() || !gl::occlusion_target(target)) return EsprytGenerated::glEndQuery(target);
    const bool samples = samples_passed_active() != 0;
    // Ending the target that is not active is GL_INVALID_OPERATION, though
    // the host's query of the other target is the one running.
    if (samples != (target == gl::kSamplesPassed)) return set_error(GL_INVALID_OPERATION);
    EsprytGenerated::glEndQuery(gl::device_query_target(target));
    if (samples) cur_->dstate.samples_passed_query = 0;
}

void EsprytBackend::glDeleteQueries(GLsizei n, wire::In<GLuint> ids) {
    if (cur_ && cur_->desktop())
        for (GLsizei i = 0; i < n && size_t(i) < ids.count(); ++i) {
            cur_->dstate.samples_passed_objects.erase(ids.data[i]);
            cur_->dstate.other_occlusion_objects.erase(ids.data[i]);
        }
    EsprytGenerated::glDeleteQueries(n, ids);
}

// GL_CURRENT_QUERY of an occlusion target (glGetQueryiv, after the host's answer).
void EsprytBackend::desktop_current_query(GLenum target, GLenum pname, wire::Out<GLint>& params) {
    if (!cur_ || !cur_->desktop() || pname != GL_CURRENT_QUERY || params.count() < 1) return;
    const GLuint samples = samples_passed_active();
    if (target == gl::kSamplesPassed) params.data[0] = GLint(samples);
    else if (target == GL_ANY_SAMPLES_PASSED && samples) params.data[0] = 0;
}

}  // namespace mgl::espryt
