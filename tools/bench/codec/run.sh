#!/usr/bin/env bash
# Runs mgl-bench-codec on the steady-state frames of every reference trace
# (and the record sizes), printing one line per trace.
#   tools/bench/codec/run.sh BUILD_DIR [TRACE_DIR]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [TRACE_DIR]}
traces=${2:-$(dirname "$0")/../../../../shared/traces}
bench=$build/tools/bench/codec/mgl-bench-codec
"$bench" --record-sizes
for t in "$traces"/*.trace; do
    name=$(basename "$t" .trace)
    apitrace dump --multiline=no --color=never "$t" 2>/dev/null | "$bench" --label "$name" --repeat 9
done
