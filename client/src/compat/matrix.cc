// Mesa-compatible matrix arithmetic (see matrix.h for why it must match).
#include "compat/matrix.h"

#include <cmath>
#include <atomic>
#include <cstring>

namespace mgl::client::compat {

namespace {
constexpr float kIdentity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
#define M(m, row, col) (m)[(col) * 4 + (row)]

std::atomic<uint64_t> g_serial{0};
uint64_t next_serial() { return ++g_serial; }

// A general inverse (cofactors). Mesa uses Gaussian elimination here; the
// results may differ in the last bit for such matrices (projective or skewed
// modelviews are rare under lighting).
bool invert_general(const float* in, float* out) {
    double inv[16], det;
    const float* m = in;
    inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
    inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
    inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
    inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
    inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
    inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
    inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
    inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
    inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
    inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
    inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
    inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
    inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
    inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
    inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
    inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] - m[8] * m[2] * m[5];
    det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    if (det == 0) return false;
    for (int i = 0; i < 16; ++i) out[i] = float(inv[i] / det);
    return true;
}
}  // namespace

void mat_mul(float out[16], const float* a, const float* b) {
    float p[16];
    for (int i = 0; i < 4; i++) {
        const float ai0 = M(a, i, 0), ai1 = M(a, i, 1), ai2 = M(a, i, 2), ai3 = M(a, i, 3);
        M(p, i, 0) = ai0 * M(b, 0, 0) + ai1 * M(b, 1, 0) + ai2 * M(b, 2, 0) + ai3 * M(b, 3, 0);
        M(p, i, 1) = ai0 * M(b, 0, 1) + ai1 * M(b, 1, 1) + ai2 * M(b, 2, 1) + ai3 * M(b, 3, 1);
        M(p, i, 2) = ai0 * M(b, 0, 2) + ai1 * M(b, 1, 2) + ai2 * M(b, 2, 2) + ai3 * M(b, 3, 2);
        M(p, i, 3) = ai0 * M(b, 0, 3) + ai1 * M(b, 1, 3) + ai2 * M(b, 2, 3) + ai3 * M(b, 3, 3);
    }
    std::memcpy(out, p, sizeof p);
}

void Mat::identity() {
    std::memcpy(m, kIdentity, sizeof m);
    flags = 0;
    serial = 0;
}

void Mat::load(const float* v) {
    std::memcpy(m, v, sizeof m);
    flags = kMatGeneral;
    serial = next_serial();
}

void Mat::mult(const float* v, uint32_t f) {
    flags |= f;
    mat_mul(m, m, v);
    serial = next_serial();
}

void Mat::rotate(float angle, float x, float y, float z) {
    if (angle == 0.0F) return;  // _mesa_Rotatef
    const float s = sinf(float(angle * M_PI / 180.0));
    const float c = cosf(float(angle * M_PI / 180.0));
    float r[16];
    std::memcpy(r, kIdentity, sizeof r);
    bool optimized = false;
    if (x == 0.0F) {
        if (y == 0.0F) {
            if (z != 0.0F) {
                optimized = true;
                M(r, 0, 0) = c;
                M(r, 1, 1) = c;
                if (z < 0.0F) M(r, 0, 1) = s, M(r, 1, 0) = -s;
                else M(r, 0, 1) = -s, M(r, 1, 0) = s;
            }
        } else if (z == 0.0F) {
            optimized = true;
            M(r, 0, 0) = c;
            M(r, 2, 2) = c;
            if (y < 0.0F) M(r, 0, 2) = -s, M(r, 2, 0) = s;
            else M(r, 0, 2) = s, M(r, 2, 0) = -s;
        }
    } else if (y == 0.0F) {
        if (z == 0.0F) {
            optimized = true;
            M(r, 1, 1) = c;
            M(r, 2, 2) = c;
            if (x < 0.0F) M(r, 1, 2) = s, M(r, 2, 1) = -s;
            else M(r, 1, 2) = -s, M(r, 2, 1) = s;
        }
    }
    if (!optimized) {
        const float mag = sqrtf(x * x + y * y + z * z);
        if (mag <= 1.0e-4F) return;
        x /= mag, y /= mag, z /= mag;
        const float xx = x * x, yy = y * y, zz = z * z, xy = x * y, yz = y * z, zx = z * x;
        const float xs = x * s, ys = y * s, zs = z * s, one_c = 1.0F - c;
        M(r, 0, 0) = (one_c * xx) + c;
        M(r, 0, 1) = (one_c * xy) - zs;
        M(r, 0, 2) = (one_c * zx) + ys;
        M(r, 1, 0) = (one_c * xy) + zs;
        M(r, 1, 1) = (one_c * yy) + c;
        M(r, 1, 2) = (one_c * yz) - xs;
        M(r, 2, 0) = (one_c * zx) - ys;
        M(r, 2, 1) = (one_c * yz) + xs;
        M(r, 2, 2) = (one_c * zz) + c;
    }
    mult(r, kMatRotation);
}

