// Atomic counters (desktop contexts, GL_ARB_shader_atomic_counters): the
// GL_ATOMIC_COUNTER_BUFFER binding points, the storage descriptors a draw or
// dispatch binds for a program's counter buffers, the figures a context
// answers, glGetActiveAtomicCounterBufferiv. The shaders' counters are
// storage-block members (counters_link.h); GL's rules (errors, figures) are
// the GL front end's (backends/gl/state/atomic_counter_rules.h).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>

#include "backend.h"

namespace mgl::magma {

namespace {
// Desktop GL 4.2's names, which the GLES headers lack.
constexpr GLenum kBinding = 0x92C1, kDataSize = 0x92C4, kActiveCounters = 0x92C5, kActiveIndices = 0x92C6,
                 kByVertex = 0x92C7, kByGeometry = 0x92CA, kByFragment = 0x92CB, kByCompute = 0x90ED;
}  // namespace

gl::AtomicCounterLimits counter_limits(const Device& d) {
    // Counters are storage-buffer members written from every stage: without
    // stores and atomics in the vertex and fragment stages nothing is served.
    if (!d.features.vertexPipelineStoresAndAtomics || !d.features.fragmentStoresAndAtomics) return {};
    // Beside the 8 storage blocks a stage may have (compute.cc) and the
    // default block some devices read as a storage buffer.
    const VkPhysicalDeviceLimits& l = d.props.limits;
    const uint32_t per_stage = std::min(l.maxPerStageDescriptorStorageBuffers, l.maxDescriptorSetStorageBuffers);
    gl::AtomicCounterLimits c = gl::atomic_counter_limits(per_stage, 8);
    // Storage buffers are written from the tessellation stages as from the
    // vertex stage (vertexPipelineStoresAndAtomics).
    c.tessellation = c.bindings > 0 && d.features.tessellationShader;
    return c;
}

void MagmaBackend::bind_counter_buffer(GLuint index, GLuint name, GLintptr offset, GLsizeiptr size) {
    constexpr gen::Op op = gen::Op::glBindBufferRange;
    // Base (size 0) or range: GL's rules are the front end's.
    if (const gl::RuleError e = gl::check_counter_binding(index, name, size != 0, offset, size, counter_limits(gpu_->dev())))
        return refuse(op, e.error, e.why);
    auto b = buffer_for_bind(name);
    cur_->counter_buffer = b;
    cur_->counter_bindings[index] = {b, uint64_t(offset), uint64_t(size)};
}

bool MagmaBackend::counter_descriptors(gen::Op verb, const Executable& exe, std::vector<VkDescriptorBufferInfo>& infos,
                                       std::vector<uint32_t>& bindings, std::vector<uint64_t>& key) {
    Context& c = *cur_;
    const uint64_t serial = gpu_->serial();
    const VkDeviceSize align = std::max<VkDeviceSize>(gpu_->dev().props.limits.minStorageBufferOffsetAlignment, 4);
    for (const CounterBufferInfo& cb : exe.linked.counter_buffers) {
        if (cb.binding < 0) continue;
        // The shader's binding point is below the limit (glslang checked it
        // against the same figure), the array holds every one of them.
        const Context::Indexed* ib =
            size_t(cb.gl_binding) < c.counter_bindings.size() ? &c.counter_bindings[size_t(cb.gl_binding)] : nullptr;
        const bool bound = ib && ib->buffer && ib->buffer->vk.buf;
        if (const gl::RuleError e = gl::check_counter_buffer_use(bound, bound ? ib->buffer->size : 0, bound ? ib->offset : 0,
                                                                 bound ? ib->size : 0, uint64_t(cb.data_size))) {
            refuse(verb, e.error, e.why);
            return false;
        }
        // GL lets the range start at any multiple of 4; a storage descriptor
        // starts at a multiple of the device's alignment (16 on lavapipe).
        // Such a range would need the counters' offsets moved in the shader:
        // not done yet, so it is refused loudly rather than bound wrongly.
        if (ib->offset % align) {
            refuse(verb, GL_INVALID_OPERATION,
                   "an atomic counter buffer range starts off the device's storage buffer alignment (not served yet)");
            return false;
        }
        Buffer& buf = *ib->buffer;
        const VkDeviceSize range = ib->size ? ib->size : buf.size - ib->offset;
        infos.push_back({buf.vk.buf, ib->offset, range});
        bindings.push_back(uint32_t(cb.binding));
        key.insert(key.end(), {uint64_t(cb.binding) | (uint64_t(2) << 32), uint64_t(buf.vk.buf), ib->offset, range});
        // Written by this batch: host reads wait for it, later writes are ordered after it.
        buf.used_serial = buf.write_serial = serial;
        buf.write_in_main = true;
    }
    return true;
}

void MagmaBackend::glGetActiveAtomicCounterBufferiv(GLuint program, GLuint bufferIndex, GLenum pname,
                                                    wire::Out<GLint> params) {
    constexpr gen::Op op = gen::Op::glGetActiveAtomicCounterBufferiv;
    if (!need_context(op)) return;
    if (!cur_->desktop() || !counter_limits(gpu_->dev()).bindings) return unsupported(op);
    auto p = program_for(op, program);
    if (!p) return;
    const LinkedProgram* lp = p->exe ? &p->exe->linked : nullptr;
    if (const gl::RuleError e = gl::check_counter_buffer_query(lp != nullptr, bufferIndex,
                                                               lp ? uint32_t(lp->counter_buffers.size()) : 0, pname))
        return refuse(op, e.error, e.why);
    if (!params.count()) return;
    const CounterBufferInfo& b = lp->counter_buffers[bufferIndex];
    std::vector<GLint> indices;
    for (size_t i = 0; i < lp->uniforms.size(); ++i)
        if (lp->uniforms[i].counter_buffer == int(bufferIndex)) indices.push_back(GLint(i));
    GLint v = 0;
    switch (pname) {
        case kBinding: v = b.gl_binding; break;
        case kDataSize: v = b.data_size; break;
        case kActiveCounters: v = GLint(indices.size()); break;
        case kActiveIndices:
            // As many as the caller's array holds (the client sizes it).
            for (size_t i = 0; i < indices.size() && i < params.count(); ++i) params.data[i] = indices[i];
            return;
        case kByVertex: v = (b.stages & 1) != 0; break;
        case kByGeometry: v = (b.stages & 2) != 0; break;
        case kByFragment: v = (b.stages & 4) != 0; break;
        case kByCompute: v = (b.stages & 8) != 0; break;
        default: v = 0; break;  // the tessellation stages: never served
    }
    params.data[0] = v;
}

}  // namespace mgl::magma
