#include "mgl/wire/decode_support.h"

#include <fmt/format.h>

namespace mgl::wire {

bool fail(DecodeError& e, DecodeStatus s, uint16_t op, const char* verb, const char* what) {
    e.status = s;
    e.opcode = op;
    e.detail = fmt::format("{} (opcode {}): {}: {}", verb, op, to_string(s), what);
    return false;
}

bool split_strings(Dispatch& d, const uint8_t* p, uint32_t bytes, int64_t expected, Strings& out) {
    d.string_scratch.clear();
    if (bytes == 0 || p[bytes - 1] != 0) return expected == 0 && bytes == 0 ? (out = {nullptr, 0}, true) : false;
    const char* s = reinterpret_cast<const char*>(p);
    for (uint32_t i = 0; i < bytes;) {
        d.string_scratch.push_back(s + i);
        i += uint32_t(std::strlen(s + i)) + 1;
    }
    if (expected >= 0 && d.string_scratch.size() != uint64_t(expected)) return false;
    out = {d.string_scratch.data(), uint32_t(d.string_scratch.size())};
    return true;
}

bool open_reply(Dispatch& d, uint16_t op, uint64_t size, uint8_t*& out, DecodeError& e, const char* verb) {
    if (!d.replies) return fail(e, DecodeStatus::no_reply_path, op, verb, "sync verb on a link without replies");
    if (size > d.max_reply_bytes) return fail(e, DecodeStatus::too_large, op, verb, "reply larger than the session allows");
    out = d.replies->begin_reply(uint32_t(size));
    put<uint32_t>(out, uint32_t(size));
    put<uint32_t>(out + 4, op);
    return true;
}

}  // namespace mgl::wire
