// EGLImages (EGL_KHR_image_base, EGL_KHR_gl_*_image, GL_OES_EGL_image):
// the client's EGL mints an image id and names the GL object it comes from;
// Espryt makes a host EGLImage of the host object (the host EGL validates
// the object, level and completeness exactly as it would for a native
// program) and keeps it in the session's table, where every context of the
// session finds it by id. The images of a session go with it.
//
// Nothing from the wire reaches the host EGL unchecked: the target must be
// one of the GL object targets (never a native pixmap or dma-buf, whose
// "buffer" is a pointer or a file descriptor), and the object is named by
// its client name, translated in the creating context's share group.
#include <GLES3/gl32.h>
#include <fmt/format.h>

#include <string_view>

#include "backend.h"

namespace mgl::espryt {

namespace {

// Host entry points, loaded once per process (null where the host lacks them).
struct HostImageProcs {
    PFNEGLCREATEIMAGEKHRPROC create = nullptr;
    PFNEGLDESTROYIMAGEKHRPROC destroy = nullptr;
    void (*target_texture)(GLenum, void*) = nullptr;       // glEGLImageTargetTexture2DOES
    void (*target_renderbuffer)(GLenum, void*) = nullptr;  // glEGLImageTargetRenderbufferStorageOES
    void (*target_storage)(GLenum, void*, const GLint*) = nullptr;  // glEGLImageTargetTexStorageEXT
};

const HostImageProcs& host_image_procs() {
    static const HostImageProcs procs = [] {
        HostImageProcs p;
        p.create = reinterpret_cast<PFNEGLCREATEIMAGEKHRPROC>(host_egl.GetProcAddress("eglCreateImageKHR"));
        p.destroy = reinterpret_cast<PFNEGLDESTROYIMAGEKHRPROC>(host_egl.GetProcAddress("eglDestroyImageKHR"));
        p.target_texture = reinterpret_cast<void (*)(GLenum, void*)>(host_egl.GetProcAddress("glEGLImageTargetTexture2DOES"));
        p.target_renderbuffer =
            reinterpret_cast<void (*)(GLenum, void*)>(host_egl.GetProcAddress("glEGLImageTargetRenderbufferStorageOES"));
        p.target_storage = reinterpret_cast<void (*)(GLenum, void*, const GLint*)>(
            host_egl.GetProcAddress("glEGLImageTargetTexStorageEXT"));
        return p;
    }();
    return procs;
}

// The host display extension each EGL target needs.
const char* target_extension(GLenum target) {
    switch (target) {
        case EGL_GL_TEXTURE_2D_KHR: return "EGL_KHR_gl_texture_2D_image";
        case EGL_GL_TEXTURE_3D_KHR: return "EGL_KHR_gl_texture_3D_image";
        case EGL_GL_RENDERBUFFER_KHR: return "EGL_KHR_gl_renderbuffer_image";
        default:
            if (target >= EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X_KHR && target <= EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Z_KHR)
                return "EGL_KHR_gl_texture_cubemap_image";
            return nullptr;
    }
}

// A session holds at most this many images (each may keep a texture's
// storage alive after the texture is deleted).
constexpr size_t kMaxImages = 4096;

}  // namespace

bool served_image_extension(std::string_view name) {
    // The generated pass-through never carries these (codegen's denied
    // features: their verbs take host pointers); this file serves them.
    const HostImageProcs& procs = host_image_procs();
    const bool images = procs.create && procs.destroy && procs.target_texture && procs.target_renderbuffer;
    if (name == "GL_EXT_EGL_image_storage") return images && procs.target_storage;
    return images && (name == "GL_OES_EGL_image" || name == "GL_OES_EGL_image_external");
}

GLenum EsprytBackend::mglCreateImage(GLuint image, GLuint context, GLenum target, GLuint buffer, GLint level,
                                     GLint zoffset, GLboolean preserved) {
    const char* ext = target_extension(target);
    if (!ext) {
        session_error("mglCreateImage", fmt::format("target 0x{:x} is not a GL object target", target));
        return EGL_BAD_PARAMETER;
    }
    if (image == 0 || images_.count(image)) {
        session_error("mglCreateImage", fmt::format("image id {} is 0 or already in use", image));
        return EGL_BAD_PARAMETER;
    }
    auto it = contexts_.find(context);
    if (it == contexts_.end()) return EGL_BAD_CONTEXT;
    const HostImageProcs& procs = host_image_procs();
    if (!procs.create || !procs.destroy || !has_word(host_egl.QueryString(host_.dpy, EGL_EXTENSIONS), ext)) {
        session_error("mglCreateImage", fmt::format("the host EGL has no {}", ext));
        return EGL_BAD_PARAMETER;
    }
    if (images_.size() >= kMaxImages) {
        session_error("mglCreateImage", fmt::format("more than {} EGLImages in one session", kMaxImages));
        return EGL_BAD_ALLOC;
    }
    Context& c = *it->second;
    const Kind kind = target == EGL_GL_RENDERBUFFER_KHR ? Kind::renderbuffer : Kind::texture;
    GLuint host_name = 0;
    // 0, or a name the client never minted: not an object of that kind.
    if (buffer == 0 || !c.maps[int(kind)]->find(buffer, host_name)) return EGL_BAD_PARAMETER;
    EGLint attribs[8];
    int n = 0;
    if (kind == Kind::texture) attribs[n++] = EGL_GL_TEXTURE_LEVEL_KHR, attribs[n++] = level;
    if (target == EGL_GL_TEXTURE_3D_KHR) attribs[n++] = EGL_GL_TEXTURE_ZOFFSET_KHR, attribs[n++] = zoffset;
    attribs[n++] = EGL_IMAGE_PRESERVED_KHR;
    attribs[n++] = preserved ? EGL_TRUE : EGL_FALSE;
    attribs[n] = EGL_NONE;
    EGLImageKHR host = procs.create(host_.dpy, c.egl, target,
                                    reinterpret_cast<EGLClientBuffer>(static_cast<uintptr_t>(host_name)), attribs);
    if (host == EGL_NO_IMAGE_KHR) {
        const EGLint e = host_egl.GetError();
        return e == EGL_SUCCESS ? EGLint(EGL_BAD_PARAMETER) : e;
    }
    images_[image] = host;
    return EGL_SUCCESS;
}

void EsprytBackend::mglDestroyImage(GLuint image) {
    auto it = images_.find(image);
    if (it == images_.end()) return;  // the client checked its handle: a stale id changes nothing
    host_image_procs().destroy(host_.dpy, it->second);
    images_.erase(it);
}

void EsprytBackend::destroy_images() {
    if (images_.empty()) return;
    const HostImageProcs& procs = host_image_procs();
    for (auto& [id, host] : images_) procs.destroy(host_.dpy, host);
    images_.clear();
}

void* EsprytBackend::host_image(gen::Op verb, GLeglImageOES image) {
    auto it = images_.find(image <= UINT32_MAX ? GLuint(image) : 0);
    if (it != images_.end()) return it->second;
    refuse(verb, GL_INVALID_VALUE,
           image ? "not an EGLImage of this session (images are shared within a share group)" : "a null EGLImage");
    return nullptr;
}

void EsprytBackend::glEGLImageTargetTexture2DOES(GLenum target, GLeglImageOES image) {
    constexpr gen::Op op = gen::Op::glEGLImageTargetTexture2DOES;
    const auto fn = host_image_procs().target_texture;
    if (!cur_ || !fn) return unavailable(op);
    if (void* host = host_image(op, image)) fn(target, host);
}

void EsprytBackend::glEGLImageTargetRenderbufferStorageOES(GLenum target, GLeglImageOES image) {
    constexpr gen::Op op = gen::Op::glEGLImageTargetRenderbufferStorageOES;
    const auto fn = host_image_procs().target_renderbuffer;
    if (!cur_ || !fn) return unavailable(op);
    if (void* host = host_image(op, image)) fn(target, host);
}

void EsprytBackend::glEGLImageTargetTexStorageEXT(GLenum target, GLeglImageOES image, wire::In<GLint> attrib_list) {
    constexpr gen::Op op = gen::Op::glEGLImageTargetTexStorageEXT;
    const auto fn = host_image_procs().target_storage;
    if (!cur_ || !fn) return unavailable(op);
    // The extension defines no attribute (the host checks that the list is
    // null or GL_NONE); a list from the wire need not end, this copy does.
    const GLint attribs[2] = {attrib_list.count() ? attrib_list.data[0] : GLint(GL_NONE), GL_NONE};
    if (void* host = host_image(op, image)) fn(target, host, attrib_list.count() ? attribs : nullptr);
}

}  // namespace mgl::espryt
