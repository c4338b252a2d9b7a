#!/usr/bin/env bash
# The unit and integration tests of our own programs again, built with
# AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/). Not in CI's
# path (two full builds do not fit CI's 25 minutes on 2 cores; CI fuzzes the
# decoders and the handshake under the same sanitizers instead): run it before
# landing, and it is the first step of tools/test-full.sh. Run it after
# tools/test.sh, which installs the Debian packages.
#   tools/test-sanitizers.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
t0=$SECONDS
if [[ ! -f "$root/build-asan/build.ninja" ]]; then
    # -O0 and no debug info keep the sanitized build of the generated code
    # affordable on 2 cores: the largest generated file compiles in 48 s at
    # -O0 and 84 s at -O1 under ASan+UBSan (docs/PERFORMANCE.md §5b).
    meson setup "$root/build-asan" "$root" -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=0 -Ddebug=false >/dev/null
fi
# `meson test` builds only the targets the selected tests depend on (no tools,
# benchmarks or probes). The trace, glmark2, piglit and capture suites (Espryt
# and Magma) run uninstrumented programs, which cannot load our sanitized
# vendor library: they run in the normal build only (capture-reader runs in
# both).
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    meson test -C "$root/build-asan" --print-errorlogs --no-suite traces --no-suite glmark2 --no-suite piglit --no-suite piglit-desktop --no-suite piglit-compat --no-suite magma-piglit-desktop --no-suite magma-piglit-compat --no-suite piglit-glsl-compat \
        --no-suite magma-traces --no-suite magma-glmark2 --no-suite magma-piglit --no-suite magma-traces-gl --no-suite magma-glmark2-glx \
        --no-suite traces-gl --no-suite glmark2-glx --no-suite glx --no-suite hostile --no-suite capture --no-suite install --no-suite compat ||
    { python3 "$root/tools/test_digest.py" "$root/build-asan" || true; exit 1; }
echo "test: sanitizer build and tests took $((SECONDS - t0)) s"
