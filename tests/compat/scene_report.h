// The probes' line per scene (ff_probe.cc, glsl_probe.cc, es1_probe.cc): a
// hash of the read-back RGBA pixels, how many are lit, and the GL error
// after the scene. run_ff_probe.sh compares these lines natively and through
// the stack. No GL header here: the probes include desktop GL's or ES 1's.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

namespace probe {

inline void print_scene(const char* scene, const std::vector<uint8_t>& rgba, unsigned gl_error, int width = 24) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    int lit = 0;
    for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
        for (int c = 0; c < 4; ++c) h = (h ^ rgba[i + size_t(c)]) * 1099511628211ull;
        lit += (rgba[i] | rgba[i + 1] | rgba[i + 2]) != 0;
    }
    std::printf("%-*s %016llx lit=%d error=0x%x\n", width, scene, (unsigned long long)h, lit, gl_error);
}

}  // namespace probe
