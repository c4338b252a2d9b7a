// Desktop texture storage that GLES only has in another shape, mapped onto
// the host's verbs.
#include <GLES3/gl32.h>

#include <spdlog/spdlog.h>

#include "backend.h"
#include "context/sized_formats.h"

namespace mgl::espryt {

// The texture bound to `target` on the current unit gets storage that GLES
// makes immutable. Desktop glTexImage*Multisample may respecify a texture;
// GLES storage cannot be, so a texture that has storage already gets a fresh
// host texture under the same client name (respecifying discards the old
// contents in GL too). A framebuffer attachment of the old storage is not
// carried over to the new one: said in the log. False (and a GL error) when
// there is nothing to give storage to.
bool EsprytBackend::fresh_storage(gen::Op op, GLenum target, GLenum binding) {
    GLint host = 0;
    host_gl.glGetIntegerv(binding, &host);
    if (host == 0) {
        refuse(op, GL_INVALID_OPERATION, "no texture bound (GLES has no default multisample texture storage)");
        return false;
    }
    GLint immutable = GL_FALSE;
    host_gl.glGetTexParameteriv(target, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    if (!immutable) return true;
    NameMap& names = *cur_->maps[int(Kind::texture)];
    const uint32_t client = names.to_client(uint32_t(host));
    GLuint fresh = 0;
    host_gl.glGenTextures(1, &fresh);
    host_gl.glBindTexture(target, fresh);
    if (client != 0) names.set(client, fresh);
    GLuint old = GLuint(host);
    cur_->share->storage.release(Kind::texture, old);  // its storage goes back to the session's budget
    host_gl.glDeleteTextures(1, &old);
    log().debug("espryt: {} respecified texture {}: a new host texture takes its name (framebuffer "
                   "attachments of the old storage are not carried over)",
                   gen::verb_name(uint16_t(op)), client);
    return true;
}

void EsprytBackend::glTexImage2DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                                            GLsizei height, GLboolean fixedsamplelocations) {
    constexpr gen::Op op = gen::Op::glTexImage2DMultisample;
    if (!cur_ || !cur_->desktop()) return unavailable(op);
    if (proxy_specify({gl::ProxyRequest::Verb::multisample, target, 2, 0, internalformat, width, height, 1, 0, 0, 0, samples,
                       fixedsamplelocations != 0}))
        return;
    if (target != GL_TEXTURE_2D_MULTISAMPLE)
        return refuse(op, GL_INVALID_ENUM, "target is not GL_TEXTURE_2D_MULTISAMPLE");
    if (!fresh_storage(op, target, GL_TEXTURE_BINDING_2D_MULTISAMPLE)) return;
    EsprytGenerated::glTexStorage2DMultisample(target, samples, gl::sized_renderable_format(internalformat), width, height, fixedsamplelocations);
}

void EsprytBackend::glTexImage3DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                                            GLsizei height, GLsizei depth, GLboolean fixedsamplelocations) {
    constexpr gen::Op op = gen::Op::glTexImage3DMultisample;
    if (!cur_ || !cur_->desktop()) return unavailable(op);
    if (proxy_specify({gl::ProxyRequest::Verb::multisample, target, 3, 0, internalformat, width, height, depth, 0, 0, 0, samples,
                       fixedsamplelocations != 0}))
        return;
    if (target != GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
        return refuse(op, GL_INVALID_ENUM, "target is not GL_TEXTURE_2D_MULTISAMPLE_ARRAY");
    if (!fresh_storage(op, target, GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY)) return;
    EsprytGenerated::glTexStorage3DMultisample(target, samples, gl::sized_renderable_format(internalformat), width, height, depth,
                                               fixedsamplelocations);
}

}  // namespace mgl::espryt
