// Client side of session setup for every transport: parse the transport
// string, send the hello, read the welcome or the refusal, build the link.
#include "mgl/wire/transport/connect.h"

#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <asio.hpp>

#include "mgl/wire/transport/links.h"
#include "mgl/wire/transport/transport_url.h"

namespace mgl::wire {

namespace {

ConnectResult fail(std::string msg) {
    ConnectResult r;
    r.error = std::move(msg);
    spdlog::error("mgl: {}", r.error);
    return r;
}

ConnectResult refused(const Refusal& ref) {
    ConnectResult r;
    r.refusal = ref.reason;
    r.error = fmt::format("the server refused the connection: {}: {}", to_string(ref.reason), ref.message);
    spdlog::error("mgl: {}", r.error);
    return r;
}

Hello make_hello(const ConnectOptions& o, const char* transport) {
    Hello h;
    h.wire_fingerprint = o.wire_fingerprint;
    h.build_id = o.build_id;
    h.capabilities = o.capabilities;
    h.backend = o.backend;
    h.token = o.token;
    h.transport = transport;
    h.rings = o.rings;
    return h;
}

// Sends the hello on a connected socket and reads the answer.
bool handshake(FramedSocket& sock, const Hello& hello, Clock::time_point deadline, ControlMessage* answer,
               std::string* error) {
    if (!sock.write_frame(kFrameControl, encode_hello(hello), deadline)) {
        *error = "cannot send the hello: the server hung up";
        return false;
    }
    FrameHeader h{};
    std::vector<uint8_t> payload;
    std::string e;
    if (!sock.read_frame(&h, &payload, kMaxControlFrame, deadline, &e)) {
        *error = fmt::format("no answer to the hello: {}", e);
        return false;
    }
    *answer = decode_control(payload);
    if (h.type != kFrameControl ||
        (answer->kind != ControlKind::welcome && answer->kind != ControlKind::refusal)) {
        *error = "the server answered the hello with something that is neither a welcome nor a refusal";
        return false;
    }
    return true;
}

ConnectResult connect_direct(const ConnectOptions& o) {
    if (!o.direct_appliers) return fail("the direct transport needs an applier factory (ConnectOptions::direct_appliers)");
    std::unique_ptr<Applier> a = o.direct_appliers(o.backend);
    if (!a) return refused({RefusalReason::unknown_backend, fmt::format("no backend named '{}'", o.backend)});
    a->set_peer_in_process(true);
    ConnectResult r;
    r.link = make_direct_client(std::move(a), o.direct_batch_bytes, (o.capabilities & kCapEvents) != 0);
    return r;
}

ConnectResult connect_inproc(const ConnectOptions& o) {
    std::shared_ptr<InprocEndpoint> ep = o.inproc ? o.inproc : default_inproc_endpoint();
    if (!ep) return fail("the inproc transport needs a server in this process (mgl_server_serve_inproc) and there is none");
    InprocEndpoint::Opened opened = ep->open_session(encode_hello(make_hello(o, "inproc")));
    ControlMessage m = decode_control(opened.reply);
    if (m.kind == ControlKind::refusal) return refused(m.refusal);
    if (m.kind != ControlKind::welcome || !opened.memory) return fail("the inproc server gave no session");
    ConnectResult r;
    r.link = make_inproc_client(std::move(opened.memory), m.welcome.session_id, o.wait);
    return r;
}

ConnectResult connect_shm(const ConnectOptions& o, const TransportSpec& spec) {
    auto deadline = Clock::now() + o.timeout;
    asio::io_context io;
    asio::local::stream_protocol::socket s(io);
    asio::error_code ec;
    if (spec.path.size() >= sizeof(sockaddr_un{}.sun_path))
        return fail(fmt::format("socket path too long: {}", spec.path));
    s.connect(asio::local::stream_protocol::endpoint(spec.path), ec);
    if (ec) return fail(fmt::format("cannot connect to the server at {}: {}", spec.path, ec.message()));
    FramedSocket sock(s.release());

    ControlMessage m;
    std::string e;
    if (!handshake(sock, make_hello(o, "shm"), deadline, &m, &e)) return fail(e);
    if (m.kind == ControlKind::refusal) return refused(m.refusal);
    const Welcome& w = m.welcome;
    RingSetLayout layout = RingSetLayout::compute(w.rings);
    if (!valid_ring_size(w.rings.records) || !valid_ring_size(w.rings.replies) ||
        !valid_ring_size(w.rings.events) || !valid_ring_size(w.rings.staging))
        return fail("the server announced impossible ring sizes");
    std::unique_ptr<ShmSegment> seg = ShmSegment::open(w.shm_name, layout.total, &e);
    if (!seg) return fail(e);
    RingSetView view;
    if (!map_ring_set(seg->data(), seg->size(), w.rings, &view, &e)) return fail(e);
    // Now the server may unlink the name: the memory lives as long as the mappings.
    if (!sock.write_frame(kFrameControl, encode_attached(), deadline)) return fail("the server hung up during the handshake");
    ConnectResult r;
    r.link = make_shm_client(std::move(seg), view, std::move(sock), w.session_id, o.wait);
    return r;
}

ConnectResult connect_tcp(const ConnectOptions& o, const TransportSpec& spec) {
    asio::io_context io;
    asio::ip::tcp::socket s(io);
    asio::ip::tcp::resolver resolver(io);
    asio::error_code ec;
    auto endpoints = resolver.resolve(spec.host, std::to_string(spec.port), ec);
    if (ec) return fail(fmt::format("cannot resolve {}: {}", spec.host, ec.message()));
    // Asynchronous connect so that an unreachable host cannot hang us past the timeout.
    asio::error_code cec = asio::error::timed_out;
    asio::async_connect(s, endpoints, [&](const asio::error_code& e, const asio::ip::tcp::endpoint&) { cec = e; });
    io.run_for(o.timeout);
    if (cec) return fail(fmt::format("cannot connect to {}:{}: {}", spec.host, spec.port, cec.message()));
    tune_tcp_socket(s.native_handle());
    FramedSocket sock(s.release());

    ControlMessage m;
    std::string e;
    if (!handshake(sock, make_hello(o, "tcp"), Clock::now() + o.timeout, &m, &e)) return fail(e);
    if (m.kind == ControlKind::refusal) return refused(m.refusal);
    uint32_t batch = o.tcp_batch_bytes;
    if (m.welcome.max_record_bytes && batch > m.welcome.max_record_bytes) batch = m.welcome.max_record_bytes;
    ConnectResult r;
    r.link = make_tcp_client(std::move(sock), m.welcome.session_id, batch);
    return r;
}

}  // namespace

ConnectResult connect(const ConnectOptions& o) {
    std::string error;
    std::optional<TransportSpec> spec = parse_transport(o.transport, &error);
    if (!spec) return fail(error);
    switch (spec->kind) {
    case TransportSpec::Kind::direct: return connect_direct(o);
    case TransportSpec::Kind::inproc: return connect_inproc(o);
    case TransportSpec::Kind::shm: return connect_shm(o, *spec);
    case TransportSpec::Kind::tcp: return connect_tcp(o, *spec);
    }
    return fail("unreachable");
}

}  // namespace mgl::wire
