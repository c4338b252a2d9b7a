// Scenes observed through Magma and natively (llvmpipe): what GL answered
// (named values, in order) and the pixels, for tests that compare the two.
#pragma once

#include <doctest.h>

#include "gl_api.h"

namespace magma_test {

inline constexpr int W = 64, H = 64;

// What a scene observed: named values, in order.
struct Seen {
    std::vector<std::pair<std::string, int64_t>> values;
    std::vector<uint8_t> pixels;
    void add(const std::string& name, int64_t v) { values.emplace_back(name, v); }
};
using Observe = void (*)(GlApi& g, Seen& seen);

struct BothSeen {
    Seen magma, native;
    std::string log;
};

inline BothSeen observe_both(Observe scene, bool expect_quiet_log = true) {
    BothSeen r;
    {
        Wire wire;
        REQUIRE_MESSAGE(wire.backend, wire.why);
        wire.start(1, 1, W, H);
        WireGl g(wire);
        scene(g, r.magma);
        CHECK(wire.decode_failures == 0);
        r.log = wire.log_without_device();
    }
    {
        Native n(W, H);
        REQUIRE(n.ok());
        NativeGl g;
        scene(g, r.native);
    }
    if (expect_quiet_log) CHECK_MESSAGE(r.log.find("not supported") == std::string::npos, r.log);
    return r;
}

inline void check_same_values(const BothSeen& r) {
    if (r.magma.values.size() != r.native.values.size()) {
        std::string both = "magma / native:\n";
        for (size_t i = 0; i < std::max(r.magma.values.size(), r.native.values.size()); ++i)
            both += (i < r.magma.values.size() ? r.magma.values[i].first : "-") + " / " +
                    (i < r.native.values.size() ? r.native.values[i].first : "-") + "\n";
        FAIL_CHECK(both << r.log);
    }
    REQUIRE(r.magma.values.size() == r.native.values.size());
    for (size_t i = 0; i < r.native.values.size(); ++i) {
        INFO(r.native.values[i].first);
        CHECK(r.magma.values[i].second == r.native.values[i].second);
    }
}

}  // namespace magma_test
