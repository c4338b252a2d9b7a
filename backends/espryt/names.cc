#include "names.h"

#include <algorithm>

namespace mgl::espryt {

const char* kind_name(Kind k) {
    static const char* const names[] = {"buffer",      "texture", "renderbuffer",       "sampler", "program",
                                        "framebuffer", "vertex array", "transform feedback", "query", "program pipeline"};
    return int(k) < kKindCount ? names[int(k)] : "?";
}

void NameMap::set(uint32_t client, uint32_t host) {
    erase(client);
    if (client < kDenseLimit) {
        if (client >= dense_.size()) dense_.resize(std::min<size_t>(kDenseLimit, std::max<size_t>({client + 1, dense_.size() * 2, 64})), 0);
        dense_[client] = host;
    } else {
        sparse_[client] = host;
    }
    reverse_[host] = client;
}

uint32_t NameMap::erase(uint32_t client) {
    uint32_t host = 0;
    if (!find(client, host)) return 0;
    if (client < dense_.size()) dense_[client] = 0;
    else sparse_.erase(client);
    reverse_.erase(host);
    return host;
}

uint32_t NameMap::to_client(uint32_t host) const {
    auto it = reverse_.find(host);
    return it == reverse_.end() ? 0 : it->second;
}

}  // namespace mgl::espryt
