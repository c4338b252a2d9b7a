// What the generated pass-through (gen/espryt_pass.h) stands on: the current
// context, name translation, pointer-argument resolution, COMPSIZE checks,
// scratch memory and GL error bookkeeping. Small inline helpers are on the
// per-call path; everything that logs or allocates is out of line.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "context.h"
#include "gen/espryt_host.h"
#include "mgl/espryt/espryt.h"

namespace mgl::espryt {

// The binding that names the texture of `target` (storage.cc): a cube face's
// is the cube map's, its index in `face`; 0 for a target without one.
GLenum texture_binding(GLenum target, uint32_t* face);
// The GL_*_BINDING of a buffer target; 0 for an unknown target (storage.cc).
GLenum buffer_binding(GLenum target);

class Core : public Espryt {
public:
    explicit Core(const Options& options);
    ~Core() override;

    void unsupported(gen::Op verb) override;
    void set_memory_budget(wire::MemoryBudget* budget) override { budget_ = budget; }
    void profile_refused(gen::Op verb) override;
    uint32_t take_error() override;
    uint32_t take_error_event(uint32_t* context) override;

protected:
    // ---- current context ------------------------------------------------
    Context* cur_ = nullptr;
    // hidx -> available on the current context; all zero when none is current.
    const uint8_t* avail_;
    void set_current(Context* c);

    // A generated verb the host context lacks (or no context is current).
    void unavailable(gen::Op verb);

    // ---- names ----------------------------------------------------------
    bool to_host(Kind k, GLuint client, GLuint& host) const {
        if (client == 0) {
            host = 0;
            return true;
        }
        return cur_->maps[int(k)]->find(client, host);
    }
    // glBind* of buffers, textures, renderbuffers and framebuffers creates
    // the object for a name never generated, as GLES allows.
    bool bind_to_host(Kind k, GLuint client, GLuint& host) {
        if (to_host(k, client, host)) return true;
        return create_on_bind(k, client, host);
    }
    bool sync_to_host(GLsync client, void*& host) const {
        if (client == 0) {
            host = nullptr;
            return true;
        }
        return cur_->share->syncs.find(client, host);
    }
    GLuint to_client(Kind k, GLuint host) const { return host ? cur_->maps[int(k)]->to_client(host) : 0; }
    void forget(Kind k, GLuint client) {
        if (!client) return;
        const uint32_t host = cur_->maps[int(k)]->erase(client);
        if (host && k <= Kind::renderbuffer) cur_->share->storage.release(k, host);
    }
    void forget_sync(GLsync client) { cur_->share->syncs.erase(client); }
    void forget_all(Kind k, wire::In<GLuint> names, GLsizei n);
    // Translates the known names of `names` (first n) into `out`, skipping
    // unknown ones and 0; returns how many were written.
    GLsizei known_to_host(Kind k, wire::In<GLuint> names, GLsizei n, GLuint* out) const;
    // Translates all of them; false (and a GL error) when one is unknown.
    bool all_to_host(gen::Op verb, Kind k, wire::In<GLuint> names, GLsizei n, GLuint* out);
    void names_to_client(Kind k, GLuint* names, uint32_t n) const;
    void record_minted(gen::Op verb, Kind k, wire::In<GLuint> names, const GLuint* host, GLsizei n);
    void record_minted(gen::Op verb, Kind k, GLuint client, GLuint host);
    void record_minted_sync(gen::Op verb, GLsync client, void* host);
    // An unknown client name: a GL error, and the host is never called with
    // a name the client did not mint (host name 0 would mean "default").
    void name_error(gen::Op verb, Kind k, GLuint client);
    void name_error(gen::Op verb, GLsync client);

