#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: the normal build, then
# the same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
#   tools/test.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=$SECONDS
"$root/tools/setup.sh" "$root/build"
echo "test: build took $((SECONDS - start)) s"
t0=$SECONDS
if ! meson test -C "$root/build" --print-errorlogs; then
    echo "test: tests took $((SECONDS - t0)) s"
    # A CI reader may see only the end of the log: the failures, shortly, last.
    python3 "$root/tools/test_digest.py" "$root/build" || true
    exit 1
fi
echo "test: tests took $((SECONDS - t0)) s"

# The sanitizer build compiles only what the tests need.
t0=$SECONDS
if [[ ! -f "$root/build-asan/build.ninja" ]]; then
    # -O1 and no debug info keep the sanitized build of the generated code affordable on 2 cores.
    meson setup "$root/build-asan" "$root" -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 -Ddebug=false >/dev/null
fi
ninja -C "$root/build-asan" -j "$(nproc)"
# The trace, glmark2, piglit and capture suites (Espryt and Magma) run uninstrumented programs, which cannot
# load our sanitized vendor library: they run in the normal build only (capture-reader runs in both; so
# does the install suite, which replays a trace through the installed vendor).
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    meson test -C "$root/build-asan" --print-errorlogs --no-suite traces --no-suite glmark2 --no-suite piglit --no-suite piglit-desktop --no-suite piglit-compat --no-suite magma-piglit-desktop --no-suite magma-piglit-compat --no-suite piglit-glsl-compat \
        --no-suite magma-traces --no-suite magma-glmark2 --no-suite magma-piglit --no-suite magma-traces-gl --no-suite magma-glmark2-glx \
        --no-suite traces-gl --no-suite glmark2-glx --no-suite glx --no-suite hostile --no-suite capture --no-suite install --no-suite compat ||
    { python3 "$root/tools/test_digest.py" "$root/build-asan" || true; exit 1; }
echo "test: sanitizer build and tests took $((SECONDS - t0)) s; total $((SECONDS - start)) s"
