// Display lists (glGenLists, glNewList/glEndList, glCallList(s), glListBase,
// glDeleteLists, glIsList), kept by the client as the operations that
// compiled them (ff_verbs.cc's header comment says why, and how their
// vertices are uploaded once).
#include <cstring>

#include "compat/ff_verbs.h"

namespace mgl_custom {
using namespace mgl::client::compat;

namespace {

void call_list(Context& ctx, uint32_t name) {
    FixedFunction& f = *ff(ctx);
    auto it = f.lists.find(name);
    if (it == f.lists.end() || !it->second) return;
    if (f.call_depth >= 64) return;  // GL_MAX_LIST_NESTING
    std::shared_ptr<DisplayList> keep = it->second;
    ++f.call_depth;  // the ops execute (compat/ff_gate.h): the gate stays only for glBegin/glEnd
    refresh_gate(ctx);
    for (auto& op : keep->ops) op(ctx);
    --f.call_depth;
    refresh_gate(ctx);
}

// A list that ends inside a glBegin it compiled (GL_COMPILE: not executed)
// keeps that glBegin and the vertices so far as calls: a later list (or the
// application) gives the glEnd.
void close_compiled_begin(Context& ctx, FixedFunction& f) {
    const GLenum mode = f.begin_mode;
    f.building->ops.push_back([mode](Context& c) { mgl_glBegin(mode); });
    // the materials given so far join the primitive that the later glEnd closes
    for (const auto& m : f.begin_materials)
        f.building->ops.push_back([m](Context& c) {
            if (ff(c)->in_begin) ff(c)->begin_materials.push_back(m);
            else m(c);
        });
    f.begin_materials.clear();
    const uint32_t sets = f.set_in_begin, generic_sets = f.generic_in_begin;
    const int pos_size = f.pos_size;
    for (size_t i = 0; i < f.vertices.size(); ++i) {
        const auto& v = f.vertices[i];
        const FixedFunction::Generics gv = generic_sets ? f.generic_vertices[i] : FixedFunction::Generics{};
        f.building->ops.push_back([v, sets, pos_size, generic_sets, gv](Context& c) {
            for (int a = 0; a < kAttrCount; ++a)
                if (a != kPos && (sets & (1u << a))) imm_attr(c, a, 4, v[a][0], v[a][1], v[a][2], v[a][3]);
            for (int g = 1; g < kMaxGeneric; ++g)
                if (generic_sets & (1u << g)) imm_generic(c, GLuint(g), 4, gv[g][0], gv[g][1], gv[g][2], gv[g][3]);
            imm_attr(c, kPos, pos_size, v[kPos][0], v[kPos][1], v[kPos][2], v[kPos][3]);
        });
    }
    f.in_begin = false;
    f.begin_compile_only = false;
    f.vertices.clear();
    f.generic_vertices.clear();
    f.current = f.saved_current;  // GL_COMPILE executes nothing
    f.generic = f.saved_generic;
}

void list_op(Context& ctx, uint32_t name) {
    if (record(ctx, [name](Context& c) { call_list(c, name); })) return;
    call_list(ctx, name);
}

}  // namespace

GLuint glGenLists(GLsizei range) {
    FF_OR_RETURN("glGenLists", 0u);
    NOT_IN_BEGIN("glGenLists", 0u);
    if (range < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glGenLists");
        return 0;
    }
    if (range == 0) return 0;
    const uint32_t first = f->next_list;
    for (uint32_t i = 0; i < uint32_t(range); ++i) f->lists[first + i] = nullptr;  // reserved, empty
    f->next_list += uint32_t(range);
    return first;
}

void glNewList(GLuint list, GLenum mode) {
    FF_OR_RETURN("glNewList");
    NOT_IN_BEGIN("glNewList");
    if (list == 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glNewList");
        return;
    }
    if (mode != 0x1300 && mode != 0x1301) {  // GL_COMPILE, GL_COMPILE_AND_EXECUTE
        gl_error(*ctx, GL_INVALID_ENUM, "glNewList");
        return;
    }
    if (f->compiling) {
        gl_error(*ctx, GL_INVALID_OPERATION, "glNewList");
        return;
    }
    f->compiling = list;
    f->compile_and_execute = mode == 0x1301;
    f->building = std::make_shared<DisplayList>();
    f->saved_current = f->current;
    f->saved_generic = f->generic;
    refresh_gate(*ctx);
}

void glEndList() {
    FF_OR_RETURN("glEndList");
    NOT_IN_BEGIN("glEndList");
    if (!f->compiling) {
        gl_error(*ctx, GL_INVALID_OPERATION, "glEndList");
        return;
    }
    if (f->in_begin) close_compiled_begin(*ctx, *f);
    upload_list(*ctx, *f->building);
    f->lists[f->compiling] = std::move(f->building);
    f->next_list = std::max(f->next_list, f->compiling + 1);
    f->compiling = 0;
    refresh_gate(*ctx);
}

void glCallList(GLuint list) {
    FF_OR_RETURN("glCallList");  // allowed between glBegin and glEnd
    list_op(*ctx, list);
}

void glCallLists(GLsizei n, GLenum type, const void* lists) {
    FF_OR_RETURN("glCallLists");  // allowed between glBegin and glEnd
    if (n < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glCallLists");
        return;
    }
    const uint8_t* p = static_cast<const uint8_t*>(lists);
    for (GLsizei i = 0; i < n; ++i) {
        uint32_t v = 0;
        switch (type) {
            case GL_BYTE: v = uint32_t(int32_t(int8_t(p[i]))); break;
            case GL_UNSIGNED_BYTE: v = p[i]; break;
            case GL_SHORT: { int16_t s; std::memcpy(&s, p + 2 * i, 2); v = uint32_t(int32_t(s)); break; }
            case GL_UNSIGNED_SHORT: { uint16_t s; std::memcpy(&s, p + 2 * i, 2); v = s; break; }
            case GL_INT: case GL_UNSIGNED_INT: std::memcpy(&v, p + 4 * i, 4); break;
            case GL_FLOAT: { float x; std::memcpy(&x, p + 4 * i, 4); v = uint32_t(x); break; }
            case 0x1407: v = uint32_t(p[2 * i]) * 256 + p[2 * i + 1]; break;  // GL_2_BYTES
            case 0x1408: v = (uint32_t(p[3 * i]) << 16) | (uint32_t(p[3 * i + 1]) << 8) | p[3 * i + 2]; break;
            case 0x1409: v = (uint32_t(p[4 * i]) << 24) | (uint32_t(p[4 * i + 1]) << 16) | (uint32_t(p[4 * i + 2]) << 8) | p[4 * i + 3]; break;
            default: gl_error(*ctx, GL_INVALID_ENUM, "glCallLists"); return;
        }
        list_op(*ctx, f->list_base + v);
    }
}

void glListBase(GLuint base) {
    FF_OR_RETURN("glListBase");
    NOT_IN_BEGIN("glListBase");
    f->list_base = base;
}

void glDeleteLists(GLuint list, GLsizei range) {
    FF_OR_RETURN("glDeleteLists");
    NOT_IN_BEGIN("glDeleteLists");
    if (range < 0) {
        gl_error(*ctx, GL_INVALID_VALUE, "glDeleteLists");
        return;
    }
    for (GLsizei i = 0; i < range; ++i) {
        auto it = f->lists.find(list + uint32_t(i));
        if (it == f->lists.end()) continue;
        if (it->second) {
            for (auto& d : it->second->draws)
                if (d->vao) ctx->enc->glDeleteVertexArrays(1, wire::Blob{&d->vao, 4});
            if (it->second->buffer) ctx->enc->glDeleteBuffers(1, wire::Blob{&it->second->buffer, 4});
            for (uint32_t t : it->second->textures) mgl_glDeleteTextures(1, &t);
        }
        f->lists.erase(it);
        f->list_labels.erase(list + uint32_t(i));
    }
}

GLboolean glIsList(GLuint list) {
    FF_OR_RETURN("glIsList", GLboolean(GL_FALSE));
    NOT_IN_BEGIN("glIsList", GLboolean(GL_FALSE));
    auto it = f->lists.find(list);
    return it != f->lists.end() && it->second ? GL_TRUE : GL_FALSE;
}

}  // namespace mgl_custom