    // ---- pointer arguments -----------------------------------------------
    // `data`/`size`: inline client bytes, or data == nullptr and `offset` into
    // the buffer bound at `src`. `need`: bytes the host will read
    // (kUnknownSize: cannot tell). null_ok: a null pointer is meaningful
    // (glTexImage* without data). retained: the host keeps the pointer past
    // the call (attribute pointers), so only offsets are acceptable.
    bool resolve_in(gen::Op verb, Src src, const void* data, uint32_t size, uint64_t offset, uint64_t need, bool null_ok,
                    bool retained, const void*& out);
    bool resolve_out(gen::Op verb, void* data, uint32_t size, uint64_t offset, uint64_t need, void*& out);
    // Whether the host has a buffer bound at `s` now: the host's state, not a
    // mirror, decides whether an argument is an offset or a pointer.
    bool bound(Src s) const;
    // Before a draw: every enabled attribute of the current vertex array reads
    // a buffer (a client array would make the host read the offset, or null
    // plus first * stride, as server memory). Asks the host only when a verb
    // since the last check could have changed it; refuses the draw with
    // GL_INVALID_OPERATION and a log line otherwise.
    bool arrays_safe(gen::Op verb) {
        return (cur_->arrays_checked == cur_->share->buffer_epoch || check_arrays(verb)) && ranges_safe(verb);
    }
    // Before a draw: the uniforms the shader front end added that the backend
    // sets (driver_uniforms.h), for a current program that reads one, and the
    // image units and storage bindings routed to the application's
    // (unit_routing.cc); only share groups that linked such a program pay.
    void driver_uniforms() {
        if (cur_->share->draw_time_programs ||
            ((cur_->share->point_sizes || cur_->share->point_origins || cur_->share->alpha_tests) &&
             cur_->share->driver_uniform_programs) ||
            cur_->share->routed_programs || cur_->displaced) [[unlikely]]
            set_driver_uniforms();
    }
    virtual void set_driver_uniforms() {}
    // A draw under desktop GL_FIRST_VERTEX_CONVENTION, which GLES lacks
    // (provoking_draw.cc): the generated draws call draw_provoking_first
    // after resolving their pointers (true: drawn there as a rewritten index
    // list), or provoking_not_rewritten for the forms that cannot be. Contexts
    // under the last-vertex convention, every ES one among them, pay one branch.
    struct ProvokingDraw {
        gen::Op op;
        GLenum mode;
        GLint first;          // glDrawArrays*
        GLsizei count;
        GLenum type;          // glDrawElements*: the index type (0: an arrays draw)
        const void* indices;  // resolved: client bytes, or an offset in the bound element buffer
        GLsizei instances;
        GLint basevertex;
        GLuint baseinstance;
    };
    bool provoking_first() const { return cur_->dstate.provoking_vertex == 0x8E4D; }
    // GL_DOUBLE and GL_BGRA vertex attributes, which a GLES host has not (converted_arrays.cc):
    // the generated draws refresh their converted copies for the vertices they
    // read (a count below 0: every vertex, for indirect and multi draws);
    // false: refused there. Contexts without one pay one branch.
    bool converted_pending() const { return !cur_->converted_arrays.empty(); }
    virtual bool convert_arrays(const ProvokingDraw&) { return true; }
    // Desktop GL_PRIMITIVE_RESTART on (restart_draw.cc): an indexed draw turns
    // the host's fixed-index restart on; with another index than the type's
    // all-ones one, a direct draw is drawn from rewritten indices (true: drawn
    // there) and an indirect or multi draw is refused (restart_fixed_ok false).
    bool restart_pending() const { return cur_->dstate.primitive_restart; }
    virtual bool draw_restart_rewritten(const ProvokingDraw&) { return false; }
    virtual bool restart_fixed_ok(gen::Op, GLenum) { return true; }
    virtual bool draw_provoking_first(const ProvokingDraw&) { return false; }
    virtual void provoking_not_rewritten(gen::Op, GLenum) {}
    bool ranges_safe(gen::Op verb) { return cur_->ranges_checked == cur_->share->buffer_epoch || check_ranges(verb); }
    bool check_arrays(gen::Op verb);
    bool check_ranges(gen::Op verb);
    // The size of a host buffer, asked through GL_COPY_READ_BUFFER (restored).
    int64_t host_buffer_size(GLuint host);
    // An offset (plus `need` bytes, 0: only the offset) inside the buffer the
    // host has bound at `s`; refuses otherwise.
    bool offset_fits(gen::Op verb, Src s, uint64_t offset, uint64_t need);
    void arrays_changed() { cur_->arrays_checked = 0; }
    void ranges_changed() { cur_->ranges_checked = 0; }
    // A buffer's storage changed or a buffer went away: every context of the
    // share group checks again.
    void buffers_changed() { ++cur_->share->buffer_epoch; }

