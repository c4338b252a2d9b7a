#!/usr/bin/env bash
# Sets everything up and runs the main job: an unmodified GL program
# (apitrace's eglretrace replaying a reference trace) rendered through the
# wire on the embedded default (inproc transport, Espryt on this machine's
# EGL). Prints its fps beside the native replay's, the per-frame link
# counters of a few frames, and saves the last frame as a PNG.
#   tools/main-job.sh [TRACE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh" "$root/build"
trace=${1:-$root/../shared/traces/glmark2-es2-jellyfish.trace}
mgl=$root/build/tools/mgl
out=$root/build/main-job
mkdir -p "$out"
export WAFFLE_PLATFORM=surfaceless_egl
unset DISPLAY

echo "== $(basename "$trace"): native replay"
eglretrace --benchmark --headless "$trace" 2>&1 | grep -E "Rendered"
echo "== through MobileGL wire (inproc, espryt): mgl run -- eglretrace --benchmark"
MOBILEGL_PIPE_STATS=1 "$mgl" run --transport inproc --backend espryt -- eglretrace --benchmark --headless "$trace" \
    >"$out/run.log" 2>&1
grep -E "Rendered" "$out/run.log"
echo "== link counters of the last three frames (MOBILEGL_PIPE_STATS=1)"
grep "mgl pipe:" "$out/run.log" | tail -3

# The last frame: the call number of the last eglSwapBuffers.
last=$(apitrace dump --grep='^eglSwapBuffers' --color=never "$trace" 2>/dev/null | awk '/^[0-9]+ eglSwapBuffers/ {n = $1} END {print n}')
rm -f "$out"/*.png
"$mgl" run -- eglretrace --headless -S "$last" -s "$out/" "$trace" >/dev/null 2>&1
mv "$out/$(printf '%010d' "$last").png" "$out/last-frame.png"
echo "== saved the last frame (call $last) to $out/last-frame.png"
