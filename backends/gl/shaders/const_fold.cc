#include "const_fold.h"

#include "glsl_lift.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace mgl::gl {

namespace {

// ---- values ----

enum class Base : uint8_t { f, i, u, b };

// A scalar (1x1), a vector (1xN) or a matrix (C columns of R rows, column-major).
struct Value {
    Base base = Base::f;
    int cols = 1, rows = 1;
    double v[16] = {};
    int size() const { return cols * rows; }
    bool scalar() const { return cols == 1 && rows == 1; }
    bool matrix() const { return cols > 1; }
    bool same_type(const Value& o) const { return base == o.base && cols == o.cols && rows == o.rows; }
};

struct NotConstant {};  // thrown: not a constant this file evaluates (the text is left as it is)
[[noreturn]] void give_up() { throw NotConstant{}; }

// A result as GLSL's type keeps it: floats rounded to single precision,
// integers wrapped to 32 bits. NaN and infinities are left to glslang.
double keep(Base b, double x) {
    if (!std::isfinite(x)) give_up();
    switch (b) {
        case Base::f: {
            const float f = float(x);
            if (!std::isfinite(f)) give_up();
            return double(f);
        }
        case Base::i:
            if (std::fabs(x) > 9e18) give_up();
            return double(int32_t(uint32_t(uint64_t(int64_t(x)))));
        case Base::u:
            if (std::fabs(x) > 9e18) give_up();
            return double(uint32_t(uint64_t(int64_t(x))));
        case Base::b: return x != 0 ? 1 : 0;
    }
    return x;
}

Value make(Base b, int cols, int rows) {
    Value r;
    r.base = b;
    r.cols = cols;
    r.rows = rows;
    return r;
}

Value scalar(Base b, double x) {
    Value r = make(b, 1, 1);
    r.v[0] = keep(b, x);
    return r;
}

// ---- tokens ----

struct Token {
    enum Kind { ident, number, op, end } kind = end;
    std::string text;
};

std::vector<Token> tokenize(const std::string& s) {
    std::vector<Token> out;
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) give_up();
        if (c == '#') give_up();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            size_t e = i;
            while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_')) ++e;
            out.push_back({Token::ident, s.substr(i, e - i)});
            i = e;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            size_t e = i;
            if (c == '0' && e + 1 < s.size() && (s[e + 1] == 'x' || s[e + 1] == 'X')) {
                e += 2;
                while (e < s.size() && std::isxdigit(static_cast<unsigned char>(s[e]))) ++e;
            } else {
                while (e < s.size() && (std::isdigit(static_cast<unsigned char>(s[e])) || s[e] == '.')) ++e;
                if (e < s.size() && (s[e] == 'e' || s[e] == 'E')) {
                    ++e;
                    if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
                    while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
                }
            }
            while (e < s.size() && std::isalpha(static_cast<unsigned char>(s[e]))) ++e;  // u, f, lf
            out.push_back({Token::number, s.substr(i, e - i)});
            i = e;
            continue;
        }
        static const char* const kTwo[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "++", "--"};
        bool two = false;
        for (const char* t : kTwo)
            if (s.compare(i, 2, t) == 0) {
                if (t[0] == t[1] && (t[0] == '+' || t[0] == '-')) give_up();  // ++/-- are not constant
                out.push_back({Token::op, t});
                i += 2;
                two = true;
                break;
            }
        if (two) continue;
        if (!std::strchr("+-*/%<>!~&|^?:()[],.", c)) give_up();
        out.push_back({Token::op, std::string(1, c)});
        ++i;
    }
    out.push_back({Token::end, {}});
    return out;
}

// ---- types by name ----

// "vec3" -> f 1x3, "mat2x3" -> f 2x3, "uint" -> u 1x1; false: not a type.
bool type_of(const std::string& n, Value& t) {
    static const struct {
        const char* name;
        Base base;
    } kScalars[] = {{"float", Base::f}, {"int", Base::i}, {"uint", Base::u}, {"bool", Base::b}};
    for (const auto& s : kScalars)
        if (n == s.name) return t = make(s.base, 1, 1), true;
    static const struct {
        const char* prefix;
        Base base;
    } kVectors[] = {{"vec", Base::f}, {"ivec", Base::i}, {"uvec", Base::u}, {"bvec", Base::b}};
    for (const auto& p : kVectors) {
        const size_t l = std::strlen(p.prefix);
        if (n.size() == l + 1 && n.compare(0, l, p.prefix) == 0 && n[l] >= '2' && n[l] <= '4')
            return t = make(p.base, 1, n[l] - '0'), true;
    }
    if (n.size() == 4 && n.compare(0, 3, "mat") == 0 && n[3] >= '2' && n[3] <= '4')
        return t = make(Base::f, n[3] - '0', n[3] - '0'), true;
    if (n.size() == 6 && n.compare(0, 3, "mat") == 0 && n[4] == 'x' && n[3] >= '2' && n[3] <= '4' && n[5] >= '2' &&
        n[5] <= '4')
        return t = make(Base::f, n[3] - '0', n[5] - '0'), true;
    return false;
}

double convert(Base from, Base to, double x) {
    if (to == Base::b) return x != 0 ? 1 : 0;
    if (to == Base::i || to == Base::u) {
        if (from == Base::f) {
            if (to == Base::u && x < 0) give_up();  // undefined in GLSL
            x = std::trunc(x);
        }
        return keep(to, x);
    }
    return keep(to, x);
}

