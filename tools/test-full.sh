#!/usr/bin/env bash
# What CI leaves out: the sanitizer pass (tools/test-sanitizers.sh) and the
# whole lists behind CI's representative parts: every reference trace on
# every transport and backend, and piglit's whole groups, natively and through
# the stack, compared test by test. Hours on a 2-core machine; not a CI step.
# Run after tools/test.sh (it uses that build):
#   tools/test-full.sh [RESULTS_DIR]
# Each list prints its verdict and keeps its log in RESULTS_DIR; the script
# exits non-zero when any list has a difference beyond its documented known
# differences. Record the figures in docs/ (PIGLIT.md for piglit) with the
# date and this command.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
mgl=$build/tools/mgl
out=${1:-$root/build/full-results}
traces=$root/../shared/traces
traces_gl=$root/../shared/traces-gl
pg=$root/tests/piglit
mkdir -p "$out"
[[ -x "$mgl" ]] || { echo "test-full: no $mgl; run tools/test.sh first"; exit 2; }
failed=()
step() {  # step NAME COMMAND...: runs one list, keeps its log, notes the verdict
    local name=$1 t0=$SECONDS
    shift
    echo "== $name: $*"
    if "$@" >"$out/$name.log" 2>&1; then
        echo "   $name: ok ($((SECONDS - t0)) s)"
    else
        echo "   $name: FAILED ($((SECONDS - t0)) s; $out/$name.log)"
        failed+=("$name")
    fi
    grep -E "^(FAIL|piglit )" "$out/$name.log" | tail -15 | sed 's/^/     /'
}

# Our own programs under ASan+UBSan (build-asan/).
step sanitizers bash "$root/tools/test-sanitizers.sh"

# Traces: ES and desktop (eglretrace) on every transport, desktop through GLX
# (glretrace under Xvfb) on every transport too, all through Espryt; then
# through Magma.
TRACES_NATIVE_CACHE=$build/tests/traces/native-snapshots \
    step traces-es bash "$root/tests/traces/replay_traces.sh" "$mgl" "$traces" "direct inproc shm tcp"
TRACES_NATIVE_CACHE=$build/tests/traces/native-snapshots-gl \
    step traces-gl bash "$root/tests/traces/replay_traces.sh" "$mgl" "$traces_gl" "direct inproc shm tcp" '^(glmark2|chunks|glxgears)'
RETRACE=glretrace TRACES_NATIVE_CACHE=$build/tests/traces/native-snapshots-glx \
    step traces-gl-glx bash "$root/tests/traces/replay_traces.sh" "$mgl" "$traces_gl" "direct inproc shm tcp" '^(glmark2|chunks|glxgears)'
for tr in inproc shm; do
    MGL_TRANSPORT=$tr step "magma-traces-es-$tr" bash "$root/tests/magma/replay_magma.sh" "$mgl" "$traces"
    MGL_TRANSPORT=$tr step "magma-traces-gl-$tr" bash "$root/tests/magma/replay_magma.sh" "$mgl" "$traces_gl" '^(glmark2|chunks|glxgears)'
done

# piglit: each subset natively once (its results shared through the cache),
# then through Espryt and through Magma, each against its own known differences.
for s in gles desktop compat glsl-compat; do
    export PIGLIT_SUBSET=$s PIGLIT_NATIVE_CACHE=$out/piglit-native-$s
    suffix=
    [[ $s != gles ]] && suffix=-$s
    espryt_runs=shm
    [[ $s == gles ]] && espryt_runs="inproc shm"
    step "piglit-$s" bash "$pg/run_piglit.sh" "$mgl" "$pg/known-differences$suffix.txt" "$espryt_runs" "$out/piglit-$s"
    if [[ -f "$pg/known-differences-magma$suffix.txt" ]]; then
        step "piglit-$s-magma" bash "$pg/run_piglit.sh" "$mgl" "$pg/known-differences-magma$suffix.txt" magma:shm "$out/piglit-$s-magma"
    fi
done
unset PIGLIT_SUBSET PIGLIT_NATIVE_CACHE
echo "test-full: $((SECONDS / 60)) min; lists with differences: ${failed[*]:-none}"
((${#failed[@]} == 0))
