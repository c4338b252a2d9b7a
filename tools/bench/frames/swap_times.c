// A preload for timing any EGL program's frames the same way natively and
// through the stack: it wraps eglInitialize, eglCreateContext, eglMakeCurrent, eglSwapBuffers
// and glFinish and, at exit,
// writes one line per event to $MGL_SWAP_TIMES (CLOCK_MONOTONIC ns since the
// library loaded):
//   load 0 / KIND ENTER EXIT ... / exit T, KIND one of initialize,
//   create-context, current (eglMakeCurrent with a context), swap, finish
//   (glFinish)
// Only a process that made a context current writes, to $MGL_SWAP_TIMES.PID
// (a launcher such as `mgl run` loads the preload too).
// apitrace's retracers (and waffle, which they use) dlopen libEGL and dlsym
// each entry point: an interposed dlsym hands the wrappers out to the
// application's lookups only, so the stack's own EGL calls (Espryt's host
// context, in-process) are not counted.
// Summarise with tools/bench/frames/swap_frames.py.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef unsigned (*SwapFn)(void*, void*);
typedef unsigned (*CurrentFn)(void*, void*, void*, void*);
typedef void* (*DlsymFn)(void*, const char*);
typedef void* (*ProcFn)(const char*);
typedef void (*FinishFn)(void);
typedef unsigned (*InitializeFn)(void*, int*, int*);
typedef void* (*CreateContextFn)(void*, void*, void*, const int*);

enum { kMaxEvents = 1 << 20 };
static struct Event { char kind; uint64_t enter, exit; } events[kMaxEvents];
static unsigned nevents;
static uint64_t t0;
static SwapFn real_swap;
static CurrentFn real_current;
static ProcFn real_get_proc;
static FinishFn real_finish;
static InitializeFn real_initialize;
static CreateContextFn real_create_context;

static uint64_t now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static DlsymFn real_dlsym(void) {
    static DlsymFn fn;
    if (!fn) fn = (DlsymFn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!fn) fn = (DlsymFn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    return fn;
}

static void record(char kind, uint64_t enter) {
    if (nevents < kMaxEvents) events[nevents++] = (struct Event){kind, enter - t0, now() - t0};
}

static unsigned wrap_swap(void* dpy, void* surface) {
    uint64_t t = now();
    unsigned ok = real_swap(dpy, surface);
    record('s', t);
    return ok;
}

static unsigned wrap_current(void* dpy, void* draw, void* read, void* ctx) {
    uint64_t t = now();
    unsigned ok = real_current(dpy, draw, read, ctx);
    if (ctx) record('c', t);
    return ok;
}

static unsigned wrap_initialize(void* dpy, int* major, int* minor) {
    uint64_t t = now();
    unsigned ok = real_initialize(dpy, major, minor);
    record('i', t);
    return ok;
}

static void* wrap_create_context(void* dpy, void* config, void* share, const int* attribs) {
    uint64_t t = now();
    void* ctx = real_create_context(dpy, config, share, attribs);
    record('x', t);
    return ctx;
}

// eglretrace ends its timed run with glFinish (found through eglGetProcAddress).
static void wrap_finish(void) {
    uint64_t t = now();
    real_finish();
    record('f', t);
}

static void* wrap_get_proc(const char* name) {
    void* p = real_get_proc(name);
    if (p && strcmp(name, "glFinish") == 0) {
        real_finish = (FinishFn)p;
        return (void*)wrap_finish;
    }
    return p;
}

static int from_application(const void* caller) {
    // The stack itself (`mgl`, its server; the vendor library with the
    // in-process server) looks up host EGL too: those are not the app's frames.
    if (strcmp(program_invocation_short_name, "mgl") == 0) return 0;
    Dl_info info;
    if (!dladdr(caller, &info) || !info.dli_fname) return 1;
    return strstr(info.dli_fname, "mobilegl") == NULL && strstr(info.dli_fname, "libEGL") == NULL;
}

void* dlsym(void* handle, const char* name) {
    void* p = real_dlsym()(handle, name);
    if (!p || !from_application(__builtin_return_address(0))) return p;
    if (strcmp(name, "eglSwapBuffers") == 0) {
        real_swap = (SwapFn)p;
        return (void*)wrap_swap;
    }
    if (strcmp(name, "eglMakeCurrent") == 0) {
        real_current = (CurrentFn)p;
        return (void*)wrap_current;
    }
    if (strcmp(name, "eglInitialize") == 0) {
        real_initialize = (InitializeFn)p;
        return (void*)wrap_initialize;
    }
    if (strcmp(name, "eglCreateContext") == 0) {
        real_create_context = (CreateContextFn)p;
        return (void*)wrap_create_context;
    }
    if (strcmp(name, "eglGetProcAddress") == 0) {
        real_get_proc = (ProcFn)p;
        return (void*)wrap_get_proc;
    }
    return p;
}

__attribute__((constructor)) static void start(void) { t0 = now(); }

__attribute__((destructor)) static void finish(void) {
    const char* path = getenv("MGL_SWAP_TIMES");
    if (!path || nevents == 0) return;
    char name[4096];
    snprintf(name, sizeof name, "%s.%d", path, (int)getpid());
    FILE* f = fopen(name, "w");
    if (!f) return;
    uint64_t end = now() - t0;
    fprintf(f, "load 0\n");
    for (unsigned i = 0; i < nevents; ++i) {
        const char* kind = "current";
        switch (events[i].kind) {
            case 's': kind = "swap"; break;
            case 'f': kind = "finish"; break;
            case 'i': kind = "initialize"; break;
            case 'x': kind = "create-context"; break;
        }
        fprintf(f, "%s %llu %llu\n", kind, (unsigned long long)events[i].enter, (unsigned long long)events[i].exit);
    }
    fprintf(f, "exit %llu\n", (unsigned long long)end);
    fclose(f);
}
