#!/usr/bin/env bash
# Figures for docs/PERFORMANCE.md (not a test): for each trace, the median of
# N runs of (1) eglretrace --benchmark through the stack (`mgl run`, inproc),
# (2) the same under `mgl capture` (inproc), (3) `mgl replay --benchmark` of
# that capture on the same backend. The three alternate within each repeat,
# so that a shared machine's load changes bias none of them.
#   bench_capture.sh MGL TRACE... (RUNS=3)
set -uo pipefail
mgl=${1:?mgl binary}; shift
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fps() { sed -n 's/.*average of \([0-9.e+]*\) fps.*/\1/p' | tail -1; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
export WAFFLE_PLATFORM=surfaceless_egl
for t in "$@"; do
    run=() cap=() rep=()
    for i in $(seq "$runs"); do
        run+=("$(env -u DISPLAY "$mgl" run -- eglretrace --benchmark --headless "$t" 2>&1 | fps)")
        cap+=("$(env -u DISPLAY "$mgl" capture -o "$work/c.mglcap" -- eglretrace --benchmark --headless "$t" 2>&1 | fps)")
        rep+=("$(env -u DISPLAY "$mgl" replay --benchmark "$work/c.mglcap" 2>&1 | fps)")
    done
    r=$(printf '%s\n' "${run[@]}" | median); c=$(printf '%s\n' "${cap[@]}" | median); p=$(printf '%s\n' "${rep[@]}" | median)
    echo "$(basename "$t"): run ${run[*]} (median $r) | capture ${cap[*]} (median $c, $(echo "scale=1; 100 * (1 - $c / $r)" | bc)% cost) |" \
         "replay ${rep[*]} (median $p, $(echo "scale=2; $p / $r" | bc)x) | capture $(stat -c %s "$work/c.mglcap") bytes"
done
