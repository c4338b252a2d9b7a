// What a draw's shaders read: its textures (in shader-read layout before the
// pass, stand-ins for incomplete ones), its default-block uniforms (one copy
// per batch and change) and the descriptor set that binds them with its
// uniform blocks (reused while unchanged).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>

#include "backend.h"
#include "gl_to_vk.h"

namespace mgl::magma {

bool MagmaBackend::draw_textures(gen::Op verb, Executable& exe, std::vector<SampledImage>& images) {
    Context& c = *cur_;
    std::vector<Image*> to_read, to_store;
    const LinkedProgram& lp = exe.linked;
    for (size_t i = 0; i < lp.uniforms.size(); ++i) {
        const UniformInfo& u = lp.uniforms[i];
        if (u.offset >= 0 || u.binding < 0) continue;
        if (is_image(u.type)) {
            // An image uniform: the texture of its image unit as a storage image (images.cc).
            for (int e = 0; e < u.array_size; ++e) {
                SampledImage s;
                const int unit = exe.sampler_units[i].empty() ? 0 : exe.sampler_units[i][size_t(e)];
                if (!storage_image(verb, u, unit, uint32_t(e), s)) return false;
                images.push_back(s);
                to_store.push_back(s.img);
            }
            continue;
        }
        for (int e = 0; e < u.array_size; ++e) {
            const int unit = exe.sampler_units[i].empty() ? 0 : exe.sampler_units[i][size_t(e)];
            Texture* tex = nullptr;
            if (unit >= 0 && size_t(unit) < c.units.size()) {
                Context::Unit& un = c.units[size_t(unit)];
                switch (lowered_sampler(u.type)) {  // 1D, 1D array, rectangle: units of their own
                    case 1: tex = un.tex1d.get(); break;
                    case 2: tex = un.array1d.get(); break;
                    case 3: tex = un.rect.get(); break;
                    default: break;
                }
                if (!lowered_sampler(u.type)) switch (sampler_dim(u.type)) {
                    case kDummyCube: tex = un.cube.get(); break;
                    case kDummy3D: tex = un.tex3d.get(); break;
                    case kDummyArray: tex = un.array2d.get(); break;
                    case kDummyMS: tex = un.ms2d.get(); break;
                    case kDummyMSArray: tex = un.ms2darray.get(); break;
                    default: tex = un.tex2d.get();
                }
            }
            // A sampler object bound to the unit replaces the texture's sampling
            // state, its minification filter (completeness) included.
            const TexParams* pp = tex ? (c.units[size_t(unit)].sampler ? &c.units[size_t(unit)].sampler->params : &tex->params) : nullptr;
            bool complete = false;
            VkImageView view = tex ? sampled_view(*tex, pp->min_filter, complete) : VK_NULL_HANDLE;
            VkSampler smp;
            Image* sampled = nullptr;
            // GL: an integer texture filtered other than NEAREST is incomplete.
            if (pp && complete && tex->img.samples == VK_SAMPLE_COUNT_1_BIT && is_integer_format(tex->img.format) &&
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
            images.push_back(SampledImage{uint32_t(u.binding), uint32_t(e), view, smp, sampled});
        }
    }
    // Layout changes go where image_work() says (in front of the open pass
    // when it has not used the image: a texture drawn into by an earlier pass
    // and sampled now needs no split of this one).
    for (Image* img : to_read) gpu_->transition(image_work(*img), *img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    // Storage images are read and written in GENERAL (a texture both sampled
    // and bound to an image unit by one draw is not served: it ends GENERAL).
    for (Image* img : to_store) gpu_->transition(image_work(*img), *img, VK_IMAGE_LAYOUT_GENERAL);
    return true;
}

bool MagmaBackend::draw_descriptors(gen::Op verb, Executable& exe, const std::vector<SampledImage>& images) {
    Context& c = *cur_;
    const uint64_t serial = gpu_->serial();
    const LinkedProgram& lp = exe.linked;
    // ---- default uniforms: one copy per batch and change, bound with a dynamic offset
    const VkPhysicalDeviceLimits& lim = gpu_->dev().props.limits;
    const VkDeviceSize ubo_align = std::max<VkDeviceSize>(
        exe.defaults_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
            ? std::max(lim.minStorageBufferOffsetAlignment, lim.minUniformBufferOffsetAlignment)
            : lim.minUniformBufferOffsetAlignment,
        16);
    if (!exe.defaults.empty() && (exe.defaults_dirty || exe.defaults_serial != serial)) {
        Gpu::Slice s = gpu_->stream(exe.defaults.size(), ubo_align);
        if (!s.ptr) {
            set_error(GL_OUT_OF_MEMORY);
            return false;
        }
        std::memcpy(s.ptr, exe.defaults.data(), exe.defaults.size());
        exe.defaults_buf = s.buf;
        exe.defaults_offset = uint32_t(s.offset);
        exe.defaults_serial = serial;
        exe.defaults_dirty = false;
    }
    // Set 1, the default block's: one per batch and streaming buffer (its
    // dynamic offset moves with each copy), or one per copy (storage buffer).
    const bool dynamic = exe.defaults_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
    if (!exe.defaults.empty() && (!exe.defaults_set || exe.defaults_set_serial != serial ||
                                  exe.defaults_set_buf != exe.defaults_buf ||
                                  (!dynamic && exe.defaults_set_offset != exe.defaults_offset))) {
        VkDescriptorSet set = gpu_->allocate_set(exe.defaults_layout);
        if (!set) {
            set_error(GL_OUT_OF_MEMORY);
            return false;
        }
        const VkDescriptorBufferInfo info{exe.defaults_buf, dynamic ? 0 : exe.defaults_offset, exe.defaults.size()};
        VkWriteDescriptorSet w[2]{{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
        for (uint32_t i = 0; i < 2; ++i) {
            w[i].dstSet = set;
            w[i].dstBinding = uint32_t(lp.default_binding) + i;
            w[i].descriptorCount = 1;
            w[i].pBufferInfo = &info;
        }
        w[0].descriptorType = dynamic ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        vkUpdateDescriptorSets(gpu_->vk(), dynamic ? 1 : 2, w, 0, nullptr);
        exe.defaults_set = set;
        exe.defaults_set_buf = exe.defaults_buf;
        exe.defaults_set_offset = exe.defaults_offset;
        exe.defaults_set_serial = serial;
    }

    // ---- set 0: reused while the same views, samplers and blocks are bound
    std::vector<uint64_t> dkey;
    for (const SampledImage& b : images) dkey.insert(dkey.end(), {b.binding, b.element, uint64_t(b.view), uint64_t(b.sampler)});
    struct BlockBinding {
        uint32_t binding;
        VkBuffer buf;
        VkDeviceSize offset, range;
    };
    std::vector<BlockBinding> blocks;
    for (size_t i = 0; i < lp.blocks.size(); ++i) {
        const BlockInfo& b = lp.blocks[i];
        if (b.binding < 0) continue;
        const GLuint point = exe.block_bindings[i];
        const Context::Indexed* ib = point < c.uniform_bindings.size() ? &c.uniform_bindings[point] : nullptr;
        if (!ib || !ib->buffer || !ib->buffer->vk.buf) {
            refuse(verb, GL_INVALID_OPERATION, "a uniform block has no buffer bound");
            return false;
        }
        Buffer& buf = *ib->buffer;
        // Checked here, not at glBindBufferRange: glBufferData may have made the
        // buffer smaller since. Written so that offset + size cannot wrap.
        if (ib->offset >= buf.size || (ib->size && ib->size > buf.size - ib->offset)) {
            refuse(verb, GL_INVALID_OPERATION, "a uniform block's range lies outside its buffer");
            return false;
        }
        const VkDeviceSize range = ib->size ? ib->size : buf.size - ib->offset;
        blocks.push_back({uint32_t(b.binding), buf.vk.buf, ib->offset, range});
        buf.used_serial = serial;
        dkey.insert(dkey.end(), {uint64_t(b.binding), uint64_t(buf.vk.buf), ib->offset, range});
    }
    // Storage blocks: the buffer at each block's GL binding point. Every one
    // counts as written by this batch's main (conservative: readonly blocks
    // too), so that later host reads wait for it and later writes are ordered
    // after it (write_buffer, host_bytes).
    const size_t first_storage = blocks.size();
    for (size_t i = 0; i < lp.storage.size(); ++i) {
        const BlockInfo& b = lp.storage[i];
        if (b.binding < 0) continue;
        const GLuint point = exe.storage_bindings[i];
        const Context::Indexed* ib = point < c.storage_bindings.size() ? &c.storage_bindings[point] : nullptr;
        if (!ib || !ib->buffer || !ib->buffer->vk.buf) {
            refuse(verb, GL_INVALID_OPERATION, "a shader storage block has no buffer bound");
            return false;
        }
        Buffer& buf = *ib->buffer;
        if (ib->offset >= buf.size || (ib->size && ib->size > buf.size - ib->offset)) {
            refuse(verb, GL_INVALID_OPERATION, "a shader storage block's range lies outside its buffer");
            return false;
        }
        const VkDeviceSize range = ib->size ? ib->size : buf.size - ib->offset;
        blocks.push_back({uint32_t(b.binding), buf.vk.buf, ib->offset, range});
        dkey.insert(dkey.end(), {uint64_t(b.binding) | (uint64_t(1) << 32), uint64_t(buf.vk.buf), ib->offset, range});
    }
    // Atomic counter buffers: storage buffers too (atomic_counters.cc).
    {
        std::vector<VkDescriptorBufferInfo> infos;
        std::vector<uint32_t> bindings;
        if (!counter_descriptors(verb, exe, infos, bindings, dkey)) return false;
        for (size_t i = 0; i < infos.size(); ++i) blocks.push_back({bindings[i], infos[i].buffer, infos[i].offset, infos[i].range});
    }
    for (size_t i = 0; i < lp.storage.size(); ++i) {
        if (lp.storage[i].binding < 0) continue;
        Buffer& buf = *c.storage_bindings[exe.storage_bindings[i]].buffer;
        buf.used_serial = buf.write_serial = serial;
        buf.write_in_main = true;
    }
    if (exe.set_serial != serial || exe.set_key != dkey || !exe.set) {
        VkDescriptorSet set = gpu_->allocate_set(exe.set_layout);
        if (!set) {
            set_error(GL_OUT_OF_MEMORY);
            return false;
        }
        std::vector<VkWriteDescriptorSet> writes;
        std::vector<VkDescriptorImageInfo> infos(images.size());
        std::vector<VkDescriptorBufferInfo> binfos(blocks.size());
        for (size_t i = 0; i < images.size(); ++i) {
            infos[i] = {images[i].sampler, images[i].view,
                        images[i].storage ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = images[i].binding;
            w.dstArrayElement = images[i].element;
            w.descriptorCount = 1;
            w.descriptorType = images[i].storage ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
            w.pImageInfo = &infos[i];
            writes.push_back(w);
        }
        for (size_t i = 0; i < blocks.size(); ++i) {
            binfos[i] = {blocks[i].buf, blocks[i].offset, blocks[i].range};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = blocks[i].binding;
            w.descriptorCount = 1;
            w.descriptorType = i < first_storage ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w.pBufferInfo = &binfos[i];
            writes.push_back(w);
        }
        vkUpdateDescriptorSets(gpu_->vk(), uint32_t(writes.size()), writes.data(), 0, nullptr);
        exe.set = set;
        exe.set_key = std::move(dkey);
        exe.set_serial = serial;
    }
    return true;
}

}  // namespace mgl::magma
