// Session verbs about contexts: create, destroy, make current, strings,
// buffer readback; plus the backend's life cycle.
#include <GLES3/gl32.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "backend.h"
#include "context/desktop_context.h"
#include "desktop_caps.h"

namespace mgl::espryt {

EsprytBackend::EsprytBackend(const Options& options, const HostDisplay& host) : EsprytGenerated(options), host_(host) {}

namespace {
// The session whose binding the thread's host context is. Several sessions
// share one thread on the direct transport (the application's own).
thread_local const EsprytBackend* t_bound = nullptr;
}  // namespace

EsprytBackend::~EsprytBackend() { release(); }

bool EsprytBackend::make_current(EGLSurface draw, EGLSurface read, EGLContext context) {
    t_bound = this;
    return host_egl.MakeCurrent(host_.dpy, draw, read, context);
}

void EsprytBackend::begin_span() {
    if (t_bound != this) restore_current();
}

std::mutex* EsprytBackend::session_lock() { return host_serialization_lock(host_); }

void EsprytBackend::release() {
    if (cur_ || internal_ != EGL_NO_CONTEXT) {
        host_egl.MakeCurrent(host_.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        t_bound = nullptr;  // whoever bound the thread, nothing is bound now
    }
    if (t_bound == this) t_bound = nullptr;
    set_current(nullptr);
    draw_ = read_ = nullptr;
    destroy_images();
    for (auto& [id, c] : contexts_) destroy_context(*c);
    for (auto& c : doomed_contexts_) destroy_context(*c);
    for (auto& [id, s] : surfaces_) destroy_surface(*s);
    for (auto& s : doomed_surfaces_) destroy_surface(*s);
    contexts_.clear();
    doomed_contexts_.clear();
    surfaces_.clear();
    doomed_surfaces_.clear();
    if (internal_ != EGL_NO_CONTEXT) host_egl.DestroyContext(host_.dpy, internal_);
    internal_ = EGL_NO_CONTEXT;
}

void EsprytBackend::session_error(const char* verb, const std::string& what) {
    log().error("espryt: {}: {}", verb, what);
}

void EsprytBackend::destroy_context(Context& c) {
    if (c.egl != EGL_NO_CONTEXT) host_egl.DestroyContext(host_.dpy, c.egl);
    c.egl = EGL_NO_CONTEXT;
}

void EsprytBackend::mglCreateContext(GLuint context, GLuint share, GLint major, GLint minor, GLbitfield flags, GLenum api,
                                     GLbitfield profile) {
    const bool desktop = api == 0x30A2;  // EGL_OPENGL_API
    if (api != 0x30A0 && !desktop) {
        session_error("mglCreateContext", fmt::format("api {:#x} is neither OpenGL ES nor OpenGL", api));
        return;
    }
    const int host_es = host_.es_major * 10 + host_.es_minor;
    if (desktop && desktop_version(host_es) == 0) {
        session_error("mglCreateContext", fmt::format("the host's OpenGL ES {}.{} carries no desktop OpenGL version",
                                                      host_.es_major, host_.es_minor));
        return;
    }
    if (context == 0 || contexts_.count(context)) {
        session_error("mglCreateContext", fmt::format("context name {} is 0 or in use", context));
        return;
    }
    std::shared_ptr<ShareGroup> group;
    EGLContext share_egl = EGL_NO_CONTEXT;
    if (share) {
        auto it = contexts_.find(share);
        if (it == contexts_.end()) {
            session_error("mglCreateContext", fmt::format("share context {} does not exist", share));
            return;
        }
        group = it->second->share;
        share_egl = it->second->egl;
    } else {
        group = std::make_shared<ShareGroup>();
    }
    // Whatever GLES version the client asks for, the host's best 3.x serves
    // it (as GLES drivers do): 3.x is a superset of 2.0. A desktop context
    // gets a host GLES context too (never a host desktop GL one: the devices
    // have none) and reports the desktop version that GLES carries; the
    // client refuses a request above it (mglGetContextVersion).
    auto c = std::make_unique<Context>(std::move(group));
    c->id = context;
    c->api = api;
    c->profile = desktop ? gl::desktop_profile(profile) : 0u;
    c->major = major;
    c->minor = minor;
    c->served = desktop ? desktop_version(host_es) : host_es;
    c->debug = flags & 1;
    c->robust_asked = (flags & 2) && host_.robust;
    c->egl = host_.create_context(share_egl, c->debug);
    if (c->egl == EGL_NO_CONTEXT) {
        session_error("mglCreateContext", std::string("host eglCreateContext failed: ") + egl_error_name(host_egl.GetError()));
        return;
    }
    contexts_[context] = std::move(c);
}

GLint EsprytBackend::mglGetContextVersion(GLuint context) {
    auto it = contexts_.find(context);
    return it == contexts_.end() ? 0 : GLint(it->second->served);
}

void EsprytBackend::mglDestroyContext(GLuint context) {
    auto it = contexts_.find(context);
    if (it == contexts_.end()) {
        session_error("mglDestroyContext", fmt::format("context {} does not exist", context));
        return;
    }
    if (it->second.get() == cur_) {
        // GL keeps a current context alive until it is released.
        it->second->doomed = true;
        doomed_contexts_.push_back(std::move(it->second));
    } else {
        destroy_context(*it->second);
    }
    contexts_.erase(it);
}

namespace {
// Whether the host's glTexParameteri takes `wrap` (a fresh context: no error
// of the application's is pending to be lost).
bool host_takes_wrap(GLenum wrap) {
    GLint old = 0;
    host_gl.glGetIntegerv(GL_TEXTURE_BINDING_2D, &old);
    GLuint t = 0;
    host_gl.glGenTextures(1, &t);
    host_gl.glBindTexture(GL_TEXTURE_2D, t);
    for (int i = 0; i < 8 && host_gl.glGetError() != GL_NO_ERROR; ++i) {}
    host_gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GLint(wrap));
    const bool ok = host_gl.glGetError() == GL_NO_ERROR;
    host_gl.glBindTexture(GL_TEXTURE_2D, GLuint(old));
    host_gl.glDeleteTextures(1, &t);
    return ok;
}
}  // namespace

void EsprytBackend::prepare(Context& c) {
    std::unordered_set<std::string> host_ext;
    GLint n = 0;
    host_gl.glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i) {
        const char* e = static_cast<const char*>(host_gl.glGetStringi(GL_EXTENSIONS, GLuint(i)));
        if (!e) continue;
        // Buffer storage is mapped in the host driver's memory, which only a
        // client in this process can reach (host_maps.cc): other sessions are
        // not offered it, nor the verbs that make such storage.
        if (!peer_in_process_ && std::string_view(e) == "GL_EXT_buffer_storage") continue;
        host_ext.insert(e);
        if (!c.desktop() && (extension_allowed(e) || served_image_extension(e))) c.extensions.emplace_back(e);
    }
    // Espryt's probes of the host below (they may raise host errors on
    // purpose) stay out of the application's debug output.
    const bool host_debug =
        (host_.es_major * 10 + host_.es_minor >= 32 || host_ext.count("GL_KHR_debug")) && host_gl.glIsEnabled(GL_DEBUG_OUTPUT);
    if (host_debug) host_gl.glDisable(GL_DEBUG_OUTPUT);
    if (host_ext.count("GL_EXT_clip_cull_distance")) {
        GLint distances = 0;
        host_gl.glGetIntegerv(0x0D32, &distances);  // GL_MAX_CLIP_DISTANCES_EXT
        c.host_clip_distance = distances >= 8;
    }
    // Mesa 22.3's GLES lists GL_EXT_texture_mirror_clamp_to_edge but refuses
    // its wrap (its check asks for desktop GL): believed only once it works.
    if (c.desktop() && host_ext.count("GL_EXT_texture_mirror_clamp_to_edge") && !host_takes_wrap(0x8743)) {
        host_ext.erase("GL_EXT_texture_mirror_clamp_to_edge");
        // A fact of the host, not of this context: said once a process (on
        // direct the process is the application's, whose stderr it reaches).
        static std::atomic<bool> told{false};
        if (!told.exchange(true))
            log().info("espryt: the host lists GL_EXT_texture_mirror_clamp_to_edge but refuses GL_MIRROR_CLAMP_TO_EDGE: "
                       "GL_ARB_texture_mirror_clamp_to_edge is not advertised");
    }
    // Desktop GL starts with GL_FRAMEBUFFER_SRGB off (writes to sRGB
    // attachments are not encoded); GLES encodes them, and with
    // GL_EXT_sRGB_write_control the same enable is on at start.
    if (c.desktop() && host_ext.count("GL_EXT_sRGB_write_control")) host_gl.glDisable(0x8DB9);
    if (c.desktop())
        c.extensions = desktop_extensions(host_.es_major * 10 + host_.es_minor, c.profile,
                                          [&](std::string_view x) { return host_ext.count(std::string(x)) != 0; });
    for (const auto& e : c.extensions) c.extension_string += (c.extension_string.empty() ? "" : " ") + e;
    c.avail.assign(kHostVerbs, 0);
    compute_availability(host_.es_major * 10 + host_.es_minor,
                         [&](std::string_view x) { return host_ext.count(std::string(x)) != 0; }, c.avail.data());
    if (host_debug) host_gl.glEnable(GL_DEBUG_OUTPUT);
    c.ready = true;
}

