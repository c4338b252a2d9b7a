// Query objects: occlusion queries (GL_SAMPLES_PASSED, counted with
// precise Vulkan queries, GL_ANY_SAMPLES_PASSED and
// GL_ANY_SAMPLES_PASSED_CONSERVATIVE, also through
// GL_EXT_occlusion_query_boolean). A GL query can span many render passes
// and batches, a Vulkan query only one pass: the Gpu begins a Vulkan query in
// each pass a counted draw happens in (Gpu::occlusion_draw) and the result is
// whether any of them saw a sample. GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
// counts on the CPU: transform_feedback.cc knows each captured draw's
// primitives, so its result is available at glEndQuery.
#include <GLES3/gl3.h>

#include "backend.h"

namespace mgl::magma {

namespace {
constexpr GLenum kSamplesPassed = 0x8914, kQueryCounterBits = 0x8864;  // desktop GL
bool occlusion_target(GLenum t) {
    return t == GL_ANY_SAMPLES_PASSED || t == GL_ANY_SAMPLES_PASSED_CONSERVATIVE || t == kSamplesPassed;
}
}  // namespace

void MagmaBackend::glGenQueries(GLsizei n, wire::In<GLuint> ids) {
    if (!need_context(gen::Op::glGenQueries)) return;
    if (n < 0) return refuse(gen::Op::glGenQueries, GL_INVALID_VALUE, "n < 0");
    for (uint32_t i = 0; i < ids.count() && i < uint32_t(n); ++i)
        if (ids.data[i]) cur_->queries.emplace(ids.data[i], nullptr);  // an object only once begun
}

void MagmaBackend::glDeleteQueries(GLsizei n, wire::In<GLuint> ids) {
    if (!need_context(gen::Op::glDeleteQueries)) return;
    if (n < 0) return refuse(gen::Op::glDeleteQueries, GL_INVALID_VALUE, "n < 0");
    for (uint32_t i = 0; i < ids.count() && i < uint32_t(n); ++i) {
        auto it = cur_->queries.find(ids.data[i]);
        if (it == cur_->queries.end()) continue;
        // Deleting the active query ends it.
        if (it->second && cur_->occlusion == it->second) cur_->occlusion.reset();
        if (it->second && cur_->xfb_query == it->second) cur_->xfb_query.reset();
        cur_->queries.erase(it);
    }
}

GLboolean MagmaBackend::glIsQuery(GLuint id) {
    if (!need_context(gen::Op::glIsQuery)) return GL_FALSE;
    auto it = cur_->queries.find(id);
    return it != cur_->queries.end() && it->second;
}

void MagmaBackend::glBeginQuery(GLenum target, GLuint id) {
    if (!need_context(gen::Op::glBeginQuery)) return;
    const bool xfb = target == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN;
    if (!xfb && !occlusion_target(target)) return refuse(gen::Op::glBeginQuery, GL_INVALID_ENUM, "target");
    if (target == kSamplesPassed && (!cur_->desktop() || !gpu_->dev().features.occlusionQueryPrecise))
        return refuse(gen::Op::glBeginQuery, GL_INVALID_ENUM, "GL_SAMPLES_PASSED (a desktop target; needs precise occlusion queries)");
    // Both occlusion targets share one binding point: one active at a time.
    if (!xfb && cur_->occlusion) return refuse(gen::Op::glBeginQuery, GL_INVALID_OPERATION, "an occlusion query is active");
    if (xfb && cur_->xfb_query) return refuse(gen::Op::glBeginQuery, GL_INVALID_OPERATION, "the query target is active");
    auto it = cur_->queries.find(id);
    // Compatibility contexts keep GL 1.5's rule: any name not in use becomes a query object.
    if (id != 0 && it == cur_->queries.end() && cur_->compatibility()) it = cur_->queries.emplace(id, nullptr).first;
    if (id == 0 || it == cur_->queries.end())
        return refuse(gen::Op::glBeginQuery, GL_INVALID_OPERATION, "not a name from glGenQueries");
    std::shared_ptr<Query>& q = it->second;
    if (q && q->target != target) return refuse(gen::Op::glBeginQuery, GL_INVALID_OPERATION, "the query has another target");
    if (!q) q = std::make_shared<Query>(gpu_.get(), target);
    gpu_->release_query(q->occ);  // earlier results go
    if (q->active) return refuse(gen::Op::glBeginQuery, GL_INVALID_OPERATION, "the query is active");
    q->has_result = false;
    q->result = 0;
    q->active = true;
    if (xfb) {
        cur_->xfb_query = q;  // transform_feedback.cc adds each captured draw's primitives
        return;
    }
    cur_->occlusion = q;
    q->occ.precise = target == kSamplesPassed;
    gpu_->set_occlusion(&q->occ);
}

void MagmaBackend::glEndQuery(GLenum target) {
    if (!need_context(gen::Op::glEndQuery)) return;
    if (target == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN) {
        if (!cur_->xfb_query) return refuse(gen::Op::glEndQuery, GL_INVALID_OPERATION, "no active query for the target");
        cur_->xfb_query->active = false;
        cur_->xfb_query->has_result = true;
        cur_->xfb_query.reset();
        return;
    }
    if (!occlusion_target(target)) return refuse(gen::Op::glEndQuery, GL_INVALID_ENUM, "target");
    if (!cur_->occlusion || cur_->occlusion->target != target)
        return refuse(gen::Op::glEndQuery, GL_INVALID_OPERATION, "no active query for the target");
    Query& q = *cur_->occlusion;
    gpu_->set_occlusion(nullptr);
    q.active = false;
    q.occ.serial = gpu_->serial();
    cur_->occlusion.reset();
}

void MagmaBackend::glGetQueryiv(GLenum target, GLenum pname, wire::Out<GLint> params) {
    if (!need_context(gen::Op::glGetQueryiv)) return;
    if (!occlusion_target(target) && target != GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
        return refuse(gen::Op::glGetQueryiv, GL_INVALID_ENUM, "target");
    if (pname == kQueryCounterBits && cur_->desktop()) {  // the occlusion counts are 64-bit; xfb's counted here
        if (params.count() >= 1) params.data[0] = 64;
        return;
    }
    if (pname != GL_CURRENT_QUERY) return refuse(gen::Op::glGetQueryiv, GL_INVALID_ENUM, "pname");
    GLint v = 0;
    const std::shared_ptr<Query>& active = target == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN ? cur_->xfb_query : cur_->occlusion;
    if (active && active->target == target)
        for (auto& [name, q] : cur_->queries)
            if (q == active) v = GLint(name);
    if (params.count() >= 1) params.data[0] = v;
}

void MagmaBackend::glGetQueryObjectuiv(GLuint id, GLenum pname, wire::Out<GLuint> params) {
    uint64_t v = 0;
    if (query_object(gen::Op::glGetQueryObjectuiv, id, pname, v) && params.count() >= 1)
        params.data[0] = GLuint(std::min<uint64_t>(v, 0xFFFFFFFFu));
}

void MagmaBackend::glGetQueryObjectiv(GLuint id, GLenum pname, wire::Out<GLint> params) {
    uint64_t v = 0;
    if (query_object(gen::Op::glGetQueryObjectiv, id, pname, v) && params.count() >= 1)
        params.data[0] = GLint(std::min<uint64_t>(v, 0x7FFFFFFF));
}

void MagmaBackend::glGetQueryObjectui64v(GLuint id, GLenum pname, wire::Out<GLuint64> params) {
    uint64_t v = 0;
    if (query_object(gen::Op::glGetQueryObjectui64v, id, pname, v) && params.count() >= 1) params.data[0] = v;
}

void MagmaBackend::glGetQueryObjecti64v(GLuint id, GLenum pname, wire::Out<GLint64> params) {
    uint64_t v = 0;
    if (query_object(gen::Op::glGetQueryObjecti64v, id, pname, v) && params.count() >= 1)
        params.data[0] = GLint64(std::min<uint64_t>(v, 0x7FFFFFFFFFFFFFFFull));
}

// GL_QUERY_RESULT (waits) or GL_QUERY_RESULT_AVAILABLE of a query; false: refused.
bool MagmaBackend::query_object(gen::Op op, GLuint id, GLenum pname, uint64_t& out) {
    if (!need_context(op)) return false;
    auto it = cur_->queries.find(id);
    if (it == cur_->queries.end() || !it->second) return refuse(op, GL_INVALID_OPERATION, "not a query object"), false;
    Query& q = *it->second;
    if (q.active) return refuse(op, GL_INVALID_OPERATION, "the query is active"), false;
    if (pname != GL_QUERY_RESULT && pname != GL_QUERY_RESULT_AVAILABLE) return refuse(op, GL_INVALID_ENUM, "pname"), false;
    if (!q.has_result) {
        uint64_t samples = 0;
        // GL_QUERY_RESULT waits (bounded: a hang loses the context); polling
        // GL_QUERY_RESULT_AVAILABLE submits the batch so that it completes.
        if (gpu_->query_result(q.occ, pname == GL_QUERY_RESULT, samples)) {
            q.has_result = true;
            q.result = q.target == kSamplesPassed ? samples : samples ? 1 : 0;
        }
        open_id_ = nullptr;  // a submit may have ended the pass
    }
    out = pname == GL_QUERY_RESULT_AVAILABLE ? uint64_t(q.has_result) : q.result;
    return true;
}

}  // namespace mgl::magma
