// Client object names -> host object names.
//
// Clients mint their own names (no round trip per glGen*), so the server
// keeps one map per GL namespace: shared kinds live in the share group,
// container kinds (framebuffers, vertex arrays, ...) in each context, as GL
// itself scopes them. Host name 0 never names an object, so it doubles as
// "unmapped"; client name 0 always means the default object (host 0).
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace mgl::espryt {

enum class Kind : uint8_t {
    // Shared by the contexts of a share group.
    buffer,
    texture,
    renderbuffer,
    sampler,
    program,  // programs and shaders: one GL namespace
    // Per context (container objects).
    framebuffer,
    vertex_array,
    transform_feedback,
    query,
    program_pipeline,
    count
};
inline constexpr int kKindCount = int(Kind::count);
inline constexpr bool is_shared(Kind k) { return k <= Kind::program; }
const char* kind_name(Kind k);

class NameMap {
public:
    // Client name -> host name; false when the client never minted it.
    bool find(uint32_t client, uint32_t& host) const {
        if (client < dense_.size()) {
            host = dense_[client];
            return host != 0;
        }
        auto it = sparse_.find(client);
        if (it == sparse_.end()) return false;
        host = it->second;
        return true;
    }
    bool contains(uint32_t client) const {
        uint32_t h;
        return find(client, h);
    }
    void set(uint32_t client, uint32_t host);
    // Forgets `client`; returns its host name (0 when unknown).
    uint32_t erase(uint32_t client);
    // Host name -> client name, 0 when the host object has no client name.
    uint32_t to_client(uint32_t host) const;
    size_t size() const { return reverse_.size(); }
    template <class F>
    void for_each(F&& f) const {
        for (auto [h, c] : reverse_) f(c, h);
    }

private:
    // Clients mint small consecutive names: a vector answers those without
    // hashing; the rare large name goes to the hash map.
    static constexpr uint32_t kDenseLimit = 1u << 20;
    std::vector<uint32_t> dense_;
    std::unordered_map<uint32_t, uint32_t> sparse_;
    std::unordered_map<uint32_t, uint32_t> reverse_;
};

// Sync objects are pointers on the host and 64-bit client handles on the wire.
class SyncMap {
public:
    bool find(uint64_t client, void*& host) const {
        auto it = map_.find(client);
        if (it == map_.end()) return false;
        host = it->second;
        return true;
    }
    void set(uint64_t client, void* host) { map_[client] = host; }
    void erase(uint64_t client) { map_.erase(client); }
    bool contains(uint64_t client) const { return map_.count(client) != 0; }

private:
    std::unordered_map<uint64_t, void*> map_;
};

}  // namespace mgl::espryt

#include "memory_ledger.h"
#include "texture_levels.h"
#include "legacy_wrap.h"

namespace mgl::espryt {

// What the contexts of one share group have in common (a host EGL share group).
struct DesktopShaders;  // desktop_shaders.h

struct ShareGroup {
    NameMap shared[int(Kind::program) + 1];
    SyncMap syncs;
    // Bumped whenever a buffer's storage changes or a buffer goes away in any
    // context of the group: what each context checked before draws (its
    // attribute offsets, its buffer ranges) may no longer hold.
    uint64_t buffer_epoch = 1;
    // Shader sources and translations of desktop contexts (shaders and
    // programs are shared objects); made on first use.
    std::shared_ptr<DesktopShaders> desktop;
    // How many of its linked programs read a driver uniform (the size of
    // DesktopShaders::driver_uniforms): draws look for one only then.
    size_t driver_uniform_programs = 0;
    // How many of those read one that changes between draws (the draw
    // height, the clip planes); the others read only glPointSize's, which
    // draws set once a context of the group has set a size other than 1
    // (point_sizes): programs drawn at GL's default size pay nothing.
    size_t draw_time_programs = 0;
    bool point_sizes = false;
    // The same for GL_POINT_SPRITE_COORD_ORIGIN: once a context of the group
    // set GL_LOWER_LEFT (GLES's origin is GL's initial one).
    bool point_origins = false;
    // The same for the alpha test: once the client sent a context's
    // (glAlphaFunc, for draws of an application's program with GL_ALPHA_TEST on).
    bool alpha_tests = false;
    // How many of its linked programs have an image or storage block the
    // application addressed at another unit than the host's (the size of
    // DesktopShaders::routed): draws and dispatches route units only then.
    size_t routed_programs = 0;
    MemoryLedger storage;  // what its objects hold, charged to the session's budget
    // Host textures that serve a 1D, 1D array or rectangle texture: the
    // gl::Lowered kind of the target they were first bound to, by host name
    // (a rectangle one is given its defaults then: desktop_texture_targets.cc;
    // verbs that name a texture with its target check the pair: copy_image.cc).
    std::unordered_map<uint32_t, uint8_t> lowered_kinds;
    // Textures and samplers an application set GL_CLAMP on (desktop_legacy_wrap.cc); by host name.
    gl::LegacyClamps legacy_clamps, legacy_clamps_samplers;
    // The backend's own programs that read depth and stencil values back (desktop_depth_read.cc).
    uint32_t depth_read_program = 0, stencil_read_program = 0;
    uint32_t texel_copy_program = 0;  // the default texture's level copied for glGetTexImage
    TextureLevels levels;  // desktop internal formats of texture levels (desktop_uploads.cc)
    // The host element buffer that first-vertex draws are drawn from (provoking_draw.cc); 0: none yet.
    uint32_t provoking_indices = 0;
};

}  // namespace mgl::espryt
