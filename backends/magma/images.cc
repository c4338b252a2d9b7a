// Image load/store (desktop contexts, GL_ARB_shader_image_load_store): the
// image units (glBindImageTexture and their queries) and the storage-image
// descriptor a draw or dispatch binds for an image uniform. GL's rules
// (errors, figures, the format table) are the GL front end's
// (backends/gl/state/image_rules.h). Served: 1D, 2D, rectangle, 1D and 2D
// array (layered or one layer), cube (layered, or one face as 2D) and
// layered 3D textures, with the texture's own format; anything else a
// program asks of an image unit is refused loudly.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include "backend.h"
#include "formats.h"

namespace mgl::magma {

namespace {

// Desktop GL 4.2's names, which the GLES headers lack.
constexpr GLenum kImageBindingName = 0x8F3A, kImageBindingLevel = 0x8F3B, kImageBindingLayered = 0x8F3C,
                 kImageBindingLayer = 0x8F3D, kImageBindingAccess = 0x8F3E, kImageBindingFormat = 0x906E;

// The view an image uniform's type asks for (0: a kind not served yet).
// 1D and rectangle images are 2D ones here: the shader front end lowered
// their SPIR-V (spirv_textures.h) as Magma keeps those textures (objects.h).
VkImageViewType image_view_type(GLenum t) {
    switch (t) {
        case 0x904D: case 0x9058: case 0x9063:                                     // GL_{,INT_,UNSIGNED_INT_}IMAGE_2D
        case 0x904C: case 0x9057: case 0x9062:                                     // ..._IMAGE_1D
        case 0x904F: case 0x905A: case 0x9065: return VK_IMAGE_VIEW_TYPE_2D;       // ..._IMAGE_2D_RECT
        case 0x9053: case 0x905E: case 0x9069:                                     // ..._IMAGE_2D_ARRAY
        case 0x9052: case 0x905D: case 0x9068: return VK_IMAGE_VIEW_TYPE_2D_ARRAY; // ..._IMAGE_1D_ARRAY
        case 0x904E: case 0x9059: case 0x9064: return VK_IMAGE_VIEW_TYPE_3D;       // ..._IMAGE_3D
        case 0x9050: case 0x905B: case 0x9066: return VK_IMAGE_VIEW_TYPE_CUBE;     // ..._IMAGE_CUBE
        default: return VK_IMAGE_VIEW_TYPE_MAX_ENUM;
    }
}

// The texture targets an image uniform's kind reads (GL 4.6 §8.26: the
// unit's texture and the uniform's type must agree): a non-layered unit of
// an array or cube texture is one layer or face, read as the 2D (1D) kind.
bool image_fits(GLenum uniform_type, const Texture& t, bool layered) {
    switch (uniform_type) {
        case 0x904D: case 0x9058: case 0x9063:
            return t.target == GL_TEXTURE_2D ||
                   (!layered && (t.target == GL_TEXTURE_2D_ARRAY || t.target == GL_TEXTURE_CUBE_MAP));
        case 0x904C: case 0x9057: case 0x9062:
            return t.target == GL_TEXTURE_1D || (!layered && t.target == GL_TEXTURE_1D_ARRAY);
        case 0x904F: case 0x905A: case 0x9065: return t.target == GL_TEXTURE_RECTANGLE;
        case 0x9053: case 0x905E: case 0x9069: return t.target == GL_TEXTURE_2D_ARRAY;
        case 0x9052: case 0x905D: case 0x9068: return t.target == GL_TEXTURE_1D_ARRAY;
        case 0x904E: case 0x9059: case 0x9064: return t.target == GL_TEXTURE_3D && layered;
        case 0x9050: case 0x905B: case 0x9066: return t.target == GL_TEXTURE_CUBE_MAP && layered && t.img.cube;
        default: return false;
    }
}

}  // namespace

bool is_image(GLenum t) {
    switch (t) {
        case 0x904C: case 0x904D: case 0x904E: case 0x904F: case 0x9050: case 0x9051: case 0x9052: case 0x9053:
        case 0x9054: case 0x9055: case 0x9056: case 0x9057: case 0x9058: case 0x9059: case 0x905A: case 0x905B:
        case 0x905C: case 0x905D: case 0x905E: case 0x905F: case 0x9060: case 0x9061: case 0x9062: case 0x9063:
        case 0x9064: case 0x9065: case 0x9066: case 0x9067: case 0x9068: case 0x9069: case 0x906A: case 0x906B:
        case 0x906C:
            return true;
        default: return false;
    }
}

gl::ImageLimits image_limits(const Device& d) {
    gl::ImageLimits l;
    // Fragment and compute shaders write images: a compute queue and stores in fragment shaders.
    l.served = d.compute && d.features.fragmentStoresAndAtomics && d.features.shaderStorageImageWriteWithoutFormat &&
               d.props.limits.maxPerStageDescriptorStorageImages >= gl::ImageLimits::kStageUniforms;
    return l;
}

void MagmaBackend::glBindImageTexture(GLuint unit, GLuint texture, GLint level, GLboolean layered, GLint layer,
                                      GLenum access, GLenum format) {
    constexpr gen::Op op = gen::Op::glBindImageTexture;
    if (!need_context(op)) return;
    if (!cur_->desktop() || !image_limits(gpu_->dev()).served) return unsupported(op);
    std::shared_ptr<Texture> tex;
    if (texture) {
        auto it = cur_->share->textures.find(texture);
        if (it != cur_->share->textures.end()) tex = it->second;
    }
    if (const gl::RuleError e = gl::check_bind_image_texture(unit, texture == 0 || tex, level, layer, access, format))
        return refuse(op, e.error, e.why);
    cur_->image_units[unit] = {tex, texture, level, layered != 0, layer, access, format};
}

bool MagmaBackend::image_unit_get(GLenum pname, GLuint index, GLint* v) {
    switch (pname) {
        case kImageBindingName: case kImageBindingLevel: case kImageBindingLayered: case kImageBindingLayer:
        case kImageBindingAccess: case kImageBindingFormat: break;
        default: return false;
    }
    constexpr gen::Op op = gen::Op::glGetIntegeri_v;
    if (!cur_->desktop() || !image_limits(gpu_->dev()).served) {
        refuse(op, GL_INVALID_ENUM, "target");
        return true;
    }
    if (index >= cur_->image_units.size()) {
        refuse(op, GL_INVALID_VALUE, "index >= GL_MAX_IMAGE_UNITS");
        return true;
    }
    const Context::ImageUnit& u = cur_->image_units[index];
    // A deleted texture is unbound from its units (glDeleteTextures).
    *v = pname == kImageBindingName ? GLint(u.tex ? u.name : 0)
       : pname == kImageBindingLevel ? u.level
       : pname == kImageBindingLayered ? GLint(u.layered)
       : pname == kImageBindingLayer ? u.layer
       : pname == kImageBindingAccess ? GLint(u.access) : GLint(u.format);
    return true;
}

bool MagmaBackend::storage_image(gen::Op verb, const UniformInfo& u, int unit, uint32_t element, SampledImage& out) {
    Context& c = *cur_;
    auto fail = [&](const char* why) {
        refuse(verb, GL_INVALID_OPERATION, why);
        return false;
    };
    if (unit < 0 || size_t(unit) >= c.image_units.size()) return fail("an image uniform's unit is not below GL_MAX_IMAGE_UNITS");
    const Context::ImageUnit& iu = c.image_units[size_t(unit)];
    Texture* t = iu.tex.get();
    // GL reads zero from an empty unit and drops its writes; Vulkan needs a
    // real image there: not served yet, so the draw is refused.
    if (!t || !t->img.image) return fail("an image uniform's unit has no texture with an image (not served yet)");
    if (!t->storage) return fail("the texture's format cannot be a storage image on this device");
    TexFormat f;
    if (!desktop_tex_format(iu.format, VK_FORMAT_UNDEFINED, f) || f.vk != t->img.format)
        return fail("an image unit's format other than the texture's own (not served yet)");
    if (iu.level < 0 || uint32_t(iu.level) >= t->img.levels) return fail("an image unit's level is not in the texture");
    const VkImageViewType type = image_view_type(u.type);
    if (type == VK_IMAGE_VIEW_TYPE_MAX_ENUM || !image_fits(u.type, *t, iu.layered))
        return fail("an image uniform of this kind, or on this texture target, is not served yet");
    // Array and cube textures hold their layers (faces) as Vulkan layers: an
    // array or cube uniform on a layered unit binds them all, anything else
    // the unit's one layer (an array uniform then sees an array of one).
    const bool all = iu.layered && (type == VK_IMAGE_VIEW_TYPE_2D_ARRAY || type == VK_IMAGE_VIEW_TYPE_CUBE);
    const uint32_t base_layer = all || t->img.layers == 1 || t->target == GL_TEXTURE_3D ? 0 : uint32_t(iu.layer);
    const uint32_t layers = all ? t->img.layers : 1;
    if (base_layer + layers > t->img.layers) return fail("an image unit's layer is not in the texture");
    // Storage views live with the attachment views (destroyed with the image):
    // bit 63 and the view type tell them apart.
    const uint64_t key = (uint64_t(1) << 63) | (uint64_t(type) << 56) | (uint64_t(uint32_t(iu.level)) << 32) |
                         (uint64_t(layers) << 16) | base_layer;
    VkImageView& view = t->attach_views[key];
    if (!view) view = gpu_->create_view(t->img, type, uint32_t(iu.level), 1, base_layer, layers);
    if (!view) return fail("Vulkan refused the storage image view");
    out = SampledImage{uint32_t(u.binding), element, view, VK_NULL_HANDLE, &t->img, true};
    return true;
}

}  // namespace mgl::magma
