// Keeps glibc from handing an apply thread's freed heap back to the kernel
// after every frame.
//
// An apply thread is not the program's main thread, so glibc gives it a heap
// arena of its own, and that arena is trimmed (madvise(MADV_DONTNEED)) as soon
// as its free top exceeds the trim threshold. llvmpipe frees ~0.6-1 MB of
// scene memory at each glClear/flush and allocates it again for the next
// scene: on the server thread every frame paid that round trip in page
// faults (21% of the run's time in exc_page_fault, glmark2's buffer trace at
// 0.5x native through inproc and shm). A top pad of a few MiB keeps that
// memory in the arena: 1.1-1.3x native (docs/PERFORMANCE.md §3b). Natively
// the driver runs on the program's main thread, whose sbrk heap did not show
// the cost (native with the same pad: no clear change).
#include "heap_tuning.h"

#include <cstdlib>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace mgl::server {

void tune_heap_for_apply_threads() {
#if defined(__GLIBC__) && defined(M_TOP_PAD)
    static std::once_flag once;
    std::call_once(once, [] {
        // glibc's own variable, when set, says what the user wants.
        if (std::getenv("MALLOC_TOP_PAD_")) return;
        mallopt(M_TOP_PAD, kApplyThreadTopPad);
    });
#endif
}

void return_freed_heap() {
#if defined(__GLIBC__)
    // 0: keep no pad on the main heap. Every arena's free pages are released
    // (madvise), including those of running sessions: those come back at
    // their next frame, a one-time cost per ended session.
    malloc_trim(0);
#endif
}

}  // namespace mgl::server
