#include "lenexpr.h"

#include <cctype>
#include <vector>

namespace mglgen {
namespace {

struct Tok {
    enum Kind { ident, num, op, end } kind;
    std::string text;
};

bool tokenize(const std::string& s, std::vector<Tok>& out) {
    for (size_t i = 0; i < s.size();) {
        char c = s[i];
        if (std::isspace((unsigned char)c)) { ++i; continue; }
        if (std::isalpha((unsigned char)c) || c == '_') {
            size_t j = i;
            while (j < s.size() && (std::isalnum((unsigned char)s[j]) || s[j] == '_')) ++j;
            out.push_back({Tok::ident, s.substr(i, j - i)});
            i = j;
        } else if (std::isdigit((unsigned char)c)) {
            size_t j = i;
            while (j < s.size() && std::isdigit((unsigned char)s[j])) ++j;
            out.push_back({Tok::num, s.substr(i, j - i)});
            i = j;
        } else if (c == '*' || c == '+' || c == '-' || c == '/' || c == '(' || c == ')') {
            out.push_back({Tok::op, std::string(1, c)});
            ++i;
        } else {
            return false;
        }
    }
    out.push_back({Tok::end, ""});
    return true;
}

// Recursive descent over + - * / and parentheses. Each node yields either C++
// code (gen mode) or a value (eval mode).
struct Parser {
    const Verb& v;
    std::vector<Tok> toks;
    size_t pos = 0;
    std::string prefix;
    bool eval = false;
    long eval_value = 0;
    bool ok = true;

    struct R { std::string code; long val = 0; };

    const Tok& peek() { return toks[pos]; }
    R primary() {
        Tok t = toks[pos++];
        if (t.kind == Tok::num) return {"int64_t(" + t.text + ")", std::stol(t.text)};
        if (t.kind == Tok::ident) {
            for (auto& p : v.params) {
                if (p.name == t.text && p.kind == ParamKind::scalar && p.type && !p.type->is_float)
                    return {"calc.val(" + prefix + p.name + ")", eval_value};
            }
            ok = false;  // COMPSIZE, an array, or a name we do not know
            return {};
        }
        if (t.kind == Tok::op && t.text == "(") {
            R r = sum();
            if (peek().text != ")") { ok = false; return {}; }
            ++pos;
            return r;
        }
        ok = false;
        return {};
    }
    R product() {
        R a = primary();
        while (ok && (peek().text == "*" || peek().text == "/")) {
            std::string o = toks[pos++].text;
            R b = primary();
            if (o == "*") a = {"calc.mul(" + a.code + ", " + b.code + ")", a.val * b.val};
            else a = {"calc.div(" + a.code + ", " + b.code + ")", b.val ? a.val / b.val : 0};
        }
        return a;
    }
    R sum() {
        R a = product();
        while (ok && (peek().text == "+" || peek().text == "-")) {
            std::string o = toks[pos++].text;
            R b = product();
            if (o == "+") a = {"calc.add(" + a.code + ", " + b.code + ")", a.val + b.val};
            else a = {"calc.sub(" + a.code + ", " + b.code + ")", a.val - b.val};
        }
        return a;
    }
};

}  // namespace

bool len_expr_code(const Verb& v, const Param& p, const std::string& prefix, std::string& code) {
    if (p.len.empty()) return false;
    Parser ps{v, {}, 0, prefix};
    if (!tokenize(p.len, ps.toks)) return false;
    Parser::R r = ps.sum();
    if (!ps.ok || ps.peek().kind != Tok::end) return false;
    code = r.code;
    return true;
}

bool len_expr_eval(const Verb& v, const std::string& len, long value, long& result) {
    if (len.empty()) return false;
    Parser ps{v, {}, 0, ""};
    ps.eval = true;
    ps.eval_value = value;
    if (!tokenize(len, ps.toks)) return false;
    Parser::R r = ps.sum();
    if (!ps.ok || ps.peek().kind != Tok::end) return false;
    result = r.val;
    return true;
}

}  // namespace mglgen
