// Matrices of the fixed-function pipeline, computed on the client as Mesa's
// m_matrix.c computes them (same float operations in the same order, the
// same flags, the same inverse for each kind of matrix), so that a lowered
// draw puts the same numbers into the shader that a native Mesa driver
// would: the traces are compared with native pixel for pixel.
#pragma once

#include <cstdint>

namespace mgl::client::compat {

enum MatFlag : uint32_t {
    kMatGeneral = 1,
    kMatRotation = 2,
    kMatTranslation = 4,
    kMatUniformScale = 8,
    kMatGeneralScale = 16,
    kMatPerspective = 32,
};

struct Mat {
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // column-major, as GL
    uint32_t flags = 0;
    // Names this value: every change takes a new number from one counter,
    // so equal serials mean equal matrices (a popped matrix gets its old
    // number back with its old value). 0: the initial identity. The
    // built-in uniforms of an application's program are re-sent when the
    // serials they come from change (program_builtins.cc).
    uint64_t serial = 0;

    void identity();
    void load(const float* v);  // glLoadMatrix: a general matrix
    void mult(const float* v, uint32_t flags);  // this = this * v
    void rotate(float angle, float x, float y, float z);
    void translate(float x, float y, float z);
    void scale(float x, float y, float z);
    void frustum(float l, float r, float b, float t, float n, float f);
    void ortho(float l, float r, float b, float t, float n, float f);

    // Only rotations and translations: lengths are kept (Mesa lights in
    // object space then).
    bool length_preserving() const { return (flags & ~(kMatRotation | kMatTranslation)) == 0; }
    // The inverse, by the same method Mesa picks for this matrix's flags.
    void inverse(float out[16]) const;
};

// out = a * b (Mesa's matmul4).
void mat_mul(float out[16], const float* a, const float* b);

}  // namespace mgl::client::compat
