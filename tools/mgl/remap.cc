#include "remap.h"

#include <cstring>

#include "gen/opcodes.h"
#include "mgl/wire/record.h"

namespace mgl::tools {

namespace {
// -1 (no such uniform or attribute) and GL_INVALID_INDEX: the same bits,
// meaning "none" on every backend; never mapped.
constexpr uint32_t kNone = 0xffffffffu;
}  // namespace

void ValueRemap::start_segment(const std::vector<wire::capture::ReplyInfo>* captured) {
    *this = ValueRemap();
    captured_ = captured;
    index_ = ~0ull;
}

uint32_t ValueRemap::program_of(const uint8_t* r, const gen::ValueUse& use) const {
    if (use.program_offset) return wire::get<uint32_t>(r + use.program_offset);
    auto it = program_.find(context_);
    return it == program_.end() ? 0 : it->second;
}

bool ValueRemap::observe(const uint8_t* r, uint32_t size) {
    ++index_;
    const uint16_t op = wire::get<uint16_t>(r);
    if (op == uint16_t(gen::Op::mglMakeCurrent) && size >= 20) {
        context_ = wire::get<uint32_t>(r + 16);
        return false;
    }
    if (const uint16_t at = gen::use_program_offset(op); at && size >= at + 4u) {
        program_[context_] = wire::get<uint32_t>(r + at);
        return false;
    }
    const gen::ValueUse use = gen::returned_value(op);
    return use.kind != gen::ServerValue::none && size >= use.fixed_bytes;
}

void ValueRemap::returned(const uint8_t* r, uint32_t size, uint64_t replayed) {
    (void)size;
    const gen::ValueUse use = gen::returned_value(wire::get<uint16_t>(r));
    ++queries_;
    while (captured_ && cursor_ < captured_->size() && (*captured_)[cursor_].record < index_) ++cursor_;
    if (!captured_ || cursor_ == captured_->size() || (*captured_)[cursor_].record != index_ ||
        (*captured_)[cursor_].opcode != wire::get<uint16_t>(r)) {
        ++unanswered_;
        return;
    }
    const uint32_t was = uint32_t((*captured_)[cursor_].value), now = uint32_t(replayed);
    if (was == kNone) return;
    const Key key{use.kind, program_of(r, use), was};
    map_[key] = now;  // identities too: they win over another program's answer (attributes)
    last_[{use.kind, was}] = now;
    if (was != now) ++differing_;
}

bool ValueRemap::rewrite(const uint8_t* r, uint32_t size, std::vector<uint8_t>* out) {
    if (differing_ == 0) return false;  // the same backend, or no value differed: records go as captured
    const gen::ValueUse use = gen::carried_value(wire::get<uint16_t>(r));
    if (use.kind == gen::ServerValue::none || size < use.fixed_bytes) return false;
    const uint32_t was = wire::get<uint32_t>(r + use.value_offset);
    if (was == kNone) return false;
    uint32_t now = was;
    if (auto it = map_.find(Key{use.kind, program_of(r, use), was}); it != map_.end()) now = it->second;
    else if (use.kind == gen::ServerValue::attrib_location)
        if (auto l = last_.find({use.kind, was}); l != last_.end()) now = l->second;
    if (now == was) return false;
    out->assign(r, r + size);
    std::memcpy(out->data() + use.value_offset, &now, 4);
    ++rewritten_;
    return true;
}

}  // namespace mgl::tools
