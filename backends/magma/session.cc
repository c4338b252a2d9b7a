// Session verbs about contexts (create, destroy, make current, strings,
// errors, sync objects, flush/finish) and the backend's life cycle. The
// limits and state glGet* reads: state_queries.cc.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "backend.h"
#include "context/desktop_context.h"
#include "desktop_caps.h"

namespace mgl::magma {

MagmaBackend::MagmaBackend(const Options& options, std::shared_ptr<Device> device, VkQueue queue)
    : log_(options.logger ? options.logger : spdlog::default_logger()),
      logged_unsupported_(gen::kOpcodeLimit),
      logged_refused_(gen::kOpcodeLimit) {
    device_name_ = device->name;
    uint32_t timeout_ms = options.gpu_timeout_ms;
    if (const char* env = std::getenv("MOBILEGL_MAGMA_GPU_TIMEOUT_MS"); env && !timeout_ms) timeout_ms = uint32_t(std::atoi(env));
    if (!timeout_ms) timeout_ms = 10000;  // generous: a frame that long is a hang
    gpu_ = std::make_unique<Gpu>(std::move(device), queue, *log_, timeout_ms);
    // The textures an incomplete or missing texture samples as: (0, 0, 0, 1),
    // i.e. alpha 255 in UNORM and 1 in the integer formats.
    Gpu::Slice black = gpu_->stream(2 * 6 * 4);
    for (int i = 0; i < 12; ++i) black.ptr[4 * i] = black.ptr[4 * i + 1] = black.ptr[4 * i + 2] = 0;
    for (int i = 0; i < 6; ++i) black.ptr[4 * i + 3] = 255, black.ptr[24 + 4 * i + 3] = 1;
    const VkImageViewType types[kDummies] = {VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE, VK_IMAGE_VIEW_TYPE_3D,
                                             VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY};
    const VkFormat formats[kDummyKinds] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_R8G8B8A8_UINT};
    for (int kind = 0; kind < kDummyKinds; ++kind)
    for (int k = 0; k < kDummies; ++k) {
        Image& img = dummy_[kind][k];
        img.format = formats[kind];
        img.width = img.height = 1;
        img.cube = k == kDummyCube;
        img.layers = k == kDummyCube ? 6 : 1;
        img.type = k == kDummy3D ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
        if (k == kDummyMS || k == kDummyMSArray) {
            // sampler2DMS reads a multisampled view: cleared, as buffers cannot be copied into one.
            img.samples = texture_samples(img.format, 1);
            if (img.samples == VK_SAMPLE_COUNT_1_BIT) continue;
            if (!gpu_->create_image(img, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT)) continue;
            VkCommandBuffer cb = gpu_->init();
            gpu_->transition(cb, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
            VkClearColorValue c{};
            if (kind == kDummyFloat) c.float32[3] = 1.0f;
            else c.uint32[3] = 1;
            const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            vkCmdClearColorImage(cb, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &range);
            gpu_->transition(cb, img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            dummy_view_[kind][k] = gpu_->create_view(img, types[k], 0, 1, 0, 1);
            continue;
        }
        if (!gpu_->create_image(img, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT)) continue;
        VkCommandBuffer cb = gpu_->init();
        gpu_->transition(cb, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        VkBufferImageCopy r{};
        r.bufferOffset = black.offset + (kind == kDummyFloat ? 0 : 24);
        r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, img.layers};
        r.imageExtent = {1, 1, 1};
        vkCmdCopyBufferToImage(cb, black.buf, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
        gpu_->transition(cb, img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        dummy_view_[kind][k] = gpu_->create_view(img, types[k], 0, 1, 0, img.layers);
    }
}

MagmaBackend::~MagmaBackend() { release(); }

void MagmaBackend::release() {
    if (!gpu_) return;
    gpu_->submit(true);
    cur_ = nullptr;
    draw_ = read_ = nullptr;
    for (auto& [id, s] : surfaces_) destroy_surface(*s);
    for (auto& s : doomed_surfaces_) destroy_surface(*s);
    surfaces_.clear();
    doomed_surfaces_.clear();
    contexts_.clear();  // objects free their Vulkan parts through gpu->defer
    doomed_contexts_.clear();
    release_masked_clear();
    for (int kind = 0; kind < kDummyKinds; ++kind)
        for (int k = 0; k < kDummies; ++k) {
            if (VkImageView v = dummy_view_[kind][k]) gpu_->defer([v](VkDevice d) { vkDestroyImageView(d, v, nullptr); });
            gpu_->destroy_image_later(dummy_[kind][k]);
        }
    gpu_->submit(true);
    for (int i = 0; i < Gpu::kBatches; ++i) gpu_->submit(true);  // run every deferred destruction
    // A hung GPU may still run this session's work: its device and objects
    // are kept until it finishes, without waiting here (the server goes on).
    if (gpu_->hung()) Gpu::bury(std::move(gpu_), log_);
    gpu_.reset();
}

// ---- errors --------------------------------------------------------------------

bool MagmaBackend::first_time(std::vector<bool>& seen, gen::Op verb) {
    const auto i = size_t(verb);
    if (i >= seen.size() || seen[i]) return false;
    seen[i] = true;
    return true;
}

void MagmaBackend::set_error(GLenum e) { raise_error(e, nullptr, nullptr); }

uint32_t MagmaBackend::take_error() {
    if (!cur_) return GL_NO_ERROR;
    if (lost()) return GL_CONTEXT_LOST;
    const uint32_t e = cur_->pending_error;
    cur_->pending_error = 0;
    return e;
}

void MagmaBackend::unsupported(gen::Op verb) {
    raise_error(GL_INVALID_OPERATION, gen::verb_name(uint16_t(verb)), "not supported by Magma yet");
    if (first_time(logged_unsupported_, verb))
        log().warn("magma: {} is not supported yet (GL_INVALID_OPERATION)", gen::verb_name(uint16_t(verb)));
}

void MagmaBackend::refuse(gen::Op verb, GLenum e, const char* why) {
    raise_error(e, gen::verb_name(uint16_t(verb)), why);
    if (first_time(logged_refused_, verb))
        log().warn("magma: {} refused: {} (GL error 0x{:04X})", gen::verb_name(uint16_t(verb)), why, e);
}

void MagmaBackend::session_error(const char* verb, const std::string& what) { log().error("magma: {}: {}", verb, what); }

bool MagmaBackend::need_context(gen::Op verb) {
    if (cur_ && !lost()) return true;
    if (!cur_ && first_time(logged_unsupported_, verb))
        log().warn("magma: {} without a current context: ignored", gen::verb_name(uint16_t(verb)));
    return false;
}

// ---- contexts --------------------------------------------------------------------

void MagmaBackend::mglCreateContext(GLuint context, GLuint share, GLint major, GLint minor, GLbitfield flags, GLenum api,
                                    GLbitfield profile) {
    if (context == 0 || contexts_.count(context)) {
        session_error("mglCreateContext", fmt::format("context name {} is 0 or in use", context));
        return;
    }
    if (api != gl::kApiEs && api != gl::kApiDesktop) {
        session_error("mglCreateContext", fmt::format("api {:#x} is neither OpenGL ES nor OpenGL", api));
        return;
    }
    std::shared_ptr<ShareGroup> group;
    if (share) {
        auto it = contexts_.find(share);
        if (it == contexts_.end()) {
            session_error("mglCreateContext", fmt::format("share context {} does not exist", share));
            return;
        }
        group = it->second->share;
    } else {
        group = std::make_shared<ShareGroup>();
    }
    auto c = std::make_unique<Context>(std::move(group));
    c->id = context;
    c->major = major;
    c->api = api;
    // Whatever version is asked, the best one served answers (a superset);
    // the client refuses a request above it (mglGetContextVersion).
    c->profile = api == gl::kApiDesktop ? gl::desktop_profile(profile) : 0;
    c->served = api == gl::kApiDesktop ? kServedDesktop : kServedEs;
    c->extensions = served_extensions(c->api, c->profile, gpu_->dev(), peer_in_process_);
    c->debug = gl::DebugOutput((flags & 1) != 0);  // 1: a debug context (session.fbs)
    contexts_[context] = std::move(c);
}

void MagmaBackend::mglDestroyContext(GLuint context) {
    auto it = contexts_.find(context);
    if (it == contexts_.end()) {
        session_error("mglDestroyContext", fmt::format("context {} does not exist", context));
        return;
    }
    if (it->second.get() == cur_) {
        it->second->doomed = true;
        doomed_contexts_.push_back(std::move(it->second));
    }
    contexts_.erase(it);
}

GLint MagmaBackend::mglGetContextVersion(GLuint context) {
    auto it = contexts_.find(context);
    return it == contexts_.end() ? 0 : GLint(it->second->served);
}

GLenum MagmaBackend::mglCreateImage(GLuint, GLuint, GLenum, GLuint, GLint, GLint, GLboolean) {
    // A GL texture shared by two textures needs one Vulkan image with one
    // layout history referenced by both (and a level offset into it): not
    // built yet. EGL allows refusing any image.
    if (!images_said_) log().warn("magma: EGLImages are not served yet: eglCreateImage fails with EGL_BAD_PARAMETER");
    images_said_ = true;
    return 0x300C;  // EGL_BAD_PARAMETER
}

void MagmaBackend::mglMakeCurrent(GLuint draw, GLuint read, GLuint context) {
    if (gpu_) gpu_->end_pass();
    if (gpu_) gpu_->set_occlusion(nullptr);  // queries are per context: the new one's, below
    open_id_ = nullptr;
    if (context == 0) {
        cur_ = nullptr;
        draw_ = read_ = nullptr;
        api_kind = gen::ApiKind::any;
    } else {
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
        cur_ = ci->second.get();
        // The generated profile checks: verbs outside the context's API,
        // profile and served version are refused before they get here.
        api_kind = gl::api_kind(cur_->api, cur_->profile, cur_->served);
        api_version = uint8_t(cur_->served);
        if (cur_->occlusion) gpu_->set_occlusion(&cur_->occlusion->occ);
        draw_ = d;
        read_ = r;
        cur_->draw = draw;
        cur_->read = read;
        if (d && !cur_->viewport_set) {
            // GL initialises viewport and scissor to the first surface's size.
            cur_->st.viewport[2] = cur_->st.scissor[2] = d->width;
            cur_->st.viewport[3] = cur_->st.scissor[3] = d->height;
            cur_->viewport_set = true;
        }
    }
    auto in_use = [&](const void* p) { return p == cur_ || p == draw_ || p == read_; };
    doomed_contexts_.erase(std::remove_if(doomed_contexts_.begin(), doomed_contexts_.end(),
                                          [&](auto& c) { return !in_use(c.get()); }),
                           doomed_contexts_.end());
    for (auto it = doomed_surfaces_.begin(); it != doomed_surfaces_.end();) {
        if (in_use(it->get())) { ++it; continue; }
        destroy_surface(**it);
        it = doomed_surfaces_.erase(it);
    }
}

GLint MagmaBackend::mglGetString(GLenum name, GLint index, GLsizei bufSize, wire::Out<GLchar> value) {
    if (!cur_) return -1;
    std::string s;
    if (index < 0) {
        switch (name) {
            case GL_VENDOR: s = "MobileGL"; break;
            case GL_RENDERER: s = fmt::format("MobileGL Magma (Vulkan: {})", device_name_); break;
            case GL_VERSION:
                s = cur_->desktop() ? fmt::format("{}.{} MobileGL (Magma on {})", cur_->served / 10, cur_->served % 10, device_name_)
                                    : fmt::format("OpenGL ES {}.{} MobileGL (Magma on {})", cur_->served / 10, cur_->served % 10,
                                                  device_name_);
                break;
            case GL_SHADING_LANGUAGE_VERSION:
                s = cur_->desktop() ? gl::desktop_glsl_version(cur_->served) : "OpenGL ES GLSL ES 3.00";
                break;
            case GL_EXTENSIONS:
                for (const std::string& e : cur_->extensions) s += (s.empty() ? "" : " ") + e;
                break;
            default: return -1;
        }
    } else if (name == GL_EXTENSIONS) {
        if (size_t(index) >= cur_->extensions.size()) return -1;
        s = cur_->extensions[size_t(index)];
    } else {
        return -1;
    }
    if (bufSize > 0 && value.size > 0) {
        const size_t n = std::min({s.size(), size_t(bufSize) - 1, size_t(value.size) - 1});
        std::memcpy(value.data, s.data(), n);
        value.data[n] = 0;
    }
    return GLint(s.size());
}

void MagmaBackend::mglReadBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, wire::Out<GLubyte> data) {
    if (!need_context(gen::Op::mglReadBufferRange) || length <= 0 || offset < 0) return;
    std::shared_ptr<Buffer>* slot = buffer_slot(target);
    if (!slot || !*slot) return;
    Buffer& b = **slot;
    if (uint64_t(offset) + uint64_t(length) > b.size) return;
    // A staged GPU copy into the buffer may be pending: host_bytes waits for it.
    if (const uint8_t* bytes = b.vk.map ? host_bytes(b) : nullptr)
        std::memcpy(data.data, bytes + offset, std::min<uint64_t>(uint64_t(length), data.size));
}

// ---- flush, finish, sync objects --------------------------------------------------------

void MagmaBackend::glFlush() {
    if (gpu_) gpu_->submit(false);
    open_id_ = nullptr;
}

void MagmaBackend::glFinish() {
    if (gpu_) gpu_->submit(true);  // waits for the GPU, not only for the records
    open_id_ = nullptr;
}

void MagmaBackend::glFenceSync(GLenum condition, GLbitfield flags, GLsync result) {
    if (!need_context(gen::Op::glFenceSync)) return;
    cur_->share->syncs[GLuint(uintptr_t(result))] = Sync{gpu_->serial()};
}

GLenum MagmaBackend::glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
    if (!need_context(gen::Op::glClientWaitSync)) return GL_WAIT_FAILED;
    auto it = cur_->share->syncs.find(GLuint(uintptr_t(sync)));
    if (it == cur_->share->syncs.end()) {
        refuse(gen::Op::glClientWaitSync, GL_INVALID_VALUE, "unknown sync");
        return GL_WAIT_FAILED;
    }
    if (gpu_->done(it->second.serial)) return GL_ALREADY_SIGNALED;
    if (it->second.serial < gpu_->serial()) {
        // An earlier batch: submitted already; a wait for all of them is the
        // simple, correct answer until per-batch completion is tracked here.
        gpu_->submit(true);
        open_id_ = nullptr;
        return GL_CONDITION_SATISFIED;
    }
    gpu_->submit(true);
    open_id_ = nullptr;
    return GL_CONDITION_SATISFIED;
}

void MagmaBackend::glDeleteSync(GLsync sync) {
    if (!need_context(gen::Op::glDeleteSync)) return;
    cur_->share->syncs.erase(GLuint(uintptr_t(sync)));
}

GLboolean MagmaBackend::glIsSync(GLsync sync) {
    return need_context(gen::Op::glIsSync) && cur_->share->syncs.count(GLuint(uintptr_t(sync)));
}

void MagmaBackend::glGetSynciv(GLsync sync, GLenum pname, GLsizei count, wire::Out<GLsizei> length,
                               wire::Out<GLint> values) {
    if (!need_context(gen::Op::glGetSynciv)) return;
    GLint v = 0;
    switch (pname) {
        case GL_OBJECT_TYPE: v = GL_SYNC_FENCE; break;
        case GL_SYNC_STATUS:
            gpu_->submit(true);
            open_id_ = nullptr;
            v = GL_SIGNALED;
            break;
        case GL_SYNC_CONDITION: v = GL_SYNC_GPU_COMMANDS_COMPLETE; break;
        case GL_SYNC_FLAGS: v = 0; break;
        default: refuse(gen::Op::glGetSynciv, GL_INVALID_ENUM, "pname"); return;
    }
    if (values.count() >= 1) values.data[0] = v;
    if (length.count() >= 1) length.data[0] = 1;
}

// ---- creation -------------------------------------------------------------------------

bool vulkan_available(std::string* why) { return shared_instance(why) != VK_NULL_HANDLE; }

std::unique_ptr<Magma> create(const Options& options, std::string* why) {
    auto log = options.logger ? options.logger : spdlog::default_logger();
    VkQueue queue = VK_NULL_HANDLE;
    std::shared_ptr<Device> d = open_device(*log, why, &queue);
    if (!d) return nullptr;
    return std::make_unique<MagmaBackend>(options, std::move(d), queue);
}

}  // namespace mgl::magma
