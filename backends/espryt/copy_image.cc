// glCopyImageSubData (GL 4.3, ARB_copy_image; GLES 3.2 and its EXT/OES
// forms): its names are textures or renderbuffers as each side's target
// says, so they are mapped here rather than by the generated pass-through
// (which cannot tell the namespace from the signature). On a desktop
// context the lowered targets are copied as what the host holds
// (backends/gl/state/texture_targets.h): a 1D or rectangle texture as a 2D
// one, a 1D array as a 2D array of height 1 (GL counts a 1D array's layers
// in z for this verb, as the host's 2D array does).
#include <GLES3/gl32.h>

#include "backend.h"
#include "state/texture_targets.h"

namespace mgl::espryt {

void EsprytBackend::copy_image(gen::Op op, GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY,
                               GLint srcZ, GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX, GLint dstY,
                               GLint dstZ, GLsizei width, GLsizei height, GLsizei depth) {
    // A side's host name and target: GL_RENDERBUFFER names a renderbuffer,
    // any other target a texture (the host checks that it is that target's).
    auto side = [&](GLuint name, GLenum target, GLuint* host, GLenum* host_target) {
        const Kind kind = target == GL_RENDERBUFFER ? Kind::renderbuffer : Kind::texture;
        if (!to_host(kind, name, *host)) {
            raise_error(GL_INVALID_VALUE, gen::verb_name(uint16_t(op)), "not a texture or renderbuffer of this target");
            return false;
        }
        const gl::Lowered k = lowered(target);
        *host_target = k == gl::Lowered::none ? target : gl::device_target(k);
        // A lowered texture shares the host's 2D targets: the pair is
        // checked against the target it was created with.
        if (kind == Kind::texture && *host && cur_->desktop()) {
            const auto made = cur_->share->lowered_kinds.find(*host);
            const gl::Lowered was = made == cur_->share->lowered_kinds.end() ? gl::Lowered::none : gl::Lowered(made->second);
            if (was != k) {
                raise_error(GL_INVALID_ENUM, gen::verb_name(uint16_t(op)), "the target is not the texture's");
                return false;
            }
        }
        return true;
    };
    GLuint src = 0, dst = 0;
    GLenum src_target = 0, dst_target = 0;
    if (!side(srcName, srcTarget, &src, &src_target) || !side(dstName, dstTarget, &dst, &dst_target)) return;
    // The pass-through of the form the application called (qualified: not
    // this class's override), which checks that the host has it.
    if (op == gen::Op::glCopyImageSubDataEXT)
        EsprytGenerated::glCopyImageSubDataEXT(src, src_target, srcLevel, srcX, srcY, srcZ, dst, dst_target, dstLevel,
                                               dstX, dstY, dstZ, width, height, depth);
    else if (op == gen::Op::glCopyImageSubDataOES)
        EsprytGenerated::glCopyImageSubDataOES(src, src_target, srcLevel, srcX, srcY, srcZ, dst, dst_target, dstLevel,
                                               dstX, dstY, dstZ, width, height, depth);
    else
        EsprytGenerated::glCopyImageSubData(src, src_target, srcLevel, srcX, srcY, srcZ, dst, dst_target, dstLevel, dstX,
                                            dstY, dstZ, width, height, depth);
}

void EsprytBackend::glCopyImageSubData(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY,
                                       GLint srcZ, GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX,
                                       GLint dstY, GLint dstZ, GLsizei srcWidth, GLsizei srcHeight, GLsizei srcDepth) {
    copy_image(gen::Op::glCopyImageSubData, srcName, srcTarget, srcLevel, srcX,
               srcY, srcZ, dstName, dstTarget, dstLevel, dstX, dstY, dstZ, srcWidth, srcHeight, srcDepth);
}

void EsprytBackend::glCopyImageSubDataEXT(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY,
                                          GLint srcZ, GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX,
                                          GLint dstY, GLint dstZ, GLsizei srcWidth, GLsizei srcHeight,
                                          GLsizei srcDepth) {
    copy_image(gen::Op::glCopyImageSubDataEXT, srcName, srcTarget, srcLevel,
               srcX, srcY, srcZ, dstName, dstTarget, dstLevel, dstX, dstY, dstZ, srcWidth, srcHeight, srcDepth);
}

void EsprytBackend::glCopyImageSubDataOES(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY,
                                          GLint srcZ, GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX,
                                          GLint dstY, GLint dstZ, GLsizei srcWidth, GLsizei srcHeight,
                                          GLsizei srcDepth) {
    copy_image(gen::Op::glCopyImageSubDataOES, srcName, srcTarget, srcLevel,
               srcX, srcY, srcZ, dstName, dstTarget, dstLevel, dstX, dstY, dstZ, srcWidth, srcHeight, srcDepth);
}

}  // namespace mgl::espryt