Value construct(const Value& type, const std::vector<Value>& args) {
    if (args.empty()) give_up();
    Value r = type;
    const int n = r.size();
    if (args.size() == 1 && args[0].scalar()) {
        const double x = convert(args[0].base, r.base, args[0].v[0]);
        if (r.matrix()) {
            for (int c = 0; c < r.cols; ++c)
                for (int w = 0; w < r.rows; ++w) r.v[c * r.rows + w] = c == w ? x : 0;
        } else {
            for (int k = 0; k < n; ++k) r.v[k] = x;
        }
        return r;
    }
    if (args.size() == 1 && args[0].matrix() && r.matrix()) {
        // A matrix from a matrix: the overlap, the identity's elements elsewhere.
        const Value& m = args[0];
        for (int c = 0; c < r.cols; ++c)
            for (int w = 0; w < r.rows; ++w)
                r.v[c * r.rows + w] = c < m.cols && w < m.rows ? m.v[c * m.rows + w] : (c == w ? 1 : 0);
        return r;
    }
    int k = 0;
    for (size_t a = 0; a < args.size(); ++a) {
        if (k >= n) give_up();  // an argument left unused: an error in GLSL
        if (r.matrix() && args[a].matrix()) give_up();
        for (int j = 0; j < args[a].size() && k < n; ++j) r.v[k++] = convert(args[a].base, r.base, args[a].v[j]);
    }
    if (k < n) give_up();
    return r;
}

// GLSL 1.20 and later convert int and uint operands to float where no
// exact form exists (ESSL and GLSL 1.10 never do).
struct Rules {
    bool to_float = false;
    bool integer_functions = false;  // GLSL 4.00's / ESSL 3.10's bitCount, bitfieldExtract... (is_integer_function)
};

// GLSL 4.00 §8.8's integer functions and ldexp, which glslang does not fold:
// built-ins from GLSL 4.00, ESSL 3.10, or with GL_ARB_gpu_shader5 or
// GL_MESA_shader_integer_functions (elsewhere a call stays the source's).
bool is_integer_function(const std::string& name) {
    static const char* const kNames[] = {"bitCount",        "findLSB",        "findMSB", "bitfieldReverse",
                                         "bitfieldExtract", "bitfieldInsert", "ldexp"};
    for (const char* n : kNames)
        if (name == n) return true;
    return false;
}

Value to_float(const Value& x) {
    if (x.base != Base::i && x.base != Base::u) return x;
    Value r = x;
    r.base = Base::f;
    for (int k = 0; k < r.size(); ++k) r.v[k] = keep(Base::f, r.v[k]);
    return r;
}

// a and b with a common base, where the rules allow one.
void common_base(Value& a, Value& b, const Rules& rules) {
    if (a.base == b.base || !rules.to_float) return;
    if (a.base == Base::f && b.base != Base::b) b = to_float(b);
    else if (b.base == Base::f && a.base != Base::b) a = to_float(a);
}

// ---- operators ----

// The shape of a component-wise result of a and b (a scalar spreads).
Value broadcast_shape(const Value& a, const Value& b, Base base) {
    if (a.scalar()) return make(base, b.cols, b.rows);
    if (b.scalar() || (a.cols == b.cols && a.rows == b.rows)) return make(base, a.cols, a.rows);
    give_up();
}

double at(const Value& x, int k) { return x.scalar() ? x.v[0] : x.v[k]; }

Value arithmetic(const std::string& op, const Value& a, const Value& b) {
    if (a.base != b.base || a.base == Base::b) give_up();  // no implicit conversion here: glslang decides
    if (op == "*" && (a.matrix() || b.matrix()) && !a.scalar() && !b.scalar()) {
        // Linear algebra: mat * mat, mat * vec (a column vector), vec * mat (a row vector).
        const int ar = a.matrix() ? a.rows : 1, ac = a.matrix() ? a.cols : a.rows;
        const int br = b.matrix() ? b.rows : b.rows, bc = b.matrix() ? b.cols : 1;
        if (ac != br) give_up();
        Value r = a.matrix() && b.matrix() ? make(a.base, bc, ar) : make(a.base, 1, a.matrix() ? ar : bc);
        for (int c = 0; c < bc; ++c)
            for (int w = 0; w < ar; ++w) {
                double s = 0;
                for (int k = 0; k < ac; ++k) {
                    const double x = a.matrix() ? a.v[k * a.rows + w] : a.v[k];
                    const double y = b.matrix() ? b.v[c * b.rows + k] : b.v[k];
                    s += x * y;
                }
                r.v[a.matrix() && b.matrix() ? c * ar + w : (a.matrix() ? w : c)] = keep(a.base, s);
            }
        return r;
    }
    Value r = broadcast_shape(a, b, a.base);
    for (int k = 0; k < r.size(); ++k) {
        const double x = at(a, k), y = at(b, k);
        double z;
        if (op == "+") z = x + y;
        else if (op == "-") z = x - y;
        else if (op == "*") z = x * y;
        else if (op == "/") {
            if (a.base == Base::f) z = x / y;
            else {
                if (y == 0) give_up();
                z = a.base == Base::i ? double(int64_t(x) / int64_t(y)) : double(uint64_t(x) / uint64_t(y));
            }
        } else if (op == "%") {
            if (a.base == Base::f || y == 0) give_up();
            z = a.base == Base::i ? double(int64_t(x) % int64_t(y)) : double(uint64_t(x) % uint64_t(y));
        } else {
            give_up();
        }
        r.v[k] = keep(a.base, z);
    }
    return r;
}