void Mat::translate(float x, float y, float z) {
    m[12] = m[0] * x + m[4] * y + m[8] * z + m[12];
    m[13] = m[1] * x + m[5] * y + m[9] * z + m[13];
    m[14] = m[2] * x + m[6] * y + m[10] * z + m[14];
    m[15] = m[3] * x + m[7] * y + m[11] * z + m[15];
    flags |= kMatTranslation;
    serial = next_serial();
}

void Mat::scale(float x, float y, float z) {
    m[0] *= x, m[4] *= y, m[8] *= z;
    m[1] *= x, m[5] *= y, m[9] *= z;
    m[2] *= x, m[6] *= y, m[10] *= z;
    m[3] *= x, m[7] *= y, m[11] *= z;
    if (fabsf(x - y) < 1e-8F && fabsf(x - z) < 1e-8F) flags |= kMatUniformScale;
    else flags |= kMatGeneralScale;
    serial = next_serial();
}

void Mat::frustum(float l, float r, float b, float t, float n, float f) {
    const float x = (2.0F * n) / (r - l), y = (2.0F * n) / (t - b);
    const float a = (r + l) / (r - l), bb = (t + b) / (t - b);
    const float c = -(f + n) / (f - n), d = -(2.0F * f * n) / (f - n);
    float p[16] = {};
    M(p, 0, 0) = x, M(p, 0, 2) = a;
    M(p, 1, 1) = y, M(p, 1, 2) = bb;
    M(p, 2, 2) = c, M(p, 2, 3) = d;
    M(p, 3, 2) = -1.0F;
    mult(p, kMatPerspective);
}

void Mat::ortho(float l, float r, float b, float t, float n, float f) {
    float p[16] = {};
    M(p, 0, 0) = 2.0F / (r - l);
    M(p, 0, 3) = -(r + l) / (r - l);
    M(p, 1, 1) = 2.0F / (t - b);
    M(p, 1, 3) = -(t + b) / (t - b);
    M(p, 2, 2) = -2.0F / (f - n);
    M(p, 2, 3) = -(f + n) / (f - n);
    M(p, 3, 3) = 1.0F;
    mult(p, kMatGeneralScale | kMatTranslation);
}

void Mat::inverse(float out[16]) const {
    std::memcpy(out, kIdentity, 16 * sizeof(float));
    if (flags == 0) return;
    const float* in = m;
    if (flags & (kMatGeneral | kMatPerspective)) {
        if (!invert_general(in, out)) std::memcpy(out, kIdentity, 16 * sizeof(float));
        return;
    }
    if (!(flags & (kMatRotation))) {
        // Mesa's invert_matrix_3d_no_rot: scales and translations only.
        M(out, 0, 0) = 1.0F / M(in, 0, 0);
        M(out, 1, 1) = 1.0F / M(in, 1, 1);
        M(out, 2, 2) = 1.0F / M(in, 2, 2);
        if (flags & kMatTranslation) {
            M(out, 0, 3) = -(M(in, 0, 3) * M(out, 0, 0));
            M(out, 1, 3) = -(M(in, 1, 3) * M(out, 1, 1));
            M(out, 2, 3) = -(M(in, 2, 3) * M(out, 2, 2));
        }
        return;
    }
    if (flags & kMatGeneralScale) {  // not angle preserving: Mesa's invert_matrix_3d_general
        if (!invert_general(in, out)) std::memcpy(out, kIdentity, 16 * sizeof(float));
        return;
    }
    // Mesa's invert_matrix_3d: rotation (and uniform scale): the transpose.
    float scale = 1.0F;
    if (flags & kMatUniformScale) {
        scale = M(in, 0, 0) * M(in, 0, 0) + M(in, 0, 1) * M(in, 0, 1) + M(in, 0, 2) * M(in, 0, 2);
        if (scale == 0.0F) return;
        scale = 1.0F / scale;
    }
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) M(out, r, c) = (flags & kMatUniformScale) ? scale * M(in, c, r) : M(in, c, r);
    if (flags & kMatTranslation) {
        M(out, 0, 3) = -(M(in, 0, 3) * M(out, 0, 0) + M(in, 1, 3) * M(out, 0, 1) + M(in, 2, 3) * M(out, 0, 2));
        M(out, 1, 3) = -(M(in, 0, 3) * M(out, 1, 0) + M(in, 1, 3) * M(out, 1, 1) + M(in, 2, 3) * M(out, 1, 2));
        M(out, 2, 3) = -(M(in, 0, 3) * M(out, 2, 0) + M(in, 1, 3) * M(out, 2, 1) + M(in, 2, 3) * M(out, 2, 2));
    }
}

#undef M
}  // namespace mgl::client::compat
