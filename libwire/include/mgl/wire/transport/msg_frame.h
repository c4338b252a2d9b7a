// Framing of the two server -> client message rings (replies, events).
//
// The first 8 bytes have RecordHeader's layout so a ring pad (kind 0, the
// ring's own pad record) reads the same in every ring. A reply larger than
// a quarter of the reply ring travels as several pieces (kMsgMore on all but
// the last) that the client reassembles.
#pragma once

#include <cstdint>

#include "mgl/wire/record.h"

namespace mgl::wire {

struct MsgHeader {
    uint16_t kind;     // MsgKind
    uint16_t flags;    // MsgFlags
    uint32_t size;     // whole frame: header + payload + zero padding, multiple of 8
    uint32_t length;   // payload bytes
    uint32_t seq;      // replies: sequence number of the reply (checks ordering)
};
static_assert(sizeof(MsgHeader) == 16);

enum MsgKind : uint16_t { kMsgPad = kOpPad, kMsgReply = 1, kMsgEvent = 2 };
enum MsgFlags : uint16_t { kMsgMore = 1 };

}  // namespace mgl::wire
