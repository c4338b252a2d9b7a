// Desktop GL_FIRST_VERTEX_CONVENTION on a GLES host, which flat-shades with
// the last vertex only: a draw whose primitives have a provoking vertex is
// drawn as the index list the GL front end's rule makes of it
// (backends/gl/state/provoking.h: each line or triangle ends with GL's
// first-convention vertex, winding kept), through a host element buffer of
// the share group's own; the application's element-array binding is put
// back. The generated draws call in here only while a desktop context is
// under the first convention (Core::provoking_first).
//
// Drawn unchanged, said once per context and kind: indirect, multi-draw and
// transform-feedback draws (their ids are the GPU's or many), adjacency
// modes, draws while transform feedback captures (the rewrite would reorder
// what it captures), programs with a geometry or tessellation stage (GL's
// convention then applies to that stage's output, not to the draw's ids).
#include <GLES3/gl32.h>

#include <spdlog/spdlog.h>

#include <cstring>

#include "backend.h"
#include "provoking.h"

namespace mgl::espryt {

namespace {

enum : uint8_t { kSaidForm = 1, kSaidAdjacency = 2, kSaidCapture = 4, kSaidStages = 8, kSaidMapped = 16, kSaidLarge = 32 };

// The most vertices a rewritten draw takes: the index lists are server
// memory a client's count would otherwise size (a strip's list is about
// three times its count), so a larger draw is drawn unchanged.
constexpr GLsizei kMaxRewrittenVertices = GLsizei(1) << 22;

uint32_t index_size(GLenum type) {
    return type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : type == GL_UNSIGNED_INT ? 4 : 0;
}

// Indices of `type` widened to 32 bits.
void widen(const void* src, GLenum type, size_t n, std::vector<uint32_t>& out) {
    out.resize(n);
    if (type == GL_UNSIGNED_INT) {
        std::memcpy(out.data(), src, n * 4);
    } else if (type == GL_UNSIGNED_SHORT) {
        const auto* s = static_cast<const uint8_t*>(src);
        for (size_t i = 0; i < n; ++i) {
            uint16_t v;
            std::memcpy(&v, s + i * 2, 2);
            out[i] = v;
        }
    } else {
        const auto* s = static_cast<const uint8_t*>(src);
        for (size_t i = 0; i < n; ++i) out[i] = s[i];
    }
}

}  // namespace

void EsprytBackend::provoking_said(uint8_t kind, gen::Op verb, GLenum mode, const char* why) {
    if (cur_->provoking_said & kind) return;
    cur_->provoking_said |= kind;
    log().warn("espryt: {} (mode {:#x}) under GL_FIRST_VERTEX_CONVENTION drawn with GLES's last-vertex convention: {}",
               gen::verb_name(uint16_t(verb)), mode, why);
}

void EsprytBackend::provoking_not_rewritten(gen::Op verb, GLenum mode) {
    if (gl::provoking_rewrite(mode) == gl::ProvokingRewrite::none) return;
    provoking_said(kSaidForm, verb, mode, "indirect, multi-draw and transform feedback draws are not rewritten");
}

// Whether the draw's program has a geometry or tessellation stage. GLES
// answers a stage's linked parameters only for a program that has it.
bool EsprytBackend::provoking_stages_after_vertex() {
    GLint program = 0;
    host_gl.glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    if (!program) {
        GLint pipeline = 0;
        if (avail_[hidx::glGetProgramPipelineiv]) host_gl.glGetIntegerv(GL_PROGRAM_PIPELINE_BINDING, &pipeline);
        if (!pipeline) return false;
        GLint gs = 0, tes = 0;
        host_gl.glGetProgramPipelineiv(GLuint(pipeline), GL_GEOMETRY_SHADER, &gs);
        host_gl.glGetProgramPipelineiv(GLuint(pipeline), GL_TESS_EVALUATION_SHADER, &tes);
        return gs || tes;
    }
    if (const GLenum older = host_gl.glGetError()) set_error(older);
    GLint v = 0;
    host_gl.glGetProgramiv(GLuint(program), GL_GEOMETRY_SHADER_INVOCATIONS, &v);
    bool has = host_gl.glGetError() == GL_NO_ERROR;
    if (!has) {
        host_gl.glGetProgramiv(GLuint(program), GL_TESS_GEN_MODE, &v);
        has = host_gl.glGetError() == GL_NO_ERROR;
    }
    return has;
}

bool EsprytBackend::draw_provoking_first(const ProvokingDraw& d) {
    const gl::ProvokingRewrite r = gl::provoking_rewrite(d.mode);
    if (r == gl::ProvokingRewrite::none) return false;
    if (r == gl::ProvokingRewrite::adjacency) {
        provoking_said(kSaidAdjacency, d.op, d.mode, "adjacency primitives are the geometry shader's");
        return false;
    }
    // Invalid arguments (and empty draws) go to the host as they are: its errors are GL's.
    const uint32_t isize = d.type ? index_size(d.type) : 4;
    if (d.count <= 0 || d.instances < 0 || !isize || (!d.type && d.first < 0)) return false;
    if (d.count > kMaxRewrittenVertices) {
        provoking_said(kSaidLarge, d.op, d.mode, "draws of more than 4M vertices are not rewritten");
        return false;
    }
    GLboolean capturing = GL_FALSE, paused = GL_FALSE;
    host_gl.glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &capturing);
    if (capturing) host_gl.glGetBooleanv(GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
    if (capturing && !paused) {
        provoking_said(kSaidCapture, d.op, d.mode, "transform feedback captures in the draw's vertex order");
        return false;
    }
    if (provoking_stages_after_vertex()) {
        provoking_said(kSaidStages, d.op, d.mode, "the program has a geometry or tessellation stage");
        return false;
    }
    const bool base_instance = d.baseinstance != 0;
    if (base_instance && !avail_[hidx::glDrawElementsInstancedBaseVertexBaseInstance]) return false;

    // The draw's vertex ids.
    std::vector<uint32_t>& in = provoking_in_;
    const size_t n = size_t(d.count);
    bool restart = false;
    uint32_t restart_index = 0;
    if (!d.type) {
        in.resize(n);
        for (size_t i = 0; i < n; ++i) in[i] = uint32_t(d.first) + uint32_t(i);
    } else {
        if (!read_draw_indices(d, in)) {
            provoking_said(kSaidMapped, d.op, d.mode, "its element buffer could not be read back (mapped?)");
            return false;
        }
        // Restart on: the index is the type's all-ones one here (restart_draw.cc drew the others).
        restart = cur_->dstate.primitive_restart;
        restart_index = isize == 4 ? 0xFFFFFFFFu : (1u << (isize * 8)) - 1;
    }
    std::vector<uint32_t>& out = provoking_out_;
    out.clear();
    const GLenum list = gl::provoking_first_indices(d.mode, in.data(), n, restart, restart_index, d.type ? d.basevertex : 0, out);
    if (out.empty()) return false;  // nothing to draw: the host's draw says what GL would
    draw_index_list(list, out, d.instances, 0, d.baseinstance);
    return true;
}

bool EsprytBackend::read_draw_indices(const ProvokingDraw& d, std::vector<uint32_t>& out) {
    const size_t n = size_t(d.count);
    GLint app_elements = 0;
    host_gl.glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &app_elements);
    if (!app_elements) {
        widen(d.indices, d.type, n, out);  // client memory, as it came on the wire
        return true;
    }
    // An offset into the application's element buffer: read back from the host.
    if (const GLenum older = host_gl.glGetError()) set_error(older);
    const auto offset = GLintptr(reinterpret_cast<uintptr_t>(d.indices));
    const void* p = host_gl.glMapBufferRange(GL_ELEMENT_ARRAY_BUFFER, offset, GLsizeiptr(n * index_size(d.type)),
                                             GL_MAP_READ_BIT);
    if (!p) {
        host_gl.glGetError();  // ours: the draw raises the application's own
        return false;
    }
    widen(p, d.type, n, out);
    host_gl.glUnmapBuffer(GL_ELEMENT_ARRAY_BUFFER);
    return true;
}

void EsprytBackend::draw_index_list(GLenum mode, const std::vector<uint32_t>& list, GLsizei instances,
                                    GLint basevertex, GLuint baseinstance) {
    GLint app_elements = 0;
    host_gl.glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &app_elements);
    GLuint& buffer = cur_->share->provoking_indices;
    if (!buffer) host_gl.glGenBuffers(1, &buffer);
    host_gl.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffer);
    host_gl.glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(list.size() * 4), list.data(), GL_STREAM_DRAW);
    const auto m = GLsizei(list.size());
    if (baseinstance)
        host_gl.glDrawElementsInstancedBaseVertexBaseInstance(mode, m, GL_UNSIGNED_INT, nullptr, instances, basevertex,
                                                              baseinstance);
    else if (basevertex)
        host_gl.glDrawElementsInstancedBaseVertex(mode, m, GL_UNSIGNED_INT, nullptr, instances, basevertex);
    else if (instances != 1)
        host_gl.glDrawElementsInstanced(mode, m, GL_UNSIGNED_INT, nullptr, instances);
    else
        host_gl.glDrawElements(mode, m, GL_UNSIGNED_INT, nullptr);
    host_gl.glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, GLuint(app_elements));
}

}  // namespace mgl::espryt
