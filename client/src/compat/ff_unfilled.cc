// glPolygonMode GL_LINE / GL_POINT and edge flags for the lowering's draws:
// GLES has no polygon mode, so the client does what Mesa's draw module does
// in its "unfilled" stage (gallium/auxiliary/draw/draw_pipe_unfilled.c), the
// stage native llvmpipe runs:
// - polygons are decomposed into triangles the way Mesa's decomposer does
//   (draw_decompose_tmp.h, last-vertex convention), each triangle with the
//   flags of the polygon edges it carries (a quad's diagonal is no edge);
// - each triangle's facing comes from its clip-space positions (the sign of
//   det[x y w] is that of the window-space area, also for triangles that
//   cross w = 0), GL_FRONT_FACE says which is front, GL_CULL_FACE culls it
//   (culling comes before the polygon mode);
// - the polygon mode of its face says what is drawn: the triangle (GL_FILL),
//   its flagged edges whose starting vertex has its edge flag set, as lines
//   (in Mesa's order and direction: v2->v0, v0->v1, v1->v2), or those
//   vertices as points;
// - with flat shading every emitted vertex takes the provoking vertex's
//   colours (and normal, for lighting), since GLES's provoking vertex of a
//   line or point is its own last vertex;
// - GL_POLYGON_OFFSET_LINE/_POINT: the offset (factor * max depth slope +
//   units * r) is added to the clip-space depth in the vertex stage (mgl_zoff;
//   the host's glPolygonOffset applies only to filled triangles, which keep it).
// The output is drawn through the lowering's normal path (same program key,
// line width and point size apply); runs of one kind and one offset are one
// draw each, in the order of the polygons. Draws with an application program
// are not lowered (the client cannot run its vertex stage): they stay filled.
#include <cmath>
#include <cstring>

#include "compat/ff_verbs.h"

namespace mgl::client::compat {

namespace {

constexpr GLenum kFill = 0x1B02, kLine = 0x1B01, kPoint = 0x1B00;
constexpr GLenum kTriangles = 0x0004, kTriStrip = 0x0005, kTriFan = 0x0006, kQuads = 0x0007, kQuadStrip = 0x0008,
                 kPolygon = 0x0009;
constexpr unsigned kE0 = 1, kE1 = 2, kE2 = 4, kAll = 7;

// 24-bit depth: the minimum resolvable difference in window depth (llvmpipe's
// for Z24 formats, the depth buffers of the host's framebuffers).
constexpr double kMrd = 1.0 / double((1 << 24) - 1);

struct Stage {
    Context& ctx;
    FixedFunction& f;
    const Layout& l;
    const uint8_t* data;
    const uint8_t* edges;
    bool flat, cull_front, cull_back, front_ccw;
    std::vector<std::array<float, 4>> clip;  // clip-space positions per vertex
    std::vector<uint8_t> out;
    std::vector<Batch> batches;
    int emitted = 0;

    bool ef(uint32_t v) const { return !edges || edges[v]; }

    void emit(uint32_t v, uint32_t pv) {
        const size_t at = out.size();
        out.insert(out.end(), data + size_t(v) * size_t(l.stride), data + size_t(v + 1) * size_t(l.stride));
        if (flat && v != pv) {
            const uint8_t* src = data + size_t(pv) * size_t(l.stride);
            for (int a : {int(kColor), int(kColor2), f.lighting ? int(kNormal) : -1})
                if (a >= 0 && l.size[size_t(a)] > 0)
                    std::memcpy(&out[at + size_t(l.offset[size_t(a)])], src + l.offset[size_t(a)],
                                size_t(l.size[size_t(a)]) * 4);
        }
        ++emitted;
    }

    // Starts (or continues) a batch of `prim` with depth offset `zoff`.
    void batch(GLenum prim, float zoff) {
        if (!batches.empty() && batches.back().prim == prim && batches.back().zoff == zoff) return;
        if (!batches.empty() && batches.back().count == 0) batches.pop_back();
        batches.push_back({prim, emitted, 0, zoff});
    }
    void close() { batches.back().count = emitted - batches.back().first; }

