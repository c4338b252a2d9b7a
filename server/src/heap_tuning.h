// Process-wide malloc tuning for the threads that drive a host driver.
#pragma once

namespace mgl::server {

// 8 MiB: above the ~1 MB that llvmpipe frees and reallocates per scene, small
// beside a GL process's footprint. Per arena, so at most this much per session.
inline constexpr int kApplyThreadTopPad = 8 << 20;

// Sets glibc's M_TOP_PAD once per process (unless MALLOC_TOP_PAD_ is set).
void tune_heap_for_apply_threads();

}  // namespace mgl::server