bool EsprytBackend::bind(Context* c, Surface* draw, Surface* read) {
    if (!make_current(draw ? draw->egl : EGL_NO_SURFACE, read ? read->egl : EGL_NO_SURFACE,
                      c ? c->egl : EGL_NO_CONTEXT)) {
        session_error("mglMakeCurrent", std::string("host eglMakeCurrent failed: ") + egl_error_name(host_egl.GetError()));
        return false;
    }
    draw_ = draw;
    read_ = read;
    if (c && !c->ready) prepare(*c);
    set_current(c);
    // What the client destroyed while it was bound goes now.
    auto in_use = [&](const void* p) { return p == c || p == draw || p == read; };
    for (auto it = doomed_contexts_.begin(); it != doomed_contexts_.end();) {
        if (in_use(it->get())) { ++it; continue; }
        destroy_context(**it);
        it = doomed_contexts_.erase(it);
    }
    for (auto it = doomed_surfaces_.begin(); it != doomed_surfaces_.end();) {
        if (in_use(it->get())) { ++it; continue; }
        destroy_surface(**it);
        it = doomed_surfaces_.erase(it);
    }
    return true;
}

void EsprytBackend::mglMakeCurrent(GLuint draw, GLuint read, GLuint context) {
    if (context == 0) {
        bind(nullptr, nullptr, nullptr);
        return;
    }
    auto ci = contexts_.find(context);
    if (ci == contexts_.end()) {
        session_error("mglMakeCurrent", fmt::format("context {} does not exist", context));
        return;
    }
    auto surface = [&](GLuint id, Surface*& out) {
        out = nullptr;
        if (!id) return true;
        auto it = surfaces_.find(id);
        if (it == surfaces_.end()) return false;
        out = it->second.get();
        return true;
    };
    Surface *d, *r;
    if (!surface(draw, d) || !surface(read, r) || (!d != !r)) {
        session_error("mglMakeCurrent", fmt::format("surfaces {}/{} do not exist or are not both given", draw, read));
        return;
    }
    if (bind(ci->second.get(), d, r)) {
        cur_->draw = draw;
        cur_->read = read;
    }
}

