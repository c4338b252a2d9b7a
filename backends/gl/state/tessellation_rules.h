// Tessellation's GL rules (GL 4.0, GL_ARB_tessellation_shader), one place for
// every backend that tessellates: the patch state glPatchParameter* sets and
// queries read, the draw's GL_PATCHES rule, and the limits a backend reports
// from its device.
#pragma once

#include <cstdint>

#include "compute_rules.h"  // RuleError, kInvalid*

namespace mgl::gl {

inline constexpr uint32_t kPatches = 0x000E;              // GL_PATCHES
inline constexpr uint32_t kPatchVertices = 0x8E72;        // GL_PATCH_VERTICES
inline constexpr uint32_t kPatchDefaultInner = 0x8E73;    // GL_PATCH_DEFAULT_INNER_LEVEL
inline constexpr uint32_t kPatchDefaultOuter = 0x8E74;    // GL_PATCH_DEFAULT_OUTER_LEVEL
inline constexpr uint32_t kMaxPatchVertices = 0x8E7D;     // GL_MAX_PATCH_VERTICES

// GL 4.6 §10.1.15: the vertices of a patch, and the levels a program
// without a control stage tessellates with.
struct PatchState {
    int vertices = 3;
    float outer[4] = {1, 1, 1, 1};
    float inner[2] = {1, 1};
};

// glPatchParameteri(GL_PATCH_VERTICES, value): 1..GL_MAX_PATCH_VERTICES.
inline RuleError set_patch_vertices(PatchState& s, uint32_t pname, int value, int max_vertices) {
    if (pname != kPatchVertices) return {kInvalidEnum, "pname is not GL_PATCH_VERTICES"};
    if (value <= 0 || value > max_vertices) return {kInvalidValue, "the patch size is not in 1..GL_MAX_PATCH_VERTICES"};
    s.vertices = value;
    return {};
}

// glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL: 4 values, _INNER_LEVEL: 2).
inline RuleError set_patch_levels(PatchState& s, uint32_t pname, const float* values) {
    if (pname == kPatchDefaultOuter) {
        for (int i = 0; i < 4; ++i) s.outer[i] = values[i];
        return {};
    }
    if (pname == kPatchDefaultInner) {
        for (int i = 0; i < 2; ++i) s.inner[i] = values[i];
        return {};
    }
    return {kInvalidEnum, "pname is not a default patch level"};
}

// The patch state's queries (glGetIntegerv/Floatv): false for another pname.
inline bool patch_get(const PatchState& s, uint32_t pname, double out[4], int* count) {
    if (pname == kPatchVertices) {
        out[0] = s.vertices;
        *count = 1;
        return true;
    }
    if (pname == kPatchDefaultOuter || pname == kPatchDefaultInner) {
        const bool outer = pname == kPatchDefaultOuter;
        *count = outer ? 4 : 2;
        for (int i = 0; i < *count; ++i) out[i] = outer ? s.outer[i] : s.inner[i];
        return true;
    }
    return false;
}

// GL 4.6 §10.5 (and §11.2): with an evaluation stage in the program, a draw
// must be of GL_PATCHES; GL_PATCHES without one is an error too.
inline RuleError check_patch_mode(uint32_t mode, bool has_evaluation) {
    if (has_evaluation && mode != kPatches)
        return {kInvalidOperation, "a program with a tessellation evaluation shader draws GL_PATCHES only"};
    if (!has_evaluation && mode == kPatches)
        return {kInvalidOperation, "GL_PATCHES needs a tessellation evaluation shader in the program"};
    return {};
}

// A device's tessellation figures, which the limits below report.
struct TessellationLimits {
    int patch_vertices = 0;         // maxTessellationPatchSize
    int gen_level = 0;              // maxTessellationGenerationLevel
    int control_inputs = 0, control_outputs = 0, control_total_outputs = 0, patch_outputs = 0;
    int evaluation_inputs = 0, evaluation_outputs = 0;
};

// GL_MAX_PATCH_VERTICES, GL_MAX_TESS_*: GL 4.0's minimums where the device
// has at least them (GL's table 23.64 asks 64 tessellation texture units and
// uniform components as the other stages'); false for another pname.
inline bool tessellation_limit(uint32_t pname, const TessellationLimits& l, int64_t* v) {
    auto at_most = [](int device, int gl) { return int64_t(device < gl ? device : gl); };
    switch (pname) {
        case kMaxPatchVertices: *v = l.patch_vertices; return true;
        case 0x8E7E: *v = l.gen_level; return true;                                       // GL_MAX_TESS_GEN_LEVEL
        case 0x8E7F: case 0x8E80: *v = 1024; return true;                                 // GL_MAX_TESS_{CONTROL,EVALUATION}_UNIFORM_COMPONENTS
        case 0x8E81: case 0x8E82: *v = 16; return true;                                   // GL_MAX_TESS_{CONTROL,EVALUATION}_TEXTURE_IMAGE_UNITS
        case 0x8E83: *v = at_most(l.control_outputs, 128); return true;                   // GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS
        case 0x8E84: *v = at_most(l.patch_outputs, 120); return true;                     // GL_MAX_TESS_PATCH_COMPONENTS
        case 0x8E85: *v = at_most(l.control_total_outputs, 4096); return true;            // GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS
        case 0x8E86: *v = at_most(l.evaluation_outputs, 128); return true;                // GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS
        case 0x886C: *v = at_most(l.control_inputs, 128); return true;                    // GL_MAX_TESS_CONTROL_INPUT_COMPONENTS
        case 0x886D: *v = at_most(l.evaluation_inputs, 128); return true;                 // GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS
        case 0x8E89: case 0x8E8A: *v = 12; return true;                                   // GL_MAX_TESS_{CONTROL,EVALUATION}_UNIFORM_BLOCKS
        case 0x8E1E: case 0x8E1F: *v = 1024 + 12 * 16384; return true;                    // GL_MAX_COMBINED_TESS_*_UNIFORM_COMPONENTS
        default: return false;
    }
}

}  // namespace mgl::gl
