// What the wire's figures are measured against, in the same run: the
// machine's memcpy bandwidth, a raw loopback TCP socket's bandwidth, a raw
// futex ping-pong and a raw loopback TCP ping-pong.
#pragma once

#include <cstdint>
#include <vector>

namespace mgl::bench {

double memcpy_mb_per_s(uint64_t total_bytes);
double raw_tcp_mb_per_s(uint64_t total_bytes);
// Round-trip latencies in nanoseconds, one per iteration.
std::vector<double> raw_futex_ping_pong(uint64_t iterations, bool spin);
std::vector<double> raw_tcp_ping_pong(uint64_t iterations);

double median(std::vector<double> v);
double percentile(std::vector<double> v, double p);

}  // namespace mgl::bench
