// The draw: validation, then what it reads (draw_descriptors.cc: textures,
// uniforms, descriptor set; draw_vertex.cc: vertex input and indices), the
// render pass (kept open across draws to the same attachments), the pipeline
// for the state that matters (pipeline.cc), the bindings, the dynamic state
// (draw_dynamic.cc), the draw.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "backend.h"
#include "gl_to_vk.h"

namespace mgl::magma {

void MagmaBackend::draw(GLenum mode, GLint first, GLsizei count, GLenum index_type, wire::InOrOffset<uint8_t> indices,
                        GLsizei instances, GLint base_vertex, GLuint base_instance) {
    const gen::Op verb = index_type ? gen::Op::glDrawElements : gen::Op::glDrawArrays;
    if (!need_context(verb)) return;
    if (count < 0 || first < 0 || instances < 0) return refuse(verb, GL_INVALID_VALUE, "negative count");
    VkPrimitiveTopology topo;
    if (!topology(mode, topo)) return refuse(verb, GL_INVALID_ENUM, "mode");
    if (count == 0 || instances == 0) return;
    bound_stream();
    Executable* exe = current_exe();
    if (!exe) return refuse(verb, GL_INVALID_OPERATION, "no linked program in use");
    if (exe->compute) return refuse(verb, GL_INVALID_OPERATION, "the program in use is a compute program");
    if (const gl::RuleError e = gl::check_patch_mode(mode, exe->tes != VK_NULL_HANDLE)) return refuse(verb, e.error, e.why);
    // With tessellation the geometry stage reads the evaluation stage's primitives (glslang checks the pair at link).
    if (exe->gs && !exe->tes && !geometry_accepts(exe->linked.gs_input, mode))
        return refuse(verb, GL_INVALID_OPERATION, "the mode is not the geometry shader's input primitive");
    XfbDraw xfb;  // transform feedback capturing this draw (transform_feedback.cc)
    if (!xfb_draw_check(verb, mode, count, instances, index_type, indices, xfb)) return;
    Target t;
    if (!resolve_target(t, true)) return refuse(verb, GL_INVALID_FRAMEBUFFER_OPERATION, "incomplete framebuffer");
    const uint64_t serial = gpu_->serial();
    // The hidden uniforms (driver_uniforms.h): the draw's height, the alpha
    // test, glPointSize, the point sprite origin and the user clip planes.
    auto hidden = [&](int offset, const void* value, size_t bytes) {
        if (offset < 0 || size_t(offset) + bytes > exe->defaults.size()) return;
        if (std::memcmp(exe->defaults.data() + offset, value, bytes) == 0) return;
        std::memcpy(exe->defaults.data() + offset, value, bytes);
        exe->defaults_dirty = true;
    };
    const float h = float(t.height);
    hidden(exe->draw_height_offset, &h, 4);
    if (exe->alpha_test_offset >= 0) {
        const std::array<float, 2> alpha = cur_->dstate.alpha_test_uniform();
        hidden(exe->alpha_test_offset, alpha.data(), 8);
    }
    const float point[2] = {cur_->dstate.point_size, cur_->dstate.point_lower_left ? 1.0f : 0.0f};
    hidden(exe->point_size_offset, &point[0], 4);
    hidden(exe->point_origin_offset, &point[1], 4);
    const int32_t base = int32_t(base_instance);
    hidden(exe->base_instance_offset, &base, 4);
    if (exe->clip_plane_offset >= 0) {
        const auto planes = cur_->dstate.clip_uniform();
        hidden(exe->clip_plane_offset, planes.data(), sizeof planes);
    }

    // What the draw reads, gathered before anything is recorded (a refusal records nothing).
    std::vector<SampledImage> images;
    if (!draw_textures(verb, *exe, images)) return;
    if (!draw_descriptors(verb, *exe, images)) return;
    VertexInput vin;
    if (!draw_vertices(verb, *exe, instances, base_instance, vin)) return;
    IndexInput ix;
    if (!draw_indices(verb, mode, first, count, index_type, indices, ix)) return;

    // ---- the pass, the pipeline, the draw
    ensure_pass(t);
    // What this draw samples is used by the open pass from now on.
    for (const SampledImage& bd : images)
        if (bd.img) bd.img->used_serial = serial, bd.img->used_pass = gpu_->pass_id();
    VkPipeline p = pipeline(*exe, t, topo, vin.key, vin.bindings, vin.attrs);
    if (!p) return set_error(GL_OUT_OF_MEMORY);
    gpu_->occlusion_draw();  // an active occlusion query counts this pass
    VkCommandBuffer cb = gpu_->main();
    // Only what differs from the command buffer's current bindings is recorded.
    Recorded& b = recorded_;
    if (b.serial != gpu_->main_id()) b = Recorded{}, b.serial = gpu_->main_id();
    if (b.pipeline != p) {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
        b.pipeline = p;
    }
    // Each set is bound when it changed: a texture change leaves set 1 (the
    // default block) bound as it was.
    if (b.layout != exe->layout) b.set = b.defaults_set = VK_NULL_HANDLE, b.layout = exe->layout;
    if (b.set != exe->set) {
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, exe->layout, 0, 1, &exe->set, 0, nullptr);
        b.set = exe->set;
    }
    const bool dynamic = exe->defaults_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
    const uint32_t dyn_offset = dynamic ? exe->defaults_offset : 0;
    if (!exe->defaults.empty() && (b.defaults_set != exe->defaults_set || b.dyn_offset != dyn_offset)) {
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, exe->layout, 1, 1, &exe->defaults_set,
                                dynamic ? 1 : 0, &dyn_offset);
        b.defaults_set = exe->defaults_set;
        b.dyn_offset = dyn_offset;
    }
    if (!vin.vbufs.empty() && (b.vbufs != vin.vbufs || b.voffs != vin.voffs)) {
        vkCmdBindVertexBuffers(cb, 0, uint32_t(vin.vbufs.size()), vin.vbufs.data(), vin.voffs.data());
        b.vbufs = vin.vbufs;
        b.voffs = vin.voffs;
    }
    record_dynamic_state(cb, t, topo, vin);
    if (xfb.capture) xfb_begin(cb, xfb);
    if (ix.buf) {
        if (b.ibuf != ix.buf || b.ioff != ix.offset || b.itype != ix.type) {
            vkCmdBindIndexBuffer(cb, ix.buf, ix.offset, ix.type);
            b.ibuf = ix.buf;
            b.ioff = ix.offset;
            b.itype = ix.type;
        }
        // An array draw that became indexed (a closed loop) has no base.
        vkCmdDrawIndexed(cb, ix.count, uint32_t(instances), 0, index_type ? base_vertex : 0, base_instance);
    } else {
        vkCmdDraw(cb, ix.count, uint32_t(instances), uint32_t(first), base_instance);
    }
    gpu_->count_draw();
    if (xfb.capture) xfb_end(cb, xfb);
}

}  // namespace mgl::magma
