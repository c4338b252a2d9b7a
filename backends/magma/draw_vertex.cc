// What a draw reads per vertex: its vertex input (one binding per attribute,
// generic values for disabled arrays, divisors above 1 expanded) and its
// indices (client ones through the stream, widened or closed into a loop
// where Vulkan needs it).
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>

#include "backend.h"
#include "gl_to_vk.h"

namespace mgl::magma {

namespace {

// 32-bit attribute types Vulkan has no vertex format for as GL reads them
// (GL_FIXED of OpenGL ES 1.1 and GL_OES_fixed_point, GL_INT / GL_UNSIGNED_INT
// converted to float, normalised or not): read as float copies.
bool float_copied(const Attrib& at) {
    return at.type == GL_FIXED || (!at.integer && (at.type == GL_INT || at.type == GL_UNSIGNED_INT));
}

float to_float(const Attrib& at, const uint8_t* p) {
    int32_t i;
    std::memcpy(&i, p, 4);
    if (at.type == GL_FIXED) return float(double(i) / 65536.0);
    if (at.type == GL_INT) return at.normalized ? std::max(float(double(i) / 2147483647.0), -1.0f) : float(i);
    const uint32_t u = uint32_t(i);
    return at.normalized ? float(double(u) / 4294967295.0) : float(u);
}

}  // namespace

bool MagmaBackend::draw_vertices(gen::Op verb, Executable& exe, GLsizei instances, GLuint base_instance,
                                 VertexInput& in) {
    Context& c = *cur_;
    const uint64_t serial = gpu_->serial();
    // ---- vertex input: one binding per attribute (its buffer offset in the binding)
    std::vector<VkVertexInputBindingDescription>& bindings = in.bindings;
    std::vector<VkVertexInputAttributeDescription>& attrs = in.attrs;
    std::vector<VkBuffer>& vbufs = in.vbufs;
    std::vector<VkDeviceSize>& voffs = in.voffs;
    std::string& vkey = in.key;
    for (const Executable::Attr& a : exe.attrs) {
        for (int k = 0; k < a.slots; ++k) {
            const int gl = a.gl_index + k;
            if (gl >= 16) break;
            const Attrib& at = c.vao->attribs[size_t(gl)];
            const uint32_t b = uint32_t(bindings.size());
            VkVertexInputBindingDescription bd{b, 0, VK_VERTEX_INPUT_RATE_VERTEX};
            VkVertexInputAttributeDescription ad{uint32_t(a.location + k), b, generic_format(a.type), 0};
            // GL would read an enabled array without a buffer (its buffer deleted,
            // or never given) as client memory at its offset: refused, as on Espryt.
            if (at.enabled && !(at.buffer && at.buffer->vk.buf)) {
                refuse(verb, GL_INVALID_OPERATION, "an enabled vertex attribute has no buffer");
                return false;
            }
            if (at.enabled && float_copied(at)) {
                // Every element the buffer holds from the offset on, as floats in the
                // stream (a draw's vertex range is not known here): what this costs
                // grows with the buffer, so such arrays suit small or streamed data
                // (an ES 1.x client's arrays in client memory are streamed per draw).
                const uint32_t comps = uint32_t(std::clamp(at.size, 1, 4)), elem = comps * 4;
                const uint64_t stride = at.stride ? uint64_t(at.stride) : elem;
                if (at.divisor > 1 || at.offset >= at.buffer->size || at.buffer->size - at.offset < elem) {
                    refuse(verb, GL_INVALID_OPERATION, "fixed-point or 32-bit integer attribute outside its buffer");
                    return false;
                }
                const uint64_t n = (at.buffer->size - at.offset - elem) / stride + 1;
                Gpu::Slice s = gpu_->stream(n * elem, 4);
                if (!s.ptr) {
                    set_error(GL_OUT_OF_MEMORY);
                    return false;
                }
                const uint8_t* src = host_bytes(*at.buffer) + at.offset;
                float* dst = reinterpret_cast<float*>(s.ptr);
                for (uint64_t v = 0; v < n; ++v)
                    for (uint32_t k = 0; k < comps; ++k) dst[v * comps + k] = to_float(at, src + v * stride + k * 4);
                ad.format = vertex_format(GL_FLOAT, int(comps), false, false);
                bd.stride = elem;
                if (at.divisor) bd.inputRate = VK_VERTEX_INPUT_RATE_INSTANCE;
                vbufs.push_back(s.buf);
                voffs.push_back(s.offset);
            } else if (at.enabled) {
                ad.format = vertex_format(at.type, at.size, at.normalized, at.integer);
                // Vulkan's packed vertex formats other than UNORM are optional (asked at open).
                if (!gpu_->dev().packed_vertex_ok(ad.format)) ad.format = VK_FORMAT_UNDEFINED;
                if (ad.format == VK_FORMAT_UNDEFINED) {
                    refuse(verb, GL_INVALID_OPERATION, "vertex attribute type not supported yet");
                    return false;
                }
                bd.stride = at.stride ? uint32_t(at.stride) : attrib_bytes(at.type, at.size);
                if (at.divisor) bd.inputRate = VK_VERTEX_INPUT_RATE_INSTANCE;
                if (at.divisor > 1) {
                    // Vulkan 1.1 steps instance-rate attributes every instance (a divisor
                    // needs VK_EXT_vertex_attribute_divisor): each element is repeated
                    // `divisor` times into the stream instead. A base instance B
                    // reads entry B + i, which holds element B + i / divisor (GL).
                    const uint32_t elem = attrib_bytes(at.type, at.size);
                    const uint64_t used = uint64_t(base_instance) + (uint64_t(instances) - 1) / at.divisor;
                    if (at.offset > at.buffer->size || used * bd.stride + elem > at.buffer->size - at.offset) {
                        refuse(verb, GL_INVALID_OPERATION, "instanced attribute outside its buffer");
                        return false;
                    }
                    const uint64_t entries = uint64_t(base_instance) + uint64_t(instances);
                    if (entries * elem > (uint64_t(1) << 28)) {
                        refuse(verb, GL_OUT_OF_MEMORY, "instanced attribute with a divisor: base instance too large to expand");
                        return false;
                    }
                    Gpu::Slice s = gpu_->stream(entries * elem, 4);
                    if (!s.ptr) {
                        set_error(GL_OUT_OF_MEMORY);
                        return false;
                    }
                    const uint8_t* src = host_bytes(*at.buffer) + at.offset;
                    for (GLsizei i = 0; i < instances; ++i)
                        std::memcpy(s.ptr + size_t(base_instance + uint64_t(i)) * elem,
                                    src + size_t(base_instance + uint32_t(i) / at.divisor) * bd.stride, elem);
                    bd.stride = elem;
                    vbufs.push_back(s.buf);
                    voffs.push_back(s.offset);
                } else {
                    // Vulkan requires the binding offset inside the buffer; past it
                    // the device would read memory the client chose.
                    if (at.offset >= at.buffer->size) {
                        refuse(verb, GL_INVALID_OPERATION, "vertex attribute offset outside its buffer");
                        return false;
                    }
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
    return true;
}

bool MagmaBackend::draw_indices(gen::Op verb, GLenum mode, GLint first, GLsizei count, GLenum index_type,
                                wire::InOrOffset<uint8_t> indices, IndexInput& out) {
    Context& c = *cur_;
    const uint64_t serial = gpu_->serial();
    // ---- indices (client ones through the stream; bytes widened where Vulkan needs it)
    VkBuffer& ibuf = out.buf;
    VkDeviceSize& ioff = out.offset;
    VkIndexType& itype = out.type;
    uint32_t& draw_count = out.count;
    draw_count = uint32_t(count);
    if (index_type) {
        const uint32_t isz = index_type == GL_UNSIGNED_BYTE ? 1 : index_type == GL_UNSIGNED_SHORT ? 2 : 4;
        if (index_type != GL_UNSIGNED_BYTE && index_type != GL_UNSIGNED_SHORT && index_type != GL_UNSIGNED_INT) {
            refuse(verb, GL_INVALID_ENUM, "index type");
            return false;
        }
        const uint64_t bytes = uint64_t(count) * isz;
        const uint8_t* src = nullptr;
        if (indices.is_offset()) {
            Buffer* eb = c.vao->elements.get();
            if (!eb || !eb->vk.buf) {
                refuse(verb, GL_INVALID_OPERATION, "no element array buffer");
                return false;
            }
            if (indices.offset > eb->size || bytes > eb->size - indices.offset) {
                refuse(verb, GL_INVALID_OPERATION, "indices outside the element buffer");
                return false;
            }
            src = host_bytes(*eb) + indices.offset;  // read on the host only to widen or close a loop
            if (isz > 1 || gpu_->dev().index_uint8) {
                if (indices.offset % isz) {
                    refuse(verb, GL_INVALID_OPERATION, "misaligned index offset");
                    return false;
                }
                ibuf = eb->vk.buf;
                ioff = indices.offset;
                eb->used_serial = serial;
            }
        } else {
            if (indices.size < bytes) {
                refuse(verb, GL_INVALID_OPERATION, "index data shorter than count");
                return false;
            }
            src = indices.data;
        }
        itype = isz == 1 ? VK_INDEX_TYPE_UINT8_EXT : isz == 2 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
        auto index_at = [&](GLsizei i) -> uint32_t {
            return isz == 1 ? src[i] : isz == 2 ? reinterpret_cast<const uint16_t*>(src)[i] : reinterpret_cast<const uint32_t*>(src)[i];
        };
        const bool restart_on = c.st.primitive_restart || (c.desktop() && c.dstate.primitive_restart);
        const uint32_t all_ones = isz == 1 ? 0xFFu : isz == 2 ? 0xFFFFu : 0xFFFFFFFFu;
        if (const uint32_t per = gl::list_vertices_per_primitive(mode); restart_on && per) {
            // Vulkan restarts strips and fans only: a list's indices are
            // compacted to the primitives GL draws (the front end's rule).
            const uint32_t restart = c.desktop() && c.dstate.primitive_restart ? c.dstate.restart_index : all_ones;
            Gpu::Slice s = gpu_->stream(uint64_t(count) * 4, 4);
            uint32_t* o = reinterpret_cast<uint32_t*>(s.ptr);
            for (GLsizei i = 0; i < count; ++i) o[i] = index_at(i);
            draw_count = uint32_t(gl::restart_lists(restart, per, o, size_t(count)));
            ibuf = s.buf, ioff = s.offset, itype = VK_INDEX_TYPE_UINT32;
        } else if (c.desktop() && c.dstate.primitive_restart && !c.dstate.restart_is_fixed_for(index_type) &&
                   mode != GL_LINE_LOOP) {
            // Desktop restart on another index than the device's (all ones of
            // the type): 32-bit indices with that index turned into all ones
            // (the front end's rule), and the type's own all-ones (not a
            // restart here) kept as a vertex.
            Gpu::Slice s = gpu_->stream(uint64_t(count) * 4, 4);
            uint32_t* o = reinterpret_cast<uint32_t*>(s.ptr);
            for (GLsizei i = 0; i < count; ++i) o[i] = index_at(i);
            gl::restart_at_all_ones(c.dstate.restart_index, o, size_t(count));
            ibuf = s.buf, ioff = s.offset, itype = VK_INDEX_TYPE_UINT32;
        } else if (mode == GL_LINE_LOOP) {
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
                const bool restart = c.st.primitive_restart || (c.desktop() && c.dstate.primitive_restart);
                for (GLsizei i = 0; i < count; ++i) o[i] = src[i] == 0xFF && restart ? 0xFFFF : src[i];
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
    return true;
}

}  // namespace mgl::magma
