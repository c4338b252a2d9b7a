#!/usr/bin/env bash
# Where Magma's frame time goes, on a machine without perf (the GPU machine):
# each trace replayed once natively and once through Magma with
# MOBILEGL_MAGMA_STATS=1, whose per-frame line gives the apply thread's wall
# and CPU time, its time blocked on fences (the GPU's progress) and inside
# vkQueueSubmit, with the frame's draws and descriptor sets. Medians over the
# frames after WARMUP. One Markdown row per trace.
#   tools/bench/gpu/magma-frame-times.sh BUNDLE TRANSPORT WARMUP TRACE...
# BUNDLE as for run-traces.sh (run that first on the machine: it unpacks the
# bundle); on this machine, BUNDLE may be "-" to use eglretrace and build/tools/mgl.
set -uo pipefail
bundle=${1:?bundle or -}; transport=${2:-inproc}; warmup=${3:-20}; shift 3
source "$(dirname "$0")/bundle-env.sh" "$bundle"
fps_of() { sed -n 's/.*average of \([0-9.]*\) fps.*/\1/p' | tail -1; }
echo "| trace | native fps | Magma $transport fps | draws | descriptor sets | wall µs | apply-thread CPU µs | GPU wait µs | submit µs |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for tr in "$@"; do
    name=$(basename "$tr" .trace)
    native=$(env -u DISPLAY timeout 120 "$retrace" --benchmark --headless "$tr" 2>&1 | fps_of)
    out=$(env -u DISPLAY MOBILEGL_MAGMA_STATS=1 timeout 120 "$mgl" run --backend magma --transport "$transport" -- \
        "$retrace" --benchmark --headless "$tr" 2>&1)
    fps=$(fps_of <<<"$out")
    grep '^magma frame ' <<<"$out" | awk -v w="$warmup" -v n="$name" -v nf="${native:-?}" -v mf="${fps:-?}" '
        function med(a, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return k ? a[int((k + 1) / 2)] : "-" }
        ($3 + 0) > w { ++k; D[k] = $18 + 0; S[k] = $13 + 0; W[k] = $20 + 0; C[k] = $23 + 0; G[k] = $27 + 0; U[k] = $31 + 0 }
        END { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, nf, mf, med(D, k), med(S, k), med(W, k), med(C, k), med(G, k), med(U, k) }'
done
