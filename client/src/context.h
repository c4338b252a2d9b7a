// Client contexts and share groups.
//
// A ShareGroup owns one Connection (one server session) and the Encoder that
// writes into it; every context of the group encodes into that encoder and
// the stream says which context is current with mglMakeCurrent. Object names
// are minted from the group's counters (programs and shaders share one).
//
// Thread rule: a context is current on at most one thread (EGL's rule). Two
// contexts of one share group current on two threads at once would share
// the encoder; that is not supported yet (the EGL layer refuses it with
// EGL_BAD_ACCESS).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compat/ff.h"
#include "connection.h"
#include "debug_output.h"
#include "deferred_replies.h"
#include "gen/client_entry.h"
#include "gen/encoder.h"
#include "gen/verb_api.h"
#include "state/state.h"

namespace mgl::client {

struct BufferInfo {
    int64_t size = -1;  // -1: not known to the client
    GLenum usage = 0;
    // An active mapping (glMapBufferRange and friends).
    uint8_t* map_ptr = nullptr;
    int64_t map_offset = 0;
    int64_t map_length = 0;
    GLbitfield map_access = 0;
    std::vector<uint8_t> map_storage;   // what the application writes into
    std::vector<uint8_t> map_snapshot;  // contents fetched at map time (only the changed bytes go back)
    bool map_from_shadow = false;       // the old contents are the client's copy (shadow) instead
    // The mapping is the server driver's own memory (custom/map.cc,
    // map_on_host): buffers with immutable storage, in-process servers only.
    bool map_on_host = false;
    bool immutable = false;  // glBufferStorage made its data store
    // Copy of the data store as the server holds it, kept for element arrays
    // (the index range of a draw that also reads client vertex arrays is
    // computed from it) and for buffers mapped for writing without
    // invalidation (keep_shadow: their later maps need no round trip).
    // Also kept, within ShareGroup::kAutoShadowBytes, for the data a buffer is
    // first specified with (a static buffer the application later maps
    // without invalidating, as glmark2's buffer scene does, then costs no
    // fetch); a buffer specified again (streaming) drops that copy.
    // Sized through set_shadow/drop_shadow only, which keep the group's total.
    std::vector<uint8_t> shadow;
    bool shadow_valid = false;
    bool keep_shadow = false;
    bool specified = false;  // glBufferData has been called on it
    // The server may change the data store on its own (custom/buffer_contents.cc):
    // no copy is kept.
    bool server_writes = false;
};

class ShareGroup {
public:
    explicit ShareGroup(std::unique_ptr<Connection> conn);
    ~ShareGroup();

    Connection& conn() { return *conn_; }
    gen::Encoder& enc() { return *enc_; }
    // Sync verbs answered later (present): see deferred_replies.h.
    DeferredReplies& deferred() { return *deferred_; }

    // Mints `n` consecutive names of kind `k`; returns the first.
    uint32_t mint(MintKind k, uint32_t n);

