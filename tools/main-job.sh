#!/usr/bin/env bash
# Sets everything up and runs the main job. Until the client shell lands
# (issue 4) the main job is the codec demo: a real call stream (the
# steady-state frames of the chunks-1471 reference trace, read with
# `apitrace dump`) encoded by the generated encoders, decoded and dispatched
# into the null backend, with the first records dumped and the figures printed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh" "$root/build"
trace=${1:-$root/../shared/traces/chunks-1471.trace}
"$root/build/tools/bench/codec/mgl-bench-codec" --record-sizes
apitrace dump --multiline=no --color=never "$trace" 2>/dev/null |
    "$root/build/tools/bench/codec/mgl-bench-codec" --label "$(basename "$trace" .trace)" --dump 16
