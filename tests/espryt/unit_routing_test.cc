// Image units and storage block bindings as desktop GL sets them after link
// (glUniform1i of an image uniform, glShaderStorageBlockBinding), which GLES
// fixes at link: Espryt routes the application's units to the host's around
// a dispatch (backends/espryt/unit_routing.cc). Expected values are GL's:
// each resource writes where the application pointed it, and the unit
// tables answer as the application set them afterwards.
#include <doctest.h>

#include <cstdint>

#include "desktop_harness.h"

using namespace espryt_test;

namespace {

const char* kStorageCs =
    "#version 150\n#extension GL_ARB_compute_shader : require\n"
    "#extension GL_ARB_shader_storage_buffer_object : require\n"
    "layout(local_size_x = 1) in;\n"
    "layout(std430) buffer First { uint first[]; };\n"
    "layout(std430) buffer Second { uint second[]; };\n"
    "void main() { first[0] = 11u; second[0] = 22u; }\n";

const char* kImageCs =
    "#version 150\n#extension GL_ARB_compute_shader : require\n"
    "#extension GL_ARB_shader_image_load_store : require\n"
    "layout(local_size_x = 1) in;\n"
    "layout(r32ui) uniform writeonly uimage2D left;\n"
    "layout(r32ui) uniform writeonly uimage2D right;\n"
    "void main() { imageStore(left, ivec2(0), uvec4(7u)); imageStore(right, ivec2(0), uvec4(9u)); }\n";

GLuint compute_program(Desktop& d, const char* source) { return d.program_of({d.shader(GL_COMPUTE_SHADER, {source})}); }

GLuint storage_buffer(Desktop& d, GLuint binding) {
    const GLuint b = d.next++;
    const uint32_t zero[4] = {};
    d.w.enc.glGenBuffers(1, wire::Blob{&b, 4});
    d.w.enc.glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
    d.w.enc.glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof zero, wire::Blob{zero, sizeof zero}, GL_DYNAMIC_READ);
    d.w.enc.glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, b);
    return b;
}

uint32_t first_word(Desktop& d, GLuint buffer) {
    d.w.enc.glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    uint32_t v = 0xdeadbeef;
    d.w.enc.glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 4, 4);
    gen::read_reply_glGetBufferSubData(d.w.enc.wait_reply(), reinterpret_cast<uint8_t*>(&v), 4);
    return v;
}

GLint indexed(Desktop& d, GLenum target, GLuint index) {
    GLint v = -7;
    d.w.enc.glGetIntegeri_v(target, index, sizeof v);
    gen::read_reply_glGetIntegeri_v(d.w.enc.wait_reply(), &v, sizeof v);
    return v;
}

GLuint r32ui_texture(Desktop& d, GLuint unit) {
    const GLuint t = d.next++;
    d.w.enc.glGenTextures(1, wire::Blob{&t, 4});
    d.w.enc.glBindTexture(GL_TEXTURE_2D, t);
    d.w.enc.glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32UI, 1, 1);
    d.w.enc.glBindImageTexture(unit, t, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32UI);
    return t;
}

// Texel x of row 0 of an R32UI texture, read through a framebuffer (GLES
// reads integer colour buffers as RGBA_INTEGER / UNSIGNED_INT).
uint32_t texel(Desktop& d, GLuint texture, int x = 0) {
    const GLuint fb = d.next++;
    d.w.enc.glGenFramebuffers(1, wire::Blob{&fb, 4});
    d.w.enc.glBindFramebuffer(GL_FRAMEBUFFER, fb);
    d.w.enc.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    uint32_t px[4] = {0xdeadbeef, 0, 0, 0};
    d.w.enc.glReadPixels(x, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 0, sizeof px);
    gen::read_reply_glReadPixels(d.w.enc.wait_reply(), reinterpret_cast<uint8_t*>(px), sizeof px);
    d.w.enc.glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return px[0];
}

}  // namespace

