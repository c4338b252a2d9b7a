// Helpers used by the generated decoders: checked array extraction, length
// arithmetic that cannot overflow, and error reporting off the hot path.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "mgl/wire/decoder.h"
#include "mgl/wire/record.h"

namespace mgl::wire {

// Out of line so that the hot path carries no string building.
[[gnu::cold]] bool fail(DecodeError& e, DecodeStatus s, uint16_t op, const char* verb, const char* what);

// Takes `bytes` bytes at `cur` if they lie inside the record and are whole
// elements; advances `cur` past their 8-byte padding.
inline bool take_array(const uint8_t* r, uint32_t size, uint64_t& cur, uint32_t bytes, uint32_t elem, const uint8_t*& out) {
    if (cur > size || uint64_t(bytes) > size - cur || bytes % elem) return false;
    out = r + cur;
    cur += pad8(bytes);
    return true;
}

// Evaluates a length expression over the record's arguments: any negative
// argument or intermediate overflow is latched, never wrapped.
struct LenCalc {
    bool negative = false;
    bool overflow = false;
    bool ok() const { return !negative && !overflow; }
    DecodeStatus status() const { return negative ? DecodeStatus::negative_count : DecodeStatus::overflow; }

    template <class T>
    int64_t val(T v) {
        if constexpr (std::is_signed_v<T>) {
            if (v < 0) { negative = true; return 0; }
            return int64_t(v);
        } else {
            if (uint64_t(v) > uint64_t(std::numeric_limits<int64_t>::max())) { overflow = true; return 0; }
            return int64_t(v);
        }
    }
    int64_t mul(int64_t a, int64_t b) {
        int64_t r;
        if (__builtin_mul_overflow(a, b, &r)) { overflow = true; return 0; }
        return r;
    }
    int64_t add(int64_t a, int64_t b) {
        int64_t r;
        if (__builtin_add_overflow(a, b, &r)) { overflow = true; return 0; }
        return r;
    }
    int64_t sub(int64_t a, int64_t b) {
        int64_t r;
        if (__builtin_sub_overflow(a, b, &r) || r < 0) { negative = true; return 0; }
        return r;
    }
    int64_t div(int64_t a, int64_t b) {
        if (b == 0) { overflow = true; return 0; }
        return a / b;
    }
};

// The array holds at least `n` elements of `elem` bytes (what the backend
// will read). `skip`: the argument is an offset, there are no bytes to check.
inline bool len_fits(const LenCalc& calc, int64_t n, uint32_t elem, uint32_t bytes, bool skip, DecodeError& e,
                     uint16_t op, const char* verb, const char* what) {
    if (!calc.ok()) return fail(e, calc.status(), op, verb, what);
    if (skip) return true;
    if (n > int64_t(std::numeric_limits<uint32_t>::max() / elem)) return fail(e, DecodeStatus::overflow, op, verb, what);
    if (uint64_t(n) * elem > bytes) return fail(e, DecodeStatus::bad_length, op, verb, what);
    return true;
}

inline bool cstring_ok(const uint8_t* p, uint32_t bytes) { return bytes > 0 && p[bytes - 1] == 0; }

// Copies a string argument out of the record into the session's private
// memory (see Dispatch::private_strings) and returns the copy.
inline const uint8_t* private_copy(Dispatch& d, unsigned slot, const uint8_t* p, uint32_t bytes) {
    std::vector<uint8_t>& v = d.private_strings[slot];
    v.assign(p, p + bytes);
    return v.data();
}

// Splits NUL-terminated strings laid back to back; `expected` < 0: any count.
bool split_strings(Dispatch& d, const uint8_t* p, uint32_t bytes, int64_t expected, Strings& out);

// Opens the reply of a sync verb (zeroed, header written).
bool open_reply(Dispatch& d, uint16_t op, uint64_t size, uint8_t*& out, DecodeError& e, const char* verb);
inline void close_reply(Dispatch& d) {
    d.replies->end_reply();
    ++d.sync_replies;
}

}  // namespace mgl::wire
