// EGLImages of GL objects (EGL_KHR_image_base, EGL_KHR_gl_texture_2D_image,
// _cubemap_image, _3D_image, EGL_KHR_gl_renderbuffer_image).
//
// The image's memory is the server's: eglCreateImage checks what EGL checks
// before any GL object is looked at (display, context, target, attributes),
// mints an id and asks the session of the context's share group to make the
// image (mglCreateImage, one round trip: the server's EGL decides whether the
// object can be one, and eglCreateImage must answer). The handle the
// application gets is the id; glEGLImageTarget*OES carry it on the wire, and
// the server finds the image in that session's table. So an image serves
// the contexts of its share group; in another group's context the server
// answers GL_INVALID_VALUE and logs why.
#include <atomic>

#include "egl_internal.h"
#include "gen/replies.h"
#include "log.h"

namespace mgl::egl {

namespace {

std::atomic<uint32_t> g_next_image{1};

EGLImage handle_of(uint32_t id) { return reinterpret_cast<EGLImage>(static_cast<uintptr_t>(id)); }

bool gl_object_target(EGLenum target) {
    return target == EGL_GL_TEXTURE_2D || target == EGL_GL_TEXTURE_3D || target == EGL_GL_RENDERBUFFER ||
           (target >= EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Z);
}

struct ImageRequest {
    EGLint level = 0, zoffset = 0;
    EGLBoolean preserved = EGL_FALSE;
};

// Attribute lists of both entry points (EGLint and EGLAttrib); false: one
// that an image of a GL object does not take (EGL_BAD_PARAMETER).
template <class A>
bool parse_attribs(const A* attribs, ImageRequest& r) {
    for (const A* a = attribs; a && a[0] != EGL_NONE; a += 2) {
        switch (a[0]) {
            case EGL_GL_TEXTURE_LEVEL: r.level = EGLint(a[1]); break;
            case EGL_GL_TEXTURE_ZOFFSET: r.zoffset = EGLint(a[1]); break;
            case EGL_IMAGE_PRESERVED: r.preserved = a[1] ? EGL_TRUE : EGL_FALSE; break;
            // A size says nothing about a GL object's image; Mesa takes and ignores it.
            case EGL_WIDTH:
            case EGL_HEIGHT: break;
            default: return false;
        }
    }
    return true;
}

EGLImage fail_image(EGLint e) {
    set_error(e);
    return EGL_NO_IMAGE;
}

template <class A>
EGLImage create_image(EGLDisplay d, EGLContext context, EGLenum target, EGLClientBuffer buffer, const A* attribs) {
    Display* dpy = checked_display(d);
    if (!dpy) return EGL_NO_IMAGE;
    if (!gl_object_target(target)) {
        // Native pixmaps, dma-bufs and the rest name memory of the
        // application's process, which the server cannot see.
        client::log().warn("eglCreateImage: target 0x{:x} is not served (only GL textures and renderbuffers)", target);
        return fail_image(EGL_BAD_PARAMETER);
    }
    if (context == EGL_NO_CONTEXT) return fail_image(EGL_BAD_CONTEXT);
    ContextRec* c = checked_context(dpy, context);
    if (!c) return EGL_NO_IMAGE;
    ImageRequest req;
    if (!parse_attribs(attribs, req)) return fail_image(EGL_BAD_PARAMETER);
    const uintptr_t name = reinterpret_cast<uintptr_t>(buffer);
    if (name == 0 || name > UINT32_MAX) return fail_image(EGL_BAD_PARAMETER);  // the default object, or no GL name
    client::Context& ctx = *c->ctx;
    if (group_busy_elsewhere(dpy, ctx.group.get())) {
        client::log().warn("eglCreateImage: a context of the image's share group is current on another thread");
        return fail_image(EGL_BAD_ACCESS);
    }
    const uint32_t id = g_next_image.fetch_add(1);
    ctx.enc->mglCreateImage(id, ctx.id, target, uint32_t(name), req.level, req.zoffset, uint8_t(req.preserved));
    ++ctx.counters.round_trips;
    const std::span<const uint8_t> rep = ctx.enc->wait_reply();
    ::mgl::GLenum err = 0;
    if (!gen::read_reply_mglCreateImage(rep, &err)) return fail_image(EGL_BAD_ACCESS);  // the session is gone
    if (err != EGL_SUCCESS) return fail_image(err ? EGLint(err) : EGL_BAD_PARAMETER);
    std::lock_guard<std::mutex> g(dpy->mu);
    dpy->images[id].group = ctx.group;
    return handle_of(id);
}

// Tells the image's session, when it still exists.
void send_destroy(uint32_t id, const ImageRec& rec) {
    if (std::shared_ptr<client::ShareGroup> group = rec.group.lock()) group->enc().mglDestroyImage(id);
}

}  // namespace

void destroy_all_images(Display* dpy) {
    std::map<uint32_t, ImageRec> images;
    {
        std::lock_guard<std::mutex> g(dpy->mu);
        images.swap(dpy->images);
    }
    for (const auto& [id, rec] : images) send_destroy(id, rec);
}

namespace api {

EGLImage eglCreateImage(EGLDisplay d, EGLContext ctx, EGLenum target, EGLClientBuffer buffer, const EGLAttrib* attribs) {
    return create_image(d, ctx, target, buffer, attribs);
}
EGLImageKHR eglCreateImageKHR(EGLDisplay d, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                              const EGLint* attribs) {
    return create_image(d, ctx, target, buffer, attribs);
}

EGLBoolean eglDestroyImage(EGLDisplay d, EGLImage image) {
    Display* dpy = checked_display(d);
    if (!dpy) return EGL_FALSE;
    ImageRec rec;
    const uint32_t id = uint32_t(reinterpret_cast<uintptr_t>(image));
    {
        std::lock_guard<std::mutex> g(dpy->mu);
        auto it = dpy->images.find(id);
        if (it == dpy->images.end() || reinterpret_cast<uintptr_t>(image) > UINT32_MAX) {
            set_error(EGL_BAD_PARAMETER);
            return EGL_FALSE;
        }
        rec = it->second;
        dpy->images.erase(it);
    }
    send_destroy(id, rec);
    return EGL_TRUE;
}
EGLBoolean eglDestroyImageKHR(EGLDisplay d, EGLImageKHR image) { return eglDestroyImage(d, image); }

}  // namespace api

}  // namespace mgl::egl
