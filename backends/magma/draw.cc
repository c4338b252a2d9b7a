// The draw path: textures to shader-read layout, the render pass (kept open
// across draws to the same attachments), the pipeline for the state that
// matters (pipeline.cc), descriptors (reused while unchanged), vertex and
// index buffers, dynamic state, the draw.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "backend.h"
#include "gl_to_vk.h"

namespace mgl::magma {

void MagmaBackend::draw(GLenum mode, GLint first, GLsizei count, GLenum index_type, wire::InOrOffset<uint8_t> indices,
                        GLsizei instances) {
    const gen::Op verb = index_type ? gen::Op::glDrawElements : gen::Op::glDrawArrays;
    if (!need_context(verb)) return;
    if (count < 0 || first < 0 || instances < 0) return refuse(verb, GL_INVALID_VALUE, "negative count");
    VkPrimitiveTopology topo;
    if (!topology(mode, topo)) return refuse(verb, GL_INVALID_ENUM, "mode");
    if (count == 0 || instances == 0) return;
    Executable* exe = current_exe();
    if (!exe) return refuse(verb, GL_INVALID_OPERATION, "no linked program in use");
    XfbDraw xfb;  // transform feedback capturing this draw (transform_feedback.cc)
    if (!xfb_draw_check(verb, mode, count, instances, index_type != 0, xfb)) return;
    Target t;
    if (!resolve_target(t, true)) return refuse(verb, GL_INVALID_FRAMEBUFFER_OPERATION, "incomplete framebuffer");
    Context& c = *cur_;
    const uint64_t serial = gpu_->serial();

    // ---- textures: every sampled image must be in shader-read layout before the pass
    struct Bound {
        uint32_t binding, element;
        VkImageView view;
        VkSampler sampler;
        Image* img;  // the texture's image (nullptr: a stand-in)
    };
    std::vector<Bound> images;
    std::vector<Image*> to_read;
    const LinkedProgram& lp = exe->linked;
    for (size_t i = 0; i < lp.uniforms.size(); ++i) {
        const UniformInfo& u = lp.uniforms[i];
        if (u.offset >= 0 || u.binding < 0) continue;
        for (int e = 0; e < u.array_size; ++e) {
            const int unit = exe->sampler_units[i].empty() ? 0 : exe->sampler_units[i][size_t(e)];
            Texture* tex = nullptr;
            if (unit >= 0 && size_t(unit) < c.units.size()) {
                Context::Unit& un = c.units[size_t(unit)];
                switch (sampler_dim(u.type)) {
                    case kDummyCube: tex = un.cube.get(); break;
                    case kDummy3D: tex = un.tex3d.get(); break;
                    case kDummyArray: tex = un.array2d.get(); break;
                    default: tex = un.tex2d.get();
                }
            }
            bool complete = false;
            VkImageView view = tex ? sampled_view(*tex, complete) : VK_NULL_HANDLE;
            VkSampler smp;
            Image* sampled = nullptr;
            const TexParams* pp = tex ? (c.units[size_t(unit)].sampler ? &c.units[size_t(unit)].sampler->params : &tex->params) : nullptr;
            // GL: an integer texture filtered other than NEAREST is incomplete.
            if (pp && complete && is_integer_format(tex->img.format) &&
                (pp->mag_filter != GL_NEAREST || (pp->min_filter != GL_NEAREST && pp->min_filter != GL_NEAREST_MIPMAP_NEAREST)))
                complete = false;
            if (view && complete) {
                const TexParams& params = *pp;
                smp = gpu_->sampler(sampler_key(params, *tex));
                if (tex->img.layout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL) to_read.push_back(&tex->img);
                sampled = &tex->img;
            } else {
                // Incomplete or missing: GL samples (0, 0, 0, 1).
                const int kind = sampler_kind(u.type);
                view = dummy_view_[kind][sampler_dim(u.type)];
                SamplerKey k;
                if (kind != kDummyFloat) k.mag = k.min = VK_FILTER_NEAREST;  // integer formats are never filtered
                smp = gpu_->sampler(k);
            }
            images.push_back({uint32_t(u.binding), uint32_t(e), view, smp, sampled});
        }
    }
    // Layout changes go where image_work() says (in front of the open pass
    // when it has not used the image: a texture drawn into by an earlier pass
    // and sampled now needs no split of this one).
    for (Image* img : to_read) gpu_->transition(image_work(*img), *img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);

    // ---- default uniforms: one copy per batch and change, bound with a dynamic offset
    const VkDeviceSize ubo_align = std::max<VkDeviceSize>(gpu_->dev().props.limits.minUniformBufferOffsetAlignment, 16);
    if (!exe->defaults.empty() && (exe->defaults_dirty || exe->defaults_serial != serial)) {
        Gpu::Slice s = gpu_->stream(exe->defaults.size(), ubo_align);
        if (!s.ptr) return set_error(GL_OUT_OF_MEMORY);
        std::memcpy(s.ptr, exe->defaults.data(), exe->defaults.size());
        exe->defaults_buf = s.buf;
        exe->defaults_offset = uint32_t(s.offset);
        exe->defaults_serial = serial;
        exe->defaults_dirty = false;
    }

    // ---- descriptor set: reused while the same buffers, views and samplers are bound
    std::vector<uint64_t> dkey;
    dkey.push_back(uint64_t(exe->defaults_buf));
    for (const Bound& b : images) dkey.insert(dkey.end(), {b.binding, b.element, uint64_t(b.view), uint64_t(b.sampler)});
    struct BlockBinding {
        uint32_t binding;
        VkBuffer buf;
        VkDeviceSize offset, range;
    };
    std::vector<BlockBinding> blocks;
    for (size_t i = 0; i < lp.blocks.size(); ++i) {
        const BlockInfo& b = lp.blocks[i];
        if (b.binding < 0) continue;
        const GLuint point = exe->block_bindings[i];
        const Context::Indexed* ib = point < c.uniform_bindings.size() ? &c.uniform_bindings[point] : nullptr;
        if (!ib || !ib->buffer || !ib->buffer->vk.buf)
            return refuse(verb, GL_INVALID_OPERATION, "a uniform block has no buffer bound");
        Buffer& buf = *ib->buffer;
        // Checked here, not at glBindBufferRange: glBufferData may have made the
        // buffer smaller since. Written so that offset + size cannot wrap.
        if (ib->offset >= buf.size || (ib->size && ib->size > buf.size - ib->offset))
            return refuse(verb, GL_INVALID_OPERATION, "a uniform block's range lies outside its buffer");
        const VkDeviceSize range = ib->size ? ib->size : buf.size - ib->offset;
        blocks.push_back({uint32_t(b.binding), buf.vk.buf, ib->offset, range});
        buf.used_serial = serial;
        dkey.insert(dkey.end(), {uint64_t(b.binding), uint64_t(buf.vk.buf), ib->offset, range});
    }
    if (exe->set_serial != serial || exe->set_key != dkey || !exe->set) {
        VkDescriptorSet set = gpu_->allocate_set(exe->set_layout);
        if (!set) return set_error(GL_OUT_OF_MEMORY);
        std::vector<VkWriteDescriptorSet> writes;
        std::vector<VkDescriptorImageInfo> infos(images.size());
        std::vector<VkDescriptorBufferInfo> binfos(blocks.size() + 1);
        if (!exe->defaults.empty()) {
            binfos[0] = {exe->defaults_buf, 0, exe->defaults.size()};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = uint32_t(lp.default_binding);
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
            w.pBufferInfo = &binfos[0];
            writes.push_back(w);
        }
        for (size_t i = 0; i < images.size(); ++i) {
            infos[i] = {images[i].sampler, images[i].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = images[i].binding;
            w.dstArrayElement = images[i].element;
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
            w.pImageInfo = &infos[i];
            writes.push_back(w);
        }
        for (size_t i = 0; i < blocks.size(); ++i) {
            binfos[i + 1] = {blocks[i].buf, blocks[i].offset, blocks[i].range};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = blocks[i].binding;
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
            w.pBufferInfo = &binfos[i + 1];
            writes.push_back(w);
        }
        vkUpdateDescriptorSets(gpu_->vk(), uint32_t(writes.size()), writes.data(), 0, nullptr);
        exe->set = set;
        exe->set_key = std::move(dkey);
        exe->set_serial = serial;
    }

    // ---- vertex input: one binding per attribute (its buffer offset in the binding)
    std::vector<VkVertexInputBindingDescription> bindings;
    std::vector<VkVertexInputAttributeDescription> attrs;
    std::vector<VkBuffer> vbufs;
    std::vector<VkDeviceSize> voffs;
    std::string vkey;
    for (const Executable::Attr& a : exe->attrs) {
        for (int k = 0; k < a.slots; ++k) {
            const int gl = a.gl_index + k;
            if (gl >= 16) break;
            const Attrib& at = c.vao->attribs[size_t(gl)];
            const uint32_t b = uint32_t(bindings.size());
            VkVertexInputBindingDescription bd{b, 0, VK_VERTEX_INPUT_RATE_VERTEX};
            VkVertexInputAttributeDescription ad{uint32_t(a.location + k), b, generic_format(a.type), 0};
            // GL would read an enabled array without a buffer (its buffer deleted,
            // or never given) as client memory at its offset: refused, as on Espryt.
            if (at.enabled && !(at.buffer && at.buffer->vk.buf))
                return refuse(verb, GL_INVALID_OPERATION, "an enabled vertex attribute has no buffer");
            if (at.enabled) {
                ad.format = vertex_format(at.type, at.size, at.normalized, at.integer);
                if (ad.format == VK_FORMAT_UNDEFINED) return refuse(verb, GL_INVALID_OPERATION, "vertex attribute type not supported yet");
                bd.stride = at.stride ? uint32_t(at.stride) : uint32_t(at.size) * type_bytes(at.type);
                if (at.divisor) bd.inputRate = VK_VERTEX_INPUT_RATE_INSTANCE;
                if (at.divisor > 1) {
                    // Vulkan 1.1 steps instance-rate attributes every instance (a divisor
                    // needs VK_EXT_vertex_attribute_divisor): each element is repeated
                    // `divisor` times into the stream instead.
                    const uint32_t elem = uint32_t(at.size) * type_bytes(at.type);
                    const uint64_t used = (uint64_t(instances) - 1) / at.divisor;
                    if (at.offset > at.buffer->size || used * bd.stride + elem > at.buffer->size - at.offset)
                        return refuse(verb, GL_INVALID_OPERATION, "instanced attribute outside its buffer");
                    Gpu::Slice s = gpu_->stream(uint64_t(instances) * elem, 4);
                    if (!s.ptr) return set_error(GL_OUT_OF_MEMORY);
                    const uint8_t* src = host_bytes(*at.buffer) + at.offset;
                    for (GLsizei i = 0; i < instances; ++i)
                        std::memcpy(s.ptr + size_t(i) * elem, src + size_t(uint32_t(i) / at.divisor) * bd.stride, elem);
                    bd.stride = elem;
                    vbufs.push_back(s.buf);
                    voffs.push_back(s.offset);
                } else {
                    // Vulkan requires the binding offset inside the buffer; past it
                    // the device would read memory the client chose.
                    if (at.offset >= at.buffer->size)
                        return refuse(verb, GL_INVALID_OPERATION, "vertex attribute offset outside its buffer");
                    vbufs.push_back(at.buffer->vk.buf);
                    voffs.push_back(at.offset);
                    at.buffer->used_serial = serial;
                }
            } else {
                // A disabled array reads the current generic value: a stride-0 binding.
                Gpu::Slice s = gpu_->stream(16, 16);
                std::memcpy(s.ptr, c.generic[gl], 16);
                vbufs.push_back(s.buf);
                voffs.push_back(s.offset);
            }
            bindings.push_back(bd);
            attrs.push_back(ad);
            const uint32_t kv[4] = {ad.location, uint32_t(ad.format), bd.stride, uint32_t(bd.inputRate)};
            append(vkey, kv, sizeof kv);
        }
    }

    // ---- indices (client ones through the stream; bytes widened where Vulkan needs it)
    VkBuffer ibuf = VK_NULL_HANDLE;
    VkDeviceSize ioff = 0;
    VkIndexType itype = VK_INDEX_TYPE_UINT16;
    uint32_t draw_count = uint32_t(count);
    if (index_type) {
        const uint32_t isz = index_type == GL_UNSIGNED_BYTE ? 1 : index_type == GL_UNSIGNED_SHORT ? 2 : 4;
        if (index_type != GL_UNSIGNED_BYTE && index_type != GL_UNSIGNED_SHORT && index_type != GL_UNSIGNED_INT)
            return refuse(verb, GL_INVALID_ENUM, "index type");
        const uint64_t bytes = uint64_t(count) * isz;
        const uint8_t* src = nullptr;
        if (indices.is_offset()) {
            Buffer* eb = c.vao->elements.get();
            if (!eb || !eb->vk.buf) return refuse(verb, GL_INVALID_OPERATION, "no element array buffer");
            if (indices.offset > eb->size || bytes > eb->size - indices.offset) return refuse(verb, GL_INVALID_OPERATION, "indices outside the element buffer");
            src = host_bytes(*eb) + indices.offset;  // read on the host only to widen or close a loop
            if (isz > 1 || gpu_->dev().index_uint8) {
                if (indices.offset % isz) return refuse(verb, GL_INVALID_OPERATION, "misaligned index offset");
                ibuf = eb->vk.buf;
                ioff = indices.offset;
                eb->used_serial = serial;
            }
        } else {
            if (indices.size < bytes) return refuse(verb, GL_INVALID_OPERATION, "index data shorter than count");
            src = indices.data;
        }
        itype = isz == 1 ? VK_INDEX_TYPE_UINT8_EXT : isz == 2 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
        if (mode == GL_LINE_LOOP) {
            // Closed by repeating the first index: 32-bit indices in the stream.
            Gpu::Slice s = gpu_->stream((uint64_t(count) + 1) * 4, 4);
            uint32_t* o = reinterpret_cast<uint32_t*>(s.ptr);
            for (GLsizei i = 0; i < count; ++i)
                o[i] = isz == 1 ? src[i] : isz == 2 ? reinterpret_cast<const uint16_t*>(src)[i] : reinterpret_cast<const uint32_t*>(src)[i];
            o[count] = o[0];
            ibuf = s.buf, ioff = s.offset, itype = VK_INDEX_TYPE_UINT32, draw_count = uint32_t(count) + 1;
        } else if (!ibuf) {
            if (isz == 1 && !gpu_->dev().index_uint8) {
                Gpu::Slice s = gpu_->stream(uint64_t(count) * 2, 4);
                uint16_t* o = reinterpret_cast<uint16_t*>(s.ptr);
                for (GLsizei i = 0; i < count; ++i) o[i] = src[i] == 0xFF && c.st.primitive_restart ? 0xFFFF : src[i];
                ibuf = s.buf, ioff = s.offset, itype = VK_INDEX_TYPE_UINT16;
            } else {
                Gpu::Slice s = gpu_->stream(bytes, 4);
                std::memcpy(s.ptr, src, bytes);
                ibuf = s.buf, ioff = s.offset;
            }
        }
    } else if (mode == GL_LINE_LOOP) {
        Gpu::Slice s = gpu_->stream((uint64_t(count) + 1) * 4, 4);
        uint32_t* o = reinterpret_cast<uint32_t*>(s.ptr);
        for (GLsizei i = 0; i < count; ++i) o[i] = uint32_t(first + i);
        o[count] = uint32_t(first);
        ibuf = s.buf, ioff = s.offset, itype = VK_INDEX_TYPE_UINT32, draw_count = uint32_t(count) + 1;
    }

    // ---- the pass, the pipeline, the draw
    ensure_pass(t);
    // What this draw samples is used by the open pass from now on.
    for (const Bound& bd : images)
        if (bd.img) bd.img->used_serial = serial, bd.img->used_pass = gpu_->pass_id();
    VkPipeline p = pipeline(*exe, t, topo, vkey, bindings, attrs);
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
    const uint32_t dyn_offset = exe->defaults.empty() ? 0 : exe->defaults_offset;
    if (b.set != exe->set || b.layout != exe->layout || b.dyn_offset != dyn_offset) {
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, exe->layout, 0, 1, &exe->set,
                                exe->defaults.empty() ? 0 : 1, &dyn_offset);
        b.set = exe->set;
        b.layout = exe->layout;
        b.dyn_offset = dyn_offset;
    }
    if (!vbufs.empty() && (b.vbufs != vbufs || b.voffs != voffs)) {
        vkCmdBindVertexBuffers(cb, 0, uint32_t(vbufs.size()), vbufs.data(), voffs.data());
        b.vbufs = vbufs;
        b.voffs = voffs;
    }
    const State& s = c.st;
    VkViewport vp{float(s.viewport[0]), float(s.viewport[1]), float(std::max(s.viewport[2], 1)),
                  float(std::max(s.viewport[3], 1)), s.depth_near, s.depth_far};
    VkRect2D sc{{0, 0}, {t.width, t.height}};
    if (s.scissor_test) {
        const int x0 = std::clamp(s.scissor[0], 0, int(t.width)), y0 = std::clamp(s.scissor[1], 0, int(t.height));
        const int x1 = std::clamp(s.scissor[0] + s.scissor[2], 0, int(t.width));
        const int y1 = std::clamp(s.scissor[1] + s.scissor[3], 0, int(t.height));
        sc = {{x0, y0}, {uint32_t(std::max(x1 - x0, 0)), uint32_t(std::max(y1 - y0, 0))}};
    }
    const float line = gpu_->dev().features.wideLines ? s.line_width : 1.0f;
    const float dyn[20] = {vp.x, vp.y, vp.width, vp.height, vp.minDepth, vp.maxDepth,
                           float(sc.offset.x), float(sc.offset.y), float(sc.extent.width), float(sc.extent.height),
                           line, s.offset_units, s.offset_factor, s.blend_color[0], s.blend_color[1], s.blend_color[2],
                           s.blend_color[3], 0, 0, 0};
    const uint32_t sten[6] = {s.stencil[0].mask, s.stencil[1].mask, s.stencil[0].writemask, s.stencil[1].writemask,
                              uint32_t(s.stencil[0].ref), uint32_t(s.stencil[1].ref)};
    const bool all = !b.dynamic_valid;
    if (all || std::memcmp(b.dynamic, dyn, 6 * sizeof(float))) vkCmdSetViewport(cb, 0, 1, &vp);
    if (all || std::memcmp(b.dynamic + 6, dyn + 6, 4 * sizeof(float))) vkCmdSetScissor(cb, 0, 1, &sc);
    if (all || b.dynamic[10] != dyn[10]) vkCmdSetLineWidth(cb, line);
    if (all || b.dynamic[11] != dyn[11] || b.dynamic[12] != dyn[12])
        vkCmdSetDepthBias(cb, s.offset_units, 0.0f, s.offset_factor);
    if (all || std::memcmp(b.dynamic + 13, dyn + 13, 4 * sizeof(float))) vkCmdSetBlendConstants(cb, s.blend_color);
    if (all || b.stencil[0] != sten[0]) vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_FRONT_BIT, sten[0]);
    if (all || b.stencil[1] != sten[1]) vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_BACK_BIT, sten[1]);
    if (all || b.stencil[2] != sten[2]) vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_FRONT_BIT, sten[2]);
    if (all || b.stencil[3] != sten[3]) vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_BACK_BIT, sten[3]);
    if (all || b.stencil[4] != sten[4]) vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_BIT, sten[4]);
    if (all || b.stencil[5] != sten[5]) vkCmdSetStencilReference(cb, VK_STENCIL_FACE_BACK_BIT, sten[5]);
    std::memcpy(b.dynamic, dyn, sizeof dyn);
    std::memcpy(b.stencil, sten, sizeof sten);
    b.dynamic_valid = true;
    const Device& dev = gpu_->dev();
    if (dev.dynamic_state) {
        // What pipelines leave dynamic (see pipeline()), as the GL state says.
        const bool depth = s.depth_test && t.has_depth;
        const uint32_t ext[kExtDynamic] = {
            uint32_t(s.cull ? (s.cull_face == GL_FRONT ? VK_CULL_MODE_FRONT_BIT
                               : s.cull_face == GL_BACK ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_FRONT_AND_BACK)
                            : VK_CULL_MODE_NONE),
            // GL's counter-clockwise is Vulkan's clockwise (image row 0 is GL's bottom row).
            uint32_t(s.front_face == GL_CCW ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE),
            uint32_t(topo), depth, depth && s.depth_mask, uint32_t(compare(s.depth_func)),
            s.stencil_test && t.has_stencil,
            uint32_t(stencil_op(s.stencil[0].fail)), uint32_t(stencil_op(s.stencil[0].zpass)),
            uint32_t(stencil_op(s.stencil[0].zfail)), uint32_t(compare(s.stencil[0].func)),
            uint32_t(stencil_op(s.stencil[1].fail)), uint32_t(stencil_op(s.stencil[1].zpass)),
            uint32_t(stencil_op(s.stencil[1].zfail)), uint32_t(compare(s.stencil[1].func))};
        const bool every = !b.ext_valid;
        if (every || b.ext[0] != ext[0]) dev.cmd_set_cull_mode(cb, ext[0]);
        if (every || b.ext[1] != ext[1]) dev.cmd_set_front_face(cb, VkFrontFace(ext[1]));
        if (every || b.ext[2] != ext[2]) dev.cmd_set_primitive_topology(cb, VkPrimitiveTopology(ext[2]));
        if (every || b.ext[3] != ext[3]) dev.cmd_set_depth_test_enable(cb, ext[3]);
        if (every || b.ext[4] != ext[4]) dev.cmd_set_depth_write_enable(cb, ext[4]);
        if (every || b.ext[5] != ext[5]) dev.cmd_set_depth_compare_op(cb, VkCompareOp(ext[5]));
        if (every || b.ext[6] != ext[6]) dev.cmd_set_stencil_test_enable(cb, ext[6]);
        for (int f = 0; f < 2; ++f) {
            const uint32_t* o = ext + 7 + 4 * f;
            if (every || std::memcmp(b.ext + 7 + 4 * f, o, 4 * sizeof(uint32_t)))
                dev.cmd_set_stencil_op(cb, f ? VK_STENCIL_FACE_BACK_BIT : VK_STENCIL_FACE_FRONT_BIT, VkStencilOp(o[0]),
                                       VkStencilOp(o[1]), VkStencilOp(o[2]), VkCompareOp(o[3]));
        }
        std::memcpy(b.ext, ext, sizeof ext);
        b.ext_valid = true;
    }
    if (dev.dynamic_vertex_input && (!b.vertex_valid || b.vertex_key != vkey)) {
        std::vector<VkVertexInputBindingDescription2EXT> bd2(bindings.size());
        for (size_t i = 0; i < bindings.size(); ++i)
            bd2[i] = {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, bindings[i].binding,
                      bindings[i].stride, bindings[i].inputRate, 1};
        std::vector<VkVertexInputAttributeDescription2EXT> ad2(attrs.size());
        for (size_t i = 0; i < attrs.size(); ++i)
            ad2[i] = {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, attrs[i].location,
                      attrs[i].binding, attrs[i].format, attrs[i].offset};
        dev.cmd_set_vertex_input(cb, uint32_t(bd2.size()), bd2.data(), uint32_t(ad2.size()), ad2.data());
        b.vertex_key = vkey;
        b.vertex_valid = true;
    }
    if (xfb.capture) xfb_begin(cb, xfb);
    if (ibuf) {
        if (b.ibuf != ibuf || b.ioff != ioff || b.itype != itype) {
            vkCmdBindIndexBuffer(cb, ibuf, ioff, itype);
            b.ibuf = ibuf;
            b.ioff = ioff;
            b.itype = itype;
        }
        vkCmdDrawIndexed(cb, draw_count, uint32_t(instances), 0, 0, 0);
    } else {
        vkCmdDraw(cb, draw_count, uint32_t(instances), uint32_t(first), 0);
    }
    gpu_->count_draw();
    if (xfb.capture) xfb_end(cb, xfb);
}

}  // namespace mgl::magma
