// GLfixed arguments of the fixed-point verbs (GL_OES_fixed_point, OpenGL ES
// 1.1's `x` verbs), converted for their float counterparts. The generated
// entry points (codegen/emit_client.cc, emit_fixed_body) call these and then
// the counterpart: glTranslatex(x, y, z) is glTranslatef(x/65536, ...).
//
// ES 1.1 §2.1.2 scales a fixed value by 2^-16, except where the value names
// an enum or a boolean (glTexEnvx(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE,
// GL_MODULATE), glFogx(GL_FOG_MODE, GL_LINEAR)): those pass unscaled, as they
// do through glGetFixedv and the other fixed queries.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace mgl::client::es1 {

// Whether `pname`'s value is an enum, a boolean or an integer count, which
// a fixed-point verb passes unscaled (fixed_rules.cc).
bool enum_valued(uint32_t pname);

inline double from_fixed(int32_t x) { return double(x) / 65536.0; }
inline double fixed_param(uint32_t pname, int32_t x) { return enum_valued(pname) ? double(x) : from_fixed(x); }

// A float scaled by 2^16 to fixed point, saturated (ES 1.1 §6.1.2), or an
// enum or integer value as it is.
inline int32_t to_fixed(uint32_t pname, double v) {
    const double s = enum_valued(pname) ? v : v * 65536.0;
    if (std::isnan(s)) return 0;
    if (s >= double(std::numeric_limits<int32_t>::max())) return std::numeric_limits<int32_t>::max();
    if (s <= double(std::numeric_limits<int32_t>::min())) return std::numeric_limits<int32_t>::min();
    return int32_t(s);
}

// Room for the counterpart's array: 16 values inline (matrices, the
// largest light and texture parameters), more on the heap.
template <typename D>
class Buffer {
public:
    explicit Buffer(int64_t n) {
        if (n > int64_t(small_.size())) big_.assign(size_t(n), D{});
        p_ = big_.empty() ? small_.data() : big_.data();
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    D* data() const { return p_; }

private:
    mutable std::array<D, 16> small_{};
    std::vector<D> big_;
    D* p_;
};

// An input array: `n` values of the application's (n < 0: the counterpart
// refuses the pname itself, nothing is read).
template <typename D>
class Converted : public Buffer<D> {
public:
    template <typename S>
    Converted(const S* src, int64_t n, uint32_t pname) : Buffer<D>(n) {
        if (!src) return;
        for (int64_t i = 0; i < n; ++i) {
            if constexpr (std::is_integral_v<S>) this->data()[i] = D(fixed_param(pname, src[i]));
            else this->data()[i] = D(src[i]);
        }
    }
};

// An output array. How many values the counterpart writes is its own
// business (the compatibility lowering answers matrices, lights and fog
// itself): the buffer starts filled with a NaN no GL query returns, and
// store() converts the values up to the last one the counterpart wrote.
template <typename D>
class Returned : public Buffer<D> {
public:
    explicit Returned(int64_t n) : Buffer<D>(size_of(n)), n_(size_of(n)) {
        for (int64_t i = 0; i < n_; ++i) this->data()[i] = sentinel();
    }
    template <typename S>
    void store(S* out, uint32_t pname) const {
        if (!out) return;
        int64_t written = n_;
        while (written > 0 && is_sentinel(this->data()[written - 1])) --written;
        for (int64_t i = 0; i < written; ++i) {
            if constexpr (std::is_integral_v<S>) out[i] = S(to_fixed(pname, double(this->data()[i])));
            else out[i] = S(this->data()[i]);
        }
    }

private:
    static int64_t size_of(int64_t n) { return n > 64 ? n : 64; }
    static D sentinel() {
        D d;
        if constexpr (sizeof(D) == 4) {
            const uint32_t bits = 0x7FA5A5A5u;
            std::memcpy(&d, &bits, 4);
        } else {
            const uint64_t bits = 0x7FF5A5A5A5A5A5A5ull;
            std::memcpy(&d, &bits, 8);
        }
        return d;
    }
    static bool is_sentinel(D v) {
        const D s = sentinel();
        return std::memcmp(&v, &s, sizeof(D)) == 0;
    }
    int64_t n_;
};

}  // namespace mgl::client::es1
