#!/usr/bin/env bash
# Magma's per-frame counters on every reference trace (issue 5's targets):
# after warm-up, 0 pipelines created per frame, and no more render passes
# than render-target switches (a pass re-begun on the target it just left
# is work that could not stay inside the pass).
#   tools/bench/traces/magma-counters.sh MGL TRACE_DIR [WARMUP_FRAMES] [TRANSPORT]
# Warm-up: the first WARMUP_FRAMES frames (default 3): a trace's setup frame
# and the first frames that meet each state combination. Exit status 1 when a
# target is missed on some trace. One table row per trace.
set -uo pipefail
mgl=${1:?mgl binary}
traces=${2:?trace dir}
warmup=${3:-3}
transport=${4:-inproc}
echo "| trace | frames | pipelines after warm-up (frames with any) | passes / target switches per frame (median) | frames with passes > switches | descriptor sets per frame (median) | submits per frame (median) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
missed=0
for t in "$traces"/*.trace; do
    name=$(basename "$t" .trace)
    out=$(env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl MOBILEGL_MAGMA_STATS=1 timeout 600 \
        "$mgl" run --transport "$transport" --backend magma -- eglretrace --benchmark --headless "$t" 2>&1)
    row=$(grep '^magma frame ' <<<"$out" | awk -v w="$warmup" -v n="$name" '
        { f = $3 + 0; passes = $4 + 0; sw = substr($7, 2) + 0; pipes = $10 + 0; sets = $13 + 0; subs = $16 + 0
          frames++
          if (f > w) { late += pipes; if (pipes > 0) latef++; if (passes > sw) split_frames++
                       P[++k] = passes; S[k] = sw; D[k] = sets; U[k] = subs } }
        function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return n ? a[int((n + 1) / 2)] : "-" }
        END { printf "| %s | %d | %d (%d) | %s / %s | %d | %s | %s |\n", n, frames, late, latef, med(P, k), med(S, k), split_frames, med(D, k), med(U, k)
              if (late > 0 || split_frames > 0 || frames == 0) exit 1 }')
    rc=$?
    [[ -z "$row" ]] && row="| $name | no counters (did the replay run on Magma?) | | | | | |"
    echo "$row"
    ((rc != 0)) && missed=1
done
exit $missed
