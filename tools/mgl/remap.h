// `mgl replay` on another backend than the capture's: values the capturing
// server chose and the client sent back (uniform and attribute locations,
// uniform block indices: gen/server_values.h) are mapped to the values the
// replay's backend returns for the same queries. The capture stores the
// capturing server's replies to those queries (capture/format.h, replies
// block); the replay applies each query alone, reads its own reply, and
// rewrites the slots of later records that carry a captured value.
//
// A uniform location belongs to a program: the one named in the record, or
// the context's current program (glUseProgram). An attribute location is
// the context's, but it comes from a program's query: the current program's
// map is used, then the last query that returned that value (the pointer
// set-up of a VAO may precede glUseProgram).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "gen/server_values.h"
#include "mgl/wire/capture/info.h"

namespace mgl::tools {

class ValueRemap {
public:
    // The segment's stored replies (the reader's, growing as blocks are read).
    void start_segment(const std::vector<wire::capture::ReplyInfo>* captured);

    // Every record, in order, before it is applied: follows the current
    // context and program. True when the record returns a value: apply it
    // alone, then call returned() with the replay's reply.
    bool observe(const uint8_t* record, uint32_t size);
    void returned(const uint8_t* record, uint32_t size, uint64_t replayed);

    // The record with its carried value mapped, in *out, when the mapping
    // changes it; false when it goes as captured.
    bool rewrite(const uint8_t* record, uint32_t size, std::vector<uint8_t>* out);

    uint64_t queries() const { return queries_; }            // returning records met
    uint64_t differing() const { return differing_; }        // of which the replay returned another value
    uint64_t unanswered() const { return unanswered_; }      // no stored reply (a capture made before replies were stored)
    uint64_t rewritten() const { return rewritten_; }        // records rewritten

private:
    using Key = std::tuple<gen::ServerValue, uint32_t, uint32_t>;  // kind, program, captured value
    uint32_t program_of(const uint8_t* record, const gen::ValueUse& use) const;

    const std::vector<wire::capture::ReplyInfo>* captured_ = nullptr;
    size_t cursor_ = 0;
    uint64_t index_ = 0;  // the record observe() last saw, from 0 in the segment
    uint32_t context_ = 0;
    std::map<uint32_t, uint32_t> program_;  // context -> current program
    std::map<Key, uint32_t> map_;           // every query's answer
    std::map<std::pair<gen::ServerValue, uint32_t>, uint32_t> last_;  // kind, captured -> the last query's replayed
    uint64_t queries_ = 0, differing_ = 0, unanswered_ = 0, rewritten_ = 0;
};

}  // namespace mgl::tools