    // The polygon offset (NDC depth) of triangle a, b, c for `prim` (GL_LINES, GL_POINTS).
    float offset(uint32_t a, uint32_t b, uint32_t c, bool enabled) {
        if (!enabled) return 0;
        const State& st = ctx.st;
        const double sx = st.viewport[2] * 0.5, sy = st.viewport[3] * 0.5;
        const double sz = (double(st.depth_range[1]) - st.depth_range[0]) * 0.5;
        double w[3][3];
        const uint32_t v[3] = {a, b, c};
        for (int i = 0; i < 3; ++i) {
            const auto& p = clip[v[i]];
            const double iw = p[3] != 0.0F ? 1.0 / p[3] : 0.0;
            w[i][0] = p[0] * iw * sx, w[i][1] = p[1] * iw * sy, w[i][2] = p[2] * iw * sz;
        }
        // Mesa's draw_pipe_offset: the depth slopes of the triangle's plane
        const double ex = w[0][0] - w[2][0], ey = w[0][1] - w[2][1], ez = w[0][2] - w[2][2];
        const double fx = w[1][0] - w[2][0], fy = w[1][1] - w[2][1], fz = w[1][2] - w[2][2];
        const double det = ex * fy - ey * fx;
        double slope = 0;
        if (det != 0) {
            const double inv = 1.0 / det;
            const double dzdx = std::fabs((ey * fz - ez * fy) * inv), dzdy = std::fabs((ez * fx - ex * fz) * inv);
            slope = std::max(dzdx, dzdy);
        }
        const double window = st.polygon_offset_factor * slope + st.polygon_offset_units * kMrd;
        return sz != 0 ? float(window / sz) : 0.0F;  // window depth to NDC
    }

    // `pv`: the polygon's provoking vertex (GL 4.6 compat table 13.2, by the
    // context's convention), whose colours a flat-shaded polygon's edges take.
    void tri(uint32_t a, uint32_t b, uint32_t c, unsigned flags, uint32_t pv) {
        const auto &A = clip[a], &B = clip[b], &C = clip[c];
        const float det = A[0] * (B[1] * C[3] - C[1] * B[3]) - B[0] * (A[1] * C[3] - C[1] * A[3]) +
                          C[0] * (A[1] * B[3] - B[1] * A[3]);
        const bool front = (det > 0) == front_ccw;
        if (front ? cull_front : cull_back) return;
        const GLenum mode = f.polygon_mode[front ? 0 : 1];
        if (mode == kLine) {
            batch(GL_LINES, offset(a, b, c, f.offset_line));
            if ((flags & kE2) && ef(c)) emit(c, pv), emit(a, pv);
            if ((flags & kE0) && ef(a)) emit(a, pv), emit(b, pv);
            if ((flags & kE1) && ef(b)) emit(b, pv), emit(c, pv);
        } else if (mode == kPoint) {
            batch(GL_POINTS, offset(a, b, c, f.offset_point));
            if ((flags & kE0) && ef(a)) emit(a, pv);
            if ((flags & kE1) && ef(b)) emit(b, pv);
            if ((flags & kE2) && ef(c)) emit(c, pv);
        } else {
            batch(GL_TRIANGLES, 0);  // the host's own polygon offset applies to these
            emit(a, pv), emit(b, pv), emit(c, pv);
        }
        close();
    }
};

}  // namespace

bool unfilled(const FixedFunction& f, GLenum mode) {
    return mode >= kTriangles && mode <= kPolygon && (f.polygon_mode[0] != kFill || f.polygon_mode[1] != kFill);
}

void draw_unfilled(Context& ctx, FixedFunction& f, GLenum mode, const Layout& l, const uint8_t* data, int count,
                   const uint8_t* edges, const std::vector<uint32_t>* indices) {
    bool cull = false;
    ctx.st.cap(GL_CULL_FACE, &cull);
    const GLenum cf = ctx.st.cull_face;
    // Edge flags belong to independent triangles, quads and polygons (GL 2.1 §2.6.2); strips and fans draw every edge.
    const bool use_edges = edges && (mode == kTriangles || mode == kQuads || mode == kPolygon);
    Stage s{ctx, f, l, data, use_edges ? edges : nullptr, f.shade_model == 0x1D00,
            cull && cf != GL_BACK, cull && cf != GL_FRONT, ctx.st.front_face == GL_CCW, {}, {}, {}, 0};
    // clip-space positions, as the generated vertex stage computes them (P * MV, then the position)
    float mvp[16];
    mat_mul(mvp, f.top(1).m, f.top(0).m);
    s.clip.resize(size_t(count));
    const int psize = l.size[kPos];
    for (int v = 0; v < count; ++v) {
        float p[4] = {0, 0, 0, 1};
        std::memcpy(p, data + size_t(v) * size_t(l.stride) + l.offset[kPos], size_t(psize) * 4);
        for (int r = 0; r < 4; ++r)
            s.clip[size_t(v)][size_t(r)] = mvp[r] * p[0] + mvp[4 + r] * p[1] + mvp[8 + r] * p[2] + mvp[12 + r] * p[3];
    }
    const int n = indices ? int(indices->size()) : count;
    auto E = [&](int i) { return indices ? (*indices)[size_t(i)] : uint32_t(i); };
    s.out.reserve(size_t(n) * 2 * size_t(l.stride));
    // Mesa's decomposition (draw_decompose_tmp.h); the provoking vertex by
    // the convention (glProvokingVertex; quads follow it, as this
    // implementation answers GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION)
    const bool first = ctx.st.provoking_first;
    switch (mode) {
        case kTriangles:
            for (int i = 0; i + 2 < n; i += 3) s.tri(E(i), E(i + 1), E(i + 2), kAll, E(first ? i : i + 2));
            break;
        case kTriStrip:
            for (int i = 0; i + 2 < n; ++i) {
                const uint32_t pv = E(first ? i : i + 2);
                if (i & 1) s.tri(E(i + 1), E(i), E(i + 2), kAll, pv);
                else s.tri(E(i), E(i + 1), E(i + 2), kAll, pv);
            }
            break;
        case kTriFan:
            for (int i = 0; i + 2 < n; ++i) s.tri(E(0), E(i + 1), E(i + 2), kAll, E(first ? i + 1 : i + 2));
            break;
        case kQuads:
            for (int i = 0; i + 3 < n; i += 4) {
                const uint32_t pv = E(first ? i : i + 3);
                s.tri(E(i), E(i + 1), E(i + 3), kE0 | kE2, pv);
                s.tri(E(i + 1), E(i + 2), E(i + 3), kE0 | kE1, pv);
            }
            break;
        case kQuadStrip:
            for (int i = 0; i + 3 < n; i += 2) {
                const uint32_t pv = E(first ? i : i + 3);
                s.tri(E(i + 2), E(i), E(i + 3), kE0 | kE2, pv);
                s.tri(E(i), E(i + 1), E(i + 3), kE0 | kE1, pv);
            }
            break;
        default:  // GL_POLYGON: (i+1, i+2, 0), the first vertex provoking in both conventions
            for (int i = 0; i + 2 < n; ++i) {
                unsigned flags = kE0;
                if (i == 0) flags |= kE2;
                if (i + 3 == n) flags |= kE1;
                s.tri(E(i + 1), E(i + 2), E(0), flags, E(0));
            }
            break;
    }
    if (!s.batches.empty() && s.batches.back().count == 0) s.batches.pop_back();
    draw_batches(ctx, f, l, s.out.data(), s.emitted, s.batches);
}

}  // namespace mgl::client::compat

