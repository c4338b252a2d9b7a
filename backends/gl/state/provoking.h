// GL's provoking vertex (GL 4.6 compatibility, table 13.2; ARB_provoking_vertex)
// on a device that knows only the last-vertex convention (GLES): a draw under
// GL_FIRST_VERTEX_CONVENTION becomes a list of independent lines or triangles
// whose LAST vertex is the one GL takes the flat values from under the first
// convention, in the winding GL gives the primitive (so culling and
// gl_FrontFacing are unchanged). Once here for every backend that needs it
// (Espryt's draws: backends/espryt/provoking_draw.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mgl::gl {

enum class ProvokingRewrite : uint8_t {
    none,       // the convention does not matter (points, patches, an unknown mode)
    rewrite,    // lines, line strips and loops, triangles, strips and fans: rewritten
    adjacency,  // *_ADJACENCY: the provoking vertex is the geometry shader's; not rewritten
};

ProvokingRewrite provoking_rewrite(uint32_t mode);

// The first-vertex draw of `mode` (provoking_rewrite(mode) == rewrite) over
// the vertex ids `in[0..n)` as an index list appended to `out`, each index
// plus `base` (glDraw*BaseVertex); returns the mode of the list, GL_LINES or
// GL_TRIANGLES. `restart`: an id equal to `restart_index` ends a strip, fan
// or loop and starts the next one (primitive restart), as the device would.
//   triangles (a,b,c)         -> (b,c,a)
//   strip, triangle i even    -> (i+1,i+2,i); odd (i+2,i+1,i)
//   fan, triangle i           -> (i+2,0,i+1)
//   lines (a,b)               -> (b,a); strips and loops: each segment (i,i+1) -> (i+1,i)
uint32_t provoking_first_indices(uint32_t mode, const uint32_t* in, size_t n, bool restart, uint32_t restart_index,
                                 int64_t base, std::vector<uint32_t>& out);

}  // namespace mgl::gl
