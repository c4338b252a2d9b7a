// Process-wide malloc tuning for the threads that drive a host driver.
#pragma once

namespace mgl::server {

// 8 MiB: above the ~1 MB that llvmpipe frees and reallocates per scene, small
// beside a GL process's footprint. Per arena, so at most this much per session.
inline constexpr int kApplyThreadTopPad = 8 << 20;

// Sets glibc's M_TOP_PAD once per process (unless MALLOC_TOP_PAD_ is set).
void tune_heap_for_apply_threads();

// After a session ended: hands the free memory of every malloc arena back to
// the kernel. The top pad above keeps an apply thread's scene memory between
// frames; once its session is gone, that memory and everything else the
// session freed (its backend, its driver objects) would stay in an arena that
// only a later thread may reuse: a server that served 16 sessions stayed at
// 2.5-4.2 GB idle. Called by the reaper, never on an apply thread's frame path.
void return_freed_heap();

}  // namespace mgl::server
