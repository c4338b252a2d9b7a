// Reply sizes that only the server knows: a texture level's, for the verbs
// whose reply is a whole level (glGetTexImage), and a uniform block's
// member count, for its member indices.
#include "custom/common.h"

namespace mgl::client {

int64_t cs_tex_level_image(Context& ctx, GLenum target, GLint level, GLenum format, GLenum type) {
    constexpr GLenum kPnames[3] = {GL_TEXTURE_WIDTH, GL_TEXTURE_HEIGHT, GL_TEXTURE_DEPTH};
    GLint size[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        ctx.enc->glGetTexLevelParameteriv(target, level, kPnames[i], uint32_t(sizeof(GLint)));
        const std::span<const uint8_t> rep = wait(ctx);
        if (!gen::read_reply_glGetTexLevelParameteriv(rep, &size[i], uint32_t(sizeof(GLint)))) {
            reply_failed(ctx, "glGetTexImage", rep);
            return kBadValue;
        }
    }
    // An invalid target or level leaves the sizes 0: nothing is read, and the
    // server raises the error.
    return cs_image(ctx, true, false, format, type, size[0], int64_t(size[1]) * int64_t(size[2]), 1);
}

int64_t cs_uniform_block(Context& ctx, GLuint program, GLuint block, GLenum pname) {
    if (pname != GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES)
        return cs_pname(ctx, gen::Op::glGetActiveUniformBlockiv, pname);
    // An invalid program or block leaves the count 0: no indices are read,
    // and the server raises the error (again) for the query itself.
    GLint members = 0;
    ctx.enc->glGetActiveUniformBlockiv(program, block, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, uint32_t(sizeof(GLint)));
    const std::span<const uint8_t> rep = wait(ctx);
    if (!gen::read_reply_glGetActiveUniformBlockiv(rep, &members, uint32_t(sizeof(GLint)))) {
        reply_failed(ctx, "glGetActiveUniformBlockiv", rep);
        return kBadValue;
    }
    return std::max<GLint>(members, 0);
}

}  // namespace mgl::client