GLint EsprytBackend::mglGetString(GLenum name, GLint index, GLsizei bufSize, wire::Out<GLchar> value) {
    if (!cur_) return -1;
    std::string s;
    if (index < 0) {
        auto host_string = [&](GLenum n) {
            const void* p = host_gl.glGetString(n);
            return p ? std::string(static_cast<const char*>(p)) : std::string();
        };
        switch (name) {
            case GL_VERSION:
                if (cur_->desktop())
                    s = fmt::format("{}.{} MobileGL (Espryt on {})", cur_->served / 10, cur_->served % 10, host_.renderer);
                else
                    s = fmt::format("OpenGL ES {}.{} MobileGL (Espryt on {})", host_.es_major, host_.es_minor, host_.renderer);
                break;
            case GL_SHADING_LANGUAGE_VERSION:
                if (!cur_->desktop()) {
                    s = host_string(name);
                    break;
                }
                s = gl::desktop_glsl_version(cur_->served);
                break;
            case GL_RENDERER: s = fmt::format("MobileGL Espryt ({})", host_.renderer); break;
            case GL_EXTENSIONS: s = cur_->extension_string; break;
            default:
                if (!host_gl.glGetString(name)) {
                    host_gl.glGetError();  // GL_INVALID_ENUM: the client reports -1 its own way
                    return -1;
                }
                s = host_string(name);
        }
    } else if (name == GL_EXTENSIONS) {
        if (size_t(index) >= cur_->extensions.size()) return -1;
        s = cur_->extensions[size_t(index)];
    } else {
        const void* p = host_gl.glGetStringi(name, GLuint(index));
        if (!p) {
            host_gl.glGetError();
            return -1;
        }
        s = static_cast<const char*>(p);
    }
    if (bufSize > 0 && value.size > 0) {
        const size_t n = std::min({s.size(), size_t(bufSize) - 1, size_t(value.size) - 1});
        std::memcpy(value.data, s.data(), n);
        value.data[n] = 0;
    }
    return GLint(s.size());
}

void EsprytBackend::mglReadBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, wire::Out<GLubyte> data) {
    if (!cur_ || length <= 0) return;
    // The buffer bound to `target` in the current context: the client maps
    // its own copy and asks for the server's bytes only when reading.
    const void* p = host_gl.glMapBufferRange(target, offset, length, GL_MAP_READ_BIT);
    if (!p) return;  // the host raised the error; the client sees it through take_error
    std::memcpy(data.data, p, std::min<uint64_t>(uint64_t(length), data.size));
    host_gl.glUnmapBuffer(target);
}

// ---- creation ---------------------------------------------------------------

bool host_available(std::string* why) { return host_display(why) != nullptr; }

std::unique_ptr<Espryt> create(const Options& options, std::string* why) {
    const HostDisplay* host = host_display(why);
    if (!host) return nullptr;
    return std::make_unique<EsprytBackend>(options, *host);
}

}  // namespace mgl::espryt
