// The verbs that make storage on the host: each asks the memory ledger first
// (memory_ledger.h), and the host is called only when the storage fits the
// session's budget. Over it, the host is not called and the decoder ends the
// session with the budget's fault.
#include <GLES3/gl32.h>

#include <algorithm>

#include "backend.h"
#include "context/sized_formats.h"

namespace mgl::espryt {

// The binding that names the object a storage verb's target acts on.
GLenum buffer_binding(GLenum target) {
    switch (target) {
        case GL_ARRAY_BUFFER: return GL_ARRAY_BUFFER_BINDING;
        case GL_ELEMENT_ARRAY_BUFFER: return GL_ELEMENT_ARRAY_BUFFER_BINDING;
        case GL_PIXEL_PACK_BUFFER: return GL_PIXEL_PACK_BUFFER_BINDING;
        case GL_PIXEL_UNPACK_BUFFER: return GL_PIXEL_UNPACK_BUFFER_BINDING;
        case GL_UNIFORM_BUFFER: return GL_UNIFORM_BUFFER_BINDING;
        case GL_TRANSFORM_FEEDBACK_BUFFER: return GL_TRANSFORM_FEEDBACK_BUFFER_BINDING;
        case GL_COPY_READ_BUFFER: return GL_COPY_READ_BUFFER_BINDING;
        case GL_COPY_WRITE_BUFFER: return GL_COPY_WRITE_BUFFER_BINDING;
        case GL_DRAW_INDIRECT_BUFFER: return GL_DRAW_INDIRECT_BUFFER_BINDING;
        case GL_DISPATCH_INDIRECT_BUFFER: return GL_DISPATCH_INDIRECT_BUFFER_BINDING;
        case GL_SHADER_STORAGE_BUFFER: return GL_SHADER_STORAGE_BUFFER_BINDING;
        case GL_ATOMIC_COUNTER_BUFFER: return GL_ATOMIC_COUNTER_BUFFER_BINDING;
        case GL_TEXTURE_BUFFER: return GL_TEXTURE_BUFFER_BINDING;
        default: return 0;
    }
}

namespace {

// Bytes of one texel of a sized internal format: 16 for the widest, 4 for
// the common 8-bit ones; an unknown format counts as 4 (compressed formats,
// which take less, never more than 16).
uint64_t texel_bytes(GLenum internalformat) {
    switch (internalformat) {
        case GL_R8: case GL_R8I: case GL_R8UI: case GL_R8_SNORM: case GL_STENCIL_INDEX8: case GL_ALPHA:
        case GL_LUMINANCE:
            return 1;
        case GL_RG8: case GL_RG8I: case GL_RG8UI: case GL_RG8_SNORM: case GL_R16F: case GL_R16I: case GL_R16UI:
        case GL_RGB565: case GL_RGBA4: case GL_RGB5_A1: case GL_DEPTH_COMPONENT16: case GL_LUMINANCE_ALPHA:
            return 2;
        case GL_RGB8: case GL_SRGB8: case GL_RGB8I: case GL_RGB8UI: case GL_RGB8_SNORM: case GL_DEPTH_COMPONENT24:
        case GL_RGB:
            return 3;
        case GL_RG16F: case GL_RG16I: case GL_RG16UI: case GL_R32F: case GL_R32I: case GL_R32UI: case GL_RGBA8:
        case GL_SRGB8_ALPHA8: case GL_RGBA8I: case GL_RGBA8UI: case GL_RGBA8_SNORM: case GL_RGB10_A2:
        case GL_RGB10_A2UI: case GL_R11F_G11F_B10F: case GL_RGB9_E5: case GL_DEPTH24_STENCIL8:
        case GL_DEPTH_COMPONENT32F: case GL_RGBA:
            return 4;
        case GL_RGB16F: case GL_RGB16I: case GL_RGB16UI: return 6;
        case GL_RGBA16F: case GL_RGBA16I: case GL_RGBA16UI: case GL_RG32F: case GL_RG32I: case GL_RG32UI:
        case GL_DEPTH32F_STENCIL8:
            return 8;
        case GL_RGB32F: case GL_RGB32I: case GL_RGB32UI: return 12;
        case GL_RGBA32F: case GL_RGBA32I: case GL_RGBA32UI: return 16;
        default: return 4;
    }
}

// width x height x depth x per-texel, saturating; 0 for a negative size (the
// host refuses it and allocates nothing).
uint64_t volume(int64_t w, int64_t h, int64_t d, uint64_t per) {
    if (w < 0 || h < 0 || d < 0) return 0;
    const unsigned __int128 v = (unsigned __int128)uint64_t(w) * uint64_t(h) * uint64_t(d) * per;
    return v > ~uint64_t(0) >> 2 ? ~uint64_t(0) >> 2 : uint64_t(v);
}

// A full mip chain adds a third (2D) or a seventh (3D) to the base level.
uint64_t with_mips(uint64_t base, GLsizei levels, bool three_d) {
    return levels > 1 ? base + base / (three_d ? 7 : 3) : base;
}

}  // namespace

GLenum texture_binding(GLenum target, uint32_t* face) {
    *face = 0;
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
        *face = target - GL_TEXTURE_CUBE_MAP_POSITIVE_X;
        return GL_TEXTURE_BINDING_CUBE_MAP;
    }
    switch (target) {
        case GL_TEXTURE_2D: return GL_TEXTURE_BINDING_2D;
        case GL_TEXTURE_3D: return GL_TEXTURE_BINDING_3D;
        case GL_TEXTURE_2D_ARRAY: return GL_TEXTURE_BINDING_2D_ARRAY;
        case GL_TEXTURE_CUBE_MAP: return GL_TEXTURE_BINDING_CUBE_MAP;
        case GL_TEXTURE_CUBE_MAP_ARRAY: return GL_TEXTURE_BINDING_CUBE_MAP_ARRAY;
        case GL_TEXTURE_2D_MULTISAMPLE: return GL_TEXTURE_BINDING_2D_MULTISAMPLE;
        case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY;
        default: return 0;
    }
}

