#!/usr/bin/env bash
# Runs mgl-bench-codec on the steady-state frames of every reference trace
# (and the record sizes), printing one line per trace (two: the input
# streamed from memory, and in cache). CI prints it for chunks-1471 as a
# report: never a pass/fail on speed (docs/PERFORMANCE.md §1).
#   tools/bench/codec/run.sh BUILD_DIR [TRACE_DIR [TRACE_NAME_REGEX]]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [TRACE_DIR]}
traces=${2:-$(dirname "$0")/../../../../shared/traces}
filter=${3:-.}
bench=$build/tools/bench/codec/mgl-bench-codec
"$bench" --record-sizes
for t in "$traces"/*.trace; do
    name=$(basename "$t" .trace)
    [[ "$name" =~ $filter ]] || continue
    apitrace dump --multiline=no --color=never "$t" 2>/dev/null | "$bench" --label "$name" --repeat 9
done
