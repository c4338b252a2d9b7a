#include "resource_bindings.h"

#include <spirv_cross/spirv_cross_c.h>

#include <algorithm>
#include <set>

namespace mgl::gl {

namespace {

struct Found {
    std::string name;
    int binding = -1;  // -1: none written
    int size = 1;      // array elements (arrays of arrays flattened)
};

// The storage images and storage blocks one module declares.
void declared(const Translation& t, std::vector<Found>& images, std::vector<Found>& blocks) {
    spvc_context ctx = nullptr;
    if (spvc_context_create(&ctx) != SPVC_SUCCESS) return;
    spvc_parsed_ir ir = nullptr;
    spvc_compiler comp = nullptr;
    spvc_resources res = nullptr;
    if (spvc_context_parse_spirv(ctx, t.spirv.data(), t.spirv.size(), &ir) == SPVC_SUCCESS &&
        spvc_context_create_compiler(ctx, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &comp) ==
            SPVC_SUCCESS &&
        spvc_compiler_create_shader_resources(comp, &res) == SPVC_SUCCESS) {
        auto collect = [&](spvc_resource_type type, std::vector<Found>& out) {
            const spvc_reflected_resource* list = nullptr;
            size_t n = 0;
            if (spvc_resources_get_resource_list_for_type(res, type, &list, &n) != SPVC_SUCCESS) return;
            for (size_t i = 0; i < n; ++i) {
                Found f;
                f.name = list[i].name;
                if (spvc_compiler_has_decoration(comp, list[i].id, SpvDecorationBinding))
                    f.binding = int(spvc_compiler_get_decoration(comp, list[i].id, SpvDecorationBinding));
                const spvc_type ty = spvc_compiler_get_type_handle(comp, list[i].type_id);
                for (unsigned d = 0; d < spvc_type_get_num_array_dimensions(ty); ++d)
                    f.size *= int(std::max<SpvId>(spvc_type_get_array_dimension(ty, d), 1));
                out.push_back(std::move(f));
            }
        };
        collect(SPVC_RESOURCE_TYPE_STORAGE_IMAGE, images);
        collect(SPVC_RESOURCE_TYPE_STORAGE_BUFFER, blocks);
    }
    spvc_context_destroy(ctx);
}

// Bindings for the unbound names of `all`, clear of every written range.
std::map<std::string, int> assign(const std::vector<Found>& all) {
    std::set<int> used;
    for (const Found& f : all)
        if (f.binding >= 0)
            for (int e = 0; e < f.size; ++e) used.insert(f.binding + e);
    std::map<std::string, int> out;
    std::set<std::string> written;
    for (const Found& f : all)
        if (f.binding >= 0) written.insert(f.name);
    for (const Found& f : all) {
        if (f.binding >= 0 || written.count(f.name) || out.count(f.name)) continue;
        int at = 0;
        for (;; ++at) {
            bool fits = true;
            for (int e = 0; e < f.size && fits; ++e) fits = !used.count(at + e);
            if (fits) break;
        }
        for (int e = 0; e < f.size; ++e) used.insert(at + e);
        out[f.name] = at;
    }
    return out;
}

}  // namespace

ResourceBindings assign_resource_bindings(const std::vector<const Translation*>& stages) {
    std::vector<Found> images, blocks;
    for (const Translation* t : stages)
        if (t && !t->spirv.empty()) declared(*t, images, blocks);
    ResourceBindings r;
    r.images = assign(images);
    r.storage_blocks = assign(blocks);
    return r;
}

}  // namespace mgl::gl