bool EsprytBackend::charge(gen::Op verb, Kind k, GLenum binding, uint32_t part, uint64_t bytes) {
    if (!budget_ || !cur_ || !binding) return true;  // the host refuses a bad target itself
    GLint host = 0;
    host_gl.glGetIntegerv(binding, &host);
    if (!host) return true;  // nothing bound: the host raises the error
    return cur_->share->storage.charge(budget_, gen::verb_name(uint16_t(verb)), k, uint32_t(host), part, bytes);
}

void EsprytBackend::glBufferData(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLenum usage) {
    if (cur_ && avail_[hidx::glBufferData] &&
        !charge(gen::Op::glBufferData, Kind::buffer, buffer_binding(target), 0, size < 0 ? 0 : uint64_t(size)))
        return;
    EsprytGenerated::glBufferData(target, size, data, usage);
}

// GL_ARB_buffer_storage's name of the same verb (the host's is the EXT one).
void EsprytBackend::glBufferStorage(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLbitfield flags) {
    glBufferStorageEXT(target, size, data, flags);
}

void EsprytBackend::glBufferStorageEXT(GLenum target, GLsizeiptr size, wire::In<uint8_t> data, GLbitfield flags) {
    if (cur_ && avail_[hidx::glBufferStorageEXT] &&
        !charge(gen::Op::glBufferStorageEXT, Kind::buffer, buffer_binding(target), 0, size < 0 ? 0 : uint64_t(size)))
        return;
    EsprytGenerated::glBufferStorageEXT(target, size, data, flags);
}

void EsprytBackend::glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                                 GLint border, GLenum format, GLenum type, wire::InOrOffset<uint8_t> pixels) {
    if (proxy_specify({gl::ProxyRequest::Verb::image, target, 2, level, GLenum(internalformat), width, height, 1, border, format, type}))
        return;
    if (lowered_tex_image_2d(target, level, internalformat, width, height, border, format, type, pixels)) return;
    uint32_t face;
    const GLenum binding = texture_binding(target, &face);
    const uint64_t per = std::max<uint64_t>(texel_bytes(GLenum(internalformat)), wire::pixel_bytes(format, type));
    if (cur_ && avail_[hidx::glTexImage2D] && level >= 0 && level < 32 &&
        !charge(gen::Op::glTexImage2D, Kind::texture, binding, uint32_t(level) * 8 + face, volume(width, height, 1, per)))
        return;
    if (cur_ && cur_->desktop() && avail_[hidx::glTexImage2D] &&
        desktop_upload({gen::Op::glTexImage2D, target, level, internalformat, 0, 0, 0, width, height, 1, border, format,
                        type, &pixels, false, false}))
        return;
    EsprytGenerated::glTexImage2D(target, level, internalformat, width, height, border, format, type, pixels);
}

