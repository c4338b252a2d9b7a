// GL transform feedback on VK_EXT_transform_feedback: the vertex shader's
// SPIR-V gets the Xfb execution mode and XfbBuffer/XfbStride/Offset
// decorations on the outputs glTransformFeedbackVaryings names (GLSL ES has
// no xfb layout qualifiers, so glslang cannot emit them from the source).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mgl::magma {

// One captured varying, as glGetTransformFeedbackVarying reports it.
struct XfbVarying {
    std::string name;
    uint32_t type = 0;   // GL type enum of one element
    int size = 1;        // array length (1: not an array)
    int buffer = 0;      // GL_TRANSFORM_FEEDBACK_BUFFER index it is written to
    int offset = 0;      // byte offset in that buffer's vertex record
    int bytes = 0;       // bytes it takes there
};

struct XfbLayout {
    std::vector<XfbVarying> varyings;
    bool interleaved = true;  // GL_INTERLEAVED_ATTRIBS, else GL_SEPARATE_ATTRIBS
    int buffers = 0;        // buffers written (1 interleaved, else one per varying)
    int strides[4] = {};    // bytes per vertex in each buffer
};

// The vertex output the translation adds to capture a built-in (the
// wrapper copies gl_Position before it maps clip z for Vulkan, so that what
// is captured is GL's gl_Position): "gl_Position" -> "mgl_xfb_Position".
std::string xfb_builtin_copy(const std::string& builtin);

// Decorates `spv` (a vertex shader) to capture `names` (interleaved into
// buffer 0 when `interleaved`, else buffer i for names[i]) and fills `out`.
// false and `log` (a GL link error) when a name is no output of the shader,
// is repeated, or the limits (4 separate components, 64 interleaved, 4
// buffers) are exceeded.
// The SPIR-V variable of a varying is found by its name, or the name the
// translation gave it (essl_source.h's prefix, xfb_builtin_copy).
bool decorate_xfb(std::vector<uint32_t>& spv, const std::vector<std::string>& names, bool interleaved,
                  XfbLayout& out, std::string& log);

}  // namespace mgl::magma