    uint64_t index_bytes(GLsizei count, GLenum type) const { return espryt::index_bytes(count, type); }
    uint64_t unpack_bytes(GLenum format, GLenum type, GLsizei w, GLsizei h, GLsizei d, bool three_d) const {
        return image_bytes(cur_->unpack, format, type, w, h, d, three_d);
    }
    uint64_t pack_bytes(GLenum format, GLenum type, GLsizei w, GLsizei h) const {
        return image_bytes(cur_->pack, format, type, w, h, 1, false);
    }
    static uint64_t plain_bytes(int64_t n, size_t elem) { return n < 0 ? kUnknownSize : uint64_t(n) * elem; }

    // ---- COMPSIZE checks (each refuses with a GL error and a log line) -----
    bool pname_fits(gen::Op verb, GLenum pname, uint32_t count);
    bool clear_value_fits(gen::Op verb, GLenum buffer, uint32_t count);
    bool string_fits(gen::Op verb, const GLchar* data, uint32_t size, GLsizei length);
    bool count_fits(gen::Op verb, uint32_t have, int64_t need);

    // ---- scratch memory (valid until the next scratch_reset) ----------------
    void scratch_reset() { scratch_used_ = 0; extra_.clear(); }
    void* scratch_bytes(size_t bytes);
    GLuint* scratch_names(size_t n) { return static_cast<GLuint*>(scratch_bytes(n * sizeof(GLuint))); }
    // Zeroed room for `count` values of up to 8 bytes: what the host writes
    // there never carries stale server memory into a reply.
    void* scratch_out(size_t count);
    void copy_out(void* dst, uint32_t size, const void* src) const;
    size_t scratch_out_bytes_ = 0;
    // How many values a glGet*v may write for `pname` (lists ask the host).
    uint32_t out_count(GLenum pname);
    uint32_t block_out_count(GLuint host_program, GLuint index, GLenum pname);

    // ---- errors and logging ---------------------------------------------
    // Records a GL error on the current context (first one wins).
    void set_error(GLenum e);
    // The same with its debug message (own_debug); `verb` and `why` may be null.
    void raise_error(GLenum e, const char* verb, const char* why);
    // A refused call: GL error plus one log line per verb per session.
    void refuse(gen::Op verb, GLenum e, const char* why);
    spdlog::logger& log() const { return *log_; }

    wire::MemoryBudget* budget_ = nullptr;  // the session's (memory_ledger.h)

private:
    bool create_on_bind(Kind k, GLuint client, GLuint& host);
    void delete_host(Kind k, GLuint host);
    bool first_time(std::vector<bool>& seen, gen::Op verb);

    std::shared_ptr<spdlog::logger> log_;
    std::vector<bool> logged_unsupported_, logged_refused_, logged_names_;
    std::vector<uint64_t> scratch_;
    // Zeros a pixel upload from a null pointer reads (resolve_in), at most kNullPixelsMax bytes.
    static constexpr uint64_t kNullPixelsMax = uint64_t(64) << 20;
    std::vector<uint8_t> null_pixels_;
    size_t scratch_used_ = 0;
    std::vector<std::unique_ptr<uint64_t[]>> extra_;
};

}  // namespace mgl::espryt