Value bitwise(const std::string& op, const Value& a, const Value& b) {
    if (a.base == Base::f || a.base == Base::b || b.base == Base::f || b.base == Base::b || a.matrix() || b.matrix())
        give_up();
    const bool shift = op == "<<" || op == ">>";
    if (!shift && a.base != b.base) give_up();
    if (shift && !b.scalar() && b.rows != a.rows) give_up();
    Value r = shift ? make(a.base, 1, a.rows) : broadcast_shape(a, b, a.base);
    for (int k = 0; k < r.size(); ++k) {
        const uint32_t x = uint32_t(int64_t(at(a, k))), y = uint32_t(int64_t(at(b, k)));
        uint32_t z;
        if (op == "&") z = x & y;
        else if (op == "|") z = x | y;
        else if (op == "^") z = x ^ y;
        else {
            if (at(b, k) < 0 || at(b, k) >= 32) give_up();
            z = op == "<<" ? x << y : (a.base == Base::i ? uint32_t(int32_t(x) >> y) : x >> y);
        }
        r.v[k] = a.base == Base::i ? double(int32_t(z)) : double(z);
    }
    return r;
}

Value binary(const std::string& op, Value a, Value b, const Rules& rules) {
    if (op != "<<" && op != ">>") common_base(a, b, rules);
    if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") return arithmetic(op, a, b);
    if (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>") return bitwise(op, a, b);
    if (op == "==" || op == "!=") {
        if (!a.same_type(b)) give_up();
        bool eq = true;
        for (int k = 0; k < a.size(); ++k) eq = eq && a.v[k] == b.v[k];
        return scalar(Base::b, (op == "==") == eq);
    }
    if (op == "<" || op == ">" || op == "<=" || op == ">=") {
        if (!a.same_type(b) || !a.scalar() || a.base == Base::b) give_up();
        const double x = a.v[0], y = b.v[0];
        return scalar(Base::b, op == "<" ? x < y : op == ">" ? x > y : op == "<=" ? x <= y : x >= y);
    }
    if (op == "&&" || op == "||" || op == "^^") {
        if (a.base != Base::b || b.base != Base::b || !a.scalar() || !b.scalar()) give_up();
        const bool x = a.v[0] != 0, y = b.v[0] != 0;
        return scalar(Base::b, op == "&&" ? x && y : op == "||" ? x || y : x != y);
    }
    give_up();
}

// ---- built-in functions ----

using Args = std::vector<Value>;

bool is_float(const Value& x) { return x.base == Base::f && !x.matrix(); }

// A float genType function of one argument, component by component.
Value map1(const Args& a, double (*f)(double)) {
    if (a.size() != 1 || !is_float(a[0])) give_up();
    Value r = a[0];
    for (int k = 0; k < r.size(); ++k) r.v[k] = keep(Base::f, f(a[0].v[k]));
    return r;
}

// A function of n genType arguments, component by component; the arguments
// whose bit is set in `scalar_ok` may be scalars instead (min(vec3, float),
// clamp's bounds, mix's weight, step's edge...).
Value mapn(const Args& a, size_t n, Base base, double (*f)(const double*), unsigned scalar_ok = 0) {
    if (a.size() != n) give_up();
    int rows = 1;
    for (const Value& x : a)
        if (!x.scalar()) rows = x.rows;
    for (size_t j = 0; j < n; ++j) {
        const Value& x = a[j];
        if (x.base != base || x.matrix()) give_up();
        if (x.rows != rows && !(x.scalar() && (scalar_ok & (1u << j)))) give_up();
    }
    Value r = make(base, 1, rows);
    for (int k = 0; k < r.size(); ++k) {
        double in[3];
        for (size_t j = 0; j < n; ++j) in[j] = at(a[j], k);
        r.v[k] = keep(base, f(in));
    }
    return r;
}

double dot_of(const Value& x, const Value& y) {
    double s = 0;
    for (int k = 0; k < x.size(); ++k) s += x.v[k] * y.v[k];
    return s;
}

double det(const Value& m, int n, const int* rows, const int* cols) {
    if (n == 1) return m.v[cols[0] * m.rows + rows[0]];
    double s = 0;
    for (int j = 0; j < n; ++j) {
        int sub_rows[3], sub_cols[3], k = 0;
        for (int c = 0; c < n; ++c)
            if (c != j) sub_cols[k++] = cols[c];
        for (int w = 1; w < n; ++w) sub_rows[w - 1] = rows[w];
        const double e = m.v[cols[j] * m.rows + rows[0]];
        s += (j % 2 ? -1 : 1) * e * det(m, n - 1, sub_rows, sub_cols);
    }
    return s;
}

double determinant(const Value& m) {
    const int idx[4] = {0, 1, 2, 3};
    return det(m, m.rows, idx, idx);
}

Value relational(const std::string& name, const Args& a) {
    if (a.size() != 2 || !a[0].same_type(a[1]) || a[0].scalar() || a[0].matrix()) give_up();
    const bool eq_only = name == "equal" || name == "notEqual";
    if (!eq_only && a[0].base == Base::b) give_up();
    Value r = make(Base::b, 1, a[0].rows);
    for (int k = 0; k < r.size(); ++k) {
        const double x = a[0].v[k], y = a[1].v[k];
        const bool z = name == "lessThan"           ? x < y
                       : name == "lessThanEqual"    ? x <= y
                       : name == "greaterThan"      ? x > y
                       : name == "greaterThanEqual" ? x >= y
                       : name == "equal"            ? x == y
                                                    : x != y;
        r.v[k] = z;
    }
    return r;
}

Value call_exact(const std::string& name, const Args& a);

// The 32 bits of an int or uint component, and back.
uint32_t bits_of(double x) { return uint32_t(uint64_t(int64_t(x))); }
double of_bits(Base b, uint32_t x) { return b == Base::u ? double(x) : double(int32_t(x)); }

bool integer_vector(const Value& x) { return (x.base == Base::i || x.base == Base::u) && !x.matrix(); }
int scalar_int(const Value& x) {
    if (!x.scalar() || x.base != Base::i) give_up();
    return int(x.v[0]);
}

// GLSL 4.00 §8.8 (and ldexp, §8.3) on constants; undefined cases (offset +
// bits past 32, an exponent out of range) are left to glslang.
Value integer_function(const std::string& name, const Args& a) {
    if (name == "ldexp") {
        if (a.size() != 2 || !is_float(a[0]) || a[1].base != Base::i || a[0].rows != a[1].rows || a[0].matrix()) give_up();
        Value r = a[0];
        for (int k = 0; k < r.size(); ++k) {
            const int e = int(a[1].v[k]);
            if (e > 128 || e < -126) give_up();
            r.v[k] = keep(Base::f, std::ldexp(a[0].v[k], e));
        }
        return r;
    }
    if (a.empty() || !integer_vector(a[0])) give_up();
    const Value& x = a[0];
    Value r = x;
    if (name == "bitfieldExtract" || name == "bitfieldInsert") {
        const bool insert = name == "bitfieldInsert";
        if (a.size() != (insert ? 4u : 3u) || (insert && !a[1].same_type(x))) give_up();
        const int offset = scalar_int(a[insert ? 2 : 1]), count = scalar_int(a[insert ? 3 : 2]);
        if (offset < 0 || count < 0 || offset + count > 32) give_up();
        const uint32_t mask = count == 32 ? 0xFFFFFFFFu : ((1u << count) - 1u) << offset;
        for (int k = 0; k < r.size(); ++k) {
            const uint32_t v = bits_of(x.v[k]);
            uint32_t out;
            if (insert) {
                out = (v & ~mask) | ((bits_of(a[1].v[k]) << offset) & mask);
            } else if (count == 0) {
                out = 0;
            } else {
                out = (v & mask) >> offset;
                // a signed field is sign-extended from its top bit
                if (x.base == Base::i && count < 32 && (out >> (count - 1)) & 1u) out |= ~0u << count;
            }
            r.v[k] = of_bits(x.base, out);
        }
        return r;
    }
    if (a.size() != 1) give_up();
    if (name != "bitfieldReverse") r.base = Base::i;
    for (int k = 0; k < r.size(); ++k) {
        uint32_t v = bits_of(x.v[k]);
        int32_t out = 0;
        if (name == "bitCount") {
            out = __builtin_popcount(v);
        } else if (name == "findLSB") {
            out = v ? __builtin_ctz(v) : -1;
        } else if (name == "findMSB") {
            if (x.base == Base::i && int32_t(v) < 0) v = ~v;  // the highest bit unlike the sign bit
            out = v ? 31 - __builtin_clz(v) : -1;
        } else {  // bitfieldReverse
            uint32_t rev = 0;
            for (int i = 0; i < 32; ++i) rev |= ((v >> i) & 1u) << (31 - i);
            r.v[k] = of_bits(x.base, rev);
            continue;
        }
        r.v[k] = double(out);
    }
    return r;
}

// Functions of float arguments only (every genType, vec3, mat function).
bool float_only(const std::string& name) {
    static const char* const kMixed[] = {"abs", "sign", "min", "max", "clamp", "mix", "lessThan", "lessThanEqual",
                                         "greaterThan", "greaterThanEqual", "equal", "notEqual", "any", "all", "not"};
    for (const char* m : kMixed)
        if (name == m) return false;
    return !is_integer_function(name);
}

Value call(const std::string& name, Args a, const Rules& rules) {
    if (is_integer_function(name) && !rules.integer_functions) give_up();
    if (rules.to_float && !is_integer_function(name)) {
        bool any_float = false;
        for (const Value& x : a) any_float = any_float || x.base == Base::f;
        const bool bool_weight = name == "mix" && a.size() == 3 && a[2].base == Base::b;
        if (float_only(name) || (any_float && !bool_weight))
            for (Value& x : a) x = to_float(x);
    }
    return call_exact(name, a);
}

Value call_exact(const std::string& name, const Args& a) {
    // Angle and trigonometry, exponential (GLSL 1.30 §8.1, 8.2).
    static const struct {
        const char* name;
        double (*f)(double);
    } kUnary[] = {
        {"radians", [](double x) { return x * M_PI / 180.0; }},
        {"degrees", [](double x) { return x * 180.0 / M_PI; }},
        {"sin", [](double x) { return std::sin(x); }},
        {"cos", [](double x) { return std::cos(x); }},
        {"tan", [](double x) { return std::tan(x); }},
        {"asin", [](double x) { return std::asin(x); }},
        {"acos", [](double x) { return std::acos(x); }},
        {"sinh", [](double x) { return std::sinh(x); }},
        {"cosh", [](double x) { return std::cosh(x); }},
        {"tanh", [](double x) { return std::tanh(x); }},
        {"asinh", [](double x) { return std::asinh(x); }},
        {"acosh", [](double x) { return std::acosh(x); }},
        {"atanh", [](double x) { return std::atanh(x); }},
        {"exp", [](double x) { return std::exp(x); }},
        {"log", [](double x) { return std::log(x); }},
        {"exp2", [](double x) { return std::exp2(x); }},
        {"log2", [](double x) { return std::log2(x); }},
        {"sqrt", [](double x) { return std::sqrt(x); }},
        {"inversesqrt", [](double x) { return 1.0 / std::sqrt(x); }},
        {"floor", [](double x) { return std::floor(x); }},
        {"trunc", [](double x) { return std::trunc(x); }},
        {"round", [](double x) { return std::nearbyint(x); }},  // halves to even, as Mesa
        {"roundEven", [](double x) { return std::nearbyint(x); }},
        {"ceil", [](double x) { return std::ceil(x); }},
        {"fract", [](double x) { return x - std::floor(x); }},
    };
    for (const auto& u : kUnary)
        if (name == u.name) return map1(a, u.f);
    if (name == "atan") {
        if (a.size() == 1) return map1(a, [](double x) { return std::atan(x); });
        return mapn(a, 2, Base::f, [](const double* x) { return std::atan2(x[0], x[1]); });
    }
    if (name == "pow") return mapn(a, 2, Base::f, [](const double* x) { return std::pow(x[0], x[1]); });
    if (name == "mod")
        return mapn(a, 2, Base::f, [](const double* x) { return x[0] - x[1] * std::floor(x[0] / x[1]); }, 2);
    if (name == "abs" || name == "sign") {
        if (a.size() != 1 || a[0].matrix() || a[0].base == Base::b || a[0].base == Base::u) give_up();
        Value r = a[0];
        for (int k = 0; k < r.size(); ++k) {
            const double x = r.v[k];
            r.v[k] = keep(r.base, name == "abs" ? std::fabs(x) : (x > 0) - (x < 0));
        }
        return r;
    }
    if (name == "min" || name == "max" || name == "clamp") {
        if (a.empty() || a[0].matrix() || a[0].base == Base::b) give_up();
        const Base b = a[0].base;
        if (name == "min") return mapn(a, 2, b, [](const double* x) { return std::min(x[0], x[1]); }, 2);
        if (name == "max") return mapn(a, 2, b, [](const double* x) { return std::max(x[0], x[1]); }, 2);
        return mapn(a, 3, b, [](const double* x) { return std::min(std::max(x[0], x[1]), x[2]); }, 6);
    }
    if (name == "mix") {
        if (a.size() == 3 && a[2].base == Base::b) {
            if (!a[0].same_type(a[1]) || a[2].rows != a[0].rows || a[0].matrix()) give_up();
            Value r = a[0];
            for (int k = 0; k < r.size(); ++k) r.v[k] = a[2].v[k] != 0 ? a[1].v[k] : a[0].v[k];
            return r;
        }
        return mapn(a, 3, Base::f, [](const double* x) { return x[0] * (1 - x[2]) + x[1] * x[2]; }, 4);
    }
    if (name == "step") return mapn(a, 2, Base::f, [](const double* x) { return x[1] < x[0] ? 0.0 : 1.0; }, 1);
    if (name == "smoothstep")
        return mapn(a, 3, Base::f, [](const double* x) {
            const double t = std::min(std::max((x[2] - x[0]) / (x[1] - x[0]), 0.0), 1.0);
            return t * t * (3 - 2 * t);
        }, 3);
    // Geometric (§8.4).
    if (name == "length" || name == "normalize") {
        if (a.size() != 1 || !is_float(a[0])) give_up();
        const double l = std::sqrt(dot_of(a[0], a[0]));
        if (name == "length") return scalar(Base::f, l);
        Value r = a[0];
        for (int k = 0; k < r.size(); ++k) r.v[k] = keep(Base::f, r.v[k] / l);
        return r;
    }
    if (name == "distance" || name == "dot") {
        if (a.size() != 2 || !is_float(a[0]) || !a[0].same_type(a[1])) give_up();
        if (name == "dot") return scalar(Base::f, dot_of(a[0], a[1]));
        double s = 0;
        for (int k = 0; k < a[0].size(); ++k) s += (a[0].v[k] - a[1].v[k]) * (a[0].v[k] - a[1].v[k]);
        return scalar(Base::f, std::sqrt(s));
    }
    if (name == "cross") {
        if (a.size() != 2 || !is_float(a[0]) || a[0].rows != 3 || !a[0].same_type(a[1])) give_up();
        const double* x = a[0].v;
        const double* y = a[1].v;
        Value r = a[0];
        r.v[0] = keep(Base::f, x[1] * y[2] - y[1] * x[2]);
        r.v[1] = keep(Base::f, x[2] * y[0] - y[2] * x[0]);
        r.v[2] = keep(Base::f, x[0] * y[1] - y[0] * x[1]);
        return r;
    }
    if (name == "faceforward" || name == "reflect" || name == "refract") {
        const size_t n = name == "reflect" ? 2 : 3;
        if (a.size() != n || !is_float(a[0]) || !a[0].same_type(a[1])) give_up();
        const Value& v0 = a[0];
        const Value& v1 = a[1];
        Value r = v0;
        if (name == "faceforward") {
            if (!a[2].same_type(v0)) give_up();
            const double s = dot_of(a[2], v1) < 0 ? 1 : -1;
            for (int k = 0; k < r.size(); ++k) r.v[k] = keep(Base::f, s * v0.v[k]);
        } else if (name == "reflect") {
            const double d = dot_of(v1, v0);
            for (int k = 0; k < r.size(); ++k) r.v[k] = keep(Base::f, v0.v[k] - 2 * d * v1.v[k]);
        } else {
            if (!a[2].scalar() || a[2].base != Base::f) give_up();
            const double eta = a[2].v[0], d = dot_of(v1, v0), kk = 1 - eta * eta * (1 - d * d);
            for (int k = 0; k < r.size(); ++k)
                r.v[k] = kk < 0 ? 0 : keep(Base::f, eta * v0.v[k] - (eta * d + std::sqrt(kk)) * v1.v[k]);
        }
        return r;
    }
    // Matrix (§8.5).
    if (name == "matrixCompMult") {
        if (a.size() != 2 || !a[0].matrix() || !a[0].same_type(a[1])) give_up();
        Value r = a[0];
        for (int k = 0; k < r.size(); ++k) r.v[k] = keep(Base::f, a[0].v[k] * a[1].v[k]);
        return r;
    }
    if (name == "outerProduct") {
        if (a.size() != 2 || !is_float(a[0]) || !is_float(a[1]) || a[0].scalar() || a[1].scalar()) give_up();
        Value r = make(Base::f, a[1].rows, a[0].rows);
        for (int c = 0; c < r.cols; ++c)
            for (int w = 0; w < r.rows; ++w) r.v[c * r.rows + w] = keep(Base::f, a[0].v[w] * a[1].v[c]);
        return r;
    }
    if (name == "transpose") {
        if (a.size() != 1 || !a[0].matrix()) give_up();
        Value r = make(Base::f, a[0].rows, a[0].cols);
        for (int c = 0; c < r.cols; ++c)
            for (int w = 0; w < r.rows; ++w) r.v[c * r.rows + w] = a[0].v[w * a[0].rows + c];
        return r;
    }
    if (name == "determinant" || name == "inverse") {
        if (a.size() != 1 || !a[0].matrix() || a[0].cols != a[0].rows) give_up();
        const Value& m = a[0];
        const double d = determinant(m);
        if (name == "determinant") return scalar(Base::f, d);
        if (d == 0) give_up();
        // The adjugate over the determinant.
        const int n = m.rows;
        Value r = m;
        for (int c = 0; c < n; ++c)
            for (int w = 0; w < n; ++w) {
                // r[c][w] = cofactor(w, c) / d: the minor without row c, column w of m
                int rows[3], cols[3], kr = 0, kc = 0;
                for (int i = 0; i < n; ++i) {
                    if (i != c) rows[kr++] = i;
                    if (i != w) cols[kc++] = i;
                }
                const double minor = n == 1 ? 1 : det(m, n - 1, rows, cols);
                r.v[c * n + w] = keep(Base::f, ((c + w) % 2 ? -1 : 1) * minor / d);
            }
        return r;
    }
    // Vector relational (§8.6).
    if (name == "lessThan" || name == "lessThanEqual" || name == "greaterThan" || name == "greaterThanEqual" ||
        name == "equal" || name == "notEqual")
        return relational(name, a);
    if (name == "any" || name == "all" || name == "not") {
        if (a.size() != 1 || a[0].base != Base::b || a[0].scalar() || a[0].matrix()) give_up();
        if (name == "not") {
            Value r = a[0];
            for (int k = 0; k < r.size(); ++k) r.v[k] = r.v[k] == 0;
            return r;
        }
        bool any = false, all = true;
        for (int k = 0; k < a[0].size(); ++k) any = any || a[0].v[k] != 0, all = all && a[0].v[k] != 0;
        return scalar(Base::b, name == "any" ? any : all);
    }
    if (name == "isnan" || name == "isinf") {
        if (a.size() != 1 || !is_float(a[0])) give_up();
        Value r = make(Base::b, 1, a[0].rows);
        for (int k = 0; k < r.size(); ++k) r.v[k] = 0;  // kept values are finite
        return r;
    }
    if (is_integer_function(name)) return integer_function(name, a);
    give_up();
}

// ---- the parser (GLSL's precedence, no assignment or comma operators) ----

class Parser {
public:
    Parser(std::vector<Token> t, Rules rules) : t_(std::move(t)), rules_(rules) {}

    Value whole() {
        Value v = expression();
        if (t_[i_].kind != Token::end) give_up();
        return v;
    }

private:
    const Token& peek() const { return t_[i_]; }
    bool accept(const char* op) {
        if (t_[i_].kind == Token::op && t_[i_].text == op) {
            ++i_;
            return true;
        }
        return false;
    }
    void expect(const char* op) {
        if (!accept(op)) give_up();
    }

    Value expression() {
        Value c = binary_level(0);
        if (!accept("?")) return c;
        if (c.base != Base::b || !c.scalar()) give_up();
        Value yes = expression();
        expect(":");
        Value no = expression();
        common_base(yes, no, rules_);
        if (!yes.same_type(no)) give_up();
        return c.v[0] != 0 ? yes : no;
    }

    Value binary_level(int level) {
        static const std::vector<std::vector<std::string>> kLevels = {
            {"||"}, {"^^"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"},
            {"+", "-"}, {"*", "/", "%"}};
        if (level == int(kLevels.size())) return unary();
        Value lhs = binary_level(level + 1);
        for (;;) {
            const Token& t = peek();
            if (t.kind != Token::op) return lhs;
            bool found = false;
            for (const std::string& op : kLevels[size_t(level)]) found = found || t.text == op;
            if (!found) return lhs;
            const std::string op = t.text;
            ++i_;
            Value rhs = binary_level(level + 1);
            lhs = binary(op, lhs, rhs, rules_);
        }
    }

    Value unary() {
        if (accept("+")) {
            Value x = unary();
            if (x.base == Base::b) give_up();
            return x;
        }
        if (accept("-")) {
            Value x = unary();
            if (x.base == Base::b) give_up();
            if (x.base == Base::u) return arithmetic("-", scalar(Base::u, 0), x);
            for (int k = 0; k < x.size(); ++k) x.v[k] = keep(x.base, -x.v[k]);
            return x;
        }
        if (accept("!")) {
            Value x = unary();
            if (x.base != Base::b || !x.scalar()) give_up();
            x.v[0] = x.v[0] == 0;
            return x;
        }
        if (accept("~")) {
            Value x = unary();
            if (x.base != Base::i && x.base != Base::u) give_up();
            for (int k = 0; k < x.size(); ++k) {
                const uint32_t z = ~uint32_t(int64_t(x.v[k]));
                x.v[k] = x.base == Base::i ? double(int32_t(z)) : double(z);
            }
            return x;
        }
        return postfix(primary());
    }

    Value postfix(Value x) {
        for (;;) {
            if (accept("[")) {
                const Value i = expression();
                expect("]");
                if (!i.scalar() || (i.base != Base::i && i.base != Base::u)) give_up();
                const int k = int(i.v[0]);
                if (x.matrix()) {
                    if (k < 0 || k >= x.cols) give_up();
                    Value col = make(x.base, 1, x.rows);
                    for (int w = 0; w < x.rows; ++w) col.v[w] = x.v[k * x.rows + w];
                    x = col;
                } else {
                    if (x.scalar() || k < 0 || k >= x.rows) give_up();
                    x = scalar(x.base, x.v[k]);
                }
            } else if (accept(".")) {
                if (peek().kind != Token::ident) give_up();
                const std::string f = peek().text;
                ++i_;
                if (f == "length") {
                    expect("(");
                    expect(")");
                    if (x.scalar()) give_up();
                    x = scalar(Base::i, x.matrix() ? x.cols : x.rows);
                    continue;
                }
                if (x.matrix() || f.size() > 4) give_up();
                static const char* const kSets[] = {"xyzw", "rgba", "stpq"};
                const char* set = nullptr;
                for (const char* s : kSets)
                    if (std::strchr(s, f[0])) set = s;
                if (!set) give_up();
                Value r = make(x.base, 1, int(f.size()));
                for (size_t j = 0; j < f.size(); ++j) {
                    const char* p = std::strchr(set, f[j]);
                    if (!p) give_up();
                    const int k = int(p - set);
                    if (k >= x.rows) give_up();
                    r.v[j] = x.v[k];
                }
                x = r;
            } else {
                return x;
            }
        }
    }

    std::vector<Value> arguments() {
        std::vector<Value> args;
        expect("(");
        if (accept(")")) return args;
        do args.push_back(expression());
        while (accept(","));
        expect(")");
        return args;
    }

    Value primary() {
        const Token t = peek();
        if (t.kind == Token::number) {
            ++i_;
            return number(t.text);
        }
        if (accept("(")) {
            Value v = expression();
            expect(")");
            return v;
        }
        if (t.kind != Token::ident) give_up();
        ++i_;
        if (t.text == "true" || t.text == "false") return scalar(Base::b, t.text == "true");
        if (peek().kind != Token::op || peek().text != "(") give_up();  // a variable: not ours to know
        Value type;
        if (type_of(t.text, type)) return construct(type, arguments());
        return call(t.text, arguments(), rules_);
    }

    static Value number(const std::string& s) {
        const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
        const bool fl = !hex && (s.find_first_of(".eE") != std::string::npos || s.back() == 'f' || s.back() == 'F');
        if (fl) {
            std::string body = s;
            while (!body.empty() && std::isalpha(static_cast<unsigned char>(body.back()))) {
                if (body.back() == 'e' || body.back() == 'E') break;
                body.pop_back();
            }
            if (s.size() >= 2 && (s.compare(s.size() - 2, 2, "lf") == 0 || s.compare(s.size() - 2, 2, "LF") == 0))
                give_up();  // double precision: not folded here
            char* end = nullptr;
            const double x = std::strtod(body.c_str(), &end);
            if (*end) give_up();
            return scalar(Base::f, x);
        }
        const bool u = s.back() == 'u' || s.back() == 'U';
        const std::string body = u ? s.substr(0, s.size() - 1) : s;
        char* end = nullptr;
        const unsigned long long x = std::strtoull(body.c_str(), &end, 0);  // 0x.., 0.. (octal), decimal
        if (*end || x > 0xFFFFFFFFull) give_up();
        return scalar(u ? Base::u : Base::i, double(x));
    }

    std::vector<Token> t_;
    size_t i_ = 0;
    Rules rules_;
};

// ---- literals ----

std::string number_text(Base b, double x) {
    char buf[64];
    switch (b) {
        case Base::b: return x != 0 ? "true" : "false";
        case Base::u: std::snprintf(buf, sizeof buf, "%uu", uint32_t(x)); return buf;
        case Base::i:
            if (x == double(std::numeric_limits<int32_t>::min())) return "(-2147483647 - 1)";
            std::snprintf(buf, sizeof buf, "%d", int32_t(x));
            return buf;
        case Base::f: {
            std::snprintf(buf, sizeof buf, "%.9g", x);
            std::string s = buf;
            if (s.find_first_of(".e") == std::string::npos) s += ".0";
            return s;
        }
    }
    return {};
}

std::string literal(const Value& v) {
    if (v.scalar()) return number_text(v.base, v.v[0]);
    std::string type;
    if (v.matrix()) {
        type = "mat" + std::to_string(v.cols);
        if (v.cols != v.rows) type += "x" + std::to_string(v.rows);
    } else {
        type = std::string(v.base == Base::f ? "" : v.base == Base::i ? "i" : v.base == Base::u ? "u" : "b") + "vec" +
               std::to_string(v.rows);
    }
    std::string out = type + "(";
    for (int k = 0; k < v.size(); ++k) out += (k ? ", " : "") + number_text(v.base, v.v[k]);
    return out + ")";
}

// ---- where the source needs a constant ----

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `text` has what glslang does not fold (a whole word, or == / !=).
bool needs_us(const std::string& text) {
    static const char* const kWords[] = {"sinh",          "cosh",      "tanh",           "asinh",    "acosh",
                                         "atanh",         "transpose", "determinant",    "inverse",  "matrixCompMult",
                                         "bitCount",      "findLSB",   "findMSB",        "ldexp",    "bitfieldReverse",
                                         "bitfieldExtract", "bitfieldInsert"};
    for (const char* w : kWords)
        for (size_t at = text.find(w); at != std::string::npos; at = text.find(w, at + 1)) {
            const size_t end = at + std::strlen(w);
            if ((at == 0 || !ident(text[at - 1])) && (end >= text.size() || !ident(text[end]))) return true;
        }
    return text.find("==") != std::string::npos || text.find("!=") != std::string::npos;
}

// The folded text of `expr` (its line breaks kept after it), or "" to keep it.
// `integer`: an array size, which must be an int or uint scalar.
std::string fold_region(const std::string& expr, bool integer, const Rules& rules) {
    if (!needs_us(expr)) return {};
    try {
        const Value v = Parser(tokenize(expr), rules).whole();
        if (integer && (!v.scalar() || (v.base != Base::i && v.base != Base::u))) return {};
        return literal(v) + std::string(size_t(std::count(expr.begin(), expr.end(), '\n')), '\n');
    } catch (const NotConstant&) {
        return {};
    }
}

// The end of the expression that starts at `from`: the first of `stops` at
// depth 0 (npos when the text ends first).
size_t expression_end(const std::string& s, size_t from, const char* stops) {
    int depth = 0;
    for (size_t i = from; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '[') ++depth;
        else if (c == ')' || c == ']') {
            if (depth == 0) return std::strchr(stops, c) ? i : std::string::npos;
            --depth;
        } else if (depth == 0 && std::strchr(stops, c)) {
            return i;
        } else if (c == '{' || c == '}' || c == '#') {
            return std::string::npos;
        }
    }
    return std::string::npos;
}

void fold_source(std::string& s, const Rules& rules) {
    std::string out;
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        // Comments and preprocessor lines are copied as they are.
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            const size_t e = s.find('\n', i);
            const size_t end = e == std::string::npos ? s.size() : e;
            out.append(s, i, end - i);
            i = end;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            const size_t e = s.find("*/", i + 2);
            const size_t end = e == std::string::npos ? s.size() : e + 2;
            out.append(s, i, end - i);
            i = end;
            continue;
        }
        if (c == '#') {
            size_t end = i;
            while (end < s.size() && s[end] != '\n') end += s[end] == '\\' && end + 1 < s.size() ? 2 : 1;
            out.append(s, i, end - i);
            i = end;
            continue;
        }
        if (c == '[') {
            const size_t e = expression_end(s, i + 1, "]");
            if (e != std::string::npos) {
                const std::string folded = fold_region(s.substr(i + 1, e - i - 1), true, rules);
                if (!folded.empty()) {
                    out += "[" + folded + "]";
                    i = e + 1;
                    continue;
                }
            }
        }
        // A call of an integer function with constant arguments, anywhere
        // (a macro's argument, a condition): glslang's constant expressions
        // do not evaluate these built-ins, so their value takes their place.
        if (rules.integer_functions && std::isalpha(static_cast<unsigned char>(c)) && (i == 0 || !ident(s[i - 1]))) {
            size_t name_end = i;
            while (name_end < s.size() && ident(s[name_end])) ++name_end;
            size_t open = name_end;
            while (open < s.size() && std::isspace(static_cast<unsigned char>(s[open]))) ++open;
            if (open < s.size() && s[open] == '(' && is_integer_function(s.substr(i, name_end - i))) {
                const size_t e = expression_end(s, open + 1, ")");
                if (e != std::string::npos) {
                    const std::string folded = fold_region(s.substr(i, e + 1 - i), false, rules);
                    if (!folded.empty()) {
                        out += "(" + folded + ")";
                        i = e + 1;
                        continue;
                    }
                }
            }
            out.append(s, i, name_end - i);  // the whole word: no call starts inside it
            i = name_end;
            continue;
        }
        // `const TYPE NAME = EXPR` (one declarator or several: `, NAME = EXPR`).
        if (c == '=' && i + 1 < s.size() && s[i + 1] != '=' && i > 0 && !std::strchr("=!<>+-*/%&|^", s[i - 1])) {
            // Is this a const declaration's initializer? Look back to the statement's start.
            size_t back = out.find_last_of(";{}\n", out.size()) ;
            std::string statement = out.substr(back == std::string::npos ? 0 : back + 1);
            bool is_const = false;
            for (size_t at = statement.find("const"); at != std::string::npos; at = statement.find("const", at + 1)) {
                const size_t end = at + 5;
                if ((at == 0 || !ident(statement[at - 1])) && (end >= statement.size() || !ident(statement[end])))
                    is_const = true;
            }
            const size_t e = is_const ? expression_end(s, i + 1, ",;") : std::string::npos;
            if (e != std::string::npos) {
                const std::string folded = fold_region(s.substr(i + 1, e - i - 1), false, rules);
                if (!folded.empty()) {
                    out += "= " + folded;
                    i = e;
                    continue;
                }
            }
        }
        out += c;
        ++i;
    }
    s = std::move(out);
}

}  // namespace

std::string fold_expression(const std::string& expr, int version, bool es) {
    try {
        return literal(Parser(tokenize(expr), Rules{!es && version >= 120, es ? version >= 310 : version >= 400}).whole());
    } catch (const NotConstant&) {
        return {};
    }
}

void fold_constant_expressions(std::vector<std::string>& sources, int version, bool es) {
    Rules rules{!es && version >= 120};
    std::string joined;
    for (const std::string& s : sources) joined += s;
    rules.integer_functions = es ? version >= 310
                                 : version >= 400 || enables_extension(joined, "GL_MESA_shader_integer_functions") ||
                                       enables_extension(joined, "GL_ARB_gpu_shader5");
    for (std::string& s : sources)
        if (needs_us(s)) fold_source(s, rules);
}

}  // namespace mgl::gl
