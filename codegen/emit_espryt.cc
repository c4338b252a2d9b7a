// The Espryt backend's generated half: a typed table of host GLES entry
// points and one pass-through method per GLES verb (core 2.0-3.2 plus the
// OES/EXT/KHR extensions a host may expose).
//
// Everything the schema annotates is translated here, the same way for
// every verb: client object names to host names (`handle`, `mint`,
// `ret_mint`), pointer-or-offset arguments (`source`), the lengths the
// decoder could not check (COMPSIZE) through the backend's own state, and
// the checks before every draw and dispatch (an enabled attribute without a
// buffer would have the host read its offset as server memory; attribute
// offsets and buffer ranges past their buffer's end), redone only after a
// verb that can change them (changes_arrays/ranges/buffers). A verb
// whose arguments fall outside what this file knows how to make safe is NOT
// generated: it stays `unsupported` (or is hand-written in backends/espryt/),
// and the reason is listed at the end of espryt_pass.h.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "emit.h"
#include "lenexpr.h"

namespace mglgen {

namespace {

// Extensions whose verbs take host-process handles (EGL images, file
// descriptors, external memory): a client must never name those on the server.
const std::set<std::string> kDeniedFeatures = {
    "GL_OES_EGL_image", "GL_OES_EGL_image_external", "GL_EXT_EGL_image_storage", "GL_EXT_memory_object",
    "GL_EXT_memory_object_fd", "GL_EXT_memory_object_win32", "GL_EXT_semaphore", "GL_EXT_semaphore_fd",
    "GL_EXT_semaphore_win32", "GL_EXT_win32_keyed_mutex", "GL_EXT_external_buffer",
};

bool is_es_core(const std::string& f) { return f.rfind("GL_ES_VERSION_", 0) == 0; }
bool is_es_ext(const std::string& f) {
    return (f.rfind("GL_OES_", 0) == 0 || f.rfind("GL_EXT_", 0) == 0 || f.rfind("GL_KHR_", 0) == 0) &&
           !kDeniedFeatures.count(f);
}

// Features that make a verb available on a host GLES context, under its own name.
std::vector<std::string> own_host_features(const Verb& v) {
    std::vector<std::string> out;
    for (const auto& f : v.features)
        if (is_es_core(f) || is_es_ext(f)) out.push_back(f);
    return out;
}

// gl.xml aliases with one C signature are one command, and the client
// encodes the canonical verb (emit_client.cc), so an alias's record never
// arrives. A canonical verb that GLES has only under an alias's name
// (glQueryCounter as EXT_disjoint_timer_query's glQueryCounterEXT,
// glDrawArraysInstancedBaseInstance as EXT_base_instance's) is served
// through that name: these are the names to load it by, in order.
std::map<std::string, std::vector<const Verb*>> g_host_aliases;  // canonical verb -> its ES aliases

void collect_host_aliases(const Schema& s) {
    std::map<std::string, const Verb*> by_name;
    for (const Verb& v : s.verbs) by_name[v.name] = &v;
    for (const Verb& v : s.verbs) {
        auto it = v.alias.empty() ? by_name.end() : by_name.find(v.alias);
        if (it == by_name.end() || !same_signature(v, *it->second) || own_host_features(v).empty()) continue;
        g_host_aliases[v.alias].push_back(&v);
    }
}

// The host names a verb is loaded by: its own when GLES has it, else its ES aliases'.
std::vector<const Verb*> host_names(const Verb& v) {
    if (!own_host_features(v).empty()) return {&v};
    auto it = g_host_aliases.find(v.name);
    return it == g_host_aliases.end() ? std::vector<const Verb*>{} : it->second;
}

// Features that make a verb available on a host GLES context.
std::vector<std::string> host_features(const Verb& v) {
    std::vector<std::string> out;
    for (const Verb* n : host_names(v))
        for (const auto& f : own_host_features(*n))
            if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    return out;
}

bool selected(const Verb& v) { return v.opcode >= 256 && v.encodable() && !host_features(v).empty(); }

// "GL_ES_VERSION_3_1" -> 31
int es_version_of(const std::string& f) {
    const std::string s = f.substr(std::string("GL_ES_VERSION_").size());
    return (s[0] - '0') * 10 + (s.size() > 2 ? s[2] - '0' : 0);
}

const std::map<std::string, std::string> kKinds = {
    {"buffer", "Kind::buffer"},         {"texture", "Kind::texture"},
    {"renderbuffer", "Kind::renderbuffer"}, {"sampler", "Kind::sampler"},
    {"program", "Kind::program"},       {"shader", "Kind::program"},  // one GL namespace
    {"framebuffer", "Kind::framebuffer"}, {"vertex_array", "Kind::vertex_array"},
    {"transform_feedback", "Kind::transform_feedback"}, {"query", "Kind::query"},
    {"program_pipeline", "Kind::program_pipeline"},
};

bool host_pointer_type(const std::string& t) {
    return t == "GLsync" || t == "GLeglImageOES" || t == "GLeglClientBufferEXT" || t == "GLcallback";
}

std::string host_param_type(const Param& p) {
    switch (p.kind) {
        case ParamKind::scalar:
            if (host_pointer_type(p.type->name)) return "void*";
            return p.type->cpp;
        case ParamKind::string_list: return "const char* const*";
        case ParamKind::out_array: return "void*";
        default: return p.ctype.rfind("const", 0) == 0 ? "const void*" : "void*";
    }
}

std::string host_return_type(const Verb& v) {
    if (v.returns.empty()) return "void";
    if (v.returns == "GLsync") return "void*";
    if (v.returns.find('*') != std::string::npos) return v.returns.rfind("const", 0) == 0 ? "const void*" : "void*";
    return v.ret_type ? v.ret_type->cpp : "void";
}

std::string host_fn_type(const Verb& v) {
    std::string s = host_return_type(v) + " (*)(";
    bool first = true;
    for (const Param& p : v.params) {
        if (!first) s += ", ";
        first = false;
        s += host_param_type(p);
    }
    return s + ")";
}

bool starts(const std::string& s, const char* pre) { return s.rfind(pre, 0) == 0; }
bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// "COMPSIZE(a,b)" -> {"a","b"}; empty when not a COMPSIZE expression.
std::vector<std::string> compsize_args(const std::string& len) {
    std::vector<std::string> out;
    if (!starts(len, "COMPSIZE(") || len.back() != ')') return out;
    std::string in = len.substr(9, len.size() - 10), cur;
    for (char c : in) {
        if (c == ',') { out.push_back(cur); cur.clear(); }
        else if (c != ' ') cur += c;
    }
    out.push_back(cur);
    return out;
}

const Param* param_named(const Verb& v, const std::string& n) {
    for (const Param& p : v.params)
        if (p.name == n) return &p;
    return nullptr;
}

// How one verb is passed through: statements before the host call, the host
// call's arguments, statements after it; or why it cannot be.
struct Plan {
    std::string skip;  // non-empty: not generated, with the reason
    std::vector<std::string> pre, args, post;
    bool scratch = false;
};

const char* kRet = "RET_";  // placeholder for the early-return statement

// Verbs after which an enabled attribute of the current vertex array may read
// a different buffer, or none (GL then reads its offset as client memory):
// the next draw asks the host again (Core::arrays_safe).
bool changes_arrays(const std::string& n) {
    return starts(n, "glVertexAttribPointer") || starts(n, "glVertexAttribIPointer") ||
           starts(n, "glVertexAttribBinding") || starts(n, "glVertexAttribFormat") || starts(n, "glVertexAttribIFormat") ||
           starts(n, "glBindVertexBuffer") || starts(n, "glBindVertexArray") || starts(n, "glDeleteVertexArrays") ||
           starts(n, "glDeleteBuffers") || starts(n, "glEnableVertexAttribArray") || starts(n, "glDisableVertexAttribArray");
}

// Verbs that change a buffer's storage or delete buffers: in every context of
// the share group, attribute offsets and buffer ranges may now lie past an end.
bool changes_buffers(const std::string& n) {
    return starts(n, "glBufferData") || starts(n, "glBufferStorage") || starts(n, "glDeleteBuffers");
}

// Verbs after which an indexed buffer range (uniform, storage, atomic
// counter, transform feedback) may lie outside its buffer, or which buffer a
// range index names may change.
bool changes_ranges(const std::string& n) {
    return starts(n, "glBindBufferRange") || starts(n, "glBindBufferBase") || starts(n, "glBindTransformFeedback") ||
           starts(n, "glDeleteTransformFeedbacks");
}

// Verbs that fetch vertex attributes (and run shaders on buffer ranges).
bool draws(const std::string& n) {
    return (starts(n, "glDraw") || starts(n, "glMultiDraw")) && !starts(n, "glDrawBuffers");
}
// A direct draw as the rewriting hooks take it (the ProvokingDraw
// initializer of backends/espryt/espryt_core.h, from the verb's resolved
// arguments); empty for the draws that cannot be rewritten: indirect, multi
// and transform feedback draws, whose counts or indices are the GPU's or many.
std::string direct_draw(const Verb& v) {
    auto find = [&](const char* n) -> const Param* {
        for (const Param& p : v.params)
            if (p.name == n) return &p;
        return nullptr;
    };
    const Param* count = find("count");
    const bool elements = find("indices") != nullptr;
    const Param* first = elements ? nullptr : (find("first") ? find("first") : find("start"));
    if (!find("mode") || !count || count->kind != ParamKind::scalar || (!elements && !first) ||
        contains(v.name, "Indirect"))
        return {};
    const Param* inst = find("instancecount") ? find("instancecount") : find("primcount");
    std::string d = "ProvokingDraw{op_, mode, ";
    d += first ? first->name : std::string("0");
    d += ", count, ";
    d += elements ? "type, p_indices, " : "0, nullptr, ";
    d += inst ? inst->name : std::string("1");
    d += find("basevertex") ? ", basevertex" : ", 0";
    d += find("baseinstance") ? ", baseinstance}" : ", 0}";
    return d;
}
// A draw's provoking-vertex hook (backends/espryt/provoking_draw.cc), after
// its pointer arguments are resolved: under GL_FIRST_VERTEX_CONVENTION the
// direct draws (arrays and elements, instanced, base vertex/instance, range)
// are drawn there as rewritten index lists; the others draw as they are,
// said once. Last-vertex contexts pay one branch.
std::string provoking_hook(const Verb& v, const std::string& direct) {
    bool mode = false;
    for (const Param& p : v.params) mode |= p.name == "mode";
    if (!mode) return {};
    if (direct.empty()) return "if (provoking_first()) [[unlikely]] provoking_not_rewritten(op_, mode);";
    return std::string("if (provoking_first()) [[unlikely]] { if (draw_provoking_first(") + direct + ")) " + kRet + " }";
}
// A draw's GL_DOUBLE / GL_BGRA attribute hook (backends/espryt/converted_arrays.cc),
// after its pointer arguments are resolved: the draw's range for the direct
// draws, every vertex for the others.
std::string converted_arrays_hook(const std::string& direct) {
    const std::string d = direct.empty() ? "ProvokingDraw{op_, 0, 0, -1, 0, nullptr, 1, 0, 0}" : direct;
    return std::string("if (converted_pending()) [[unlikely]] { if (!convert_arrays(") + d + ")) " + kRet + " }";
}
// An indexed draw's primitive-restart hook (backends/espryt/restart_draw.cc),
// before the provoking one: desktop GL_PRIMITIVE_RESTART with any index; the
// draws that cannot be rewritten only check the index.
std::string restart_hook(const Verb& v, const std::string& direct) {
    bool type = false, indices = false;
    for (const Param& p : v.params) type |= p.name == "type", indices |= p.name == "indices";
    if (!type) return {};
    if (!indices || direct.empty())
        return std::string("if (restart_pending()) [[unlikely]] { if (!restart_fixed_ok(op_, type)) ") + kRet + " }";
    return std::string("if (restart_pending()) [[unlikely]] { if (draw_restart_rewritten(") + direct + ")) " + kRet + " }";
}
// Verbs that run shaders on buffer ranges without vertices.
bool dispatches(const std::string& n) { return starts(n, "glDispatchCompute"); }

Plan plan_verb(const Verb& v) {
    Plan pl;
    if (v.flavor == "custom" || v.flavor == "client") return pl.skip = "flavor " + v.flavor, pl;
    const bool is_delete = starts(v.name, "glDelete");
    const bool is_query = starts(v.name, "glIs") && v.returns == "GLboolean";
    const bool is_bind = starts(v.name, "glBind") && !contains(v.name, "Image");
    const bool null_ok = contains(v.name, "TexImage") && !contains(v.name, "SubImage");
    auto fail = [&](const std::string& why) { pl.skip = why; };
    // Count parameters replaced by the number of names that survive translation.
    std::map<std::string, std::string> count_subst;

    for (const Param& p : v.params) {
        if (!pl.skip.empty()) break;
        if (p.type && (p.type->name == "GLeglImageOES" || p.type->name == "GLeglClientBufferEXT" || p.type->name == "GLcallback"))
            return fail(p.name + ": host pointer type " + p.type->name), pl;
        if ((contains(p.ctype, "**") || contains(p.ctype, "*const*")) && p.kind != ParamKind::string_list &&
            p.kind != ParamKind::string_lengths)
            return fail(p.name + ": array of pointers"), pl;
        std::string kind;
        if (!p.handle.empty()) {
            auto it = kKinds.find(p.handle);
            if (p.handle != "sync" && it == kKinds.end()) return fail(p.name + ": unknown handle kind " + p.handle), pl;
            if (it != kKinds.end()) kind = it->second;
        }
        const std::string ec = elem_cpp(p);
        switch (p.kind) {
            case ParamKind::scalar: {
                if (p.handle == "sync") {
                    pl.pre.push_back("void* h_" + p.name + ";");
                    pl.pre.push_back("if (!sync_to_host(" + p.name + ", h_" + p.name + ")) [[unlikely]] { " +
                                     (is_query ? std::string("return 0;") : "name_error(op_, " + p.name + "); " + kRet) + " }");
                    pl.args.push_back("h_" + p.name);
                    if (is_delete) pl.post.push_back("forget_sync(" + p.name + ");");
                } else if (!kind.empty()) {
                    const std::string fn = is_bind ? "bind_to_host" : "to_host";
                    pl.pre.push_back("GLuint h_" + p.name + ";");
                    pl.pre.push_back("if (!" + fn + "(" + kind + ", " + p.name + ", h_" + p.name + ")) [[unlikely]] { " +
                                     (is_query ? std::string("return 0;") : "name_error(op_, " + kind + ", " + p.name + "); " + kRet) + " }");
                    pl.args.push_back("h_" + p.name);
                    if (is_delete) pl.post.push_back("forget(" + kind + ", " + p.name + ");");
                } else if (host_pointer_type(p.type->name)) {
                    return fail(p.name + ": pointer-sized value without a handle kind"), pl;
                } else {
                    pl.args.push_back(p.name);
                }
                break;
            }
            case ParamKind::mint_array: {
                if (kind.empty()) return fail(p.name + ": minted names of unknown kind"), pl;
                const Param* n = param_named(v, p.len);
                if (!n || n->kind != ParamKind::scalar) return fail(p.name + ": mint count is not a parameter"), pl;
                pl.scratch = true;
                pl.pre.push_back("GLuint* h_" + p.name + " = scratch_names(size_t(" + p.len + "));");
                pl.args.push_back("h_" + p.name);
                pl.post.push_back("record_minted(op_, " + kind + ", " + p.name + ", h_" + p.name + ", " + p.len + ");");
                break;
            }
            case ParamKind::cstring: pl.args.push_back(p.name + ".data"); break;
            case ParamKind::string_list:
                pl.args.push_back("reinterpret_cast<const char* const*>(" + p.name + ".data)");
                break;
            case ParamKind::string_lengths: pl.args.push_back("nullptr"); break;
            case ParamKind::in_array: {
                const std::string data = p.name + ".size ? static_cast<const void*>(" + p.name + ".data) : nullptr";
                if (!kind.empty()) {
                    const Param* n = param_named(v, p.len);
                    if (!n || n->kind != ParamKind::scalar) return fail(p.name + ": name count is not a parameter"), pl;
                    pl.scratch = true;
                    pl.pre.push_back("GLuint* h_" + p.name + " = scratch_names(size_t(" + p.len + "));");
                    if (is_delete) {
                        // Unknown names are skipped silently, as glDelete* does.
                        pl.pre.push_back("const GLsizei m_" + p.name + " = known_to_host(" + kind + ", " + p.name + ", " + p.len + ", h_" + p.name + ");");
                        count_subst[p.len] = "m_" + p.name;
                        pl.post.push_back("forget_all(" + kind + ", " + p.name + ", " + p.len + ");");
                    } else {
                        pl.pre.push_back("if (!all_to_host(op_, " + kind + ", " + p.name + ", " + p.len + ", h_" + p.name + ")) [[unlikely]] " + kRet);
                    }
                    pl.args.push_back("h_" + p.name);
                    break;
                }
                std::string expr;
                if (len_expr_code(v, p, "", expr)) {  // checked by the decoder
                    pl.args.push_back(data);
                    break;
                }
                auto a = compsize_args(p.len);
                if (a.size() == 1 && a[0] == "pname") {
                    pl.pre.push_back("if (!pname_fits(op_, pname, " + p.name + ".count())) [[unlikely]] " + kRet);
                } else if (a.size() == 1 && a[0] == "buffer") {
                    pl.pre.push_back("if (!clear_value_fits(op_, buffer, " + p.name + ".count())) [[unlikely]] " + kRet);
                } else if (a.size() == 2 && a[1] == "length" && a[0] == p.name) {
                    pl.pre.push_back("if (!string_fits(op_, " + p.name + ".data, " + p.name + ".size, length)) [[unlikely]] " + kRet);
                } else {
                    return fail(p.name + ": length " + (p.len.empty() ? "unknown" : p.len) + " not checkable"), pl;
                }
                pl.args.push_back(data);
                break;
            }
            case ParamKind::offset_or_in: {
                std::string src = "Src::" + p.source, need;
                bool retained = false;
                auto a = compsize_args(p.len);
                if (p.source == "element_array_buffer") {
                    // Indices: the size follows from count and type whatever gl.xml says.
                    if (!param_named(v, "count") || !param_named(v, "type")) return fail(p.name + ": indices without count/type"), pl;
                    need = "index_bytes(count, type)";
                } else if (p.source == "pixel_unpack_buffer" && a.size() == 4 && a[0] == "format") {
                    need = "unpack_bytes(format, type, width, height, 1, false)";
                } else if (p.source == "pixel_unpack_buffer" && a.size() == 5 && a[0] == "format") {
                    need = "unpack_bytes(format, type, width, height, depth, true)";
                } else if (p.source == "array_buffer") {
                    // The host keeps the pointer past the call: only offsets are safe.
                    retained = true;
                    need = "0";
                } else {
                    std::string expr;
                    if (!len_expr_code(v, p, "", expr)) return fail(p.name + ": length " + p.len + " not checkable"), pl;
                    need = "plain_bytes([&] { wire::LenCalc calc; const int64_t n_ = " + expr + "; return calc.ok() ? n_ : int64_t(-1); }(), sizeof(" + ec + "))";
                }
                pl.pre.push_back("const void* p_" + p.name + ";");
                pl.pre.push_back("if (!resolve_in(op_, " + src + ", " + p.name + ".data, " + p.name + ".size, " + p.name +
                                 ".offset, " + need + ", " + (null_ok ? "true" : "false") + ", " + (retained ? "true" : "false") +
                                 ", p_" + p.name + ")) [[unlikely]] " + kRet);
                pl.args.push_back("p_" + p.name);
                break;
            }
            case ParamKind::out_array: {
                if (!p.source.empty()) {
                    if (p.source != "pixel_pack_buffer") return fail(p.name + ": output to " + p.source), pl;
                    auto a = compsize_args(p.len);
                    std::string need, expr;
                    if (a.size() == 4 && a[0] == "format") need = "pack_bytes(format, type, width, height)";
                    else if (len_expr_code(v, p, "", expr))
                        need = "plain_bytes([&] { wire::LenCalc calc; const int64_t n_ = " + expr + "; return calc.ok() ? n_ : int64_t(-1); }(), sizeof(" + ec + "))";
                    else return fail(p.name + ": length " + p.len + " not checkable"), pl;
                    pl.pre.push_back("void* p_" + p.name + ";");
                    pl.pre.push_back("if (!resolve_out(op_, " + p.name + ".data, " + p.name + ".size, " + p.name + ".offset, " +
                                     need + ", p_" + p.name + ")) [[unlikely]] " + kRet);
                    pl.args.push_back("p_" + p.name);
                    break;
                }
                std::string expr;
                if (len_expr_code(v, p, "", expr)) {  // capacity checked by the decoder
                    pl.args.push_back(p.name + ".size ? static_cast<void*>(" + p.name + ".data) : nullptr");
                    if (!kind.empty()) pl.post.push_back("names_to_client(" + kind + ", " + p.name + ".data, " + p.name + ".count());");
                    break;
                }
                if (!kind.empty()) return fail(p.name + ": names out with unchecked length"), pl;
                auto a = compsize_args(p.len);
                std::string count;
                if (a.size() == 1 && (a[0] == "pname" || a[0] == "target")) count = "out_count(" + a[0] + ")";
                else if (a.size() == 2 && a[0] == "program" && a[1] == "location") count = "16";
                else if (a.size() == 3 && a[0] == "program" && a[1] == "uniformBlockIndex" && a[2] == "pname")
                    count = "block_out_count(h_program, uniformBlockIndex, pname)";
                else if (a.size() == 2 && a[0] == "uniformCount" && a[1] == "pname") {
                    pl.pre.push_back("if (!count_fits(op_, " + p.name + ".count(), int64_t(uniformCount))) [[unlikely]] " + kRet);
                    pl.args.push_back(p.name + ".data");
                    break;
                } else {
                    return fail(p.name + ": length " + (p.len.empty() ? "unknown" : p.len) + " not checkable"), pl;
                }
                // The host writes what it writes: into zeroed scratch, then as
                // much as the client asked for is copied into the reply.
                pl.scratch = true;
                pl.pre.push_back("void* s_" + p.name + " = scratch_out(" + count + ");");
                pl.args.push_back("s_" + p.name);
                pl.post.push_back("copy_out(" + p.name + ".data, " + p.name + ".size, s_" + p.name + ");");
                break;
            }
        }
    }
    if (!pl.skip.empty()) return pl;
    if (draws(v.name)) {
        pl.pre.insert(pl.pre.begin(), std::string("if (!arrays_safe(op_)) [[unlikely]] ") + kRet);
        pl.pre.insert(pl.pre.begin() + 1, "driver_uniforms();");
        const std::string direct = direct_draw(v);
        pl.pre.push_back(converted_arrays_hook(direct));
        if (std::string hook = restart_hook(v, direct); !hook.empty()) pl.pre.push_back(hook);
        if (std::string hook = provoking_hook(v, direct); !hook.empty()) pl.pre.push_back(hook);
    }
    if (dispatches(v.name)) pl.pre.insert(pl.pre.begin(), std::string("if (!ranges_safe(op_)) [[unlikely]] ") + kRet);
    if (changes_arrays(v.name)) pl.post.push_back("arrays_changed();");
    if (changes_ranges(v.name)) pl.post.push_back("ranges_changed();");
    if (changes_buffers(v.name)) pl.post.push_back("buffers_changed();");
    for (size_t i = 0; i < v.params.size(); ++i) {
        auto it = count_subst.find(v.params[i].name);
        if (it != count_subst.end()) pl.args[i] = it->second;
    }
    if (!v.ret_mint.empty()) {
        if (v.ret_mint == "sync") pl.post.push_back("record_minted_sync(op_, result, r_);");
        else if (kKinds.count(v.ret_mint)) pl.post.push_back("record_minted(op_, " + kKinds.at(v.ret_mint) + ", result, r_);");
        else return fail("minted result of unknown kind " + v.ret_mint), pl;
    }
    return pl;
}

std::string replace_ret(std::string s, const std::string& ret) {
    for (size_t at; (at = s.find(kRet)) != std::string::npos;) s.replace(at, std::string(kRet).size(), ret);
    return s;
}

// What a refused call returns: GL's "not found" value where 0 would be a
// valid answer (a uniform location, a block index), else zero.
std::string refused_value(const Verb& v) {
    if (v.returns == "GLint" && contains(v.name, "Location")) return "-1";
    if (v.returns == "GLuint" && v.name.size() > 5 && v.name.compare(v.name.size() - 5, 5, "Index") == 0)
        return "0xFFFFFFFFu";  // GL_INVALID_INDEX
    return "{}";
}

void emit_method(const Verb& v, const Plan& pl, std::ostringstream& o) {
    const std::string rt = backend_return(v);
    const std::string ret = rt == "void" ? "return;" : "return " + refused_value(v) + ";";
    o << rt << " EsprytGenerated::" << v.name << "(" << backend_params(v) << ") {\n"
      << "    constexpr gen::Op op_ = gen::Op::" << v.name << ";\n"
      << "    if (!avail_[hidx::" << v.name << "]) [[unlikely]] { unavailable(op_); " << ret << " }\n";
    if (pl.scratch) o << "    scratch_reset();\n";
    for (const auto& s : pl.pre) o << "    " << replace_ret(s, ret) << "\n";
    std::string call = "host_gl." + v.name + "(";
    for (size_t i = 0; i < pl.args.size(); ++i) call += (i ? ", " : "") + pl.args[i];
    call += ")";
    const bool keep = !v.ret_mint.empty() || rt != "void";
    o << "    " << (keep ? "const auto r_ = " : "") << call << ";\n";
    for (const auto& s : pl.post) o << "    " << s << "\n";
    if (rt != "void") o << "    return " << rt << "(r_);\n";
    o << "}\n\n";
}

}  // namespace

void emit_espryt(const Schema& s, std::vector<OutFile>& out) {
    collect_host_aliases(s);
    std::vector<const Verb*> host;  // every verb a host GLES may have
    for (const Verb& v : s.verbs)
        if (selected(v)) host.push_back(&v);
    std::vector<std::pair<const Verb*, Plan>> pass;
    std::vector<std::pair<const Verb*, std::string>> skipped;
    for (const Verb* v : host) {
        Plan pl = plan_verb(*v);
        if (pl.skip.empty()) pass.emplace_back(v, std::move(pl));
        else skipped.emplace_back(v, pl.skip);
    }

    {  // The host entry-point table.
        std::ostringstream o;
        o << kGeneratedBanner
          << "// Host GLES entry points for the Espryt backend, loaded once per process\n"
          << "// through eglGetProcAddress. Types are the ABI-equal wire types; every\n"
          << "// pointer is void* (GLsync and GLeglImageOES included).\n"
          << "#pragma once\n#include <cstdint>\n#include <functional>\n#include <string_view>\n\n"
          << "namespace mgl::espryt {\n\n"
          << "// Index of each host verb in a context's availability table.\nnamespace hidx {\nenum : uint16_t {\n";
        for (const Verb* v : host) o << "    " << v->name << ",\n";
        o << "    kCount\n};\n}  // namespace hidx\n\n"
          << "struct HostGL {\n";
        for (const Verb* v : host) {
            std::string t = host_fn_type(*v);
            // "R (*)(A, B)" -> "R (*name)(A, B)"
            t.insert(t.find("(*") + 2, v->name);
            o << "    " << t << ";\n";
        }
        o << "};\n\n"
          << "// The process-wide table; filled by load_host_gl() before any context is used.\n"
          << "extern HostGL host_gl;\n"
          << "void load_host_gl(void* (*get_proc)(const char*));\n\n"
          << "// avail[hidx::X] = 1 when the host context (GLES `es_version`, e.g. 32, with\n"
          << "// extensions answered by has_ext) has verb X and its entry point loaded.\n"
          << "void compute_availability(int es_version, const std::function<bool(std::string_view)>& has_ext, uint8_t* avail);\n\n"
          << "// Whether an extension of the host may be advertised to clients: true\n"
          << "// unless it brings verbs that this backend does not pass through.\n"
          << "bool extension_allowed(std::string_view name);\n\n"
          << "inline constexpr uint32_t kHostVerbs = hidx::kCount;\n"
          << "inline constexpr uint32_t kPassVerbs = " << pass.size() << ";\n\n"
          << "}  // namespace mgl::espryt\n";
        out.push_back({"espryt_host.h", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner << "#include \"gen/espryt_host.h\"\n\n#include <algorithm>\n#include <initializer_list>\n#include <iterator>\n\nnamespace mgl::espryt {\n\nHostGL host_gl{};\n\n"
          << "namespace {\n// The first of a verb's host names that the host resolves.\n"
          << "void* first_proc(void* (*get_proc)(const char*), std::initializer_list<const char*> names) {\n"
          << "    for (const char* n : names)\n        if (void* p = get_proc(n)) return p;\n    return nullptr;\n}\n"
          << "}  // namespace\n\n"
          << "void load_host_gl(void* (*get_proc)(const char*)) {\n";
        for (const Verb* v : host) {
            const std::vector<const Verb*> names = host_names(*v);
            o << "    host_gl." << v->name << " = reinterpret_cast<" << host_fn_type(*v) << ">(";
            if (names.size() == 1) {
                o << "get_proc(\"" << names[0]->name << "\"));\n";
                continue;
            }
            o << "first_proc(get_proc, {";
            for (size_t i = 0; i < names.size(); ++i) o << (i ? ", " : "") << "\"" << names[i]->name << "\"";
            o << "}));\n";
        }
        o << "}\n\nvoid compute_availability(int es, const std::function<bool(std::string_view)>& has_ext, uint8_t* avail) {\n";
        for (const Verb* v : host) {
            std::string cond;
            for (const auto& f : host_features(*v)) {
                if (!cond.empty()) cond += " || ";
                cond += is_es_core(f) ? "es >= " + std::to_string(es_version_of(f)) : "has_ext(\"" + f + "\")";
            }
            o << "    avail[hidx::" << v->name << "] = host_gl." << v->name << " && (" << cond << ");\n";
        }
        // Extensions that define verbs, none of which we pass through.
        std::set<std::string> with_verbs, served;
        for (const Verb& v : s.verbs)
            for (const auto& f : v.features)
                if (!starts(f, "GL_VERSION_") && !is_es_core(f)) (is_es_ext(f) ? served : with_verbs).insert(f);
        o << "}\n\nnamespace {\nconst std::string_view kUnserved[] = {\n";
        for (const auto& f : with_verbs)
            if (!served.count(f)) o << "    \"" << f << "\",\n";
        o << "};\n}  // namespace\n\nbool extension_allowed(std::string_view name) {\n"
          << "    return !std::binary_search(std::begin(kUnserved), std::end(kUnserved), name);\n}\n\n"
          << "}  // namespace mgl::espryt\n";
        out.push_back({"espryt_host.cc", o.str()});
    }
    {
        std::ostringstream o;
        o << kGeneratedBanner
          << "// Generated pass-through of the Espryt backend: one override per GLES verb\n"
          << "// that can be translated generically (names, pointer-or-offset arguments,\n"
          << "// COMPSIZE lengths). Helpers come from backends/espryt/espryt_core.h.\n"
          << "#pragma once\n\n#include \"espryt_core.h\"\n\nnamespace mgl::espryt {\n\n"
          << "class EsprytGenerated : public Core {\npublic:\n    using Core::Core;\n\n";
        for (const auto& [v, pl] : pass) o << "    " << backend_return(*v) << " " << v->name << "(" << backend_params(*v) << ") override;\n";
        o << "};\n\n}  // namespace mgl::espryt\n\n"
          << "// Host verbs: " << host.size() << "; generated: " << pass.size() << "; not generated: " << skipped.size() << "\n";
        for (const auto& [v, why] : skipped) o << "//   " << v->name << ": " << why << "\n";
        out.push_back({"espryt_pass.h", o.str()});
    }
    const int parts = 2;
    for (int part = 0; part < parts; ++part) {
        std::ostringstream o;
        o << kGeneratedBanner << "#include \"gen/espryt_pass.h\"\n#include \"mgl/wire/decode_support.h\"\n\n"
          << "namespace mgl::espryt {\n\n";
        for (size_t i = part * pass.size() / parts; i < (part + 1) * pass.size() / parts; ++i)
            emit_method(*pass[i].first, pass[i].second, o);
        o << "}  // namespace mgl::espryt\n";
        out.push_back({"espryt_pass_" + std::to_string(part) + ".cc", o.str()});
    }
}

}  // namespace mglgen
