#!/usr/bin/env bash
# CI's fuzz step: builds the libFuzzer targets with clang (ASan + UBSan +
# libFuzzer, only what they need), seeds a corpus from a reference trace
# (tests/fuzz/fuzz_seeds.cc) and runs each target for a bounded time. A crash,
# a sanitizer report or a leak fails the step; the input that did it is left
# in build-fuzz/artifacts/ and printed. An input slower than 120 s ends that
# target's run and is printed, without failing (llvmpipe on a huge draw).
#   tools/fuzz-ci.sh [SECONDS_PER_TARGET] [--with-backends] [--build-only]
#     (default 30; a soak: docs/RELIABILITY.md). --build-only stops after the
#     build (CI builds at low priority while its tests run, then runs the
#     targets with the machine to themselves). CI runs the decoder and
#     handshake targets; --with-backends adds fuzz-backend on Espryt and
#     Magma, whose clang build of both backends (about 400 s on 2 cores) does
#     not fit CI's budget: run it as the documented nightly command.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
secs=${1:-30}
with_backends=0
build_only=0
for arg in "${@:2}"; do
    case $arg in
        --with-backends) with_backends=1 ;;
        --build-only) build_only=1 ;;
        *) echo "fuzz: unknown option $arg" >&2; exit 2 ;;
    esac
done
trace=${FUZZ_TRACE:-$root/../shared/traces/chunks-1471.trace}
start=$SECONDS

if [[ ! -f "$build/build.ninja" ]]; then
    # -O1 without debug info: the instrumented generated decoders stay affordable on 2 cores.
    CC=clang CXX=clang++ meson setup "$build" "$root" -Dfuzzers=true -Doptimization=1 -Ddebug=false >/dev/null
fi
targets=(fuzz-decoder fuzz-handshake)
[[ $with_backends == 1 ]] && targets+=(fuzz-backend)
if ! ninja -C "$build" -j "$(nproc)" tests/fuzz/fuzz-seeds "${targets[@]/#/tests/fuzz/}" >"$build/fuzz-build.log" 2>&1; then
    tail -40 "$build/fuzz-build.log"; echo "fuzz: the targets did not build"; exit 1
fi
echo "fuzz: build took $((SECONDS - start)) s"
[[ $build_only == 1 ]] && exit 0

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
if [[ -f "$trace" ]]; then
    apitrace dump --multiline=no --color=never "$trace" 2>/dev/null | "$build/tests/fuzz/fuzz-seeds" "$corpus"
else
    echo "fuzz: no reference trace at $trace: handshake seeds only, empty record corpora"
    "$build/tests/fuzz/fuzz-seeds" "$corpus" </dev/null || true
    mkdir -p "$corpus"/{decoder,backend,handshake}
fi

mkdir -p "$build/artifacts"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export MOBILEGL_LOG_LEVEL=off
failed=0
run() {  # NAME CORPUS [ENV=VALUE...]
    local name=$1 dir=$2; shift 2
    local log=$build/artifacts/$name.log t0=$SECONDS bin=${name%%@*}
    local rc=0
    env "$@" "$build/tests/fuzz/$bin" -max_total_time="$secs" -max_len=4096 -timeout=120 -timeout_exitcode=70 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$build/artifacts/$name-" "$corpus/$dir" >"$log" 2>&1 || rc=$?
    local units
    units=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    if [[ $rc -eq 0 ]]; then
        echo "fuzz: $name ok: $units inputs in $((SECONDS - t0)) s, corpus $(ls "$corpus/$dir" | wc -l)"
    elif [[ $rc -eq 70 ]]; then
        # A slow input (a huge draw on llvmpipe) is no crash: it ends this run early and is shown.
        echo "fuzz: $name stopped at an input slower than 120 s after $units inputs (not a failure):"
        ls "$build/artifacts/$name-timeout-"* 2>/dev/null | sed 's/^/    input: /'
    else
        echo "fuzz: $name FAILED (a crash, sanitizer report or leak); the end of its log:"
        grep -v '^#[0-9]' "$log" | tail -40 | sed 's/^/    /'
        ls "$build/artifacts/$name-"* 2>/dev/null | sed 's/^/    input: /'
        failed=1
    fi
}
run fuzz-decoder decoder
run fuzz-handshake handshake
# Behind the decoder, on the host's GLES (llvmpipe) and on Vulkan (lavapipe).
if [[ $with_backends == 1 ]]; then
    run fuzz-backend@espryt backend MGL_FUZZ_BACKEND=espryt
    run fuzz-backend@magma backend MGL_FUZZ_BACKEND=magma
fi
echo "fuzz: step took $((SECONDS - start)) s"
exit $failed