TEST_CASE("desktop context: storage blocks write at the bindings glShaderStorageBlockBinding set after link") {
    DESKTOP_OR_SKIP(d);
    const GLuint p = compute_program(d, kStorageCs);
    REQUIRE(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    GLuint blocks[2] = {};
    for (int i = 0; i < 2; ++i) {
        const char* name = i == 0 ? "First" : "Second";
        d.w.enc.glGetProgramResourceIndex(p, GL_SHADER_STORAGE_BLOCK, wire::Blob{name, uint32_t(std::strlen(name) + 1)});
        gen::read_reply_glGetProgramResourceIndex(d.w.enc.wait_reply(), &blocks[i]);
        REQUIRE(blocks[i] != GL_INVALID_INDEX);
    }
    // Both blocks start at binding 0 (no layout binding), as in GL.
    auto binding_of = [&](GLuint block) {
        const GLenum prop = GL_BUFFER_BINDING;
        GLint v = -7, len = 0;
        d.w.enc.glGetProgramResourceiv(p, GL_SHADER_STORAGE_BLOCK, block, 1, wire::Blob{&prop, 4}, 1, 4, 4);
        gen::read_reply_glGetProgramResourceiv(d.w.enc.wait_reply(), &len, 4, &v, 4);
        return v;
    };
    CHECK(binding_of(blocks[0]) == 0);
    CHECK(binding_of(blocks[1]) == 0);
    const GLuint a = storage_buffer(d, 3), b = storage_buffer(d, 5), unused = storage_buffer(d, 0);
    d.w.enc.glShaderStorageBlockBinding(p, blocks[0], 3);
    d.w.enc.glShaderStorageBlockBinding(p, blocks[1], 5);
    CHECK(binding_of(blocks[0]) == 3);
    CHECK(binding_of(blocks[1]) == 5);
    d.w.enc.glUseProgram(p);
    d.w.enc.glDispatchCompute(1, 1, 1);
    d.w.enc.glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    // The binding tables answer as the application left them.
    CHECK(indexed(d, GL_SHADER_STORAGE_BUFFER_BINDING, 0) == GLint(unused));
    CHECK(indexed(d, GL_SHADER_STORAGE_BUFFER_BINDING, 3) == GLint(a));
    CHECK(indexed(d, GL_SHADER_STORAGE_BUFFER_BINDING, 5) == GLint(b));
    CHECK(first_word(d, a) == 11u);
    CHECK(first_word(d, b) == 22u);
    CHECK(first_word(d, unused) == 0u);
    // Back to binding 0 for both: the last store (the second block's) wins there.
    d.w.enc.glShaderStorageBlockBinding(p, blocks[0], 0);
    d.w.enc.glShaderStorageBlockBinding(p, blocks[1], 0);
    d.w.enc.glDispatchCompute(1, 1, 1);
    d.w.enc.glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const uint32_t both = first_word(d, unused);
    CHECK((both == 11u || both == 22u));
    CHECK(d.w.error() == GL_NO_ERROR);
}

TEST_CASE("desktop context: image uniforms store through the units glUniform1i set after link") {
    DESKTOP_OR_SKIP(d);
    const GLuint p = compute_program(d, kImageCs);
    REQUIRE(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    const GLint left = d.query(&gen::Encoder::glGetUniformLocation, gen::read_reply_glGetUniformLocation, p, "left");
    const GLint right = d.query(&gen::Encoder::glGetUniformLocation, gen::read_reply_glGetUniformLocation, p, "right");
    REQUIRE(left >= 0);
    REQUIRE(right >= 0);
    auto unit_of = [&](GLint location) {
        GLint ret = 0;
        GLuint v[16] = {0xdead};
        d.w.enc.mglGetUniform(p, location, GL_INT, sizeof v);
        gen::read_reply_mglGetUniform(d.w.enc.wait_reply(), &ret, v, sizeof v);
        return GLint(v[0]);
    };
    CHECK(unit_of(left) == 0);
    CHECK(unit_of(right) == 0);
    // Each image at another unit than the host's link gave it.
    const GLuint t2 = r32ui_texture(d, 2), t1 = r32ui_texture(d, 1);
    d.w.enc.glUseProgram(p);
    d.w.enc.glUniform1i(left, 2);
    d.w.enc.glUniform1i(right, 1);
    CHECK(unit_of(left) == 2);
    CHECK(unit_of(right) == 1);
    d.w.enc.glUniform1i(left, 100000);  // past GL_MAX_IMAGE_UNITS
    CHECK(d.w.error() == GL_INVALID_VALUE);
    CHECK(unit_of(left) == 2);
    d.w.enc.glDispatchCompute(1, 1, 1);
    d.w.enc.glMemoryBarrier(GL_ALL_BARRIER_BITS);
    // Unit 0 was never bound by the application: it answers empty with
    // desktop GL's initial format.
    CHECK(indexed(d, GL_IMAGE_BINDING_NAME, 0) == 0);
    CHECK(indexed(d, GL_IMAGE_BINDING_FORMAT, 0) == GL_R8);
    CHECK(indexed(d, GL_IMAGE_BINDING_NAME, 1) == GLint(t1));
    CHECK(indexed(d, GL_IMAGE_BINDING_NAME, 2) == GLint(t2));
    CHECK(texel(d, t2) == 7u);
    CHECK(texel(d, t1) == 9u);
    CHECK(d.w.error() == GL_NO_ERROR);
}

TEST_CASE("desktop context: a texture made with glTexImage2D keeps its texels when an image unit takes it") {
    // GLES binds only immutable textures to image units: Espryt remakes this
    // one (image_units.cc). Its single level under the default mipmap filter
    // is incomplete, which the copy into the new texture must not trip on.
    DESKTOP_OR_SKIP(d);
    const GLuint p = compute_program(d,
                                     "#version 150\n#extension GL_ARB_compute_shader : require\n"
                                     "#extension GL_ARB_shader_image_load_store : require\n"
                                     "layout(local_size_x = 1) in;\n"
                                     "layout(r32ui) uniform uimage2D counter;\n"
                                     "void main() { imageAtomicAdd(counter, ivec2(1, 0), 1u); }\n");
    REQUIRE(d.program_iv(p, GL_LINK_STATUS) == GL_TRUE);
    const GLuint t = d.next++;
    const uint32_t texels[2] = {0xffffffffu, 41u};
    d.w.enc.glGenTextures(1, wire::Blob{&t, 4});
    d.w.enc.glBindTexture(GL_TEXTURE_2D, t);
    d.w.enc.glTexImage2D(GL_TEXTURE_2D, 0, GL_R32UI, 2, 1, 0, GL_RED_INTEGER, GL_UNSIGNED_INT,
                         wire::OffsetOrBlob{0, texels, sizeof texels});
    d.w.enc.glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
    d.w.enc.glUseProgram(p);
    d.w.enc.glDispatchCompute(1, 1, 1);
    d.w.enc.glMemoryBarrier(GL_ALL_BARRIER_BITS);
    CHECK(texel(d, t, 0) == 0xffffffffu);
    CHECK(texel(d, t, 1) == 42u);
    CHECK(d.w.error() == GL_NO_ERROR);
}
