// The record source of the wire benchmarks, pluggable: today the hand-built
// test records; the generated encoder replaying a real call mix (e.g. the
// chunks-1471 trace) plugs in as another Workload without touching the
// benchmark loops.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "mgl/wire/link.h"
#include "mgl/wire/transport/applier.h"

namespace mgl::bench {

// Drives one connection: writes calls into its windows like an encoder.
class Driver {
public:
    virtual ~Driver() = default;
    // Writes `calls` asynchronous calls (no flush at the end).
    virtual void stream(uint64_t calls) = 0;
    // One synchronous call and its reply; false when the link is lost.
    virtual bool round_trip() = 0;
    virtual void flush() = 0;
};

class Workload {
public:
    virtual ~Workload() = default;
    virtual std::string name() const = 0;
    // Server side: how a session applies these records.
    virtual wire::ApplierFactory appliers() const = 0;
    virtual uint64_t wire_fingerprint() const = 0;
    virtual std::unique_ptr<Driver> attach(wire::ClientLink& link) const = 0;
};

// Test records: kOpWork records of 16 + payload_bytes bytes, kOpEcho round trips.
std::unique_ptr<Workload> make_testrec_workload(uint32_t payload_bytes);
// The generated codec: glDrawArrays into the null backend, mglPing round
// trips (only in builds with the codec: MGL_BENCH_HAVE_CODEC).
std::unique_ptr<Workload> make_codec_workload();
// A real call mix: `apitrace dump --multiline=no` text of a trace, frames 1..N,
// replayed through the generated encoder (tools/bench/codec/callmix.h).
std::unique_ptr<Workload> make_callmix_workload(const std::string& dump_path);

}  // namespace mgl::bench
