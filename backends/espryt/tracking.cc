// The few pieces of GL state the backend mirrors so that it can tell, without
// asking the host, whether a pointer argument is an offset into a bound
// buffer (and how many bytes an inline image holds): buffer bindings, the
// vertex array's element buffer, and the pixel store.
#include <GLES3/gl32.h>

#include "backend.h"

namespace mgl::espryt {

void EsprytBackend::glPixelStorei(GLenum pname, GLint param) {
    EsprytGenerated::glPixelStorei(pname, param);
    if (cur_ && avail_[hidx::glPixelStorei]) pixel_store(cur_->unpack, cur_->pack, pname, param);
}

void EsprytBackend::glBindBuffer(GLenum target, GLuint buffer) {
    EsprytGenerated::glBindBuffer(target, buffer);
    if (!cur_ || !avail_[hidx::glBindBuffer]) return;
    if (buffer && !cur_->maps[int(Kind::buffer)]->contains(buffer)) return;  // refused above
    uint32_t* b = cur_->bound;
    switch (target) {
        case GL_ARRAY_BUFFER: b[int(Src::array_buffer)] = buffer; break;
        case GL_ELEMENT_ARRAY_BUFFER:
            // Vertex array state: remembered per vertex array object.
            b[int(Src::element_array_buffer)] = buffer;
            cur_->vao_elements[cur_->vertex_array] = buffer;
            break;
        case GL_PIXEL_PACK_BUFFER: b[int(Src::pixel_pack_buffer)] = buffer; break;
        case GL_PIXEL_UNPACK_BUFFER: b[int(Src::pixel_unpack_buffer)] = buffer; break;
        case GL_DRAW_INDIRECT_BUFFER: b[int(Src::draw_indirect_buffer)] = buffer; break;
        default: break;
    }
}

static void track_vertex_array(Context& c, GLuint array) {
    if (array && !c.maps[int(Kind::vertex_array)]->contains(array)) return;  // refused
    c.vertex_array = array;
    auto it = c.vao_elements.find(array);
    c.bound[int(Src::element_array_buffer)] = it == c.vao_elements.end() ? 0 : it->second;
}

void EsprytBackend::glBindVertexArray(GLuint array) {
    EsprytGenerated::glBindVertexArray(array);
    if (cur_ && avail_[hidx::glBindVertexArray]) track_vertex_array(*cur_, array);
}

void EsprytBackend::glBindVertexArrayOES(GLuint array) {
    EsprytGenerated::glBindVertexArrayOES(array);
    if (cur_ && avail_[hidx::glBindVertexArrayOES]) track_vertex_array(*cur_, array);
}

void EsprytBackend::glDeleteBuffers(GLsizei n, wire::In<GLuint> buffers) {
    EsprytGenerated::glDeleteBuffers(n, buffers);
    if (!cur_ || !avail_[hidx::glDeleteBuffers]) return;
    // GL unbinds a deleted buffer from the current context's binding points
    // and from the current vertex array (other vertex arrays keep it alive).
    for (GLsizei i = 0; i < n; ++i) {
        const GLuint name = buffers.data[i];
        if (!name) continue;
        for (uint32_t& b : cur_->bound)
            if (b == name) b = 0;
        auto it = cur_->vao_elements.find(cur_->vertex_array);
        if (it != cur_->vao_elements.end() && it->second == name) it->second = 0;
    }
}

static void forget_vertex_arrays(Context& c, GLsizei n, wire::In<GLuint> arrays) {
    for (GLsizei i = 0; i < n; ++i) {
        const GLuint name = arrays.data[i];
        if (!name) continue;
        c.vao_elements.erase(name);
        if (name == c.vertex_array) track_vertex_array(c, 0);  // deleting the bound one binds 0
    }
}

void EsprytBackend::glDeleteVertexArrays(GLsizei n, wire::In<GLuint> arrays) {
    EsprytGenerated::glDeleteVertexArrays(n, arrays);
    if (cur_ && avail_[hidx::glDeleteVertexArrays]) forget_vertex_arrays(*cur_, n, arrays);
}

void EsprytBackend::glDeleteVertexArraysOES(GLsizei n, wire::In<GLuint> arrays) {
    EsprytGenerated::glDeleteVertexArraysOES(n, arrays);
    if (cur_ && avail_[hidx::glDeleteVertexArraysOES]) forget_vertex_arrays(*cur_, n, arrays);
}

}  // namespace mgl::espryt
