#include "callmix.h"

#include <cstdlib>
#include <cstring>
#include <functional>

#include "mgl/wire/dump_support.h"

namespace mgl::bench {

const char* const kMixVerbs[] = {
    "glDrawElements", "glBindVertexArray", "glUniform3f", "glVertexAttribPointer", "glUniformMatrix4fv",
    "glEnableVertexAttribArray", "glDrawArrays", "glDisableVertexAttribArray", "glBindBuffer", "glBindTexture",
    "glUseProgram", "glActiveTexture", "glViewport", "glBindFramebuffer", "glBufferSubData", "glClear",
    "glClearColor", "eglSwapBuffers", "glClearDepthf", "glDisable", "glEnable", "glBlendFuncSeparate",
    "glUniform4fv", "glUniform3fv", "glUniformMatrix3fv", "glUniform1f", "glUniform1i", "glBlendFunc",
    "glColorMask", "glDepthMask", "glUniform2fv", "glTexParameteri", "glCullFace", "glDepthFunc", "glScissor",
    "glFramebufferTexture2D", "glGenerateMipmap",
};
const size_t kMixVerbCount = sizeof(kMixVerbs) / sizeof(kMixVerbs[0]);

namespace {

// Splits "a = 1, b = {1, 2}, c = blob(16)" at top-level commas.
std::vector<std::string> split_args(const std::string& s) {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : s) {
        if (c == '{' || c == '(') ++depth;
        if (c == '}' || c == ')') --depth;
        if (c == ',' && depth == 0) {
            out.push_back(cur);
            cur.clear();
            continue;
        }
        cur += c;
    }
    if (!cur.empty()) out.push_back(cur);
    for (auto& a : out) {
        size_t eq = a.find(" = ");
        a = eq == std::string::npos ? a : a.substr(eq + 3);
        while (!a.empty() && a.front() == ' ') a.erase(a.begin());
    }
    return out;
}

// Enum names through the generated enum table; bit masks ("A | B") OR'ed.
int64_t int_value(const std::string& a) {
    if (a == "true") return 1;
    if (a == "false" || a == "NULL") return 0;
    if (a.rfind("GL_", 0) == 0) {
        int64_t v = 0;
        size_t start = 0;
        while (start < a.size()) {
            size_t bar = a.find(" | ", start);
            std::string part = a.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
            int64_t x = gen::enum_value(part.c_str());
            v |= x < 0 ? 0 : x;
            start = bar == std::string::npos ? a.size() : bar + 3;
        }
        return v;
    }
    return std::strtoll(a.c_str(), nullptr, 0);
}

size_t array_elems(const std::string& a) {
    if (a.empty() || a.front() != '{') return 0;
    size_t n = 1;
    for (char c : a) n += c == ',';
    return n;
}

}  // namespace

CallMix read_callmix(std::istream& in, uint64_t first_frame) {
    CallMix mix;
    std::string line;
    uint64_t frame = 0;
    while (std::getline(in, line)) {
        size_t sp = line.find(' ');
        size_t par = line.find('(');
        if (sp == std::string::npos || par == std::string::npos || par < sp) continue;
        std::string name = line.substr(sp + 1, par - sp - 1);
        const bool swap = name == "eglSwapBuffers";
        if (frame < first_frame) {
            frame += swap;
            continue;
        }
        size_t end = line.rfind(')');
        auto args = split_args(line.substr(par + 1, end == std::string::npos ? std::string::npos : end - par - 1));
        size_t v = 0;
        while (v < kMixVerbCount && name != kMixVerbs[v]) ++v;
        if (v == kMixVerbCount) {
            ++mix.skipped;
            continue;
        }
        Call c;
        c.verb = uint8_t(v);
        size_t ni = 0, nf = 0;
        for (const auto& a : args) {
            if (a.empty()) continue;
            if (a.front() == '{') {
                c.data_size = uint32_t(array_elems(a) * 4);
                c.data_is_offset = false;
            } else if (a.rfind("blob(", 0) == 0) {
                c.data_size = uint32_t(std::strtoull(a.c_str() + 5, nullptr, 10));
                c.data_is_offset = false;
            } else if (a.find('.') != std::string::npos || a.find('e') != std::string::npos) {
                if (nf < 4) c.f[nf++] = float(std::strtod(a.c_str(), nullptr));
            } else {
                int64_t x = int_value(a);
                if (ni < 6) c.i[ni++] = int32_t(x);
                if (a.rfind("0x", 0) == 0 || (name == "glBufferSubData" && ni == 2)) c.offset = uint64_t(x);
            }
        }
        // Float-typed verbs whose values happened to print as integers.
        if (nf == 0 && ni && (name == "glUniform3f" || name == "glClearColor" || name == "glClearDepthf" ||
                              name == "glUniform1f")) {
            size_t first = name == "glUniform3f" || name == "glUniform1f" ? 1 : 0;
            for (size_t k = first; k < ni && nf < 4; ++k) c.f[nf++] = float(c.i[k]);
        }
        mix.calls.push_back(c);
        if (swap) ++mix.frames, ++frame;
    }
    size_t total = 0;
    for (const Call& c : mix.calls) total += c.data_size;
    mix.pool.assign(total, 0x3f);
    size_t at = 0;
    for (Call& c : mix.calls) {
        c.data = mix.pool.data() + at;
        at += c.data_size;
    }
    return mix;
}

}  // namespace mgl::bench
