#include "uniform_init.h"

#include <cstring>
#include <unordered_map>

namespace mgl::gl {

namespace {

enum : uint32_t {
    kOpName = 5, kOpMemberName = 6, kOpTypeBool = 20, kOpTypeInt = 21, kOpTypeFloat = 22, kOpTypeVector = 23,
    kOpTypeMatrix = 24, kOpTypeArray = 28, kOpTypeStruct = 30, kOpTypePointer = 32, kOpConstantTrue = 41,
    kOpConstantFalse = 42, kOpConstant = 43, kOpConstantComposite = 44, kOpConstantNull = 46, kOpVariable = 59,
};
constexpr uint32_t kUniformConstant = 0;

std::string literal(const uint32_t* w, size_t words) {
    std::string s(reinterpret_cast<const char*>(w), words * 4);
    s.resize(std::strlen(s.c_str()));
    return s;
}

// An instruction: its opcode and operands (result type/id included).
struct Inst {
    uint32_t op = 0;
    std::vector<uint32_t> w;  // the words after the opcode word
};

class Module {
public:
    explicit Module(const std::vector<uint32_t>& spv) {
        for (size_t i = 5; i < spv.size();) {
            const uint32_t words = spv[i] >> 16, op = spv[i] & 0xFFFF;
            if (words == 0 || i + words > spv.size()) return;
            const uint32_t* w = &spv[i + 1];
            const size_t n = words - 1;
            if (op == kOpName && n >= 2) names_[w[0]] = literal(w + 1, n - 1);
            else if (op == kOpMemberName && n >= 3) members_[w[0]][w[1]] = literal(w + 2, n - 2);
            else if ((op >= kOpTypeBool && op <= kOpTypeMatrix) || op == kOpTypeArray || op == kOpTypeStruct ||
                     op == kOpTypePointer)
                defs_[w[0]] = {op, std::vector<uint32_t>(w + 1, w + n)};
            else if ((op >= kOpConstantTrue && op <= kOpConstantComposite) || op == kOpConstantNull)
                defs_[w[1]] = {op, std::vector<uint32_t>(w + 2, w + n)};
            else if (op == kOpVariable && n == 4 && w[2] == kUniformConstant)
                vars_.push_back({w[0], w[1], w[3]});
            i += words;
        }
    }

    std::vector<UniformInit> initialisers() {
        std::vector<UniformInit> out;
        for (const Var& v : vars_) {
            const Inst* ptr = def(v.pointer);
            if (!ptr || ptr->op != kOpTypePointer || ptr->w.size() < 2) continue;
            auto n = names_.find(v.id);
            if (n == names_.end() || n->second.empty()) continue;
            walk(ptr->w[1], v.init, n->second, out);
        }
        return out;
    }

private:
    struct Var {
        uint32_t pointer, id, init;
    };

    const Inst* def(uint32_t id) const {
        auto it = defs_.find(id);
        return it == defs_.end() ? nullptr : &it->second;
    }

    // The constituent `i` of composite constant `c` (0: a null constant's).
    uint32_t part(uint32_t c, size_t i) const {
        const Inst* k = def(c);
        return k && k->op == kOpConstantComposite && i < k->w.size() ? k->w[i] : 0;
    }

    // A scalar constant's words (zero when null or unknown).
    void scalar(uint32_t type, uint32_t c, std::vector<uint32_t>& words, UniformInit::Kind& kind) const {
        const Inst* t = def(type);
        const Inst* k = def(c);
        uint32_t width = 32;
        if (t && t->op == kOpTypeBool) kind = UniformInit::Kind::boolean;
        else if (t && t->op == kOpTypeFloat && !t->w.empty()) {
            width = t->w[0];
            kind = width == 64 ? UniformInit::Kind::f64 : UniformInit::Kind::f32;
        } else if (t && t->op == kOpTypeInt && t->w.size() >= 2) {
            width = t->w[0];
            kind = t->w[1] ? UniformInit::Kind::i32 : UniformInit::Kind::u32;
        }
        const size_t n = width == 64 ? 2 : 1;
        for (size_t i = 0; i < n; ++i) {
            uint32_t x = 0;
            if (k && k->op == kOpConstantTrue) x = i == 0;
            else if (k && k->op == kOpConstant && i < k->w.size()) x = k->w[i];
            words.push_back(x);
        }
    }

    void walk(uint32_t type, uint32_t c, const std::string& name, std::vector<UniformInit>& out) const {
        const Inst* t = def(type);
        if (!t) return;
        if (t->op == kOpTypeStruct) {
            auto m = members_.find(type);
            for (size_t i = 0; i < t->w.size(); ++i) {
                std::string member;
                if (m != members_.end())
                    if (auto it = m->second.find(uint32_t(i)); it != m->second.end()) member = it->second;
                walk(t->w[i], part(c, i), name + "." + member, out);
            }
            return;
        }
        if (t->op == kOpTypeArray) {
            const Inst* len = t->w.size() >= 2 ? def(t->w[1]) : nullptr;
            const uint32_t n = len && len->op == kOpConstant && !len->w.empty() ? len->w[0] : 0;
            for (uint32_t i = 0; i < n; ++i) walk(t->w[0], part(c, i), name + "[" + std::to_string(i) + "]", out);
            return;
        }
        UniformInit u;
        u.name = name;
        if (t->op == kOpTypeMatrix && t->w.size() >= 2) {
            const Inst* col = def(t->w[0]);
            if (!col || col->op != kOpTypeVector || col->w.size() < 2) return;
            u.columns = int(t->w[1]);
            u.rows = int(col->w[1]);
            for (int i = 0; i < u.columns; ++i)
                for (int r = 0; r < u.rows; ++r) scalar(col->w[0], part(part(c, size_t(i)), size_t(r)), u.words, u.kind);
        } else if (t->op == kOpTypeVector && t->w.size() >= 2) {
            u.rows = int(t->w[1]);
            for (int r = 0; r < u.rows; ++r) scalar(t->w[0], part(c, size_t(r)), u.words, u.kind);
        } else if (t->op == kOpTypeBool || t->op == kOpTypeInt || t->op == kOpTypeFloat) {
            scalar(type, c, u.words, u.kind);
        } else {
            return;  // opaque types have no initialiser
        }
        out.push_back(std::move(u));
    }

    std::unordered_map<uint32_t, std::string> names_;
    std::unordered_map<uint32_t, std::unordered_map<uint32_t, std::string>> members_;
    std::unordered_map<uint32_t, Inst> defs_;
    std::vector<Var> vars_;
};

}  // namespace

std::vector<UniformInit> uniform_initialisers(const std::vector<uint32_t>& spirv) {
    if (spirv.size() < 5) return {};
    return Module(spirv).initialisers();
}

void strip_uniform_initialisers(std::vector<uint32_t>& spv) {
    if (spv.size() < 5) return;
    std::vector<uint32_t> out(spv.begin(), spv.begin() + 5);
    out.reserve(spv.size());
    bool changed = false;
    for (size_t i = 5; i < spv.size();) {
        const uint32_t words = spv[i] >> 16, op = spv[i] & 0xFFFF;
        if (words == 0 || i + words > spv.size()) return;  // malformed: leave it alone
        if (op == kOpVariable && words == 5 && spv[i + 3] == kUniformConstant) {
            out.push_back((4u << 16) | op);
            out.insert(out.end(), spv.begin() + long(i + 1), spv.begin() + long(i + 4));
            changed = true;
        } else {
            out.insert(out.end(), spv.begin() + long(i), spv.begin() + long(i + words));
        }
        i += words;
    }
    if (changed) spv.swap(out);
}

}  // namespace mgl::gl
