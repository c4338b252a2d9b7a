// Uniform blocks' queries (GL 3.1, OpenGL ES 3.0): block indices, names and
// binding points, and the layout of their members (glGetActiveUniformsiv),
// answered from glslang's reflection of the linked program
// (shaders_link.cc: LinkedProgram::blocks and block_uniforms).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <optional>

#include "backend.h"
#include "program_names.h"

namespace mgl::magma {

namespace {

constexpr GLenum kReferencedByGeometry = 0x8A45, kReferencedByCompute = 0x90EC,
                 kReferencedByTessControl = 0x84F0, kReferencedByTessEvaluation = 0x84F1,
                 kAtomicCounterBufferIndex = 0x92DA;

// One value of glGetActiveUniformsiv for `u`; false: pname is no such query.
bool uniform_value(const UniformInfo& u, GLenum pname, GLint& v) {
    const bool in_block = u.block >= 0, counter = u.counter_buffer >= 0;
    switch (pname) {
        case GL_UNIFORM_TYPE: v = GLint(u.type); return true;
        case GL_UNIFORM_SIZE: v = u.array_size; return true;
        case GL_UNIFORM_NAME_LENGTH: v = GLint(active_name(u).size() + 1); return true;
        case GL_UNIFORM_BLOCK_INDEX: v = in_block ? u.block : -1; return true;
        // GL 4.6 §7.3.1.1: a block member's or atomic counter's layout;
        // -1 for the other uniforms (and 0 strides for what is no array or matrix).
        case GL_UNIFORM_OFFSET: v = in_block ? u.offset : counter ? u.counter_offset : -1; return true;
        case GL_UNIFORM_ARRAY_STRIDE: v = in_block ? u.array_stride : counter ? (u.array_size > 1 ? 4 : 0) : -1; return true;
        case GL_UNIFORM_MATRIX_STRIDE: v = in_block ? u.matrix_stride : counter ? 0 : -1; return true;
        case GL_UNIFORM_IS_ROW_MAJOR: v = in_block && u.row_major; return true;
        case kAtomicCounterBufferIndex: v = counter ? u.counter_buffer : -1; return true;
        default: return false;
    }
}

}  // namespace

void MagmaBackend::glGetActiveUniformsiv(GLuint program, GLsizei uniformCount, wire::In<GLuint> uniformIndices,
                                         GLenum pname, wire::Out<GLint> params) {
    constexpr gen::Op op = gen::Op::glGetActiveUniformsiv;
    if (!need_context(op)) return;
    if (uniformCount < 0) return refuse(op, GL_INVALID_VALUE, "uniformCount < 0");
    auto p = program_for(op, program);
    if (!p) return;
    const size_t n = std::min({size_t(uniformCount), size_t(uniformIndices.count()), size_t(params.count())});
    if (n < size_t(uniformCount)) return refuse(op, GL_INVALID_VALUE, "fewer indices or results than uniformCount");
    // Every index is checked before anything is written (GL: an error changes nothing).
    std::vector<const UniformInfo*> us(n);
    for (size_t i = 0; i < n; ++i) {
        us[i] = p->exe ? active_uniform(p->exe->linked, uniformIndices.data[i]) : nullptr;
        if (!us[i]) return refuse(op, GL_INVALID_VALUE, "an index is not an active uniform's");
    }
    if (pname == kAtomicCounterBufferIndex && !cur_->desktop()) return refuse(op, GL_INVALID_ENUM, "pname");
    GLint v = 0;
    if (n == 0 && !uniform_value(UniformInfo{}, pname, v)) return refuse(op, GL_INVALID_ENUM, "pname");
    for (size_t i = 0; i < n; ++i)
        if (!uniform_value(*us[i], pname, params.data[i])) return refuse(op, GL_INVALID_ENUM, "pname");
}

void MagmaBackend::glGetUniformIndices(GLuint program, GLsizei uniformCount, wire::Strings uniformNames,
                                       wire::Out<GLuint> uniformIndices) {
    constexpr gen::Op op = gen::Op::glGetUniformIndices;
    if (!need_context(op)) return;
    if (uniformCount < 0) return refuse(op, GL_INVALID_VALUE, "uniformCount < 0");
    auto p = program_for(op, program);
    if (!p) return;
    const size_t n = std::min({size_t(uniformCount), size_t(uniformNames.count), size_t(uniformIndices.count())});
    if (n < size_t(uniformCount)) return refuse(op, GL_INVALID_VALUE, "fewer names or results than uniformCount");
    for (size_t i = 0; i < n; ++i) {
        uniformIndices.data[i] = GL_INVALID_INDEX;
        std::string base;
        int element;
        if (!p->exe || !uniformNames.data[i] || !split_name(uniformNames.data[i], base, element) || element != 0) continue;
        const LinkedProgram& lp = p->exe->linked;
        for (GLuint k = 0; const UniformInfo* u = active_uniform(lp, k); ++k)
            if (u->name == base) {
                uniformIndices.data[i] = k;
                break;
            }
    }
}

// glGetActiveUniformName and glGetActiveUniformBlockName: `name_of` gives the
// linked program's name at `index`, nullptr past its last.
template <class NameOf>
void MagmaBackend::name_query(gen::Op op, GLuint program, GLuint index, GLsizei bufSize, wire::Out<GLsizei> length,
                              wire::Out<GLchar> out, NameOf name_of) {
    if (!need_context(op)) return;
    if (bufSize < 0) return refuse(op, GL_INVALID_VALUE, "bufSize < 0");
    auto p = program_for(op, program);
    if (!p) return;
    const std::optional<std::string> name = p->exe ? name_of(p->exe->linked, index) : std::nullopt;
    if (!name) return refuse(op, GL_INVALID_VALUE, "index");
    copy_string(*name, bufSize, length, out);
}

void MagmaBackend::glGetActiveUniformName(GLuint program, GLuint uniformIndex, GLsizei bufSize,
                                          wire::Out<GLsizei> length, wire::Out<GLchar> uniformName) {
    name_query(gen::Op::glGetActiveUniformName, program, uniformIndex, bufSize, length, uniformName,
               [](const LinkedProgram& lp, GLuint i) -> std::optional<std::string> {
                   const UniformInfo* u = active_uniform(lp, i);
                   return u ? std::optional(active_name(*u)) : std::nullopt;
               });
}

GLuint MagmaBackend::glGetUniformBlockIndex(GLuint program, wire::In<GLchar> name) {
    if (!need_context(gen::Op::glGetUniformBlockIndex)) return GL_INVALID_INDEX;
    auto p = program_for(gen::Op::glGetUniformBlockIndex, program);
    if (!p || !p->exe) return GL_INVALID_INDEX;
    const std::string n = in_string(name);
    const auto& blocks = p->exe->linked.blocks;
    for (size_t i = 0; i < blocks.size(); ++i)
        if (blocks[i].name == n) return GLuint(i);
    return GL_INVALID_INDEX;
}

void MagmaBackend::glGetActiveUniformBlockName(GLuint program, GLuint uniformBlockIndex, GLsizei bufSize,
                                               wire::Out<GLsizei> length, wire::Out<GLchar> uniformBlockName) {
    name_query(gen::Op::glGetActiveUniformBlockName, program, uniformBlockIndex, bufSize, length, uniformBlockName,
               [](const LinkedProgram& lp, GLuint i) -> std::optional<std::string> {
                   return i < lp.blocks.size() ? std::optional(lp.blocks[i].name) : std::nullopt;
               });
}

void MagmaBackend::glGetActiveUniformBlockiv(GLuint program, GLuint uniformBlockIndex, GLenum pname,
                                             wire::Out<GLint> params) {
    constexpr gen::Op op = gen::Op::glGetActiveUniformBlockiv;
    if (!need_context(op)) return;
    auto p = program_for(op, program);
    if (!p) return;
    if (!p->exe || uniformBlockIndex >= p->exe->linked.blocks.size())
        return refuse(op, GL_INVALID_VALUE, "uniformBlockIndex");
    const LinkedProgram& lp = p->exe->linked;
    const BlockInfo& b = lp.blocks[uniformBlockIndex];
    std::vector<GLint> members;
    for (size_t i = 0; i < lp.block_uniforms.size(); ++i)
        if (lp.block_uniforms[i].block == GLint(uniformBlockIndex)) members.push_back(GLint(lp.uniforms.size() + i));
    // glslang's stage bits (EShLanguage's order).
    enum { vertex, tess_control, tess_evaluation, geometry, fragment, compute };
    auto used_by = [&](int stage) { return GLint((b.stages >> stage) & 1); };
    GLint v = 0;
    switch (pname) {
        case GL_UNIFORM_BLOCK_BINDING: v = GLint(p->exe->block_bindings[uniformBlockIndex]); break;
        case GL_UNIFORM_BLOCK_DATA_SIZE: v = b.size; break;
        case GL_UNIFORM_BLOCK_NAME_LENGTH: v = GLint(b.name.size() + 1); break;
        case GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS: v = GLint(members.size()); break;
        case GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES:
            if (params.count() < members.size()) return refuse(op, GL_INVALID_OPERATION, "too few results for the indices");
            std::copy(members.begin(), members.end(), params.data);
            return;
        case GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER: v = used_by(vertex); break;
        case GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER: v = used_by(fragment); break;
        case kReferencedByGeometry:
            if (!cur_->desktop()) return refuse(op, GL_INVALID_ENUM, "pname");
            v = used_by(geometry);
            break;
        case kReferencedByCompute:
        case kReferencedByTessControl:
        case kReferencedByTessEvaluation:
            if (!cur_->desktop()) return refuse(op, GL_INVALID_ENUM, "pname");
            v = used_by(pname == kReferencedByCompute ? compute
                        : pname == kReferencedByTessControl ? tess_control : tess_evaluation);
            break;
        default: return refuse(op, GL_INVALID_ENUM, "pname");
    }
    if (params.count()) params.data[0] = v;
}

void MagmaBackend::glUniformBlockBinding(GLuint program, GLuint index, GLuint binding) {
    if (!need_context(gen::Op::glUniformBlockBinding)) return;
    auto p = program_for(gen::Op::glUniformBlockBinding, program);
    if (!p) return;
    if (!p->exe || index >= p->exe->block_bindings.size())
        return refuse(gen::Op::glUniformBlockBinding, GL_INVALID_VALUE, "block index");
    if (binding >= cur_->uniform_bindings.size())
        return refuse(gen::Op::glUniformBlockBinding, GL_INVALID_VALUE, "binding >= GL_MAX_UNIFORM_BUFFER_BINDINGS");
    p->exe->block_bindings[index] = binding;
}


}  // namespace mgl::magma