    std::mutex mu;  // guards what follows
    std::unordered_map<uint32_t, BufferInfo> buffers;
    // Bytes of all buffers' copies (BufferInfo::shadow): at most
    // kShadowBudgetBytes; copies of first specifications at most
    // kAutoShadowBytes of that, so that they never crowd out the copies that
    // save a round trip per map.
    static constexpr int64_t kShadowBudgetBytes = int64_t(128) << 20;
    static constexpr int64_t kAutoShadowBytes = int64_t(32) << 20;
    int64_t shadow_bytes = 0;
    std::unordered_set<uint32_t> server_surfaces;  // surfaces created in this session
    // KHR_debug labels of sync objects (glObjectPtrLabel): a GLsync is a name
    // the client minted, so its label lives here; minted names are never
    // reused, so a deleted sync's label cannot reappear on another.
    std::unordered_map<uint32_t, std::string> sync_labels;
    // Per program of the group: how often it was linked, and the context
    // that last uploaded fixed-function state into it (compat/program_builtins.h).
    std::unordered_map<uint32_t, std::pair<uint64_t, uint32_t>> compat_programs;
    // Shader and program names by the kind they were minted as (runtime.h,
    // note_program_name): a deleted one stays, as its name is never reused.
    std::unordered_map<uint32_t, MintKind> program_names;
    int contexts = 0;

private:
    std::unique_ptr<Connection> conn_;
    std::unique_ptr<DeferredReplies> deferred_;  // between enc_ and the connection's link
    std::unique_ptr<gen::Encoder> enc_;
    std::array<std::atomic<uint32_t>, kMintKindCount> next_{};
};

// Client-memory vertex/index data goes through these buffers (names the
// client minted): ranges are appended with glBufferSubData and the buffer is
// orphaned when it wraps.
struct StreamBuffer {
    uint32_t name = 0;
    int64_t capacity = 0;
    int64_t cursor = 0;
};

struct Counters {
    uint64_t round_trips = 0;      // blocking waits for a reply (all causes)
    uint64_t client_uploads = 0;   // draws that uploaded client arrays
    uint64_t client_bytes = 0;     // bytes uploaded for client arrays and indices
    uint64_t local_queries = 0;    // glGet*/glIsEnabled answered by the shadow
    uint64_t remote_queries = 0;   // ... answered by the server
    uint64_t local_maps = 0;       // buffer maps filled from the client's copy (no round trip)
};

// mglCreateContext's api and profile values (EGL's and GL's own numbers).
inline constexpr uint32_t kApiES = 0x30A0;       // EGL_OPENGL_ES_API
inline constexpr uint32_t kApiGL = 0x30A2;       // EGL_OPENGL_API
inline constexpr uint32_t kCoreProfile = 1;      // GL_CONTEXT_CORE_PROFILE_BIT
inline constexpr uint32_t kCompatProfile = 2;    // GL_CONTEXT_COMPATIBILITY_PROFILE_BIT
inline constexpr uint32_t kFlagDebug = 1, kFlagRobust = 2, kFlagForwardCompatible = 4;

struct Context {
    uint32_t id = 0;  // minted by the client, never 0
    std::shared_ptr<ShareGroup> group;
    gen::Encoder* enc = nullptr;  // == &group->enc()
    // Nonzero only in a compatibility context while a display list is being
    // compiled at top level or a glBegin is open: every generated entry point
    // tests it once and then asks compat::gate() (compat/ff_gate.h).
    uint8_t ff_gate = 0;
    uint32_t api = kApiES;        // kApiES or kApiGL
    uint32_t profile = 0;         // desktop: kCoreProfile or kCompatProfile; 0 for ES
    int major = 2, minor = 0;     // requested version of `api`
    uint32_t flags = 0;           // kFlag* (mglCreateContext)
    bool desktop() const { return api == kApiGL; }
    // An OpenGL ES 1.x context: served as a compatibility context (the
    // fixed-function lowering is ES 1.1's fixed function), presented to the
    // application as OpenGL ES-CM 1.1 (es1/es1_context.cc).
    bool es1 = false;

    // The generated profile checks' view of this context (gen/verb_api.h):
    // set from the served version at the first make-current.
    gen::ApiKind api_kind = gen::ApiKind::any;
    uint8_t api_version = 0;

    State st;
    std::unordered_map<GLenum, QueryValue> limits;  // fetched once at the first make-current
    std::string vendor, renderer, version, shading_language, extensions;
    std::vector<std::string> extension_list;
    int server_major = 2, server_minor = 0;
    bool initialized = false;

    GLenum error = GL_NO_ERROR;  // first client-detected error since the last glGetError
    // The session ended (dead server, fault): the context is lost for good.
    // GL_KHR_robustness: glGetError says GL_CONTEXT_LOST once, the reset
    // status says GL_UNKNOWN_CONTEXT_RESET once; both say "no error" after.
    bool lost = false;
    bool lost_error_told = false;
    bool reset_told = false;

    StreamBuffer vertex_stream, index_stream;
    std::unique_ptr<compat::FixedFunction> ff;  // compatibility contexts, at first use (compat/ff.h)
    std::vector<uint8_t> scratch;

    GLDEBUGPROC debug_callback = nullptr;
    const void* debug_user = nullptr;
    std::shared_ptr<DebugInbox> debug_inbox;  // while a callback is set (debug_output.h)

    Counters counters;
    void* egl = nullptr;  // the EGL layer's object for this context
};

// The calling thread's current context (nullptr: none).
extern __thread Context* t_current __attribute__((tls_model("initial-exec")));
inline Context* current() { return t_current; }

// Creates a context in `share`'s group (or a new group and session when
// share is nullptr). nullptr with *error when no session can be opened.
std::unique_ptr<Context> create_context(Context* share, uint32_t api, int major, int minor, uint32_t profile,
                                        uint32_t flags, std::string* error);
// The version the server serves `ctx` at (major*10+minor), 0 when it refused
// the context (a round trip; the EGL layer asks for desktop contexts).
int served_version(Context& ctx);
// Encodes mglDestroyContext; the context must not be current anywhere.
void destroy_context(std::unique_ptr<Context> ctx);

// Makes `ctx` current on this thread (nullptr releases). Encodes
// mglMakeCurrent; on the context's first make-current fetches strings and
// limits (pipelined sync queries) and sets viewport/scissor to the draw
// surface size (draw_w < 0: surfaceless).
void make_current(Context* ctx, uint32_t draw, uint32_t read, int draw_w, int draw_h);

// Publishes what the context encoded so far (a flush point).
void flush(Context& ctx);

}  // namespace mgl::client
