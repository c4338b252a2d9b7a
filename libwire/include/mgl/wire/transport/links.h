// Constructors of the concrete links. connect() (client) and the server
// shell use them; tests may build pairs directly.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "mgl/wire/transport/applier.h"
#include "mgl/wire/transport/connection.h"
#include "mgl/wire/transport/control.h"
#include "mgl/wire/transport/doorbell.h"
#include "mgl/wire/transport/inproc.h"
#include "mgl/wire/transport/server_link.h"
#include "mgl/wire/transport/shm_segment.h"
#include "mgl/wire/transport/socket.h"

namespace mgl::wire {

// direct: records are applied by `applier` on the calling thread at each
// flush, next_window and wait_reply.
// gl_error_events: the applier pushes GL errors as events (the Events capability).
std::unique_ptr<Connection> make_direct_client(std::unique_ptr<Applier> applier, uint32_t batch_bytes,
                                               bool gl_error_events = true);

// inproc: both ends share `memory`.
std::unique_ptr<Connection> make_inproc_client(std::shared_ptr<RingMemory> memory, uint64_t session_id,
                                               const WaitConfig& wait);
std::unique_ptr<ServerLink> make_inproc_server(std::shared_ptr<RingMemory> memory, const WaitConfig& wait);

// shm: rings in `segment`; `control` is the unix socket of the handshake,
// kept open only to notice the death of the peer.
std::unique_ptr<Connection> make_shm_client(std::unique_ptr<ShmSegment> segment, const RingSetView& view,
                                            FramedSocket control, uint64_t session_id, const WaitConfig& wait);
std::unique_ptr<ServerLink> make_shm_server(std::unique_ptr<ShmSegment> segment, const RingSetView& view,
                                            FramedSocket control, const WaitConfig& wait);

// tcp: everything travels as frames on `socket`.
std::unique_ptr<Connection> make_tcp_client(FramedSocket socket, uint64_t session_id, uint32_t batch_bytes);
std::unique_ptr<ServerLink> make_tcp_server(FramedSocket socket, uint32_t max_record_frame);

}  // namespace mgl::wire