void EsprytBackend::glTexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                                 GLsizei depth, GLint border, GLenum format, GLenum type,
                                 wire::InOrOffset<uint8_t> pixels) {
    if (proxy_specify({gl::ProxyRequest::Verb::image, target, 3, level, GLenum(internalformat), width, height, depth, border, format, type}))
        return;
    uint32_t face;
    const GLenum binding = texture_binding(target, &face);
    const uint64_t per = std::max<uint64_t>(texel_bytes(GLenum(internalformat)), wire::pixel_bytes(format, type));
    if (cur_ && avail_[hidx::glTexImage3D] && level >= 0 && level < 32 &&
        !charge(gen::Op::glTexImage3D, Kind::texture, binding, uint32_t(level) * 8, volume(width, height, depth, per)))
        return;
    if (cur_ && cur_->desktop() && avail_[hidx::glTexImage3D] &&
        desktop_upload({gen::Op::glTexImage3D, target, level, internalformat, 0, 0, 0, width, height, depth, border,
                        format, type, &pixels, true, false}))
        return;
    EsprytGenerated::glTexImage3D(target, level, internalformat, width, height, depth, border, format, type, pixels);
}

// Immutable storage: every level at once, as part 0xffffffff of the texture.
void EsprytBackend::glTexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                                   GLsizei height) {
    if (proxy_specify({gl::ProxyRequest::Verb::storage, target, 2, levels, internalformat, width, height})) return;
    if (lowered_tex_storage_2d(target, levels, internalformat, width, height)) return;
    uint32_t face;
    const GLenum binding = texture_binding(target, &face);
    const uint64_t faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    const uint64_t bytes = with_mips(volume(width, height, faces, texel_bytes(internalformat)), levels, false);
    if (cur_ && avail_[hidx::glTexStorage2D] &&
        !charge(gen::Op::glTexStorage2D, Kind::texture, binding, ~0u, bytes))
        return;
    if (cur_ && cur_->desktop()) internalformat = desktop_storage(target, internalformat, levels);
    EsprytGenerated::glTexStorage2D(target, levels, internalformat, width, height);
}

void EsprytBackend::glTexStorage3D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                                   GLsizei height, GLsizei depth) {
    if (proxy_specify({gl::ProxyRequest::Verb::storage, target, 3, levels, internalformat, width, height, depth})) return;
    uint32_t face;
    const GLenum binding = texture_binding(target, &face);
    const uint64_t bytes =
        with_mips(volume(width, height, depth, texel_bytes(internalformat)), levels, target == GL_TEXTURE_3D);
    if (cur_ && avail_[hidx::glTexStorage3D] &&
        !charge(gen::Op::glTexStorage3D, Kind::texture, binding, ~0u, bytes))
        return;
    if (cur_ && cur_->desktop()) internalformat = desktop_storage(target, internalformat, levels);
    EsprytGenerated::glTexStorage3D(target, levels, internalformat, width, height, depth);
}

void EsprytBackend::glRenderbufferStorage(GLenum target, GLenum internalformat, GLsizei width, GLsizei height) {
    if (cur_ && cur_->desktop()) internalformat = gl::sized_renderable_format(internalformat);
    if (cur_ && avail_[hidx::glRenderbufferStorage] &&
        !charge(gen::Op::glRenderbufferStorage, Kind::renderbuffer,
                target == GL_RENDERBUFFER ? GL_RENDERBUFFER_BINDING : 0, 0,
                volume(width, height, 1, texel_bytes(internalformat))))
        return;
    EsprytGenerated::glRenderbufferStorage(target, internalformat, width, height);
}

void EsprytBackend::glRenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat,
                                                     GLsizei width, GLsizei height) {
    if (cur_ && cur_->desktop()) internalformat = gl::sized_renderable_format(internalformat);
    if (cur_ && avail_[hidx::glRenderbufferStorageMultisample] &&
        !charge(gen::Op::glRenderbufferStorageMultisample, Kind::renderbuffer,
                target == GL_RENDERBUFFER ? GL_RENDERBUFFER_BINDING : 0, 0,
                volume(width, height, std::max<GLsizei>(samples, 1), texel_bytes(internalformat))))
        return;
    EsprytGenerated::glRenderbufferStorageMultisample(target, samples, internalformat, width, height);
}

}  // namespace mgl::espryt
