// A GL call mix read from `apitrace dump --multiline=no` output, parsed into
// typed arguments once, so that the benchmark times only the codec.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace mgl::bench {

// Compact (64 bytes) so that walking a million calls measures the encoder,
// not the memory traffic of the benchmark's own call list.
struct Call {
    uint8_t verb = 0;            // index into kMixVerbs
    bool data_is_offset = true;  // pointer argument was a buffer offset, not client memory
    uint32_t data_size = 0;      // array argument bytes (uniform values, buffer data, client arrays)
    int32_t i[6] = {};           // integer and enum arguments in call order
    float f[4] = {};             // float arguments in call order
    uint64_t offset = 0;         // pointer argument as a buffer offset, or GLintptr argument
    const uint8_t* data = nullptr;
};
static_assert(sizeof(Call) <= 64);

struct CallMix {
    std::vector<Call> calls;
    std::vector<uint8_t> pool;   // backing bytes of every call's data (sized before the pointers are taken)
    uint64_t skipped = 0;        // calls of verbs the benchmark does not cover
    uint64_t frames = 0;
};

// The verbs the benchmark encodes; everything else in the dump is counted as
// skipped and reported (the covered share is printed).
extern const char* const kMixVerbs[];
extern const size_t kMixVerbCount;

// Reads calls of frames >= first_frame (frame 0 holds setup: context
// creation, shader compilation and uploads, not the steady state).
CallMix read_callmix(std::istream& in, uint64_t first_frame);

}  // namespace mgl::bench