namespace mgl_custom {
using namespace mgl::client::compat;

void glPolygonMode(GLenum face, GLenum mode) {
    MGL_CTX_OR_RETURN("glPolygonMode");
    FixedFunction* f = ff(*ctx);
    if (!f) {
        // core and ES contexts (glPolygonModeNV): the server's (refused where the host has no polygon mode)
        ctx->enc->glPolygonMode(face, mode);
        return;
    }
    if (begin_error(*ctx, *f, "glPolygonMode")) return;
    if (face != GL_FRONT && face != GL_BACK && face != GL_FRONT_AND_BACK)
        return gl_error(*ctx, GL_INVALID_ENUM, "glPolygonMode");
    if (mode != kFill && mode != kLine && mode != kPoint) return gl_error(*ctx, GL_INVALID_ENUM, "glPolygonMode");
    auto run = [face, mode](Context& c) {  // (draws of GLSL programs say once that they stay filled: program_builtins.cc)
        FixedFunction& g = *ff(c);
        if (face != GL_BACK) g.polygon_mode[0] = mode;
        if (face != GL_FRONT) g.polygon_mode[1] = mode;
    };
    if (record(*ctx, run)) return;
    run(*ctx);
}

void glEdgeFlag(GLboolean flag) {
    MGL_CTX_OR_RETURN("glEdgeFlag");
    FixedFunction* f = ff(*ctx);
    if (!f) return profile_error(*ctx, "glEdgeFlag");
    const bool on = flag != GL_FALSE;
    if (f->in_begin) {
        f->edge_flag = on;
        return;
    }
    auto run = [on](Context& c) { ff(c)->edge_flag = on; };
    if (record(*ctx, run)) return;
    run(*ctx);
}

void glEdgeFlagv(const GLboolean* flag) { glEdgeFlag(*flag); }

// The point size goes to the server too, but a GLES host sizes points by
// gl_PointSize only (and has no GL_POINT_SIZE query): the lowering's vertex
// stage writes it (points of GL_POINTS draws and of glPolygonMode GL_POINT
// alike) and glGet answers it from here (ff_points.cc).
void glPointSize(GLfloat size) {
    MGL_CTX_OR_RETURN("glPointSize");
    FixedFunction* f = ff(*ctx);
    if (!f) return ctx->enc->glPointSize(size);
    if (begin_error(*ctx, *f, "glPointSize")) return;
    auto run = [size](Context& c) {
        if (size > 0) ff(c)->point_size = size;
        c.enc->glPointSize(size);  // the server raises GL_INVALID_VALUE for a size <= 0
    };
    if (record(*ctx, run)) return;
    run(*ctx);
}

}  // namespace mgl_custom
